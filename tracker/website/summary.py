"""A subject at a glance: its claims grouped by fact, the summary card and its table row.

Claims stating the same thing (:func:`claims.verify.compare.same_fact`) are one
:class:`Fact` with several sources; a card line (:class:`CardLine`) is one attribute and
qualifiers, with the fact the sources agree on (the most precise of figures that can all
hold) or "sources disagree" and the spread,
its verdict, how many sources state it and what a watch observed. The index's
comparison table (:data:`COLUMNS`) reads its cells from the same lines.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any, NamedTuple

from claims.store.status import WeightsStatus
from claims.values.canonical import as_utc
from claims.values.timefmt import utc_minute
from claims.values.value import Value, date_value
from claims.verify.compare import (
    date_window,
    group_facts,
    qualifier_key,
    qualifiers_compatible,
    values_conflict,
)
from claims.verify.statements import STATED_BY
from claims.vocabulary import attribute_label, qualifiers_text
from tracker.website.anchors import observed_anchor
from tracker.website.charts import TimelineEvent
from tracker.website.views import (
    Cell,
    ClaimView,
    DiscrepancyView,
    IndexRow,
    ObservationView,
    SubjectRef,
)

# Verdicts from worst to best: a fact whose sources got different verdicts shows the
# first of them (one contradicted source is what a reader must see).
SEVERITY: tuple[str, ...] = (
    "contradicted",
    "disputed",
    "overdue",
    "pending",
    "unverified",
    "confirmed",
)
# The card's lines, in this order; other attributes follow alphabetically.
CARD_ORDER: tuple[str, ...] = (
    "total_params",
    "active_params",
    "context_window",
    "price_input_usd_per_mtok",
    "price_output_usd_per_mtok",
    "output_tokens_per_second",
    "license",
    "release_date",
    "weights_release_date",
    "benchmark_score",
    "leaderboard_rank",
)
# Comparison-table columns read from the base offering's card line: key -> (heading,
# attribute). Benchmark columns are added per build (:func:`headline_benchmarks`).
COLUMNS: dict[str, tuple[str, str]] = {
    # the release (announcement) date: the catalogues' first column (date_cell)
    "released": ("Released", "release_date"),
    "total-params": ("Total params", "total_params"),
    "active-params": ("Active params", "active_params"),
    "context": ("Context", "context_window"),
    "price-in": ("Input $/M", "price_input_usd_per_mtok"),
    "price-out": ("Output $/M", "price_output_usd_per_mtok"),
    "speed": ("Output tok/s", "output_tokens_per_second"),
}
HEADLINE_BENCHMARKS = 3


class Fact(NamedTuple):
    """Claims of one attribute that state the same thing; ``status`` is the worst of
    their verdicts (None when none has one yet); ``number`` the first claim's central
    value (None for dates, texts, booleans)."""

    attribute: str
    qualifiers: str
    value: str
    claims: list[ClaimView]
    status: str | None
    number: float | None
    qkey: tuple[Any, ...] = ()  # claims.verify.compare.qualifier_key of its qualifiers

    @property
    def sources(self) -> int:
        """How many distinct sources state it."""
        claims = self.claims
        return 1 if len(claims) == 1 else len({c.source.id for c in claims})

    @property
    def anchor(self) -> str:
        """The fact's row on the page: its first claim's anchor."""
        return self.claims[0].anchor

    @property
    def lead(self) -> ClaimView | None:
        """The first claim whose verdict is the fact's (its reason and evidence are the
        fact's); None without a verdict."""
        if self.status is None:
            return None
        if len(self.claims) == 1:  # most facts: its status is its one claim's
            return self.claims[0]
        return next(c for c in self.claims if c.verdict and c.verdict.status == self.status)


