"""Hub repo files read in the model watch's run: ``config.json``,
``model.safetensors.index.json`` and ``LICENSE`` -> ``total_params``, ``license_text_sha256``,
and the ``config.json`` values (``context_window``, ``weights_precision_bits``).

The ``huggingface_model`` page (``GET /api/models/{repo}``) asks for the files a watch
lists in param ``files``; the cycle fetches them from the file resolver
(``/{repo}/resolve/{revision}/{file}``, hub-docs api.md) and calls :func:`combine_model_files`,
a pure function of the bodies. Why in one run and not a join of observations after the
cycle: the parameter count needs the model-info ``safetensors`` block, the raw
``config.json`` quantization settings and the index ``metadata`` *of the same repo at
the same time*; a later join of three watches' observations could mix revisions, and
would need its own staleness rules. The 304 of the model info (unchanged repo) skips the
file fetches entirely.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from claims.readings.hub_params import param_count_value, parameter_count
from claims.readings.licenses import license_text_sha256
from claims.values.value import text_value, with_extra
from tracker.adapters.base import ObservedValue, ParseResult, register_combine
from tracker.adapters.huggingface import models as huggingface  # registers the kind combined here
from tracker.errors import BadStatus, LayoutChanged, NotRecorded
from tracker.net.response import Fetched

HUB = "huggingface"
# BadStatus kinds meaning "this file exists but we may not read it" (huggingface_hub
# _http.py: 401/403 + X-Error-Code GatedRepo; 401 RepoNotFound when private).
DENIED_KINDS = frozenset({"gated", "unauthorized", "missing_or_private"})
# Values read from files; when a file they need is denied they are marked stale.
FILE_ATTRIBUTES = ("total_params", "license_text_sha256", *huggingface.CONFIG_ATTRIBUTES)


def _role(name: str) -> str:
    base = name.rsplit("/", 1)[-1]
    if base == "config.json":
        return "config"
    if base.endswith(".safetensors.index.json"):
        return "index"
    if base.upper().startswith(("LICENSE", "LICENCE")):
        return "license"
    return "other"


def _json_object(f: Fetched, what: str) -> dict[str, Any]:
    data = f.json()
    if not isinstance(data, dict):
        raise LayoutChanged(f"{f.final_url}: {what} is not a JSON object")
    return data


def index_metadata(f: Fetched) -> dict[str, Any]:
    """The ``metadata`` object of ``model.safetensors.index.json`` (``{"metadata":
    {"total_size": bytes, "total_parameters"?: n}, "weight_map": {...}}``, the layout
    transformers writes); ``{}`` when it has none. LayoutChanged when not an object."""
    data = _json_object(f, "the safetensors index")
    meta = data.get("metadata")
    if meta is None:
        return {}
    if not isinstance(meta, dict):
        raise LayoutChanged(f"{f.final_url}: index metadata is not an object")
    return meta


def license_text_value(f: Fetched) -> Any:
    """``license_text_sha256`` value of a LICENSE body: sha256 of its UTF-8 text with
    line endings and trailing spaces normalized (:func:`claims.readings.licenses.license_text_sha256`),
    with the raw body's size, sha256 and line count in ``extra``. LayoutChanged for a body that is
    not UTF-8 text or is empty (an error page, not a licence)."""
    try:
        text = f.body.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LayoutChanged(f"{f.final_url}: LICENSE is not UTF-8 text ({exc})") from exc
    if not text.strip():
        raise LayoutChanged(f"{f.final_url}: LICENSE is empty")
    lines = len(text.strip().splitlines())  # for people: "the LICENSE file changed (N lines)"
    return with_extra(text_value(license_text_sha256(text)), bytes=len(f.body),
                      raw_sha256=f.sha256, lines=lines)  # fmt: skip


def _unread_file(repo: str, name: str, got: NotRecorded | BadStatus) -> tuple[bool, str]:
    """(whether the values from the file are unknown, the warning) for a file not read:
    denied (gated, private) or missing from a replayed recording: unknown, its values
    kept as they were (stale); a 404 (no such file): simply absent."""
    if isinstance(got, NotRecorded):
        return True, f"{repo}: {name} not in the recording (not_recorded); its values not read"
    if got.kind in DENIED_KINDS:
        return True, f"{repo}: {name} not readable ({got.kind}, HTTP {got.status})"
    return False, f"{repo}: {name} not in the repo ({got.kind})"


@register_combine("huggingface_model")
def combine_model_files(
    main: Fetched, files: Mapping[str, Any], params: Mapping[str, Any]
) -> dict[str, ParseResult]:
    """Combine the model-info page with the repo files the cycle fetched for it.

    ``files`` maps each requested name to its :class:`Fetched`, to the
    :class:`~tracker.errors.BadStatus` the resolver answered (gated, private, missing)
    or to a replay's NotRecorded.
    Returns ``{"": values sourced to the model-info page, name: values sourced to that
    file}``, qualifier ``repo``:

    - ``total_params`` (main page): :func:`claims.readings.hub_params.parameter_count` of the
      model-info ``safetensors`` block with ``config.json`` (else the model-info
      ``config`` block when the file is missing) and the index ``metadata`` — never the
      packed element count (cases/C01). ``extra``: method, warnings, inputs.
    - ``license_text_sha256`` (LICENSE file).
    - ``context_window`` and ``weights_precision_bits`` (``config.json`` file, as the
      ``huggingface_config`` adapter reads them): the model watch that fetches the file
      reads them too, so no second watch needs to fetch the same file.

    A denied file (gated repo: 401/403 GatedRepo), or one a replayed recording lacks
    (:class:`~tracker.errors.NotRecorded`: a warning per file), makes the values that
    need it ``stale``: the previous ones stay current and no event is emitted. A missing file
    (404 EntryNotFound) is simply absent: no index -> no declared total. Raises
    LayoutChanged for a file body of the wrong shape.
    """
    info = main.json()
    repo = info["id"]
    ref, q = (HUB, repo), {"repo": repo}
    results: dict[str, ParseResult] = {}
    warnings: list[str] = []
    stale: list[str] = []
    config: dict[str, Any] | None = None
    index: dict[str, Any] | None = None
    denied = {"config": False, "index": False, "license": False, "other": False}
    inputs = ["model-info safetensors"]
    for name, got in files.items():
        role = _role(name)
        if isinstance(got, (NotRecorded, BadStatus)):
            unread, warning = _unread_file(repo, name, got)
            denied[role] = denied[role] or unread
            warnings.append(warning)
            continue
        if not isinstance(got, Fetched):
            raise TypeError(f"files[{name!r}] is {type(got).__name__}, not Fetched/BadStatus")
        if role == "config":
            config = _json_object(got, "config.json")
            inputs.append(name)
            results[name] = ParseResult(huggingface.config_values(config, repo))
        elif role == "index":
            index = index_metadata(got)
            inputs.append(name)
        elif role == "license":
            value = license_text_value(got)
            results[name] = ParseResult([ObservedValue(ref, "license_text_sha256", value, q)])
    if denied["license"]:
        stale.append("license_text_sha256")
    if denied["config"]:
        stale.extend(huggingface.CONFIG_ATTRIBUTES)
    values: list[ObservedValue] = []
    st = info.get("safetensors")
    if isinstance(st, dict) and isinstance(st.get("parameters"), dict):
        if denied["config"] or denied["index"]:
            stale.append("total_params")
        else:
            if config is None and isinstance(info.get("config"), dict):
                config = info["config"]
                inputs.append("model-info config")
            count = parameter_count(st, config, index)
            value = with_extra(param_count_value(count), inputs=inputs)
            values.append(ObservedValue(ref, "total_params", value, q))
            warnings.extend(f"{repo}: {w}" for w in count.warnings)
    results[""] = ParseResult(values, warnings=warnings, stale=tuple(sorted(stale)))
    return results
