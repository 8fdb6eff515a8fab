"""Site view data: plain, already-formatted values that pages, exports and feeds read.

Built once by :func:`tracker.website.collect.collect`; no ORM objects, so templates do
cheap attribute reads and :func:`plain` turns any view into JSON for page hashes.
The per-claim views are NamedTuples: the JSON encoder writes a tuple in C, where a
dataclass costs a Python call each (30,000 claims are hashed every build). The others
are slotted dataclasses (``SourceInfo`` gets its rendered link after collect).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal
from operator import attrgetter
from typing import Any, NamedTuple

from claims.events import ALREADY_SETTLED
from claims.store.status import WeightsStatus
from claims.subjects.matching import same_name
from claims.verify.compare import DIFFERENT_SUBJECT
from claims.watchstate import WatchHealth, watch_health
from tracker.website.anchors import discrepancy_anchor
from tracker.website.marks import public_error


@dataclass(slots=True)
class SourceInfo:
    """A source as pages show it; ``link`` is its rendered link (set by the build)."""

    id: int
    key: str
    title: str
    url: str | None
    publisher: str | None
    published: str | None
    language: str | None
    kind: str
    published_precision: str | None = None  # day / month / estimated (claims.store.tables.Source)
    link: str = ""

    @property
    def published_label(self) -> str | None:
        """The publication date as far as it is known: ``2026-10-27``, ``2026-10`` for a
        month, ``c. 2026-10-27`` for an estimate (the source gives no exact date)."""
        if not self.published:
            return None
        if self.published_precision == "month":
            return self.published[:7]
        if self.published_precision == "estimated":
            return f"c. {self.published}"
        return self.published


class EvidenceView(NamedTuple):
    observation_id: int
    attribute: str
    value: str
    first_seen: dt.datetime
    last_seen: dt.datetime
    current: bool
    source_url: str | None
    sha256: str | None
    fetched_at: dt.datetime | None
    # the subject whose page holds its ``obs-<id>`` anchor (a price change cites another
    # subject's price: Kimi K3.1 Pro's change cites Kimi K3's observation)
    subject_slug: str | None = None


class StatementView(NamedTuple):
    """Whether the claimant states the figure on its own page: ``status`` yes / no /
    not checked, ``reason``, ``evidence`` (observation ids of the page's statements)."""

    status: str
    reason: str
    evidence: list[int]


class VerdictView(NamedTuple):
    status: str
    reason: str
    as_of: dt.datetime | None
    evidence: list[EvidenceView]
    evidence_ids: list[int]
    statement: StatementView = StatementView("not checked", "", [])


class ClaimView(NamedTuple):
    """One claim; ``qualifiers`` and ``value`` are display text, the ``*_dict`` fields
    the stored JSON decoded (for exports)."""

    id: int
    subject_id: int
    subject_slug: str
    subject_name: str
    attribute: str
    qualifiers: str
    qualifiers_dict: dict[str, Any]
    value: str
    value_dict: dict[str, Any]
    raw_text: str | None
    claimant: str | None
    locator: str | None
    stated_date: str | None
    source: SourceInfo
    verdict: VerdictView | None
    # its row's id on the subject page, from its content key (feeds and alerts link to
    # it): :func:`tracker.website.anchors.claim_anchor`
    anchor: str = ""
    note: str | None = None  # the curator's note, shown with the claim


class ObservationView(NamedTuple):
    """One current observation of a subject as its page and JSON export show it.

    ``qualifiers`` and ``value`` are display text (:func:`claims.vocabulary.qualifiers_text`,
    ``Value.display``), the ``*_dict`` fields the stored JSON decoded; times are UTC;
    ``watch`` is the watch's name (None when the watch is no longer stored);
    ``claimed_by`` the attribute of a claim of the subject that states it (compatible
    qualifiers, :func:`claims.verify.compare.qualifiers_compatible`) or whose verdict cites it
    as evidence, None when no claim does."""

    id: int
    attribute: str
    qualifiers: str
    qualifiers_dict: dict[str, Any]
    value: str
    value_dict: dict[str, Any]
    first_seen: dt.datetime
    last_seen: dt.datetime
    watch: str | None
    source_url: str | None
    sha256: str | None
    claimed_by: str | None


class ObservedFrom(NamedTuple):
    """Where one observation of an :class:`ObservedRow` came from."""

    watch: str | None
    source_url: str | None
    sha256: str | None


class ObservedRow(NamedTuple):
    """One row of a subject page's "Observed" table: the observations of one attribute,
    qualifiers and value (several watches may read the same), first seen the earliest,
    last seen the latest of them. ``value`` is the text shown, ``full_value`` the whole
    text when that is shortened (a digest shows its first 12 digits), else None."""

    attribute: str
    qualifiers: str
    value: str
    first_seen: dt.datetime
    last_seen: dt.datetime
    claimed_by: str | None
    sources: list[ObservedFrom]
    full_value: str | None = None
    ids: list[int] = []  # its observations (each has an ``obs-<id>`` anchor)


# Observed attributes that are the tracker's own inputs, not figures a lab states: the
# page shows them apart, under "Technical readings", each with what it is.
TECHNICAL_READINGS: dict[str, str] = {
    "hub_params_raw": "the Hub's stored-parameter count, before unpacking quantized weights "
    "(the total parameters are derived from it)",
    "license_text_sha256": "a fingerprint of the licence file's text: a new one means the "
    "text changed",
}
_DIGEST = re.compile(r"[0-9a-f]{64}")


def observed_rows(observations: list[ObservationView]) -> list[ObservedRow]:
    """``observations`` (sorted by attribute, qualifiers, value) merged into one
    :class:`ObservedRow` per attribute, qualifiers and value, in the same order."""
    rows: list[ObservedRow] = []
    for o in observations:
        src = ObservedFrom(o.watch, o.source_url, o.sha256)
        last = rows[-1] if rows else None
        if last and (last.attribute, last.qualifiers, last.full_value or last.value) == (
            o.attribute,
            o.qualifiers,
            o.value,
        ):
            rows[-1] = last._replace(
                first_seen=min(last.first_seen, o.first_seen),
                last_seen=max(last.last_seen, o.last_seen),
                sources=last.sources if src in last.sources else [*last.sources, src],
                ids=[*last.ids, o.id],
            )
        else:
            digest = _DIGEST.fullmatch(o.value) is not None
            rows.append(
                ObservedRow(
                    o.attribute,
                    o.qualifiers,
                    o.value[:12] if digest else o.value,
                    o.first_seen,
                    o.last_seen,
                    o.claimed_by,
                    [src],
                    o.value if digest else None,
                    [o.id],
                )
            )
    return rows


class Cell(NamedTuple):
    """One comparison-table cell (``summary.table_cells``): display text, verdict,
    number to sort by (None: sorts last), anchor on the subject page, whether the
    sources disagree, a note shown under the figure (the conditions it holds under,
    ``Cerebras WSE-3T``; ``Moonshot AI, p50`` for an observed speed) and whether a watch
    observed it and no live claim's verdict backs it (``observed``: no verdict to show),
    and how many sources stated another figure the evidence contradicts
    (``contradicted``: noted beside). ``text`` is what the sources state (the
    contradicted figure, status ``contradicted``, when nothing stated holds; ``—``: no
    figure), ``number`` the best-supported figure (the observation first; never a
    contradicted one).
    Fields are documented in ``docs/site-api.md``."""

    text: str
    status: str | None
    number: float | None
    anchor: str
    disputed: bool = False
    note: str = ""
    observed: bool = False
    contradicted: int = 0
    # what a watch read beside a stated figure ("" when nothing, or when ``text`` is
    # the reading itself: ``observed``)
    observed_text: str = ""
    # a speed's basis: who served it and which statistic (``Moonshot AI``, ``p50``)
    provider: str = ""
    statistic: str = ""
    # a speed figure not compared (another provider or hardware), with where it holds
    aside: str = ""


class SubjectRef(NamedTuple):
    """A subject as a link shows it."""

    slug: str
    name: str


class SourceClaim(NamedTuple):
    """A claim as ``sources.html`` lists it (only what that page shows)."""

    id: int
    subject_slug: str
    subject_name: str
    attribute: str
    value: str
    qualifiers: str
    status: str | None


@dataclass(slots=True)
class EventView:
    id: int
    key: str
    kind: str
    audience: str
    title: str
    created_at: dt.datetime
    change: str
    subject_id: int | None
    subject_slug: str | None
    subject_name: str | None
    change_why: str = ""  # ``change`` with a verdict's reason: a feed entry stands alone
    # the kind in words as readers see it (``claims.events.reader_kind``: a discrepancy
    # found already settled is not "Discrepancy resolved"; a first verdict is "First
    # verdict", not "Verdict changed": collect.py)
    label: str = ""
    # site-relative link to what it is about (``anchors.event_target``)
    target: str = ""

    @property
    def label_adds(self) -> bool:
        """Whether its kind in words says more than ``change`` does: a timeline line
        ``first verdict: overdue`` needs no ``(First verdict)`` after it."""
        return not self.change.lower().startswith(self.label.lower()) if self.label else True


@dataclass(slots=True)
class DiscrepancyView:
    id: int
    subject_id: int
    subject_slug: str
    subject_name: str
    attribute: str
    rule: str
    state: str
    reason: str
    note: str | None
    opened_at: dt.datetime
    closed_at: dt.datetime | None
    claims: list[ClaimView]
    observations: list[EvidenceView]
    claim_ids: list[int]
    observation_ids: list[int]
    # Every subject it is about: its own first, then its claims' others (a note's two).
    subjects: list[SubjectRef] = dataclasses.field(default_factory=list)
    key: str = ""  # content hash: the ``d-<key[:12]>`` anchor feeds and alerts link to
    # Stored discrepancies about the same fact shown as this one (one per source of a
    # contradicted figure): their ids and keys, so their anchors still exist.
    merged_ids: list[int] = dataclasses.field(default_factory=list)
    merged_keys: list[str] = dataclasses.field(default_factory=list)
    # Resolved when first found, never open (its one event says "found settled"): the
    # page says so instead of "opened T, closed T".
    found_settled: bool = False

    @property
    def anchor(self) -> str:
        """The key-based anchor (:func:`tracker.website.anchors.discrepancy_anchor`)."""
        return discrepancy_anchor(self.key)

    @property
    def state_label(self) -> str:
        """Its state as pages word it: ``already settled`` for one found settled (stored
        ``resolved``, never open: the README's "Disagreement already settled"), else the
        stored state (``open``, ``resolved``, ``dismissed``); the api keeps the stored one."""
        return ALREADY_SETTLED if self.found_settled else self.state

    @property
    def anchors(self) -> list[str]:
        """Anchors of the stored discrepancies merged into this one (besides its own)."""
        return [discrepancy_anchor(k) for k in self.merged_keys]

    @property
    def is_note(self) -> bool:
        """A ``different_subject`` note (stored dismissed): figures one source gives about
        two subjects, never a conflict, so pages list it apart and count it nowhere."""
        return self.rule == DIFFERENT_SUBJECT

    @property
    def other_subjects(self) -> list[SubjectRef]:
        """The subjects besides its own that its claims are about (a note's other one)."""
        return [ref for ref in self.subjects if ref.slug != self.subject_slug]

    @property
    def gone_claim_ids(self) -> list[int]:
        """Ids of the claims this discrepancy was about that are no longer stored
        (corrected or removed in their data file), so a side is not silently missing."""
        stored = {c.id for c in self.claims}
        return [i for i in self.claim_ids if i not in stored]


@dataclass(slots=True)
class IndexRow:
    """A subject as the index views show it (one table row)."""

    slug: str
    name: str
    organization: str | None
    aliases: list[str]
    weights: WeightsStatus
    open_discrepancies: int
    last_change: dt.datetime | None
    cells: dict[str, Cell] = dataclasses.field(default_factory=dict)
    gated: str | None = None  # the Hub's gated setting in words, when observed
    license_stated: Cell | None = None  # what the sources state (summary.stated_license)
    # every benchmark score by name (summary.score_cells): the compare page's rows
    scores: dict[str, Cell] = dataclasses.field(default_factory=dict)

    def other_names(self) -> list[str]:
        """The aliases shown (search's "also …"): :func:`other_names`."""
        return other_names(self.name, self.aliases)


def other_names(name: str, aliases: list[str]) -> list[str]:
    """The aliases people are shown ("also called …"): those that are not the display
    ``name`` again in other case, spacing or punctuation
    (:func:`claims.subjects.matching.same_name`; data files list the name as an alias
    so text naming it matches). Exports keep every alias."""
    return [a for a in aliases if not same_name(a, name)]


def unlinked_sources(items: Iterable[Any]) -> list[SourceInfo]:
    """The sources with no URL on record among ``items`` (claim views, which carry a
    ``source``, or sources), each once, by title: a page names them once
    (``_macros.html`` ``no_url_note``) instead of "(no URL on record)" after every
    claim they are cited for (a fresh-user trial counted 28 on one page)."""
    found: dict[str, SourceInfo] = {}
    for item in items:
        src = getattr(item, "source", item)
        if not src.url:
            found.setdefault(src.key, src)
    return sorted(found.values(), key=lambda src: (src.title.casefold(), src.key))


@dataclass(slots=True)
class SubjectView:
    """Everything a subject's page and its JSON export show; ``discrepancies`` are this
    subject's, without their sides (``claims``/``observations`` empty: both sides are
    shown on discrepancies.html only); ``observations`` its current ones (the page's
    "Observed" table, the export's ``observations``)."""

    slug: str
    name: str
    organization: str | None
    aliases: list[str]
    variants: list[str]
    weights: WeightsStatus
    open_discrepancies: int
    last_change: dt.datetime | None
    groups: list[tuple[str, list[ClaimView]]]
    events: list[EventView]
    discrepancies: list[DiscrepancyView]
    charts: list[Any]  # charts.ChartFile: price history, benchmarks, timeline
    # current observations, by attribute, qualifiers, value and watch
    observations: list[ObservationView] = dataclasses.field(default_factory=list)
    # The claims grouped by fact (``summary.Fact``), in ``groups`` order; derived from
    # ``groups``, so page keys leave it out (it would encode every claim twice).
    facts: list[Any] = dataclasses.field(default_factory=list)
    cells: dict[str, Cell] = dataclasses.field(default_factory=dict)  # comparison table
    gated: str | None = None
    license_stated: Cell | None = None  # what the sources state (summary.stated_license)
    scores: dict[str, Cell] = dataclasses.field(default_factory=dict)  # summary.score_cells

    card: list[Any] = dataclasses.field(default_factory=list)  # summary.CardLine, derived

    def other_names(self) -> list[str]:
        """The aliases shown ("also called …"): :func:`other_names`."""
        return other_names(self.name, self.aliases)

    def unlinked_sources(self) -> list[SourceInfo]:
        """The sources its claims cite that have no URL on record (:func:`unlinked_sources`)."""
        return unlinked_sources(cv for _attribute, cvs in self.groups for cv in cvs)

    def fact_groups(self) -> list[tuple[str, int, list[Any]]]:
        """``(attribute, how many claims, its facts)`` in ``groups`` order."""
        by_attribute: dict[str, list[Any]] = {}
        for f in self.facts:
            by_attribute.setdefault(f.attribute, []).append(f)
        return [(a, len(rows), by_attribute.get(a, [])) for a, rows in self.groups]

    def observed(self) -> list[ObservedRow]:
        """The "Observed" table's rows (:func:`observed_rows`), without the
        :data:`TECHNICAL_READINGS`."""
        return observed_rows(
            [o for o in self.observations if o.attribute not in TECHNICAL_READINGS]
        )

    def technical(self) -> list[ObservedRow]:
        """The :data:`TECHNICAL_READINGS` among the current observations, as rows."""
        return observed_rows([o for o in self.observations if o.attribute in TECHNICAL_READINGS])

    def row(self) -> IndexRow:
        """This subject's index row."""
        return IndexRow(
            slug=self.slug,
            name=self.name,
            organization=self.organization,
            aliases=self.aliases,
            weights=self.weights,
            open_discrepancies=self.open_discrepancies,
            last_change=self.last_change,
            cells=self.cells,
            gated=self.gated,
            license_stated=self.license_stated,
            scores=self.scores,
        )


class SourceListing:
    """Every source's claims as ``sources.html`` lists them (source id -> rows), made by
    ``make`` on first use: only that page shows them, and its key reads the counts and
    a digest instead, so a rebuild that leaves it as it was never sorts the 30,000
    rows (~20 ms of a one-claim rebuild in a new process)."""

    __slots__ = ("_make", "_made")

    def __init__(self, make: Callable[[], dict[int, list[SourceClaim]]]) -> None:
        self._make: Callable[[], dict[int, list[SourceClaim]]] | None = make
        self._made: dict[int, list[SourceClaim]] | None = None

    def of(self, source_id: int) -> list[SourceClaim]:
        """The claims of source ``source_id`` (empty when it makes none)."""
        if self._made is None:
            assert self._make is not None
            self._made, self._make = self._make(), None
        return self._made.get(source_id, [])


@dataclass(slots=True)
class SourceView:
    """A source on ``sources.html``: its claims (made on first use, from ``listing``)
    and their count by verdict status ("none": no verdict)."""

    source: SourceInfo
    counts: dict[str, int]
    listing: SourceListing

    @property
    def claims(self) -> list[SourceClaim]:
        """Its claims by attribute and id (the claim rows' order)."""
        return self.listing.of(self.source.id)


@dataclass(slots=True)
class WatchView:
    name: str
    url: str
    adapter: str
    state: str
    last_run: dt.datetime | None
    last_success: dt.datetime | None
    consecutive_failures: int
    failing_since: dt.datetime | None
    last_error: str | None
    last_error_kind: str | None
    skip_reason: str | None = None  # why the last cycle skipped it (a check clears it)
    schedule: str = ""
    next_run: dt.datetime | None = None
    next_run_kind: str | None = None  # scheduled / due / retry (tracker.schedule.watchlist)
    missed: int | None = None  # runs the latest catch-up replaced (runs_missed event)
    caught_up_at: dt.datetime | None = None

    @property
    def health(self) -> WatchHealth:
        """Its state and current error (:func:`claims.watchstate.watch_health`)."""
        return watch_health(
            self.state,
            self.consecutive_failures,
            self.last_error,
            self.last_error_kind,
            skip_reason=self.skip_reason,
        )

    @property
    def state_text(self) -> str:
        """The state with its run of failures (:meth:`claims.watchstate.WatchHealth.text`)."""
        return self.health.text()

    @property
    def state_class(self) -> str:
        """The word the page styles the state by: ``retrying``, ``skipped``, ``failing``..."""
        return self.health.state

    @property
    def current_error(self) -> str | None:
        """Its error while it is current (the last check failed), else None."""
        return self.health.error

    @property
    def shown_error(self) -> str | None:
        """:attr:`current_error` as the published page shows it: a local file path cut to
        its file name (:func:`tracker.website.marks.public_error`)."""
        error = self.current_error
        return public_error(error) if error else error

    @property
    def state_parts(self) -> tuple[str, str]:
        """:attr:`state_text` as the page's narrow State column shows it: the state word
        and, below it, the run of failures: ``("retrying", "1 failure in a row")``
        (``""`` when there is none)."""
        text = self.state_text
        word, sep, rest = text.partition(" (")
        if sep and rest.endswith(")") and ")" not in rest[:-1]:
            return word, rest[:-1]
        return text, ""

    @property
    def skipped(self) -> str | None:
        """Why the last cycle skipped it (``TRACKER_AA_API_KEY not set``), else None."""
        return self.health.skipped


@dataclass(slots=True)
class SiteContext:
    """Everything a build shows; ``data_as_of`` is the latest successful watch check,
    ``latest_check`` the latest check attempt (successful or not), both UTC or None."""

    subjects: list[SubjectView]
    discrepancies: list[DiscrepancyView]
    sources: list[SourceView]
    watches: list[WatchView]
    events: list[EventView]
    data_as_of: dt.datetime | None
    latest_check: dt.datetime | None = None
    benchmarks: list[str] = dataclasses.field(default_factory=list)  # table score columns
    # slug -> pagehash.key_of(its groups), made with the views (claimviews.py)
    claim_digests: dict[str, str] = dataclasses.field(default_factory=dict)
    # pagehash.key_of of every claim as sources.html lists it, with its source's key
    # (each subject's SubjectClaims.listed_digest): that page's claims, without
    # encoding 30,000 of them to key it
    listed_digest: str = ""


class RecordMiss(Exception):  # noqa: N818  # a signal, caught by build_site
    """A build reached the claim views, facts or summary card of a subject whose
    per-subject record (``records.py``) stood in for them: ``build_site`` catches it
    and builds again, making the views of ``subjects`` (slugs) when given, else of
    every subject, so a record can cost time, never leave a file made without its
    data."""

    def __init__(self, message: str, subjects: frozenset[str] = frozenset()) -> None:
        super().__init__(message)
        self.subjects = subjects


class Withheld:
    """Stands in for a record-served subject's ``groups``, ``facts`` and ``card``
    (``records.py``): iterating, indexing, sizing, testing or hashing it as page data
    (:func:`plain`) raises :class:`RecordMiss`. Not a list on purpose: the JSON
    encoder would read a list subclass's items without calling any of its methods."""

    __slots__ = ("what",)

    def __init__(self, what: str) -> None:
        self.what = what

    def refuse(self, *args: Any) -> Any:
        """Raise :class:`RecordMiss` naming what was withheld."""
        raise RecordMiss(f"{self.what} withheld: served by its build record")

    __iter__ = __len__ = __getitem__ = __bool__ = __contains__ = refuse


_FIELDS: dict[type, Callable[[Any], Any]] = {Withheld: Withheld.refuse}


def _field_getter(kind: type) -> Callable[[Any], Any]:
    names = [f.name for f in dataclasses.fields(kind)]
    if len(names) == 1:
        return lambda obj: (getattr(obj, names[0]),)
    return attrgetter(*names)  # one C call returns every field, in field order


def plain(obj: Any) -> Any:
    """``json.dumps(default=plain)``: a dataclass as the tuple of its field values (in
    field order: the classes here are part of the code fingerprint), datetimes and
    decimals as text. Raises TypeError for anything else, so nothing is skipped."""
    kind = type(obj)
    getter = _FIELDS.get(kind)
    if getter is None:
        if isinstance(obj, dt.datetime):
            return obj.isoformat()
        if isinstance(obj, Decimal):
            return str(obj)
        if not dataclasses.is_dataclass(kind):
            raise TypeError(f"not plain data: {kind.__name__}")
        getter = _FIELDS[kind] = _field_getter(kind)
    return getter(obj)
