"""The extractor interface: article text -> candidate claims, however they are found.

:class:`RuleExtractor` (the offline default) runs :func:`claims.extract.extractor.extract`;
``tracker.articles.llm.LlmExtractor`` asks a language model and keeps only what
:func:`claims.extract.grounding.ground` finds in the text. Both return
:class:`~claims.extract.candidates.Candidate` lists in text order.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Protocol

from claims.extract.candidates import Candidate
from claims.extract.extractor import extract
from claims.subjects.references import SubjectRef


class Extractor(Protocol):
    """Anything that reads candidate claims from article text."""

    name: str

    def extract(
        self,
        text: str,
        subjects: Sequence[SubjectRef],
        *,
        lang: str | None = "auto",
        published: dt.date | None = None,
        default_subject: str | None = None,
        warnings: list[str] | None = None,
    ) -> list[Candidate]:
        """Candidates of ``text`` (arguments as :func:`claims.extract.extractor.extract`);
        notes for the user go to ``warnings``."""
        ...


class RuleExtractor:
    """The rule-based extractor (no network, deterministic)."""

    name = "rules"

    def extract(
        self,
        text: str,
        subjects: Sequence[SubjectRef],
        *,
        lang: str | None = "auto",
        published: dt.date | None = None,
        default_subject: str | None = None,
        warnings: list[str] | None = None,
    ) -> list[Candidate]:
        """:func:`claims.extract.extractor.extract` with the same arguments."""
        return extract(
            text,
            subjects,
            lang=lang,
            published=published,
            default_subject=default_subject,
            warnings=warnings,
        )
