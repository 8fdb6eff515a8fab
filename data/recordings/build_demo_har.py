"""Build data/recordings/demo.har from the fixture copies in tests/data/.

Run from the repository root: ``.venv/bin/python data/recordings/build_demo_har.py``.
The output is deterministic (fixed recorded time, sorted inputs), so re-running it
gives byte-identical HAR. Every entry's ``comment`` says whether its body is a real
capture or constructed in the real format, and from which fixture file.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # demo_boards, beside this file

from demo_boards import (  # noqa: E402
    aa_detail_entries,
    claimant_pages,
    endpoint_entries,
    leaderboard_entries,
)

from tracker.net.har import har_entry, write_har  # noqa: E402

SRC = ROOT / "tests" / "data"
OUT = ROOT / "data" / "recordings" / "demo.har"
# The demo's check happens on 2026-11-28 06:00 UTC, after the promised 2026-11-04.
RECORDED_AT = dt.datetime(2026, 11, 28, 6, 0, 0, tzinfo=dt.UTC)
HUB = "https://huggingface.co"
JSON_TYPE = "application/json; charset=utf-8"


def _load(name: str) -> object:
    return json.loads((SRC / name).read_text(encoding="utf-8"))


def _body(obj: object) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _headers(body: bytes, content_type: str = JSON_TYPE) -> list[tuple[str, str]]:
    # The Hub sends a weak ETag on API answers; this one is constructed from the body.
    etag = 'W/"' + hashlib.sha1(body).hexdigest()[:27] + '"'
    return [("Content-Type", content_type), ("ETag", etag)]


def org_listing() -> dict:
    listing = _load("hf_models_list_default_fields_excerpt_2025-11.json")
    items = [m for m in listing if m["id"].startswith("moonshotai/")]  # type: ignore[index,union-attr]
    body = _body(items)
    return har_entry(
        "GET",
        f"{HUB}/api/models?author=moonshotai&sort=createdAt&direction=-1&limit=100",
        200,
        _headers(body),
        body,
        RECORDED_AT,
        status_text="OK",
        comment=(
            "Body items are REAL listing items (tests/data/hf_models_list_default_fields_"
            "excerpt_2025-11.json), filtered to author moonshotai; no Kimi K3.1 repo is "
            "listed. Headers are constructed in the real format."
        ),
    )


def model_info() -> dict:
    synth = _load("synthetic_hf_model_info_int4_compressed_tensors_kimi_like.json")
    item = next(
        m
        for m in _load("hf_models_list_default_fields_excerpt_2025-11.json")  # type: ignore[union-attr]
        if m["id"] == "moonshotai/Kimi-K2-Thinking"
    )
    # Key order of a real default model-info answer (hf_model_info_google-bert_...json).
    info = {
        "_id": item["_id"],
        "id": item["id"],
        "private": False,
        "pipeline_tag": item["pipeline_tag"],
        "library_name": item["library_name"],
        "tags": item["tags"],
        "downloads": item["downloads"],
        "likes": item["likes"],
        "modelId": item["modelId"],
        "author": "moonshotai",
        "gated": False,
        "disabled": False,
        "config": synth["config"],  # type: ignore[index]
        "cardData": synth["cardData"],  # type: ignore[index]
        "createdAt": item["createdAt"],
        "safetensors": synth["safetensors"],  # type: ignore[index]
    }
    body = _body(info)
    return har_entry(
        "GET",
        f"{HUB}/api/models/moonshotai/Kimi-K2-Thinking",
        200,
        _headers(body),
        body,
        RECORDED_AT,
        status_text="OK",
        comment=(
            "CONSTRUCTED in the real model-info format (key order of tests/data/hf_model_"
            "info_google-bert_bert-base-uncased.json). _id, tags, downloads, likes and "
            "createdAt are real listing values (hf_models_list_default_fields_excerpt_"
            "2025-11.json); config, cardData (other + modified-mit) and safetensors come "
            "from tests/data/synthetic_hf_model_info_int4_compressed_tensors_kimi_like.json "
            "(safetensors derived from huggingface.js for Kimi-K2.5; illustrative)."
        ),
    )


# Architecture fields of Kimi K2's config.json (the DeepSeek-V3 layout Kimi K2 reuses):
# 64 heads, MLA ranks and head dims, the dense FFN width, YaRN x64 over 4,096 positions.
# Values as public inference code and model reports quote them for moonshotai/Kimi-K2-*
# (e.g. the kimi_k2 configs in open-source engines); not copied from the repo's file.
K2_ARCHITECTURE = {
    "architectures": ["DeepseekV3ForCausalLM"],
    "intermediate_size": 18432,
    "num_attention_heads": 64,
    "num_key_value_heads": 64,
    "q_lora_rank": 1536,
    "kv_lora_rank": 512,
    "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64,
    "v_head_dim": 128,
    "moe_layer_freq": 1,
    "tie_word_embeddings": False,
    "rope_scaling": {
        "beta_fast": 1.0,
        "beta_slow": 1.0,
        "factor": 64.0,
        "mscale": 1.0,
        "mscale_all_dim": 1.0,
        "original_max_position_embeddings": 4096,
        "type": "yarn",
    },
}


def config_json() -> dict:
    synth = _load("synthetic_hf_model_info_int4_compressed_tensors_kimi_like.json")
    config = {**K2_ARCHITECTURE, **synth["_raw_config_json_excerpt"]}  # type: ignore[index]
    body = json.dumps(config, indent=2).encode()
    return har_entry(
        "GET",
        f"{HUB}/moonshotai/Kimi-K2-Thinking/resolve/main/config.json",
        200,
        _headers(body, "text/plain; charset=utf-8"),
        body,
        RECORDED_AT,
        status_text="OK",
        comment=(
            "CONSTRUCTED: the config.json excerpt in tests/data/synthetic_hf_model_info_"
            "int4_compressed_tensors_kimi_like.json (_raw_config_json_excerpt; illustrative) "
            "plus Kimi K2's attention and FFN widths as public inference code quotes them "
            "(K2_ARCHITECTURE in build_demo_har.py); NOT the repo's real file."
        ),
    )


def safetensors_index() -> dict:
    synth = _load("synthetic_hf_model_info_int4_compressed_tensors_kimi_like.json")
    params = synth["safetensors"]["parameters"]  # type: ignore[index]
    # Bytes per element of each safetensors dtype; total_size is the sum of tensor bytes.
    width = {"BF16": 2, "F16": 2, "F32": 4, "I32": 4, "U32": 4, "I8": 1, "U8": 1}
    total_size = sum(width[dtype] * n for dtype, n in sorted(params.items()))
    body = json.dumps({"metadata": {"total_size": total_size}, "weight_map": {}}, indent=2).encode()
    return har_entry(
        "GET",
        f"{HUB}/moonshotai/Kimi-K2-Thinking/resolve/main/model.safetensors.index.json",
        200,
        _headers(body, "text/plain; charset=utf-8"),
        body,
        RECORDED_AT,
        status_text="OK",
        comment=(
            "CONSTRUCTED in the layout transformers writes ({metadata: {total_size}, "
            "weight_map}); NOT the real file. total_size is computed from the synthetic "
            "per-dtype counts (tests/data/synthetic_hf_model_info_int4_compressed_tensors_"
            "kimi_like.json) x bytes per element; weight_map is left empty; no "
            "total_parameters is declared, so the count is derived from the packed INT4 words."
        ),
    )


# Standard MIT text (opensource.org/license/mit) plus the modification paragraph of
# Moonshot's "Modified MIT License" as quoted from moonshotai/Kimi-K2 LICENSE by
# secondary sources; heading, copyright line and wrapping are assumptions.
LICENSE_TEXT = """Modified MIT License

