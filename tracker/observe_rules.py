"""Rules over one watch run's values, inside its recording transaction: values a
complete listing no longer shows (``repo_disappeared``), attributes the run could not
read (stale), and one subject/attribute given two values (recorded as neither).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from sqlmodel import Session, select

from claims.events import make_event
from claims.models import Observation, dumps
from tracker.adapters.base import Fetched, ObservedValue, ParseResult

if TYPE_CHECKING:
    from tracker.observe import WatchSpec, _Outbox


def mark_gone(
    s: Session,
    outbox: _Outbox,
    spec: WatchSpec,
    attribute: str,
    listed: set[tuple[int, str, str]],
    total: int,
    at: dt.datetime,
    names: dict[int | None, str],
) -> int:
    """Mark current ``attribute`` rows of this watch that the listing no longer shows;
    returns how many, or -1 when the listing was empty (suspicious: nothing marked)."""
    rows = s.exec(
        select(Observation).where(
            Observation.watch_id == spec.id,
            Observation.attribute == attribute,
            Observation.current,
        )
    ).all()
    gone = [o for o in rows if (o.subject_id, o.attribute, o.qualifiers_json) not in listed]
    if gone and total == 0:
        return -1
    for o in gone:
        o.current = False
        s.add(o)
        repo = o.qualifiers.get("repo", "")
        outbox.add(
            make_event(
                "repo_disappeared",
                f"{names.get(o.subject_id, o.subject_id)}: {repo or attribute} is no longer "
                f"listed by {spec.name}",
                subject_id=o.subject_id,
                watch_id=spec.id,
                detail={
                    "attribute": attribute,
                    "qualifiers": o.qualifiers,
                    "last_seen": o.last_seen.isoformat(),
                    "missing_at": at.isoformat(),
                },
            )
        )
    return len(gone)


def note_stale(
    s: Session, spec: WatchSpec, pages: list[tuple[Fetched, ParseResult]], warnings: list[str]
) -> None:
    """Warn about the current values of attributes a page marks ``stale`` (e.g. a gated
    repo's file-derived values): they stay current (last good value), are not re-seen,
    and emit no event; their ``last_seen`` says when they were last confirmed."""
    stale = sorted({a for _f, p in pages for a in p.stale})
    if not stale:
        return
    for o in s.exec(
        select(Observation)
        .where(
            Observation.watch_id == spec.id,
            Observation.current,
            Observation.attribute.in_(stale),  # type: ignore[attr-defined]
        )
        .order_by(Observation.attribute, Observation.id)  # type: ignore[arg-type]
    ).all():
        warnings.append(
            f"{spec.name}: {o.attribute} {o.qualifiers_json} is stale (could not be read this "
            f"run); kept as last seen {o.last_seen.isoformat()}"
        )


def drop_conflicts(
    resolved: list[tuple[Fetched, int, ObservedValue]],
    names: dict[int | None, str],
    warnings: list[str],
) -> list[tuple[Fetched, int, ObservedValue]]:
    """Drop values where one run gives one subject/attribute/qualifiers two different
    values (e.g. two price-list keys aliased to one subject): recording either would
    make the value flip between runs and alert each time. A warning names them."""
    seen: dict[tuple[int, str, str], set[str]] = {}
    for _f, sid, ov in resolved:
        seen.setdefault((sid, ov.attribute, dumps(dict(ov.qualifiers))), set()).add(ov.value.key())
    bad = {k for k, keys in seen.items() if len(keys) > 1}
    for sid, attribute, qj in sorted(bad):
        warnings.append(
            f"{names.get(sid, sid)}: {attribute} {qj} has {len(seen[(sid, attribute, qj)])} "
            "different values in one response; none recorded (check the aliases)"
        )
    return [r for r in resolved if (r[1], r[2].attribute, dumps(dict(r[2].qualifiers))) not in bad]
