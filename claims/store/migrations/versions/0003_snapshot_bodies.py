"""Snapshot bodies in the database: the ``snapshotbody`` table (sha256 -> bytes).

On PostgreSQL the bodies a watch fetches are stored here, so a team whose scheduler and
command line run on several hosts shares them; on SQLite they stay in the local file
``data/snapshots/bodies.sqlite3`` (:mod:`claims.store.bodies`) and this table stays empty.

Revision ID: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``snapshotbody``."""
    op.create_table(
        "snapshotbody",
        sa.Column("sha256", sa.String(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("sha256"),
    )


def downgrade() -> None:
    """Drop ``snapshotbody`` (and the bodies in it)."""
    op.drop_table("snapshotbody")
