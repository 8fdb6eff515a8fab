"""`tracker claims extract` (file, HTML, URL through a MockTransport) and `tracker claims
import` (idempotent), plus the article reader."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from sqlmodel import Session, select
from typer.testing import CliRunner

from claims.extract.figures import parse_figure
from claims.store.tables import Claim, Source, Subject, SubjectAlias, SubjectVariant
from tracker.articles.read import article_from_html, fetch_article
from tracker.cli import claims as cli_claims
from tracker.cli.main import app
from tracker.errors import BadStatus
from tracker.net.fetch import make_client

SUBJECTS = str(Path(__file__).parent / "data" / "subjects.toml")
runner = CliRunner()

TEXT = (
    "O Kimi K3.1 Pro tem 2,8 trilhões de parâmetros e janela de contexto de 1 milhão de tokens.\n\n"
    "Os pesos abertos foram prometidos para antes de 4 de novembro.\n"
)
HTML = """<!doctype html><html lang="pt-BR"><head><title>Kimi K3.1 Pro</title>
<meta property="og:site_name" content="Blog Exemplo">
<meta property="article:published_time" content="2026-10-27T09:00:00-03:00"></head>
<body><nav>Menu 3 itens</nav><article><h1>Kimi K3.1 Pro</h1>
<p>O <b>Kimi K3.1 Pro</b> custa US$ 10,00 por milhão de tokens de saída.</p>
<p>Os pesos abertos foram prometidos para antes de 4 de novembro.</p>
<table><tr><td>Contexto</td><td>1&nbsp;048&nbsp;576 tokens</td></tr></table>
</article><script>var x = 5;</script></body></html>"""


def _extract(*args: str):
    return runner.invoke(app, ["claims", "extract", *args, "--subjects", SUBJECTS])


def test_extract_text_file_json(tmp_path):
    f = tmp_path / "a.txt"
    f.write_text(TEXT, encoding="utf-8")
    r = _extract(
        str(f), "--lang", "pt", "--published", "2026-10-27", "--subject", "kimi-k3.1-pro", "--json"
    )
    assert r.exit_code == 0, r.output
    got = [
        (c["subject"], c["attribute"], c["value"]["value"], c["value"].get("relation"))
        for c in json.loads(r.stdout)
    ]
    assert got == [
        ("kimi-k3.1-pro", "total_params", 2800000000000, None),
        ("kimi-k3.1-pro", "context_window", 1000000, None),
        ("kimi-k3.1-pro", "weights_release_date", "2026-11-04", "before"),
    ]


def test_extract_html_uses_main_text_and_metadata_date(tmp_path):
    f = tmp_path / "a.html"
    f.write_text(HTML, encoding="utf-8")
    r = _extract(str(f), "--subject", "kimi-k3.1-pro", "--json")
    assert r.exit_code == 0, r.output
    items = json.loads(r.stdout)
    assert [(c["attribute"], c["value"]["value"], c["text"]) for c in items] == [
        ("price_output_usd_per_mtok", 10, "US$ 10,00 por milhão"),
        ("weights_release_date", "2026-11-04", "4 de novembro"),  # year from article:published_time
    ]


def test_extract_table_output(tmp_path):
    f = tmp_path / "a.txt"
    f.write_text(TEXT, encoding="utf-8")
    r = runner.invoke(
        app,
        ["claims", "extract", str(f), "--subjects", SUBJECTS, "--published", "2026-10-27"],
        env={"COLUMNS": "200"},
    )
    assert r.exit_code == 0
    assert (
        "total_params" in r.stdout and "2.8T params" in r.stdout and "before 2026-11-04" in r.stdout
    )


def test_extract_url_through_fetch_seam(monkeypatch):
    def handler(request: httpx.Request) -> httpx.Response:
        assert str(request.url) == "https://example.org/kimi"
        return httpx.Response(200, html=HTML)

    monkeypatch.setattr(
        cli_claims, "make_client", lambda: make_client(transport=httpx.MockTransport(handler))
    )
    r = _extract("https://example.org/kimi", "--json")
    assert r.exit_code == 0, r.output
    assert [c["attribute"] for c in json.loads(r.stdout)] == [
        "price_output_usd_per_mtok",
        "weights_release_date",
    ]


def test_extract_url_error_is_one_line(monkeypatch):
    transport = httpx.MockTransport(lambda request: httpx.Response(404))
    monkeypatch.setattr(cli_claims, "make_client", lambda: make_client(transport=transport))
    r = _extract("https://example.org/gone")
    assert r.exit_code == 1
    assert r.stderr == "error: https://example.org/gone: HTTP 404\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.txt"], "error: missing.txt: no such file\n"),
        (
            ["x.txt", "--subject", "nope"],
            "error: --subject: unknown slug 'nope' (known: kimi-k2-thinking, kimi-k3, "
            "kimi-k3.1-pro)\n",
        ),
        (
            ["x.txt", "--published", "27/10/2026"],
            "error: --published: '27/10/2026' is not a YYYY-MM-DD date\n",
        ),
    ],
)
def test_extract_errors(args, message):
    r = _extract(*args)
    assert (r.exit_code, r.stderr) == (1, message)


def test_import_is_idempotent(tmp_path):
    f = tmp_path / "a.txt"
    f.write_text(TEXT, encoding="utf-8")
    r = _extract(
        str(f), "--lang", "pt", "--published", "2026-10-27", "--subject", "kimi-k3.1-pro", "--json"
    )
    items = json.loads(r.stdout) + [
        {"subject": None, "attribute": "total_params", "qualifiers": {},
         "value": {"kind": "quantity", "value": 100, "unit": "params"}, "claimant": None,
         "start": 0, "end": 3, "text": "100"},
    ]  # fmt: skip
    cands = tmp_path / "c.json"
    cands.write_text(json.dumps(items), encoding="utf-8")
    db = tmp_path / "t.db"
    from claims.store.engine import make_engine

    make_engine(db).dispose()  # import refuses a database that does not exist
    args = [
        "claims", "import", str(cands), "--source", "blog-1", "--db", str(db),
        "--subjects", SUBJECTS, "--title", "Kimi K3.1 Pro", "--published", "2026-10-27",
        "--language", "pt-BR",
    ]  # fmt: skip
    first = runner.invoke(app, args)
    assert first.stdout == (
        "imported 3 claims (0 already present, 1 skipped without subject)\n"
        "they have no verdict yet: run `tracker verify` to give them verdicts\n"
    )
    second = runner.invoke(app, args)
    assert second.stdout == "imported 0 claims (3 already present, 1 skipped without subject)\n"
    assert second.stderr == ""
    # A trial re-imported with another title: nothing changed and nothing said so.
    retitled = runner.invoke(app, [*args[:-6], "--title", "Kimi K3.1 Pro, revised", *args[-4:]])
    assert retitled.stderr == (
        "warning: source 'blog-1' was already stored: --title differs from it and was not "
        "applied (an import never rewrites a source)\n"
    )

    with Session(make_engine(db)) as s:
        claims = s.exec(select(Claim).order_by(Claim.id)).all()
        assert [(c.attribute, c.value.display(), c.raw_text, c.stated_date) for c in claims] == [
            ("total_params", "2.8T params", "2,8 trilhões", "2026-10-27"),
            ("context_window", "1M tokens", "1 milhão", "2026-10-27"),
            ("weights_release_date", "before 2026-11-04", "4 de novembro", "2026-10-27"),
        ]
        # Not from a data file: `tracker load` never removes these unless --prune.
        assert {c.origin for c in claims} == {"import"}
        (src,) = s.exec(select(Source)).all()
        assert (src.key, src.title, src.language, src.kind) == (
            "blog-1",
            "Kimi K3.1 Pro",
            "pt-BR",
            "press",
        )
        (subj,) = s.exec(select(Subject)).all()
        assert (subj.slug, subj.name, subj.organization) == (
            "kimi-k3.1-pro",
            "Kimi K3.1 Pro",
            "Moonshot AI",
        )
        assert sorted(a.alias for a in s.exec(select(SubjectAlias)).all()) == [
            "K3.1 Pro", "Kimi 3.1 Pro", "Kimi K3.1 Pro",
        ]  # fmt: skip
        assert sorted(v.name for v in s.exec(select(SubjectVariant)).all()) == [
            "Highspeed",
            "Standard",
        ]


def test_import_rejects_bad_candidates(tmp_path):
    cands = tmp_path / "c.json"
    cands.write_text(json.dumps([{"subject": "kimi-k3", "attribute": "colour", "value": {}}]))
    r = runner.invoke(
        app, ["claims", "import", str(cands), "--source", "s", "--db", str(tmp_path / "t.db")]
    )
    assert r.exit_code == 1
    assert r.stderr.startswith(
        "error: candidate #1: attribute: unknown attribute 'colour' (known: "
    )


def test_fetch_article_bad_status_raises():
    client = make_client(transport=httpx.MockTransport(lambda request: httpx.Response(503)))
    with pytest.raises(BadStatus) as err:
        fetch_article("https://example.org/x", client)
    assert err.value.status == 503


def test_c11_html_cell_reads_1048576():
    article = article_from_html("<table><tr><td>1&nbsp;048&nbsp;576 tokens</td></tr></table>")
    assert article.text == "1\u00a0048\u00a0576 tokens"
    assert parse_figure(article.text, "pt-BR", "tokens").value == 1048576


def test_extract_warns_on_stderr_about_ambiguous_figures(tmp_path):
    f = tmp_path / "a.txt"
    f.write_text("O Kimi K3.1 Pro tem janela de contexto de 1,000 tokens.\n", encoding="utf-8")
    r = _extract(str(f), "--lang", "pt-BR", "--json")
    assert (r.exit_code, r.stdout) == (0, "[]\n")
    assert r.stderr == "warning: at 42: '1,000': ambiguous in pt-BR (thousands or decimals?)\n"


def test_subjects_can_come_from_the_database(tmp_path):
    from claims.store.engine import make_engine
    from claims.subjects.references import SubjectRef
    from tracker.articles.claim_import import SourceInfo, import_candidates, subjects_from_db

    engine = make_engine(tmp_path / "t.db")
    ref = SubjectRef("kimi-k3", ("Kimi K3", "K3"), ("Standard",), "Moonshot AI")
    item = {
        "subject": "kimi-k3", "attribute": "total_params", "qualifiers": {},
        "value": {"kind": "quantity", "value": 1000000000000, "unit": "params"},
        "claimant": None, "start": 0, "end": 2, "text": "1T",
    }  # fmt: skip
    result = import_candidates(engine, [item], SourceInfo("s1"), [ref])
    assert (result.stored, result.present, result.skipped) == (1, 0, 0)
    assert subjects_from_db(engine) == [ref]


def test_extract_with_db_reads_the_models_tracked_there_before_the_default_file(tmp_path):
    """A trial: `claims extract --db my.db` still read data/subjects.toml, so a model
    tracked only in that database had no subject and the hint pointed at the demo's file."""
    from claims.store.engine import make_engine
    from claims.subjects.references import SubjectRef
    from tracker.articles.claim_import import SourceInfo, import_candidates

    db = tmp_path / "mine.db"
    ref = SubjectRef("aurora-2-pro", ("Aurora 2 Pro",), (), "Borealis AI")
    item = {
        "subject": "aurora-2-pro", "attribute": "context_window", "qualifiers": {},
        "value": {"kind": "quantity", "value": 200000, "unit": "tokens"},
        "claimant": None, "start": 0, "end": 4, "text": "200K",
    }  # fmt: skip
    import_candidates(make_engine(db), [item], SourceInfo("s1"), [ref])
    article = tmp_path / "a.txt"
    article.write_text(
        "Borealis AI released Aurora 2 Pro with 120 billion parameters.\n\n"
        "By comparison, Zephyr-Max 3 from rival Northwind AI has 70 billion parameters.\n",
        encoding="utf-8",
    )
    r = runner.invoke(app, ["claims", "extract", str(article), "--db", str(db), "--json"])
    assert r.exit_code == 0, r.output
    assert [(c["subject"], c["value"]["value"]) for c in json.loads(r.stdout)] == [
        ("aurora-2-pro", 120000000000),
        (None, 70000000000),
    ]
    assert f"track the model in {db} (`tracker track" in r.stderr


