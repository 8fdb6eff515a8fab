"""Field readers for the curated data loader (:mod:`claims.curated.loader`): a string, an
optional string or a list of strings from one ``[[table]]`` entry, uniqueness of a key
across entries, and the top-level shape of a file. Each raises
:class:`~claims.curated.datafile.DataFileError` at the entry's line."""

from __future__ import annotations

from typing import Any

from claims.curated import datafile
from claims.curated.datafile import DataFile, DataFileError


def req_str(f: DataFile, table: str, i: int, entry: dict[str, Any], name: str) -> str:
    """``entry[name]``: text that is not blank (raises at its line otherwise)."""
    val = entry.get(name)
    if not isinstance(val, str) or not val.strip():
        raise f.error(table, i, name, "required text is missing or empty")
    return val


def opt_str(f: DataFile, table: str, i: int, entry: dict[str, Any], name: str) -> str | None:
    """``entry[name]`` when given: text (raises at its line for another type)."""
    val = entry.get(name)
    if val is None:
        return None
    if not isinstance(val, str):
        raise f.error(table, i, name, f"expected text, got {type(val).__name__}")
    return val


def str_list(f: DataFile, table: str, i: int, entry: dict[str, Any], name: str) -> tuple[str, ...]:
    """``entry[name]``: a list of text, empty when absent (raises at its line otherwise)."""
    val = entry.get(name, [])
    if not isinstance(val, list) or not all(isinstance(x, str) for x in val):
        raise f.error(table, i, name, "expected a list of text")
    return tuple(val)


def unique(
    f: DataFile, table: str, i: int, name: str, value: str, earlier: list[tuple[int, str]]
) -> None:
    """Raise at ``[[table]]`` number ``i`` when an earlier entry read without error
    (``earlier``: its index and ``name``) has the same ``name``."""
    first = next((j for j, v in earlier if v == value), None)
    if first is not None:
        line = f.line_of(table, first, name)
        raise f.error(table, i, name, f"duplicate {name} {value!r} (first at line {line})")


def check_top(f: DataFile, kind: str) -> None:
    """Raise when the top level of ``f`` (``kind``: a key of ``datafile.TOP_LEVEL``) has
    another key, or a table written as a value (``subject = "x"`` reads as no entry)."""
    f.check_keys(f.data, datafile.TOP_LEVEL[kind], "", None)
    for table in datafile.TOP_LEVEL[kind] - {"source"}:
        if not tables_ok(f, table):
            raise DataFileError(f.path, f.line_of_key(table), table, f"expected [[{table}]] tables")


def tables_ok(f: DataFile, table: str) -> bool:
    """True when ``[[table]]`` is absent or a list of tables (its entries can be read)."""
    val = f.data.get(table, [])
    return isinstance(val, list) and all(isinstance(e, dict) for e in val)


def entries(f: DataFile, table: str) -> list[tuple[int, dict[str, Any]]]:
    """``(index, entry)`` of each ``[[table]]`` of ``f`` (:func:`check_top` reports any
    that is not a table)."""
    val = f.data.get(table, [])
    return (
        [(i, e) for i, e in enumerate(val) if isinstance(e, dict)] if isinstance(val, list) else []
    )
