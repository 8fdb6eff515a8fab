"""Hugging Face Hub adapters: org listing, model info, raw config.json -> observed values.

Formats: hub-docs api.md and the payloads in fixtures/real (hf_models_list_*,
hf_model_info_*, hf_config_*). Each parser is pure: bytes, URL and time in.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from claims.readings.config_context import context_window
from claims.readings.licenses import hub_license, license_file
from claims.readings.moe_params import active_parameters
from claims.values.value import (
    Value,
    boolean_value,
    date_value,
    quantity,
    text_value,
    with_extra,
)
from tracker.adapters.base import ObservedValue, ParseResult, next_link, register
from tracker.errors import LayoutChanged
from tracker.net.response import Fetched

HUB = "huggingface"
# The Hub's createdAt for repos older than its creation-time tracking: it means
# "unknown", not 2 March 2022 (hub-docs; seen on google-bert/bert-base-uncased).
CREATED_AT_PLACEHOLDER = "2022-03-02T23:29:04"


@register("huggingface_org", "GET /api/models?author=ORG: every public repo -> weights_available")
def parse_org_listing(fetched: Fetched, params: Mapping[str, Any]) -> ParseResult:
    """One page of ``GET /api/models?author=ORG``.

    Each public repo gives ``weights_available = true`` with qualifier ``repo`` (its
    ``createdAt`` kept in ``value.extra``). ``next_url`` is the ``Link: rel="next"``
    cursor page, which the cycle follows. The pages together list the org's public
    repos completely (``listing``), so a repo gone from them is noticed (issue 5).
    Raises LayoutChanged when the body is not a
    JSON list of objects with an ``id``.
    """
    data = fetched.json()
    if not isinstance(data, list):
        raise LayoutChanged(
            f"{fetched.final_url}: expected a JSON list of models, got {type(data).__name__}"
        )
    values: list[ObservedValue] = []
    for i, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise LayoutChanged(f"{fetched.final_url}: item {i} has no model id")
        if item.get("private") is True:  # an authenticated listing; not public weights
            continue
        repo = item["id"]
        extra = {}
        if isinstance(item.get("createdAt"), str) and not item["createdAt"].startswith(
            CREATED_AT_PLACEHOLDER
        ):
            extra["created_at"] = item["createdAt"]
        values.append(
            ObservedValue(
                subject_ref=(HUB, repo),
                attribute="weights_available",
                value=with_extra(boolean_value(True), **extra),
                qualifiers={"repo": repo},
            )
        )
    return ParseResult(
        values=values, next_url=next_link(fetched.headers.get("link")), listing="weights_available"
    )


def follows_new_repos(params: Mapping[str, Any]) -> bool:
    """Whether the cycle follows a new repo this org watch lists (param ``follow``,
    default true): reads its model info and files in the same cycle and keeps a model
    watch for it (tracker/cycle/run.py)."""
    return params.get("follow", True) is not False


def license_of(info: Mapping[str, Any]) -> str | None:
    """The licence id a model-info payload states (lower-case, normalized), or None.

    Read by :func:`claims.readings.licenses.hub_license`, the one licence reader:
    ``cardData.license`` first, else the ``license:`` tag; ``other`` with
    ``cardData.license_name`` is the named licence (``modified-mit``); "Apache 2.0"
    and ``apache-2.0`` are one id."""
    card = info.get("cardData")
    tags = info.get("tags")
    reading = hub_license(
        card if isinstance(card, dict) else None,
        [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else None,
    )
    return reading.id


def _with_license_file(value: Value, info: Mapping[str, Any]) -> Value:
    """The licence value with, when the payload lists the repo's files (``siblings``),
    ``extra.files_listed`` and ``extra.license_file``: the root licence file it shows
    (:func:`claims.readings.licenses.license_file`), None when it shows none; so a link
    can point at the licence itself. Unchanged without a listing."""
    siblings = info.get("siblings")
    if not isinstance(siblings, list):
        return value
    names = [s["rfilename"] for s in siblings
             if isinstance(s, dict) and isinstance(s.get("rfilename"), str)]  # fmt: skip
    return with_extra(value, files_listed=True, license_file=license_file(names))


def requested_repo(fetched: Fetched, params: Mapping[str, Any]) -> str | None:
    """The repo a model watch asked for: param ``repo``, else the ``/api/models/ORG/NAME``
    path of the URL requested (before any redirect); None when neither says."""
    if isinstance(params.get("repo"), str) and params["repo"]:
        return str(params["repo"])
    path = unquote(urlsplit(fetched.url).path)
    if path.startswith("/api/models/") and path.count("/") >= 4:
        return "/".join(path.removeprefix("/api/models/").split("/")[:2])
    return None


_CONFIG_KEYS = (
    "architectures",
    "model_type",
    "num_experts",
    "n_routed_experts",
    "num_experts_per_tok",
    "n_shared_experts",
    "num_hidden_layers",
    "max_position_embeddings",
)


@register("huggingface_model", "GET /api/models/{repo}: licence, gated, createdAt, raw params")
def parse_model_info(fetched: Fetched, params: Mapping[str, Any]) -> ParseResult:
    """``GET /api/models/{repo}`` (default fields or ``expand[]``), qualifier ``repo``:

    - ``weights_available`` true (the repo answers publicly; ``disabled`` -> false);
    - ``license`` (see :func:`license_of`), with the repo's licence file name in
      ``extra`` when the payload lists the repo's files (:func:`_with_license_file`);
    - ``gated``: ``"false"``, ``"auto"`` or ``"manual"``;
    - ``repo_created``: ``createdAt`` as a date (``on``), unless it is the placeholder;
    - ``hub_params_raw``: ``safetensors.total`` as the Hub counts it, with the RAW
      per-dtype counts, ``quant_method`` and the config subset in ``value.extra``. Packed
      INT4 stored in I32 is counted 1/8, so this is never ``total_params``; the
      quantization-aware count is computed in ``claims/`` from these extras.

    With watch param ``files`` (e.g. ``["config.json", "model.safetensors.index.json",
    "LICENSE"]``) the result asks the cycle for those repo files; the adapter's combine
    step (:mod:`tracker.adapters.huggingface.files`) turns them into ``total_params`` and
    ``license_text_sha256``.

    Raises LayoutChanged when the body is not an object with an ``id``.
    """
    info = fetched.json()
    if not isinstance(info, dict) or not isinstance(info.get("id"), str):
        raise LayoutChanged(f"{fetched.final_url}: expected a model-info object with an id")
    repo = info["id"]
    ref = (HUB, repo)
    q = {"repo": repo}
    out: list[ObservedValue] = []
    # Renamed or transferred (cases/C34): the Hub answers a redirect with the new id.
    # The old id still finds the subject (alt ref) and the weights value says where from.
    asked = requested_repo(fetched, params)
    renamed = asked if asked and asked.lower() != repo.lower() else None
    alt = ((HUB, renamed),) if renamed else ()

    created = info.get("createdAt")
    if not isinstance(created, str) or len(created) < 10:
        created = None
    elif created.startswith(CREATED_AT_PLACEHOLDER):
        created = None
    disabled = info.get("disabled") is True
    available = boolean_value(not disabled)
    if created:
        available = with_extra(available, created_at=created)
    if renamed:
        available = with_extra(available, renamed_from=renamed)
    out.append(ObservedValue(ref, "weights_available", available, q, alt_refs=alt))

    lic = license_of(info)
    if lic:
        out.append(ObservedValue(ref, "license", _with_license_file(text_value(lic), info), q,
                                 alt_refs=alt))  # fmt: skip

    if "gated" in info:
        gated = info["gated"]
        if gated is False or gated in ("auto", "manual"):
            value = text_value(str(gated).lower())
            out.append(ObservedValue(ref, "gated", value, q, alt_refs=alt))

    if created:
        dated = with_extra(date_value(created[:10], "on"), timestamp=created)
        out.append(ObservedValue(ref, "repo_created", dated, q, alt_refs=alt))

    raw = _raw_params(info, ref, q, alt)
    if raw is not None:
        out.append(raw)
    return ParseResult(values=out, files=file_urls(fetched, repo, params))


def _raw_params(
    info: Mapping[str, Any],
    ref: tuple[str, str],
    q: dict[str, str],
    alt: tuple[tuple[str, str], ...],
) -> ObservedValue | None:
    """``hub_params_raw`` of a model-info payload (see :func:`parse_model_info`), or None
    without a ``safetensors`` block."""
    st = info.get("safetensors")
    if (
        isinstance(st, dict)
        and isinstance(st.get("parameters"), dict)
        and isinstance(st.get("total"), int)
    ):
        per_dtype = {k: int(v) for k, v in st["parameters"].items() if isinstance(v, int)}
        config = c if isinstance(c := info.get("config"), dict) else {}
        qc = config.get("quantization_config")
        extra: dict[str, Any] = {"parameters": per_dtype, "total": st["total"]}
        if isinstance(qc, dict) and isinstance(qc.get("quant_method"), str):
            extra["quant_method"] = qc["quant_method"]
        cfg = {k: config[k] for k in _CONFIG_KEYS if k in config}
        if cfg:
            extra["config"] = cfg
        value = with_extra(quantity(Decimal(st["total"]), "params", exact=True), **extra)
        return ObservedValue(
            ref, "hub_params_raw", value, q, note="not quantization-aware", alt_refs=alt
        )
    return None


def file_urls(fetched: Fetched, repo: str, params: Mapping[str, Any]) -> dict[str, str]:
    """``{file name: resolver URL}`` for the watch's ``files`` param (a list of names in
    the repo), on the model-info page's own scheme and host, at param ``revision``
    (default ``main``). No ``files`` param -> ``{}``."""
    names = params.get("files") or []
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
        raise LayoutChanged(f"watch param files must be a list of file names, got {names!r}")
    parts = urlsplit(fetched.final_url)
    revision = quote(str(params.get("revision", "main")), safe="")
    base = f"{parts.scheme}://{parts.netloc}/{repo}/resolve/{revision}/"
    return {name: base + quote(name) for name in names}


def repo_from_resolve_url(url: str) -> str:
    """``https://huggingface.co/ORG/NAME/resolve/REV/FILE`` -> ``ORG/NAME``.

    Raises LayoutChanged for any other URL shape.
    """
    parts = [unquote(p) for p in urlsplit(url).path.split("/") if p]
    if len(parts) >= 4 and parts[2] in ("resolve", "raw"):
        return f"{parts[0]}/{parts[1]}"
    raise LayoutChanged(f"{url}: not a Hub file URL (ORG/NAME/resolve/REV/FILE)")


def weight_bits_of(config: Mapping[str, Any]) -> int | None:
    """Weight bit width a quantized checkpoint declares, or None.

    compressed-tensors: every ``config_groups.*.weights.num_bits`` (all must agree);
    MLX: ``quantization.bits`` / ``quantization_config.bits``.
    """
    qc = config.get("quantization_config")
    if not isinstance(qc, dict):
        qc = config.get("quantization") if isinstance(config.get("quantization"), dict) else None
    if not qc:
        return None
    groups = qc.get("config_groups")
    if isinstance(groups, dict) and groups:
        bits = {
            g.get("weights", {}).get("num_bits")
            for g in groups.values()
            if isinstance(g, dict) and isinstance(g.get("weights"), dict)
        }
        return bits.pop() if len(bits) == 1 and isinstance(next(iter(bits)), int) else None
    b = qc.get("bits")
    return b if isinstance(b, int) and not isinstance(b, bool) else None


@register("huggingface_config", "GET /ORG/NAME/resolve/main/config.json: context, weight bits")
def parse_config(fetched: Fetched, params: Mapping[str, Any]) -> ParseResult:
    """A repo's raw ``config.json`` (repo taken from the URL), qualifier ``repo``:
    ``context_window`` (tokens, provenance in ``extra.key``) and
    ``weights_precision_bits`` for quantized checkpoints. Raises LayoutChanged when the
    body is not a JSON object."""
    config = fetched.json()
    if not isinstance(config, dict):
        raise LayoutChanged(f"{fetched.final_url}: config.json is not a JSON object")
    return ParseResult(values=config_values(config, repo_from_resolve_url(fetched.url)))


# Attributes read from a repo's config.json (by huggingface_config, and by
# huggingface_model when its watch lists the file in param ``files``).
CONFIG_ATTRIBUTES = ("context_window", "weights_precision_bits", "active_params")


def config_values(config: Mapping[str, Any], repo: str) -> list[ObservedValue]:
    """``context_window`` (tokens, provenance in ``extra.key``, the native length in
    ``extra.native`` when rope scaling extends it; read by
    :func:`claims.readings.config_context.context_window`, the one context reader), for a
    quantized checkpoint ``weights_precision_bits``, and for a mixture of experts
    ``active_params`` (:func:`claims.readings.moe_params.active_parameters`; ``extra.formula``
    holds the arithmetic and the embeddings convention) of one repo's ``config.json``,
    qualifier ``repo``."""
    ref, q = (HUB, repo), {"repo": repo}
    out: list[ObservedValue] = []
    ctx = context_window(dict(config))
    if ctx.tokens is not None:
        extra: dict[str, Any] = {"key": ctx.provenance}
        if ctx.native is not None:
            extra["native"] = ctx.native
        v = with_extra(quantity(Decimal(ctx.tokens), "tokens", exact=True), **extra)
        out.append(ObservedValue(ref, "context_window", v, q))
    bits = weight_bits_of(config)
    if bits is not None:
        out.append(
            ObservedValue(
                ref, "weights_precision_bits", quantity(Decimal(bits), "bits", exact=True), q
            )
        )
    active = active_parameters(dict(config))
    if active.active is not None:
        v = with_extra(
            quantity(Decimal(active.active), "params", exact=True),
            family=active.family,
            formula=active.formula,
        )
        out.append(ObservedValue(ref, "active_params", v, q))
    return out