Copyright (c) 2025 Moonshot AI

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.

Our only modification part is that, if the Software (or any derivative works
thereof) is used for any of your commercial products or services that have
more than 100 million monthly active users, or more than 20 million US dollars
(or equivalent in other currencies) in monthly revenue, you shall prominently
display "Kimi K2" on the user interface of such product or service.
"""


def license_file() -> dict:
    body = LICENSE_TEXT.encode("utf-8")
    return har_entry(
        "GET",
        f"{HUB}/moonshotai/Kimi-K2-Thinking/resolve/main/LICENSE",
        200,
        _headers(body, "text/plain; charset=utf-8"),
        body,
        RECORDED_AT,
        status_text="OK",
        comment=(
            "CONSTRUCTED: NOT the repo's real LICENSE file (its hash differs); the "
            "standard MIT text plus the 'Our only modification part is that...' paragraph "
            "of Moonshot's Modified MIT License as quoted by secondary sources for "
            "moonshotai/Kimi-K2; heading, copyright line and line wrapping are assumed."
        ),
    )


def openrouter_models() -> dict:
    body = (SRC / "openrouter_models_excerpt_2025-11-08.json").read_bytes()
    return har_entry(
        "GET",
        "https://openrouter.ai/api/v1/models",
        200,
        [("Content-Type", "application/json")],
        body,
        RECORDED_AT,
        status_text="OK",
        comment=(
            "REAL items of GET /api/v1/models captured 2025-11-08 (tests/data/openrouter_"
            "models_excerpt_2025-11-08.json: 10 of 218 items kept, {data: [...]} envelope "
            "re-added); served here at the demo's recorded time. Headers constructed."
        ),
    )


def litellm_prices() -> dict:
    body = (SRC / "litellm_model_prices_moonshot_excerpt.json").read_bytes()
    return har_entry(
        "GET",
        LITELLM_URL,
        200,
        [("Content-Type", "text/plain; charset=utf-8")],
        body,
        RECORDED_AT,
        status_text="OK",
        comment=(
            "REAL entries of model_prices_and_context_window.json as shipped in the litellm "
            "1.110.2 wheel (tests/data/litellm_model_prices_moonshot_excerpt.json: only "
            "sample_spec, the moonshot entries and a few Kimi entries kept). Headers constructed."
        ),
    )


LITELLM_URL = (
    "https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json"
)


def build(out: Path = OUT) -> Path:
    """Write the demo HAR to ``out`` and return the path."""
    entries = [
        org_listing(),
        model_info(),
        config_json(),
        safetensors_index(),
        license_file(),
        openrouter_models(),
        litellm_prices(),
        *leaderboard_entries(),
        *endpoint_entries(),
        *aa_detail_entries(),
        *claimant_pages(),
    ]
    return write_har(
        out,
        entries,
        comment="release-tracker demo recording; each entry's comment gives its origin.",
    )


if __name__ == "__main__":
    print(build())