class CardLine(NamedTuple):
    """One line of the summary card: an attribute with its qualifiers, the facts stated
    for it (several that can all hold agree, :attr:`agreed`), and the current observation
    with compatible qualifiers (``observed``, ``checked`` = its last sighting)."""

    attribute: str
    qualifiers: str
    facts: list[Fact]  # empty: a figure a watch read and no claim states
    observed: str | None
    checked: dt.datetime | None
    quals: dict[str, Any] = {}  # the qualifiers as stored
    observed_number: float | None = None
    # Not observed, but the claimant's own page states it (a ``stated_by`` reading, the
    # claimant_page adapter): that page's URL. Never shown as an observation.
    stated_on: str | None = None
    # The verdict rests on observations of other figures (a price change from two
    # prices, a factor from two speeds): how many; ``observed`` is then None.
    derived_from: int = 0
    # Where an observed value was read when that is not in the label (``Moonshot AI,
    # p50``; ``version: 3.0`` for evidence about another version).
    note: str = ""
    # An observed-only speed: who served it (``Moonshot AI``) and which statistic
    # (``p50``, ``median``), so a table compares like with like (:func:`speed_rank`).
    provider: str = ""
    statistic: str = ""

    @property
    def anchor(self) -> str:
        """Where the line's detail is: its first fact, else the Observed row."""
        return self.facts[0].anchor if self.facts else observed_anchor(self.attribute)

    @property
    def label(self) -> str:
        """The line's heading: a benchmark or board by its name (``Terminal-Bench 4.0``,
        ``Rank: Code Arena WebDev``), else the attribute's label with its qualifiers."""
        q = self.quals
        named = benchmark_name(self) if self.attribute == "benchmark_score" else None
        if named:
            return named
        if self.attribute == "leaderboard_rank" and set(q) == {"leaderboard"}:
            return f"Rank: {q['leaderboard']}"
        name = attribute_label(self.attribute)
        base, variant = (q.get("relative_to"), q.get("variant")) if q else (None, None)
        if base and set(q) <= {"relative_to", "variant"}:
            return f"{name} ({variant} vs {base})" if variant else f"{name} (vs {base})"
        return f"{name} ({self.qualifiers})" if self.qualifiers else name

    @property
    def short(self) -> str:
        """:attr:`text` without unit words (a table cell: ``$2.00``, ``1M``, ``2.8T``)."""
        return short_text(self.text)

    @property
    def agreed(self) -> bool:
        """No two of its facts conflict by the rule the discrepancies use
        (:func:`claims.verify.compare.values_conflict`: "by 2027-01" and "on 2027-01-15"
        can both hold); true for one fact or none (an observed-only line)."""
        return len(self.facts) <= 1 or not any_conflict(self.facts)

    @property
    def text(self) -> str:
        """The agreed value (the most precise), or the distinct values, lowest first
        when numeric."""
        if not self.facts:
            return self.observed or ""
        if self.agreed:
            return most_precise(self.facts).value
        facts = sorted(self.facts, key=lambda f: (f.number is None, f.number or 0))
        return " vs ".join(f.value for f in facts)

    @property
    def status(self) -> str | None:
        """The worst verdict of its facts."""
        return worst([f.status for f in self.facts])

    @property
    def sources(self) -> int:
        """Distinct sources over all its facts."""
        if len(self.facts) == 1:
            return self.facts[0].sources
        return len({c.source.id for f in self.facts for c in f.claims})

    @property
    def number(self) -> float | None:
        """The best-supported figure as a number (sorting, charts; :func:`best_supported`),
        None when there is none (the sources disagree, or only contradicted claims)."""
        return best_supported(self).number

    @property
    def best(self) -> Best:
        """Its best-supported value (:func:`best_supported`: the observation first)."""
        return best_supported(self)

    @property
    def stated(self) -> Best:
        """What its sources state, best supported (:func:`stated_best`)."""
        return stated_best(self)

    @property
    def base(self) -> bool:
        """About the base offering with no other qualifier (the table's cells)."""
        return not self.quals


class Best(NamedTuple):
    """A line's best-supported value (:func:`best_supported`): ``text`` as stated or
    read (units included), ``number`` to sort and chart by (None: none), ``status`` the
    verdict shown beside it (None: an observation no live claim's verdict backs),
    ``basis`` where it comes from (``observed``, ``confirmed``, ``agreed``,
    ``disagree``: the spread of live claims, ``differ``: the spread of confirmed claims
    whose observations differ, ``contradicted``: only contradicted claims,
    no number), ``contradicted`` the contradicted values (never the number) and
    ``contradicted_sources`` how many sources state them."""

    text: str
    number: float | None
    status: str | None
    basis: str
    contradicted: tuple[str, ...] = ()
    contradicted_sources: int = 0
    anchor: str = ""  # the fact giving the value (a table cell links there); "": the line's

    @property
    def disputed(self) -> bool:
        """The live claims disagree: ``text`` is their spread, no number."""
        return self.basis == "disagree"


def _spread(facts: Sequence[Fact]) -> str:
    """The distinct values, lowest first when numeric: ``1.2T vs about 3T``."""
    ordered = sorted(facts, key=lambda f: (f.number is None, f.number or 0))
    return " vs ".join(dict.fromkeys(f.value for f in ordered))


def best_supported(line: CardLine, observed: bool = True) -> Best:
    """The value a card line, table cell, compare page and chart go by, by
    support: the current observation (when it is of this very figure: one reading, no
    qualifier it states differently), else the most precise confirmed claim, else the value the
    live (not contradicted) claims agree on, else their spread ("sources disagree", no
    number); confirmed claims that cannot both hold (each by its own observation: the
    observations differ) give their spread, basis ``differ``, status ``disputed``, no
    number. A contradicted claim never supplies the value or number; it is only
    noted (``contradicted``, ``contradicted_sources``). With only contradicted claims
    and nothing observed there is no value: text ``""`` (shown as "—"), number None,
    status and basis ``contradicted``, ``anchor`` the contradicted claim's row.
    ``observed=False`` skips the observation: what the sources state that holds best
    (:func:`stated_best`)."""
    facts = line.facts
    # several different readings ("1,412 / 1,384", line_observed) are no one value
    seen = line.observed or ""
    usable = bool(seen) and (not facts or (" / " not in seen and not line.note))
    if len(facts) == 1 and not (usable and observed):
        return _one_fact(facts[0])
    dead = [f for f in line.facts if f.status == "contradicted"]
    live = [f for f in line.facts if f.status != "contradicted"]
    gone = tuple(dict.fromkeys(f.value for f in dead))
    n_dead = len({c.source.id for f in dead for c in f.claims})
    if usable and (observed or not line.facts):
        ok = [f for f in live if f.status == "confirmed"]
        status = "confirmed" if ok else worst([f.status for f in live])
        return Best(seen, line.observed_number, status, "observed", gone, n_dead)
    confirmed = [f for f in live if f.status == "confirmed"]
    if len(confirmed) > 1 and any_conflict(confirmed):  # each holds by its own reading
        return Best(_spread(confirmed), None, "disputed", "differ", gone, n_dead)
    if confirmed:
        f = most_precise(confirmed)
        return Best(f.value, f.number, "confirmed", "confirmed", gone, n_dead, f.anchor)
    status = worst([f.status for f in live])
    if live and not any_conflict(live):
        f = most_precise(live)
        return Best(f.value, f.number, status, "agreed", gone, n_dead, f.anchor)
    if live:
        return Best(_spread(live), None, status, "disagree", gone, n_dead)
    anchor = dead[0].anchor if dead else ""
    return Best("", None, "contradicted" if dead else None, "contradicted", gone, n_dead, anchor)


