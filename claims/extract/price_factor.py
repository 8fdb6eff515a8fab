"""Qualifiers of a price factor: which variant costs how many times which baseline. Pure.

"Kimi K3.1 Pro Highspeed is twice as expensive as the Standard version" ->
``variant=Highspeed, relative_to=Standard``. Variant names are the subject's ``variants``
(data/subjects.toml), matched case-insensitively and stored as listed. A factor with no
named baseline ("twice as expensive") keeps ``relative_to`` unset and says so in its
warnings. "output is twice as expensive as input" compares the two sides of one price,
not two variants: it is skipped with a warning.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from claims.extract.candidates import Candidate
from claims.extract.lexicon import alternation
from claims.subjects.references import SubjectIndex, variant_word_re

BASELINE_UNKNOWN = "price factor without a named baseline: relative_to unset"
# Words after which the baseline is named ("as the Standard", "than", "da Standard").
_MARKER_RE = re.compile(r"\b(?:as|than|of|to|with|versus|vs|contra|que|d[aeo]s?)\b", re.I)
# "costs twice the Standard": the baseline right after the factor, with no marker word.
_DIRECT_RE = re.compile(r"\s*(?:the|a|o)\s+(?=[A-Z])")
_INPUT_RE = re.compile(r"\b(?:" + alternation("input_side") + r")", re.I)
_OUTPUT_RE = re.compile(r"\b(?:saída|saida|output|completion)", re.I)


def _variants(text: str, names: Sequence[str]) -> list[tuple[int, str]]:
    """(offset, listed spelling) of each variant name in ``text``, in order."""
    found = []
    for n in names:
        found += [(m.start(), n) for m in variant_word_re(n).finditer(text)]
    return sorted(found)


def _leads_to(words: str) -> bool:
    """True when ``words`` (between the marker and a variant name) are at most three
    lowercase words: "as the Standard", "than the standard"; not "as GPT-5 at standard"
    or "as Kimi K3 Highspeed" (another model's name comes first)."""
    tokens = words.split()
    return len(tokens) <= 3 and not any(t[0].isupper() or t[0].isdigit() for t in tokens)


def qualify_price_factors(
    candidates: list[Candidate], text: str, index: SubjectIndex, warnings: list[str]
) -> list[Candidate]:
    """``candidates`` with each ``price_factor`` given ``variant``/``relative_to`` from its
    clause; input-versus-output ratios are dropped (a line in ``warnings`` says so)."""
    out = []
    for c in candidates:
        if c.attribute != "price_factor" or c._sentence is None:
            out.append(c)
            continue
        cs, ce = c._sentence.clause_bounds(c.start)
        # the factor's own neighbourhood: a 50 KB clause made this quadratic
        before, after = text[max(cs, c.start - 300) : c.start], text[c.end : min(ce, c.end + 300)]
        if (_INPUT_RE.search(before) and _OUTPUT_RE.search(after)) or (
            _OUTPUT_RE.search(before) and _INPUT_RE.search(after)
        ):
            warnings.append(
                f"at {c.start}: {c.text!r}: ratio of output to input price, "
                "not a price factor between variants: skipped"
            )
            continue
        ref = index.subjects.get(c.subject or "")
        names = ref.variants if ref else [v for s in index.subjects.values() for v in s.variants]
        marker = _MARKER_RE.search(after) or _DIRECT_RE.match(after)
        tail = after[marker.end() :] if marker else ""
        bases = _variants(tail, names)
        base = bases[0][1] if bases and _leads_to(tail[: bases[0][0]]) else None
        named = [n for _, n in _variants(before, names) if n != base]
        if named:
            c.qualifiers["variant"] = named[-1]
        elif base is not None and c.qualifiers.get("variant") == base:
            del c.qualifiers["variant"]
        if base is not None:
            c.qualifiers["relative_to"] = base
        else:
            c.warnings.append(BASELINE_UNKNOWN)
        out.append(c)
    return out
