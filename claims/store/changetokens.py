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

The table holds rows ``(token, subject_id)``; a subject's token is its rows' tokens. On
SQLite (one writer at a time) a change replaces the subject's one row. On PostgreSQL it
adds a row and removes the older ones no concurrent transaction holds: a row updated in
place would make two transactions editing claims of the same subjects wait for each
other, or deadlock, though their claim rows never meet (tests/test_changetokens.py).

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


def _sqlite_touch(subject: str) -> str:
    # ``subject``: an expression of the subject id. One row a subject on SQLite (its
    # writers take turns): the old row goes, a new one comes
    return (
        f"DELETE FROM {TABLE} WHERE subject_id = {subject}; "
        f"INSERT INTO {TABLE} (token, subject_id) "
        f"SELECT {_SQLITE_RANDOM}, {subject} WHERE {subject} IS NOT NULL; "
    )


def _claim_subject(row: str) -> str:
    return f"{row}.subject_id"


def _verdict_subject(row: str) -> str:
    return f"(SELECT subject_id FROM claim WHERE id = {row}.claim_id)"


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


# A new row per change, never an update of the subject's row: an update locks that
# row until commit, so two transactions editing claims of the same two subjects waited
# for each other (or deadlocked) where the claim rows never met. Older rows are
# removed only when no other transaction holds them (SKIP LOCKED), so nothing waits;
# a subject briefly has several rows and its token is all of them. Once a transaction
# gave a subject a new row it adds no more (a transaction-local setting marks it,
# undone with a rolled-back savepoint): a row per claim of one transaction left
# thousands of dead rows to step over (30,000 claims stored in one: 15 s -> 58 s).
# PL/pgSQL keeps each statement's plan (an SQL-language function was planned at
# every call).
_PG_FUNCTIONS = (
    f"""CREATE FUNCTION claimstoken_touch(sid integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  fresh text := gen_random_uuid()::text;
  mark text := 'claimstoken.s' || sid;
BEGIN
  IF sid IS NULL OR current_setting(mark, true) = 'y' THEN RETURN; END IF;
  INSERT INTO {TABLE} (token, subject_id) VALUES (fresh, sid);
  DELETE FROM {TABLE} WHERE token IN (
    SELECT token FROM {TABLE} WHERE subject_id = sid AND token <> fresh
    FOR UPDATE SKIP LOCKED);
  PERFORM set_config(mark, 'y', true);
END $$""",
    """CREATE FUNCTION claimstoken_claim() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM claimstoken_touch(OLD.subject_id); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM claimstoken_touch(NEW.subject_id); END IF;
  RETURN NULL;
END $$""",
    """CREATE FUNCTION claimstoken_verdict() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM claimstoken_touch((SELECT subject_id FROM claim WHERE id = OLD.claim_id));
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM claimstoken_touch((SELECT subject_id FROM claim WHERE id = NEW.claim_id));
  END IF;
  RETURN NULL;
END $$""",
    f"""CREATE FUNCTION claimstoken_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO {TABLE} (token, subject_id)
  SELECT gen_random_uuid()::text, subject_id FROM (SELECT DISTINCT subject_id FROM {TABLE}) s;
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


# A subject's token: its rows' tokens (one on SQLite; on PostgreSQL several while
# concurrent writers left older ones), in a fixed order.
_TOKENS = {
    "sqlite": f"SELECT subject_id, group_concat(token) FROM {TABLE} GROUP BY subject_id",
    "postgresql": (
        f"SELECT subject_id, string_agg(token, ',' ORDER BY token) FROM {TABLE} GROUP BY subject_id"
    ),
}
_PG_ENABLED = (
    "SELECT tgname FROM pg_trigger "
    "WHERE tgrelid IN ('claim'::regclass, 'verdict'::regclass) AND tgenabled IN ('O', 'A') "
    f"AND has_table_privilege(to_regclass('{TABLE}'), 'SELECT')"
)


def read_tokens(raw: RawDB) -> dict[int, str] | None:
    """Subject id -> its token (its rows' tokens joined by commas), or None when the triggers that keep them are not all
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
    return dict(raw.execute(_TOKENS[raw.dialect]).fetchall())
