"""The subject page's summary card rows ("At a glance"), written in Python.

One row per card line (a dozen per subject, 12,000 on the 1,000-subject bench): as a
Jinja loop with a macro call for each "checked" time it was a tenth of the full build.
The markup is the template's, byte for byte (``tests/test_site_claimhtml.py``
compares them); every interpolated text is escaped as autoescape does
(:func:`tracker.website.marks.esc`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from markupsafe import Markup

from claims.values.timefmt import iso_z, utc_minute
from tracker.website.marks import badge, esc, http_url, nobreak_html, plural, url_site
from tracker.website.subjectrefs import label_html
from tracker.website.summary import CardLine, card_text

# A cell with no figure: a dash, and the words for screen readers (the index's and
# compare page's empty cells read the same).
NO_FIGURE_HTML = '<span aria-hidden="true">—</span><span class="visually-hidden">no figure</span>'
CHECKED = '<small class="muted nowrap checked" title="when a watch last read it">'


def ago(moment: dt.datetime | None) -> str:
    """``<time … data-ago>`` (site.js turns it into "3 h ago"), the UTC minute otherwise
    and on hover; ``—`` for None (``_macros.html``'s ``ago``)."""
    if not moment:
        return "—"
    text = utc_minute(moment)
    return f'<time datetime="{iso_z(moment)}" title="{text}" data-ago>{text}</time>'


def _agreement(ln: CardLine) -> tuple[str, str]:
    """(after the value, after its note): ✓ right after the value when the observation
        confirms what is stated; when it contradicts a stated figure, the ✗ with words
        after the value's note: ``· ✗ contradicts 1 source`` (the Stated cell's "1 source
    said 65.7% ✗"). A bare ✗ after
        ``(version: 3.0)`` read as "the version is wrong" (a fresh-user trial); the words
        say the mark is about the statement. "" for an observed-only line or none yet."""
    statuses = {f.status for f in ln.facts}
    confirmed = contradicted = ""
    if "confirmed" in statuses:
        confirmed = ' <span class="mark mark-confirmed" title="matches what is stated">✓</span>'
    if "contradicted" in statuses:
        n = ln.stated.contradicted_sources
        whom = plural(n, "source") if n else "what is stated"
        contradicted = (
            ' · <small class="contradicted"><span class="mark mark-contradicted" '
            f'aria-hidden="true">✗</span> contradicts {whom}</small>'
        )
    return confirmed, contradicted


def _checked(moment: dt.datetime | None) -> str:
    """`` <small …>when</small>`` after an Observed cell's value; "" when no watch's
    reading dates it (no dash left hanging after the value)."""
    return f" {CHECKED}{ago(moment)}</small>" if moment else ""


def observed_cell(ln: CardLine) -> str:
    """The Observed cell: the value read (✓ or "✗ contradicts ..." against what is
    stated, :func:`_agreement`) and when, else the observations a derived verdict rests on
    (and when, if a watch's reading dates them), else "not observed" and the
    claimant's page stating it. A part without content leaves no separator behind."""
    if ln.observed:
        note = f" <small>({nobreak_html(ln.note)})</small>" if ln.note else ""
        confirmed, contradicted = _agreement(ln)
        # every figure and date unbroken (nobreak_html): "on 2026-12-" / "01" at 390 px
        value = nobreak_html(card_text(ln.observed))
        return f"{value}{confirmed}{note}{contradicted}{_checked(ln.checked)}"
    if ln.derived_from:
        return (
            f'<a href="#f-{esc(ln.anchor)}">from {plural(ln.derived_from, "observation")}</a>'
            f"{_checked(ln.checked)}"
        )
    url = http_url(ln.stated_on)
    if not url:
        return '<small class="muted unobserved">not observed</small>'
    return (
        '<small class="muted unobserved">not observed;</small> <small class="stated-on">'
        f'stated on <a href="{esc(url)}" rel="nofollow noopener">{esc(url_site(url))}</a></small>'
    )


def stated_cell(ln: CardLine) -> tuple[str, str]:
    """The Stated and Verdict cells of a claimed line: what the sources state, best
    supported (:func:`tracker.website.summary.stated_best`: confirmed, else agreed,
    else "sources disagree" ("its figures disagree" when one source states them all)
    and the live claims' spread; never the observation, which
    is the Observed cell's) with that value's verdict, and any contradicted figure
    noted after it (``1 source said mit ✗``), never shown as the value: with only
    contradicted claims the value is "—" (no figure)."""
    best = ln.stated
    if best.disputed:  # one source stating two figures: not "sources" beside "1 source"
        who = "sources" if ln.sources > 1 else "its figures"
        stated = (
            f'<strong class="state-bad">{who} disagree:</strong> '
            f'<span class="nowrap">{nobreak_html(best.text)}</span>'
        )
    elif not best.text:
        stated = NO_FIGURE_HTML
    else:
        stated = f"<strong>{nobreak_html(card_text(best.text))}</strong>"
    if best.contradicted:
        said = ", ".join(card_text(v) for v in best.contradicted)
        stated += (
            ' · <small class="contradicted">'
            f"{plural(best.contradicted_sources, 'source')} said {nobreak_html(said)} "
            '<span class="mark mark-contradicted" title="contradicted">✗</span></small>'
        )
    return stated, str(badge(best.status))


def card_row(ln: CardLine, root: str = "", names: Mapping[str, str] | None = None) -> str:
    """One ``<tr>`` of the card: label (linked to the detail), the best-supported value
    (:func:`stated_cell`), its verdict, how many sources, what was observed. ``names``
    (slug -> display name) names a subject the line is relative to, linked from ``root``
    (:func:`tracker.website.subjectrefs.label_html`)."""
    if not ln.facts:
        stated, verdict = (
            '<span class="muted">no claim</span>',
            ('<span class="verdict verdict-none">observed only</span>'),
        )
    else:
        stated, verdict = stated_cell(ln)
    n = ln.sources
    if not ln.facts:  # only observed: no source states it, a dash, not "0 sources"
        count = '<span class="muted">—</span>'
    else:
        # how many state a figure, not whether it holds ("2 agree" beside "contradicted"
        # read as if it did): the verdict is the Verdict cell's
        count = f"stated by {n}"
    return (
        f'<tr>\n<th scope="row">{label_html(ln.label, ln.quals, names, root, "#" + ln.anchor)}</th>\n'
        f'<td class="stated">{stated}</td>\n<td>{verdict}</td>\n'
        f'<td class="num">{count}</td>\n<td>{observed_cell(ln)}</td>\n</tr>\n'
    )


def card_rows(
    card: list[CardLine], root: str = "", names: Mapping[str, str] | None = None
) -> Markup:
    """Every row of the summary card (the ``card_rows`` filter of ``subject.html``;
    ``root`` and ``names`` as for :func:`card_row`)."""
    return Markup("".join([card_row(ln, root, names) for ln in card]))
