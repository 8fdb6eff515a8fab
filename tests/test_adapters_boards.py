"""The issue-18 adapters on real or real-format bodies, failure shapes included:
terminal_bench (a real run's results.json), endpoint_speeds (OpenRouter's documented
example), claimant_page, and the leaderboard readers' renamed keys, missing intervals
and absent models."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from cycle_setup import DATA

from claims.readings.boards import FormatChanged, aa_board, arena_boards, terminal_bench_run
from claims.verify.ranks import rank_spans
from tracker.adapters import Fetched, get_adapter
from tracker.errors import ConfigError, LayoutChanged

AT = dt.datetime(2026, 11, 28, 6, 0, 0, tzinfo=dt.UTC)
TB = (
    "https://raw.githubusercontent.com/laude-institute/terminal-bench-leaderboard/main/results/"
    "terminal-bench-core:0.1.1/20250811_cursor-cli_claude-4-sonnet/"
    "run1_2025-08-10__05-27-18/results.json"
)


def _parse(kind: str, url: str, body: bytes, params: dict | None = None):
    return get_adapter(kind).parse(Fetched.from_body(url, body, AT), params or {})


def test_terminal_bench_real_run_holds_its_score_under_version_and_agent():
    body = DATA.parent / "data" / "terminal-bench_core-0.1.1_run_results_excerpt.json"
    if not body.exists():
        pytest.skip("fixture not copied")
    result = _parse("terminal_bench", TB, body.read_bytes())
    [v] = result.values
    assert v.subject_ref == ("terminal_bench", "claude-4-sonnet")
    assert v.attribute == "benchmark_score"
    assert v.qualifiers == {
        "benchmark": "Terminal-Bench",
        "version": "0.1.1",
        "agent": "cursor-cli",
    }
    assert (v.value.value, v.value.unit) == (Decimal(25), "percent")
    assert (v.value.extra["resolved"], v.value.extra["trials"]) == (20, 80)
    assert v.value.extra["dataset"] == "terminal-bench-core"


def test_terminal_bench_failure_shapes():
    with pytest.raises(LayoutChanged, match="has no 'accuracy'"):
        _parse("terminal_bench", TB, b'{"n_resolved": 20, "score": 0.25}')  # renamed key
    with pytest.raises(LayoutChanged, match="not results/<dataset>:<version>"):
        _parse("terminal_bench", "https://x.test/run/results.json", b'{"accuracy": 0.5}')
    run = terminal_bench_run({"accuracy": 0.657, "n_resolved": 657, "n_unresolved": 343},
                             "results/terminal-bench:3.0/20261023_kimi-cli_kimi-k3.1-pro/run1/results.json")  # fmt: skip
    assert (run.version, run.agent, run.model, run.accuracy) == (
        "3.0", "kimi-cli", "kimi-k3.1-pro", Decimal("65.700"),
    )  # fmt: skip


# OpenRouter's documented ListEndpointsResponse example (openrouter.ai docs,
# PublicEndpoint), in the API's snake_case, plus a second endpoint without throughput.
ENDPOINTS = {
    "data": {
        "id": "openai/gpt-4",
        "name": "GPT-4",
        "created": 1692901234,
        "description": "GPT-4 is a large multimodal model that can solve difficult problems.",
        "architecture": {"tokenizer": "GPT", "instruct_type": "chatml", "modality": "text->text"},
        "endpoints": [
            {
                "name": "OpenAI: GPT-4", "model_name": "GPT-4", "context_length": 8192,
                "pricing": {"prompt": "0.00003", "completion": "0.00006"},
                "provider_name": "OpenAI", "tag": "openai", "quantization": "fp16",
                "max_completion_tokens": 4096, "max_prompt_tokens": 8192,
                "supported_parameters": ["temperature", "top_p", "max_tokens"],
                "uptime_last_30m": 99.5, "supports_implicit_caching": True,
                "latency_last_30m": {"p50": 0.25, "p75": 0.35, "p90": 0.48, "p99": 0.85},
                "throughput_last_30m": {"p50": 45.2, "p75": 38.5, "p90": 28.3, "p99": 15.1},
            },
            {"name": "Azure: GPT-4", "provider_name": "Azure", "tag": "azure",
             "quantization": "unknown", "throughput_last_30m": None},
        ],
    }
}  # fmt: skip
EP_URL = "https://openrouter.ai/api/v1/models/openai/gpt-4/endpoints"


def test_endpoint_speeds_per_provider_with_their_conditions():
    result = _parse("endpoint_speeds", EP_URL, json.dumps(ENDPOINTS).encode())
    got = {(v.attribute, v.qualifiers.get("provider")): v for v in result.values}
    assert sorted(got) == [
        ("output_tokens_per_second", "OpenAI"),
        ("release_date", None),
        ("weights_precision_bits", "OpenAI"),
    ]  # Azure states neither a throughput nor a known quantization
    tps = got[("output_tokens_per_second", "OpenAI")]
    assert tps.subject_ref == ("openrouter", "openai/gpt-4")
    assert tps.value.value == Decimal("45.2")
    assert tps.qualifiers == {
        "provider": "OpenAI", "endpoint": "openai", "measured_by": "OpenRouter",
        "statistic": "p50", "window": "last 30 min",
    }  # fmt: skip
    assert got[("weights_precision_bits", "OpenAI")].value.value == 16
    assert got[("release_date", None)].value.value == "2023-08-24"


def test_endpoint_speeds_variant_and_failure_shapes():
    body = json.dumps(ENDPOINTS).encode()
    result = _parse("endpoint_speeds", EP_URL, body, {"variants": {"openai/gpt-4": "Turbo"}})
    assert {v.qualifiers.get("variant") for v in result.values} == {"Turbo"}
    renamed = json.loads(body)
    renamed["data"]["endpoints"][0]["provider"] = renamed["data"]["endpoints"][0].pop(
        "provider_name"
    )
    with pytest.raises(LayoutChanged, match="endpoint 0 has no provider_name"):
        _parse("endpoint_speeds", EP_URL, json.dumps(renamed).encode())
    with pytest.raises(LayoutChanged, match="expected"):
        _parse("endpoint_speeds", EP_URL, b'{"data": []}')


PAGE = b"""<html><body><nav>Blog 59 wafers</nav><article><h1>Serving Kimi K3</h1>
<p>Kimi K3 has about 3 trillion parameters on 58 WSE-3T wafers, 4-bit weights.</p>
</article></body></html>"""
STATEMENTS = [
    {"attribute": "hardware_units", "pattern": r"(?P<n>\d+) WSE-3T wafers", "unit": "wafers",
     "qualifiers": {"hardware": "Cerebras WSE-3T"}},
    {"attribute": "total_params", "pattern": r"about (?P<n>\d+) trillion parameters", "notation": "~{n}T"},
    {"attribute": "output_tokens_per_second", "pattern": r"(?P<n>[\d,]+) to (?P<m>[\d,]+)\+ tokens",
     "notation": "{n}-{m}+"},
]  # fmt: skip
CLAIMANT = {
    "claimant": "Cerebras",
    "subject": "Kimi K3",
    "selector": "article",
    "statements": STATEMENTS,
}


def test_claimant_page_rereads_each_figure_it_states_with_its_quote():
    result = _parse("claimant_page", "https://x.test/post", PAGE, CLAIMANT)
    got = {v.attribute: v for v in result.values}
    assert sorted(got) == ["hardware_units", "total_params"]  # no speed on this page
    wafers = got["hardware_units"]
    assert wafers.subject_ref == ("name", "Kimi K3")
    assert wafers.qualifiers == {"hardware": "Cerebras WSE-3T", "stated_by": "Cerebras"}
    assert wafers.value.value == 58  # re-read from the page (the nav's "59" is not the article)
    assert wafers.value.extra["quote"] == "58 WSE-3T wafers"
    total = got["total_params"].value
    assert (total.value, total.low, total.high, total.approx) == (
        Decimal(3 * 10**12), Decimal(2 * 10**12), Decimal(4 * 10**12), True,
    )  # fmt: skip
    assert total.extra["checked"] == [
        "hardware_units", "output_tokens_per_second", "total_params",
    ]  # fmt: skip


def test_claimant_page_failure_shapes():
    with pytest.raises(LayoutChanged, match="'main' matched nothing"):
        _parse("claimant_page", "https://x.test/post", PAGE, CLAIMANT | {"selector": "main"})
    bad = CLAIMANT | {"statements": [{"attribute": "total_params", "pattern": "no group"}]}
    with pytest.raises(ConfigError, match=r"needs a group \(\?P<n>"):
        _parse("claimant_page", "https://x.test/post", PAGE, bad)
    with pytest.raises(ConfigError, match="'claimant', 'subject' and 'statements'"):
        _parse("claimant_page", "https://x.test/post", PAGE, {"subject": "Kimi K3"})
    none = _parse("claimant_page", "https://x.test/post", b"<article>nothing</article>", CLAIMANT)
    assert none.values == [] and none.warnings == [
        "https://x.test/post: none of the statements found"
    ]


def _catalog() -> dict:
    return json.loads((DATA / "lmarena_arena-catalog_leaderboard-text_excerpt.json").read_text())


def test_arena_renamed_rating_key_fails_the_watch():
    doc = _catalog()
    entry = doc["full"]["gemini-3-pro"]
    entry["score"] = entry.pop("rating")
    with pytest.raises(FormatChanged, match="full/gemini-3-pro has no 'rating'"):
        arena_boards(doc, "lmarena-text", "x")
    with pytest.raises(LayoutChanged):
        _parse("lmarena_catalog", "https://x.test/leaderboard-text.json", json.dumps(doc).encode())


def test_arena_missing_interval_ranks_by_score_and_says_so():
    doc = _catalog()
    del doc["full"]["kimi-k2-thinking-turbo"]["rating_q975"]
    full = next(b for b in arena_boards(doc, "lmarena-text", "x") if b.name == "lmarena-text")
    row = full.rows["kimi-k2-thinking-turbo"]
    span = rank_spans({k: r.entry for k, r in full.rows.items()})["kimi-k2-thinking-turbo"]
    assert (row.low, row.high, span.rule) == (None, None, "score")
    assert (span.best, span.worst) == (14, 14)  # by score alone in the excerpt
    assert full.warnings == (
        "lmarena-text: no 95 % interval for kimi-k2-thinking-turbo; ranked by score",
    )


def test_a_model_absent_from_the_board_gets_no_row():
    boards = arena_boards(_catalog(), "lmarena-text", "x")
    assert all("kimi-k3.1-pro" not in b.rows for b in boards)
    aa = aa_board(json.loads((DATA / "synthetic_aa_language_models_free_v2.json").read_text()))
    assert list(aa.rows) == ["example-open-moe-reasoning"]
    assert aa.rows["example-open-moe-reasoning"].version == "4.1"
    with pytest.raises(FormatChanged, match="item 0 has no slug"):
        aa_board({"data": [{"name": "x"}]})
