"""Score the extractor on a labelled corpus: recall, precision and misattributions.

Usage: ``python bench/extract_eval.py [CORPUS] [--quiet] [--extractor rules|llm --model NAME
[--base-url URL]]``
(``make eval-extract``). CORPUS is a folder in the format of ``../shared/articles``: the
articles (``*.txt`` or ``*.html``), ``subjects.toml`` and ``expected.json`` (labels; format
and matching rules in :mod:`claims.extract.evaluate`). Default: ``../shared/articles`` next
to the repository; when it is absent the script says so and exits 0 (the corpus is
third-party text kept outside the repository).

Prints, per article, recall, precision and misattributions with its misses, extras and
violations (``--quiet`` leaves those lists out), then tallies per attribute and per
attribution strategy (the candidate's ``how``), then the last line
``recall R precision P misattributions V articles N``. Exit status 0 always (a
measurement, not a gate).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from claims.extract.evaluate import (  # noqa: E402
    ArticleScore,
    Summary,
    Tally,
    describe,
    failed_article,
    score_article,
    summarize,
)
from claims.extract.extractors import RuleExtractor  # noqa: E402
from claims.subjects.references import subjects_from_config  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "articles"


def run_article(path: Path, spec: dict, subjects: list, extractor: Any = None) -> list[dict]:
    """Candidates (``to_dict``) of one article, read as ``tracker claims extract`` reads it,
    by ``extractor`` (default: the rule-based one)."""
    from tracker.articles.read import read_article_file

    article = read_article_file(path)
    published = dt.date.fromisoformat(spec["published"]) if spec.get("published") else None
    found = (extractor or RuleExtractor()).extract(
        article.text,
        subjects,
        lang=spec.get("lang", "auto"),
        published=published or article.published,
        default_subject=spec["subject"],
    )
    return [c.to_dict() for c in found]


def _ratio(x: float | None) -> str:
    return "  -  " if x is None else f"{x:.2f}"


def print_article(s: ArticleScore, quiet: bool) -> None:
    """One article's line, then (unless ``quiet``) its misses, extras and violations."""
    prec = s.matched / len(s.on_subject) if s.on_subject else 0.0
    err = f" ERROR {s.error}" if s.error else ""
    print(
        f"== {s.name} [{s.subject}, {s.lang}]: recall {s.found}/{s.expected}, precision "
        f"{s.matched}/{len(s.on_subject)} ({prec:.2f}), misattributions {len(s.violations)}; "
        f"{s.elsewhere} on no or another subject{err}"
    )
    if quiet:
        return
    for e in s.misses:
        print(f"  missed   { ({k: x for k, x in e.items() if k != 'why'}) }")
    for c in s.extras:
        print(f"  extra    {describe(c)}")
    for m, c in s.violations:
        print(f"  MISATTR  {m['attribute']} {m['value']} ({m.get('why', '')}): {describe(c)}")


def print_tallies(title: str, groups: dict[str, Tally], recall: bool = True) -> None:
    """A table of tallies: recall (or, per strategy, the labels it found), precision and
    misattributions per group."""
    print(f"-- by {title}")
    print(
        f"  {'':28} {'recall' if recall else 'labels found':>14} {'precision':>16} {'misattr':>8}"
    )
    for key in sorted(groups):
        t = groups[key]
        first = (
            f"{t.found:>3}/{t.expected:<3} {_ratio(t.recall()):>5}" if recall else f"{t.found:>13}"
        )
        print(
            f"  {key:28} {first}   "
            f"{t.matched:>3}/{t.attributed:<3} {_ratio(t.precision()):>5}   {t.violations:>6}"
        )


def evaluate(corpus: Path, quiet: bool = False, extractor: Any = None) -> Summary:
    """Run and score every labelled article of ``corpus`` with ``extractor`` (default:
    rule-based); print the report; return totals."""
    labels = json.loads((corpus / "expected.json").read_text(encoding="utf-8"))
    subjects = subjects_from_config(
        tomllib.loads((corpus / "subjects.toml").read_text(encoding="utf-8"))
    )
    articles = {k: v for k, v in labels.items() if not k.startswith("_")}
    scores = []
    for name, spec in articles.items():
        try:
            cands = run_article(corpus / name, spec, subjects, extractor)
        except Exception as exc:  # noqa: BLE001 - one broken article must not end the run
            scores.append(failed_article(name, spec, f"{type(exc).__name__}: {exc}"))
        else:
            scores.append(score_article(name, spec, cands))
        print_article(scores[-1], quiet)
    summary = summarize(scores, articles)
    print_tallies("attribute", summary.by_attribute)
    print_tallies("attribution strategy (how)", summary.by_how, recall=False)
    t = summary.total
    print(
        f"recall {_ratio(t.recall())} precision {_ratio(t.precision())} "
        f"misattributions {t.violations} articles {len(scores)}"
    )
    return summary


def main(argv: list[str] | None = None) -> int:
    """Command-line entry; see the module doc."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--quiet", action="store_true", help="totals only, no misses/extras")
    ap.add_argument("--extractor", choices=("rules", "llm"), default="rules")
    ap.add_argument("--model", help="LLM model name (with --extractor llm)")
    ap.add_argument("--base-url", help="OpenAI-compatible API base URL (with --extractor llm)")
    args = ap.parse_args(argv)
    if not (args.corpus / "expected.json").is_file():
        print(f"no corpus at {args.corpus} (expected.json missing): nothing to evaluate")
        return 0
    extractor = None
    if args.extractor == "llm":
        from tracker.cli.claims import make_extractor  # the CLI's own choice (key from settings)

        extractor = make_extractor("llm", args.model, args.base_url)
    evaluate(args.corpus, args.quiet, extractor)
    return 0


if __name__ == "__main__":
    sys.exit(main())
