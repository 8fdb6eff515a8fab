"""Curated data: the real files load; malformed files stop with path, line and field."""

from __future__ import annotations

import shutil
import tomllib
from decimal import Decimal
from pathlib import Path

import pytest
from sqlmodel import Session, func, select

from claims.curated.loader import DataFileError, load_data
from claims.store import tables as models
from claims.store.curated import store
from tracker.curated.load import load_curated

DATA = Path(__file__).resolve().parent.parent / "data"


def test_real_data_loads_with_expected_claims():
    data = load_data(DATA)
    slugs = {s.slug for s in data.subjects}
    assert slugs == {"kimi-k3.1-pro", "kimi-k3", "kimi-k2-thinking"}
    k31 = next(s for s in data.subjects if s.slug == "kimi-k3.1-pro")
    assert k31.aliases == ("Kimi K3.1 Pro", "Kimi 3.1 Pro", "K3.1 Pro")
    assert k31.variants == ("Standard", "Highspeed")
    tb = {
        c.qualifiers["version"]: (c.source, c.value.value)
        for c in data.claims
        if c.qualifiers.get("benchmark") == "Terminal-Bench"
    }
    assert tb == {
        "4.0": ("maquinaweb-k31-cerebras", Decimal("65.7")),
        "3.0": ("report-k31-launch", Decimal("65.7")),
    }
    promises = sorted(
        (c.source, c.value.relation, c.value.value)
        for c in data.claims
        if c.subject == "kimi-k3.1-pro" and c.attribute == "weights_release_date"
    )
    assert promises == [
        ("maquinaweb-k31-cerebras", "before", "2026-11-04"),
        ("opinion-k31-vs-fable", "on", "2026-11-04"),
        ("report-k31-launch", "on", "2026-11-04"),
    ]
    # Cerebras' "about 3 trillion" is about Kimi K3, not K3.1 Pro.
    cerebras = {(c.subject, c.attribute) for c in data.claims if c.claimant == "Cerebras"}
    assert cerebras == {
        ("kimi-k3", "total_params"),
        ("kimi-k3", "hardware_units"),
        ("kimi-k3", "output_tokens_per_second"),
        ("kimi-k3", "weights_precision_bits"),
    }


def test_locators_point_at_the_figure_in_the_seed(shared_dir):
    for path in sorted((DATA / "claims").glob("*.toml")):
        doc = tomllib.loads(path.read_text())
        seed = doc["source"].get("seed")
        if not seed:
            continue
        text = (shared_dir / "seeds" / seed).read_text()
        for claim in doc["claim"]:
            start, end = map(int, claim["locator"].removeprefix("chars ").split("-"))
            assert text[start:end] == claim["raw"], (path.name, claim["attribute"])


def test_store_is_idempotent(engine):
    data = load_data(DATA)
    with Session(engine) as s:
        first = store(s, data)
        s.commit()
        second = store(s, data)
        s.commit()
        n = s.exec(select(func.count()).select_from(models.Claim)).one()
    assert first.claims_added == len(data.claims) == n == 40
    assert second.claims_added == 0 and second.claims_unchanged == 40


def _copy_data(tmp_path: Path) -> Path:
    dst = tmp_path / "data"
    shutil.copytree(DATA, dst, ignore=shutil.ignore_patterns("*.db*", "snapshots", "recordings"))
    return dst


def _claims_stored(engine) -> int:  # type: ignore[no-untyped-def]
    with Session(engine) as s:
        return s.exec(select(func.count()).select_from(models.Claim)).one()


def _stored_and_a_copy(engine, tmp_path: Path) -> tuple[int, Path, list[str]]:  # type: ignore[no-untyped-def]
    """Load the real data, then copy it: (claims stored, the launch report's path in the
    copy, its lines) for a test to break and reload."""
    load_curated(engine, DATA)
    path = _copy_data(tmp_path) / "claims" / "report-k31-launch.toml"
    return _claims_stored(engine), path, path.read_text().splitlines()


