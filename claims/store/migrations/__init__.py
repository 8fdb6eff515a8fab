"""The claims database's schema history, as alembic revisions (``versions/``), applied in
order by :func:`claims.store.migrate.upgrade` (``tracker db upgrade``)."""
