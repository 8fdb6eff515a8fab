"""Per-subject build records: what the site-wide files need of a subject's claims, kept
in the build cache so a build in a new process makes claim views only for subjects whose
input changed.

Making every subject's claim views, facts and summary card is most of a cold build
(0.7 of ~1 CPU s at 1,000 subjects × 30 claims), and a one-claim rebuild in a new
process made all of them to change one. A subject's :class:`SubjectRecord` keeps, from
its last views, exactly what the files of *other* subjects and the site-wide files take
from them: its claims digest and ``sources.html`` rows (with their digest), its claim
anchors (event links are checked against every anchor), the summary card's table
cells (with the headline benchmarks they were made for), stated licence, scores,
benchmark names and scores (the shared benchmark charts), its "announced" timeline
events and its current observations (whose "claimed by" reads its claims).

A record is used only when the subject's **input key** is the one it was made with:
the code fingerprint; the subject's id, slug, name and organization; its claim and
verdict rows' change token, which the database's triggers renew on every change
(``claims/store/changetokens.py``; without them, a digest of the rows'
aggregate, ``claims/store/sitedigest.py``);
every field of the sources its claims cite; and the observations its verdicts cite
and its own (with their snapshots, watch names and subjects' slugs). That is every
input of its claim views (``claimviews.subject_claims``' memo key) and of its card
(``summary.card_lines``: facts, current observations, organization). The key also
covers the rest of its own page's input (aliases, variants, weights status, events),
not because the record depends on them (they are read fresh every build) but so that
a subject whose page must be rendered again gets its views made. The cross-subject
parts are made fresh every build too: benchmark charts are drawn from every subject's
scores, the table's headline benchmarks chosen across subjects (a record made for other
ones is not used: the build falls back to all views), and subjects with discrepancies,
or owning a claim one names, always get their views (discrepancy pages show both sides).

A served subject whose page or JSON file must be rendered anyway (a benchmark chart it
shares changed, the file was deleted) is found once the page keys are made, before
anything is written (``build.check_served``), and the build is made again with its
views. Anything else that still reaches a served subject's claim views (a part of the
big exports not in the segment cache) meets a :class:`~tracker.website.views.Withheld`
and raises ``RecordMiss``: the build is made again with every subject's views.

The file is a pickle of each record's own pickle (the build's view types, restored
exactly; a record kept from the last build is written again as the bytes it was read
from) after a sha256 line, so a damaged file is ignored; the cache folder is trusted as
the database is (the same user writes both). Inside a record, its ``sources.html`` rows
and claim anchors are a pickle of their own, loaded on first use
(:attr:`SubjectRecord.listed`, :attr:`SubjectRecord.anchors`): a rebuild that leaves
``sources.html`` as it was and links no event to the subject never reads them, and
they were ~40 % of loading 1,000 records; the source and verdict status of each claim,
which every build counts, are kept beside them as two plain lists
(:attr:`SubjectRecord.source_ids`, :attr:`SubjectRecord.statuses`).
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claims.store.sitedigest import ClaimInput
from tracker.website.charts import TimelineEvent
from tracker.website.pagehash import key_of, to_json
from tracker.website.views import Cell, ObservationView, SourceInfo, SubjectView, Withheld

log = logging.getLogger(__name__)

RECORDS_FILE = "records.pickle"
FORMAT = 4


Listed = list[tuple[int, int, str, str, str, str | None]]


@dataclass
class SubjectRecord:
    """What the rest of the site takes from one subject's claim views (see the module
    docstring), made with the input key ``input_key``. ``listed_pickle``: its claims as
    ``sources.html`` lists them (:attr:`listed`), ``anchors_pickle`` its claims'
    anchors (:attr:`anchors`); ``source_ids`` and ``statuses``: the source and verdict
    status of each of its claims, in ``listed`` order (the sources' counts: lists of
    ints and shared strings load several times faster than pairs); ``bench``: ``(benchmark name,
    unit, score, score text)`` of each card line with a score (the shared charts'
    rows); ``cells`` were made for the headline benchmarks ``cells_for``; ``inputs``
    is the subject's ``sitedigest.ClaimInput`` it was made with. Make one with
    :meth:`made`."""

    input_key: str
    digest: str
    listed_digest: str
    listed_pickle: bytes
    source_ids: list[int]
    statuses: list[str | None]
    anchors_pickle: bytes
    names: list[str | None]
    bench: list[tuple[str, Any, float, str]]
    cells_for: list[str]
    cells: dict[str, Cell]
    license_stated: Cell | None
    scores: dict[str, Cell]
    announced: list[TimelineEvent]
    current: list[ObservationView]
    # its claim inputs when made: a next build whose change token is this digest takes
    # the cited sources and evidence from here (sitedigest.claim_inputs' ``known``)
    inputs: ClaimInput | None = None
    # the subject's row and view digests (pages.SubjectDigests) in the build that made
    # it, when they stand for a build that serves it (RecordStore.note_digests)
    row_digest: str | None = None
    view_digest: str | None = None

    @classmethod
    def made(cls, listed: Listed, anchors: list[str], **fields: Any) -> SubjectRecord:
        """A record of ``listed``: ``(source id, claim id, attribute, value, qualifiers,
        status)`` of each claim as ``sources.html`` lists it (plain tuples load several
        times faster than named ones; the subject's slug and name complete each
        ``SourceClaim``), its claims' ``anchors`` and the other ``fields``."""
        rec = cls(
            listed_pickle=pickle.dumps(listed, protocol=pickle.HIGHEST_PROTOCOL),
            source_ids=[row[0] for row in listed],
            statuses=[row[5] for row in listed],
            anchors_pickle=pickle.dumps(anchors, protocol=pickle.HIGHEST_PROTOCOL),
            **fields,
        )
        rec.__dict__[_LOADED] = {"listed": listed, "anchors": anchors}
        return rec

    @property
    def listed(self) -> Listed:
        """Its claims as ``sources.html`` lists them (see :meth:`made`)."""
        return self._load("listed", self.listed_pickle)  # type: ignore[no-any-return]

    @property
    def anchors(self) -> list[str]:
        """Its claims' anchors, in page order."""
        return self._load("anchors", self.anchors_pickle)  # type: ignore[no-any-return]

    def _load(self, name: str, data: bytes) -> Any:
        loaded = self.__dict__.setdefault(_LOADED, {})
        got = loaded.get(name)
        if got is None:
            got = loaded[name] = pickle.loads(data)  # noqa: S301  # our own cache
        return got

    def __getstate__(self) -> dict[str, Any]:
        """The fields, without what was loaded from them (unpickling then sets the
        instance's dict in C: no ``__setstate__``)."""
        state = self.__dict__.copy()
        state.pop(_LOADED, None)
        return state


