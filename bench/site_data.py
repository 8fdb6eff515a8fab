"""Synthetic curated data for the site-build bench: subjects x claims, with sources."""

from __future__ import annotations

import hashlib
import random

from sqlalchemy import insert, text
from sqlalchemy.engine import Engine

from claims.models import Claim, Source, Subject, SubjectAlias, dumps
from claims.stated import parse_stated

ATTRS = (
    ("total_params", "{}B"),
    ("active_params", "{}B"),
    ("context_window", "{}K"),
    ("price_input_usd_per_mtok", "{}.{}"),
    ("price_output_usd_per_mtok", "{}.{}"),
    ("output_tokens_per_second", "{}"),
    ("benchmark_score", "{}.{}%"),
)


def populate(engine: Engine, subjects: int, claims_per: int, sources: int = 50) -> None:
    """``subjects`` subjects, each with ``claims_per`` claims spread over ``sources`` sources."""
    rng = random.Random(7)
    with engine.begin() as conn:
        conn.execute(
            insert(Subject),
            [
                {"id": i + 1, "slug": f"site-model-{i:05d}", "name": f"Site Model {i:05d}"}
                for i in range(subjects)
            ],
        )
        conn.execute(
            insert(SubjectAlias),
            [
                {"subject_id": i + 1, "namespace": "name", "alias": f"Site Model {i:05d}"}
                for i in range(subjects)
            ],
        )
        conn.execute(
            insert(Source),
            [
                {"id": j + 1, "key": f"src-{j:03d}", "title": f"Launch report {j}", "kind": "press",
                 "url": f"https://example.org/{j}", "published": "2026-10-27"}
                for j in range(sources)
            ],
        )  # fmt: skip
        rows = []
        for i in range(subjects):
            for k in range(claims_per):
                attr, pattern = ATTRS[k % len(ATTRS)]
                stated = pattern.format(rng.randint(1, 999), rng.randint(0, 9))
                unit = "points" if attr == "benchmark_score" else None
                value = parse_stated(stated, attr, unit=unit)
                quals = (
                    {"benchmark": f"Bench-{k}", "version": "1.0"}
                    if attr == "benchmark_score"
                    else {}
                )
                key = hashlib.sha256(f"{i}:{k}:{stated}".encode()).hexdigest()
                rows.append(
                    {
                        "key": key,
                        "subject_id": i + 1,
                        "attribute": attr,
                        "qualifiers_json": dumps(quals),
                        "value_json": dumps(value.to_dict()),
                        "raw_text": stated,
                        "source_id": k % sources + 1,
                        "claimant": "Vendor",
                    }
                )
        conn.execute(insert(Claim), rows)


def touch_one_claim(engine: Engine) -> None:
    """Change the value of one claim (the one-claim rebuild scenario)."""
    value = parse_stated("1234B", "total_params")
    with engine.begin() as conn:
        conn.execute(
            text("UPDATE claim SET value_json = :v, raw_text = '1234B' WHERE id = 1"),
            {"v": dumps(value.to_dict())},
        )
