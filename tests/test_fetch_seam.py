"""House rule: one network seam. Only tracker/fetch.py and its transport helpers
(har.py, throttle.py) import httpx; claims/matching.py stays pure."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEAM = {"tracker/fetch.py", "tracker/har.py", "tracker/throttle.py"}
IO_LIBS = {"httpx", "bs4", "apscheduler", "jinja2", "tracker"}


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_only_the_fetch_seam_imports_httpx():
    offenders = sorted(
        str(p.relative_to(ROOT))
        for p in (ROOT / "tracker").rglob("*.py")
        if "httpx" in imported(p) and str(p.relative_to(ROOT)) not in SEAM
    )
    assert offenders == []


def test_matching_is_pure():
    assert imported(ROOT / "claims" / "matching.py") & IO_LIBS == set()
