"""Claims as HTML, written in Python: the subject page's claims by attribute and fact,
and ``sources.html``'s claims of each source.

These loops ran once per fact and claim (30,000 on the 1,000-subject bench) and were
over half the full build: a Jinja loop looks every attribute up through
``Environment.getattr`` and escapes each piece with a call that makes a ``Markup``.
Here the same markup is an f-string per fact and claim, every interpolated text passed
through :func:`esc` (the bytes autoescape gives), so the pages are byte for byte those
the templates wrote (``tests/test_site_claimhtml.py`` compares them with the Jinja
loops').
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from markupsafe import Markup

from claims.vocabulary import attribute_label
from tracker.website.marks import (
    badge,
    esc,
    nobreak_html,
    plural,
    published,
    verdict_mark,
    when,
)
from tracker.website.subjectrefs import named_quals
from tracker.website.summary import card_text
from tracker.website.views import ClaimView, SourceClaim


def _extras(cv: ClaimView, fact_status: str | None) -> str:
    """What follows a claim's quoted words: its own verdict when it differs from the
    fact's, whether the claimant states it, the curator's note."""
    out = ""
    verdict = cv.verdict
    if verdict:
        if verdict.status != fact_status:
            out += f" {badge(verdict.status)} <small>{nobreak_html(verdict.reason)}</small>"
        st = verdict.statement
        if st.status != "not checked":
            status, reason = esc(st.status), esc(st.reason)
            out += (
                f'<br><small class="stated stated-{esc(st.status.replace(" ", "-"))}" '
                f'title="{reason}">stated by the claimant: {status} ({reason})</small>'
            )
    if cv.note:
        out += f'<br><small class="note"><strong>Curator\'s note:</strong> {esc(cv.note)}</small>'
    return out


def claim_item(cv: ClaimView, fact_status: str | None) -> str:
    """One claim of a fact on the subject page: ``<li id="claim-<id>">`` with its
    content-key anchor, source link, claimant, date (stated, else the source's
    publication), the words as written and :func:`_extras`; ends with a newline."""
    src = cv.source
    who = f" — {esc(cv.claimant)}" if cv.claimant else ""
    date = esc(cv.stated_date) if cv.stated_date else published(src)
    words = ""
    if cv.raw_text:
        lang = f' lang="{esc(src.language)}"' if src.language else ""
        words = f": <q{lang}>{nobreak_html(cv.raw_text)}</q>"
    return (
        f'<li id="claim-{cv.id}"><span class="anchor" id="{esc(cv.anchor)}"></span>'
        f'{src.link}{who}, <span class="nowrap">{date}</span>{words}'
        f"{_extras(cv, fact_status)}</li>\n"
    )


def source_claim_items(
    claims: list[SourceClaim], root: str, names: Mapping[str, str] | None = None
) -> Markup:
    """A source's claims as ``sources.html`` lists them, each linked to its row on its
    subject's page (``root``: the path back to the site's root); a subject named in
    its qualifiers by its name, linked (``names``: slug -> name,
    :func:`tracker.website.subjectrefs.named_quals`)."""
    labels: dict[str, str] = {}
    out = []
    for cv in claims:
        attr = cv.attribute
        label = labels.get(attr)
        if label is None:
            label = labels[attr] = esc(attribute_label(attr))
        quals = (
            f" ({named_quals(nobreak_html(cv.qualifiers), names, root)})" if cv.qualifiers else ""
        )
        status = "no verdict yet" if cv.status is None else esc(cv.status)
        out.append(
            f'<li><a href="{esc(root)}subjects/{esc(cv.subject_slug)}/index.html'
            f'#claim-{cv.id}">{esc(cv.subject_name)}</a>: <span title="{esc(attr)}">'
            f"{label}</span> {nobreak_html(cv.value)}{quals} — {status}</li>\n"
        )
    return Markup("".join(out))


def fact_html(
    fact: Any,
    evidence_list: Callable[[Any], str],
    root: str = "",
    names: Mapping[str, str] | None = None,
) -> str:
    """One fact (a :class:`tracker.website.summary.Fact`): its value, qualifiers, badge
    and source count; the reason of its lead claim's verdict (unless it only says
    nothing observes it) with that verdict's evidence (``evidence_list``: the
    ``_macros.html`` macro); then its claims (:func:`claim_item`). A subject its
    qualifiers name shows by its name, linked (``names``, ``root``:
    :func:`tracker.website.subjectrefs.named_quals`)."""
    status = fact.status
    quals = (
        f' <span class="quals">{named_quals(nobreak_html(fact.qualifiers), names, root)}</span>'
        if fact.qualifiers
        else ""
    )
    reason = ""
    lead = fact.lead
    if lead and not (status == "unverified" and lead.verdict.reason.startswith("no observation")):
        verdict = lead.verdict
        as_of = f" <small>(as of {when(verdict.as_of)})</small>" if verdict.as_of else ""
        listed = evidence_list(verdict.evidence) if verdict.evidence else ""
        reason = f'<p class="reason">{nobreak_html(verdict.reason)}{as_of}</p>{listed}'
    items = "".join([claim_item(cv, status) for cv in fact.claims])
    return (
        f'<div class="fact" id="f-{esc(fact.anchor)}">\n'
        f'<p class="fact-head"><strong class="value">{nobreak_html(fact.value)}</strong>{quals} '
        f'{badge(status)} <small class="muted">{plural(fact.sources, "source")}</small></p>\n'
        f'{reason}<ul class="claimed">\n{items}</ul>\n</div>\n'
    )


def fact_name(fact: Any) -> str:
    """What a score or rank is of, for its summary line: ``Terminal-Bench 3.0`` (the
    benchmark and version of a ``benchmark_score``), the board of a
    ``leaderboard_rank``; "" for other facts, whose figures need no name to tell apart."""
    q = fact.claims[0].qualifiers_dict
    if fact.attribute == "benchmark_score" and q.get("benchmark"):
        return f"{q['benchmark']} {q['version']}" if q.get("version") else str(q["benchmark"])
    if fact.attribute == "leaderboard_rank" and q.get("leaderboard"):
        return str(q["leaderboard"])
    return ""


def fact_mark(fact: Any) -> str:
    """A fact in its attribute's summary line: what it is of (:func:`fact_name`), the
    figure without its unit words and its verdict's mark."""
    name = fact_name(fact)
    mark = _mark(fact.value, fact.status)
    return f'<span class="fact-name">{esc(name)}:</span> {mark}' if name else mark