# where a record keeps its listed rows and anchors once loaded: not a field (not
# compared, not pickled)
_LOADED = "_loaded"


def _observation_sig(
    o: Any, slugs: Mapping[int, str], snapshots: Mapping[int, Any], watch_names: Mapping[int, str]
) -> tuple[Any, ...]:
    snap = snapshots.get(o.snapshot_id) if o.snapshot_id else None
    return (
        o.id,
        slugs.get(o.subject_id),
        o.attribute,
        o.qualifiers_json,
        o.value_json,
        str(o.first_seen),
        str(o.last_seen),
        bool(o.current),
        o.source_url,
        (snap.url, snap.sha256, str(snap.fetched_at)) if snap else None,
        watch_names.get(o.watch_id) if o.watch_id else None,
    )


def input_keys(
    fingerprint: str,
    subjects: Iterable[Any],
    claim_inputs: Mapping[int, ClaimInput],
    sources: Mapping[int, SourceInfo],
    observations: Iterable[Any],
    snapshots: Mapping[int, Any],
    watch_names: Mapping[int, str],
    own: Mapping[int, Any],
) -> dict[int, str]:
    """Subject id -> its input key (see the module docstring), for subjects with claims
    (``claim_inputs``: ``sitedigest.claim_inputs``). ``subjects``: rows with ``id``,
    ``slug``, ``name``, ``organization``; ``observations``: every observation row;
    ``snapshots``: snapshot id -> a row with ``url``, ``sha256``, ``fetched_at``;
    ``own``: by subject id, plain data of the rest of its page's own input (aliases,
    variants, weights, events), so that a subject whose page must be rendered again
    gets its views made (not a ``RecordMiss`` and a second build)."""
    subjects = list(subjects)
    slugs = {s.id: s.slug for s in subjects}
    by_id: dict[int, Any] = {}
    observed: dict[int, list[Any]] = {}
    for o in observations:
        by_id[o.id] = o
        observed.setdefault(o.subject_id, []).append(o)

    def sig(o: Any) -> tuple[Any, ...]:
        return _observation_sig(o, slugs, snapshots, watch_names)

    # each source's key once (a subject cites ~30 of ~50), as 32 bytes: its part of a
    # subject's key is those digests joined, not the sources' fields encoded again for
    # every subject (nor 128 hex characters each: hashing those was ~4 ms per build)
    source_key = {
        i: hashlib.sha256(
            to_json(
                (i, s.key, s.title, s.url, s.publisher, s.published, s.language, s.kind)
                + (s.published_precision,)
            ).encode("utf-8")
        ).digest()
        for i, s in sources.items()
    }
    head = fingerprint.encode("utf-8") + b"\n"
    out: dict[int, str] = {}
    for s in subjects:
        got = claim_inputs.get(s.id)
        if got is None:
            continue
        observed_part = ""
        if got.evidence_ids or s.id in observed:
            observed_part = key_of(
                [sig(by_id[i]) if i in by_id else i for i in got.evidence_ids],
                [sig(o) for o in observed.get(s.id, ())],
            )
        try:
            cited = b"".join(map(source_key.__getitem__, got.source_ids))
        except KeyError:  # a source gone since (the key names it: no digest is 'missing')
            cited = b"".join(source_key.get(i) or f"missing {i}".encode() for i in got.source_ids)
        h = hashlib.sha256(head)
        h.update(to_json((s.id, s.slug, s.name, s.organization, own.get(s.id))).encode("utf-8"))
        h.update(f"\n{got.digest}\n{len(got.source_ids)}\n".encode())
        h.update(cited)
        h.update(b"\n" + observed_part.encode("ascii"))
        out[s.id] = h.hexdigest()
    return out


