"""The migration list before alembic, ``schemaversion``, is retired: ``alembic_version``
records the revision now (release 0.1.0's versions 1 to 3 are revision 0001).

Revision ID: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Drop ``schemaversion``."""
    op.drop_table("schemaversion")


def downgrade() -> None:
    """Recreate an empty ``schemaversion``."""
    op.create_table(
        "schemaversion",
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("applied_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("version"),
    )