def test_malformed_value_names_file_line_field_and_writes_nothing(tmp_path, engine):
    before, path, lines = _stored_and_a_copy(engine, tmp_path)
    idx = next(i for i, ln in enumerate(lines) if ln == 'value = "104B"')
    lines[idx] = 'value = "104 bilhões"'
    path.write_text("\n".join(lines) + "\n")
    # A new claim in another file must not be stored either.
    extra = path.parent / "aaa-new.toml"
    extra.write_text(
        '[source]\nkey = "aaa-new"\ntitle = "t"\n[[claim]]\nsubject = "kimi-k3"\n'
        'attribute = "context_window"\nvalue = "2M"\n'
    )
    with pytest.raises(DataFileError) as err:
        load_curated(engine, path.parent.parent)
    assert err.value.path == str(path)
    assert err.value.line == idx + 1
    assert err.value.field == "claim[1].value"
    assert str(err.value).startswith(f"{path}:{idx + 1}: claim[1].value: ")
    assert _claims_stored(engine) == before


def test_toml_syntax_error_names_line(tmp_path):
    data = _copy_data(tmp_path)
    (data / "subjects.toml").write_text('[[subject]]\nslug = "x"\nname = "X\n')
    with pytest.raises(DataFileError) as err:
        load_data(data)
    assert err.value.line == 3 and err.value.field == "toml"


@pytest.mark.parametrize(
    ("snippet", "field"),
    [
        ('attribute = "parameters"', "claim[0].attribute"),
        ('subject = "gpt-9"', "claim[0].subject"),
        ('qualifiers = { bench = "x" }', "claim[0].qualifiers"),
    ],
)
def test_bad_claim_fields(tmp_path, snippet, field):
    data = _copy_data(tmp_path)
    base = {
        "subject": 'subject = "kimi-k3"',
        "attribute": 'attribute = "total_params"',
        "value": 'value = "3T"',
    }
    key = snippet.split(" =")[0]
    base[key] = snippet
    (data / "claims" / "zz.toml").write_text(
        '[source]\nkey = "zz"\ntitle = "t"\n[[claim]]\n' + "\n".join(base.values()) + "\n"
    )
    with pytest.raises(DataFileError) as err:
        load_data(data)
    assert err.value.field == field
    assert err.value.line is not None


@pytest.mark.parametrize(
    ("old", "new", "field", "message"),
    [
        (
            'published = "2025-11-06"',
            'published = "2025-13-45"',
            "source.published",
            "is not a real ISO date",
        ),
        ('value = "32B"', 'value = "-5B"', "claim[1].value", "active_params cannot be negative"),
        (
            'value = "32B"',
            'value = "200%"',
            "claim[1].value",
            "active_params is in params, not percent",
        ),
        (
            'value = "on 2025-11-06"',
            'value = "on 2025-02-30"',
            "claim[5].value",
            "is not an ISO date",
        ),
        (  # a lost scale letter: a trial's "2.8" for "2.8T" was stored as 2.8 params
            'value = "1T"',
            'value = "1"',
            "claim[0].value",
            "under a million parameters is not a model size",
        ),
    ],
)
def test_impossible_values_are_refused(tmp_path, old, new, field, message):
    data = _copy_data(tmp_path)
    path = data / "claims" / "kimi-k2-thinking-card.toml"
    path.write_text(path.read_text().replace(old, new, 1))
    with pytest.raises(DataFileError) as err:
        load_data(data)
    assert err.value.field == field
    assert message in err.value.message


def test_misspelled_claim_key_is_refused_at_its_line_not_ignored(tmp_path, engine):
    """`qualifers` for `qualifiers` used to load the claim without its benchmark version,
    so the Terminal-Bench 3.0 / 4.0 discrepancy silently vanished (fresh-user trial)."""
    before, path, lines = _stored_and_a_copy(engine, tmp_path)
    idx = next(i for i, ln in enumerate(lines) if ln.startswith("qualifiers ="))
    lines[idx] = lines[idx].replace("qualifiers", "qualifers")
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataFileError) as err:
        load_curated(engine, path.parent.parent)
    n = sum(ln == "[[claim]]" for ln in lines[:idx]) - 1  # the claim that line belongs to
    assert (err.value.line, err.value.field) == (idx + 1, f"claim[{n}].qualifers")
    assert err.value.message == "unknown key (did you mean 'qualifiers'?)"
    assert _claims_stored(engine) == before


