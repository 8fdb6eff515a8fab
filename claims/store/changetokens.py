"""Per-subject change tokens of the claim rows, kept by the database's own triggers.

The site build keeps per-subject records (``tracker/website/records.py``) and must know
which subjects' claim and verdict rows changed since it made them. Instead of digesting
every row each build (:mod:`claims.store.sitedigest`'s aggregate: 0.1 s of a 0.45 s
one-claim rebuild at 30,000 claims), the database keeps a token per subject in
``subjectclaimstoken`` (:class:`claims.store.tables.SubjectClaimsToken`): triggers on
``claim`` and ``verdict`` set the subject's token to a **new random value** on every
insert and delete, and on every update that really changes a column the site shows
(:data:`CLAIM_WATCHED`, :data:`VERDICT_WATCHED`; a verdict written again with the same
values, e.g. only ``checked_at`` moving, leaves it). An update that moves a claim (or a
verdict) to another subject renews both subjects' tokens. Every writer is covered (the
ORM, plain SQL, the cycle's DB-API path): the database runs the triggers.

Random, not a counter: a database restored from a backup and then edited never gives a
token a build cache saw with other rows. A token changing without the content changing
(an edit undone) only costs the build time. On PostgreSQL ``TRUNCATE`` of either table
(which runs no row trigger) renews every token (a statement trigger). SQLite has no
``TRUNCATE``; its ``DELETE`` without ``WHERE`` runs the row triggers once triggers exist.

Schema revision 0007 adds the table and triggers to an existing database (with a token
for every subject that has claims); a new database gets them from
:func:`claims.store.migrate.upgrade` through :func:`install` (tests/test_migrations.py
checks both ways give the same triggers). SQLite drops a table's triggers when a
revision rebuilds the table (``batch_alter_table`` copy and rename): such a revision
must create them again; until then :func:`read_tokens` finds them missing and the build
digests every row instead, as it does for a PostgreSQL role that may not read the token
table (a read-only role granted ``SELECT`` before the table existed). Needs SQLite 3.24
or later (upserts, which verification needs too) and PostgreSQL 13 or later
(``gen_random_uuid`` in core).
"""

from __future__ import annotations

from typing import Any

from claims.store.rawdb import RawDB
from claims.store.siteread import CLAIM_COLUMNS

TABLE = "subjectclaimstoken"

# The claim columns the site's claim read shows (siteread.CLAIM_COLUMNS) and the
# verdict's, with the column joining a verdict to its claim.
CLAIM_WATCHED = tuple(c.split(".")[1] for c in CLAIM_COLUMNS if c.startswith("claim."))
VERDICT_WATCHED = ("claim_id",) + tuple(
    c.split(".")[1] for c in CLAIM_COLUMNS if c.startswith("verdict.")
)

# Trigger names by dialect: the build uses the tokens only when all of them are there
# (and, on PostgreSQL, enabled).
SQLITE_TRIGGERS = (
    "claimstoken_claim_insert",
    "claimstoken_claim_delete",
    "claimstoken_claim_update",
    "claimstoken_verdict_insert",
    "claimstoken_verdict_delete",
    "claimstoken_verdict_update",
)
POSTGRES_TRIGGERS = (
    "claimstoken_claim_write",
    "claimstoken_claim_update",
    "claimstoken_claim_truncate",
    "claimstoken_verdict_write",
    "claimstoken_verdict_update",
    "claimstoken_verdict_truncate",
)
_SQLITE_RANDOM = "lower(hex(randomblob(16)))"


def _changed(columns: tuple[str, ...], op: str) -> str:
    return " OR ".join(f"OLD.{c} {op} NEW.{c}" for c in columns)


def _sqlite_touch(rows: str) -> str:
    # ``rows`` selects (subject id, new token). An upsert: its DO UPDATE holds whatever
    # conflict policy the outer statement names (an INSERT OR IGNORE on claim would
    # make an inner INSERT OR REPLACE ignore); a tenth of the time of UPDATE + INSERT
    return (
        f"INSERT INTO {TABLE} (subject_id, token) {rows} "
        "ON CONFLICT (subject_id) DO UPDATE SET token = excluded.token; "
    )


def _claim_subject(row: str) -> str:
    # the WHERE also keeps SQLite from reading ON CONFLICT as a join's ON
    return f"SELECT {row}.subject_id, {_SQLITE_RANDOM} WHERE {row}.subject_id IS NOT NULL"


def _verdict_subject(row: str) -> str:
    return f"SELECT subject_id, {_SQLITE_RANDOM} FROM claim WHERE id = {row}.claim_id"