def _one_fact(f: Fact) -> Best:
    """:func:`best_supported` of a line with this one fact and no observation to go by
    (most lines: 60,000 calls in a 1,000-subject build, so no lists to sort through)."""
    if f.status == "contradicted":
        n_dead = len({c.source.id for c in f.claims})
        return Best("", None, "contradicted", "contradicted", (f.value,), n_dead, f.anchor)
    basis = "confirmed" if f.status == "confirmed" else "agreed"
    return Best(f.value, f.number, f.status, basis, (), 0, f.anchor)


def stated_best(line: CardLine) -> Best:
    """What the sources state, best supported (:func:`best_supported` without the
    observation): the card's Stated column and a table cell's text. An observed-only
    line (no claim) gives its observation."""
    return best_supported(line, observed=False)


def fact_value(f: Fact) -> Value:
    """The fact's value as stated (its first claim's)."""
    return Value.from_dict(f.claims[0].value_dict)


def any_conflict(facts: Sequence[Fact]) -> bool:
    """Whether two of ``facts`` (one attribute, one qualifier key) cannot both hold:
    :func:`claims.verify.compare.values_conflict` gives a rule for some pair."""
    if len(facts) < 2:  # most lines: no value to read (60,000 lines in a 1,000-subject build)
        return False
    values = [fact_value(f) for f in facts]
    return any(
        values_conflict(facts[0].attribute, a, b)[0] is not None
        for i, a in enumerate(values)
        for b in values[i + 1 :]
    )


def _width(v: Value) -> float:
    """How much ``v`` allows: days of a date's window, the span of a number's interval
    (infinite when open-ended); 0 for texts and booleans."""
    if v.kind == "date":
        lo, hi = date_window(v)
        return float((hi - lo).days) if lo is not None and hi is not None else float("inf")
    if v.numeric:
        low, high = v.interval()
        return float(high - low) if low is not None and high is not None else float("inf")
    return 0.0


def most_precise(facts: Sequence[Fact]) -> Fact:
    """The fact allowing least (:func:`_width`): of "by 2027-01", "on 2027-01" and
    "on 2027-01-15" the last; the first of equally precise ones. ``facts`` non-empty."""
    if len(facts) == 1:  # most lines: no value to read (a site build asks 60,000 times)
        return facts[0]
    return min(facts, key=lambda f: _width(fact_value(f)))


# Unit words a table cell drops (its column heading names the unit), and the exact
# count Value.display adds in parentheses ("256K (262,144) tokens").
_UNIT_WORDS = re.compile(r" per 1M tokens| tokens/s| tokens| params| points|\s\([\d,.]+\)")


@lru_cache(maxsize=8192)  # a table, card and export shorten the same figures again
def short_text(text: str) -> str:
    """``$2.00 per 1M tokens`` -> ``$2.00``; ``256K (262,144) tokens`` -> ``256K``."""
    return _UNIT_WORDS.sub("", text)


# A speed keeps its unit where no column heading names it (the card, a fact's line): its
# figures ("44.8", "180") read as nothing else; in the index heading's words.
_SPEED_UNIT = re.compile(r" tokens/s\b")


@lru_cache(maxsize=8192)
def card_text(text: str) -> str:
    """:func:`short_text` for a cell no unit heading explains (the summary card, the
    claims-by-fact lines): as short, except a speed keeps its unit as the index's
    "Output tok/s" heading words it: ``44.8 tokens/s`` -> ``44.8 tok/s``, ``1,412 tokens/s
    / 1,384 tokens/s`` -> ``1,412 / 1,384 tok/s``."""
    # two readings ("1,412 / 1,384", Observed) share one unit, after the last
    return short_text(_SPEED_UNIT.sub(" tok/s", text)).replace(" tok/s / ", " / ")


def worst(statuses: Sequence[str | None]) -> str | None:
    """The first of :data:`SEVERITY` among ``statuses`` (an unknown one counts as worst)."""
    known = [s for s in statuses if s is not None]
    if len(known) < 2:  # most facts: one claim, one verdict
        return known[0] if known else None
    return min(known, key=lambda s: SEVERITY.index(s) if s in SEVERITY else -1)


def _number(value: dict[str, Any]) -> float | None:
    if value.get("kind") == "quantity" and isinstance(value.get("value"), (int, float)):
        return float(value["value"])
    if value.get("kind") == "range" and isinstance(value.get("low"), (int, float)):
        return float(value["low"])
    return None


def make_fact(claims: list[ClaimView], qkey: tuple[Any, ...] | None = None) -> Fact:
    """One :class:`Fact` of ``claims`` (already grouped as stating the same thing)."""
    first = claims[0]
    if len(claims) == 1:  # most facts: one claim, its verdict's status
        status = first.verdict.status if first.verdict else None
    else:
        status = worst([c.verdict.status if c.verdict else None for c in claims])
    return Fact(
        first.attribute,
        first.qualifiers,
        first.value,
        claims,
        status,
        _number(first.value_dict),
        qkey if qkey is not None else qualifier_key(first.qualifiers_dict),
    )


