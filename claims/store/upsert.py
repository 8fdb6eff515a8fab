"""Rows keyed on what they are, written so that racing writers settle instead of failing:
``INSERT … ON CONFLICT (key) DO UPDATE`` on SQLite (3.24+) and PostgreSQL alike.

Used by verification for verdicts (one per claim) and discrepancies (one per content
key): any number of concurrent ``tracker verify`` runs each end with one row per key
(a check-then-insert let all but the first fail on the unique index, issue 20 item 7).
Events use the outbox's ``DO NOTHING`` instead (:mod:`claims.store.outbox`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite


def upsert(
    session: Any,
    model: Any,
    values: Mapping[str, Any],
    keys: Iterable[str],
    update: Iterable[str],
    where: Any = None,
) -> int | None:
    """Insert ``values`` into ``model``'s table or, when a row with the same ``keys``
    (the columns of a unique index) exists, set its ``update`` columns to these values
    (only where ``where``, a SQL condition on the stored row, holds). Runs in the
    session's transaction; returns the row's ``id``, or None when ``where`` kept the
    stored row as it was."""
    table = model.__table__
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    stmt = dialect.insert(table).values(**values)
    stmt = stmt.on_conflict_do_update(
        index_elements=list(keys),
        set_={c: stmt.excluded[c] for c in update},
        where=where,
    ).returning(table.c.id)
    return session.execute(stmt).scalar()
