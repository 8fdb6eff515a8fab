"""Architecture rules that must hold for every module: claims/ is the pure core."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_IN_CLAIMS = {"tracker", "httpx", "bs4", "apscheduler", "jinja2", "apprise", "feedgen"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_claims_imports_no_io_layer():
    offenders = {
        str(p.relative_to(ROOT)): sorted(_imports(p) & FORBIDDEN_IN_CLAIMS)
        for p in (ROOT / "claims").rglob("*.py")
        if _imports(p) & FORBIDDEN_IN_CLAIMS
    }
    assert offenders == {}


def test_only_the_fetch_seam_imports_httpx():
    # One network seam: fetch.py and its transports (HAR replay/record, throttle, live).
    seam = {
        "tracker/net/body.py",  # capped, decoded body reading
        "tracker/net/client.py",
        "tracker/net/fetch.py",
        "tracker/net/har.py",
        "tracker/net/harcheck.py",  # HAR entry validation (URLs and headers as httpx reads them)
        "tracker/net/policy.py",  # request policy and the private-address guard transport
        "tracker/net/throttle.py",
        "tracker/net/transport.py",
    }
    users = sorted(
        str(p.relative_to(ROOT))
        for p in (ROOT / "tracker").rglob("*.py")
        if "httpx" in _imports(p) and str(p.relative_to(ROOT)) not in seam
    )
    assert users == []