def card_lines(
    facts: Sequence[Fact],
    observations: Sequence[ObservationView],
    organization: str | None = None,
) -> list[CardLine]:
    """The card's lines: ``facts`` (of one subject) by attribute and qualifiers, in
    :data:`CARD_ORDER`. What a line says was observed is what its verdicts cite
    (:func:`line_observed`), so the card never contradicts a verdict or the Observed
    table; attributes of :data:`OBSERVED_LINES` a watch reads and no claim states
    follow as observed-only lines (:func:`_observed_only`; a speed preferably as served
    by ``organization``, the subject's lab)."""
    lines: dict[tuple[Any, ...], list[Fact]] = {}
    for f in facts:
        lines.setdefault((f.attribute, f.qkey), []).append(f)
    by_id = {o.id: o for o in observations}
    out = []
    for (attribute, _), group in lines.items():
        quals = group[0].claims[0].qualifiers_dict
        observed, checked, stated_on, derived_from, note, number = line_observed(
            attribute, quals, group, by_id, observations
        )
        out.append(
            CardLine(
                attribute,
                group[0].qualifiers,
                group,
                observed,
                checked,
                quals,
                number,
                stated_on,
                derived_from,
                note,
            )
        )
    # an observation a verdict of its own attribute cites is on that line already
    cited = {
        (f.attribute, i)
        for f in facts
        for c in f.claims
        if c.verdict
        for i in c.verdict.evidence_ids
    }
    uncited = [o for o in observations if (o.attribute, o.id) not in cited]
    out += _observed_only(out, uncited, organization)
    rank = {a: i for i, a in enumerate(CARD_ORDER)}
    out.sort(key=lambda ln: (rank.get(ln.attribute, len(rank)), ln.attribute, ln.qualifiers))
    return out


def _claimant_page(o: ObservationView) -> bool:
    """A figure read off the claimant's own page (``stated_by``): a statement, not an
    observation of the thing itself."""
    return STATED_BY in o.qualifiers_dict


def _differing(quals: Mapping[str, Any], seen: Mapping[str, Any]) -> str:
    """The qualifiers both state differently, as text (``version: 3.0``)."""
    keys = [k for k in sorted(set(quals) & set(seen)) if str(quals[k]) != str(seen[k])]
    return qualifiers_text({k: seen[k] for k in keys})


def line_observed(
    attribute: str,
    quals: dict[str, Any],
    group: Sequence[Fact],
    by_id: Mapping[int, ObservationView],
    observations: Sequence[ObservationView],
) -> tuple[str | None, dt.datetime | None, str | None, int, str, float | None]:
    """What a card line says was observed, as ``(observed, checked, stated_on,
    derived_from, note, observed_number)`` (:class:`CardLine`'s fields; the number is
    the first cited observation's), from the observations its
    claims' verdicts cite (``by_id``: the subject's current ones by id):

    - cited observations of the line's attribute: their values (``observed``; ``note``
      names qualifiers they state differently, e.g. another benchmark version);
    - cited observations of other figures only: ``derived_from`` their count;
    - none cited: not observed; ``stated_on`` the claimant's page when it states the
      figure (the verdict's statement evidence, else a compatible ``stated_by`` reading).

    Only a line none of whose claims has a verdict yet falls back to the first
    compatible current observation."""
    claims = [c for f in group for c in f.claims]
    if not observations:  # a subject no watch reads: nothing below can be found
        cited_ids = {i for c in claims if c.verdict for i in c.verdict.evidence_ids}
        return None, None, None, len(cited_ids), "", None
    cited = list(dict.fromkeys(i for c in claims if c.verdict for i in c.verdict.evidence_ids))
    found = [by_id[i] for i in cited if i in by_id and not _claimant_page(by_id[i])]
    same = [o for o in found if o.attribute == attribute]
    if not any(c.verdict for c in claims):
        same = [
            o
            for o in observations
            if o.attribute == attribute
            and not _claimant_page(o)
            and qualifiers_compatible(attribute, quals, o.qualifiers_dict)[0]
        ][:1]
    checked = max((o.last_seen for o in found or same), default=None)
    if same:
        values = list(dict.fromkeys(o.value for o in same))
        notes = [n for n in dict.fromkeys(_differing(quals, o.qualifiers_dict) for o in same) if n]
        number = _number(same[0].value_dict)
        return " / ".join(values), checked, None, 0, "; ".join(notes), number
    if cited:
        return None, checked, None, len(cited), "", None
    said = [i for c in claims if c.verdict for i in c.verdict.statement.evidence]
    pages = [by_id[i] for i in said if i in by_id] or [
        o
        for o in observations
        if o.attribute == attribute
        and _claimant_page(o)
        and qualifiers_compatible(attribute, quals, o.qualifiers_dict)[0]
    ]
    url = next((o.source_url for o in pages if o.source_url), None)
    return None, None, url, 0, "", None


# Observed attributes the card shows even when no claim states them (the table's
# figures and the licence), read for the base offering; where and how it was read
# (provider, repo; a speed's endpoint, statistic, window, who measured) does not make
# another offering, and a line names it (``_where``).
OBSERVED_LINES = (*(a for _, a in COLUMNS.values()), "license")
_WHERE = ("provider", "repo", "endpoint", "measured_by", "statistic", "window")


def _where(quals: Mapping[str, Any]) -> str:
    """``Moonshot AI, p50``: who served an observed speed and which statistic it is
    (who measured it is on the Observed table's row)."""
    return ", ".join(str(quals[k]) for k in ("provider", "statistic") if quals.get(k))


