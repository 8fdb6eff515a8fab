"""The shape of the code: no import circles, no reaching into another module's privates,
short functions. The layers themselves are import-linter's contract (pyproject.toml,
``make lint``); this file checks what a contract cannot say."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("claims", "tracker")
MAX_FUNCTION_LINES = 80
# A function may be longer when its docstring says why: it must contain this phrase.
LONG_OK = "long on purpose"
# Being split while other work lands on these modules; the list may only shrink.
KNOWN_LONG: set[str] = set()
KNOWN_PRIVATE: set[str] = set()


@pytest.fixture(scope="module")
def graph():
    # Type-checking imports count too (a circle hidden behind TYPE_CHECKING is still
    # one), and no cache: grimp's on-disk cache can answer with an older tree.
    return grimp.build_graph(*PACKAGES, cache_dir=None)


def test_no_import_circles_between_modules(graph):
    circles = []
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            if imported == module or imported in module.split("."):
                continue
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back and module < imported:
                circles.append((module, *back))
    assert circles == []


def _sources():
    for package in PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))


def test_no_module_imports_a_private_name_of_another():
    found = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.split(".")[0] not in PACKAGES:
                    continue
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.append(f"{path.relative_to(ROOT)}: {node.module}.{alias.name}")
    assert sorted(set(found) - KNOWN_PRIVATE) == []


def test_functions_stay_under_80_lines_unless_their_docstring_says_why():
    long = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES and LONG_OK not in (ast.get_docstring(node) or ""):
                    long.append(f"{path.relative_to(ROOT)} {node.name}")
    assert sorted(set(long) - KNOWN_LONG) == []
    assert sorted(KNOWN_LONG - set(long)) == []  # a split function leaves the list


def test_the_exception_tree_draws_every_error_class_the_project_defines():
    from tracker import errors

    drawn = set(re.findall(r"[├└]── (\w+)", errors.__doc__ or "")) | {"TrackerError", "ClaimsError"}
    defined = set()
    for path in _sources():
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef) and any(
                isinstance(b, ast.Name) and (b.id.endswith(("Error", "Exception")) or b.id in drawn)
                for b in node.bases
            ):
                defined.add(node.name)
    assert "MissingCredential" in defined and "SchemaMissing" in defined
    assert defined - drawn == set()


def test_environment_variables_are_read_in_tracker_settings_only_and_all_documented():
    from tracker.settings import VARIABLES

    readers = [
        str(path.relative_to(ROOT))
        for path in _sources()
        if re.search(r"os\.environ|os\.getenv", path.read_text())
    ]
    assert readers == ["tracker/settings.py"]
    readme = (ROOT / "README.md").read_text()
    configuration = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    assert sorted(re.findall(r"^\| `(TRACKER_\w+)`", configuration, re.M)) == sorted(VARIABLES)
