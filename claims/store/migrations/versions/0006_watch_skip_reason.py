"""Why the last cycle skipped a watch, kept apart from its error: the
``watch.skip_reason`` column (``TRACKER_AA_API_KEY not set``). A skip used to be stored
as the watch's ``last_error`` (kind ``skipped``), which a failing watch's current error
occupies: its skip was not recorded. Rows written that way move to the new column.

Revision ID: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

# claims.vocabulary.SKIPPED_KIND when this revision was written (a revision never
# follows later code).
_SKIPPED = "skipped"


def upgrade() -> None:
    """Add ``watch.skip_reason`` (unless the table already has it) and move the skips
    stored as a ``last_error`` of kind ``skipped`` there."""
    present = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("watch")}
    if "skip_reason" not in present:
        with op.batch_alter_table("watch") as batch:
            batch.add_column(sa.Column("skip_reason", sa.String(), nullable=True))
    op.execute(
        sa.text(
            "UPDATE watch SET skip_reason = last_error, last_error = NULL, "
            "last_error_kind = NULL WHERE last_error_kind = :kind"
        ).bindparams(kind=_SKIPPED)
    )


def downgrade() -> None:
    """Put a healthy watch's skip back as its ``last_error`` (a failing one keeps its
    error, as before this revision) and drop ``watch.skip_reason``."""
    op.execute(
        sa.text(
            "UPDATE watch SET last_error = skip_reason, last_error_kind = :kind "
            "WHERE skip_reason IS NOT NULL AND consecutive_failures = 0"
        ).bindparams(kind=_SKIPPED)
    )
    with op.batch_alter_table("watch") as batch:
        batch.drop_column("skip_reason")