# The statistics that are a median (OpenRouter says p50, Artificial Analysis median).
MEDIANS = frozenset({"p50", "median"})


def speed_rank(provider: str, statistic: str, organization: str | None) -> int:
    """How well an observed speed compares across subjects (lower is better): 0 the
    subject's own lab's endpoint (its ``organization`` as ``provider``) at the median,
    1 a median across providers (no provider named), 2 anything else (another
    provider's hardware, another statistic: never sorted against the others)."""
    median = statistic in MEDIANS
    if median and organization and provider.casefold() == organization.casefold():
        return 0
    return 1 if median and not provider else 2


def _rank_of(o: ObservationView, organization: str | None) -> int:
    q = o.qualifiers_dict
    return speed_rank(str(q.get("provider") or ""), str(q.get("statistic") or ""), organization)


def _observed_only(
    lines: Sequence[CardLine],
    observations: Sequence[ObservationView],
    organization: str | None = None,
) -> list[CardLine]:
    """A line per :data:`OBSERVED_LINES` attribute a watch reads for the base offering
    and no claim line covers: what the dashboard can say without a source (never a
    claimant's own page: that is a statement). A speed is the best by
    :func:`speed_rank` (the first of equals)."""
    claimed = {ln.attribute for ln in lines if ln.base}
    usable = [
        o
        for o in observations
        if o.attribute in OBSERVED_LINES
        and o.attribute not in claimed
        and not _claimant_page(o)
        and not set(o.qualifiers_dict) - set(_WHERE)
    ]
    speeds = [o for o in usable if o.attribute == "output_tokens_per_second"]
    if speeds:
        best = min(speeds, key=lambda o: _rank_of(o, organization))
        usable = [o for o in usable if o.attribute != best.attribute or o is best]
    out: list[CardLine] = []
    for o in usable:
        if o.attribute in claimed:
            continue
        claimed.add(o.attribute)
        q = o.qualifiers_dict
        speed = o.attribute == "output_tokens_per_second"
        out.append(
            CardLine(
                o.attribute,
                "",
                [],
                o.value,
                o.last_seen,
                {},
                _number(o.value_dict),
                note=_where(q) if speed else "",
                provider=str(q.get("provider") or "") if speed else "",
                statistic=str(q.get("statistic") or "") if speed else "",
            )
        )
    return out


def benchmark_name(line: CardLine) -> str | None:
    """``Terminal-Bench 4.0`` for a benchmark-score line (benchmark and version), else None."""
    if line.attribute != "benchmark_score":
        return None
    q = line.quals
    name = str(q.get("benchmark") or "").strip()
    if not name or set(q) - {"benchmark", "version"}:
        return None
    return f"{name} {q['version']}" if q.get("version") else name


def benchmark_names(lines: Sequence[CardLine]) -> list[str | None]:
    """:func:`benchmark_name` of each card line, in order."""
    return [benchmark_name(ln) for ln in lines]


def headline_benchmarks(all_names: Sequence[Sequence[str | None]]) -> list[str]:
    """The :data:`HEADLINE_BENCHMARKS` benchmarks most subjects have a score for (ties by
    name): the comparison table's score columns. ``all_names``: each subject's
    :func:`benchmark_names`."""
    counts: dict[str, int] = {}
    for names in all_names:
        for name in {n for n in names if n is not None}:
            counts[name] = counts.get(name, 0) + 1
    ranked = sorted(counts, key=lambda n: (-counts[n], n.casefold()))
    return ranked[:HEADLINE_BENCHMARKS]


# Qualifiers that say under what conditions a figure holds, not which offering: a column
# with no base figure shows such a line, naming them (``1,000–2,000+`` on Cerebras).
CONDITION_QUALIFIERS = frozenset({"hardware", "provider", "conditions"})


def column_line(lines: Sequence[CardLine], attribute: str) -> CardLine | None:
    """The line a table column shows for ``attribute``: the base offering's claimed
    figure, else one claimed under :data:`CONDITION_QUALIFIERS` only, else an
    observed-only line (the card's same line in each case); None without any."""
    mine = [ln for ln in lines if ln.attribute == attribute]
    picks = (
        [ln for ln in mine if ln.facts and ln.base],
        [ln for ln in mine if ln.facts and ln.quals and set(ln.quals) <= CONDITION_QUALIFIERS],
        [ln for ln in mine if not ln.facts],
    )
    return next((p[0] for p in picks if p), None)


def stated_license(lines: Sequence[CardLine]) -> Cell | None:
    """The licence the sources state for the base offering (its card line) as a cell,
    with its verdict (``apache-2.0``, ``unverified``): what the index, compare page and
    subject page show, marked as stated, while no watch has read a licence; None when no
    claim states one."""
    ln = next((ln for ln in lines if ln.attribute == "license" and ln.facts and ln.base), None)
    if ln is None:
        return None
    # beside an observed licence the index notes every contradicted source, this too
    return _cell(ln)._replace(contradicted=stated_best(ln).contradicted_sources)


