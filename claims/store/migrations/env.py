"""alembic's environment for the claims database: runs the revisions on the connection
:func:`claims.store.migrate.upgrade` passes in ``config.attributes["connection"]`` (the
caller holds the write lock and commits), comparing against the models' metadata."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

from claims.store import tables  # noqa: F401  (registers the models' tables)

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=SQLModel.metadata,
    render_as_batch=True,  # SQLite changes tables by rebuilding them
)
with context.begin_transaction():
    context.run_migrations()
