"""Builders for verification tests: claim and observation views in the stored formats."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

from sqlmodel import Session

from claims.store.tables import Claim, Observation, Source, Subject, SubjectAlias, Watch
from claims.values.canonical import dumps
from claims.values.value import Value, boolean_value, date_value, quantity, text_value, value_range
from claims.verify.facts import ClaimView, ObsView

DATA = Path(__file__).resolve().parent / "data"


def real(name: str):
    """A payload from tests/data (byte-identical copies of ../shared/fixtures/real)."""
    return json.loads((DATA / name).read_text())


SUBJECTS = {1: "kimi-k3.1-pro", 2: "kimi-k3", 3: "kimi-k2-thinking"}


def cv(
    cid: int,
    attribute: str,
    value: Value,
    *,
    subject: int = 1,
    source: int = 1,
    claimant: str = "Moonshot AI",
    q: dict[str, Any] | None = None,
    stated: str | None = None,
) -> ClaimView:
    return ClaimView(
        id=cid,
        key=f"k{cid}",
        subject_id=subject,
        subject=SUBJECTS[subject],
        attribute=attribute,
        value=value,
        qualifiers=q or {},
        source_id=source,
        source=f"source {source}",
        claimant=claimant,
        stated_date=stated,
    )


def ts(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def ov(
    oid: int,
    attribute: str,
    value: Value,
    *,
    subject: int = 1,
    first: str = "2026-11-28T06:00Z",
    last: str | None = None,
    q: dict[str, Any] | None = None,
    current: bool = True,
) -> ObsView:
    return ObsView(
        id=oid,
        subject_id=subject,
        attribute=attribute,
        value=value,
        first_seen=ts(first),
        last_seen=ts(last or first),
        qualifiers=q or {},
        current=current,
    )


CHECK = dt.datetime(2026, 11, 28, 6, 0, tzinfo=dt.UTC)
NOW = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)
TB = {"benchmark": "Terminal-Bench"}
K2_REPO = "moonshotai/Kimi-K2-Thinking"


def _claim(s, subject, attribute, value, source, claimant, q=None):
    key = hashlib.sha256(
        dumps([subject.slug, attribute, q or {}, value.to_dict(), source.key]).encode()
    ).hexdigest()
    c = Claim(
        key=key,
        subject_id=subject.id,
        attribute=attribute,
        qualifiers_json=dumps(q or {}),
        value_json=dumps(value.to_dict()),
        source_id=source.id,
        claimant=claimant,
    )
    s.add(c)
    s.flush()
    return c


def add_observation(s, subject, attribute, value, watch, first, q=None):
    o = Observation(
        subject_id=subject.id,
        attribute=attribute,
        qualifiers_json=dumps(q or {}),
        value_json=dumps(value.to_dict()),
        value_key=value.key(),
        watch_id=watch.id,
        first_seen=first,
        last_seen=first,
    )
    s.add(o)
    s.flush()
    return o


def _kimi_params_value() -> Value:
    """``hub_params_raw`` as tracker's huggingface_model adapter stores it (main branch):
    safetensors.total, extra = per-dtype counts, total, quant_method, config subset."""
    info = real("synthetic_hf_model_info_int4_compressed_tensors_kimi_like.json")
    total = Decimal(info["safetensors"]["total"])
    cfg = {k: info["config"][k] for k in ("architectures", "model_type")}
    return Value(
        kind="quantity",
        value=total,
        unit="params",
        low=total,
        high=total,
        extra={
            "parameters": info["safetensors"]["parameters"],
            "total": info["safetensors"]["total"],
            "quant_method": info["config"]["quantization_config"]["quant_method"],
            "config": cfg,
        },
    )


def build_demo_db(engine):
    """Subjects, sources, claims, watches and observations like the lead's demo."""
    with Session(engine) as s:
        k31 = Subject(slug="kimi-k3.1-pro", name="Kimi K3.1 Pro", hub_org="moonshotai")
        k3 = Subject(slug="kimi-k3", name="Kimi K3", hub_org="moonshotai")
        k2 = Subject(slug="kimi-k2-thinking", name="Kimi K2 Thinking", hub_org="moonshotai")
        s.add_all([k31, k3, k2])
        s.flush()
        s.add(SubjectAlias(subject_id=k2.id, namespace="huggingface", alias=K2_REPO))
        src = [
            Source(key=f"s{i}", title=t, kind=k)
            for i, (t, k) in enumerate(
                [
                    ("Article A", "press"),
                    ("Article B", "press"),
                    ("Article C", "press"),
                    ("Moonshot K2 Thinking announcement", "vendor"),
                    ("Press D", "press"),
                ]
            )
        ]
        s.add_all(src)
        org = Watch(
            name="hf-org-moonshotai",
            adapter="huggingface_org",
            url="https://huggingface.co/api/models?author=moonshotai",
            params_json=dumps({"org": "moonshotai"}),
            state="ok",
            last_success=CHECK,
        )
        model = Watch(
            name="hf-model-k2",
            adapter="huggingface_model",
            url=f"https://huggingface.co/api/models/{K2_REPO}",
            params_json=dumps({"repo": K2_REPO}),
            state="ok",
            last_success=CHECK,
        )
        config = Watch(
            name="hf-config-k2",
            adapter="huggingface_config",
            url=f"https://huggingface.co/{K2_REPO}/resolve/main/config.json",
            params_json=dumps({"repo": K2_REPO}),
            state="ok",
            last_success=CHECK,
        )
        s.add_all([org, model, config])
        s.flush()
        c = {}
        c["before"] = _claim(
            s,
            k31,
            "weights_release_date",
            date_value("2026-11-04", "before"),
            src[0],
            "Moonshot AI",
        )
        c["on_b"] = _claim(
            s, k31, "weights_release_date", date_value("2026-11-04", "on"), src[1], "Moonshot AI"
        )
        c["on_c"] = _claim(
            s, k31, "weights_release_date", date_value("2026-11-04", "on"), src[2], "Moonshot AI"
        )
        c["tb4"] = _claim(
            s,
            k31,
            "benchmark_score",
            quantity("65.7", "percent"),
            src[0],
            "Moonshot AI",
            {**TB, "version": "4.0"},
        )
        c["tb3"] = _claim(
            s,
            k31,
            "benchmark_score",
            quantity("65.7", "percent"),
            src[1],
            "Moonshot AI",
            {**TB, "version": "3.0"},
        )
        c["p28"] = _claim(
            s, k31, "total_params", quantity("2.8", "params", scale=10**12), src[0], "Moonshot AI"
        )
        c["p3"] = _claim(
            s,
            k3,
            "total_params",
            quantity("3", "params", scale=10**12, approx=True),
            src[0],
            "Cerebras",
        )
        c["tps"] = _claim(
            s,
            k3,
            "output_tokens_per_second",
            value_range(1000, 2000, "tokens_per_second", open_high=True),
            src[0],
            "Cerebras",
        )
        c["k3w"] = _claim(
            s, k3, "weights_release_date", date_value("2026-12-15", "on"), src[4], "Press D"
        )
        c["k2p"] = _claim(
            s, k2, "total_params", quantity("1", "params", scale=10**12), src[3], "Moonshot AI"
        )
        c["k2lic"] = _claim(s, k2, "license", text_value("mit"), src[4], "Press D")
        c["k2w"] = _claim(
            s, k2, "weights_release_date", date_value("2025-11-06", "on"), src[3], "Moonshot AI"
        )
        o = {}
        o["k2w"] = add_observation(
            s, k2, "weights_available", boolean_value(True), org, CHECK, {"repo": K2_REPO}
        )
        o["k2p"] = add_observation(
            s, k2, "hub_params_raw", _kimi_params_value(), model, CHECK, {"repo": K2_REPO}
        )
        four = quantity("4", "bits", exact=True)  # config_groups.*.weights.num_bits
        o["k2bits"] = add_observation(
            s, k2, "weights_precision_bits", four, config, CHECK, {"repo": K2_REPO}
        )
        o["k2lic"] = add_observation(
            s, k2, "license", text_value("modified-mit"), model, CHECK, {"repo": K2_REPO}
        )
        s.commit()
        ids = {k: v.id for k, v in c.items()}, {k: v.id for k, v in o.items()}
    return engine, ids[0], ids[1]
