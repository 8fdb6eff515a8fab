"""Two processes storing the same event at once, through the real writer
(claims.store.outbox.add_event on an ORM session, as verification and review do), with
the interleaving forced: A inserts and holds its transaction open; B's lookup then finds
nothing, B inserts, and only then does A commit. B's INSERT meets A's row: the
``ON CONFLICT (key) DO NOTHING`` is what lets it succeed. Used by tests/test_outbox.py."""

from __future__ import annotations

import time
from typing import Any

from sqlmodel import Session

from claims.events import event_row
from claims.store.engine import make_engine
from claims.store.outbox import add_event
from claims.values.canonical import utcnow


def the_event() -> dict[str, Any]:
    """One event both processes record (same content, so the same key)."""
    return event_row(
        "watch_recovered", "Watch hf-kimi works again", detail={"watch": "hf-kimi"}, at=utcnow()
    )


def _pg_lock_waiters(url: str) -> int:
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://")) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        ).fetchone()
        return int(row[0]) if row else 0


def writer_a(db: str, a_inserted: Any, b_inserting: Any, out: Any) -> None:
    """Insert, tell B, and commit once B is inserting (SQLite: B's statement began;
    PostgreSQL: B waits on A's row lock)."""
    engine = make_engine(db)
    with Session(engine) as session:
        added = add_event(session, the_event())
        a_inserted.set()
        if db.startswith("postgresql"):
            # B is blocked inside its INSERT, so it cannot say so itself, and PostgreSQL
            # has no notification for "a session waits on my row lock": ask the server
            # (bounded; SQLite below uses B's statement trace, a real signal).
            deadline = time.monotonic() + 60
            while _pg_lock_waiters(db) == 0 and time.monotonic() < deadline:
                time.sleep(0.01)
            b_was_inserting = _pg_lock_waiters(db) > 0
        else:
            b_was_inserting = b_inserting.wait(60)
        session.commit()
    engine.dispose()
    out.put(("a", added))
    out.put(("b inserted before a committed", int(b_was_inserting)))


def writer_b(db: str, a_inserted: Any, b_inserting: Any, out: Any) -> None:
    """Wait for A's uncommitted row, then store the same event."""
    engine = make_engine(db)
    a_inserted.wait(60)
    with Session(engine) as session:
        if not db.startswith("postgresql"):
            raw = session.connection().connection.driver_connection

            def traced(sql: str) -> None:
                if sql.startswith("INSERT INTO event"):
                    b_inserting.set()

            raw.set_trace_callback(traced)
        added = add_event(session, the_event())
        session.commit()
    engine.dispose()
    out.put(("b", added))
