"""Subject references for extraction: slug, names (aliases) and variants, and finding them in text.

Input: a parsed ``data/subjects.toml`` dict (or rows from the database). Output:
:class:`SubjectRef` values and :class:`Mention` spans of their names and variants.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SubjectRef:
    """What extraction needs to know about a subject: ``slug``, the ``names`` it goes by in
    text ("Kimi K3.1 Pro", "K3.1 Pro"), its ``variants`` ("Highspeed") and ``organization``."""

    slug: str
    names: tuple[str, ...]
    variants: tuple[str, ...] = ()
    organization: str | None = None


@dataclass(frozen=True)
class Mention:
    """A subject name (``kind="subject"``) or variant (``kind="variant"``) at ``start``-``end``."""

    start: int
    end: int
    slug: str
    kind: str = "subject"
    name: str = ""


def subjects_from_config(data: Mapping[str, Any]) -> list[SubjectRef]:
    """``[[subject]]`` tables (data/subjects.toml shape) to refs; ``name`` counts as an alias.

    Raises :class:`ValueError` naming the entry when ``slug`` is missing.
    """
    refs: list[SubjectRef] = []
    for i, entry in enumerate(data.get("subject", [])):
        slug = entry.get("slug")
        if not slug:
            raise ValueError(f"subject #{i + 1}: missing slug")
        names = [entry.get("name") or slug, *entry.get("aliases", [])]
        refs.append(
            SubjectRef(
                slug=slug,
                names=tuple(dict.fromkeys(n for n in names if n)),
                variants=tuple(v for v in entry.get("variants", []) if v),
                organization=entry.get("organization"),
            )
        )
    return refs


class SubjectIndex:
    """Compiled name and variant patterns of a list of subjects.

    Names are matched whole, longest first, case-sensitively, and never as the prefix of a
    longer version ("K3" does not match inside "K3.1"). A variant names its subject only
    when exactly one subject has a variant of that name.
    """

    def __init__(self, subjects: Sequence[SubjectRef]) -> None:
        self.subjects = {s.slug: s for s in subjects}
        self._by_name: dict[str, str] = {}
        for s in subjects:
            for n in s.names:
                self._by_name.setdefault(n.lower(), s.slug)
        variant_owner: dict[str, set[str]] = {}
        for s in subjects:
            for v in s.variants:
                variant_owner.setdefault(v, set()).add(s.slug)
        self._variants = {v: next(iter(o)) for v, o in variant_owner.items() if len(o) == 1}
        self._name_re = _alternation(self._by_name, re.IGNORECASE)
        # Variants are ordinary words ("Standard"); match them capitalized only.
        self._variant_re = _alternation({v: v for v in self._variants}, 0)

    def mentions(self, text: str) -> list[Mention]:
        """Subject names and variant names in ``text``, in order."""
        out: list[Mention] = []
        if self._name_re is not None:
            for m in self._name_re.finditer(text):
                out.append(
                    Mention(
                        m.start(), m.end(), self._by_name[m.group(0).lower()], "subject", m.group(0)
                    )
                )
        if self._variant_re is not None:
            for m in self._variant_re.finditer(text):
                out.append(
                    Mention(m.start(), m.end(), self._variants[m.group(0)], "variant", m.group(0))
                )
        out.sort(key=lambda x: x.start)
        return out

    def is_name(self, text: str) -> bool:
        """True when ``text`` starts with one of the subjects' names, or is the first words
        of one ("Kimi K2" of "Kimi K2 Thinking"): a model, not a claimant."""
        if self._name_re is not None and self._name_re.match(text) is not None:
            return True
        start = text.casefold().rstrip(".") + " "
        return len(start) > 4 and any(n.casefold().startswith(start) for n in self._by_name)

    def is_variant(self, text: str) -> bool:
        """True when ``text`` is one of the subjects' variant names ("Highspeed"): a
        variant promises figures, it does not state them (not a claimant)."""
        return self._variant_re is not None and self._variant_re.fullmatch(text) is not None

    def names_a_model(self, text: str) -> bool:
        """:meth:`is_name` or :meth:`is_variant`: a model, never who states a figure. A
        subject's organization is no model even when a name starts with it ("Nimbus Labs"
        of "Nimbus Labs Cirrus 12B")."""
        if text.casefold() in {o.casefold() for o in self.organizations()}:
            return False
        return self.is_name(text) or self.is_variant(text)

    def organization(self, slug: str | None) -> str | None:
        """The organization of subject ``slug`` ("Moonshot AI"), if known."""
        s = self.subjects.get(slug or "")
        return s.organization if s else None

    def organizations(self) -> Iterable[str]:
        """All known organizations, used to expand "Moonshot" to "Moonshot AI"."""
        return [s.organization for s in self.subjects.values() if s.organization]


def _alternation(names: Iterable[str], flags: int) -> re.Pattern[str] | None:
    words = sorted(set(names), key=len, reverse=True)
    if not words:
        return None
    alt = "|".join(re.escape(w) for w in words)
    return re.compile(rf"(?<![\w.-])(?:{alt})(?![\w-]|\.\d)", flags)


def listed_variant(name: object, variants: Iterable[str]) -> str | None:
    """The listed spelling (subjects.toml) of variant ``name``, compared ignoring case
    ("fast" -> "Fast"), or None when ``variants`` has no such name (or ``name`` is empty)."""
    want = str(name or "").strip().casefold()
    return next((v for v in variants if v.casefold() == want), None) if want else None


def variant_word_re(name: str) -> re.Pattern[str]:
    """``name`` as a whole word of text, any case ("Highspeed", "the standard tier"); a
    hyphen or letter next to it makes another word ("Highspeed-2" is not "Highspeed")."""
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.I)