@dataclass
class RecordStore:
    """The records of one build cache folder (``cache_dir`` None: no file, records are
    still made and used within the build). ``kept``: by slug, as loaded; ``made``:
    this build's, saved by :meth:`save` in place of the loaded ones. ``serve`` is
    False for a build that must make every subject's views (after a ``RecordMiss``)."""

    cache_dir: Path | None
    fingerprint: str
    kept: dict[str, SubjectRecord] = field(default_factory=dict)
    made: dict[str, SubjectRecord] = field(default_factory=dict)
    serve: bool = True
    changed: bool = False
    refused: set[str] = field(default_factory=set)  # slugs whose views must be made
    # each loaded record's pickle, written again as it was when the record is kept
    # (pickling 1,000 records was 0.06 CPU s of a one-claim rebuild)
    _pickled: dict[str, bytes] = field(default_factory=dict)

    @classmethod
    def load(cls, cache_dir: Path | None, fingerprint: str) -> RecordStore:
        """The records in ``cache_dir`` made by code and templates with this
        ``fingerprint``; none when the file is missing, damaged (its sha256 line),
        of another format or fingerprint."""
        store = cls(cache_dir, fingerprint)
        if cache_dir is None:
            return store
        try:
            raw = (cache_dir / RECORDS_FILE).read_bytes()
            check, _, body = raw.partition(b"\n")
            if check.decode("ascii") != hashlib.sha256(body).hexdigest():
                return store
            data = pickle.loads(body)  # noqa: S301  # our own cache, see the docstring
            if data.get("format") == FORMAT and data.get("fingerprint") == fingerprint:
                pickled: dict[str, bytes] = data["records"]
                records = {slug: pickle.loads(raw) for slug, raw in pickled.items()}  # noqa: S301
                if all(isinstance(r, SubjectRecord) for r in records.values()):
                    store.kept, store._pickled = records, pickled
        except (
            OSError,
            ValueError,
            pickle.UnpicklingError,
            EOFError,
            AttributeError,
            KeyError,
            TypeError,
            ImportError,
            IndexError,
        ):
            store.kept = {}
        return store

    def usable(self, slug: str, key: str | None) -> SubjectRecord | None:
        """The kept record of ``slug`` when serving (and not :attr:`refused`) and made
        with input ``key``."""
        if not self.serve or key is None or slug in self.refused:
            return None
        got = self.kept.get(slug)
        return got if got is not None and got.input_key == key else None

    def known_inputs(self) -> dict[str, ClaimInput]:
        """The claim inputs of the loaded records, by digest (``sitedigest.claim_inputs``
        takes a subject's from here while its change token is the same)."""
        return {r.inputs.digest: r.inputs for r in self.kept.values() if r.inputs is not None}

    def kept_digests(
        self, subjects: Iterable[SubjectView]
    ) -> dict[str, tuple[str | None, str | None]]:
        """By slug, the row and view digests (``pages.SubjectDigests``) of the served
        subjects among ``subjects`` (their claims ``Withheld``) as their records hold
        them (:meth:`note_digests`); a view digest only while the subject shows no
        benchmark chart (drawn from other subjects' scores, which its input key does
        not cover)."""
        out: dict[str, tuple[str | None, str | None]] = {}
        for sv in subjects:
            rec = self.made.get(sv.slug)
            if rec is None or not isinstance(sv.groups, Withheld):
                continue
            shared = any(c.kind == "benchmark" for c in sv.charts)
            out[sv.slug] = (rec.row_digest, None if shared else rec.view_digest)
        return out

    def note_digests(
        self, subjects: Iterable[SubjectView], rows: Mapping[str, str], views: Mapping[str, str]
    ) -> None:
        """Note in each record made this build (not one kept from the last) its subject's
        row and view digests (by slug), for a later build that serves it: the row's
        when the subject has no discrepancy (a served one has none, and its row counts
        the open ones), the view's when it also has no subscriber event (their links
        are checked against other pages) and no benchmark chart. Everything else
        either view holds is its input key's (the code fingerprint, its own rows, its
        claims' change token and what they cite) or its record's (cells for the same
        headline benchmarks, current observations)."""
        for sv in subjects:
            rec = self.made.get(sv.slug)
            if rec is None or self.kept.get(sv.slug) is rec or sv.discrepancies:
                continue
            rec.row_digest = rows[sv.slug]
            if not sv.events and not any(c.kind == "benchmark" for c in sv.charts):
                rec.view_digest = views[sv.slug]

    def keep(self, slug: str, record: SubjectRecord) -> None:
        """``record`` is ``slug``'s after this build (served or made)."""
        if self.kept.get(slug) is not record:
            self.changed = True
        self.made[slug] = record

    def save(self) -> None:
        """Write this build's records (only the subjects it showed) when any differ from
        the loaded ones (compared by value: one made again equal is not a change);
        atomically (a temporary file renamed over it). A folder that
        cannot be written only costs time: logged as a warning."""
        if self.cache_dir is None:
            return
        if self.made.keys() == self.kept.keys() and (
            not self.changed or all(self.kept[s] == rec for s, rec in self.made.items())
        ):
            return  # the same records: a subject in a discrepancy is always made again
        pickled = {
            slug: self._pickled[slug]
            if self.kept.get(slug) is rec and slug in self._pickled
            else pickle.dumps(rec, protocol=pickle.HIGHEST_PROTOCOL)
            for slug, rec in self.made.items()
        }
        data = {"format": FORMAT, "fingerprint": self.fingerprint, "records": pickled}
        target = self.cache_dir / RECORDS_FILE
        tmp = target.with_name(f".{RECORDS_FILE}.{os.getpid()}.tmp")
        try:
            self.cache_dir.mkdir(parents=True, exist_ok=True)
            body = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
            tmp.write_bytes(hashlib.sha256(body).hexdigest().encode("ascii") + b"\n" + body)
            os.replace(tmp, target)
        except OSError as exc:
            log.warning("site build records %s not written: %s", target, exc)
            tmp.unlink(missing_ok=True)


