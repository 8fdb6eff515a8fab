"""Databases as release 0.1.0 made them, from SQL dumps taken of that release's `tracker demo`
(tests/data/schema/: `sqlite3 .dump` and `pg_dump --inserts`, plus one delivery and one
schedule row), for the schema upgrade tests. Variants reproduce older shapes still:
no ``claim.origin`` (before its migration 3), no scheduler tables (before migration 2),
a claim table without AUTOINCREMENT (made before ids stopped being reused)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

DUMPS = Path(__file__).resolve().parent / "data" / "schema"
SQLITE_DUMP = DUMPS / "release-0.1.0-sqlite.sql"
POSTGRESQL_DUMP = DUMPS / "release-0.1.0-postgresql.sql"

# Rows per table in both dumps (the demo of release 0.1.0).
ROWS = {
    "subject": 3, "subjectalias": 14, "subjectvariant": 2, "source": 4, "claim": 40,
    "watch": 4, "snapshot": 7, "observation": 22, "verdict": 40, "discrepancy": 3,
    "event": 8, "delivery": 1, "schedulestate": 1, "schedulerlock": 0,
}  # fmt: skip


def sqlite_release_0_1_0(
    path: Path, *, autoincrement: bool = True, origin: bool = True, scheduler: bool = True
) -> Path:
    """Write release 0.1.0's demo database to ``path`` (SQLite); the keywords take away
    what older releases lacked."""
    sql = SQLITE_DUMP.read_text()
    if not autoincrement:
        sql = sql.replace(" AUTOINCREMENT", "").replace("DELETE FROM sqlite_sequence;", "")
        sql = "\n".join(line for line in sql.splitlines() if "sqlite_sequence" not in line)
    conn = sqlite3.connect(path)
    conn.executescript(sql)
    if not origin:
        conn.execute("ALTER TABLE claim DROP COLUMN origin")
        conn.execute("DELETE FROM schemaversion WHERE version = 3")
    if not scheduler:
        conn.execute("DROP TABLE schedulerlock")
        conn.execute("DROP TABLE schedulestate")
        conn.execute("DELETE FROM schemaversion WHERE version = 2")
    conn.commit()
    conn.close()
    return path


def postgresql_release_0_1_0(url: str, *, origin: bool = True) -> None:
    """Replace everything in the PostgreSQL database at ``url`` (a SQLAlchemy URL) with
    release 0.1.0's demo database."""
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://")) as conn:
        conn.execute("DROP SCHEMA public CASCADE")
        conn.execute("CREATE SCHEMA public")
        conn.execute(POSTGRESQL_DUMP.read_text())
        conn.execute("SET search_path TO public")
        if not origin:
            conn.execute("ALTER TABLE claim DROP COLUMN origin")
            conn.execute("DELETE FROM schemaversion WHERE version = 3")


def row_counts(conn) -> dict[str, int]:
    """Rows per table of :data:`ROWS` through a SQLAlchemy connection."""
    return {t: conn.exec_driver_sql(f"SELECT count(*) FROM {t}").scalar() for t in ROWS}
