"""A small fixed claims database for site, feed and browser tests (frozen times).

Figures are test data, not the curated data/ files. One subject carries the C19
payloads (a decoded scraped name and an excerpt with ``<img onerror>``/``<script>``).
"""

from __future__ import annotations

import datetime as dt

from sqlmodel import Session

from claims.store.outbox import make_event
from claims.store.tables import (
    Claim,
    Discrepancy,
    Observation,
    Snapshot,
    Source,
    Subject,
    SubjectAlias,
    SubjectVariant,
    Verdict,
    Watch,
)
from claims.values.canonical import dumps
from claims.values.value import boolean_value, date_value, quantity, text_value

UTC = dt.UTC
NOW = dt.datetime(2026, 11, 29, 16, 0, tzinfo=UTC)
C19_NAME = 'Orca-9B <Instruct> & "Chat"'
C19_EXCERPT = "<img src=x onerror=alert(1)> AT&T R&D"
SCRIPT_PAYLOAD = "<script>document.title='pwned'</script>"
SHA_HF = "a" * 64
SHA_PRICE_1 = "b" * 64
SHA_PRICE_2 = "c" * 64


def t(day: int, hour: int = 12, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, 11, day, hour, minute, tzinfo=UTC)


def populate(engine) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """Fill ``engine`` and return ids by name."""
    ids: dict[str, int] = {}
    with Session(engine) as s:
        k31 = Subject(
            slug="kimi-k3.1-pro",
            name="Kimi K3.1 Pro",
            organization="Moonshot AI",
            hub_org="moonshotai",
        )
        k2 = Subject(
            slug="kimi-k2-thinking",
            name="Kimi K2 Thinking",
            organization="Moonshot AI",
            hub_org="moonshotai",
        )
        orca = Subject(slug="orca-9b", name=C19_NAME, organization="Acme")
        s.add_all([k31, k2, orca])
        s.flush()
        s.add_all(
            [
                SubjectAlias(subject_id=k31.id, alias="K3.1 Pro"),
                SubjectAlias(subject_id=k31.id, alias="Kimi 3.1 Pro"),
                SubjectVariant(subject_id=k31.id, name="Highspeed"),
                SubjectVariant(subject_id=k31.id, name="Standard"),
            ]
        )
        press_a = Source(
            key="press-a",
            url="https://news.example.com/a?x=1&y=2",
            title="Artigo A",
            publisher="Jornal A",
            published="2026-10-20",
            language="pt-BR",
        )
        press_b = Source(
            key="press-b",
            url="https://news.example.com/b",
            title="Artigo B",
            publisher="Revista B",
            published="2026-10-21",
            language="pt-BR",
        )
        scraped = Source(
            key="scraped",
            url="https://acme.example.com/orca",
            title="Acme <Orca> page",
            language="en",
            kind="vendor",
        )
        s.add_all([press_a, press_b, scraped])
        hf = Watch(
            name="hf-moonshotai",
            adapter="huggingface_org",
            url="https://huggingface.co/api/models?author=moonshotai",
            params_json='{"org": "moonshotai"}',
            state="ok",
            last_run=t(20),
            last_success=t(20),
        )
        price = Watch(
            name="openrouter",
            adapter="openrouter_pricing",
            url="https://openrouter.ai/api/v1/models",
            state="failing",
            consecutive_failures=3,
            last_run=t(22),
            last_success=t(20),
            last_error="HTTP 503 <html>",
            last_error_kind="bad_status",
            failing_since=t(21),
        )
        s.add_all([hf, price])
        s.flush()
        snap_hf = Snapshot(watch_id=hf.id, url=hf.url, status=200, fetched_at=t(20), sha256=SHA_HF)
        snap_p1 = Snapshot(
            watch_id=price.id, url=price.url, status=200, fetched_at=t(1), sha256=SHA_PRICE_1
        )
        snap_p2 = Snapshot(
            watch_id=price.id, url=price.url, status=200, fetched_at=t(10), sha256=SHA_PRICE_2
        )
        s.add_all([snap_hf, snap_p1, snap_p2])
        s.flush()

        def claim(subject, attr, value, source, claimant, raw, quals=None):  # type: ignore[no-untyped-def]
            c = Claim(
                key=f"{subject.slug}-{attr}-{source.key}-{raw}",
                subject_id=subject.id,
                attribute=attr,
                qualifiers_json=dumps(quals or {}),
                value_json=dumps(value.to_dict()),
                raw_text=raw,
                source_id=source.id,
                claimant=claimant,
                created_at=t(1),
            )
            s.add(c)
            s.flush()
            return c

        c_tb3 = claim(
            k31,
            "benchmark_score",
            quantity("65.7", "percent"),
            press_a,
            "Moonshot AI",
            "65,7%",
            {"benchmark": "Terminal-Bench", "version": "3.0"},
        )
        c_tb4 = claim(
            k31,
            "benchmark_score",
            quantity("65.7", "percent"),
            press_b,
            "Moonshot AI",
            "65,7%",
            {"benchmark": "Terminal-Bench", "version": "4.0"},
        )
        c_w_on = claim(
            k31,
            "weights_release_date",
            date_value("2026-11-04", "on"),
            press_a,
            "Moonshot AI",
            "4 de novembro",
        )
        c_w_before = claim(
            k31,
            "weights_release_date",
            date_value("2026-11-04", "before"),
            press_b,
            "Moonshot AI",
            "antes de 4 de novembro",
        )
        c_price = claim(
            k31,
            "price_input_usd_per_mtok",
            quantity("0.45", "usd_per_mtok", exact=True),
            press_a,
            "Moonshot AI",
            "US$ 0,45",
        )
        c_orca = claim(
            orca,
            "context_window",
            quantity("128", "tokens", scale=1000),
            scraped,
            "Acme",
            C19_EXCERPT,
        )
        c_orca2 = claim(orca, "license", text_value("apache-2.0"), scraped, "Acme", SCRIPT_PAYLOAD)
        # Article A also gives K2 Thinking's price: another subject, so only a note.
        c_k2_price = claim(
            k2,
            "price_input_usd_per_mtok",
            quantity("0.60", "usd_per_mtok", exact=True),
            press_a,
            "Moonshot AI",
            "US$ 0,60",
        )

        def obs(subject, attr, value, first, last, snap, quals=None, current=True):  # type: ignore[no-untyped-def]
            o = Observation(
                subject_id=subject.id,
                attribute=attr,
                qualifiers_json=dumps(quals or {}),
                value_json=dumps(value.to_dict()),
                value_key=value.key(),
                snapshot_id=snap.id,
                source_url=snap.url,
                first_seen=first,
                last_seen=last,
                current=current,
                watch_id=snap.watch_id,
            )
            s.add(o)
            s.flush()
            return o

        o_p1 = obs(
            k31,
            "price_input_usd_per_mtok",
            quantity("0.60", "usd_per_mtok", exact=True),
            t(1),
            t(10),
            snap_p1,
            current=False,
        )
        o_p2 = obs(
            k31,
            "price_input_usd_per_mtok",
            quantity("0.45", "usd_per_mtok", exact=True),
            t(10),
            t(20),
            snap_p2,
        )
        obs(
            k2,
            "weights_available",
            boolean_value(True),
            t(6, 9, 30),
            t(20),
            snap_hf,
            {"repo": "moonshotai/Kimi-K2-Thinking"},
        )
        obs(
            k2,
            "license",
            text_value("modified-mit"),
            t(6, 9, 30),
            t(20),
            snap_hf,
            {"repo": "moonshotai/Kimi-K2-Thinking"},
        )

        def verdict(c, status, reason, evidence=()):  # type: ignore[no-untyped-def]
            s.add(
                Verdict(
                    claim_id=c.id,
                    status=status,
                    reason=reason,
                    evidence_json=dumps(list(evidence)),
                    as_of=t(20),
                    checked_at=t(20),
                )
            )

        verdict(c_tb3, "disputed", "another source gives the same score for Terminal-Bench 4.0")
        verdict(c_tb4, "disputed", "another source gives the same score for Terminal-Bench 3.0")
        verdict(c_w_on, "overdue", "no weights repo as of 2026-11-20 12:00 UTC")
        verdict(c_w_before, "overdue", "no weights repo as of 2026-11-20 12:00 UTC")
        verdict(c_price, "confirmed", "OpenRouter lists $0.45", [o_p2.id])
        verdict(c_orca, "unverified", "nothing observed & nothing to compare <yet>")
        verdict(c_orca2, "unverified", "no hub repo")

        d_tb = Discrepancy(
            key="d-tb",
            subject_id=k31.id,
            attribute="benchmark_score",
            rule="same_value_different_version",
            claim_ids_json=dumps([c_tb3.id, c_tb4.id]),
            reason="65.7% reported for Terminal-Bench 3.0 and for 4.0",
            opened_at=t(2),
        )
        d_date = Discrepancy(
            key="d-date",
            subject_id=k31.id,
            attribute="weights_release_date",
            rule="date_relation_mismatch",
            claim_ids_json=dumps([c_w_on.id, c_w_before.id]),
            reason="one source says on 2026-11-04, another before",
            opened_at=t(2),
        )
        d_price = Discrepancy(
            key="d-price",
            subject_id=k31.id,
            attribute="price_input_usd_per_mtok",
            rule="contradicted_by_observation",
            claim_ids_json=dumps([c_price.id]),
            observation_ids_json=dumps([o_p1.id, o_p2.id]),
            state="resolved",
            reason="price changed from $0.60 to $0.45",
            opened_at=t(3),
            closed_at=t(10),
        )
        d_note = Discrepancy(
            key="d-note",
            subject_id=k2.id,
            attribute="price_input_usd_per_mtok",
            rule="different_subject",
            claim_ids_json=dumps([c_price.id, c_k2_price.id]),
            state="dismissed",
            reason="not a conflict: different subjects (kimi-k2-thinking vs kimi-k3.1-pro)",
            note="not comparable: different subjects",
            opened_at=t(3),
            closed_at=t(3),
        )
        s.add_all([d_tb, d_date, d_price, d_note])

        e1 = make_event(
            "price_changed",
            "Kimi K3.1 Pro input price: $0.60 → $0.45",
            subject_id=k31.id,
            detail={
                "attribute": "price_input_usd_per_mtok",
                "from": quantity("0.60", "usd_per_mtok", exact=True).to_dict(),
                "to": quantity("0.45", "usd_per_mtok", exact=True).to_dict(),
            },
        )
        e1.created_at = t(10, 12, 5)
        e2 = make_event(
            "weights_landed",
            "Kimi K2 Thinking weights landed",
            subject_id=k2.id,
            detail={"repo": "moonshotai/Kimi-K2-Thinking"},
        )
        e2.created_at = t(6, 9, 30)
        e3 = make_event(
            "watch_failing", "openrouter failing", watch_id=price.id, detail={"reason": "HTTP 503"}
        )
        e3.created_at = t(22)
        e4 = make_event(
            "license_changed",
            'Orca licence <b>changed</b> & "more"',
            subject_id=orca.id,
            detail={"attribute": "license", "from": "mit", "to": "apache-2.0"},
        )
        e4.created_at = t(15, 8)
        s.add_all([e1, e2, e3, e4])
        s.commit()
        ids.update(
            k31=k31.id,
            k2=k2.id,
            orca=orca.id,
            e1=e1.id,
            e2=e2.id,
            e3=e3.id,
            e4=e4.id,
            price_watch=price.id,
        )
    return ids
