"""The index's comparison table as data: ``api/table.json``, ``api/table.csv`` and the
compare page's ``assets/table-data.js`` (one row per subject, the columns of the page).

Schema (``docs/site-api.md``): ``{"schema": 1, "columns": [{"key", "label"}], "subjects":
[{"slug", "name", "organization", "page", "weights": {..., "text"}, "license",
"license_stated" (a cell, while no licence is observed), "gated",
"open_discrepancies", "last_change", "cells": {column key: {"text", "status",
"number", "anchor", "disputed", "note", "observed", "contradicted", "observed_text",
"provider", "statistic", "aside"}}, "scores":
{benchmark name: cell}}]}``; a column with no figure has no cell.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from claims.values.timefmt import iso_z
from claims.vocabulary import gated_value
from tracker.website.summary import NO_FIGURE, promise_brief, weights_text
from tracker.website.views import IndexRow

SCHEMA = 1


def table_record(row: IndexRow) -> dict[str, Any]:
    """One subject's row of the table export."""
    w = row.weights
    return {
        "slug": row.slug,
        "name": row.name,
        "organization": row.organization,
        "page": f"subjects/{row.slug}/index.html",
        "weights": {
            # None: unknown (no successful Hub check yet), as `tracker status --json`
            "landed": None if w.weights_word == "unknown" else w.landed,
            "repo": w.repo,
            "overdue_days": w.overdue_days,
            "landed_late_days": w.landed_late_days,
            "text": weights_text(w),
            # what each source promised when they disagree (the compare page's hover)
            "promise_detail": promise_brief(w.promises).detail,
        },
        "license": w.license,
        # the sources' licence (text, status, ...) while none is observed; else None
        "license_stated": None
        if w.license or row.license_stated is None
        else row.license_stated._asdict(),
        # how many sources stated a licence the evidence contradicts (the index and
        # compare page note it as every cell does)
        "license_contradicted": row.license_stated.contradicted if row.license_stated else 0,
        # the Hub's own form, as `tracker status --json` gives it
        "gated": gated_value(w.gated),
        "open_discrepancies": row.open_discrepancies,
        "last_change": iso_z(row.last_change) or None,
        "cells": {key: cell._asdict() for key, cell in row.cells.items()},
        # every benchmark score by name (the compare page shows them all)
        "scores": {name: cell._asdict() for name, cell in row.scores.items()},
    }


def table_export(rows: list[IndexRow], columns: list[tuple[str, str]]) -> dict[str, Any]:
    """The whole table: ``columns`` as ``(key, label)`` pairs, rows by name."""
    return {
        "schema": SCHEMA,
        "columns": [{"key": k, "label": label} for k, label in columns],
        "subjects": [table_record(r) for r in rows],
    }


def table_json(table: dict[str, Any]) -> str:
    """``api/table.json`` text (keys sorted, one line)."""
    return json.dumps(table, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def _yes_no(flag: bool | None) -> str:
    return "unknown" if flag is None else ("yes" if flag else "no")


def csv_name(column: dict[str, str]) -> str:
    """A column's CSV heading: its key, a score column by its benchmark's name
    (``Terminal-Bench 2.0``, not ``score-0``)."""
    return column["label"] if column["key"].startswith("score-") else column["key"]


def cell_note(cell: dict[str, Any]) -> str:
    """Everything a page shows under a cell's figure, as one CSV field: where an
    observed figure was read, what was observed beside a stated one, contradicted
    sources, a figure not compared (``observed: Moonshot AI, p50``)."""
    note = cell["note"]
    # never a label with nothing after it (a trial's price-in_note read "observed: ")
    parts = [f"observed: {note}" if cell["observed"] and note else note]
    if cell["observed_text"] and cell["observed_text"] != cell["text"]:
        parts.append(f"observed {cell['observed_text']}")
    if cell["contradicted"]:
        n = cell["contradicted"]
        parts.append(f"{n} source{'s' if n != 1 else ''} contradicted")
    if cell["aside"]:
        parts.append(f"not compared: {cell['aside']}")
    return "; ".join(p for p in parts if p)


def _cell_fields(cell: dict[str, Any] | None, speed: bool) -> list[str]:
    """A cell's CSV fields: text ("" for none or "—"), status (``observed`` for a
    watch's reading no claim states), note (:func:`cell_note`), and for the speed
    column its provider and statistic."""
    if cell is None:
        return ["", "", ""] + (["", ""] if speed else [])
    text = "" if cell["text"] == NO_FIGURE else cell["text"]
    status = "observed" if cell["observed"] else (cell["status"] or "")
    out = [text, status, cell_note(cell)]
    return out + ([cell["provider"], cell["statistic"]] if speed else [])


def table_csv(table: dict[str, Any]) -> str:
    """``api/table.csv``: slug, name, organization, weights landed, repo, overdue days,
    licence, gated, open discrepancies, last change, then per column (:func:`csv_name`)
    its text, verdict and note (``<name>``, ``<name>_status``, ``<name>_note``), the
    speed column also ``speed_provider`` and ``speed_statistic``."""
    columns = table["columns"]
    buf = io.StringIO()
    out = csv.writer(buf)
    head = ["slug", "name", "organization", "landed", "repo", "overdue_days", "license"]
    head += ["gated", "open_discrepancies", "last_change"]
    for c in columns:
        name = csv_name(c)
        head += [name, f"{name}_status", f"{name}_note"]
        head += [f"{name}_provider", f"{name}_statistic"] if c["key"] == "speed" else []
    out.writerow(head)
    for s in table["subjects"]:
        w = s["weights"]
        line = [s["slug"], s["name"], s["organization"] or "", _yes_no(w["landed"])]
        line += [w["repo"] or "", w["overdue_days"] if w["overdue_days"] is not None else ""]
        gated = "" if s["gated"] is None else str(s["gated"]).lower()  # false, auto, manual
        line += [s["license"] or "", gated, s["open_discrepancies"]]
        line += [s["last_change"] or ""]
        for c in columns:
            line += _cell_fields(s["cells"].get(c["key"]), c["key"] == "speed")
        out.writerow(line)
    return buf.getvalue()
