"""Load the curated data folder into the database in one transaction."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import Engine
from sqlmodel import Session

from claims.curated_store import LoadReport, store
from claims.loader import CuratedData, load_data


def known_adapters() -> set[str] | None:
    """Adapter kinds registered in tracker.adapters (None when the registry is absent)."""
    try:
        from tracker.adapters import adapter_kinds
    except ImportError:
        return None
    return set(adapter_kinds())


def validate_curated(data_dir: Path | str) -> CuratedData:
    """Read and validate everything under ``data_dir`` (adapters checked against the
    registry, watch params against what each built-in adapter reads). Raises
    :class:`claims.loader.DataFileError` (path, line, field) for one problem,
    :class:`claims.loader.DataFileErrors` (every one, in ``.errors``) for several."""
    from tracker.adapters.base import ID_NAMESPACES, known_params

    return load_data(
        data_dir,
        known_adapters=known_adapters(),
        known_params=known_params(),
        known_namespaces=ID_NAMESPACES,
    )


def store_curated(engine: Engine, data: CuratedData, *, prune: bool = False) -> LoadReport:
    """Store validated data in one transaction (idempotent); ``prune`` as in
    :func:`claims.curated_store.store`."""
    with Session(engine) as session:
        report = store(session, data, prune=prune)
        session.commit()
    return report


def load_curated(engine: Engine, data_dir: Path | str) -> LoadReport:
    """Validate everything under ``data_dir`` first, then store it in one transaction.

    Raises :class:`claims.loader.DataFileError` (path, line, field; every problem found,
    as :func:`validate_curated`) before any write.
    """
    return store_curated(engine, validate_curated(data_dir))
