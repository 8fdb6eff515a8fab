"""The subject page's claims by fact, its summary card rows and sources.html's claim
lists are written in Python (tracker/website/claimhtml.py, cardhtml.py): the same bytes
as the Jinja loops they replaced (kept below, as they were in templates/), with texts
that need escaping, notes, claimant statements, verdicts that differ from the fact's,
evidence, stated dates, observed, derived and stated-on card lines."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from markupsafe import Markup

from claims.values.value import quantity
from tracker.website.cardhtml import card_rows, observed_cell
from tracker.website.claimhtml import claims_by_fact, source_claim_items
from tracker.website.marks import esc
from tracker.website.render import make_environment
from tracker.website.summary import CardLine, make_fact
from tracker.website.views import (
    ClaimView,
    EvidenceView,
    SourceClaim,
    SourceInfo,
    StatementView,
    VerdictView,
)

# The loops as templates/subject.html and sources.html had them before claimhtml.py
# (with the nobreak filter and the card's dash for a line no claim states, added since;
# the card row's best-supported value and contradicted note, summary.best_supported;
# no "checked" time, not a dash, when no watch's reading dates the Observed cell;
# the Observed cell's ✗ in words after the value's note).
JINJA_CLAIMS_BY_FACT = """{% from "_macros.html" import evidence_list %}
{% for attribute, n, facts in groups %}
<details class="attr" id="attr-{{ attribute }}">
<summary><span class="attr-name" title="{{ attribute }}">{{ attribute|attribute_label }}</span> {% for f in facts %}<span class="nowrap"><strong>{{ f.value|short_text }}</strong> <span class="mark mark-{{ f.status or 'none' }}" title="{{ f.status or 'no verdict yet' }}">{{ f.status|verdict_mark }}</span></span>{% if not loop.last %} · {% endif %}{% endfor %} <small class="muted">{{ n|plural("claim") }}</small></summary>
{% for f in facts %}
{% set lead = f.lead %}
<div class="fact" id="f-{{ f.anchor }}">
<p class="fact-head"><strong class="value">{{ f.value|nobreak }}</strong>{% if f.qualifiers %} <span class="quals">{{ f.qualifiers|nobreak }}</span>{% endif %} {{ f.status|badge }} <small class="muted">{{ f.sources|plural("source") }}</small></p>
{% if lead and not (f.status == "unverified" and lead.verdict.reason.startswith("no observation")) %}<p class="reason">{{ lead.verdict.reason|nobreak }}{% if lead.verdict.as_of %} <small>(as of {{ lead.verdict.as_of|when }})</small>{% endif %}</p>{% if lead.verdict.evidence %}{{ evidence_list(lead.verdict.evidence) }}{% endif %}{% endif %}
<ul class="claimed">
{% for cv in f.claims %}
{% set src = cv.source %}
<li id="claim-{{ cv.id }}"><span class="anchor" id="{{ cv.anchor }}"></span>{{ src.link }}{% if cv.claimant %} — {{ cv.claimant }}{% endif %}, <span class="nowrap">{% if cv.stated_date %}{{ cv.stated_date }}{% else %}{{ src|published }}{% endif %}</span>{% if cv.raw_text %}: <q{% if src.language %} lang="{{ src.language }}"{% endif %}>{{ cv.raw_text|nobreak }}</q>{% endif %}
{% if cv.verdict and cv.verdict.status != f.status %} {{ cv.verdict.status|badge }} <small>{{ cv.verdict.reason|nobreak }}</small>{% endif %}
{% if cv.verdict and cv.verdict.statement.status != "not checked" %}{% set st = cv.verdict.statement %}<br><small class="stated stated-{{ st.status|replace(' ', '-') }}" title="{{ st.reason }}">stated by the claimant: {{ st.status }} ({{ st.reason }})</small>{% endif %}
{% if cv.note %}<br><small class="note"><strong>Curator's note:</strong> {{ cv.note }}</small>{% endif %}</li>
{% endfor %}
</ul>
</div>
{% endfor %}
</details>
{% else %}
<p>No claims recorded.</p>
{% endfor %}
"""
JINJA_CARD_ROWS = """{% from "_macros.html" import ago %}
{% for ln in card %}
<tr>
<th scope="row"><a href="#{{ ln.anchor }}">{{ ln.label }}</a></th>
<td class="stated">{% if not ln.facts %}<span class="muted">no claim</span>{% else %}{% set b = ln.stated %}{% if b.disputed %}<strong class="state-bad">{{ "sources" if ln.sources > 1 else "its figures" }} disagree:</strong> <span class="nowrap">{{ b.text|nobreak }}</span>{% elif not b.text %}<span aria-hidden="true">—</span><span class="visually-hidden">no figure</span>{% else %}<strong>{{ b.text|short_text|nobreak }}</strong>{% endif %}{% if b.contradicted %} · <small class="contradicted">{{ b.contradicted_sources|plural("source") }} said {{ b.contradicted|map("short_text")|join(", ")|nobreak }} <span class="mark mark-contradicted" title="contradicted">✗</span></small>{% endif %}{% endif %}</td>
<td>{% if not ln.facts %}<span class="verdict verdict-none">observed only</span>{% else %}{{ ln.stated.status|badge }}{% endif %}</td>
<td class="num">{% if not ln.facts %}<span class="muted">—</span>{% else %}stated by {{ ln.sources }}{% endif %}</td>
<td>{% if ln.observed %}{{ ln.observed|short_text|nobreak }}{% set st = ln.facts|map(attribute="status")|list %}{% if "confirmed" in st %} <span class="mark mark-confirmed" title="matches what is stated">✓</span>{% endif %}{% if ln.note %} <small>({{ ln.note|nobreak }})</small>{% endif %}{% if "contradicted" in st %}{% set n = ln.stated.contradicted_sources %} · <small class="contradicted"><span class="mark mark-contradicted" aria-hidden="true">✗</span> contradicts {% if n %}{{ n|plural("source") }}{% else %}what is stated{% endif %}</small>{% endif %}{% if ln.checked %} <small class="muted nowrap checked" title="when a watch last read it">{{ ago(ln.checked) }}</small>{% endif %}{% elif ln.derived_from %}<a href="#f-{{ ln.anchor }}">from {{ ln.derived_from|plural("observation") }}</a>{% if ln.checked %} <small class="muted nowrap checked" title="when a watch last read it">{{ ago(ln.checked) }}</small>{% endif %}{% else %}<small class="muted unobserved">not observed{% if ln.stated_on|http_url %};{% endif %}</small>{% if ln.stated_on|http_url %} <small class="stated-on">stated on <a href="{{ ln.stated_on|http_url }}" rel="nofollow noopener">{{ ln.stated_on|url_site }}</a></small>{% endif %}{% endif %}</td>
</tr>
{% endfor %}
"""
JINJA_SOURCE_CLAIMS = """{% for cv in claims %}
<li><a href="{{ root }}subjects/{{ cv.subject_slug }}/index.html#claim-{{ cv.id }}">{{ cv.subject_name }}</a>: <span title="{{ cv.attribute }}">{{ cv.attribute|attribute_label }}</span> {{ cv.value|nobreak }}{% if cv.qualifiers %} ({{ cv.qualifiers|nobreak }}){% endif %} — {{ "no verdict yet" if cv.status is none else cv.status }}</li>
{% endfor %}
"""

AT = dt.datetime(2026, 11, 29, 14, 5, tzinfo=dt.UTC)
LATER = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)
NASTY = """<b>"Tom's" & co</b>"""


def _source(n: int, language: str | None, published: str | None, precision: str | None):
    src = SourceInfo(n, f"s{n}", f"Source {n} {NASTY}", None, None, published, language, "press")
    src.published_precision = precision
    src.link = Markup(f'<a href="#s{n}">Source {n}</a>')
    return src


EVIDENCE = EvidenceView(7, "total_params", "2.8T & more", AT, LATER, True, "https://x.example/a?b=1&c=2", "ab" * 32, AT)  # fmt: skip


def _claim(n: int, value: str, verdict: VerdictView | None, **kw) -> ClaimView:
    fields = {
        "qualifiers": "",
        "raw_text": f"about {value} <it>",
        "claimant": f"Lab {NASTY}",
        "stated_date": None,
        "source": _source(n, "en", "2026-10-27", None),
        "note": None,
        "number": "2.8",
    } | kw
    return ClaimView(
        id=n, subject_id=1, subject_slug="kimi", subject_name=f"Kimi {NASTY}",
        attribute="total_params", qualifiers=fields["qualifiers"], qualifiers_dict={},
        value=value, value_dict=quantity(fields["number"], "params", scale=10**12).to_dict(),
        raw_text=fields["raw_text"], claimant=fields["claimant"], locator=None,
        stated_date=fields["stated_date"], source=fields["source"], verdict=verdict,
        anchor=f"c-{n}'x", note=fields["note"],
    )  # fmt: skip


def _claims() -> list[ClaimView]:
    confirmed = VerdictView("confirmed", f"observed {NASTY}", AT, [EVIDENCE], [7])
    stated = StatementView("no", "the page says <3T>", [9])
    return [
        _claim(1, "2.8T params", confirmed, note=f"curator {NASTY}"),
        _claim(2, "2.8T params", VerdictView("unverified", "nothing observed", None, [], [], stated),
               stated_date="2026-11-02", claimant=None),
        _claim(3, "2.8T params", None, raw_text=None,
               source=_source(3, None, "2026-10-01", "estimated")),
        _claim(4, "5T params", VerdictView("unverified", "no observation of it", None, [], []),
               qualifiers=f"variant {NASTY}", source=_source(4, "zh", None, None), number="5"),
    ]  # fmt: skip


def _licence_claims() -> list[ClaimView]:
    """apache-2.0 (contradicted) and mit (confirmed), as after a licence change."""
    out = []
    for n, (text, status) in enumerate((("apache-2.0", "contradicted"), ("mit", "confirmed"))):
        c = _claim(n + 5, text, VerdictView(status, f"observed {NASTY}", AT, [EVIDENCE], [7]))
        out.append(c._replace(attribute="license", value_dict={"kind": "text", "value": text}))
    return out


def _render(template: str, **values) -> str:
    return make_environment().from_string(template).render(**values)


def test_claims_by_fact_are_the_bytes_the_jinja_loop_wrote():
    claims = _claims()
    facts = [make_fact(claims[:3]), make_fact([claims[3]])]
    confirmed = [make_fact(claims[:1])]  # its lead's reason, time and evidence shown
    groups = [
        ("total_params", 4, facts),
        ("active_params", 1, confirmed),
        ("context_window", 0, []),
    ]
    macros = make_environment().get_template("_macros.html").module
    python = claims_by_fact(groups, macros.evidence_list)  # type: ignore[attr-defined]
    assert python == _render(JINJA_CLAIMS_BY_FACT, groups=groups)
    assert "(as of <time" in python and ">observation #7</a>" in python
    assert '<li id="claim-1"><span class="anchor" id="c-1&#39;x">' in python
    assert (
        "Curator's note:</strong> curator &lt;b&gt;&#34;Tom&#39;s&#34; &amp; co&lt;/b&gt;" in python
    )
    assert "stated by the claimant: no (the page says &lt;3T&gt;)" in python
    assert claims_by_fact([], macros.evidence_list) == _render(JINJA_CLAIMS_BY_FACT, groups=[])  # type: ignore[attr-defined]


def test_card_rows_are_the_bytes_the_jinja_loop_wrote():
    claims = _claims()
    lic = _licence_claims()
    card = [
        CardLine("total_params", "", [make_fact(claims[:3])], "2.8T (2,800,000,000,000) params", AT,
                 note=NASTY),
        CardLine("total_params", "variant x", [make_fact(claims[:1]), make_fact([claims[3]])],
                 None, None, {"variant": "x"}, derived_from=2),
        CardLine("context_window", "", [], "1M tokens", LATER),
        CardLine("input_price", "", [make_fact([claims[3]])], None, None,
                 stated_on="https://www.example.com/pricing?a=1&b=2"),
        CardLine("output_price", "", [make_fact([claims[2]])], None, None, stated_on="javascript:x"),
        # the licence changed to mit: the apache-2.0 claim contradicted, the mit one confirmed
        CardLine("license", "", [make_fact([lic[0]]), make_fact([lic[1]])], "mit", AT),
        CardLine("license", "x", [make_fact([claims[3]]), make_fact([claims[2]])], None, None,
                 {"variant": "x"}),
    ]  # fmt: skip
    python = card_rows(card)
    assert python == _render(JINJA_CARD_ROWS, card=card)
    assert "sources disagree:" in python and "from 2 observations" in python
    assert (
        '<td class="stated"><strong>mit</strong> · '
        '<small class="contradicted">1 source said apache-2.0 <span class="mark '
        'mark-contradicted" title="contradicted">✗</span></small></td>\n<td><span '
        'class="verdict verdict-confirmed"><span aria-hidden="true">✓</span> confirmed</span>'
    ) in python
    assert 'stated on <a href="https://www.example.com/pricing?a=1&amp;b=2"' in python


def test_one_source_stating_two_figures_is_no_sources_disagree_beside_1_source():
    # the trial: one article said "256K" and "1M" of one model's context window
    one = _source(9, "en", "2026-10-27", None)
    wait = VerdictView("unverified", "no observation of it", None, [], [])
    a = _claim(1, "256K tokens", wait, source=one, number="0.000256")
    b = _claim(2, "1M tokens", wait, source=one, number="0.000001")
    line = CardLine("context_window", "", [make_fact([a]), make_fact([b])], None, None)
    python = card_rows([line])
    assert python == _render(JINJA_CARD_ROWS, card=[line])
    assert '<strong class="state-bad">its figures disagree:</strong>' in python
    assert "sources disagree" not in python
    assert '<td class="num">stated by 1</td>' in python


def test_the_card_counts_who_states_a_contradicted_figure_never_that_they_agree():
    # a trial: "— · 2 sources said 30B ✗ | ✗ contradicted | 2 agree" read as if 30B held
    wrong = VerdictView("contradicted", "observed 30.51B", AT, [EVIDENCE], [7])
    said = [_claim(n, "30B params", wrong, source=_source(n, "en", None, None), number="0.03")
            for n in (1, 2)]  # fmt: skip
    line = CardLine("total_params", "", [make_fact(said)], "30.51B params", AT)
    row = card_rows([line])
    assert row == _render(JINJA_CARD_ROWS, card=[line])
    assert "2 sources said 30B <span" in row
    assert '<td class="num">stated by 2</td>' in row and "agree" not in row


def test_source_claim_lists_are_the_bytes_the_jinja_loop_wrote():
    claims = [
        SourceClaim(1, "kimi", f"Kimi {NASTY}", "total_params", "2.8T params", "", "confirmed"),
        SourceClaim(2, "kimi", "Kimi", "input_price", "$2 <per> 1M", f"tier {NASTY}", None),
    ]
    for root in ("", "../"):
        python = source_claim_items(claims, root)
        assert python == _render(JINJA_SOURCE_CLAIMS, claims=claims, root=root)
    assert "— no verdict yet</li>" in python


def test_esc_gives_the_bytes_markupsafe_escape_gives():
    for text in (NASTY, "plain", "", 3, None, Markup("<b>kept</b>"), "a'b\"c&d<e>f"):
        assert esc(text) == str(Markup.escape(text))


def test_the_summary_line_names_each_score_s_benchmark_and_version():
    """Scores of several benchmarks in one summary line each say which they are (the
    line read "55 ✓ · 65.7% ✗" without them); ranks name their board."""

    def score(n, value, benchmark, version=None, status="confirmed"):
        quals = {"benchmark": benchmark} | ({"version": version} if version else {})
        c = _claim(n, value, VerdictView(status, "observed", AT, [], []), number="1")
        return c._replace(attribute="benchmark_score", qualifiers_dict=quals)

    facts = [make_fact([score(1, "65.7%", "Terminal-Bench", "3.0", "contradicted")]),
             make_fact([score(2, "55 points", "AA Index")])]  # fmt: skip
    rank = _claim(3, "#4", VerdictView("confirmed", "observed", AT, [], []), number="4")
    ranks = [make_fact([rank._replace(attribute="leaderboard_rank",
                                      qualifiers_dict={"leaderboard": "Code <Arena>"})])]  # fmt: skip
    macros = make_environment().get_template("_macros.html").module
    html = claims_by_fact([("benchmark_score", 2, facts), ("leaderboard_rank", 1, ranks)],
                          macros.evidence_list)  # type: ignore[attr-defined]  # fmt: skip
    summaries = [line for line in html.splitlines() if line.startswith("<summary>")]
    assert summaries[0] == (
        '<summary><span class="attr-name" title="benchmark_score">Benchmark score</span> '
        '<span class="fact-name">Terminal-Bench 3.0:</span> <span class="nowrap"><strong>65.7%'
        '</strong> <span class="mark mark-contradicted" title="contradicted">✗</span></span> · '
        '<span class="fact-name">AA Index:</span> <span class="nowrap"><strong>55</strong> '
        '<span class="mark mark-confirmed" title="confirmed">✓</span></span> '
        '<small class="muted">2 claims</small></summary>'
    )
    assert (
        '<span class="fact-name">Code &lt;Arena&gt;:</span> <span class="nowrap"><strong>#4'
        in (summaries[1])
    )


@pytest.mark.parametrize("checked", [AT, None])
@pytest.mark.parametrize(
    ("observed", "note", "derived", "stated_on"),
    [("2.8T params", "", 0, None), ("2.8T params", "p50", 0, None), (None, "", 2, None),
     (None, "", 1, None), (None, "", 0, "https://x.example/p"), (None, "", 0, None)],
)  # fmt: skip
def test_the_observed_cell_leaves_no_separator_hanging(observed, note, derived, stated_on, checked):
    """Every combination of the Observed cell's parts (a value or the observations a
    verdict rests on, a note, when it was checked, the claimant's page) reads without a
    dash, semicolon or dot left over where a part is empty ("from 1 observation —")."""
    facts = [make_fact(_claims()[:1])]
    ln = CardLine("total_params", "", facts, observed, checked if observed or derived else None,
                  note=note, derived_from=derived, stated_on=stated_on)  # fmt: skip
    html = observed_cell(ln)
    text = re.sub(r"<[^>]+>", "", html)
    assert text == text.strip() and not re.search(r"[—;·,(]$|^[—;·,)]|  ", text), html
    expected = {
        (True, ""): "2.8T ✓", (True, "p50"): "2.8T ✓ (p50)",
        (False, ""): f"from {derived} observation{'s' if derived > 1 else ''}",
    }[(bool(observed), note)] if observed or derived else (
        "not observed; stated on x.example" if stated_on else "not observed"
    )  # fmt: skip
    when = " 2026-11-29 14:05 UTC" if checked and (observed or derived) else ""
    assert text == expected + when
