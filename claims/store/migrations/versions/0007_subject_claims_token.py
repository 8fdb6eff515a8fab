"""A change token per subject kept by the database: the ``subjectclaimstoken`` table
(``token`` text primary key, ``subject_id`` indexed) and triggers on ``claim`` and
``verdict`` that put a new random token in place of a subject's whenever one of its
claim or verdict rows is inserted, deleted, or updated in a column the site shows (on
PostgreSQL a new row, older ones removed unless a concurrent transaction holds them;
a ``TRUNCATE`` of either table renews every token). The site build compares tokens
instead of digesting every row (``claims/store/changetokens.py`` says why). Every
subject with claims gets a token here.

SQLite drops a table's triggers when a revision rebuilds it (``batch_alter_table``
copy and rename): a later revision that rebuilds ``claim`` or ``verdict`` must create
these again.

Revision ID: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

# What the code read when this revision was written (a revision never follows later
# code): the table, the claim and verdict columns the site shows, the triggers.
_TABLE = "subjectclaimstoken"
_CLAIM = (
    "id", "subject_id", "attribute", "qualifiers_json", "value_json", "raw_text",
    "source_id", "claimant", "locator", "stated_date", "key", "note",
)  # fmt: skip
_VERDICT = ("claim_id", "status", "reason", "evidence_json", "as_of", "statement_json")
_SQLITE_RANDOM = "lower(hex(randomblob(16)))"
_PG_RANDOM = "gen_random_uuid()::text"


def _changed(columns: tuple[str, ...], op_: str) -> str:
    return " OR ".join(f"OLD.{c} {op_} NEW.{c}" for c in columns)


def _sqlite_touch(subject: str) -> str:
    return (
        f"DELETE FROM {_TABLE} WHERE subject_id = {subject}; "
        f"INSERT INTO {_TABLE} (token, subject_id) "
        f"SELECT {_SQLITE_RANDOM}, {subject} WHERE {subject} IS NOT NULL; "
    )


def _sqlite() -> list[str]:
    claim = {r: f"{r}.subject_id" for r in ("OLD", "NEW")}
    verdict = {r: f"(SELECT subject_id FROM claim WHERE id = {r}.claim_id)" for r in claim}
    out = []
    for table, rows, watched in (("claim", claim, _CLAIM), ("verdict", verdict, _VERDICT)):
        out += [
            f"CREATE TRIGGER claimstoken_{table}_insert AFTER INSERT ON {table} "
            f"BEGIN {_sqlite_touch(rows['NEW'])}END",
            f"CREATE TRIGGER claimstoken_{table}_delete AFTER DELETE ON {table} "
            f"BEGIN {_sqlite_touch(rows['OLD'])}END",
            f"CREATE TRIGGER claimstoken_{table}_update AFTER UPDATE ON {table} "
            f"WHEN {_changed(watched, 'IS NOT')} "
            f"BEGIN {_sqlite_touch(rows['OLD'])}{_sqlite_touch(rows['NEW'])}END",
        ]
    return out


# PostgreSQL: a new row per change, older ones removed unless another transaction
# holds them (SKIP LOCKED), so concurrent writers never wait on a subject's row
_PG_FUNCTIONS = [
    f"""CREATE FUNCTION claimstoken_touch(sid integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  fresh text := {_PG_RANDOM};
  mark text := 'claimstoken.s' || sid;
BEGIN
  IF sid IS NULL OR current_setting(mark, true) = 'y' THEN RETURN; END IF;
  INSERT INTO {_TABLE} (token, subject_id) VALUES (fresh, sid);
  DELETE FROM {_TABLE} WHERE token IN (
    SELECT token FROM {_TABLE} WHERE subject_id = sid AND token <> fresh
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
  INSERT INTO {_TABLE} (token, subject_id)
  SELECT {_PG_RANDOM}, subject_id FROM (SELECT DISTINCT subject_id FROM {_TABLE}) s;
  RETURN NULL;
END $$""",
]


def _postgres() -> list[str]:
    out = list(_PG_FUNCTIONS)
    for table, watched in (("claim", _CLAIM), ("verdict", _VERDICT)):
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


def upgrade() -> None:
    """Create the token table (unless there), a random token for every subject with
    claims, and the triggers (and PostgreSQL's functions) that renew them."""
    bind = op.get_bind()
    sqlite = bind.dialect.name == "sqlite"
    if not sa.inspect(bind).has_table(_TABLE):
        op.create_table(
            _TABLE,
            sa.Column("token", sa.String(), nullable=False),
            sa.Column("subject_id", sa.Integer(), nullable=False),
            sa.PrimaryKeyConstraint("token"),
        )
        op.create_index(f"ix_{_TABLE}_subject_id", _TABLE, ["subject_id"])
    random = _SQLITE_RANDOM if sqlite else _PG_RANDOM
    bind.exec_driver_sql(f"DELETE FROM {_TABLE}")
    # one random value per subject: drawn in the outer query, once per row
    bind.exec_driver_sql(
        f"INSERT INTO {_TABLE} (token, subject_id) SELECT {random}, sid "
        "FROM (SELECT DISTINCT subject_id AS sid FROM claim) AS subjects"
    )
    _drop_triggers(bind)  # SQLite keeps the DDL of a failed upgrade: run again cleanly
    for sql in _sqlite() if sqlite else _postgres():
        bind.exec_driver_sql(sql)


def _drop_triggers(bind: sa.engine.Connection) -> None:
    if bind.dialect.name == "sqlite":
        for table in ("claim", "verdict"):
            for what in ("insert", "delete", "update"):
                bind.exec_driver_sql(f"DROP TRIGGER IF EXISTS claimstoken_{table}_{what}")
        return
    for table in ("claim", "verdict"):
        for what in ("write", "update", "truncate"):
            bind.exec_driver_sql(f"DROP TRIGGER IF EXISTS claimstoken_{table}_{what} ON {table}")
    for fn in ("claimstoken_claim()", "claimstoken_verdict()", "claimstoken_truncate()",
               "claimstoken_touch(integer)"):  # fmt: skip
        bind.exec_driver_sql(f"DROP FUNCTION IF EXISTS {fn}")


def downgrade() -> None:
    """Drop the triggers, PostgreSQL's functions and the token table."""
    _drop_triggers(op.get_bind())
    op.drop_table(_TABLE)
