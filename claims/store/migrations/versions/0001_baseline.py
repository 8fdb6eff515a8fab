"""Release 0.1.0's schema, the baseline: every table as ``create_all`` made it, plus the
column the list of migrations before alembic added (``claim.origin``, its migration 3).

On an empty database it creates them all. On a database made by release 0.1.0 or
earlier (no ``alembic_version`` yet) it creates only the tables that are missing (the
scheduler tables of the old migration 2) and adds ``claim.origin`` when absent, so every
release's database reaches this revision with its rows in place. The tables are a frozen
copy written here, never read from the models, which go on changing.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

S = sa.String
BASELINE = sa.MetaData()


def T() -> sa.DateTime:  # noqa: N802 - reads as a type in the table definitions
    """An aware UTC datetime column (SQLModel's ``UTCDateTime`` stores this type)."""
    return sa.DateTime(timezone=True)


sa.Table(
    "schedulerlock",
    BASELINE,
    sa.Column("name", S(), nullable=False),
    sa.Column("owner", S(), nullable=False),
    sa.Column("pid", sa.Integer(), nullable=False),
    sa.Column("host", S(), nullable=False),
    sa.Column("acquired_at", T(), nullable=False),
    sa.Column("heartbeat_at", T(), nullable=False),
    sa.Column("expires_at", T(), nullable=False),
    sa.PrimaryKeyConstraint("name"),
)

sa.Table(
    "schedulestate",
    BASELINE,
    sa.Column("job_id", S(), nullable=False),
    sa.Column("next_run_at", T(), nullable=True),
    sa.Column("last_started_at", T(), nullable=True),
    sa.Column("last_finished_at", T(), nullable=True),
    sa.Column("last_outcome", S(), nullable=True),
    sa.Column("last_error", S(), nullable=True),
    sa.PrimaryKeyConstraint("job_id"),
)

sa.Table(
    "schemaversion",
    BASELINE,
    sa.Column("version", sa.Integer(), nullable=False),
    sa.Column("name", S(), nullable=False),
    sa.Column("applied_at", T(), nullable=False),
    sa.PrimaryKeyConstraint("version"),
)

sa.Table(
    "source",
    BASELINE,
    sa.Column("id", sa.Integer(), nullable=False),
    sa.Column("key", S(), nullable=False),
    sa.Column("url", S(), nullable=True),
    sa.Column("title", S(), nullable=False),
    sa.Column("publisher", S(), nullable=True),
    sa.Column("published", S(), nullable=True),
    sa.Column("published_precision", S(), nullable=True),
    sa.Column("language", S(), nullable=True),
    sa.Column("kind", S(), nullable=False),
    sa.PrimaryKeyConstraint("id"),
    sa.Index("ix_source_key", "key", unique=True),
)

sa.Table(
    "subject",
    BASELINE,
    sa.Column("id", sa.Integer(), nullable=False),
    sa.Column("slug", S(), nullable=False),
    sa.Column("name", S(), nullable=False),
    sa.Column("organization", S(), nullable=True),
    sa.Column("family", S(), nullable=True),
    sa.Column("hub_org", S(), nullable=True),
    sa.Column("description", S(), nullable=True),
    sa.PrimaryKeyConstraint("id"),
    sa.Index("ix_subject_slug", "slug", unique=True),
)

sa.Table(
    "watch",
    BASELINE,
    sa.Column("id", sa.Integer(), nullable=False),
    sa.Column("name", S(), nullable=False),
    sa.Column("adapter", S(), nullable=False),
    sa.Column("url", S(), nullable=False),
    sa.Column("params_json", S(), nullable=False),
    sa.Column("interval_minutes", sa.Integer(), nullable=False),
    sa.Column("state", S(), nullable=False),
    sa.Column("consecutive_failures", sa.Integer(), nullable=False),
    sa.Column("last_run", T(), nullable=True),
    sa.Column("last_success", T(), nullable=True),
    sa.Column("last_error", S(), nullable=True),
    sa.Column("last_error_kind", S(), nullable=True),
    sa.Column("failing_since", T(), nullable=True),
    sa.Column("etag", S(), nullable=True),
    sa.Column("last_modified", S(), nullable=True),
    sa.PrimaryKeyConstraint("id"),
    sa.Index("ix_watch_name", "name", unique=True),
)

sa.Table(
    "claim",
    BASELINE,
    sa.Column("id", sa.Integer(), nullable=False),
    sa.Column("key", S(), nullable=False),
    sa.Column("subject_id", sa.Integer(), nullable=False),
    sa.Column("attribute", S(), nullable=False),
    sa.Column("qualifiers_json", S(), nullable=False),
    sa.Column("value_json", S(), nullable=False),
    sa.Column("raw_text", S(), nullable=True),
    sa.Column("source_id", sa.Integer(), nullable=False),
    sa.Column("claimant", S(), nullable=True),
    sa.Column("locator", S(), nullable=True),
    sa.Column("stated_date", S(), nullable=True),
    sa.Column("note", S(), nullable=True),
    sa.Column("created_at", T(), nullable=False),
    sa.Column("origin", S(), nullable=True),
    sa.ForeignKeyConstraint(
        ["source_id"],
        ["source.id"],
    ),
    sa.ForeignKeyConstraint(
        ["subject_id"],
        ["subject.id"],
    ),
    sa.PrimaryKeyConstraint("id"),
    sa.Index("ix_claim_attribute", "attribute", unique=False),
    sa.Index("ix_claim_key", "key", unique=True),
    sa.Index("ix_claim_source_id", "source_id", unique=False),
    sa.Index("ix_claim_subject_id", "subject_id", unique=False),
    sqlite_autoincrement=True,
)

sa.Table(
    "discrepancy",
    BASELINE,
    sa.Column("id", sa.Integer(), nullable=False),
    sa.Column("key", S(), nullable=False),
    sa.Column("subject_id", sa.Integer(), nullable=False),
    sa.Column("attribute", S(), nullable=False),
    sa.Column("rule", S(), nullable=False),
    sa.Column("claim_ids_json", S(), nullable=False),
    sa.Column("observation_ids_json", S(), nullable=False),
    sa.Column("state", S(), nullable=False),
    sa.Column("reason", S(), nullable=False),
    sa.Column("note", S(), nullable=True),
    sa.Column("opened_at", T(), nullable=False),
    sa.Column("closed_at", T(), nullable=True),
    sa.ForeignKeyConstraint(
        ["subject_id"],
        ["subject.id"],
    ),
    sa.PrimaryKeyConstraint("id"),
    sa.Index("ix_discrepancy_key", "key", unique=True),
    sa.Index("ix_discrepancy_subject_id", "subject_id", unique=False),
)

sa.Table(
    "event",
    BASELINE,
    sa.Column("id", sa.Integer(), nullable=False),
    sa.Column("key", S(), nullable=False),
    sa.Column("kind", S(), nullable=False),
    sa.Column("audience", S(), nullable=False),
    sa.Column("subject_id", sa.Integer(), nullable=True),
    sa.Column("watch_id", sa.Integer(), nullable=True),
    sa.Column("title", S(), nullable=False),
    sa.Column("detail_json", S(), nullable=False),
    sa.Column("created_at", T(), nullable=False),
    sa.ForeignKeyConstraint(
        ["subject_id"],
        ["subject.id"],
    ),
    sa.ForeignKeyConstraint(
        ["watch_id"],
        ["watch.id"],
    ),
    sa.PrimaryKeyConstraint("id"),
    sa.Index("ix_event_key", "key", unique=True),
    sa.Index("ix_event_kind", "kind", unique=False),
    sa.Index("ix_event_subject_id", "subject_id", unique=False),
)

sa.Table(
    "snapshot",
    BASELINE,
    sa.Column("id", sa.Integer(), nullable=False),
    sa.Column("watch_id", sa.Integer(), nullable=True),
    sa.Column("url", S(), nullable=False),
    sa.Column("status", sa.Integer(), nullable=False),
    sa.Column("headers_json", S(), nullable=False),
    sa.Column("fetched_at", T(), nullable=False),
    sa.Column("sha256", S(), nullable=False),
    sa.Column("size", sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(
        ["watch_id"],
        ["watch.id"],
    ),
    sa.PrimaryKeyConstraint("id"),
    sa.Index("ix_snapshot_sha256", "sha256", unique=False),
    sa.Index("ix_snapshot_watch_id", "watch_id", unique=False),
)

sa.Table(
    "subjectalias",
    BASELINE,
    sa.Column("id", sa.Integer(), nullable=False),
    sa.Column("subject_id", sa.Integer(), nullable=False),
    sa.Column("namespace", S(), nullable=False),
    sa.Column("alias", S(), nullable=False),
    sa.ForeignKeyConstraint(
        ["subject_id"],
        ["subject.id"],
    ),
    sa.PrimaryKeyConstraint("id"),
    sa.UniqueConstraint("namespace", "alias"),
    sa.Index("ix_subjectalias_subject_id", "subject_id", unique=False),
)

sa.Table(
    "subjectvariant",
    BASELINE,
    sa.Column("id", sa.Integer(), nullable=False),
    sa.Column("subject_id", sa.Integer(), nullable=False),
    sa.Column("name", S(), nullable=False),
    sa.ForeignKeyConstraint(
        ["subject_id"],
        ["subject.id"],
    ),
    sa.PrimaryKeyConstraint("id"),
    sa.UniqueConstraint("subject_id", "name"),
    sa.Index("ix_subjectvariant_subject_id", "subject_id", unique=False),
)

sa.Table(
    "delivery",
    BASELINE,
    sa.Column("id", sa.Integer(), nullable=False),
    sa.Column("event_id", sa.Integer(), nullable=False),
    sa.Column("subscription", S(), nullable=False),
    sa.Column("state", S(), nullable=False),
    sa.Column("attempts", sa.Integer(), nullable=False),
    sa.Column("next_attempt_at", T(), nullable=True),
    sa.Column("last_attempt_at", T(), nullable=True),
    sa.Column("delivered_at", T(), nullable=True),
    sa.Column("last_error", S(), nullable=True),
    sa.Column("sent_chars", sa.Integer(), nullable=True),
    sa.Column("parts", sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(
        ["event_id"],
        ["event.id"],
    ),
    sa.PrimaryKeyConstraint("id"),
    sa.UniqueConstraint("event_id", "subscription"),
    sa.Index("ix_delivery_event_id", "event_id", unique=False),
    sa.Index("ix_delivery_subscription", "subscription", unique=False),
)

sa.Table(
    "observation",
    BASELINE,
    sa.Column("id", sa.Integer(), nullable=False),
    sa.Column("subject_id", sa.Integer(), nullable=False),
    sa.Column("attribute", S(), nullable=False),
    sa.Column("qualifiers_json", S(), nullable=False),
    sa.Column("value_json", S(), nullable=False),
    sa.Column("value_key", S(), nullable=False),
    sa.Column("watch_id", sa.Integer(), nullable=True),
    sa.Column("snapshot_id", sa.Integer(), nullable=True),
    sa.Column("source_url", S(), nullable=True),
    sa.Column("first_seen", T(), nullable=False),
    sa.Column("last_seen", T(), nullable=False),
    sa.Column("current", sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(
        ["snapshot_id"],
        ["snapshot.id"],
    ),
    sa.ForeignKeyConstraint(
        ["subject_id"],
        ["subject.id"],
    ),
    sa.ForeignKeyConstraint(
        ["watch_id"],
        ["watch.id"],
    ),
    sa.PrimaryKeyConstraint("id"),
    sa.UniqueConstraint("subject_id", "attribute", "qualifiers_json", "value_key", "watch_id"),
    sa.Index("ix_observation_attribute", "attribute", unique=False),
    sa.Index("ix_observation_subject_id", "subject_id", unique=False),
    sa.Index("ix_observation_watch_id", "watch_id", unique=False),
)

sa.Table(
    "verdict",
    BASELINE,
    sa.Column("id", sa.Integer(), nullable=False),
    sa.Column("claim_id", sa.Integer(), nullable=False),
    sa.Column("status", S(), nullable=False),
    sa.Column("reason", S(), nullable=False),
    sa.Column("evidence_json", S(), nullable=False),
    sa.Column("as_of", T(), nullable=True),
    sa.Column("checked_at", T(), nullable=False),
    sa.ForeignKeyConstraint(
        ["claim_id"],
        ["claim.id"],
    ),
    sa.PrimaryKeyConstraint("id"),
    sa.Index("ix_verdict_claim_id", "claim_id", unique=True),
)


def upgrade() -> None:
    """Create the missing baseline tables; add ``claim.origin`` to an older claim table."""
    bind = op.get_bind()
    present = set(sa.inspect(bind).get_table_names())
    for table in BASELINE.sorted_tables:
        if table.name not in present:
            table.create(bind)
    columns = {c["name"] for c in sa.inspect(bind).get_columns("claim")}
    if "origin" not in columns:
        op.add_column("claim", sa.Column("origin", S(), nullable=True))


def downgrade() -> None:
    """Not supported: a database is never taken back to before the baseline."""
    raise NotImplementedError("the baseline revision has no downgrade")
