"""The extractor interface, grounding of LLM-proposed claims, and `tracker claims extract
--extractor llm` against a recorded chat-completions answer (no network)."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path

import httpx
from typer.testing import CliRunner

from claims.extract.extractors import RuleExtractor
from claims.extract.grounding import ground
from claims.subjects.references import SubjectRef
from tracker.articles.llm import LlmExtractor, parse_answer
from tracker.cli import claims as cli_claims
from tracker.cli.main import app
from tracker.errors import BadStatus, FetchError, ParseError
from tracker.net.fetch import make_client

DATA = Path(__file__).parent / "data"
SUBJECTS = str(DATA / "subjects.toml")
RECORDED = (DATA / "llm_chat_answer_kimi.json").read_text(encoding="utf-8")
TEXT = (
    "O Kimi K3.1 Pro tem 2,8 trilhões de parâmetros e janela de contexto de 1 milhão de "
    "tokens. A Moonshot AI cobra US$ 10,00 por milhão de tokens de saída. O modelo marcou "
    "65,7% no Terminal-Bench 4.0. Os pesos abertos foram prometidos para antes de 4 de "
    "novembro.\n"
)
NOVA = [SubjectRef("nova-2", ("Nova 2",))]
EN = (
    "Nova 2 has 1.2T parameters and scores 71.5% on GPQA Diamond. It was released on "
    "March 3, 2026 under the Apache 2.0 license."
)


def test_grounding_keeps_what_the_quote_states():
    props = [
        {"subject": "nova-2", "attribute": "total_params", "value": 1.2e12, "quote": "1.2T parameters"},
        {
            "subject": "nova-2",
            "attribute": "benchmark_score",
            "value": 71.5,
            "quote": "scores 71.5% on GPQA Diamond",
            "qualifiers": {"benchmark": "GPQA Diamond"},
        },
        {"subject": "nova-2", "attribute": "release_date", "value": "2026-03-03", "quote": "released on March 3, 2026"},
        {"subject": "nova-2", "attribute": "license", "value": "apache-2.0", "quote": "Apache 2.0 license"},
    ]  # fmt: skip
    got, rejected = ground(props, EN, NOVA, "en", dt.date(2026, 3, 5))
    assert rejected == []
    assert [(c.attribute, c.text, c.how) for c in got] == [
        ("total_params", "1.2T", "llm"),
        ("benchmark_score", "71.5%", "llm"),
        ("release_date", "March 3, 2026", "llm"),
        ("license", "Apache 2.0", "llm"),
    ]
    assert got[0].value.value == Decimal("1200000000000") and got[0].value.unit == "params"
    assert got[1].qualifiers == {"benchmark": "GPQA Diamond"}
    assert EN[got[2].start : got[2].end] == "March 3, 2026"


def test_grounding_drops_hallucinations_with_a_reason():
    props = [
        {"subject": "nova-2", "attribute": "benchmark_score", "value": 88.0, "quote": "scores 71.5% on GPQA Diamond"},
        {"subject": "nova-2", "attribute": "context_window", "value": 128000, "quote": "128K context"},
        {"subject": "nova-3", "attribute": "total_params", "value": 1.2e12, "quote": "1.2T parameters"},
        {"subject": "nova-2", "attribute": "gated", "value": "manual", "quote": "Nova 2"},
        "not a claim",
    ]  # fmt: skip
    got, rejected = ground(props, EN, NOVA, "en")
    assert got == []
    assert [r.reason for r in rejected] == [
        "the quote states no 88.0 (re-read: 71.5)",
        "quote '128K context' does not occur in the article",
        "subject 'nova-3' is not in the subjects file",
        "attribute 'gated' is not one extraction produces",
        "not an object",
    ]


def test_grounding_reads_quotes_with_other_hyphens_and_spaces():
    text = "Nova\u20112 reaches 1.2T\u00a0parameters."
    props = [
        {
            "subject": "nova-2",
            "attribute": "total_params",
            "value": 1.2e12,
            "quote": "1.2T parameters",
        }
    ]
    got, rejected = ground(props, text, NOVA, "en")
    assert rejected == [] and [c.text for c in got] == ["1.2T"]


def test_rule_extractor_is_extract():
    got = RuleExtractor().extract(EN, NOVA, lang="en", published=dt.date(2026, 3, 5))
    assert ("total_params", Decimal("1200000000000")) in {(c.attribute, c.value.value) for c in got}


def _llm(handler):
    client = make_client(transport=httpx.MockTransport(handler))
    return LlmExtractor(client, "test-model", base_url="http://llm.local/v1/", api_key="k-1")


def test_llm_extractor_sends_one_chat_request_and_grounds_the_answer():
    seen = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, text=RECORDED, headers={"content-type": "application/json"})

    warnings: list[str] = []
    ex = _llm(handler)
    refs = [SubjectRef("kimi-k3.1-pro", ("Kimi K3.1 Pro",))]
    got = ex.extract(TEXT, refs, lang="pt", published=dt.date(2026, 10, 27), warnings=warnings)
    (req,) = seen
    assert (req.method, str(req.url)) == ("POST", "http://llm.local/v1/chat/completions")
    assert req.headers["authorization"] == "Bearer k-1"
    body = json.loads(req.content)
    assert body["model"] == "test-model" and body["messages"][1]["content"] == TEXT
    assert "kimi-k3.1-pro (Kimi K3.1 Pro)" in body["messages"][0]["content"]
    assert [(c.attribute, c.text) for c in got] == [
        ("total_params", "2,8 trilhões"),
        ("context_window", "1 milhão"),
        ("price_output_usd_per_mtok", "US$ 10,00 por milhão"),
        ("weights_release_date", "4 de novembro"),
    ]
    assert got[2].claimant == "Moonshot AI"
    assert got[3].value.relation == "before"
    # The hallucinated score (71.2 where the text says 65,7) and the invented quote are dropped.
    assert [r.reason for r in ex.rejections] == [
        "the quote states no 71.2 (re-read: 65.7, 4)",
        "quote '104 bilhões de parâmetros ativos' does not occur in the article",
    ]
    assert len(warnings) == 2 and warnings[0].startswith(
        "LLM claim dropped (the quote states no 71.2"
    )


def test_llm_errors_are_tracker_errors():
    ex = _llm(lambda request: httpx.Response(401, text='{"error": "bad key"}'))
    try:
        ex.extract(TEXT, [], lang="pt")
    except BadStatus as exc:
        assert exc.status == 401 and "HTTP 401" in str(exc)
    else:
        raise AssertionError("no error")

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    try:
        _llm(refuse).extract(TEXT, [], lang="pt")
    except FetchError as exc:
        assert str(exc) == "http://llm.local/v1/chat/completions: ConnectError: connection refused"
    else:
        raise AssertionError("no error")
    for body in ('{"choices": []}', json.dumps({"choices": [{"message": {"content": "Sure!"}}]})):
        try:
            parse_answer(body)
        except ParseError as exc:
            assert "LLM endpoint" in str(exc)
        else:
            raise AssertionError(body)
    fenced = {"choices": [{"message": {"content": '```json\n{"claims": [1]}\n```'}}]}
    assert parse_answer(json.dumps(fenced)) == [1]


def test_cli_extract_with_llm(tmp_path, monkeypatch):
    article = tmp_path / "a.txt"
    article.write_text(TEXT, encoding="utf-8")
    seen = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, text=RECORDED)

    monkeypatch.setattr(
        cli_claims, "make_client", lambda: make_client(transport=httpx.MockTransport(handler))
    )
    monkeypatch.setenv("TRACKER_LLM_API_KEY", "secret-9")
    args = ["claims", "extract", str(article), "--subjects", SUBJECTS, "--lang", "pt"]
    args += ["--published", "2026-10-27", "--json", "--extractor", "llm", "--model", "m1"]
    r = CliRunner().invoke(app, [*args, "--base-url", "http://127.0.0.1:8080/v1"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert [(c["subject"], c["attribute"], c["how"]) for c in out][:2] == [
        ("kimi-k3.1-pro", "total_params", "llm"),
        ("kimi-k3.1-pro", "context_window", "llm"),
    ]
    assert 71.2 not in [c["value"].get("value") for c in out]
    assert "LLM claim dropped (the quote states no 71.2" in r.stderr
    assert str(seen[0].url) == "http://127.0.0.1:8080/v1/chat/completions"
    assert seen[0].headers["authorization"] == "Bearer secret-9"
    r = CliRunner().invoke(
        app, ["claims", "extract", str(article), "--subjects", SUBJECTS, "--extractor", "llm"]
    )
    assert (
        r.exit_code == 1
        and r.stderr == "error: --extractor llm: give the model name (--model NAME)\n"
    )