@pytest.mark.parametrize(
    ("file", "text", "line", "field", "message"),
    [
        ("watches.toml", '[[watchs]]\nname = "x"\n', 1, "watchs", "unknown key (did you mean 'watch'?)"),
        ("subjects.toml", '[[subject]]\nslug = "a"\nname = "A"\nalias = ["b"]\n', 4,
         "subject[0].alias", "unknown key (did you mean 'aliases'?)"),
        ("claims/zz.toml", '[source]\nkey = "zz"\ntitle = "t"\ncolour = "red"\n', 4,
         "source.colour", "unknown key (known: key, kind, language, published, "
         "published_precision, publisher, seed, title, url)"),
        ("claims/zz.toml", '[source]\nkey = "zz"\ntitle = "t"\npublished_precision = "week"\n',
         4, "source.published_precision", "not one of day, month, estimated"),
    ],
)  # fmt: skip
def test_unknown_keys_are_refused_in_every_file(tmp_path, file, text, line, field, message):
    data = tmp_path / "data"
    (data / "claims").mkdir(parents=True)
    (data / file).write_text(text)
    with pytest.raises(DataFileError) as err:
        load_data(data)
    assert (err.value.path, err.value.line) == (str(data / file), line)
    assert (err.value.field, err.value.message) == (field, message)


@pytest.mark.parametrize(
    ("file", "text", "line", "field", "message"),
    [
        ("subjects.toml", '[[subject]]\nslug = "a"\nname = "A"\n\n[[subject]]\nslug = "a"\nname = "B"\n',
         6, "subject[1].slug", "duplicate slug 'a' (first at line 2)"),
        ("watches.toml", '[[watch]]\nname = "w"\nadapter = "html_page"\nurl = "https://a.example/"\n'
         '[[watch]]\nname = "w"\nadapter = "html_page"\nurl = "https://b.example/"\n',
         6, "watch[1].name", "duplicate name 'w' (first at line 2)"),
    ],
)  # fmt: skip
def test_a_duplicate_names_both_lines(tmp_path, file, text, line, field, message):
    data = tmp_path / "data"
    data.mkdir()
    (data / file).write_text(text)
    with pytest.raises(DataFileError) as err:
        load_data(data)
    assert (err.value.path, err.value.line) == (str(data / file), line)
    assert (err.value.field, err.value.message) == (field, message)


def test_near_misses_are_named_and_a_duplicate_source_key_has_its_line(tmp_path):
    data = tmp_path / "data"
    (data / "claims").mkdir(parents=True)
    (data / "subjects.toml").write_text('[[subject]]\nslug = "a"\nname = "A"\n')
    bad = data / "claims" / "a.toml"
    bad.write_text(
        '[source]\nkey = "s"\ntitle = "t"\n[[claim]]\nsubject = "a"\n'
        'attribute = "total_param"\nvalue = "3T"\n'
    )
    with pytest.raises(DataFileError) as err:
        load_data(data)
    assert (err.value.line, err.value.message) == (
        6,
        "unknown attribute 'total_param' (did you mean 'total_params'?)",
    )
    bad.write_text('[source]\nkey = "s"\ntitle = "t"\n')
    (data / "claims" / "b.toml").write_text('# copy\n[source]\nkey = "s"\ntitle = "u"\n')
    with pytest.raises(DataFileError) as err:
        load_data(data)
    assert (err.value.path, err.value.line, err.value.message) == (
        str(data / "claims" / "b.toml"),
        3,
        f"'s' also used in {bad}",
    )


