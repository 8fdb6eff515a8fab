"""Fuzz: the curated-data loader raises only DataFileError, and a malformed data
folder leaves the database exactly as it was (tracker.curated.load.load_curated)."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from claims.curated.loader import DataFileError, load_data
from claims.store.engine import make_engine
from tracker.curated.load import load_curated, param_checks

DATA = Path(__file__).resolve().parents[2] / "data"
TABLES = ("subject", "subjectalias", "subjectvariant", "source", "claim", "watch")
SETTINGS = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "120")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def toml_value(v: Any) -> str:
    """A TOML literal for a str/int/float/bool/date/list/dict (enough for fuzzing)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(repr(v), repr(v))
    if isinstance(v, (dt.date, dt.datetime)):
        return v.isoformat()
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def toml_doc(tables: dict[str, dict[str, Any]], arrays: dict[str, list[dict[str, Any]]]) -> str:
    out: list[str] = []
    for name, body in tables.items():
        out.append(f"[{name}]")
        out += [f"{json.dumps(k)} = {toml_value(v)}" for k, v in body.items()]
    for name, entries in arrays.items():
        for body in entries:
            out.append(f"[[{name}]]")
            out += [f"{json.dumps(k)} = {toml_value(v)}" for k, v in body.items()]
    return "\n".join(out) + "\n"


scalars = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["kimi-k3", "kimi-k3.1-pro", "x", "Bad Slug", "", "https://e.x/", "ftp://x"]),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(),
    st.booleans(),
    st.dates(),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
STATED = [
    "2.8T",
    "~3T",
    ">=1000",
    "65.7%",
    "1000-2000+",
    "on 2026-11-04",
    "by 2026-11",
    "mit",
    "2026-02-30",
]
SUBJECT_KEYS = [
    "slug",
    "name",
    "organization",
    "family",
    "hub_org",
    "description",
    "aliases",
    "variants",
    "ids",
]
WATCH_KEYS = ["name", "adapter", "url", "interval_minutes", "params"]
SOURCE_KEYS = [
    "key",
    "title",
    "url",
    "publisher",
    "published",
    "published_precision",
    "language",
    "kind",
    "seed",
]
CLAIM_KEYS = [
    "subject",
    "attribute",
    "value",
    "unit",
    "exact",
    "qualifiers",
    "raw",
    "claimant",
    "locator",
    "stated_date",
    "note",
]
ATTRS = ["total_params", "license", "release_date", "weights_available", "benchmark_score", "nope"]


def entry(
    required: dict[str, st.SearchStrategy[Any]],
    optional: list[str],
    specials: dict[str, st.SearchStrategy[Any]],
) -> st.SearchStrategy[dict[str, Any]]:
    """A table: each required key usually valid (sometimes arbitrary or absent), plus a
    random subset of optional keys with arbitrary (or special) values."""

    def pick(chosen: list[str]) -> st.SearchStrategy[dict[str, Any]]:
        req = {k: st.one_of(v, v, v, values, st.just(MISSING)) for k, v in required.items()}
        opt = {k: st.one_of(specials.get(k, values), values) for k in chosen}
        return st.fixed_dictionaries({**req, **opt}).map(
            lambda d: {k: v for k, v in d.items() if v is not MISSING}
        )

    return st.lists(st.sampled_from(optional), unique=True, max_size=len(optional)).flatmap(pick)


MISSING = object()
slugs = st.sampled_from(["kimi-k3", "a-b", "Z"])
subject_entry = entry({"slug": slugs, "name": st.just("N")}, SUBJECT_KEYS[2:], {})
watch_entry = entry(
    {
        "name": st.sampled_from(["w1", "w2"]),
        "adapter": st.just("html_page"),
        "url": st.sampled_from(["http://127.0.0.1/x", "mailto:x"]),
    },
    WATCH_KEYS[3:],
    {},
)
source_table = entry(
    {"key": st.sampled_from(["src-a", "src-b"]), "title": st.just("T")},
    SOURCE_KEYS[2:],
    {
        "kind": st.sampled_from(["press", "vendor", "blog"]),
        "published": st.sampled_from(["2026-10", "2026-1"]),
    },
)
claim_entry = entry(
    {"subject": slugs, "attribute": st.sampled_from(ATTRS), "value": st.sampled_from(STATED)},
    CLAIM_KEYS[3:],
    {},
)
folders = st.fixed_dictionaries(
    {
        "subjects": st.lists(subject_entry, max_size=3),
        "watches": st.lists(watch_entry, max_size=2),
        "sources": st.lists(st.tuples(source_table, st.lists(claim_entry, max_size=3)), max_size=2),
    }
)