def test_a_figure_naming_no_model_points_to_the_default_subjects_file(tmp_path, monkeypatch):
    """A trial: with neither --subjects nor --db the hint read "a subject of None"."""
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    article = tmp_path / "a.txt"
    article.write_text("The model has 70 billion parameters.\n", encoding="utf-8")
    r = runner.invoke(app, ["claims", "extract", str(article), "--lang", "en"])
    assert r.exit_code == 0, r.output
    assert "(a subject of data/subjects.toml) if the article is about one model" in r.stderr
    assert "None" not in r.stderr


# A headline shown twice, a figure in a long qualifier, a date without its year, and the
# headline's figure again in another sentence.
REPEATS = (
    "Kimi K3.1 Pro chega com 2,8 trilhões de parâmetros\n\n"
    "Kimi K3.1 Pro chega com 2,8 trilhões de parâmetros\n\n"
    "O Kimi K3.1 Pro marcou 65,7% no Terminal-Bench 4.0, segundo a Moonshot AI. "
    "Os pesos abertos ficam para 4 de novembro.\n\n"
    "O modelo tem 2,8 trilhões de parâmetros no total.\n"
)


def test_extract_piped_table_keeps_cells_whole_after_the_warnings(tmp_path):
    f = tmp_path / "a.txt"
    f.write_text(REPEATS, encoding="utf-8")
    r = _extract(str(f), "--lang", "pt-BR")  # CliRunner's stdout is not a terminal
    assert r.exit_code == 0, r.output
    # the warning comes before the table (r.output interleaves stderr and stdout)
    assert r.output.splitlines()[0] == (
        "warning: 1 date(s) without a year or relative to the article were skipped: give the "
        "published date (--published YYYY-MM-DD)"
    )
    rows = [line for line in r.stdout.splitlines() if line.startswith("│")]
    assert rows == [
        "│ kimi-k3.1-pro │ total_params    │                                       │ 2.8T params "
        "│             │ 2,8 trilhões │ 24  │",
        "│ kimi-k3.1-pro │ benchmark_score │ benchmark=Terminal-Bench, version=4.0 │ 65.7%       "
        "│ Moonshot AI │ 65,7%        │ 127 │",
        "│ kimi-k3.1-pro │ total_params    │                                       │ 2.8T params "
        "│             │ 2,8 trilhões │ 236 │",
    ]
    assert r.stdout.splitlines()[-1].strip() == (
        "3 candidates; 1 warning printed before this table (stderr)"
    )


