"""Event rows to human text: what changed, from what to what (site, feeds, alerts).

Also a watch's health and schedule in words.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from claims.values.value import Value, ValueError_
from claims.vocabulary import attribute_label
from claims.watchstate import watch_health

if TYPE_CHECKING:  # site rows or the ORM's (alerts)
    from claims.store.rows import EventRow
    from claims.store.tables import Event


def show_value(raw: Any) -> str:
    """A stored value for people: Value dicts via ``Value.display()``, others as text."""
    if raw is None:
        return "nothing"
    if isinstance(raw, dict) and "kind" in raw:
        try:
            return Value.from_dict(raw).display()
        except ValueError_:
            pass
    if isinstance(raw, bool):
        return "yes" if raw else "no"
    if isinstance(raw, (dict, list)):
        return json.dumps(raw, sort_keys=True, ensure_ascii=False)
    return str(raw)


def event_detail(event: Event | EventRow) -> dict[str, Any]:
    """The event's ``detail_json`` as a dict (an unreadable one yields ``{}``)."""
    try:
        detail = json.loads(event.detail_json or "{}")
    except json.JSONDecodeError:
        return {}
    return detail if isinstance(detail, dict) else {}


def describe_change(event: Event | EventRow, *, why: bool = False) -> str:
    """One line saying what changed, e.g. ``Licence: modified-mit → apache-2.0``
    (attribute names as labels, :func:`claims.vocabulary.attribute_label`).

    Reads ``detail`` keys ``summary`` (a ready text, e.g. a many-row price diff), a verdict
    change's ``from``/``to`` (with its ``reason`` when ``why``: an alert stands alone,
    a page shows the reason beside the claim), a dismissal's ``note``, else
    ``attribute``, ``from``, ``to`` (see ``claims.events.make_event``); falls back to
    ``status``/``reason``/``repo`` and finally to the event title.
    """
    detail = event_detail(event)
    if isinstance(detail.get("summary"), str) and detail["summary"]:
        return str(detail["summary"])
    what = detail.get("attribute") or detail.get("field") or ""
    what = attribute_label(str(what)) if what else ""
    if event.kind == "verdict_changed" and "to" in detail:
        # not "nothing → confirmed"; and why, which an alert otherwise never said
        change = (
            f"first verdict: {show_value(detail.get('to'))}"
            if detail.get("from") is None
            else f"{show_value(detail.get('from'))} → {show_value(detail.get('to'))}"
        )
        return f"{change}: {detail['reason']}" if why and detail.get("reason") else change
    if event.kind == "discrepancy_dismissed" and detail.get("note"):
        return f"dismissed by a reviewer: {detail['note']}"
    if "from" in detail or "to" in detail:
        change = f"{show_value(detail.get('from'))} → {show_value(detail.get('to'))}"
        return f"{what}: {change}" if what else change
    parts = [str(detail[k]) for k in ("repo", "status", "reason") if detail.get(k)]
    if parts:
        return f"{what}: {'; '.join(parts)}" if what else "; ".join(parts)
    return event.title


def schedule_text(interval_minutes: int, params: dict[str, Any]) -> str:
    """A watch's schedule as ``tracker watches`` and the watches page show it: ``cron
    <expr> UTC`` (or its ``timezone``: ``cron 0 0 * * * America/Los_Angeles``), ``every
    N h`` (whole hours: 360 min -> ``every 6 h``) or ``every N min``."""
    cron = params.get("cron")
    if cron:
        return f"cron {cron} {params.get('timezone') or 'UTC'}"
    if interval_minutes >= 60 and interval_minutes % 60 == 0:
        return f"every {interval_minutes // 60} h"
    return f"every {interval_minutes} min"


def watch_state_text(state: str, failures: int, skipped: str | None = None) -> str:
    """A watch's state with its run of failures, as ``tracker watches`` and the site's
    watches page show it (:meth:`claims.watchstate.WatchHealth.text`, the rules in
    :mod:`claims.watchstate`): ``ok``, ``retrying (2 failures in a row)``, ``failing (4 in
    a row)``, ``skipped: TRACKER_AA_API_KEY not set``, ``retired``. ``skipped``: why the
    last cycle skipped it (its ``skip_reason``)."""
    return watch_health(state, failures, skip_reason=skipped).text()


def watch_state_class(state: str, failures: int, skipped: str | None = None) -> str:
    """The word the watches page styles a state by: the state of
    :func:`claims.watchstate.watch_health` (``retrying``, ``skipped``, ``failing``...)."""
    return watch_health(state, failures, skip_reason=skipped).state