def write_folder(root: Path, spec: dict[str, Any]) -> None:
    (root / "claims").mkdir(parents=True)
    (root / "subjects.toml").write_text(toml_doc({}, {"subject": spec["subjects"]}))
    (root / "watches.toml").write_text(toml_doc({}, {"watch": spec["watches"]}))
    for i, (source, claims) in enumerate(spec["sources"]):
        (root / "claims" / f"s{i}.toml").write_text(toml_doc({"source": source}, {"claim": claims}))


def dump(engine) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the curated tables, for an exact before/after comparison."""
    with engine.connect() as conn:
        return {
            t: [tuple(r) for r in conn.execute(text(f"SELECT * FROM {t} ORDER BY id"))]
            for t in TABLES
        }


@SETTINGS
@given(spec=folders)
def test_generated_folders_raise_only_data_file_error(spec):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "data"
        write_folder(root, spec)
        try:
            data = load_data(
                root, known_adapters={"html_page", "huggingface_model"}, param_checks=param_checks()
            )
        except DataFileError as exc:
            assert str(exc).startswith(str(root))  # names the file
            return
        # Accepted data must then store cleanly, twice (idempotent).
        engine = make_engine(Path(tmp) / "t.db")
        load_curated(engine, root)
        before = dump(engine)
        load_curated(engine, root)
        assert dump(engine) == before
        assert len(before["subject"]) == len({s.slug for s in data.subjects})


MUTATIONS = st.lists(
    st.tuples(
        st.sampled_from(["delete", "insert", "replace_line", "dup_line"]),
        st.floats(0, 1, exclude_max=True),
        st.one_of(
            st.text(max_size=8),
            st.sampled_from(
                [
                    '"',
                    "[",
                    "]]",
                    "=",
                    "\n[[claim]]\n",
                    'value = "x"',
                    "\xff",
                    "slug = 7",
                    "kind = 'blog'",
                ]
            ),
        ),
    ),
    min_size=1,
    max_size=3,
)


def mutate(textv: str, ops: list[tuple[str, float, str]]) -> str:
    for op, where, piece in ops:
        lines = textv.split("\n")
        pos = int(where * max(len(textv), 1))
        li = int(where * len(lines))
        if op == "delete":
            textv = textv[:pos] + textv[pos + len(piece) + 1 :]
        elif op == "insert":
            textv = textv[:pos] + piece + textv[pos:]
        elif op == "replace_line":
            lines[li] = piece
            textv = "\n".join(lines)
        else:
            lines.insert(li, lines[li])
            textv = "\n".join(lines)
    return textv


DATA_FILES = sorted(
    p.relative_to(DATA).as_posix() for p in [DATA / "subjects.toml", *DATA.glob("claims/*.toml")]
)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    """A database holding the real curated data (copied per example: cheaper than loading)."""
    path = tmp_path_factory.mktemp("pristine") / "t.db"
    engine = make_engine(path)
    load_curated(engine, DATA)
    engine.dispose()
    return path


@SETTINGS
@given(target=st.sampled_from(DATA_FILES), ops=MUTATIONS)
def test_mutated_real_data_raises_only_data_file_error_and_leaves_db_unchanged(
    tmp_path, pristine, target, ops
):
    work = Path(tempfile.mkdtemp(dir=tmp_path))
    root = work / "data"
    shutil.copytree(DATA, root, ignore=shutil.ignore_patterns("*.db*", "snapshots", "recordings"))
    shutil.copy(pristine, work / "t.db")
    engine = make_engine(work / "t.db")
    before = dump(engine)
    assert len(before["claim"]) > 0
    path = root / target
    path.write_bytes(
        mutate(path.read_text(encoding="utf-8"), ops).encode("utf-8", "surrogateescape")
    )
    try:
        load_curated(engine, root)
    except DataFileError as exc:
        assert exc.path.startswith(str(root))
        assert dump(engine) == before  # nothing written
        return
    finally:
        engine.dispose()
    # The mutation kept the data valid: claims are only ever added, never dropped.
    assert len(dump(engine)["claim"]) >= len(before["claim"])


def test_known_malformed_file_leaves_db_unchanged(tmp_path):
    """Deterministic anchor: a claim with an impossible date stops the load, nothing written."""
    root = tmp_path / "data"
    shutil.copytree(DATA, root, ignore=shutil.ignore_patterns("*.db*", "snapshots", "recordings"))
    engine = make_engine(tmp_path / "t.db")
    load_curated(engine, root)
    before = dump(engine)
    bad = root / "claims" / "zz-bad.toml"
    bad.write_text(
        '[source]\nkey = "zz-bad"\ntitle = "t"\n\n[[claim]]\nsubject = "kimi-k3"\n'
        'attribute = "release_date"\nvalue = "on 2026-02-30"\n'
    )
    try:
        load_curated(engine, root)
    except DataFileError as exc:
        assert (exc.field, exc.line) == ("claim[0].value", 8)
    else:
        raise AssertionError("an impossible date was accepted")
    assert dump(engine) == before
