"""One `tracker load` reports every independent problem of a data folder (fresh-user
trials fixed a folder with five mistakes in five runs), and still writes nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from sqlmodel import Session, func, select
from typer.testing import CliRunner

from claims.curated.loader import DataFileError, DataFileErrors, load_data
from claims.store import tables as models
from claims.store.engine import make_engine
from tracker.cli.main import app
from tracker.curated.load import load_curated, validate_curated

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()

SUBJECTS = '[[subject]]\nslug = "orion-2"\nname = "Orion 2"\nvariants = ["Fast"]\n'
WATCHES = (
    '[[watch]]\nname = "orion-page"\nadapter = "html_page"\nurl = "https://example.com/o"\n'
    '[watch.params]\nselector = "table"\n'
)
CLAIMS_A = (
    '[source]\nkey = "wire-a"\ntitle = "Wire A"\n\n'
    '[[claim]]\nsubject = "orion-2"\nattribute = "context_window"\nvalue = "256K"\n\n'
    '[[claim]]\nsubject = "orion-2"\nattribute = "total_params"\nvalue = "2T"\n'
)
CLAIMS_B = (
    '[source]\nkey = "wire-b"\ntitle = "Wire B"\n\n'
    '[[claim]]\nsubject = "orion-2"\nattribute = "release_date"\nvalue = "on 2026-11-04"\n'
)


def _folder(tmp_path: Path, **files: str) -> Path:
    """A data folder of the good files above, with ``files`` (name -> text; ``a`` and
    ``b`` are claims/a.toml and claims/b.toml) put in their place."""
    root = tmp_path / "data"
    (root / "claims").mkdir(parents=True, exist_ok=True)
    texts = {"subjects": SUBJECTS, "watches": WATCHES, "a": CLAIMS_A, "b": CLAIMS_B} | files
    for name, text in texts.items():
        path = root / "claims" / f"{name}.toml" if name in "ab" else root / f"{name}.toml"
        path.write_text(text, encoding="utf-8")
    return root


def _three_mistakes(root: Path) -> None:
    """A wrong unit (claims/a.toml line 9), a mistyped watch param (watches.toml line 7)
    and an unknown attribute (claims/b.toml line 7): three independent mistakes."""
    a = CLAIMS_A.replace('value = "256K"\n', 'value = "256K"\nunit = "parsecs"\n')
    (root / "claims" / "a.toml").write_text(a.replace('"2T"', '"3T"'))  # and a changed value
    (root / "watches.toml").write_text(WATCHES + 'selectr = "td"\n')
    (root / "claims" / "b.toml").write_text(CLAIMS_B.replace("release_date", "release_dat"))


def _where(exc: DataFileError) -> list[tuple[str, int | None, str]]:
    return [(Path(e.path).name, e.line, e.field) for e in getattr(exc, "errors", [exc])]


def test_three_mistakes_in_two_files_are_reported_at_once_and_nothing_is_written(tmp_path):
    root = _folder(tmp_path)
    engine = make_engine(tmp_path / "t.db")
    load_curated(engine, root)
    _three_mistakes(root)
    with pytest.raises(DataFileErrors) as err:
        load_curated(engine, root)
    assert _where(err.value) == [
        ("watches.toml", 7, "watch[0].params.selectr"),
        ("a.toml", 9, "claim[0].unit"),
        ("b.toml", 7, "claim[0].attribute"),
    ]
    assert err.value.errors[2].message == (
        "unknown attribute 'release_dat' (did you mean 'release_date'?)"
    )
    # The first error's fields, so `except DataFileError` code reads it as before.
    assert (err.value.field, err.value.line) == ("watch[0].params.selectr", 7)
    assert str(err.value).splitlines() == [str(e) for e in err.value.errors]
    with Session(engine) as s:
        counts = [s.exec(select(func.count()).select_from(t)).one() for t in
                  (models.Subject, models.Source, models.Claim, models.Watch)]  # fmt: skip
        params = s.exec(
            select(models.Claim.value_json).where(models.Claim.attribute == "total_params")
        ).one()
    assert counts == [1, 2, 3, 1]
    assert json.loads(params)["value"] == 2_000_000_000_000  # still 2T: the 3T not stored


def test_a_toml_syntax_error_and_a_bad_claim_in_another_file_are_both_reported(tmp_path):
    root = _folder(tmp_path, a=CLAIMS_A.replace('title = "Wire A"', 'title = "Wire A'))
    (root / "claims" / "b.toml").write_text(CLAIMS_B.replace("on 2026-11-04", "on 2026-02-30"))
    with pytest.raises(DataFileErrors) as err:
        load_data(root)
    assert _where(err.value) == [("a.toml", 3, "toml"), ("b.toml", 8, "claim[0].value")]


def test_a_file_not_in_utf8_is_one_error_and_the_other_files_are_still_checked(tmp_path):
    root = _folder(tmp_path, b=CLAIMS_B.replace("orion-2", "orion-9"))
    (root / "claims" / "a.toml").write_bytes(CLAIMS_A.encode("utf-8") + b"# caf\xe9\n")
    with pytest.raises(DataFileErrors) as err:
        load_data(root)
    assert _where(err.value) == [("a.toml", None, "encoding"), ("b.toml", 6, "claim[0].subject")]


def test_two_bad_entries_of_one_file_are_two_errors(tmp_path):
    a = CLAIMS_A.replace("context_window", "context_windw").replace("orion-2", "orion-9", 2)
    with pytest.raises(DataFileErrors) as err:
        load_data(_folder(tmp_path, a=a))
    # a malformed claim's subject is cross-checked too: the unknown slug is named at the
    # first claim naming it, claim[0], with its bad attribute
    assert _where(err.value) == [
        ("a.toml", 6, "claim[0].subject"),
        ("a.toml", 7, "claim[0].attribute"),
    ]
    assert err.value.errors[0].message.startswith(
        "unknown subject 'orion-9' (did you mean 'orion-2'?); 1 more claims name it"
    )


def test_every_repeated_claim_and_shared_alias_is_reported(tmp_path):
    claim = '\n[[claim]]\nsubject = "orion-2"\nattribute = "total_params"\nvalue = "2T"\n'
    subjects = SUBJECTS + "".join(
        f'\n[[subject]]\nslug = "s{n}"\nname = "S{n}"\naliases = ["Orion 2"]\n' for n in (1, 2)
    )
    with pytest.raises(DataFileErrors) as err:
        load_data(_folder(tmp_path, a=CLAIMS_A + claim + claim, subjects=subjects))
    assert _where(err.value) == [
        ("subjects.toml", 9, "subject[1].aliases"),
        ("subjects.toml", 14, "subject[2].aliases"),
        ("a.toml", 18, "claim[2].value"),
        ("a.toml", 23, "claim[3].value"),
    ]
    assert err.value.errors[3].message.startswith("the same claim as claim[1] (line 10)")


def test_a_malformed_subject_is_not_also_every_claims_unknown_subject(tmp_path):
    subjects = SUBJECTS + '\n[[subject]]\nslug = "vega-1"\nname = "Vega 1"\norganisation = "X"\n'
    b = CLAIMS_B.replace("orion-2", "vega-1") + CLAIMS_B.split("\n\n")[1].replace(
        "orion-2", "vega-9"
    )
    with pytest.raises(DataFileErrors) as err:
        load_data(_folder(tmp_path, subjects=subjects, b="\n" + b))
    # vega-1's claim is left alone; vega-9 is unknown all the same.
    assert _where(err.value) == [
        ("subjects.toml", 9, "subject[1].organisation"),
        ("b.toml", 11, "claim[1].subject"),
    ]


def test_unreadable_subjects_file_skips_the_unknown_subject_check(tmp_path):
    root = _folder(tmp_path, subjects=SUBJECTS.replace('"Orion 2"', '"Orion 2'))
    with pytest.raises(DataFileError) as err:
        load_data(root)
    assert type(err.value) is DataFileError  # one error: the plain error, as before
    assert _where(err.value) == [("subjects.toml", 3, "toml")]


def test_a_table_written_as_a_value_is_an_error_not_a_crash(tmp_path):
    with pytest.raises(DataFileError) as err:
        load_data(_folder(tmp_path, subjects='subject = "orion-2"\n'))
    assert (
        str(err.value)
        == f"{tmp_path / 'data' / 'subjects.toml'}:1: subject: expected [[subject]] tables"
    )


def test_more_than_fifty_problems_show_fifty_and_count_the_rest(tmp_path):
    bad = "".join(
        f'\n[[claim]]\nsubject = "orion-2"\nattribute = "x{n}"\nvalue = "1"\n' for n in range(55)
    )
    with pytest.raises(DataFileErrors) as err:
        load_data(_folder(tmp_path, a=CLAIMS_A + bad))
    lines = str(err.value).splitlines()
    assert len(err.value.errors) == 55 and len(lines) == 51
    assert lines[49].startswith(
        f"{tmp_path / 'data' / 'claims' / 'a.toml'}:262: claim[51].attribute"
    )
    assert lines[50] == "and 5 more problems"


def test_cli_load_lists_every_problem_and_exits_1_creating_no_database(tmp_path):
    root = _folder(tmp_path)
    _three_mistakes(root)
    result = runner.invoke(app, ["load", "--data", str(root), "--db", str(tmp_path / "n.db")])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "error: 3 problems in the data files (nothing was loaded):",
        f"{root / 'watches.toml'}:7: watch[0].params.selectr: unknown key (did you mean 'selector'?)",
        f"{root / 'claims' / 'a.toml'}:9: claim[0].unit: context_window is in tokens, not "
        "'parsecs': leave unit out (the figure is then in tokens) or set it to \"tokens\"; "
        "units are not converted",
        f"{root / 'claims' / 'b.toml'}:7: claim[0].attribute: unknown attribute 'release_dat' "
        "(did you mean 'release_date'?)",
    ]
    assert result.stdout == ""
    assert not (tmp_path / "n.db").exists()


def test_cli_load_json_lists_every_problem_on_stdout(tmp_path):
    root = _folder(tmp_path)
    _three_mistakes(root)
    result = runner.invoke(
        app, ["load", "--data", str(root), "--db", str(tmp_path / "n.db"), "--json"]
    )
    assert result.exit_code == 1
    error = json.loads(result.stdout)["error"]
    assert (error["kind"], error["message"]) == (
        "data_file",
        "3 problems in the data files (nothing was loaded):",
    )
    problems = error["problems"]
    assert [(p["path"], p["line"], p["field"]) for p in problems] == [
        (str(root / "watches.toml"), 7, "watch[0].params.selectr"),
        (str(root / "claims" / "a.toml"), 9, "claim[0].unit"),
        (str(root / "claims" / "b.toml"), 7, "claim[0].attribute"),
    ]
    assert (
        problems[2]["message"] == "unknown attribute 'release_dat' (did you mean 'release_date'?)"
    )
    assert result.stderr.startswith("error: 3 problems in the data files (nothing was loaded):\n")


def test_cli_load_json_single_error_keeps_its_line_in_a_one_item_list(tmp_path):
    root = _folder(tmp_path, b=CLAIMS_B.replace("release_date", "release_dat"))
    result = runner.invoke(
        app, ["load", "--data", str(root), "--db", str(tmp_path / "n.db"), "--json"]
    )
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"]["problems"] == [
        {
            "path": str(root / "claims" / "b.toml"),
            "line": 7,
            "field": "claim[0].attribute",
            "message": "unknown attribute 'release_dat' (did you mean 'release_date'?)",
        }
    ]
    assert result.stderr == (
        f"error: {root / 'claims' / 'b.toml'}:7: claim[0].attribute: unknown attribute "
        "'release_dat' (did you mean 'release_date'?)\n"
    )


def test_cli_demo_lists_every_problem_of_its_data_folder(tmp_path, monkeypatch):
    root = _folder(tmp_path)
    _three_mistakes(root)
    (root / "recordings").mkdir()
    shutil.copy(ROOT / "data" / "recordings" / "demo.har", root / "recordings" / "demo.har")
    monkeypatch.chdir(tmp_path)  # the demo reads data/ where it is run
    result = runner.invoke(
        app, ["demo", "--db", str(tmp_path / "d.db"), "--out", str(tmp_path / "site")]
    )
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0] == "error: 3 problems in the data files (nothing was loaded):"
    assert [ln.split(": ")[1] for ln in lines[1:]] == [
        "watch[0].params.selectr", "claim[0].unit", "claim[0].attribute"
    ]  # fmt: skip
    assert not (tmp_path / "site").exists()
    assert not (tmp_path / "d.db").exists()  # checked before the database is created


def test_validate_curated_reports_unknown_adapter_and_bad_url_of_two_watches(tmp_path):
    second = '\n[[watch]]\nname = "w2"\nadapter = "html_pag"\nurl = "https://example.com/2"\n'
    watches = WATCHES.replace("https://example.com/o", "ftp://example.com/o") + second
    with pytest.raises(DataFileErrors) as err:
        validate_curated(_folder(tmp_path, watches=watches))
    assert _where(err.value) == [
        ("watches.toml", 4, "watch[0].url"),
        ("watches.toml", 10, "watch[1].adapter"),
    ]


# Review of the first version: one mistake still produced a flood, or hid a real error.


def test_without_subjects_toml_each_unknown_slug_is_one_error_not_one_per_claim(tmp_path):
    root = _folder(tmp_path)
    (root / "subjects.toml").unlink()
    with pytest.raises(DataFileError) as err:
        load_data(root)
    assert type(err.value) is DataFileError  # three claims, one slug: one error
    assert (Path(err.value.path).name, err.value.line) == ("a.toml", 6)
    assert err.value.message == (
        "unknown subject 'orion-2' (no subjects.toml here); 2 more claims name it"
    )


def test_a_subject_entry_without_a_slug_does_not_make_its_claims_unknown(tmp_path):
    root = _folder(tmp_path, subjects=SUBJECTS.replace("slug =", "slg ="))
    with pytest.raises(DataFileError) as err:
        load_data(root)
    assert type(err.value) is DataFileError
    assert err.value.field in ("subject[0].slg", "subject[0].slug")


def test_a_wrongly_cased_slug_does_not_make_its_claims_unknown(tmp_path):
    root = _folder(tmp_path, subjects=SUBJECTS.replace('"orion-2"', '"Orion-2"'))
    with pytest.raises(DataFileError) as err:
        load_data(root)
    assert type(err.value) is DataFileError
    assert err.value.field == "subject[0].slug"


def test_an_unknown_top_level_key_does_not_hide_a_claims_unknown_subject(tmp_path):
    root = _folder(tmp_path, subjects="version = 1\n" + SUBJECTS)
    (root / "claims" / "b.toml").write_text(CLAIMS_B.replace('"orion-2"', '"orion-3"'))
    with pytest.raises(DataFileErrors) as err:
        load_data(root)
    assert _where(err.value) == [
        ("subjects.toml", 1, "version"),
        ("b.toml", 6, "claim[0].subject"),
    ]
    assert err.value.errors[1].message == "unknown subject 'orion-3' (did you mean 'orion-2'?)"


def test_a_name_that_begins_or_is_begun_by_a_known_one_gets_did_you_mean(tmp_path):
    """A trial: `repository` for the `repo` watch param listed every known param, and so
    did `lang` for a source's `language` (difflib's ratio misses both)."""
    root = _folder(
        tmp_path,
        watches=WATCHES + 'repository = "orion/orion-2"\n',
        a=CLAIMS_A.replace('title = "Wire A"\n', 'title = "Wire A"\nlang = "en"\n'),
    )
    result = runner.invoke(app, ["load", "--data", str(root), "--db", str(tmp_path / "n.db")])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "error: 2 problems in the data files (nothing was loaded):",
        f"{root / 'watches.toml'}:7: watch[0].params.repository: unknown key "
        "(did you mean 'repo'?)",
        f"{root / 'claims' / 'a.toml'}:4: source.lang: unknown key (did you mean 'language'?)",
    ]


@pytest.mark.parametrize(
    ("typed", "hint"),
    [
        ("repository", "did you mean 'repo'?"),
        ("stated", "did you mean 'stated_date'?"),
        ("pub", "known: published, publisher, title"),  # two fit: no guess
        ("re", "known: published, publisher, title"),  # under 3 characters: no guess
    ],
)
def test_nearest_suggests_a_unique_prefix_match(typed, hint):
    from claims.curated.datafile import nearest

    allowed = {"repo", "repo_id", "stated_date"} if typed in ("repository", "stated") else set()
    assert nearest(typed, allowed or {"published", "publisher", "title"}) == hint


def test_many_claims_naming_a_near_slug_point_at_the_subjects_slug_too(tmp_path):
    root = _folder(tmp_path, subjects=SUBJECTS.replace('"orion-2"', '"orion-22"'))
    with pytest.raises(DataFileError) as err:
        load_data(root)
    assert err.value.message == (
        "unknown subject 'orion-2' (did you mean 'orion-22'?); 2 more claims name it: "
        "if they are right, the subject's slug in subjects.toml is the typo"
    )


def test_every_problem_of_one_claim_is_reported_with_its_line(tmp_path):
    """A claim with a key typo, an unknown subject and a bad qualifier (a fresh-user
    trial was told only of the typo): each is named with its file, line and field, as
    is every mistyped key of it; another claim's unknown attribute too."""
    a = CLAIMS_A.replace(
        'subject = "orion-2"\nattribute = "context_window"\nvalue = "256K"\n',
        'subject = "orion-9"\nattribute = "context_window"\nvalue = "256K"\n'
        'clamant = "Orion Labs"\nqualifers = { variant = "Fast" }\n',
    ).replace("total_params", "totl_params")
    with pytest.raises(DataFileErrors) as err:
        load_data(_folder(tmp_path, a=a))
    assert [(e.line, e.field, e.message) for e in err.value.errors] == [
        (6, "claim[0].subject", "unknown subject 'orion-9' (did you mean 'orion-2'?)"),
        (9, "claim[0].clamant", "unknown key (did you mean 'claimant'?)"),
        (10, "claim[0].qualifers", "unknown key (did you mean 'qualifiers'?)"),
        (
            14,
            "claim[1].attribute",
            "unknown attribute 'totl_params' (did you mean 'total_params'?)",
        ),
    ]
    assert all(Path(e.path).name == "a.toml" for e in err.value.errors)


