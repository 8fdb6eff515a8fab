"""Stored claims -> one claims data file (``[source]`` + ``[[claim]]``s) that
:mod:`claims.curated.loader` reads back to the same claims (``tracker claims export``):
imported claims then live in ``data/claims/`` and in git, not only in a database.

Rendered with tomlkit (values quoted and escaped as TOML requires; qualifiers as inline
tables, as people write them in docs/data.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import tomlkit

from claims.errors import ClaimsError
from claims.values.stated import StatedValueError, stated_notation
from claims.values.value import Value

SOURCE_FIELDS = (
    "key", "title", "url", "publisher", "published", "published_precision", "language", "kind",
)  # fmt: skip
CLAIM_TEXT_FIELDS = ("raw", "claimant", "locator", "stated_date", "note")


class ExportError(ClaimsError, ValueError):
    """A stored claim the data-file notation cannot state; the message names it."""


def claim_entry(claim: Mapping[str, Any]) -> dict[str, Any]:
    """One ``[[claim]]`` table from a stored claim: ``subject``, ``attribute``,
    ``value`` (a :class:`Value`), ``qualifiers`` and the text fields of
    :data:`CLAIM_TEXT_FIELDS` (None ones left out). ``unit`` and ``exact`` are written
    only when the value needs them (:func:`claims.values.stated.stated_notation`).
    Raises ExportError naming the claim when its value cannot be written."""
    value: Value = claim["value"]
    try:
        text, unit, exact = stated_notation(value, claim["attribute"])
    except StatedValueError as exc:
        raise ExportError(
            f"claim #{claim.get('id', '?')} ({claim['subject']} {claim['attribute']}): {exc}"
        ) from exc
    entry: dict[str, Any] = {"subject": claim["subject"], "attribute": claim["attribute"],
                             "value": text}  # fmt: skip
    if unit:
        entry["unit"] = unit
    if exact:
        entry["exact"] = True
    if claim.get("qualifiers"):
        quals = tomlkit.inline_table()
        quals.update(dict(claim["qualifiers"]))
        entry["qualifiers"] = quals
    for name in CLAIM_TEXT_FIELDS:
        if claim.get(name) is not None:
            entry[name] = claim[name]
    return entry


def claims_file(
    source: Mapping[str, Any], claims: Sequence[Mapping[str, Any]], header: str = ""
) -> str:
    """The text of a claims data file: ``header`` (comment lines), ``[source]`` from the
    fields of :data:`SOURCE_FIELDS` that are set, then one ``[[claim]]`` per claim
    (:func:`claim_entry`). Raises ExportError for a claim it cannot state."""
    doc = tomlkit.document()
    for line in header.splitlines():
        doc.add(tomlkit.comment(line))
    if header:
        doc.add(tomlkit.nl())
    src = tomlkit.table()
    for name in SOURCE_FIELDS:
        if source.get(name) is not None:
            src[name] = source[name]
    doc["source"] = src
    table = tomlkit.aot()
    for claim in claims:
        table.append(tomlkit.item(claim_entry(claim)))
    if claims:
        doc["claim"] = table
    return tomlkit.dumps(doc)
