"""Demo recordings for the leaderboard, speed and claimant-page watches (issue 18).

Every body here is CONSTRUCTED in a real, documented format: no capture of these
endpoints for the Kimi K3 family exists (the models are the seed articles' subjects).
Each HAR entry's comment names the format's origin. Used by build_demo_har.py.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json

from tracker.net.har import har_entry

RECORDED_AT = dt.datetime(2026, 11, 28, 6, 0, 0, tzinfo=dt.UTC)
JSON_TYPE = "application/json; charset=utf-8"
HTML_TYPE = "text/html; charset=utf-8"


def _body(obj: object) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _entry(url: str, body: bytes, comment: str, content_type: str = JSON_TYPE) -> dict:
    etag = '"' + hashlib.sha1(body).hexdigest()[:20] + '"'
    headers = [("Content-Type", content_type), ("ETag", etag)]
    return har_entry("GET", url, 200, headers, body, RECORDED_AT, status_text="OK", comment=comment)


# Intelligence Index as the seed article reports it (K3.1 Pro fourth with 55, behind 58,
# 56 and 56); the other rows are placeholders named as such.
AA_MODELS = [
    ("opus-5-5", "Opus 5.5", 58),
    ("sonnet-5-5", "Sonnet 5.5", 56),
    ("muse-wonder-full", "Muse Wonder Full", 56),
    ("kimi-k3-1-pro", "Kimi K3.1 Pro", 55),
    ("placeholder-model-a", "Placeholder model A", 53),
    ("kimi-k3", "Kimi K3", 50),
    ("placeholder-model-b", "Placeholder model B", 47),
]


def aa_models() -> dict:
    data = []
    for i, (slug, name, score) in enumerate(AA_MODELS, start=1):
        data.append(
            {
                "id": f"00000000-0000-0000-0000-{i:012d}",
                "name": name,
                "slug": slug,
                "model_creator": {"id": f"00000000-0000-0000-0000-0000000000{i:02d}", "name": ""},
                "evaluations": {
                    "artificial_analysis_intelligence_index": score,
                    "artificial_analysis_coding_index": None,
                    "artificial_analysis_agentic_index": None,
                },
                "pricing": {"price_1m_input_tokens": None, "price_1m_output_tokens": None},
                "performance": {"median_output_tokens_per_second": None},
            }
        )
    doc = {
        "tier": "free",
        "intelligence_index_version": 4.1,
        "pagination": {"page": 1, "page_size": 100, "total_pages": 1, "has_more": False},
        "data": data,
    }
    return _entry(
        "https://artificialanalysis.ai/api/v2/language/models/free",
        _body(doc),
        "CONSTRUCTED in the format of GET /api/v2/language/models/free (fixtures/real/"
        "synthetic_aa_language_models_free_v2.json, from the OpenAPI models of the "
        "artificial-analysis-cli package). Index values are the ones the seed article "
        "reports (58, 56, 56, 55); placeholder rows are named so; nothing here is a capture.",
    )


# Code Arena WebDev: placeholder rows around the two Kimi models, 95 % intervals of
# about +/-7 points; K3.1 Pro holds ranks 7-10 and K3 ranks 15-18 by those intervals.
WEBDEV = [1768, 1751, 1740, 1729, 1719, 1711, 1703, 1686, 1679, 1670, 1662, 1655, 1648,
          1641, 1635, 1616, 1608, 1597]  # fmt: skip


def lmarena_webdev() -> dict:
    full: dict[str, dict[str, float]] = {}
    for i, r in enumerate(WEBDEV, start=1):
        full[f"placeholder-webdev-{i:02d}"] = {
            "rating": r + 0.25,
            "rating_q975": r + 7.25,
            "rating_q025": r - 6.75,
        }
    full["kimi-k3.1-pro"] = {"rating": 1692.4, "rating_q975": 1699.8, "rating_q025": 1685.1}
    full["kimi-k3"] = {"rating": 1627.6, "rating_q975": 1635.2, "rating_q025": 1619.9}
    ordered = dict(sorted(full.items(), key=lambda kv: -kv[1]["rating"]))
    return _entry(
        "https://raw.githubusercontent.com/lmarena/arena-catalog/main/data/leaderboard-webdev.json",
        _body({"full": ordered}),
        "CONSTRUCTED in the format of lmarena/arena-catalog data/leaderboard-*.json "
        "({category: {model: {rating, rating_q975, rating_q025}}}; fixtures/real/lmarena_"
        "arena-catalog_leaderboard-text_excerpt.json). arena-catalog has no webdev file; "
        "the two Kimi ratings follow the seed article (1,692; eighth, K3 nine places "
        "lower); every other row is a placeholder.",
    )


def terminal_bench() -> dict:
    doc = {
        "id": "00000000-0000-0000-0000-00000000tb30",
        "results": [],
        "pass_at_k": {},
        "n_resolved": 657,
        "n_unresolved": 343,
        "resolved_ids": [],
        "unresolved_ids": [],
        "accuracy": 0.657,
    }
    return _entry(
        "https://raw.githubusercontent.com/laude-institute/terminal-bench-leaderboard/main/"
        "results/terminal-bench:3.0/20261023_kimi-cli_kimi-k3.1-pro/run1/results.json",
        _body(doc),
        "CONSTRUCTED in the format of a Terminal-Bench leaderboard run results.json "
        "(fixtures/real/terminal-bench_core-0.1.1_run_results_excerpt.json, laude-institute/"
        "terminal-bench-leaderboard) at the repo's path layout results/<dataset>:<version>/"
        "<date>_<agent>_<model>/<run>/. The demo places 65.7 % under version 3.0; trial "
        "lists are left empty.",
    )


def leaderboard_entries() -> list[dict]:
    """AA index, Code Arena WebDev board, Terminal-Bench run."""
    return [aa_models(), lmarena_webdev(), terminal_bench()]


def _endpoint(provider: str, tag: str, quant: str, p50: float, prompt: str, out: str) -> dict:
    return {
        "name": f"{provider} | {tag}",
        "model_name": "",
        "context_length": 262144,
        "pricing": {"prompt": prompt, "completion": out, "request": "0", "image": "0"},
        "provider_name": provider,
        "tag": tag,
        "quantization": quant,
        "max_completion_tokens": 32768,
        "max_prompt_tokens": 262144,
        "supported_parameters": ["max_tokens", "temperature", "tools"],
        "status": 0,
        "uptime_last_30m": 99.9,
        "supports_implicit_caching": True,
        "latency_last_30m": {"p50": 0.41, "p75": 0.52, "p90": 0.7, "p99": 1.3},
        "throughput_last_30m": {
            "p50": p50,
            "p75": round(p50 * 0.85, 1),
            "p90": round(p50 * 0.7, 1),
            "p99": round(p50 * 0.4, 1),
        },
    }


def _endpoints(model: str, name: str, created: int, endpoints: list[dict]) -> dict:
    doc = {
        "data": {
            "id": model,
            "name": name,
            "created": created,
            "description": "",
            "architecture": {
                "tokenizer": "Other",
                "instruct_type": None,
                "modality": "text->text",
                "input_modalities": ["text"],
                "output_modalities": ["text"],
            },
            "endpoints": endpoints,
        }
    }
    return _entry(
        f"https://openrouter.ai/api/v1/models/{model}/endpoints",
        _body(doc),
        "CONSTRUCTED in the format of GET /api/v1/models/{author}/{slug}/endpoints "
        "(openrouter.ai docs: ListEndpointsResponse / PublicEndpoint, snake_case on the "
        "wire; no real capture in fixtures/real). Throughput figures are invented for the "
        "demo; prices follow the LiteLLM entries the demo already replays; a created of 0 "
        "means the demo withholds a listing time it does not know.",
    )


# Listed 2026-10-23 09:00 UTC (the seed article's launch date); Kimi K3's listing time is
# withheld (0: no launch date of it is on record, so none is invented).
K31_CREATED = int(dt.datetime(2026, 10, 23, 9, 0, tzinfo=dt.UTC).timestamp())
K3_CREATED = 0


def endpoint_entries() -> list[dict]:
    """Per-provider endpoints of Kimi K3 (Cerebras + Moonshot AI) and K3.1 Pro Standard
    / Highspeed (Moonshot AI)."""
    k3 = _endpoints(
        "moonshotai/kimi-k3",
        "MoonshotAI: Kimi K3",
        K3_CREATED,
        [
            _endpoint("Cerebras", "cerebras", "int4", 1384.0, "0.000003", "0.000015"),
            _endpoint("Moonshot AI", "moonshotai", "unknown", 41.6, "0.000003", "0.000015"),
        ],
    )
    std = _endpoints(
        "moonshotai/kimi-k3.1-pro",
        "MoonshotAI: Kimi K3.1 Pro",
        K31_CREATED,
        [_endpoint("Moonshot AI", "moonshotai", "int4", 44.8, "0.000002", "0.00001")],
    )
    fast = _endpoints(
        "moonshotai/kimi-k3.1-pro-highspeed",
        "MoonshotAI: Kimi K3.1 Pro Highspeed",
        K31_CREATED,
        [_endpoint("Moonshot AI", "moonshotai/highspeed", "int4", 112.0, "0.000004", "0.00002")],
    )
    return [k3, std, fast]


AA_DETAIL = "https://artificialanalysis.ai/api/v2/language/models/"
# (provider, (p5, p25, median, p75, p95) output tokens/s, input and output USD per 1M,
# context window): invented figures, prices as the LiteLLM / OpenRouter entries replayed.
AA_PROVIDERS = {
    "kimi-k3": ("Kimi K3", [
        ("Cerebras", (980.0, 1190.0, 1412.0, 1655.0, 2140.0), 3.0, 15.0, 131072),
        ("Moonshot AI", (30.2, 38.0, 43.9, 48.1, 55.7), 3.0, 15.0, 262144),
    ]),
    "kimi-k3-1-pro": ("Kimi K3.1 Pro", [
        ("Moonshot AI", (33.0, 40.5, 46.2, 51.0, 58.4), 2.0, 10.0, 1048576),
    ]),
    "kimi-k3-1-pro-highspeed": ("Kimi K3.1 Pro Highspeed", [
        ("Moonshot AI", (84.0, 104.2, 118.5, 129.9, 141.0), 4.0, 20.0, 1048576),
    ]),
}  # fmt: skip
_SPEED_KEYS = ("percentile_05", "quartile_25", "median", "quartile_75", "percentile_95")


def _aa_provider(name: str, tps: tuple, price_in: float, price_out: float, ctx: int) -> dict:
    perf: dict = {f"{k}_output_tokens_per_second": v for k, v in zip(_SPEED_KEYS, tps)}
    perf.update({f"{k}_time_to_first_token_seconds": None for k in _SPEED_KEYS})
    perf.update(
        median_time_to_first_answer_token_seconds=None,
        median_end_to_end_response_time_seconds=None,
    )
    return {
        "id": "00000000-0000-0000-0000-" + hashlib.sha1(name.encode()).hexdigest()[:12],
        "name": name,
        "slug": name.lower().replace(" ", "-"),
        "pricing": {
            "price_1m_blended_3_to_1": (3 * price_in + price_out) / 4,
            "price_1m_blended_7_to_2_to_1": None,
            "price_1m_input_tokens": price_in,
            "price_1m_output_tokens": price_out,
            "price_1m_cache_hit_tokens": None,
            "price_1m_cache_write_tokens": None,
        },
        "performance": perf,
        "context_window_tokens": ctx,
    }


def aa_detail(slug: str) -> dict:
    """One model's Commercial-tier detail with its providers."""
    name, providers = AA_PROVIDERS[slug]
    score = next((s for k, _n, s in AA_MODELS if k == slug), None)
    doc = {
        "tier": "commercial",
        "intelligence_index_version": 4.1,
        "data": {
            "id": "00000000-0000-0000-0000-" + hashlib.sha1(slug.encode()).hexdigest()[:12],
            "name": name,
            "slug": slug,
            "release_date": None,
            "model_creator": {"id": "00000000-0000-0000-0000-0000000000e0", "name": "Moonshot AI"},
            "evaluations": {
                "artificial_analysis_intelligence_index": score,
                "artificial_analysis_coding_index": None,
                "artificial_analysis_agentic_index": None,
            },
            "artificial_analysis_intelligence_index_cost": None,
            "providers": [_aa_provider(*p) for p in providers],
        },
    }
    return _entry(
        AA_DETAIL + slug,
        _body(doc),
        "CONSTRUCTED in the documented format, not a capture: GET /api/v2/language/models/"
        "{slug} as a Commercial key gets it (ModelDataExternal with providers[] = "
        "ModelProviderDataExternal{pricing, performance percentiles, context_window_tokens}, "
        "OpenAPI models of the artificial-analysis-cli 0.1.0 package; the {tier, data} "
        "envelope is the list endpoints'). Speeds are invented; prices follow the LiteLLM "
        "entries the demo replays.",
    )