def test_every_problem_of_a_source_table_is_reported_with_its_claims(tmp_path):
    """With six mistakes in one claims file, `published = "2026-13-01"` was reported
    only after the others were fixed, and `url = "not a url"` never (fresh-user trial)."""
    bad = (
        '[source]\nkey = "Wire B"\ntitle = "Wire B"\npublished = "2026-13-01"\n'
        'url = "not a url"\nkind = "pres"\nauthor = "x"\n\n'
        '[[claim]]\nsubject = "orion-2"\nattribute = "release_dat"\nvalue = "on 2026-11-04"\n'
    )
    with pytest.raises(DataFileErrors) as err:
        load_data(_folder(tmp_path, b=bad))
    assert _where(err.value) == [
        ("b.toml", 2, "source.key"),
        ("b.toml", 4, "source.published"),
        ("b.toml", 5, "source.url"),
        ("b.toml", 6, "source.kind"),
        ("b.toml", 7, "source.author"),
        ("b.toml", 11, "claim[0].attribute"),
    ]
    assert err.value.errors[2].message == "'not a url' is not an http(s) URL with a host"
    for url in ("ftp://example.org/x", "https:///x", "example.org/x"):
        with pytest.raises(DataFileError, match="is not an http"):
            load_data(
                _folder(
                    tmp_path,
                    b=CLAIMS_B.replace('title = "Wire B"', f'title = "Wire B"\nurl = "{url}"'),
                )
            )
