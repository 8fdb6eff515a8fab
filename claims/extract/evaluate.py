"""Score extracted candidates against hand labels (the ``expected.json`` corpus format).

Pure: the caller reads the corpus and runs the extractor (``bench/extract_eval.py``). The
label format and the matching rules are those of ``../shared/articles/expected.json`` and its
scorer ``../shared/tools/score_articles.py``, so both give the same recall, precision and
misattribution counts:

- a label is ``{"attribute", "value" | "low"/"high", "benchmark"?, "version"?,
  "leaderboard"?, "hardware"?, "relation"?}``; ``value`` and the names may be lists of
  accepted readings;
- recall: labels in ``claims`` matched by a candidate attributed to the article's subject
  (same attribute, value within 1 %, dates the same day or the label's coarser month/year,
  every word of one accepted name among the qualifiers' words, the relation when given);
- precision: candidates on the subject matching a ``claims`` or ``optional`` label, over all
  candidates on the subject;
- misattributions: ``must_not`` figures (another model's) on the subject with the same
  attribute and value.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Label = Mapping[str, Any]
Cand = Mapping[str, Any]


def words(text: object) -> list[str]:
    """Lower-case letters-and-digits words of ``text`` (NFKC; any dash or space separates)."""
    return re.findall(r"[a-z0-9]+", unicodedata.normalize("NFKC", str(text)).lower())


def _alts(x: object) -> list[Any]:
    return x if isinstance(x, list) else [x]


def candidate_value(c: Cand) -> float | str | None:
    """A candidate's comparable value: a float for numbers, a string for dates/text."""
    v = c.get("value")
    x: Any = v
    if isinstance(v, dict):
        for k in ("value", "amount", "number", "date", "text"):
            if v.get(k) is not None:
                x = v[k]
                break
        else:
            x = v.get("low") if v.get("low") is not None else v.get("high")
    if x is None or isinstance(x, bool):
        return None
    if isinstance(x, (int, float)):
        return float(x)
    try:
        return float(str(x))
    except ValueError:
        return str(x)


def same_value(got: float | str | None, want: object) -> bool:
    """Numbers within 1 %; dates equal to the label's precision; text by letters and digits."""
    if got is None:
        return False
    if isinstance(want, (int, float)):
        if not isinstance(got, float):
            return False
        w = float(want)
        return abs(got - w) <= 0.01 * max(abs(got), abs(w), 1e-9)
    want, got = str(want), str(got)
    if re.fullmatch(r"\d{4}(-\d{2}){0,2}", want):
        return got[:10] == want if len(want) == 10 else got.startswith(want)
    return "".join(words(got)) == "".join(words(want))


def _qualifier_words(c: Cand) -> list[str]:
    out: list[str] = []
    for v in (c.get("qualifiers") or {}).values():
        if v is not None:
            out += words(v)
    return out


def is_subject(c: Cand, slug: str) -> bool:
    """True when the candidate is attributed to ``slug``."""
    s = c.get("subject")
    return s is not None and str(s).lower() == slug.lower()


def matches(label: Label, c: Cand, slug: str) -> bool:
    """True when candidate ``c`` on ``slug`` states ``label`` (rules in the module doc)."""
    if c.get("attribute") != label["attribute"] or not is_subject(c, slug):
        return False
    v = c.get("value") if isinstance(c.get("value"), dict) else {}
    assert isinstance(v, dict)
    if "low" in label:
        lo, hi = v.get("low"), v.get("high")
        if lo is None or not same_value(float(lo), label["low"]):
            return False
        if label.get("high") is not None and (
            hi is None or not same_value(float(hi), label["high"])
        ):
            return False
    elif not any(same_value(candidate_value(c), w) for w in _alts(label["value"])):
        return False
    if "relation" in label and str(v.get("relation") or "").lower() != label["relation"]:
        return False
    qw = _qualifier_words(c)
    for key in ("benchmark", "leaderboard", "hardware"):
        if key in label and not any(
            (want := words(n)) and all(w in qw for w in want) for n in _alts(label[key])
        ):
            return False
    if "version" in label:
        ver = str(label["version"])
        if not (all(w in qw for w in words(ver)) or any(ver in w for w in qw)):
            return False
    return True


@dataclass
class ArticleScore:
    """One article's result: labels found and missed, candidates on the subject, extras
    (on the subject, matching no label), violations (``must_not`` label, candidate)."""

    name: str
    subject: str
    lang: str
    expected: int
    found: int
    on_subject: list[Cand]
    misses: list[Label]
    extras: list[Cand]
    violations: list[tuple[Label, Cand]]
    elsewhere: int
    error: str | None = None

    @property
    def matched(self) -> int:
        """Candidates on the subject that match a claims/optional label."""
        return len(self.on_subject) - len(self.extras)