def test_extract_json_gives_a_repeated_headline_once(tmp_path):
    f = tmp_path / "a.txt"
    f.write_text(REPEATS, encoding="utf-8")
    r = _extract(str(f), "--lang", "pt-BR", "--published", "2026-10-27", "--json")
    assert r.exit_code == 0, r.output
    got = [(c["start"], c["attribute"], c["text"]) for c in json.loads(r.stdout)]
    assert got == [
        (24, "total_params", "2,8 trilhões"),  # the second headline (at 76) is dropped
        (127, "benchmark_score", "65,7%"),
        (207, "weights_release_date", "4 de novembro"),
        (236, "total_params", "2,8 trilhões"),  # another sentence: kept
    ]


# A made-up model that no subjects file knows.
UNKNOWN = (
    "Vega Systems today announced Orion-5 Max, with 2.4 trillion total parameters, a 256K "
    "context window and open weights that will be released on March 3, 2027.\n"
)
NO_SUBJECT = (
    "warning: 3 of 3 candidates have no known subject (—), given to other models named in "
    "the text: Orion-5 Max (3), and `claims import` skips them: "
    f"add the model (slug, name, aliases as written) to {SUBJECTS} and extract again, or "
    "pass --subject SLUG (a subject of that file) for figures naming no model\n"
)


