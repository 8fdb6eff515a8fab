"""Rules over one watch run's values, inside its recording transaction: values a
complete listing no longer shows (``repo_disappeared``), attributes the run could not
read (stale), and one subject/attribute given two values (recorded as neither).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import TYPE_CHECKING

from claims.events import event_row, gone_event
from claims.store.rawdb import RawDB
from tracker.adapters.base import ObservedValue, ParseResult
from tracker.net.response import Fetched

if TYPE_CHECKING:
    from claims.store.outbox import Outbox
    from tracker.cycle.types import NameLookup, WatchSpec


_CURRENT_OF = (
    "SELECT id, subject_id, attribute, qualifiers_json, last_seen FROM observation "
    "WHERE watch_id = :wid AND attribute = :attribute AND current ORDER BY id"
)
_RETIRE = "UPDATE observation SET current = :cur WHERE id = :oid"
_WEIGHTS_ROWS = (
    "SELECT qualifiers_json, value_json FROM observation WHERE subject_id = :sid "
    "AND attribute = 'weights_available'"
)


def renamed_to(s: RawDB, subject_id: int, repo: str) -> str | None:
    """The new id of ``repo`` when a model watch saw it renamed or transferred (a row
    of the subject whose value says ``renamed_from`` = ``repo``), else None."""
    for qj, vj in s.execute(_WEIGHTS_ROWS, {"sid": subject_id}).fetchall():
        if json.loads(vj).get("extra", {}).get("renamed_from") == repo:
            return json.loads(qj).get("repo")
    return None


def listing_place(spec: WatchSpec) -> str:
    """Where a listing no longer shows a value, in the source's own names (never the
    watch's): ``no longer listed in the Hugging Face org auralis`` for a Hub org
    listing (param ``org`` / ``author``, else the URL's ``author=``), else ``no longer
    listed at URL``."""
    from urllib.parse import parse_qs, urlsplit

    org = spec.params.get("org") or spec.params.get("author")
    if not org:
        org = next(iter(parse_qs(urlsplit(spec.url).query).get("author", [])), None)
    if spec.adapter == "huggingface_org" and isinstance(org, str) and org:
        return f"no longer listed in the Hugging Face org {org}"
    return f"no longer listed at {spec.url}"


def mark_gone(
    s: RawDB,
    outbox: Outbox,
    spec: WatchSpec,
    attribute: str,
    listed: set[tuple[int, str, str]],
    total: int,
    at: dt.datetime,
    names: NameLookup,
) -> int:
    """Mark current ``attribute`` rows of this watch that the listing no longer shows;
    returns how many, or -1 when the listing was empty (suspicious: nothing marked)."""
    rows = s.execute(_CURRENT_OF, {"wid": spec.id, "attribute": attribute}).fetchall()
    gone = [r for r in rows if (r[1], r[2], r[3]) not in listed]
    if gone and total == 0:
        return -1
    s.executemany(_RETIRE, [{"oid": r[0], "cur": False} for r in gone])
    for _oid, subject_id, _attribute, qj, last_seen in gone:
        qualifiers = json.loads(qj)
        repo = qualifiers.get("repo", "")
        seen = s.datetime(last_seen)
        assert seen is not None
        ev = gone_event(
            str(names.get(subject_id, subject_id)), repo or attribute, listing_place(spec),
            attribute,
            qualifiers, seen, at, renamed_to(s, subject_id, repo) if repo else None,
        )  # fmt: skip
        if ev is not None:
            outbox.add(
                event_row(ev.kind, ev.title, subject_id=subject_id, watch_id=spec.id,
                          detail=ev.detail, at=at)
            )  # fmt: skip
    return len(gone)


def note_stale(
    s: RawDB, spec: WatchSpec, pages: list[tuple[Fetched, ParseResult]], warnings: list[str]
) -> None:
    """Warn about the current values of attributes a page marks ``stale`` (e.g. a gated
    repo's file-derived values): they stay current (last good value), are not re-seen,
    and emit no event; their ``last_seen`` says when they were last confirmed."""
    stale = sorted({a for _f, p in pages for a in p.stale})
    if not stale:
        return
    marks = ", ".join(f":a{i}" for i in range(len(stale)))
    rows = s.execute(
        "SELECT attribute, qualifiers_json, last_seen FROM observation WHERE watch_id = :wid "
        f"AND current AND attribute IN ({marks}) ORDER BY attribute, id",
        {"wid": spec.id, **{f"a{i}": a for i, a in enumerate(stale)}},
    ).fetchall()
    for attribute, qj, last_seen in rows:
        seen = s.datetime(last_seen)
        assert seen is not None
        warnings.append(
            f"{spec.name}: {attribute} {qj} is stale (could not be read this "
            f"run); kept as last seen {seen.isoformat()}"
        )


def drop_conflicts(
    resolved: list[tuple[Fetched, int, ObservedValue]],
    names: NameLookup,
    warnings: list[str],
) -> list[tuple[Fetched, int, ObservedValue]]:
    """Drop values where one run gives one subject/attribute/qualifiers two different
    values (e.g. two price-list keys aliased to one subject): recording either would
    make the value flip between runs and alert each time. A warning names them."""
    seen: dict[tuple[int, str, str], set[str]] = {}
    for _f, sid, ov in resolved:
        seen.setdefault((sid, ov.attribute, ov.qualifiers_json), set()).add(ov.value.key())
    bad = {k for k, keys in seen.items() if len(keys) > 1}
    for sid, attribute, qj in sorted(bad):
        warnings.append(
            f"{names.get(sid, sid)}: {attribute} {qj} has {len(seen[(sid, attribute, qj)])} "
            "different values in one response; none recorded (check the aliases)"
        )
    if not bad:
        return resolved
    return [r for r in resolved if (r[1], r[2].attribute, r[2].qualifiers_json) not in bad]
