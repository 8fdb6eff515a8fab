"""The verification core stays pure: no tracker, httpx, bs4, apscheduler or jinja2 imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CLAIMS = Path(__file__).resolve().parent.parent / "claims"
FORBIDDEN = ("tracker", "httpx", "bs4", "apscheduler", "jinja2")
MODULES = (
    "compare",
    "facts",
    "judge",
    "promises",
    "verify",
    "loaders",
    "review",
    "hub_params",
    "context",
    "prices",
    "licenses",
)


@pytest.mark.parametrize("name", MODULES)
def test_verification_modules_import_nothing_from_the_io_layer(name):
    tree = ast.parse((CLAIMS / f"{name}.py").read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert imported & set(FORBIDDEN) == set()
