"""Hugging Face Hub names: is a namespace (user or organisation) or a repo id one the
Hub accepts?

The rules are the Hub client's (``huggingface_hub.utils.validate_repo_id``,
https://huggingface.co/docs/huggingface_hub/package_reference/utilities#huggingface_hub.utils.validate_repo_id):
a repo id is ``name`` or ``namespace/name``; each part uses only ASCII letters, digits,
``-``, ``_`` and ``.``; ``--`` and ``..`` are forbidden; ``-`` and ``.`` cannot start or
end a part; at most 96 characters. So ``Nimbus Labs`` (a space) is an organisation's
display name, never its Hub namespace (``nimbuslabs``).
"""

from __future__ import annotations

import re

MAX_LENGTH = 96
_PART = re.compile(r"[A-Za-z0-9_.\-]+")


def namespace_problem(name: str) -> str | None:
    """Why ``name`` is not a Hub namespace (``'Nimbus Labs' has a character the Hub does
    not allow in a name (' ')``), or None when it is one."""
    if not name:
        return "is empty"
    if len(name) > MAX_LENGTH:
        return f"{name!r} is longer than the Hub's {MAX_LENGTH} characters"
    if not _PART.fullmatch(name):
        bad = "".join(dict.fromkeys(ch for ch in name if not _PART.fullmatch(ch)))
        return (
            f"{name!r} has a character the Hub does not allow in a name ({bad!r}; "
            "allowed: letters, digits, '-', '_', '.')"
        )
    if "--" in name or ".." in name:
        return f"{name!r} has '--' or '..', which the Hub forbids"
    if name[0] in "-." or name[-1] in "-.":
        return f"{name!r} starts or ends with '-' or '.', which the Hub forbids"
    return None


def repo_id_problem(repo_id: str) -> str | None:
    """Why ``repo_id`` is not a Hub repo id ``NAMESPACE/NAME`` (each part as
    :func:`namespace_problem` says; at most 96 characters in all), or None."""
    parts = repo_id.split("/")
    if len(parts) != 2:
        return f"{repo_id!r} is not a Hub repo id NAMESPACE/NAME"
    if len(repo_id) > MAX_LENGTH:
        return f"{repo_id!r} is longer than the Hub's {MAX_LENGTH} characters"
    for part in parts:
        problem = namespace_problem(part)
        if problem:
            return f"{repo_id!r}: {problem}"
    return None


def suggested_namespace(display_name: str) -> str:
    """A guess at the Hub namespace of an organisation's display name, for error
    messages only (``Nimbus Labs`` -> ``nimbuslabs``, ``Mistral AI`` -> ``mistralai``)."""
    return re.sub(r"[^a-z0-9_.\-]+", "", display_name.lower()).strip("-.") or "ORG"
