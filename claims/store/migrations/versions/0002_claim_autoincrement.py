"""Claim ids are never reused on SQLite: rebuild a claim table made without AUTOINCREMENT.

Release 0.1.0 creates new databases with ``AUTOINCREMENT`` on ``claim`` (SQLite otherwise
gives a removed claim's id, the highest, to the next claim, so ``#claim-N`` links and
``claim #N`` in notes would name another claim), but a database made before kept the old
table: SQLite cannot change it in place. This revision rebuilds it (copy the rows with
their ids into a new table, drop the old, rename; the ids' high-water mark is kept by
SQLite's ``sqlite_sequence``). Foreign keys are off while it runs (``env.py``).
PostgreSQL sequences never reuse ids: nothing to do there.

Revision ID: 0002
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Rebuild ``claim`` with AUTOINCREMENT when it is a SQLite table without it."""
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return
    sql = bind.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'claim'"
    ).scalar()
    if sql is None or "AUTOINCREMENT" in sql.upper():
        return
    with op.batch_alter_table(
        "claim", recreate="always", table_kwargs={"sqlite_autoincrement": True}
    ):
        pass


def downgrade() -> None:
    """Nothing to undo: AUTOINCREMENT only stops SQLite reusing ids."""