@dataclass
class RecordPlan:
    """Which subjects a build serves from their records: ``keys`` each subject's input
    key (subjects with claims), ``served`` the usable records by subject id,
    ``inputs`` each subject's claim inputs (noted in the records this build makes)."""

    keys: dict[int, str]
    served: dict[int, SubjectRecord]
    inputs: Mapping[int, ClaimInput] = field(default_factory=dict)


def plan_records(
    store: RecordStore,
    subjects: Iterable[Any],
    keys: dict[int, str],
    discrepancies: Iterable[tuple[int, list[int]]],
    inputs: Mapping[int, ClaimInput] | None = None,
) -> RecordPlan:
    """The records of ``store`` usable for ``subjects`` (rows with ``id``, ``slug``) by
    their input ``keys``, leaving out the subjects of ``discrepancies`` (``(subject id,
    claim ids)``) and those owning a claim one names: their views are made, since
    discrepancy pages show both sides' claims. ``inputs``: the claim inputs the keys
    were made from, kept in the plan."""
    served: dict[int, SubjectRecord] = {}
    for s in subjects:
        got = store.usable(s.slug, keys.get(s.id))
        if got is not None:
            served[s.id] = got
    discs = list(discrepancies)
    if discs and served:
        owner = {row[1]: sid for sid, rec in served.items() for row in rec.listed}
        for sid, claim_ids in discs:
            served.pop(sid, None)
            for cid in claim_ids:
                served.pop(owner.get(cid, -1), None)
    return RecordPlan(keys, served, inputs or {})
