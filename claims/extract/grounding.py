"""Ground claims proposed by a language model in the article text, or drop them.

A proposal is a dict in the candidate schema an LLM is asked for (see
:data:`PROPOSAL_SCHEMA`): ``subject`` (a slug), ``attribute``, ``value`` (a number, a
``{"low", "high"}`` range, an ISO date or a licence id), optional ``qualifiers`` and
``claimant``, and ``quote``: the words of the article that state it. A proposal becomes a
:class:`~claims.extract.candidates.Candidate` (``how="llm"``) only when

1. its attribute is one extraction produces and its subject a slug of the subjects given;
2. its quote occurs in the text (hyphen-like characters and runs of spaces compared
   loosely, letters exactly);
3. re-reading the quote with the rule-based readers gives the same value: a figure of
   :func:`claims.extract.figures.scan_figures` equal to it (or inside the figure's stated
   interval), a date of :func:`claims.extract.dates.scan_dates`, a licence name of
   :data:`claims.extract.rules.LICENSE_NAME_RE`.

Otherwise it is dropped with a reason (:class:`Rejection`). Pure: the model is called by
``tracker.articles.llm``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from claims.extract import rules as R
from claims.extract.candidates import Candidate
from claims.extract.dates import scan_dates
from claims.extract.figures import scan_figures
from claims.extract.normalize import normalize_hyphens
from claims.subjects.references import SubjectRef
from claims.values.value import Value, text_value, value_range
from claims.vocabulary import ATTRIBUTES

# Attributes an article states (the rest are observed by adapters, never extracted).
EXTRACTABLE = (
    "total_params", "active_params", "context_window", "price_input_usd_per_mtok",
    "price_output_usd_per_mtok", "price_change_pct", "release_date", "weights_release_date",
    "license", "output_tokens_per_second", "weights_precision_bits", "benchmark_score",
    "leaderboard_rank", "hardware_units", "speedup_factor", "price_factor",
)  # fmt: skip
PROPOSAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "claims": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["subject", "attribute", "value", "quote"],
                "properties": {
                    "subject": {"type": "string"},
                    "attribute": {"enum": list(EXTRACTABLE)},
                    "value": {},
                    "qualifiers": {"type": "object"},
                    "claimant": {"type": ["string", "null"]},
                    "quote": {"type": "string"},
                },
            },
        }
    },
}
_UNITS = {"benchmark_score": ("percent", "points"), "hardware_units": ("count",)}
_DATES = ("release_date", "weights_release_date")


@dataclass(frozen=True)
class Rejection:
    """A proposal dropped by grounding, and why (one sentence)."""

    proposal: Mapping[str, Any]
    reason: str


def ground(
    proposals: Sequence[Any],
    text: str,
    subjects: Sequence[SubjectRef],
    locale: str,
    published: dt.date | None = None,
) -> tuple[list[Candidate], list[Rejection]]:
    """(candidates grounded in ``text``, rejections with reasons), rules in the module doc.
    Candidates are in text order; a proposal that is not a dict is rejected, never raised."""
    slugs = {s.slug for s in subjects}
    norm = _loose(text)
    out: list[Candidate] = []
    rejected: list[Rejection] = []
    for p in proposals:
        if not isinstance(p, Mapping):
            rejected.append(Rejection({"proposal": p}, "not an object"))
            continue
        reason, cand = _ground_one(p, text, norm, slugs, locale, published)
        if cand is None:
            rejected.append(Rejection(p, reason))
        else:
            out.append(cand)
    out.sort(key=lambda c: c.start)
    return out, rejected


def _loose(s: str) -> str:
    """Hyphens normalised and spaces unified, same length (so offsets carry over)."""
    return re.sub(r"\s", " ", normalize_hyphens(s))


def _ground_one(
    p: Mapping[str, Any],
    text: str,
    norm: str,
    slugs: set[str],
    locale: str,
    published: dt.date | None,
) -> tuple[str, Candidate | None]:
    attr, subject, quote = p.get("attribute"), p.get("subject"), p.get("quote")
    if attr not in EXTRACTABLE:
        return f"attribute {attr!r} is not one extraction produces", None
    if subject not in slugs:
        return f"subject {subject!r} is not in the subjects file", None
    if not isinstance(quote, str) or not quote.strip():
        return "no quote", None
    q = " ".join(_loose(quote).split())
    at = _find(norm, q)
    if at < 0:
        return f"quote {quote!r} does not occur in the article", None
    span = text[at : at + len(q)]
    found = _reread(str(attr), p.get("value"), span, locale, published)
    if isinstance(found, str):
        return found, None
    value, (a, b) = found
    raw_q = p.get("qualifiers")
    quals: Mapping[Any, Any] = raw_q if isinstance(raw_q, Mapping) else {}
    claimant = p.get("claimant") if isinstance(p.get("claimant"), str) else None
    cand = Candidate(
        str(subject), str(attr), {str(k): str(v) for k, v in quals.items() if v is not None},
        value, claimant, at + a, at + b, text[at + a : at + b], how="llm",
    )  # fmt: skip
    return "", cand


def _find(norm: str, quote: str) -> int:
    """Offset of ``quote`` in ``norm`` with runs of spaces matched loosely, else -1."""
    i = norm.find(quote)
    if i >= 0:
        return i
    rx = re.compile(r"\s+".join(re.escape(w) for w in quote.split()))
    m = rx.search(norm)
    return m.start() if m else -1


def _number(x: Any) -> Decimal | None:
    if isinstance(x, bool) or x is None:
        return None
    try:
        return Decimal(str(x))
    except InvalidOperation:
        return None


def _reread(
    attr: str, want: Any, span: str, locale: str, published: dt.date | None
) -> tuple[Value, tuple[int, int]] | str:
    """The value re-read from the quote that equals ``want`` and its offsets in the quote,
    or the reason there is none."""
    if attr in _DATES:
        for d in scan_dates(span, locale, published):
            if isinstance(want, str) and d.reading.iso.startswith(want[:10]):
                return d.reading.to_value(), (d.start, d.end)
        return f"no date {want!r} in the quote"
    if attr == "license":
        for m in R.LICENSE_NAME_RE.finditer(span):
            lic = R.license_id(m.group("lic"))
            if isinstance(want, str) and lic == want.lower():
                return text_value(lic), (m.start(), m.end())
        return f"no licence {want!r} in the quote"
    units = _UNITS.get(attr) or (ATTRIBUTES[attr][1] or "count",)
    if isinstance(want, Mapping):
        lo, hi = _number(want.get("low")), _number(want.get("high"))
        for f in scan_figures(span, locale):
            for unit in units:
                v = f.to_value(unit)
                if v is not None and v.kind == "range" and (v.low, v.high) == (lo, hi):
                    return value_range(lo, hi, unit), (f.start, f.end)  # type: ignore[arg-type]
        return f"no range {want!r} in the quote"
    n = _number(want)
    if n is None:
        return f"value {want!r} is not a number"
    for f in scan_figures(span, locale):
        for unit in units:
            v = f.to_value(unit)
            if v is not None and v.kind == "quantity" and _same(v, n):
                return v, (f.start, f.end)
    return f"the quote states no {want!r} (re-read: {_shown(span, locale, units)})"


def _same(v: Value, n: Decimal) -> bool:
    """``n`` is the figure's value, or the figure's sign-less value (a cut "-33%" as 33)."""
    x = v.value
    return isinstance(x, Decimal) and (x == n or abs(x) == abs(n))


def _shown(span: str, locale: str, units: tuple[str, ...]) -> str:
    vals = [f.to_value(units[0]) for f in scan_figures(span, locale)]
    got = [str(v.value) for v in vals if v is not None and v.value is not None]
    return ", ".join(got) or "no figure"