@lru_cache(maxsize=8192)  # a site repeats its figures and verdicts
def _mark(value: str, status: str | None) -> str:
    title = esc(status or "no verdict yet")
    return (
        f'<span class="nowrap"><strong>{nobreak_html(card_text(value))}</strong> '
        f'<span class="mark mark-{esc(status or "none")}" title="{title}">'
        f"{esc(verdict_mark(status))}</span></span>"
    )


def claims_by_fact(
    groups: list[tuple[str, int, list[Any]]],
    evidence_list: Any,
    root: str = "",
    names: Mapping[str, str] | None = None,
) -> Markup:
    """The subject page's claims (``SubjectView.fact_groups``): per attribute a
    ``<details id="attr-<attribute>">`` whose summary lists its facts' figures and
    marks and how many claims state them, then each fact (:func:`fact_html`; ``root``
    and ``names`` as there); "No claims recorded." without any. The
    ``claims_by_fact`` filter of ``subject.html``."""
    if not groups:
        return Markup("<p>No claims recorded.</p>\n")
    out = []
    for attribute, n, facts in groups:
        attr = esc(attribute)
        marks = " · ".join([fact_mark(f) for f in facts])
        out.append(
            f'<details class="attr" id="attr-{attr}">\n'
            f'<summary><span class="attr-name" title="{attr}">{esc(attribute_label(attribute))}'
            f'</span> {marks} <small class="muted">{plural(n, "claim")}</small></summary>\n'
        )
        out += [fact_html(f, evidence_list, root, names) for f in facts]
        out.append("</details>\n")
    return Markup("".join(out))