def test_extract_warns_when_candidates_have_no_known_subject(tmp_path):
    f = tmp_path / "a.txt"
    f.write_text(UNKNOWN, encoding="utf-8")
    r = _extract(str(f), "--lang", "en", "--published", "2026-11-30", "--json")
    assert (r.exit_code, r.stderr) == (0, NO_SUBJECT)
    got = [
        (c["subject"], c["attribute"], c["claimant"], c["other_model"])
        for c in json.loads(r.stdout)
    ]
    assert got == [
        (None, "total_params", "Vega Systems", "Orion-5 Max"),
        (None, "context_window", "Vega Systems", "Orion-5 Max"),
        (None, "weights_release_date", "Vega Systems", "Orion-5 Max"),
    ]
    table = _extract(str(f), "--lang", "en", "--published", "2026-11-30")
    assert table.stdout.splitlines()[-1].strip() == (
        "3 candidates; 1 warning printed before this table (stderr)"
    )


def test_import_of_candidates_without_subject_fails_with_the_fix(tmp_path):
    f = tmp_path / "a.txt"
    f.write_text(UNKNOWN, encoding="utf-8")
    r = _extract(str(f), "--lang", "en", "--published", "2026-11-30", "--json")
    cands = tmp_path / "c.json"
    cands.write_text(r.stdout, encoding="utf-8")
    db = tmp_path / "t.db"
    from claims.store.engine import make_engine

    engine = make_engine(db)
    args = ["claims", "import", str(cands), "--source", "s1", "--db", str(db)]
    r = runner.invoke(app, [*args, "--subjects", SUBJECTS])
    assert (r.exit_code, r.stdout) == (1, "")
    assert r.stderr == (
        f"warning: {cands}: none of 3 candidates has a subject, so nothing was imported: "
        f"add the model (slug, name, aliases as written) to {SUBJECTS} and extract again, or "
        "pass --subject SLUG (a subject of that file) for figures naming no model\n"
    )
    with Session(engine) as s:
        assert s.exec(select(Source)).all() == []  # not even the source was stored