def aa_detail_entries() -> list[dict]:
    """AA per-provider details of Kimi K3, K3.1 Pro and K3.1 Pro Highspeed."""
    return [aa_detail(slug) for slug in AA_PROVIDERS]


CEREBRAS_POST = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Kimi K3 on WSE-3T (demo page)</title></head><body><nav>Blog</nav><article>
<h1>Serving Kimi K3 on WSE-3T</h1><p>Published 2026-10-26.</p>
<p>Kimi K3 has about 3 trillion parameters. We hold them on 59 WSE-3T wafers, with
4-bit weights and the KV cache kept on chip.</p>
<p>In our tests the model generates at 1,000 to 2,000+ tokens per second, depending on
the load.</p></article><footer>Demo page</footer></body></html>
"""

K3_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Kimi K3 (demo page)</title></head><body><main><h1>Kimi K3</h1>
<p>A mixture-of-experts model with 2.8T total parameters.</p>
</main></body></html>
"""

K31_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Kimi K3.1 Pro (demo page)</title></head><body><main><h1>Kimi K3.1 Pro</h1>
<p>Same architecture as Kimi K3: 2.8T total parameters, 104B activated per token, and a
1M-token context window. Open weights will follow.</p></main></body></html>
"""


def claimant_pages() -> list[dict]:
    """Cerebras' engineering post on Kimi K3 and Moonshot AI's model pages."""
    why = (
        "CONSTRUCTED HTML, not a capture: the page the seed article cites, written for the "
        "demo so the claimant_page watch has something to read; its figures are the ones "
        "the article attributes to {who}."
    )
    return [
        _entry(
            "https://www.cerebras.ai/blog/kimi-k3-on-wse-3t",
            CEREBRAS_POST.encode(),
            why.format(who="Cerebras"),
            HTML_TYPE,
        ),
        _entry(
            "https://platform.kimi.ai/docs/models/kimi-k3",
            K3_PAGE.encode(),
            why.format(who="Moonshot AI (2.8T total: the article's 'a Moonshot em 2,8 trilhões')"),
            HTML_TYPE,
        ),
        _entry(
            "https://platform.kimi.ai/docs/models/kimi-k3.1-pro",
            K31_PAGE.encode(),
            why.format(who="Moonshot AI"),
            HTML_TYPE,
        ),
    ]
