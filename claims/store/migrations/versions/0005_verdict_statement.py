"""A verdict's second status, "stated by the claimant": the ``verdict.statement_json``
column (``{"status": "yes" | "no" | "not checked", "reason", "evidence"}``,
claims.verify.statements). NULL in rows written before it (read as "not checked").

Revision ID: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``verdict.statement_json`` (unless the table already has it)."""
    present = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("verdict")}
    if "statement_json" in present:
        return
    with op.batch_alter_table("verdict") as batch:
        batch.add_column(sa.Column("statement_json", sa.String(), nullable=True))


def downgrade() -> None:
    """Drop ``verdict.statement_json``."""
    with op.batch_alter_table("verdict") as batch:
        batch.drop_column("statement_json")
