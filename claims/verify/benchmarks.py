"""Benchmark identity: a claim's or a board's benchmark name + version -> BenchmarkId, and
whether an observation may settle a claim (cases/C33).

Identity is family + variant + version (+ agent/harness when stated). Names are matched
word for word against the tables below, never fuzzily: "SWE-bench Live" is not "Lite".
A claim that names no variant of a family that has variants, or a partial or missing
version where the board holds versions side by side, is *ambiguous*: never confirmed
or contradicted by one of the candidates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Family -> names it goes by (lower case, words separated by one space after
# normalising "-", "_" and ":").
FAMILY_NAMES: dict[str, tuple[str, ...]] = {
    "terminal-bench": ("terminal bench", "terminal bench core", "tbench", "t bench"),
    "swe-bench": ("swe bench",),
    "aa-intelligence-index": (
        "artificial analysis intelligence index",
        "aa intelligence index",
        "intelligence index",
    ),
    "code-arena-webdev": ("code arena webdev", "webdev arena", "lmarena webdev"),
    "lmarena-text": ("lmarena text", "text arena", "chatbot arena"),
}
# Family -> its variants (each a word that may follow the family name).
FAMILY_VARIANTS: dict[str, tuple[str, ...]] = {
    "swe-bench": ("full", "lite", "verified", "multimodal", "live", "pro"),
}
# Families whose versions stand side by side on the board (Terminal-Bench 2.0 and 2.1
# both have leaderboards): a claim must name its full version. Other families publish
# one current version; a claim naming none is read against the version the board shows,
# and the reason says which.
COEXISTING_VERSIONS: tuple[str, ...] = ("terminal-bench", "swe-bench")


@dataclass(frozen=True)
class BenchmarkId:
    """``family`` (a key of :data:`FAMILY_NAMES`, or the normalised name when unknown),
    ``variant`` (None when not stated), ``version`` (as stated: ``2``, ``2.0``, ``4.1``),
    ``agent`` (harness, when stated)."""

    family: str
    variant: str | None = None
    version: str | None = None
    agent: str | None = None

    def label(self) -> str:
        """``terminal-bench 3.0`` / ``swe-bench lite`` for reasons."""
        parts = [self.family, self.variant or "", self.version or ""]
        return " ".join(p for p in parts if p)


def _words(text: str) -> str:
    return " ".join(re.sub(r"[-_:/]+", " ", text.lower()).split())


def benchmark_id(name: str, version: str | None = None, agent: str | None = None) -> BenchmarkId:
    """Parse a benchmark name (``Terminal-Bench 4.0``, ``SWE-bench Verified``,
    ``Artificial Analysis Intelligence Index``) with an optional separate ``version``.
    A trailing number in the name is its version (``Terminal-Bench 2`` -> version ``2``);
    a trailing ``vN`` too. Pure."""
    words = _words(name)
    m = re.search(r"\s+v?(\d+(?:\.\d+)*)$", words)
    if m and version is None:
        version = m.group(1)
    if m:
        words = words[: m.start()]
    family, rest = words, ""
    for fam, names in FAMILY_NAMES.items():
        for n in sorted(names, key=len, reverse=True):
            if words == n or words.startswith(n + " "):
                family, rest = fam, words[len(n) :].strip()
                break
        if family == fam:
            break
    variant = None
    if rest and rest in FAMILY_VARIANTS.get(family, ()):
        variant = rest
    elif rest:
        family = f"{family} {rest}"
    return BenchmarkId(family, variant, str(version) if version else None, agent)


@dataclass(frozen=True)
class Match:
    """How an observation's benchmark relates to a claim's: ``status`` is ``same``
    (comparable), ``ambiguous`` (a candidate, neither confirms nor contradicts) or
    ``different``; ``why`` for reasons."""

    status: str
    why: str = ""


def _version_prefix(short: str, full: str) -> bool:
    return full == short or full.startswith(short + ".")


def match(claim: BenchmarkId, observed: BenchmarkId, board_versions: tuple[str, ...]) -> Match:
    """Whether ``observed`` may settle ``claim`` (C33). ``board_versions``: every version
    the observations hold for this family and variant."""
    if claim.family != observed.family:
        return Match("different", f"{observed.label()} is another benchmark")
    variants = FAMILY_VARIANTS.get(claim.family, ())
    if variants and claim.variant != observed.variant:
        if claim.variant is None:
            return Match(
                "ambiguous",
                f"the claim names no variant of {claim.family} "
                f"({'/'.join(variants)}); {observed.label()} is only a possible match",
            )
        return Match("different", f"{observed.label()} is another variant")
    if claim.agent and observed.agent and _words(claim.agent) != _words(observed.agent):
        return Match("different", f"another agent ({observed.agent})")
    if claim.version == observed.version or observed.version is None:
        return Match("same")
    if claim.version is None:
        if claim.family in COEXISTING_VERSIONS or len(set(board_versions)) > 1:
            listed = ", ".join(sorted(set(board_versions)))
            return Match("ambiguous", f"the claim names no version; the board holds {listed}")
        return Match(
            "same",
            f"version {observed.version}, the one the board publishes (the claim names none)",
        )
    if _version_prefix(claim.version, observed.version) and "." not in claim.version:
        return Match(
            "ambiguous",
            f"version {claim.version} could be {claim.version}.0 or {observed.version}; "
            f"the board holds {observed.version}",
        )
    return Match("different", f"version {observed.version}, not {claim.version}")