def _cell(ln: CardLine) -> Cell:
    """A line as a table cell: the text is what the sources state, best supported
    (:func:`stated_best`; when every claim is contradicted, their figure(s) with status
    ``contradicted``, what a watch read in ``observed_text``), with that verdict;
    ``contradicted`` counts the sources of contradicted figures beside a shown one that
    holds. An observed-only line gives its reading (``observed``, no verdict). The number to sort by is the best-supported one
    (:func:`best_supported`: the observation first), ``observed_text`` what a watch
    read beside a stated figure. ``note`` says under what conditions it holds, or
    where an observed-only figure was read."""
    stated, best = stated_best(ln), best_supported(ln)
    note = ln.note if not ln.facts else ""
    if ln.facts and ln.quals and set(ln.quals) <= CONDITION_QUALIFIERS:
        note = ", ".join(str(v) for _, v in sorted(ln.quals.items()))
    if stated.basis == "differ":
        note = "observations differ"
    # an observed-only line: the reading, marked observed (no verdict)
    reading = not ln.facts
    # every claim contradicted: the stated figure with its ✗ (a trial read "— (✗ 1
    # source contradicted)" as a hidden figure), the reading beside it; it is never the
    # number sorted by (that stays the reading's, or none)
    dead = stated.basis == "contradicted"
    text = " vs ".join(stated.contradicted) if dead else stated.text
    return Cell(
        short_text(best.text if reading else text) or NO_FIGURE,
        None if reading else stated.status,
        best.number,
        stated.anchor or ln.anchor,
        stated.disputed,
        note,
        reading,
        0 if dead else stated.contradicted_sources,
        # only a reading of this very figure (not another version's, not several)
        short_text(best.text) if best.basis == "observed" and not reading else "",
        ln.provider,
        ln.statistic,
    )


# What a cell without a figure shows (the pages add the words "no figure" for
# screen readers; the CSV leaves it blank).
NO_FIGURE = "—"
SPEED = "output_tokens_per_second"


def speed_cell(lines: Sequence[CardLine], organization: str | None) -> Cell | None:
    """The speed column's cell, like with like: a claim for the base offering, else
    the observed speed of the subject's own lab's endpoint at the median, else a median
    across providers (:func:`speed_rank`). A figure for a specific provider or
    hardware (a claim under :data:`CONDITION_QUALIFIERS`, another provider's reading)
    is never the cell's value nor sorted: it is named in ``aside`` with its provider
    (``1,000–2,000+ on Cerebras WSE-3T (confirmed)``); with only such figures the
    cell shows ``—``. None without any speed."""
    mine = [ln for ln in lines if ln.attribute == SPEED]
    main = next((ln for ln in mine if ln.facts and ln.base), None) or next(
        (
            ln
            for ln in mine
            if not ln.facts and speed_rank(ln.provider, ln.statistic, organization) < 2
        ),
        None,
    )
    others = [ln for ln in mine if ln is not main and (not ln.facts or not ln.base)]
    aside = "; ".join(_aside(ln) for ln in others)
    if main is not None:
        return _cell(main)._replace(aside=aside)
    if not others:
        return None
    return Cell(NO_FIGURE, None, None, others[0].anchor, aside=aside)


RELEASED = "release_date"


def date_cell(ln: CardLine) -> Cell:
    """A date line as a table cell (:func:`_cell`), its ``number`` the proleptic
    ordinal of the first day the best-supported stated date can mean (a date has no
    number of its own: the Released column sorts by it, newest first), None when the
    sources disagree or every claim is contradicted; "on 2026-10-23" reads
    "2026-10-23" (the column is the date), "by 2027-01" keeps its relation."""
    cell = _cell(ln)
    stated = stated_best(ln)
    fact = next((f for f in ln.facts if f.anchor == stated.anchor), None)
    number = None
    if fact is not None and stated.basis in ("confirmed", "agreed"):
        number = float(fact_value(fact).as_date().toordinal())

    def bare(t: str) -> str:
        return t[3:] if t.startswith("on ") else t

    return cell._replace(
        text=bare(cell.text), number=number, observed_text=bare(cell.observed_text)
    )


def _aside(ln: CardLine) -> str:
    """A speed figure the column does not compare, with where it holds:
    ``1,000–2,000+ on Cerebras WSE-3T (confirmed)``; ``1,384 observed (Cerebras, p50)``."""
    if not ln.facts:
        return f"{short_text(ln.observed or '')} observed ({ln.note})"
    where = ", ".join(str(v) for _, v in sorted(ln.quals.items()))
    best = stated_best(ln)
    text = short_text(best.text) or NO_FIGURE
    return f"{text} on {where} ({best.status or 'no verdict yet'})"


def table_cells(
    lines: Sequence[CardLine], benchmarks: Sequence[str], organization: str | None = None
) -> dict[str, Cell]:
    """The table's cells of one subject, by column key (:data:`COLUMNS` through
    :func:`column_line`, the speed through :func:`speed_cell` with the subject's
    ``organization``, then ``score-<n>`` for each of ``benchmarks``); a column with no
    line has no cell."""
    by_bench = {benchmark_name(ln): ln for ln in lines}
    cells: dict[str, Cell] = {}
    for key, (_, attribute) in COLUMNS.items():
        line = column_line(lines, attribute)
        if attribute == SPEED:
            speed = speed_cell(lines, organization)
            if speed is not None:
                cells[key] = speed
        elif attribute == RELEASED and line is not None:
            cells[key] = date_cell(line)
        elif line is not None:
            cells[key] = _cell(line)
    for i, name in enumerate(benchmarks):
        if name in by_bench:
            cells[f"score-{i}"] = _cell(by_bench[name])
    return cells


