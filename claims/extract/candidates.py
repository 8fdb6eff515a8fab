"""A candidate claim read from an article: what :func:`claims.extract.extractor.extract` returns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from claims.extract.segment import Sentence
from claims.values.value import Value


@dataclass
class Candidate:
    """One candidate claim. ``start``/``end`` are character offsets of ``text`` (the figure as
    written) in the article; ``how`` says how the subject was decided (``clause``, ``sentence``,
    ``anaphor`` ("The model ..." after a sentence naming it), ``claimant``, ``restated``,
    ``paragraph``, ``heading`` (the title or heading above names it), ``default``,
    ``other`` or ``none``); with ``other``, ``other_model`` names
    the model it was given to as written ("Orca 7B", "its predecessor"; ``None`` for a
    generic "a dense model")."""

    subject: str | None
    attribute: str
    qualifiers: dict[str, str]
    value: Value
    claimant: str | None
    start: int
    end: int
    text: str
    how: str = "none"
    warnings: list[str] = field(default_factory=list)
    other_model: str | None = None
    # internal resolution state
    _sentence: Sentence | None = field(default=None, repr=False)
    _hard_null: bool = field(default=False, repr=False)
    _soft_null: bool = field(default=False, repr=False)
    _claimant_pronoun: bool = field(default=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON shape of issue 3: subject, attribute, qualifiers, value (Value.to_dict), claimant,
        start, end, text, plus ``how``, ``other_model`` (``null`` unless ``how`` is
        ``other``) and ``warnings``."""
        return {
            "subject": self.subject,
            "attribute": self.attribute,
            "qualifiers": dict(self.qualifiers),
            "value": self.value.to_dict(),
            "claimant": self.claimant,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "how": self.how,
            "other_model": self.other_model,
            "warnings": list(self.warnings),
        }


def drop_repeats(candidates: Sequence[Candidate]) -> list[Candidate]:
    """``candidates`` without repeats of one sentence: a headline printed twice (page
    title and heading) states its figures once. Candidates alike in subject, attribute,
    qualifiers, value, claimant, the figure as written and its sentence's text (at the
    same place in it) keep only the first; the same figure in another sentence stays."""
    seen: set[tuple[object, ...]] = set()
    out: list[Candidate] = []
    for c in candidates:
        s = c._sentence
        quote = (s.text.strip(), c.start - s.start) if s is not None else (None, c.start)
        key = (
            c.subject, c.attribute, tuple(sorted(c.qualifiers.items())), c.value.key(),
            c.claimant, c.text, quote,
        )  # fmt: skip
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
