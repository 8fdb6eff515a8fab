"""Load the curated data folder into the database in one transaction."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session

from claims.curated.loader import CuratedData, load_data
from claims.store.curated import LoadReport, store
from claims.vocabulary import attribute_label, qualifiers_text


def known_adapters() -> set[str] | None:
    """Adapter kinds registered in tracker.adapters (None when the registry is absent)."""
    try:
        from tracker.adapters import adapter_kinds
    except ImportError:
        return None
    return set(adapter_kinds())


def param_checks() -> dict[str, Callable[[Mapping[str, Any]], list[tuple[str, str]]]]:
    """Adapter kind -> its check of a watch's own params (``(param, message)`` pairs),
    for ``tracker load``: the html_page selector, regex, scale, decimal and columns
    (:func:`tracker.adapters.html_page.check_params`), and the Hub names of the Hub
    watches (:func:`tracker.adapters.huggingface.watches.check_params`)."""
    from tracker.adapters.html_page import check_params
    from tracker.adapters.huggingface.watches import check_params as hub_names

    return {"html_page": check_params, "huggingface_org": hub_names,
            "huggingface_model": hub_names}  # fmt: skip


def validate_curated(data_dir: Path | str) -> CuratedData:
    """Read and validate everything under ``data_dir`` (adapters checked against the
    registry, watch params against what each built-in adapter reads and, for html_page,
    whether its selector, regex, scale and columns can work). Raises
    :class:`claims.curated.loader.DataFileError` (path, line, field) for one problem,
    :class:`claims.curated.loader.DataFileErrors` (every one, in ``.errors``) for several;
    ConfigError when ``data_dir`` is no folder (:func:`missing_data_folder`)."""
    from tracker.adapters.base import ID_NAMESPACES, known_params

    missing_data_folder(Path(data_dir))
    return load_data(
        data_dir,
        known_adapters=known_adapters(),
        known_params=known_params(),
        known_namespaces=ID_NAMESPACES,
        param_checks=param_checks(),
    )


def missing_data_folder(data_dir: Path) -> None:
    """Raise ConfigError when ``data_dir`` is no folder, saying where it was looked for
    and how to give another: run from outside the checkout, the default ``data`` read
    ``data: data: no such folder`` (a fresh-user trial)."""
    if data_dir.is_dir():
        return
    from tracker.errors import ConfigError

    raise ConfigError(
        f"{data_dir}: no such data folder (looked for {data_dir.resolve()}): run from the "
        "release-tracker checkout, whose data/ holds the demo's, or pass --data DIR (a "
        "folder with subjects.toml, watches.toml and claims/)"
    )


def store_curated(engine: Engine, data: CuratedData, *, prune: bool = False) -> LoadReport:
    """Store validated data in one transaction (idempotent); ``prune`` as in
    :func:`claims.store.curated.store`."""
    with Session(engine) as session:
        report = store(session, data, prune=prune)
        session.commit()
    return report


def load_curated(engine: Engine, data_dir: Path | str) -> LoadReport:
    """Validate everything under ``data_dir`` first, then store it in one transaction.

    Raises :class:`claims.curated.loader.DataFileError` (path, line, field; every problem found,
    as :func:`validate_curated`) before any write.
    """
    return store_curated(engine, validate_curated(data_dir))


def claim_text(c: dict[str, Any], value: str | None = None) -> str:
    """A claim of a load's report as one line names it: ``#5 (wire-a): kimi-k3 Total
    parameters [variant: Fast] 2.8T params`` (``value`` instead of its own)."""
    q = qualifiers_text(c.get("qualifiers") or {})
    return (
        f"({c['source']}): {c['subject']} {attribute_label(c['attribute'])}"
        f"{f' [{q}]' if q else ''} {c['value'] if value is None else value}"
    )


def value_change(old: str, new: str) -> str:
    """``32B → 33B params``: two values' texts, the words after the figure said once
    when both share them; else ``before 2026-11-04 → on 2026-11-05``."""
    old_figure, _, old_rest = old.partition(" ")
    new_figure, _, new_rest = new.partition(" ")
    if old_rest and old_rest == new_rest:
        return f"{old_figure} → {new}"
    return f"{old} → {new}"


def load_summary(report: LoadReport) -> str:
    """The count line of ``tracker load``: ``loaded 3 subjects, ...; claims: 0 new, 39
    unchanged, 1 changed``. A changed claim (one removed, its correction added) counts
    once, as changed, not as new and removed."""
    changed = len(report.claims_changed)
    counts = [
        (report.claims_added - changed, "new"),
        (report.claims_unchanged, "unchanged"),
    ]
    counts += [
        (n, word)
        for n, word in (
            (changed, "changed"),
            (report.claims_updated, "updated"),
            (report.claims_removed - changed, "removed"),
        )
        if n
    ]
    return (
        f"loaded {report.subjects} subjects, {report.sources} sources, {report.watches} watches; "
        "claims: " + ", ".join(f"{n} {word}" for n, word in counts)
    )


def change_lines(report: LoadReport) -> list[str]:
    """One line per claim a load changed, updated or removed, and per source it removed:
    ``changed claim #2 → #41 (src): kimi-k2-thinking Active parameters 32B → 33B
    params``, ``updated claim #5 (src): ... 2.8T params: raw, note changed``,
    ``removed claim #7 (src): ...``, ``removed source KEY``."""
    lines = [
        f"changed claim #{c['old_id']} → #{c['new_id']} "
        + claim_text(c, value_change(c["old_value"], c["new_value"]))
        for c in report.claims_changed
    ]
    lines += [
        f"updated claim #{c['id']} {claim_text(c)}: {', '.join(c['fields'])} changed"
        for c in report.claims_edited
    ]
    paired = {c["old_id"] for c in report.claims_changed}
    lines += [
        f"removed claim #{c['id']} {claim_text(c)}"
        for c in report.claims_stale
        if c["removed"] and c["id"] not in paired
    ]
    # a re-keyed or deleted file: its old source, now empty
    return lines + [f"removed source {key}" for key in report.sources_removed]