def score_cells(lines: Sequence[CardLine]) -> dict[str, Cell]:
    """Every benchmark score of one subject as a cell, by benchmark name
    (:func:`benchmark_name`, first line of a name): the compare page shows each
    benchmark any compared subject has, not only the table's headline columns."""
    out: dict[str, Cell] = {}
    for ln in lines:
        name = benchmark_name(ln)
        if name is not None and name not in out:
            out[name] = _cell(ln)
    return out


def other_benchmarks(rows: Sequence[IndexRow], shown: Sequence[str]) -> list[OtherScores]:
    """The benchmarks ``rows`` have a score for beyond the table's columns (``shown``),
    each with the subjects that have it, by name: the index's note under the table
    says where those scores are."""
    found: dict[str, list[SubjectRef]] = {}
    for row in rows:
        for name in row.scores:
            if name not in shown:
                found.setdefault(name, []).append(SubjectRef(row.slug, row.name))
    return [OtherScores(n, found[n]) for n in sorted(found, key=str.casefold)]


class OtherScores(NamedTuple):
    """A benchmark the index has no column for, and the subjects scored on it."""

    name: str
    subjects: list[SubjectRef]


def subject_facts(
    groups: Sequence[tuple[str, list[ClaimView]]],
    value_of: Mapping[int, Value],
    qkey_of: Mapping[int, tuple[Any, ...]],
) -> list[Fact]:
    """One subject's claims (by attribute, ``groups``) as facts:
    :func:`claims.verify.compare.group_facts` on qualifiers and value
    (``value_of[claim id]``, ``qkey_of[claim id]`` its qualifier key), in the order of
    ``groups``."""
    out = []
    for attribute, claims in groups:
        grouped = group_facts(
            attribute,
            claims,
            lambda c: (c.qualifiers_dict, value_of[c.id]),
            lambda c: qkey_of[c.id],
        )
        out += [make_fact(g, qkey_of[g[0].id]) for g in grouped]
    return out


def one_per_fact(discs: Sequence[DiscrepancyView], facts: Sequence[Fact]) -> list[DiscrepancyView]:
    """``discs`` (of one subject) with those about the same fact shown as one: a figure
    an observation contradicts is stored once per claim (one per source); rows with the
    same attribute, rule and state whose claims are the same facts become the first of
    them, listing every claim and remembering the others' ids and keys (their anchors)."""
    if not discs:  # most subjects, every build
        return []
    fact_no = {c.id: i for i, f in enumerate(facts) for c in f.claims}
    kept: dict[tuple[Any, ...], DiscrepancyView] = {}
    out: list[DiscrepancyView] = []
    for d in discs:
        ids = frozenset(fact_no.get(i, -i - 1) for i in d.claim_ids)
        key = (d.attribute, d.rule, d.state, ids)
        first = kept.get(key)
        if first is None or not d.claim_ids:
            kept[key] = d
            out.append(d)
            continue
        merged = replace(
            first,
            claims=first.claims + [c for c in d.claims if c not in first.claims],
            claim_ids=first.claim_ids + [i for i in d.claim_ids if i not in first.claim_ids],
            observations=first.observations
            + [o for o in d.observations if o not in first.observations],
            merged_ids=[*first.merged_ids, d.id],
            merged_keys=[*first.merged_keys, d.key],
        )
        out[out.index(first)] = kept[key] = merged
    return out


def gated_text(observations: Sequence[ObservationView]) -> str | None:
    """The Hub's gated setting in words (``observed.GATED_WORDS``), from the first
    current ``gated`` observation; None when no watch read it."""
    return next((o.value for o in observations if o.attribute == "gated"), None)


def table_columns(benchmarks: Sequence[str]) -> list[tuple[str, str]]:
    """The comparison table's figure columns as ``(key, heading)``: :data:`COLUMNS`, then
    ``score-<n>`` for each headline benchmark."""
    columns = [(k, label) for k, (label, _) in COLUMNS.items()]
    return columns + [(f"score-{i}", name) for i, name in enumerate(benchmarks)]


def timeline_events(facts: Sequence[Fact], weights: WeightsStatus) -> list[TimelineEvent]:
    """A subject's dated events for its timeline chart: announced (release-date claims
    stated ``on`` a day), each promised weights date (:func:`promise_event`), the
    repo's creation (the Hub's ``createdAt``, when it gave one), landed (the first
    check that saw the weights) and the last Hub check (``overdue`` when the weights are overdue
    then)."""
    return timeline_from(announced_events(facts), weights)


def announced_events(facts: Sequence[Fact]) -> list[TimelineEvent]:
    """The "announced" events of :func:`timeline_events` (from the claims alone: a
    build's per-subject record keeps them, ``records.py``)."""
    out: list[TimelineEvent] = []
    for f in facts:
        value = f.claims[0].value_dict
        if f.attribute == "release_date" and value.get("relation") == "on":
            out.append(TimelineEvent("announced", _day(value["value"]), f"announced ({f.value})"))
    return out


def timeline_from(
    announced: Sequence[TimelineEvent], weights: WeightsStatus
) -> list[TimelineEvent]:
    """:func:`timeline_events` from its :func:`announced_events` and ``weights``."""
    out = list(announced)
    out += [promise_event(p.relation, p.date) for p in weights.promises]
    if weights.landed and weights.repo_created:  # the Hub's createdAt: not when we saw it
        created = _day(weights.repo_created)
        out.append(TimelineEvent("created", created, "repo created (the Hub's createdAt)"))
    if weights.landed_at:
        seen = "weights first seen" + (
            " (already listed at the first Hub check)" if weights.at_first_check else ""
        )
        out.append(TimelineEvent("landed", as_utc(weights.landed_at), seen))
    if weights.as_of and weights.overdue_days and not weights.landed:
        days = weights.overdue_days
        text = f"overdue by {days} day{'s' if days != 1 else ''} at the last Hub check"
        out.append(TimelineEvent("overdue", as_utc(weights.as_of), text))
    elif weights.as_of:
        out.append(TimelineEvent("checked", as_utc(weights.as_of), "last Hub check"))
    unique = list(dict.fromkeys(out))
    return unique


