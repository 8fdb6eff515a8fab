"""The README documents every CLI command and every event kind (sqlite-utils' habit), and
docs/data.md every key, attribute, qualifier and adapter param the loader accepts."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import typer

from claims.curated import datafile
from claims.events import EVENT_KINDS
from claims.values.stated import parse_stated
from claims.values.value import DATE_RELATIONS
from claims.vocabulary import (
    ATTRIBUTES,
    QUALIFIERS,
    SOURCE_KINDS,
    attribute_label,
    qualifier_label,
)
from tracker.adapters.base import BUILTIN, BUILTIN_PARAMS, COMMON_PARAMS, ID_NAMESPACES
from tracker.cli.main import app
from tracker.curated.load import validate_curated

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def _commands(cli: typer.Typer, prefix: str = "") -> set[str]:
    names = {prefix + (c.name or c.callback.__name__) for c in cli.registered_commands}
    for group in cli.registered_groups:
        names |= _commands(group.typer_instance, prefix + f"{group.name} ")
    return names


def test_every_command_is_in_the_readme():
    commands = _commands(app)
    assert {"demo", "status", "check", "claims extract", "alerts send", "schedule"} <= commands
    missing = sorted(c for c in commands if f"tracker {c}" not in README)
    assert missing == []


def test_every_event_kind_is_in_the_readme():
    missing = sorted(k for k in EVENT_KINDS if f"| `{k}` |" not in README)
    assert missing == []


# -- docs/data.md: the curated data format -----------------------------------------

DATA_DOC_PATH = Path(__file__).resolve().parent.parent / "docs" / "data.md"
DATA_DOC = DATA_DOC_PATH.read_text()
# An example file: "<!-- file: PATH -->" on the line before a ```toml fence.
EXAMPLE_RE = re.compile(r"^<!-- file: (?P<path>\S+) -->\n```toml\n(?P<body>.*?)^```$", re.M | re.S)


def _section(heading: str) -> str:
    """The text under the markdown heading line ``heading`` up to the next heading of
    the same or a higher level."""
    level = len(heading) - len(heading.lstrip("#"))
    start = DATA_DOC.index("\n" + heading + "\n") + len(heading) + 2
    nxt = re.compile(rf"^#{{1,{level}}} ", re.M).search(DATA_DOC, start)
    return DATA_DOC[start : nxt.start() if nxt else len(DATA_DOC)]


def _table_rows(text: str) -> list[list[str]]:
    """Cells of each body row of the markdown tables in ``text`` (header rows skipped)."""
    rows, prev = [], ""
    for line in text.splitlines():
        # a header row follows no table line; the "| --- |" row is not a body row
        if line.startswith("|") and prev.startswith("|") and not line.startswith("| ---"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
        prev = line
    return rows


def test_data_doc_lists_every_attribute_with_its_label_kinds_and_unit():
    rows = {r[0]: r for r in _table_rows(_section("### Attributes"))}
    for name, (kinds, unit) in ATTRIBUTES.items():
        row = rows.get(f"`{name}`")
        assert row is not None, name
        assert row[1] == attribute_label(name), name
        assert row[2] == ", ".join(kinds), name
        assert row[3].split(" ")[0] == (unit or "—"), name
    assert sorted(rows) == sorted(f"`{a}`" for a in ATTRIBUTES)


def test_data_doc_lists_every_qualifier_with_its_label():
    rows = {r[0]: r for r in _table_rows(_section("### Qualifiers"))}
    assert sorted(rows) == sorted(f"`{q}`" for q in QUALIFIERS)
    for q in QUALIFIERS:
        assert rows[f"`{q}`"][1] == qualifier_label(q), q


def test_data_doc_lists_every_allowed_key_of_each_table():
    tables = {
        "## `subjects.toml`": datafile.SUBJECT - {"ids"},
        "## `watches.toml`": datafile.WATCH - {"params"},
        "### `[source]`": datafile.SOURCE,
        "### `[[claim]]`": datafile.CLAIM,
    }
    for heading, keys in tables.items():
        documented = {r[0] for r in _table_rows(_section(heading).split("\n### ")[0])}
        assert {f"`{k}`" for k in keys} <= documented, heading
    assert "| `[subject.ids]` |" in DATA_DOC and "| `[watch.params]` |" in DATA_DOC
    for top in set().union(*datafile.TOP_LEVEL.values()):
        assert f"`{top}`" in _section("## Folder layout"), top
    for value in (*SOURCE_KINDS, *datafile.PUBLISHED_PRECISIONS):
        assert f"`{value}`" in _section("### `[source]`"), value
    namespaces = {r[0] for r in _table_rows(_section("### `[subject.ids]`"))}
    assert namespaces == {f"`{ns}`" for ns in ID_NAMESPACES}
    for relation in DATE_RELATIONS:
        assert f"`{relation} D`" in _section("### Writing a value"), relation


def test_data_doc_describes_every_builtin_adapter_and_its_params():
    common = {r[0] for r in _table_rows(_section("### Params every watch may set"))}
    assert {f"`{p}`" for p in COMMON_PARAMS} <= {
        f"`{name.strip('` ')}`" for cell in common for name in cell.split(",")
    }
    assert set(BUILTIN) == set(BUILTIN_PARAMS)
    for kind, params in BUILTIN_PARAMS.items():
        text = _section(f"#### `{kind}`")
        missing = sorted(p for p in params if f"`{p}`" not in text)
        assert missing == [], kind
        if not params:
            assert "Own params: none" in text, kind


def _examples() -> dict[str, str]:
    found = {m["path"]: m["body"] for m in EXAMPLE_RE.finditer(DATA_DOC)}
    assert {"subjects.toml", "watches.toml"} <= set(found)
    return found


def test_data_doc_examples_load(tmp_path):
    """The example files load as they are, every table kept, and the page's own count
    ("N subjects, N watches, N sources, N claims") is right."""
    examples = _examples()
    for rel, body in examples.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(body)
    data = validate_curated(tmp_path)
    text = "".join(examples.values())
    assert len(data.subjects) == text.count("[[subject]]") == 2
    assert len(data.watches) == text.count("[[watch]]")
    assert len(data.sources) == len([p for p in examples if p.startswith("claims/")]) >= 2
    assert len(data.claims) == text.count("[[claim]]")
    counts = (len(data.subjects), len(data.watches), len(data.sources), len(data.claims))
    said = "{} subjects, {} watches, {} sources, {} claims".format(*counts)
    assert said in " ".join(DATA_DOC.split())
    assert {c.attribute for c in data.claims} >= {"total_params", "weights_release_date"}
    assert {w.adapter for w in data.watches} >= {"html_page", "huggingface_org"}


def test_data_doc_value_forms_read_as_documented():
    """Each row of the notation table parses for its attribute (with its other keys)
    and displays as the "shown as" column says."""
    rows = _table_rows(_section("### Writing a value"))
    assert len(rows) >= 20
    for value, attribute, other, shown, _ in rows:
        extra = tomllib.loads(other.strip("`")) if other else {}
        text = value.strip("`")
        raw = {"true": True, "false": False}.get(text, text)  # TOML booleans, unquoted
        parsed = parse_stated(
            raw,
            attribute.strip("`"),
            unit=extra.get("unit"),
            exact=extra.get("exact", False),
        )
        assert parsed.display() == shown, value


def test_data_docs_are_linked_from_the_readme_and_other_pages():
    assert "(docs/data.md)" in README
    docs = DATA_DOC_PATH.parent
    for page in ("watches.md", "scheduler.md"):
        assert "(data.md" in (docs / page).read_text(), page