def sqlite_statements() -> list[str]:
    """The ``CREATE TRIGGER`` statements of SQLite (the table is the model's)."""
    claim_changed = _changed(CLAIM_WATCHED, "IS NOT")
    verdict_changed = _changed(VERDICT_WATCHED, "IS NOT")
    old_v, new_v = _verdict_subject("OLD"), _verdict_subject("NEW")
    old_c, new_c = _claim_subject("OLD"), _claim_subject("NEW")
    return [
        f"CREATE TRIGGER claimstoken_claim_insert AFTER INSERT ON claim "
        f"BEGIN {_sqlite_touch(new_c)}END",
        f"CREATE TRIGGER claimstoken_claim_delete AFTER DELETE ON claim "
        f"BEGIN {_sqlite_touch(old_c)}END",
        f"CREATE TRIGGER claimstoken_claim_update AFTER UPDATE ON claim "
        f"WHEN {claim_changed} "
        f"BEGIN {_sqlite_touch(old_c)}{_sqlite_touch(new_c)}END",
        f"CREATE TRIGGER claimstoken_verdict_insert AFTER INSERT ON verdict "
        f"BEGIN {_sqlite_touch(new_v)}END",
        f"CREATE TRIGGER claimstoken_verdict_delete AFTER DELETE ON verdict "
        f"BEGIN {_sqlite_touch(old_v)}END",
        f"CREATE TRIGGER claimstoken_verdict_update AFTER UPDATE ON verdict "
        f"WHEN {verdict_changed} "
        f"BEGIN {_sqlite_touch(old_v)}{_sqlite_touch(new_v)}END",
    ]


# PL/pgSQL keeps each statement's plan; an SQL-language helper called per row was
# planned at every call (30,000 verdict updates: 2.2 s, against 0.15 s without triggers)
_PG_FUNCTIONS = (
    f"""CREATE FUNCTION claimstoken_claim() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO {TABLE} (subject_id, token) VALUES (OLD.subject_id, gen_random_uuid()::text)
    ON CONFLICT (subject_id) DO UPDATE SET token = EXCLUDED.token;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO {TABLE} (subject_id, token) VALUES (NEW.subject_id, gen_random_uuid()::text)
    ON CONFLICT (subject_id) DO UPDATE SET token = EXCLUDED.token;
  END IF;
  RETURN NULL;
END $$""",
    f"""CREATE FUNCTION claimstoken_verdict() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO {TABLE} (subject_id, token)
    SELECT subject_id, gen_random_uuid()::text FROM claim WHERE id = OLD.claim_id
    ON CONFLICT (subject_id) DO UPDATE SET token = EXCLUDED.token;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO {TABLE} (subject_id, token)
    SELECT subject_id, gen_random_uuid()::text FROM claim WHERE id = NEW.claim_id
    ON CONFLICT (subject_id) DO UPDATE SET token = EXCLUDED.token;
  END IF;
  RETURN NULL;
END $$""",
    f"""CREATE FUNCTION claimstoken_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE {TABLE} SET token = gen_random_uuid()::text;
  RETURN NULL;
END $$""",
)


def postgres_statements() -> list[str]:
    """The functions and ``CREATE TRIGGER`` statements of PostgreSQL."""
    out = list(_PG_FUNCTIONS)
    for table, watched in (("claim", CLAIM_WATCHED), ("verdict", VERDICT_WATCHED)):
        fn = f"claimstoken_{table}()"
        out += [
            f"CREATE TRIGGER claimstoken_{table}_write AFTER INSERT OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION {fn}",
            f"CREATE TRIGGER claimstoken_{table}_update AFTER UPDATE ON {table} "
            f"FOR EACH ROW WHEN ({_changed(watched, 'IS DISTINCT FROM')}) "
            f"EXECUTE FUNCTION {fn}",
            f"CREATE TRIGGER claimstoken_{table}_truncate AFTER TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION claimstoken_truncate()",
        ]
    return out


def install(connection: Any) -> None:
    """Create the triggers (and PostgreSQL's functions) on ``connection`` (a SQLAlchemy
    Connection, in its transaction), for a database whose tables were just made from
    the models; the token table is one of them. Tokens are made as claims arrive."""
    sqlite = connection.dialect.name == "sqlite"
    for sql in sqlite_statements() if sqlite else postgres_statements():
        connection.exec_driver_sql(sql)


_PG_ENABLED = (
    "SELECT tgname FROM pg_trigger "
    "WHERE tgrelid IN ('claim'::regclass, 'verdict'::regclass) AND tgenabled IN ('O', 'A') "
    f"AND has_table_privilege(to_regclass('{TABLE}'), 'SELECT')"
)


def read_tokens(raw: RawDB) -> dict[int, str] | None:
    """Subject id -> its token, or None when the triggers that keep them are not all
    in place (a database made otherwise than by :func:`claims.store.migrate.upgrade`,
    triggers dropped, or disabled on PostgreSQL; the tokens may then be stale) or, on
    PostgreSQL, this role may not read the token table. Two
    small queries; the triggers are looked up first so a missing table never makes a
    failed statement (which would end a PostgreSQL transaction)."""
    if raw.dialect == "sqlite":
        names = raw.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'claimstoken_%'"
        ).fetchall()
        wanted: tuple[str, ...] = SQLITE_TRIGGERS
    else:
        names = raw.execute(_PG_ENABLED).fetchall()
        wanted = POSTGRES_TRIGGERS
    if not set(wanted) <= {n for (n,) in names}:
        return None
    return dict(raw.execute(f"SELECT subject_id, token FROM {TABLE}").fetchall())