def test_import_refuses_a_missing_database(tmp_path):
    cands = tmp_path / "c.json"
    cands.write_text("[]", encoding="utf-8")
    db = tmp_path / "missing.db"
    r = runner.invoke(app, ["claims", "import", str(cands), "--source", "s1", "--db", str(db)])
    assert (r.exit_code, r.stderr) == (
        1,
        f"error: database {db} does not exist; run `tracker demo` or `tracker load` first\n",
    )
    assert not db.exists()


def test_extract_on_an_80_column_terminal_stacks_candidates_whole(tmp_path, monkeypatch):
    """Seven columns cannot fit 80 characters without cutting words ("trilli|on"): each
    candidate is a block of named fields instead (fresh-user trial)."""
    import io

    from rich.console import Console

    f = tmp_path / "a.txt"
    f.write_text(REPEATS, encoding="utf-8")
    out = io.StringIO()
    narrow = Console(file=out, width=80, force_terminal=True, color_system=None)
    monkeypatch.setattr(cli_claims, "console", narrow)
    r = _extract(str(f), "--lang", "pt-BR", "--published", "2026-10-27")
    assert r.exit_code == 0, r.output
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 80
    assert [line.rstrip() for line in lines[1:6]] == [
        "1. kimi-k3.1-pro  total_params  2.8T params",
        "   as written “2,8 trilhões” at 24",
        "2. kimi-k3.1-pro  benchmark_score  65.7%",
        "   as written “65,7%” at 127; claimant: Moonshot AI; qualifiers:",
        "benchmark=Terminal-Bench, version=4.0",  # wrapped between words
    ]
    blocks = [line for line in lines if re.match(r"\d+\. ", line)]
    # every figure has a subject (the title names Kimi K3.1 Pro): no warning line
    assert lines[-1] == f"{len(blocks)} candidates"


