"""The compare page without JavaScript: which subjects it shows when nobody chose any,
and their side-by-side rows, built from the same records as ``api/table.json``
(:func:`tracker.website.table.table_record`) so the built table and the one
``assets/site.js`` draws for ``?s=a,b,c`` read alike (``tests/test_site_compare.py``
and ``tests/test_browser_compare.py`` compare them).

The default: the subject that changed last and the others of its organisation (the
most recent release's family), newest change first, up to :data:`MOST`; when that
family has one subject only, the :data:`FALLBACK` subjects changed last.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, NamedTuple

from tracker.website.observed import GATED_WORDS
from tracker.website.summary import NO_FIGURE
from tracker.website.views import IndexRow

MOST = 4  # the page compares two to four subjects
FALLBACK = 3
_OLDEST = dt.datetime.min.replace(tzinfo=dt.UTC)


def _changed(row: IndexRow) -> dt.datetime:
    when = row.last_change or _OLDEST
    return when if when.tzinfo else when.replace(tzinfo=dt.UTC)


def default_choice(rows: list[IndexRow]) -> list[IndexRow]:
    """The subjects compared when none are chosen (module docstring), newest change
    first (ties by name); [] with fewer than two subjects."""
    if len(rows) < 2:
        return []
    newest = sorted(rows, key=lambda r: (-_changed(r).timestamp(), r.name.lower()))
    lead = newest[0]
    family = [r for r in newest if lead.organization and r.organization == lead.organization]
    return family[:MOST] if len(family) >= 2 else newest[:FALLBACK]


def _near(order: list[IndexRow], i: int, limit: int) -> list[IndexRow]:
    """Up to ``limit`` items of ``order`` other than its ``i``-th, nearest to it first
    (after, before, ...): only those are looked at (a family of 1,000 made this
    quadratic: 0.7 s of every build)."""
    out: list[IndexRow] = []
    for step in range(1, len(order)):
        if len(out) >= limit:
            break
        out += [order[j] for j in (i + step, i - step) if 0 <= j < len(order)]
    return out[:limit]


def related_choices(rows: list[IndexRow]) -> dict[str, list[IndexRow]]:
    """Each subject with up to ``MOST - 1`` others, for its pre-built page
    ``compare/<slug>.html`` (what the picker offers without JavaScript): first the
    subjects of its organisation, then any others, each nearest in last change first;
    none for a site of one subject. Linear in the subjects but for the neighbours looked
    at (a 1,000-subject build makes 1,000 of these)."""
    if len(rows) < 2:
        return {}
    order = sorted(rows, key=lambda r: (-_changed(r).timestamp(), r.name.lower()))
    at = {r.slug: i for i, r in enumerate(order)}
    families: dict[str | None, list[IndexRow]] = {}
    for r in order:
        families.setdefault(r.organization or None, []).append(r)
    family_at = {r.slug: i for fam in families.values() for i, r in enumerate(fam)}
    out = {}
    for r in order:
        picked = []
        if r.organization:
            picked = _near(families[r.organization], family_at[r.slug], MOST - 1)
        if len(picked) < MOST - 1:
            lo = max(0, at[r.slug] - MOST)
            window = order[lo : at[r.slug] + MOST + 1]
            have = {m.slug for m in picked}
            more = [m for m in _near(window, at[r.slug] - lo, len(window)) if m.slug not in have]
            picked += more[: MOST - 1 - len(picked)]
        out[r.slug] = [r, *picked]
    return out


class Part(NamedTuple):
    """A piece of a cell's text: ``kind`` ``text`` (plain), ``verdict`` (a verdict
    word after the figure), ``note`` (small, in brackets) or ``none`` ("—", read
    "no figure")."""

    kind: str
    text: str


def cell_parts(cell: dict[str, Any] | None) -> list[Part]:
    """A table cell (``api/table.json``) as the compare page shows it: its figure, its
    verdict word, "observed", its note, the reading beside a stated figure, contradicted
    sources and a figure not compared here (as ``fill`` in ``assets/site.js``)."""
    if not cell:
        return [Part("none", NO_FIGURE)]
    text = cell["text"]
    out = [Part("none", NO_FIGURE) if text == NO_FIGURE else Part("text", text)]
    if cell["status"] and text != NO_FIGURE:
        out.append(Part("verdict", cell["status"]))
    if cell["observed"]:
        out.append(Part("verdict", "observed"))
    if cell["note"]:
        out.append(Part("note", cell["note"]))
    if cell["observed_text"] and cell["observed_text"] != text:
        out.append(Part("note", f"observed {cell['observed_text']}"))
    if n := cell["contradicted"]:
        out.append(Part("note", f"✗ {n} source{'s' if n != 1 else ''} contradicted"))
    if cell["aside"]:
        out.append(Part("note", f"not compared here: {cell['aside']}"))
    return out


def _licence(s: dict[str, Any]) -> str:
    stated, n = s["license_stated"], s["license_contradicted"]
    if s["license"]:
        text = s["license"]
    elif stated:
        disputed = ": sources disagree" if stated["disputed"] else ""
        text = f"{stated['text']} (stated, {stated['status'] or 'no verdict yet'}{disputed})"
    else:
        text = "unknown"
    return text + (f" (✗ {n} source{'s' if n != 1 else ''} contradicted)" if n else "")


def compare_rows(
    records: list[dict[str, Any]], columns: list[tuple[str, str]]
) -> list[tuple[str, list[list[Part]]]]:
    """The rows of a side-by-side table of ``records`` (``table_record`` dicts, in the
    order shown): Weights, Licence, Gated, then each of ``columns`` (``(key, label)``),
    then every other benchmark any of them has; each row ``(label, [parts per
    subject])``. A figure row that is a bare "—" for every subject is left out (it tells
    nothing; a trial's comparison was half such rows), as ``assets/site.js`` does."""
    rows: list[tuple[str, list[list[Part]]]] = [
        ("Weights", [[Part("text", s["weights"]["text"])] for s in records]),
        ("Licence", [[Part("text", _licence(s))] for s in records]),
        (
            "Gated",
            [[Part("text", GATED_WORDS.get(_js_string(s["gated"]), "unknown"))] for s in records],
        ),
    ]
    figures = [
        (label, [cell_parts(s["cells"].get(key)) for s in records]) for key, label in columns
    ]
    shown = {label for _, label in columns}
    more = [n for s in records for n in s["scores"] if n not in shown]
    for name in dict.fromkeys(more):
        figures.append((name, [cell_parts(s["scores"].get(name)) for s in records]))
    return rows + [(label, cells) for label, cells in figures if not all(map(_bare, cells))]


def _bare(parts: list[Part]) -> bool:
    """True for a cell that shows only "—" (no figure, no note)."""
    return parts == [Part("none", NO_FIGURE)]


def _js_string(value: Any) -> str:
    """``String(value)`` as the script reads the gated setting (``false``, ``auto``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)
