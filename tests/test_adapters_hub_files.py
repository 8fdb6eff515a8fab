"""huggingface_model's combine step (tracker.adapters.huggingface.files) on real-format bodies:
config.json + safetensors index + LICENSE -> total_params (cases/C01), license_text_sha256."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from cycle_setup import DATA

from claims.readings.licenses import license_text_sha256
from tracker.adapters import Fetched, get_adapter
from tracker.errors import BadStatus, LayoutChanged, ParseError

AT = dt.datetime(2026, 11, 28, 6, 0, 0, tzinfo=dt.UTC)
HUB = "https://huggingface.co"
KIMI = "moonshotai/Kimi-K2-Thinking"
FILES = ["config.json", "model.safetensors.index.json", "LICENSE"]
LICENSE = "Modified MIT License\r\n\r\nPermission is hereby granted...   \r\n"
C01_CONFIG = {"model_type": "orca_moe", "quantization": {"group_size": 64, "bits": 4}}
C01_SAFETENSORS = {"parameters": {"BF16": 4146375000, "U32": 14937500000}, "total": 19083875000}


def kimi_like() -> dict:
    return json.loads(
        (DATA / "synthetic_hf_model_info_int4_compressed_tensors_kimi_like.json").read_text()
    )


def page(info: dict) -> Fetched:
    return Fetched.from_body(f"{HUB}/api/models/{info['id']}", json.dumps(info).encode(), AT)


def file(repo: str, name: str, body: bytes | dict) -> Fetched:
    raw = json.dumps(body).encode() if isinstance(body, dict) else body
    return Fetched.from_body(f"{HUB}/{repo}/resolve/main/{name}", raw, AT)


def gated(repo: str, name: str, status: int = 401) -> BadStatus:
    url = f"{HUB}/{repo}/resolve/main/{name}"
    return BadStatus(f"{url}: HTTP {status} GatedRepo", url=url, status=status, kind="gated")


def combine(info: dict, files: dict):
    return get_adapter("huggingface_model").combine(page(info), files, {"files": list(files)})


def test_model_page_asks_for_the_listed_files_on_its_own_host():
    result = get_adapter("huggingface_model").parse(page(kimi_like()), {"files": FILES})
    assert dict(result.files) == {name: f"{HUB}/{KIMI}/resolve/main/{name}" for name in FILES}
    no_files = get_adapter("huggingface_model").parse(page(kimi_like()), {})
    assert dict(no_files.files) == {}
    with pytest.raises(LayoutChanged, match="watch param files must be a list"):
        get_adapter("huggingface_model").parse(page(kimi_like()), {"files": "LICENSE"})


def test_kimi_like_int4_gives_total_params_from_packed_words_and_the_license_hash():
    info = kimi_like()
    got = combine(
        info,
        {
            "config.json": file(KIMI, "config.json", info["_raw_config_json_excerpt"]),
            "model.safetensors.index.json": file(
                KIMI, "model.safetensors.index.json", {"metadata": {"total_size": 1}}
            ),
            "LICENSE": file(KIMI, "LICENSE", LICENSE.encode()),
        },
    )
    assert sorted(got) == ["", "LICENSE", "config.json"]
    [total] = got[""].values
    assert (total.subject_ref, total.attribute, dict(total.qualifiers)) == (
        ("huggingface", KIMI),
        "total_params",
        {"repo": KIMI},
    )
    # 126,835,891,200 I32 words x 8 + BF16 minus 1 scale per 32 weights + F32 (C01 rules)
    assert total.value.value == Decimal(1026880447728)
    assert total.value.extra["method"] == "derived_packed"
    assert total.value.extra["inputs"] == [
        "model-info safetensors",
        "config.json",
        "model.safetensors.index.json",
    ]
    assert got[""].stale == ()
    [lic] = got["LICENSE"].values
    assert lic.attribute == "license_text_sha256"
    assert lic.value.value == license_text_sha256(LICENSE)
    assert lic.value.value == license_text_sha256(LICENSE.replace("\r\n", "\n"))  # CRLF same
    # config.json's own values, sourced to the file (no huggingface_config watch needed)
    from_config = {v.attribute: v.value.value for v in got["config.json"].values}
    assert from_config == {"context_window": 262144, "weights_precision_bits": 4}
    assert {dict(v.qualifiers)["repo"] for v in got["config.json"].values} == {KIMI}


def test_c01_declared_total_from_the_index_and_derived_without_it():
    info = {"id": "acme-community/Orca-120B-MLX-4bit", "safetensors": C01_SAFETENSORS}
    repo = info["id"]
    cfg = file(repo, "config.json", C01_CONFIG)
    declared = (
        combine(
            info,
            {
                "config.json": cfg,
                "model.safetensors.index.json": file(
                    repo,
                    "model.safetensors.index.json",
                    {"metadata": {"total_size": 68042750000, "total_parameters": 119912000000}},
                ),
            },
        )[""]
        .values[0]
        .value
    )
    missing = BadStatus("x: HTTP 404 EntryNotFound", status=404, kind="entry_not_found")
    derived = combine(info, {"config.json": cfg, "model.safetensors.index.json": missing})[""]
    assert (declared.value, declared.extra["method"]) == (Decimal(119912000000), "declared_total")
    assert (derived.values[0].value.value, derived.values[0].value.extra["method"]) == (
        Decimal(119912000000),
        "derived_packed",
    )
    assert derived.warnings == [
        "acme-community/Orca-120B-MLX-4bit: model.safetensors.index.json not in the repo "
        "(entry_not_found)"
    ]


def test_missing_config_file_falls_back_to_the_model_info_config_block():
    info = kimi_like()  # its API config block has quant_method only: bits unknown
    missing = BadStatus("x: HTTP 404 EntryNotFound", status=404, kind="entry_not_found")
    [total] = combine(info, {"config.json": missing})[""].values
    assert total.value.extra["inputs"] == ["model-info safetensors", "model-info config"]
    assert (total.value.value, total.value.relation) == (Decimal(170738182128), "at_least")


def test_gated_files_mark_file_values_stale_and_read_nothing():
    info = kimi_like() | {"gated": "manual"}
    got = combine(
        info,
        {
            "config.json": gated(KIMI, "config.json"),
            "model.safetensors.index.json": gated(KIMI, "model.safetensors.index.json", 403),
            "LICENSE": gated(KIMI, "LICENSE"),
        },
    )
    assert sorted(got) == [""]
    assert got[""].values == []
    assert got[""].stale == (
        "active_params",
        "context_window",
        "license_text_sha256",
        "total_params",
        "weights_precision_bits",
    )
    assert got[""].warnings == [
        f"{KIMI}: config.json not readable (gated, HTTP 401)",
        f"{KIMI}: model.safetensors.index.json not readable (gated, HTTP 403)",
        f"{KIMI}: LICENSE not readable (gated, HTTP 401)",
    ]


@pytest.mark.parametrize(
    ("name", "body", "message"),
    [
        ("model.safetensors.index.json", b"[1, 2]", "the safetensors index is not a JSON object"),
        ("model.safetensors.index.json", b'{"metadata": 3}', "index metadata is not an object"),
        ("config.json", b"<html>", "body is not JSON"),
        ("LICENSE", b"\xff\xfe\x00bad", "LICENSE is not UTF-8 text"),
        ("LICENSE", b"  \n", "LICENSE is empty"),
    ],
)
def test_file_bodies_of_the_wrong_shape_are_layout_errors(name, body, message):
    with pytest.raises(ParseError, match=message):  # LayoutChanged is a ParseError
        combine(kimi_like(), {name: file(KIMI, name, body)})


def test_hub_kinds_load_with_the_combine_step_whichever_is_asked_first():
    """Built-in adapters are imported on first use; asking for huggingface_org first must
    still give huggingface_model its files step (hub_files registers it)."""
    import subprocess
    import sys

    code = (
        "from tracker.adapters.base import get_adapter;"
        "get_adapter('huggingface_org');"
        "print(get_adapter('huggingface_model').combine is not None)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
