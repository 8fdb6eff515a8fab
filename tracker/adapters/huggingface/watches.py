"""The Hub watches a subject needs, as data: names, URLs and params of an org listing
watch and of a model watch. Shared by ``tracker track`` (which writes them into
``data/watches.toml``) and the cycle (which follows a repo the moment a listing shows
it), so a followed repo's watch and the one ``track`` writes are the same watch.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, urlsplit

HUB_URL = "https://huggingface.co"
# Repo files a model watch reads in the same run (tracker/adapters/huggingface/files.py):
# the quantization-aware parameter count, the LICENSE text hash, config.json's values.
MODEL_FILES = ("config.json", "model.safetensors.index.json", "LICENSE")
ORG_INTERVAL = 60  # minutes: a listing is one cheap request; landings are what we watch
MODEL_INTERVAL = 360


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-")


def org_watch_name(org: str) -> str:
    """``hf-org-moonshotai`` (the demo's name pattern)."""
    return f"hf-org-{_slug(org)}"


def model_watch_name(repo: str) -> str:
    """``acme/Orca-9B`` -> ``hf-model-acme-orca-9b``."""
    return f"hf-model-{_slug(repo)}"


def org_watch(org: str, base: str = HUB_URL) -> dict[str, Any]:
    """A ``huggingface_org`` watch entry (name, adapter, url, interval_minutes, params)
    listing ``org``'s public repos newest first."""
    return {
        "name": org_watch_name(org),
        "adapter": "huggingface_org",
        "url": f"{base}/api/models?author={quote(org)}&sort=createdAt&direction=-1&limit=100",
        "interval_minutes": ORG_INTERVAL,
        "params": {"org": org, "robots": False},
    }


def model_watch(repo: str, base: str = HUB_URL, **more: Any) -> dict[str, Any]:
    """A ``huggingface_model`` watch entry for ``repo`` that also reads its files
    (:data:`MODEL_FILES`); ``more`` adds params (``followed_from``)."""
    return {
        "name": model_watch_name(repo),
        "adapter": "huggingface_model",
        "url": f"{base}/api/models/{repo}",
        "interval_minutes": MODEL_INTERVAL,
        "params": {"repo": repo, "robots": False, "files": list(MODEL_FILES), **more},
    }


def base_of(url: str) -> str:
    """``https://huggingface.co/api/models?author=x`` -> ``https://huggingface.co``."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def repo_of_model_watch(url: str, params: dict[str, Any]) -> str | None:
    """The repo a ``huggingface_model`` watch asks for (param ``repo``, else its URL)."""
    if isinstance(params.get("repo"), str):
        return str(params["repo"])
    path = urlsplit(url).path
    if path.startswith("/api/models/"):
        return "/".join(path.removeprefix("/api/models/").split("/")[:2]) or None
    return None


def check_params(params: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(param, message)`` for each Hub name among a Hub watch's params (``org`` /
    ``author`` of a listing, ``repo`` of a model watch) that the Hub would not accept
    (:mod:`claims.curated.hubids`): ``org = "Nimbus Labs"`` lists nothing, ever."""
    from claims.curated.hubids import namespace_problem, repo_id_problem

    out = []
    for name in ("org", "author"):
        value = params.get(name)
        problem = namespace_problem(value) if isinstance(value, str) else None
        if problem:
            out.append((name, f"{problem}: the Hub namespace (huggingface.co/ORG)"))
    repo = params.get("repo")
    problem = repo_id_problem(repo) if isinstance(repo, str) else None
    if problem:
        out.append(("repo", problem))
    return out
