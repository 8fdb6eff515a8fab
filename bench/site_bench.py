"""Site build benchmark: 1,000 subjects x 30 claims; full build, then a one-claim rebuild.

Run alone with ``python bench/site_bench.py``; ``bench/run.py`` (``make bench``) reuses
:func:`populate` and :func:`touch_one_claim`. Prints pages per second for the full build and the time of a
rebuild after one claim changed (which rewrites only the files whose bytes changed).
"""

from __future__ import annotations

import datetime as dt
import tempfile
import time
from pathlib import Path

from sqlmodel import Session, select

from claims.db import make_engine
from claims.models import Claim, Source, Subject, Verdict, dumps
from claims.values import quantity
from claims.vocabulary import ATTRIBUTES
from tracker.website import build_site

SUBJECTS, CLAIMS_PER_SUBJECT, SOURCES = 1000, 30, 50
NOW = dt.datetime(2026, 11, 29, 12, tzinfo=dt.UTC)


def populate(engine) -> None:  # type: ignore[no-untyped-def]
    numeric = [a for a, (kinds, unit) in ATTRIBUTES.items() if "quantity" in kinds and unit]
    with Session(engine) as s:
        sources = [
            Source(key=f"src-{i}", title=f"Source {i}", language="en") for i in range(SOURCES)
        ]
        s.add_all(sources)
        s.flush()
        for n in range(SUBJECTS):
            subj = Subject(slug=f"model-{n:04d}", name=f"Model {n:04d}", organization="Lab")
            s.add(subj)
            s.flush()
            made = []
            for k in range(CLAIMS_PER_SUBJECT):
                attr = numeric[k % len(numeric)]
                unit = ATTRIBUTES[attr][1]
                value = quantity(str(k + 1), unit or "points")
                c = Claim(
                    key=f"{n}-{k}",
                    subject_id=subj.id,
                    attribute=attr,
                    qualifiers_json=dumps({"variant": f"v{k // len(numeric)}"}),
                    value_json=dumps(value.to_dict()),
                    raw_text=str(k + 1),
                    source_id=sources[(n + k) % SOURCES].id,
                    claimant="Lab",
                    created_at=NOW,
                )
                made.append(c)
            s.add_all(made)
            s.flush()
            for c in made:
                s.add(
                    Verdict(
                        claim_id=c.id,
                        status="unverified",
                        reason="nothing observed",
                        checked_at=NOW,
                    )
                )
        s.commit()


def touch_one_claim(engine) -> None:  # type: ignore[no-untyped-def]
    """Change one claim (its claimant): the one-claim rebuild scenario."""
    with Session(engine) as s:
        claim = s.exec(select(Claim).where(Claim.key == "500-3")).one()
        claim.claimant = "Another lab"
        s.add(claim)
        s.commit()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        engine = make_engine(root / "bench.db")
        t0 = time.perf_counter()
        populate(engine)
        took = time.perf_counter() - t0
        print(f"database: {SUBJECTS} subjects x {CLAIMS_PER_SUBJECT} claims in {took:.1f} s")
        t0 = time.perf_counter()
        full = build_site(engine, root / "site", now=NOW)
        took = time.perf_counter() - t0
        files = full.pages_written + full.pages_unchanged
        print(f"full build: {files} files in {took:.1f} s = {files / took:.0f} files/s")
        touch_one_claim(engine)
        t0 = time.perf_counter()
        again = build_site(engine, root / "site", now=NOW)
        took = time.perf_counter() - t0
        print(
            f"one-claim rebuild: {took:.1f} s, {again.pages_written} files rewritten, "
            f"{again.pages_unchanged} unchanged"
        )


if __name__ == "__main__":
    main()
