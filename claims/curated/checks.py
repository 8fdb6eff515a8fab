"""Checks of curated data that span several fields or entries of one file, for
:mod:`claims.curated.loader`: the same claim twice, an alias two subjects claim, field types the
TOML reader lets through (``exact = "false"``), a source's publication date against its
precision, and the text of a TOML number (``2.00`` keeps its two decimals).

Each check of one entry raises :class:`claims.curated.datafile.DataFileError` at the entry's
line, naming the field; each check across entries returns every error it finds (the
loader reports them all), a repeat naming the line of the first.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from claims.curated.datafile import DataFile, DataFileError
from claims.values.value import ValueError_, parse_iso_date


def is_iso_date(text: str) -> bool:
    """``YYYY-MM-DD`` or ``YYYY-MM`` naming a real day or month."""
    if not re.match(r"^\d{4}-\d{2}(-\d{2})?$", text):  # fromisoformat also takes 20261104
        return False
    try:
        parse_iso_date(text)
    except ValueError_:
        return False
    return True


def claim_fields(f: DataFile, i: int, entry: Mapping[str, Any]) -> None:
    """``exact`` is true or false (``bool("false")`` is True: it read as exact);
    ``stated_date`` is an ISO day or month (it dates a rank's "as of")."""
    if "exact" in entry and not isinstance(entry["exact"], bool):
        raise f.error("claim", i, "exact", f"expected true or false, got {entry['exact']!r}")
    stated = entry.get("stated_date")
    if stated is not None and not is_iso_date(str(stated)):
        raise f.error(
            "claim", i, "stated_date", f"{stated!r} is not a date (YYYY-MM-DD or YYYY-MM)"
        )


def value_text(f: DataFile, i: int, value: Any) -> Any:
    """A TOML number as written (``2.00`` -> ``"2.00"``): the reader gives the float
    2.0, whose precision (one decimal) would widen the figure's interval tenfold. Other
    values are returned as they are."""
    if isinstance(value, bool) or not isinstance(value, float | int):
        return value
    line = f.line_of("claim", i, "value")
    if line is not None:
        m = re.match(
            r"^\s*value\s*=\s*([-+]?[\d_]+(?:\.[\d_]+)?(?:[eE][-+]?\d+)?)\s*(?:#.*)?$",
            f.lines[line - 1],
        )
        if m:
            return m.group(1).replace("_", "")
    return str(value)


def source_dates(f: DataFile, src: Mapping[str, Any]) -> None:
    """``published_precision`` needs ``published``, and ``month`` a month (``2026-10``),
    not a day: a precision that contradicts its date would be shown as written."""
    precision, published = src.get("published_precision"), src.get("published")
    if precision is None:
        return
    line = f.line_of_key("published_precision")
    if published is None:
        raise DataFileError(f.path, line, "source.published_precision", "given without published")
    if precision == "month" and len(str(published)) != 7:
        raise DataFileError(
            f.path, line, "source.published_precision",
            f"month, but published {published!r} is a day (write YYYY-MM)",
        )  # fmt: skip


def duplicate_claims(
    f: DataFile, keyed: Sequence[tuple[int, str]]
) -> list[tuple[int, DataFileError]]:
    """The same claim twice in one file (same subject, attribute, qualifiers, value and
    claimant): it would be stored once, the second's ``raw``/``locator`` silently winning.
    ``keyed``: (``[[claim]]`` index, :func:`claims.curated.loader.claim_key`) of each claim read
    without error. Returns (index, error) of every repeat, at the repeat's value."""
    first: dict[str, int] = {}
    out = []
    for i, key in keyed:
        if key in first:
            j = first[key]
            out.append((i, f.error(
                "claim", i, "value",
                f"the same claim as claim[{j}] (line {f.line_of('claim', j)}): same subject, "
                "attribute, qualifiers, value and claimant; keep one",
            )))  # fmt: skip
        else:
            first[key] = i
    return out


def shared_aliases(
    f: DataFile, names: Sequence[tuple[int, str, Sequence[str]]]
) -> list[DataFileError]:
    """An alias (or name) two subjects give: a value read under it could only go to the
    first, silently. ``names``: (``[[subject]]`` index, slug, its name and aliases) of
    each subject read without error, in order. Returns an error at each later subject
    giving an alias an earlier one gave, one per alias."""
    owner: dict[str, tuple[int, str]] = {}
    out = []
    for i, slug, aliases in names:
        for alias in dict.fromkeys(aliases):
            held = owner.get(alias.lower())
            if held is not None and held[1] != slug:
                out.append(f.error(
                    "subject", i, "aliases",
                    f"{alias!r} also names subject {held[1]!r} (line "
                    f"{f.line_of('subject', held[0])}); an alias names one subject",
                ))  # fmt: skip
            owner.setdefault(alias.lower(), (i, slug))
    return out
