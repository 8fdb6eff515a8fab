"""A claimant's own page -> the figures it states, each with its quote and span (pure).

The watch (adapter ``claimant_page``) lists what to look for: per statement an
``attribute``, a regular expression ``pattern`` whose named group ``n`` is the figure
(more named groups for a range's ends), and the curated ``notation`` to re-read it in
(``"~{n}T"`` for "about 3 trillion", ``"{n}-{m}+"`` for "1,000 to 2,000+", the
notation of data/claims files, :func:`claims.values.stated.parse_stated`), plus
``unit`` and ``qualifiers`` when the attribute needs them. The figure is re-read from
the page, so a page stating "58 wafers" gives 58, not the article's 59.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from claims.errors import ClaimsError
from claims.values.stated import StatedValueError, parse_stated
from claims.values.value import Value, with_extra

STATEMENT_KEYS: frozenset[str] = frozenset(
    {"attribute", "pattern", "notation", "unit", "qualifiers", "decimal"}
)


class StatementSpecError(ClaimsError, ValueError):
    """A statement spec of a watch that cannot be used; the message names the entry."""


@dataclass(frozen=True)
class FoundStatement:
    """One figure found: ``attribute``, the re-read ``value`` (``extra``: quote, span),
    ``qualifiers`` from the spec."""

    attribute: str
    value: Value
    qualifiers: dict[str, str] = field(default_factory=dict)


def _check(i: int, spec: Any) -> Mapping[str, Any]:
    if not isinstance(spec, Mapping):
        raise StatementSpecError(f"statements[{i}] is not a table")
    unknown = sorted(set(spec) - STATEMENT_KEYS)
    if unknown:
        raise StatementSpecError(f"statements[{i}]: unknown key {unknown[0]!r}")
    for key in ("attribute", "pattern"):
        if not isinstance(spec.get(key), str) or not spec[key]:
            raise StatementSpecError(f"statements[{i}]: {key} is required")
    try:
        rx = re.compile(spec["pattern"], re.IGNORECASE)
    except re.error as exc:
        raise StatementSpecError(f"statements[{i}].pattern: {exc}") from exc
    if "n" not in rx.groupindex:
        raise StatementSpecError(f"statements[{i}].pattern needs a group (?P<n>...)")
    return spec


def _clean(number: str, decimal: Any) -> str:
    """A figure as the page writes it -> the notation's plain digits (``1,000`` -> ``1000``;
    with ``decimal = ","``: ``2,8`` -> ``2.8``)."""
    if decimal == ",":
        return number.replace(".", "").replace(",", ".")
    return number.replace(",", "")


def find_statements(text: str, specs: Sequence[Any]) -> list[FoundStatement]:
    """Every statement of ``specs`` found in ``text`` (its first match), re-read with
    its notation; ``extra.checked`` lists every attribute the specs looked for, so a
    figure looked for and not found can be told from one never looked for. A spec not found gives nothing (the verification reads that as "not
    stated"); a bad spec raises StatementSpecError; a match that does not read as the
    attribute's value raises it too, naming the quote."""
    out: list[FoundStatement] = []
    checked = sorted({str(_check(i, raw)["attribute"]) for i, raw in enumerate(specs)})
    for i, raw in enumerate(specs):
        spec = _check(i, raw)
        m = re.search(spec["pattern"], text, re.IGNORECASE)
        if m is None:
            continue
        groups = {k: _clean(v, spec.get("decimal")) for k, v in m.groupdict().items() if v}
        notation = str(spec.get("notation") or "{n}").format(**groups)
        try:
            v = parse_stated(notation, spec["attribute"], unit=spec.get("unit"))
        except StatedValueError as exc:
            raise StatementSpecError(f"statements[{i}]: {m.group(0)!r} -> {exc}") from exc
        v = with_extra(v, quote=m.group(0), span=[m.start(), m.end()], checked=checked)
        q = {str(k): str(x) for k, x in (spec.get("qualifiers") or {}).items()}
        out.append(FoundStatement(spec["attribute"], v, q))
    return out