def score_article(name: str, spec: Label, candidates: Sequence[Cand]) -> ArticleScore:
    """Score one article's candidates (dicts of ``Candidate.to_dict``) against ``spec`` (one
    entry of expected.json: subject, lang, claims, optional, must_not)."""
    slug = spec["subject"]
    mine = [c for c in candidates if is_subject(c, slug)]
    labels = list(spec.get("claims", []))
    misses = [e for e in labels if not any(matches(e, c, slug) for c in mine)]
    known = labels + list(spec.get("optional", []))
    extras = [c for c in mine if not any(matches(e, c, slug) for e in known)]
    viol = [
        (m, c)
        for m in spec.get("must_not", [])
        for c in mine
        if c.get("attribute") == m["attribute"]
        and any(same_value(candidate_value(c), w) for w in _alts(m["value"]))
    ]
    return ArticleScore(
        name, slug, str(spec.get("lang", "auto")), len(labels), len(labels) - len(misses),
        mine, misses, extras, viol, len(candidates) - len(mine),
    )  # fmt: skip


def failed_article(name: str, spec: Label, error: str) -> ArticleScore:
    """An article whose extraction failed: every label missed."""
    labels = list(spec.get("claims", []))
    return ArticleScore(
        name, spec["subject"], str(spec.get("lang", "auto")), len(labels), 0, [], labels, [],
        [], 0, error,
    )  # fmt: skip


@dataclass
class Tally:
    """Counts of one group (an attribute, a strategy): labels expected/found, candidates
    on the subject/matched, violations."""

    expected: int = 0
    found: int = 0
    attributed: int = 0
    matched: int = 0
    violations: int = 0

    def recall(self) -> float | None:
        """found / expected, None when nothing was expected."""
        return self.found / self.expected if self.expected else None

    def precision(self) -> float | None:
        """matched / attributed, None when nothing was attributed."""
        return self.matched / self.attributed if self.attributed else None


@dataclass
class Summary:
    """The whole corpus: totals plus tallies by attribute and by attribution strategy."""

    total: Tally = field(default_factory=Tally)
    by_attribute: dict[str, Tally] = field(default_factory=dict)
    by_how: dict[str, Tally] = field(default_factory=dict)


def summarize(scores: Iterable[ArticleScore], labels: Mapping[str, Label]) -> Summary:
    """Totals and per-attribute / per-strategy (the candidate's ``how``) tallies; ``labels``
    maps article name -> its spec (to count expected labels per attribute). Per strategy,
    "expected" counts only the labels found, under the strategy that found them."""
    out = Summary()

    def bump(groups: dict[str, Tally], key: str, **delta: int) -> None:
        t = groups.setdefault(key, Tally())
        for k, d in delta.items():
            setattr(t, k, getattr(t, k) + d)

    for s in scores:
        out.total.expected += s.expected
        out.total.found += s.found
        out.total.attributed += len(s.on_subject)
        out.total.matched += s.matched
        out.total.violations += len(s.violations)
        for e in labels[s.name].get("claims", []):
            hit = not any(e is m for m in s.misses)
            bump(out.by_attribute, e["attribute"], expected=1, found=int(hit))
            # Recall by strategy: a found label counts for the strategy of the first
            # candidate that states it (a missed one has no strategy).
            how = next((c.get("how") for c in s.on_subject if matches(e, c, s.subject)), None)
            if how is not None:
                bump(out.by_how, str(how), expected=1, found=1)
        extra_ids = {id(c) for c in s.extras}
        bad = Counter(id(c) for _, c in s.violations)
        for c in s.on_subject:
            ok = int(id(c) not in extra_ids)
            for groups, key in ((out.by_attribute, c["attribute"]), (out.by_how, c.get("how"))):
                bump(groups, str(key), attributed=1, matched=ok, violations=bad[id(c)])
    return out


def describe(c: Cand) -> str:
    """One line for a candidate: attribute, qualifiers, relation and value, how, quote."""
    v = c.get("value") if isinstance(c.get("value"), dict) else {"value": c.get("value")}
    assert isinstance(v, dict)
    shown = v.get("value")
    if shown is None and (v.get("low") is not None or v.get("high") is not None):
        shown = f"{v.get('low')}..{v.get('high')}"
    rel = f" {v['relation']}" if v.get("relation") else ""
    q = {k: x for k, x in (c.get("qualifiers") or {}).items() if x is not None}
    qs = f" {q}" if q else ""
    return f"{c.get('attribute')}{qs} ={rel} {shown!r} [{c.get('how')}] <- {c.get('text')!r}"
