"""aa_providers: Artificial Analysis' per-provider speed, price and context window of one
model (the Commercial-tier detail endpoint) on a body built in the OpenAPI format, with
its failure shapes: renamed fields, missing percentiles, a model absent, a Free-tier
answer without providers."""

from __future__ import annotations

import copy
import datetime as dt
import json
from decimal import Decimal

import httpx
import pytest
from cycle_setup import DATA

from claims.readings.aa_providers import read_aa_model
from claims.readings.boards import FormatChanged
from tracker.adapters import Fetched, get_adapter
from tracker.errors import BadStatus, LayoutChanged
from tracker.net.fetch import fetch, make_client

AT = dt.datetime(2026, 11, 28, 6, 0, 0, tzinfo=dt.UTC)
URL = "https://artificialanalysis.ai/api/v2/language/models/example-open-moe-reasoning"
DOC = json.loads((DATA / "synthetic_aa_language_model_detail_commercial.json").read_text())
TPS = "output_tokens_per_second"


def _parse(doc: object, url: str = URL, params: dict | None = None, headers=None):
    f = Fetched.from_body(url, json.dumps(doc).encode(), AT, headers=headers)
    return get_adapter("aa_providers").parse(f, params or {})


def test_every_provider_gives_its_speed_percentiles_prices_and_context_window():
    result = _parse(DOC)
    got = {
        (v.qualifiers["provider"], v.attribute, v.qualifiers.get("statistic")): v
        for v in result.values
    }
    assert {v.subject_ref for v in result.values} == {
        ("artificial_analysis", "example-open-moe-reasoning")
    }
    speeds = {(p, s): v.value.value for (p, a, s), v in got.items() if a == TPS}
    assert speeds == {
        ("Example Lab", "p5"): Decimal("28.4"),
        ("Example Lab", "p25"): Decimal("35.1"),
        ("Example Lab", "median"): Decimal("41.7"),
        ("Example Lab", "p75"): Decimal("47.9"),
        ("Example Lab", "p95"): Decimal("56.3"),
        ("Wafer Cloud", "p5"): Decimal("1012.5"),
        ("Wafer Cloud", "p25"): Decimal("1320"),
        ("Wafer Cloud", "median"): Decimal("1511.8"),
        ("Wafer Cloud", "p75"): Decimal("1702.4"),
        ("Wafer Cloud", "p95"): Decimal("1890"),
    }  # New Host: every figure null, nothing observed
    median = got[("Wafer Cloud", TPS, "median")]
    assert median.qualifiers == {
        "provider": "Wafer Cloud", "statistic": "median", "prompt_length": "medium",
        "measured_by": "Artificial Analysis",
    }  # fmt: skip
    assert (median.value.extra["p5"], median.value.extra["p95"]) == ("1012.5", "1890.0")
    prices = {(p, a): v.value.value for (p, a, _s), v in got.items() if a.startswith("price_")}
    assert prices == {
        ("Example Lab", "price_input_usd_per_mtok"): Decimal("0.6"),
        ("Example Lab", "price_output_usd_per_mtok"): Decimal("2.5"),
        ("Wafer Cloud", "price_input_usd_per_mtok"): Decimal("2.25"),
        ("Wafer Cloud", "price_output_usd_per_mtok"): Decimal("6.75"),
    }
    assert got[("Wafer Cloud", "price_input_usd_per_mtok", None)].qualifiers == {
        "provider": "Wafer Cloud"
    }
    ctx = {p: v.value.value for (p, a, _s), v in got.items() if a == "context_window"}
    assert ctx == {"Example Lab": Decimal(262144), "Wafer Cloud": Decimal(131072)}
    assert len(result.values) == 16 and result.warnings == []


def test_prompt_type_of_the_request_and_watch_variants_become_qualifiers():
    result = _parse(
        DOC,
        URL + "?prompt_type=long",
        {"variants": {"example-open-moe-reasoning": "Highspeed"}},
    )
    tps = [v for v in result.values if v.attribute == TPS]
    assert {(v.qualifiers["prompt_length"], v.qualifiers["variant"]) for v in tps} == {
        ("long", "Highspeed")
    }
    stated = copy.deepcopy(DOC)
    stated["prompt_options"] = {"parallel_queries": 10, "prompt_length": "100k"}
    reading = read_aa_model(stated, URL, "example-open-moe-reasoning", "long")
    assert (reading.prompt, reading.parallel, reading.tier, reading.version) == (
        "100k", "10", "commercial", "4.1",
    )  # fmt: skip


def _renamed(where: str, old: str, new: str | None) -> dict:
    doc = copy.deepcopy(DOC)
    block = doc["data"]["providers"][1][where] if where else doc["data"]["providers"][1]
    value = block.pop(old)
    if new is not None:
        block[new] = value
    return doc


def test_a_renamed_speed_field_fails_the_watch_naming_it():
    doc = _renamed("performance", "median_output_tokens_per_second", "p50_output_tps")
    with pytest.raises(
        LayoutChanged,
        match=r"providers\[1\] \(Wafer Cloud\) performance has no "
        r"'median_output_tokens_per_second'",
    ):
        _parse(doc)


def test_a_missing_percentile_or_price_field_fails_naming_it():
    with pytest.raises(FormatChanged, match="has no 'percentile_95_output_tokens_per_second'"):
        read_aa_model(_renamed("performance", "percentile_95_output_tokens_per_second", None))
    with pytest.raises(FormatChanged, match="pricing has no 'price_1m_output_tokens'"):
        read_aa_model(_renamed("pricing", "price_1m_output_tokens", "price_1m_output"))
    with pytest.raises(FormatChanged, match=r"providers\[1\] has no 'context_window_tokens'"):
        read_aa_model(_renamed("", "context_window_tokens", "context_window"))


def test_a_free_tier_answer_without_providers_says_the_key_is_not_commercial():
    free = copy.deepcopy(DOC)
    free["tier"] = "free"
    del free["data"]["providers"]
    with pytest.raises(LayoutChanged) as exc:
        _parse(free, headers={"X-AA-Tier": "free"})
    assert str(exc.value) == (
        f"{URL}: model 'example-open-moe-reasoning' has no 'providers' (tier free); "
        "per-provider speed and price are Commercial tier only: TRACKER_AA_API_KEY must "
        "be a Commercial key (X-AA-Tier: free)"
    )


def test_a_model_absent_is_a_404_and_another_models_answer_is_refused():
    def handler(request):
        return httpx.Response(404, json={"error": "Model not found"})

    client = make_client(transport=httpx.MockTransport(handler))
    with pytest.raises(BadStatus) as exc:
        fetch(client, URL.replace("example-open-moe-reasoning", "no-such-model"))
    assert (exc.value.kind, exc.value.status) == ("not_found", 404)
    with pytest.raises(LayoutChanged, match="asked for model 'kimi-k3', the answer is"):
        _parse(DOC, URL.replace("example-open-moe-reasoning", "kimi-k3"))
    listing = {"tier": "commercial", "data": [DOC["data"]]}
    with pytest.raises(LayoutChanged, match="'data' is a list of models"):
        _parse(listing)