def test_import_refuses_a_source_that_a_data_file_defines(tmp_path):
    """`tracker load` removes the claims a data file no longer states, so claims imported
    into a source a data file defines would vanish at the next load: refused up front."""
    data = tmp_path / "data"
    (data / "claims").mkdir(parents=True)
    subjects = data / "subjects.toml"
    subjects.write_text(Path(SUBJECTS).read_text(encoding="utf-8"), encoding="utf-8")
    defined = data / "claims" / "launch.toml"
    defined.write_text('[source]\nkey = "launch"\ntitle = "Launch"\n', encoding="utf-8")
    cands = tmp_path / "c.json"
    cands.write_text("[]", encoding="utf-8")
    db = tmp_path / "t.db"
    from claims.store.engine import make_engine

    make_engine(db).dispose()
    args = ["claims", "import", str(cands), "--db", str(db), "--subjects", str(subjects)]
    r = runner.invoke(app, [*args, "--source", "launch"])
    assert (r.exit_code, r.stderr) == (
        1,
        f"error: --source 'launch' is defined by {defined}: add these claims to that file "
        "and run `tracker load`, or import under another source key\n",
    )
    assert runner.invoke(app, [*args, "--source", "blog-2"]).exit_code == 0


# A made-up model no subjects file knows, named in every sentence but the second.
UNTRACKED = (
    "Vireo Labs launches Halcyon 9\n\n"
    "Vireo Labs announced Halcyon 9 with 405 billion parameters. The model supports a "
    "256K-token context window.\n"
)


def test_extract_names_a_model_that_is_not_a_tracked_subject(tmp_path):
    f = tmp_path / "a.txt"
    f.write_text(UNTRACKED, encoding="utf-8")
    r = _extract(str(f), "--lang", "en", "--published", "2026-11-30", "--json")
    assert (r.exit_code, r.stderr) == (
        0,
        "warning: 2 of 2 candidates have no known subject (—); their text names 'Halcyon 9' "
        "(2), which is not a tracked subject, and `claims import` skips them: add the model "
        f"(slug, name, aliases as written) to {SUBJECTS} and extract again, or pass "
        "--subject SLUG (a subject of that file) for figures naming no model\n",
    )
    got = [(c["subject"], c["attribute"], c["warnings"]) for c in json.loads(r.stdout)]
    assert got == [
        (None, "total_params", ["names 'Halcyon 9', which is not a tracked subject"]),
        (None, "context_window", ["names 'Halcyon 9', which is not a tracked subject"]),
    ]


def test_one_candidate_without_a_subject_is_counted_in_the_singular(tmp_path):
    """ "1 of 2 candidates has …, its text names …, skips it", not "have"/"their"/"them"
    (a fresh-user trial)."""
    f = tmp_path / "a.txt"
    f.write_text(
        "Vireo Labs launches Halcyon 9\n\nVireo Labs announced Halcyon 9 with 405 billion "
        "parameters.\n\nSeparately, Kimi K3 has 1 trillion parameters.\n",
        encoding="utf-8",
    )
    r = _extract(str(f), "--lang", "en", "--published", "2026-11-30", "--json")
    assert (r.exit_code, r.stderr) == (
        0,
        "warning: 1 of 2 candidates has no known subject (—); its text names 'Halcyon 9' "
        "(1), which is not a tracked subject, and `claims import` skips it: add the model "
        f"(slug, name, aliases as written) to {SUBJECTS} and extract again, or pass "
        "--subject SLUG (a subject of that file) for figures naming no model\n",
    )


def test_claims_extract_refuses_an_article_over_max_kb_and_binary_files(tmp_path):
    """A 19.7 MB text ran for minutes silently; a binary file said "cannot read article
    (UnicodeDecodeError)" (fresh-user trial)."""
    from tracker.cli.main import app as tracker_app

    big = tmp_path / "big.txt"
    big.write_text("Orion 2 has 2T parameters.\n" * 100, encoding="utf-8")  # 2.7 KB
    result = CliRunner().invoke(tracker_app, ["claims", "extract", str(big), "--max-kb", "2"])
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {big}: 3 KB is more than --max-kb 2 (extraction would take minutes); pass "
        "the part about the model, or raise --max-kb\n",
    )
    pdf = tmp_path / "a.pdf"
    pdf.write_bytes(b"%PDF-1.7\n\xe2\x28\xa1 binary")
    result = CliRunner().invoke(tracker_app, ["claims", "extract", str(pdf)])
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {pdf}: not UTF-8 text (byte 0xe2 at offset 9); give a text or HTML file "
        "(convert a PDF or document to text first)\n",
    )