def test_a_mistyped_watch_param_is_refused_at_its_line(tmp_path):
    """`selectr` for `selector` loaded and failed only at check time; a built-in
    adapter's watch may set only the params it (or every watch) reads."""
    from tracker.curated.load import validate_curated

    data = tmp_path / "data"
    data.mkdir()
    (data / "watches.toml").write_text(
        '[[watch]]\nname = "w"\nadapter = "html_page"\nurl = "https://a.example/"\n'
        '[watch.params]\nselectr = "table tr"\nrobots = false\n\n'
        '[[watch]]\nname = "v"\nadapter = "openrouter_models"\nurl = "https://b.example/"\n'
        "[watch.params]\nrobots = false\nvariant = {}\n"
    )
    with pytest.raises(DataFileError) as err:
        validate_curated(data)
    assert (err.value.line, err.value.field) == (6, "watch[0].params.selectr")
    assert err.value.message == "unknown key (did you mean 'selector'?)"
    text = (data / "watches.toml").read_text().replace("selectr", "selector")
    (data / "watches.toml").write_text(text)
    with pytest.raises(DataFileError) as err:
        validate_curated(data)
    assert (err.value.line, err.value.field) == (15, "watch[1].params.variant")
    assert err.value.message == "unknown key (did you mean 'variants'?)"
    (data / "watches.toml").write_text(text.replace("variant =", "variants ="))
    assert [w.params for w in validate_curated(data).watches][0] == {
        "selector": "table tr",
        "robots": False,
    }


def test_every_param_an_adapter_reads_is_declared():
    """The declaration is checked against the adapters' own code: a param read with
    ``params.get("x")`` / ``params["x"]`` in an adapter module must be declared for the
    one of the kinds that module registers, or common to all (else `tracker load` would
    refuse a param the adapter needs)."""
    import re

    from tracker.adapters.base import BUILTIN, COMMON_PARAMS, known_params

    allowed = known_params()
    root = Path(__file__).resolve().parent.parent
    modules = {m: [k for k, mm in BUILTIN.items() if mm == m] for m in set(BUILTIN.values())}
    modules["tracker.adapters.huggingface.models"] = modules["tracker.adapters.huggingface.files"]
    read = re.compile(r"""params(?:\.get\(|\[)\s*["']([a-z_]+)["']""")
    for module, kinds in modules.items():
        source = (root / (module.replace(".", "/") + ".py")).read_text()
        for name in read.findall(source):
            assert any(name in allowed[k] for k in kinds), (module, name)
    for path in ("tracker/cycle/run.py", "tracker/net/fetch.py", "tracker/schedule/daemon.py"):
        for name in read.findall((root / path).read_text()):
            assert name in COMMON_PARAMS, (path, name)


def test_a_mistyped_id_namespace_is_refused_and_every_used_one_is_known(tmp_path):
    """`[subject.ids] hf = [...]` matched nothing, silently: the Hub's namespace is
    `huggingface`. The known namespaces are those the adapters resolve ids in."""
    import re

    from tracker.adapters.base import ID_NAMESPACES
    from tracker.curated.load import validate_curated

    data = tmp_path / "data"
    data.mkdir()
    (data / "subjects.toml").write_text(
        '[[subject]]\nslug = "a"\nname = "A"\n\n[subject.ids]\nopenrouter = ["x/a"]\n'
        'huggingfce = ["x/A"]\n'
    )
    with pytest.raises(DataFileError) as err:
        validate_curated(data)
    assert (err.value.line, err.value.field) == (7, "subject[0].ids.huggingfce")
    assert err.value.message == "unknown key (did you mean 'huggingface'?)"
    root = Path(__file__).resolve().parent.parent / "tracker" / "adapters"
    used = set()
    for path in root.rglob("*.py"):
        text = path.read_text()
        used |= set(re.findall(r"""ObservedValue\(\(\s*["']([a-z_]+)["']""", text))
        used |= set(re.findall(r"""ref = \(\s*["']([a-z_]+)["']""", text))
        used |= set(re.findall(r"""^HUB = ["']([a-z_]+)["']""", text, re.M))
    assert used - {"name"} == set(ID_NAMESPACES)  # "name" is the aliases' namespace