def promise_event(relation: str, date: str) -> TimelineEvent:
    """A promised weights date on the timeline. A day is drawn on that day; a month
    (``YYYY-MM``) by what it allows (:func:`claims.verify.compare.date_window`): "on
    2027-01" as the whole month (a bar from its first to its last day), "by 2027-01" at
    its deadline, the month's last day, "before" at the day before it, "after" at the
    day after it, each label saying which day that is."""
    text = f"weights promised {relation} {date}"
    if len(date) != 7:
        return TimelineEvent("promised", _day(date), text)
    lo, hi = date_window(date_value(date, relation, precision="month"))
    if lo is not None and hi is not None:
        start, end = _day(lo.isoformat()), _day(hi.isoformat())
        return TimelineEvent("promised", start, f"{text} (whole month)", end, f"{lo} – {hi}")
    if hi is not None:
        return TimelineEvent("promised", _day(hi.isoformat()), f"{text} (by {hi})")
    assert lo is not None  # "after": no upper end
    return TimelineEvent("promised", _day(lo.isoformat()), f"{text} (from {lo})")


def _day(iso: str) -> dt.datetime:
    """Midnight UTC of an ISO day (``YYYY-MM`` reads as its first day)."""
    day = iso if len(iso) > 7 else f"{iso}-01"
    return dt.datetime.fromisoformat(day[:10]).replace(tzinfo=dt.UTC)


class PromiseGroup(NamedTuple):
    """Promises of one date, relation and qualifiers (``claims.store.status.Promise``):
    ``text`` (``before 2026-11-04``, ``[variant: Mini]`` added), ``who`` (each source
    with its claimant, ``Máquina Web; Moonshot AI``)."""

    text: str
    who: list[str]


def promise_groups(promises: Sequence[Any]) -> list[PromiseGroup]:
    """``promises`` grouped by what they promise, in first-seen order: the card says
    "on 2026-11-04 (2 sources)" once, naming the sources on hover."""
    groups: dict[str, list[str]] = {}
    for p in promises:
        text = f"{p.relation} {p.date}" + (f" [{p.qualifiers_text}]" if p.qualifiers else "")
        who = p.source + (f"; {p.claimant}" if p.claimant and p.claimant != p.source else "")
        groups.setdefault(text, []).append(who)
    return [PromiseGroup(text, who) for text, who in groups.items()]


class PromiseBrief(NamedTuple):
    """The weights' promise in a few words (the index cell, compare, table export):
    ``text`` (``promised on 2026-11-04``, ``promised 2026-11-04 (sources disagree)``, or
    ``""`` with no promise) and ``detail`` (what each source promised when they
    disagree, the card's words: ``before 2026-11-04 (Máquina Web; Moonshot AI); on
    2026-11-04 (2 sources: …)``; else ``""``), shown on hover."""

    text: str
    detail: str


def promise_brief(promises: Sequence[Any]) -> PromiseBrief:
    """``promises`` (``claims.store.status.Promise``, claim order) as a
    :class:`PromiseBrief`. Sources promising different dates or relations ("before" vs
    "on") are not one promise: the brief says they disagree, with the latest date named,
    never one source's words alone."""
    if not promises:
        return PromiseBrief("", "")
    last = promises[-1]
    if len({(p.relation, p.date) for p in promises}) == 1:
        return PromiseBrief(f"promised {last.relation} {last.date}", "")
    detail = "; ".join(
        f"{g.text} ({g.who[0] if len(g.who) == 1 else f'{len(g.who)} sources: ' + ' and '.join(g.who)})"
        for g in promise_groups(promises)
    )
    latest = max(p.date for p in promises)
    return PromiseBrief(f"promised {latest} (sources disagree)", detail)


def weights_text(w: WeightsStatus) -> str:
    """The weights' state in words, as the index's weights cell reads: ``landed``
    (``, 3 days late``), ``not landed`` (``, overdue by 24 days``), ``unknown — no
    successful Hub check yet`` (a watch looks but none has succeeded: not a "no"; with
    the promise, ``; promised on 2027-01-15``, as the index shows it: :func:`promise_brief`,
    ``; promised 2026-11-04 (sources disagree)`` when they differ), or
    ``unknown — no watch looks`` (the compare page's and table export's Weights), or
    ``withdrawn — no longer public since 2026-12-03 06:00 UTC``."""
    if w.landed:
        late = w.landed_late_days
        return f"landed, {late} day{'s' if late != 1 else ''} late" if late else "landed"
    if w.withdrawn:  # was public, is no longer
        since = f" since {utc_minute(w.withdrawn_since)}" if w.withdrawn_since else ""
        return f"withdrawn — no longer public{since}"
    if not w.watched:
        return "unknown — no watch looks"
    if not w.as_of:
        brief = promise_brief(w.promises).text
        return "unknown — no successful Hub check yet" + (f"; {brief}" if brief else "")
    days = w.overdue_days
    return f"not landed, overdue by {days} day{'s' if days != 1 else ''}" if days else "not landed"
