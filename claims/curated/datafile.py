"""One curated data file (TOML): its allowed keys, the line of a field, its errors.

The keys each table may hold are those of README "Curated data". A key outside these is a typo until proven otherwise (``qualifers`` for
``qualifiers``): TOML would read it happily and the loader would ignore it, silently
dropping what it said. :meth:`DataFile.key_errors` names each one, with the nearest
known key as a suggestion. Watch ``params`` are adapter-specific and not listed here.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from claims.errors import ClaimsError
from claims.subjects.references import listed_variant
from claims.vocabulary import ATTRIBUTES

TOP_LEVEL = {
    "subjects.toml": frozenset({"subject"}),
    "watches.toml": frozenset({"watch"}),
    "claims": frozenset({"source", "claim"}),
}
SUBJECT = frozenset(
    {"slug", "name", "organization", "family", "hub_org", "description", "aliases",
     "variants", "ids"}
)  # fmt: skip
WATCH = frozenset({"name", "adapter", "url", "interval_minutes", "params"})
SOURCE = frozenset(
    {"key", "title", "kind", "published", "published_precision", "url", "publisher",
     "language", "seed"}
)  # fmt: skip
CLAIM = frozenset(
    {"subject", "attribute", "qualifiers", "value", "unit", "exact", "raw", "claimant",
     "locator", "stated_date", "note"}
)  # fmt: skip
PUBLISHED_PRECISIONS = ("day", "month", "estimated")


def near_names(name: str, allowed: Iterable[str]) -> list[str]:
    """The known names ``name`` is likely a mistyping of: the nearest by difflib (ratio
    >= 0.75) or, failing that, the one known name that begins the typed one or that the
    typed one begins, both at least 3 characters (``repository`` -> ``repo``, ``lang``
    -> ``language``); [] when none is near or several fit (``pub`` begins published and
    publisher, and a guess could mislead)."""
    known = sorted(allowed)
    near = difflib.get_close_matches(name, known, n=1, cutoff=0.75)
    if not near and len(name) >= 3:
        typed = name.casefold()
        fits = [
            k
            for k in known
            if len(k) >= 3 and (typed.startswith(k.casefold()) or k.casefold().startswith(typed))
        ]
        near = fits if len(fits) == 1 else []
    return near


def nearest(name: str, allowed: Iterable[str]) -> str:
    """A hint for a name not in ``allowed``: ``did you mean 'x'?`` for a near miss
    (:func:`near_names`), else ``known: a, b, ...``."""
    known = sorted(allowed)
    near = near_names(name, known)
    return f"did you mean {near[0]!r}?" if near else "known: " + ", ".join(known)


def unit_problem(attribute: str, unit: str | None, field_name: str = "unit") -> str | None:
    """Why ``unit`` cannot be the unit of a figure of ``attribute`` (a known attribute),
    or None when it can: no unit (the attribute's own is used), the attribute's own unit
    (:data:`claims.vocabulary.ATTRIBUTES`), or any unit for an attribute that has none
    of its own (``benchmark_score``: points, percent; ``hardware_units``: wafers...).
    Values are never converted between units, so any other unit would be stored as
    written and compared as if it were the attribute's (``0.6 parsecs`` as a price).
    ``field_name``: where the unit was written, for the fix the message gives."""
    expected = ATTRIBUTES[attribute][1]
    if unit is None or expected is None or unit == expected:
        return None
    return (
        f"{attribute} is in {expected}, not {unit!r}: leave {field_name} out (the figure is "
        f'then in {expected}) or set it to "{expected}"; units are not converted'
    )


def variant_problem(subject: str, variant: str | None, variants: Iterable[str]) -> str | None:
    """Why ``variant`` (a claim's ``variant`` qualifier) is not one of ``subject``'s
    ``variants`` (subjects.toml), or None when it is or there is none. A misspelt
    variant would be compared as another offering, never with the figures it is about."""
    known = list(variants)
    if variant is None or listed_variant(variant, known):
        return None  # qualifiers compare ignoring case (the loader stores the listed spelling)
    hint = nearest(variant, known) if known else "it lists no variants"
    return (
        f"variant {variant!r} is not a variant of {subject} ({hint}); fix the name, or add "
        "it to that subject's variants in subjects.toml"
    )


class DataFileError(ClaimsError, ValueError):
    """A curated data file is malformed. ``str()`` reads ``path:line: field: message``."""

    kind = "data_file"

    def __init__(self, path: Path | str, line: int | None, field_name: str, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.field = field_name
        self.message = message
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {field_name}: {message}")


class DataFile:
    """One TOML file with a way to find the line of a field of the n-th array table."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise DataFileError(path, None, "encoding", f"not UTF-8 ({exc.reason})") from exc
        try:
            self.data = tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as exc:
            m = re.search(r"line (\d+)", str(exc))
            raise DataFileError(path, int(m.group(1)) if m else None, "toml", str(exc)) from exc
        self.lines = self.text.splitlines()

    def line_of(self, table: str, index: int, field_name: str | None = None) -> int | None:
        """1-based line of ``[[table]]`` number ``index`` (or of its ``field_name``)."""
        headers = [i for i, ln in enumerate(self.lines) if ln.strip() == f"[[{table}]]"]
        if index >= len(headers):
            return None
        start = headers[index]
        end = headers[index + 1] if index + 1 < len(headers) else len(self.lines)
        if field_name:
            pat = re.compile(rf"^\s*{re.escape(field_name)}\s*=")
            for i in range(start, end):
                if pat.match(self.lines[i]):
                    return i + 1
        return start + 1

    def check_keys(self, entry: Any, allowed: Iterable[str], where: str, line: int | None) -> None:
        """Raise DataFileError naming the first key of ``entry`` (a table) not in
        ``allowed``; ``where`` is the table's name in the message (``claim[0]``), ``line``
        its line (the key's own line is used when it is found below it)."""
        errors = self.key_errors(entry, allowed, where, line)
        if errors:
            raise errors[0]

    def key_errors(
        self, entry: Any, allowed: Iterable[str], where: str, line: int | None
    ) -> list[DataFileError]:
        """One DataFileError per key of ``entry`` not in ``allowed`` (as
        :meth:`check_keys` raises the first), in the entry's order."""
        if not isinstance(entry, dict):
            return []
        known = set(allowed)
        errors = []
        for key in entry:
            if key in known:
                continue
            hint = nearest(key, known)
            pat = re.compile(rf"^\s*\[*\s*([\w.]+\.)?{re.escape(key)}\s*[=\]]")
            start = line or 1
            rows = enumerate(self.lines[start - 1 :], start)  # (1-based line, text)
            own = next((n for n, text in rows if pat.match(text)), None)
            name = f"{where}.{key}" if where else key
            errors.append(DataFileError(self.path, own or line, name, f"unknown key ({hint})"))
        return errors

    def line_of_key(self, name: str) -> int | None:
        """1-based line of the first ``name = ...`` in the file (a ``[source]`` key)."""
        pat = re.compile(rf"^\s*{re.escape(name)}\s*=")
        return next((i + 1 for i, ln in enumerate(self.lines) if pat.match(ln)), None)

    def error(self, table: str, index: int, field_name: str, message: str) -> DataFileError:
        return DataFileError(
            self.path,
            self.line_of(table, index, field_name),
            f"{table}[{index}].{field_name}",
            message,
        )
