"""verify_all end to end on a database built like the demo (subjects, sources, claims,
watches, observations inserted directly), plus re-runs, dismissal and resolution."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from helpers_verify import add_observation, build_demo_db
from sqlmodel import Session, select

from claims.store.review import ReviewError, dismiss_discrepancy, list_discrepancies
from claims.store.tables import Claim, Discrepancy, Event, Subject, Verdict, Watch
from claims.store.verification import verify_all
from claims.values.canonical import as_utc
from claims.values.value import boolean_value, quantity

CHECK = dt.datetime(2026, 11, 28, 6, 0, tzinfo=dt.UTC)
NOW = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def demo(engine):
    return build_demo_db(engine)


def _verdicts(s):
    return {v.claim_id: v for v in s.exec(select(Verdict)).all()}


def _terminal_bench(s: Session) -> Discrepancy:
    """The demo's one Terminal-Bench 3.0 / 4.0 discrepancy."""
    rule = Discrepancy.rule == "same_value_different_version"
    return s.exec(select(Discrepancy).where(rule)).one()


def test_verify_all_on_demo_like_database(demo):
    engine, c, o = demo
    with Session(engine) as s:
        report = verify_all(s, now=NOW)
        v = _verdicts(s)
        status = {name: v[cid].status for name, cid in c.items()}
        assert status == {
            "before": "overdue",
            "on_b": "overdue",
            "on_c": "overdue",
            "tb4": "disputed",
            "tb3": "disputed",
            "p28": "unverified",
            "p3": "unverified",
            "tps": "unverified",
            "k3w": "pending",
            "k2p": "confirmed",
            "k2lic": "contradicted",
            "k2w": "unverified",
        }
        assert report.statuses == {
            "overdue": 3,
            "disputed": 2,
            "unverified": 4,
            "pending": 1,
            "confirmed": 1,
            "contradicted": 1,
        }
        assert v[c["on_b"]].reason == (
            "overdue by 24 days as of 2026-11-28 06:00 UTC: promised on 2026-11-04 (deadline "
            "2026-11-04), no weights seen on the hub; sources disagree: "
            "the same date with relations that exclude each other, e.g. “before” vs “on”"
        )
        assert v[c["before"]].reason.startswith("overdue by 25 days as of 2026-11-28 06:00 UTC")
        assert v[c["on_b"]].as_of.replace(tzinfo=dt.UTC) == CHECK
        assert v[c["k2p"]].reason == (
            f"observed 1.06T (1,058,589,420,528) params (observation #{o['k2p']}) is within the claim's "
            "1T params (500B–1.5T params); the Hub count is derived from packed quantized weights"
        )
        assert json.loads(v[c["k2p"]].evidence_json) == [o["k2p"]]
        assert (
            v[c["k2lic"]].reason
            == f"observed modified-mit (observation #{o['k2lic']}) vs claimed mit"
        )
        assert v[c["tb4"]].reason.startswith(
            "no observation; sources disagree: the same score reported for two versions of a benchmark: 65.7% reported for "
            "Terminal-Bench 4.0 by Moonshot AI via “Article A” and for Terminal-Bench 3.0 by "
            "Moonshot AI via “Article B”"  # no publisher, no URL: named by title
        )
        assert v[c["tps"]].reason == (
            "no throughput measurement with stated conditions (provider, batch, context); "
            "missing evidence: a measurement with stated conditions (provider, percentile) "
            "for kimi-k3"
        )
        assert v[c["k3w"]].reason.startswith(
            "promised on 2026-12-15 (deadline 2026-12-15); not due yet"
        )
        assert v[c["k2w"]].reason.startswith("weights already listed at the first hub check")

        disc = {d.rule: d for d in s.exec(select(Discrepancy)).all()}
        assert sorted(disc) == [
            "contradicted_by_observation",
            "date_relation_mismatch",
            "different_subject",
            "same_value_different_version",
        ]
        assert disc["date_relation_mismatch"].state == "open"
        assert json.loads(disc["date_relation_mismatch"].claim_ids_json) == sorted(
            [c["before"], c["on_b"], c["on_c"]]
        )
        assert disc["same_value_different_version"].state == "open"
        assert disc["contradicted_by_observation"].state == "open"
        assert json.loads(disc["contradicted_by_observation"].observation_ids_json) == [o["k2lic"]]
        note = disc["different_subject"]
        assert (note.state, note.note) == ("dismissed", "not comparable: different subjects")
        assert note.reason == (
            "not a conflict: different subjects (kimi-k3.1-pro vs kimi-k3): never compared; the "
            "intervals overlap anyway (2.8T params (2.75T–2.85T params) vs about 3T params "
            "(2T–4T params))"
        )
        assert report.open_discrepancies == 3
        events = s.exec(select(Event)).all()
        kinds = sorted(e.kind for e in events)
        # first verdicts alert only when a figure does not hold or a promise is broken: the
        # contradicted licence, the two disputed scores and the three overdue weights dates;
        # the confirmed and unverified ones do not
        # and every discrepancy that opens is announced once, the contradicted licence's too
        assert kinds == ["discrepancy_opened"] * 3 + ["verdict_changed"] * 6
        firsts = sorted(
            json.loads(e.detail_json)["to"] for e in events if e.kind == "verdict_changed"
        )
        assert firsts == ["contradicted", "disputed", "disputed", "overdue", "overdue", "overdue"]
        assert report.events_added == 9
        assert sorted(x["to"] for x in report.changed) == firsts


def test_rerun_changes_nothing_and_adds_no_event(demo):
    engine, _c, _o = demo
    with Session(engine) as s:
        verify_all(s, now=NOW)
        before_v = [
            (v.id, v.status, v.reason, v.evidence_json, v.checked_at)
            for v in s.exec(select(Verdict)).all()
        ]
        before_d = [(d.id, d.state, d.reason) for d in s.exec(select(Discrepancy)).all()]
        n_events = len(s.exec(select(Event)).all())
        report = verify_all(s, now=NOW + dt.timedelta(hours=1))
        assert (report.changed, report.opened, report.resolved, report.events_added) == (
            [],
            [],
            [],
            0,
        )
        assert [
            (v.id, v.status, v.reason, v.evidence_json, v.checked_at)
            for v in s.exec(select(Verdict)).all()
        ] == before_v
        assert [(d.id, d.state, d.reason) for d in s.exec(select(Discrepancy)).all()] == before_d
        assert len(s.exec(select(Event)).all()) == n_events


def test_dismissal_is_kept_and_weights_landing_resolves_the_date_discrepancy(demo):
    engine, c, o = demo
    with Session(engine) as s:
        verify_all(s, now=NOW)
        tb = _terminal_bench(s)
        with pytest.raises(ReviewError):
            dismiss_discrepancy(s, tb.id, "  ")
        dismiss_discrepancy(s, tb.id, "Moonshot's own post says 4.0; article B misread it", now=NOW)
        report = verify_all(s, now=NOW)
        s.refresh(tb)
        assert (tb.state, tb.note) == (
            "dismissed",
            "Moonshot's own post says 4.0; article B misread it",
        )
        assert {x["claim_id"] for x in report.changed} == {c["tb4"], c["tb3"]}
        assert _verdicts(s)[c["tb4"]].status == "unverified"

        # the weights land: a later run of the org listing sees the K3.1 Pro repo
        k31 = s.exec(select(Subject).where(Subject.slug == "kimi-k3.1-pro")).one()
        org = s.exec(select(Watch).where(Watch.name == "hf-org-moonshotai")).one()
        landed = dt.datetime(2026, 11, 30, 8, 0, tzinfo=dt.UTC)
        org.last_success = landed
        s.add(org)
        add_observation(
            s,
            k31,
            "weights_available",
            boolean_value(True),
            org,
            landed,
            {"repo": "moonshotai/Kimi-K3.1-Pro"},
        )
        s.commit()
        report = verify_all(s, now=landed + dt.timedelta(hours=1))
        v = _verdicts(s)
        assert (v[c["on_b"]].status, v[c["before"]].status) == ("contradicted", "contradicted")
        assert v[c["on_b"]].reason.startswith(
            "late by 26 days: weights first seen 2026-11-30 08:00 UTC"
        )
        assert v[c["before"]].reason.startswith("late by 27 days")
        date_d = s.exec(
            select(Discrepancy).where(Discrepancy.rule == "date_relation_mismatch")
        ).one()
        assert date_d.state == "resolved"
        assert "settled by observation #" in date_d.reason
        assert date_d.id in report.resolved
        assert sorted((x["claim_id"], x["from"], x["to"]) for x in report.changed) == [
            (c["before"], "overdue", "contradicted"),
            (c["on_b"], "overdue", "contradicted"),
            (c["on_c"], "overdue", "contradicted"),
        ]
        # each late promise is now a claim contradicted by an observation: three verdict
        # changes and the date discrepancy resolved are the events; that discrepancy,
        # settled, says which promises the landing broke, so no second one opens per fact
        assert report.opened == [] and report.events_added == 3 + 1
        late = s.exec(
            select(Discrepancy).where(Discrepancy.rule == "contradicted_by_observation")
        ).all()
        assert len(late) == 1  # the MIT licence claim only
        assert len(s.exec(select(Event).where(Event.kind == "discrepancy_resolved")).all()) == 1
        assert verify_all(s, now=landed + dt.timedelta(hours=2)).events_added == 0


def test_list_discrepancies_has_both_sides_with_sources_and_claimants(demo):
    engine, c, _o = demo
    with Session(engine) as s:
        verify_all(s, now=NOW)
        rows = list_discrepancies(s, subject="kimi-k3.1-pro")
        assert [r["rule"] for r in rows] == [
            "same_value_different_version",
            "date_relation_mismatch",
            "different_subject",
        ]
        assert [r["rule"] for r in list_discrepancies(s, subject="kimi-k3")] == [
            "different_subject"
        ]
        tb = rows[0]
        assert [
            (x["value"], x["qualifiers"]["version"], x["source"], x["claimant"])
            for x in tb["sides"]
        ] == [
            ("65.7%", "4.0", "Article A", "Moonshot AI"),
            ("65.7%", "3.0", "Article B", "Moonshot AI"),
        ]
        with pytest.raises(ReviewError):
            list_discrepancies(s, subject="nope")


def test_leaderboard_observation_settles_the_benchmark_version(demo):
    engine, c, _o = demo
    with Session(engine) as s:
        verify_all(s, now=NOW)
        k31 = s.exec(select(Subject).where(Subject.slug == "kimi-k3.1-pro")).one()
        board = Watch(
            name="tbench-board",
            adapter="leaderboard_html",
            url="https://www.tbench.ai/leaderboard",
            state="ok",
            last_success=CHECK,
        )
        s.add(board)
        s.flush()
        seen = add_observation(
            s,
            k31,
            "benchmark_score",
            quantity("65.7", "percent", exact=True),
            board,
            CHECK,
            {"benchmark": "Terminal-Bench", "version": "4.0"},
        )
        s.commit()
        report = verify_all(s, now=NOW)
        v = _verdicts(s)
        assert (v[c["tb4"]].status, v[c["tb3"]].status) == ("confirmed", "contradicted")
        assert v[c["tb3"]].reason == (
            f"65.7% is observed for Terminal-Bench 4.0 (observation #{seen.id}), "
            "not for version 3.0"
        )
        tb = _terminal_bench(s)
        assert tb.state == "resolved" and tb.id in report.resolved
        assert tb.reason.endswith(
            f"settled by observation #{seen.id}: claim #{c['tb4']} confirmed, "
            f"claim #{c['tb3']} contradicted ({v[c['tb3']].reason})"
        )
        # one fact, one discrepancy: the opened one resolves (announced once), and the
        # 3.0 claim it settled against is no second, contradicted-claim discrepancy
        assert report.opened == []
        rows = s.exec(select(Discrepancy)).all()
        assert not [r for r in rows if c["tb3"] in json.loads(r.claim_ids_json) and r.id != tb.id]
        resolved = s.exec(select(Event).where(Event.kind == "discrepancy_resolved")).all()
        assert [json.loads(e.detail_json)["discrepancy"] for e in resolved] == [tb.key]


def test_an_open_contradiction_a_settled_conflict_explains_is_resolved_once(demo):
    """A database from before the one-per-fact rule holds an open contradicted-claim row
    for a claim a settled conflict lists: the next run resolves it, saying which
    discrepancy explains it, and a further run changes nothing."""
    engine, c, _o = demo
    with Session(engine) as s:
        verify_all(s, now=NOW)
        tb = _terminal_bench(s)
        s.add(
            Discrepancy(
                key="legacy",
                subject_id=tb.subject_id,
                attribute="benchmark_score",
                rule="contradicted_by_observation",
                claim_ids_json=json.dumps([c["tb3"]]),
                observation_ids_json="[]",
                state="open",
                reason="old row",
                opened_at=NOW,
            )
        )
        k31 = s.exec(select(Subject).where(Subject.slug == "kimi-k3.1-pro")).one()
        board = Watch(name="b", adapter="leaderboard_html", url="https://b.example/", state="ok")
        s.add(board)
        s.flush()
        q = {"benchmark": "Terminal-Bench", "version": "4.0"}
        add_observation(s, k31, "benchmark_score", quantity("65.7", "percent"), board, CHECK, q)
        s.commit()
        report = verify_all(s, now=NOW + dt.timedelta(hours=1))
        legacy = s.exec(select(Discrepancy).where(Discrepancy.key == "legacy")).one()
        assert legacy.state == "resolved" and legacy.id in report.resolved
        assert legacy.reason == f"old row; no longer found (explained by discrepancy #{tb.id})"
        assert verify_all(s, now=NOW + dt.timedelta(hours=2)).events_added == 0


def test_source_short_name_for_reasons():
    from claims.store.tables import Source

    assert Source(key="k", title="A very long title", publisher=" Máquina Web ").short_name == (
        "Máquina Web"
    )
    assert Source(key="k", title="T", url="https://www.example.com/a?b=1").short_name == (
        "example.com"
    )
    assert Source(key="report-k31-launch", title="T").short_name == "“T”"
    long = Source(
        key="k", title="Kimi K3.1 Pro launch: architecture, pricing and open-weights date"
    )
    # cut at a word, not mid-word, nor after "and"
    assert long.short_name == "“Kimi K3.1 Pro launch: architecture, pricing…”"
    assert Source(key="report-k31-launch", title=" ").short_name == "report-k31-launch"


def test_sources_that_would_read_alike_get_names_that_differ():
    """Two seed articles without publisher or URL were "Kimi 3.1 Pro: 2.8T open…" and
    "Kimi K3.1 Pro launch…" (fresh-user trial); two articles of one publisher shared its
    name; sources with one title shared it."""
    from claims.store.tables import Source
    from claims.subjects.sourcenames import source_names

    def names(*sources: Source) -> list[str]:
        for i, s in enumerate(sources):
            s.id = i + 1
        got = source_names(sources)
        return [got[s.id] for s in sources]

    assert names(
        Source(key="a", title="Kimi 3.1 Pro: 2.8T open weights against Fable 5.1"),
        Source(key="b", title="Kimi K3.1 Pro launch: architecture, pricing and open-weights date"),
    ) == [
        "“Kimi 3.1 Pro: 2.8T open weights against Fable 5.1”",  # short enough to be whole
        "“Kimi K3.1 Pro launch: architecture, pricing…”",
    ]
    start = "Kimi K3.1 Pro launch: architecture, pricing and open weights, "
    assert names(
        Source(key="a", title=start + "the full interview with the team"),
        Source(key="b", title=start + "a summary"),
    ) == [
        "“Kimi K3.1 Pro launch: architecture, pricing and open weights, the full…”",
        "“Kimi K3.1 Pro launch: architecture, pricing and open weights, a summary”",
    ]
    assert names(
        Source(key="a", title="Kimi K3.1 Pro: 104B active", publisher="Máquina Web"),
        Source(key="b", title="Cerebras serves Kimi at 2,000 tokens/s", publisher="Máquina Web"),
        Source(key="c", title="Other", publisher="Jornal A"),
    ) == [
        "Máquina Web: “Kimi K3.1 Pro: 104B active”",
        "Máquina Web: “Cerebras serves Kimi at 2,000 tokens/s”",
        "Jornal A",
    ]
    assert names(Source(key="a", title="Launch"), Source(key="b", title="launch")) == [
        "“Launch” [a]",
        "“launch” [b]",
    ]


def test_who_names_a_claimant_once_when_the_source_is_its_own():
    from claims.values.value import quantity
    from claims.verify.facts import ClaimView

    def view(claimant: str, source: str) -> ClaimView:
        return ClaimView(
            1, "k", 1, "s", "total_params", quantity("1", "params"), {}, 1, source, claimant
        )

    assert view("Moonshot AI", "Moonshot AI").who() == "Moonshot AI"
    assert view("Cerebras", "Máquina Web").who() == "Cerebras via Máquina Web"


def test_event_titles_name_subject_label_qualifiers_and_source(demo):
    """Alerts and feeds show event titles: each names the subject and attribute in words
    and tells apart claims of the same figure (three 'on'/'before' promises, two versions
    of one score)."""
    engine, c, _o = demo
    with Session(engine) as s:
        verify_all(s, now=NOW)
        titles = [e.title for e in s.exec(select(Event).order_by(Event.id)).all()]
        assert len(set(titles)) == len(titles)
        assert (
            "Kimi K3.1 Pro: Benchmark score 65.7% [benchmark: Terminal-Bench, version: 4.0] "
            "(Moonshot AI via “Article A”) is disputed"
        ) in titles
        assert (
            "Kimi K3.1 Pro: Benchmark score: the same score reported for two versions of a "
            "benchmark (open)"
        ) in titles
        tb = _terminal_bench(s)
        dismiss_discrepancy(s, tb.id, "the lab's own post says 4.0", now=NOW)
        verify_all(s, now=NOW)
        changed = s.exec(select(Event).where(Event.id > len(titles)).order_by(Event.id)).all()
        assert [e.title for e in changed] == [
            "Kimi K3.1 Pro: Benchmark score: the same score reported for two versions of a "
            "benchmark (dismissed)",
            "Kimi K3.1 Pro: Benchmark score 65.7% [benchmark: Terminal-Bench, version: 4.0] "
            "(Moonshot AI via “Article A”) is now unverified (was disputed)",
            "Kimi K3.1 Pro: Benchmark score 65.7% [benchmark: Terminal-Bench, version: 3.0] "
            "(Moonshot AI via “Article B”) is now unverified (was disputed)",
        ]


def test_a_second_dismissal_adds_its_note_and_keeps_the_first(demo):
    """A second `review N --dismiss` replaced the first reviewer's note (fresh-user trial)."""
    engine, _c, _o = demo
    with Session(engine) as s:
        verify_all(s, now=NOW)
        tb = _terminal_bench(s)
        dismiss_discrepancy(s, tb.id, "article B misread it", now=NOW)
        later = NOW + dt.timedelta(days=2)
        dismiss_discrepancy(s, tb.id, "confirmed with the lab", now=later)
        s.refresh(tb)
        assert (tb.state, tb.note) == (
            "dismissed",
            f"article B misread it | {later:%Y-%m-%d}: confirmed with the lab",
        )
        assert as_utc(tb.closed_at) == NOW  # the first dismissal's time


def test_a_dismissal_is_one_event_and_a_different_subject_note_cannot_be_dismissed(demo):
    """A trial: the dismissal reached no timeline or feed, and `review 3 --dismiss again`
    silently "dismissed" the automatic different-subjects note once more."""
    engine, _c, _o = demo
    with Session(engine) as s:
        verify_all(s, now=NOW)
        tb = _terminal_bench(s)
        dismiss_discrepancy(s, tb.id, "article B misread it", now=NOW)
        dismiss_discrepancy(s, tb.id, "confirmed with the lab", now=NOW + dt.timedelta(days=1))
        events = s.exec(select(Event).where(Event.kind == "discrepancy_dismissed")).all()
        assert [(e.title, json.loads(e.detail_json)["note"]) for e in events] == [
            (
                "Kimi K3.1 Pro: Benchmark score: the same score reported for two versions of "
                "a benchmark (dismissed)",
                "article B misread it",
            )
        ]
        note = s.exec(select(Discrepancy).where(Discrepancy.rule == "different_subject")).one()
        with pytest.raises(ReviewError, match="is a note .* nothing to dismiss"):
            dismiss_discrepancy(s, note.id, "again", now=NOW)
        s.refresh(note)
        assert note.note == "not comparable: different subjects"


def test_dismissing_a_contradiction_is_announced_and_a_resolved_row_is_refused(demo):
    """Review: a row already resolved was "closed" a second time (now refused: nothing to
    dismiss). A contradicted-claim row was announced when it opened (discrepancy_opened,
    like any other), so its dismissal is announced too, once."""
    engine, _c, _o = demo
    with Session(engine) as s:
        verify_all(s, now=NOW)
        contra = s.exec(
            select(Discrepancy).where(Discrepancy.rule == "contradicted_by_observation")
        ).first()
        assert contra is not None and contra.state == "open"
        dismiss_discrepancy(s, contra.id, "the hub is wrong here", now=NOW)
        tb = _terminal_bench(s)
        tb.state = "resolved"
        s.add(tb)
        s.commit()
        with pytest.raises(ReviewError, match=rf"^#{tb.id} is resolved: nothing to dismiss$"):
            dismiss_discrepancy(s, tb.id, "late note", now=NOW)
        (dismissed,) = s.exec(select(Event).where(Event.kind == "discrepancy_dismissed")).all()
        assert json.loads(dismissed.detail_json) == {
            "discrepancy": contra.key,
            "note": "the hub is wrong here",
            "rule": "contradicted_by_observation",
        }


def test_removing_a_contradicted_claim_announces_its_resolution(demo):
    """Review: when `tracker load` removes a contradicted claim, its verdict goes with it,
    so nothing told subscribers (who heard "contradicted") that it was corrected."""
    engine, c, _o = demo
    with Session(engine) as s:
        verify_all(s, now=NOW)
        for v in s.exec(select(Verdict).where(Verdict.claim_id == c["k2lic"])).all():
            s.delete(v)
        s.flush()
        s.delete(s.get(Claim, c["k2lic"]))
        s.commit()
        verify_all(s, now=NOW + dt.timedelta(hours=1))
        (event,) = s.exec(select(Event).where(Event.kind == "discrepancy_resolved")).all()
        assert json.loads(event.detail_json)["reason"].endswith(
            f"; no longer found (claim #{c['k2lic']} corrected or removed in its data file)"
        )


def test_128k_and_131072_claims_an_observation_contradicts_are_one_discrepancy(demo):
    """Two sources state one context window, as "128K" and as "131,072" (one fact: 128K
    reads as 131,072 = 2^17): a config saying 200,000 contradicts both, and they are one
    discrepancy (one row, so one review and one count), never two."""
    engine, c, _o = demo
    with Session(engine) as s:
        k2 = s.get(Claim, c["k2lic"])
        config = s.exec(select(Watch).where(Watch.name == "hf-config-k2")).one()
        for n, (figure, source) in enumerate([("128", 10**3), ("131072", 1)]):
            s.add(
                Claim(
                    key=f"context-{n}",
                    subject_id=k2.subject_id,
                    attribute="context_window",
                    qualifiers_json="{}",
                    value_json=json.dumps(
                        quantity(figure, "tokens", scale=source).to_dict(), default=str
                    ),
                    source_id=s.get(Claim, c["k2p" if n else "k2lic"]).source_id,
                    claimant="Moonshot AI",
                )
            )
        add_observation(
            s, s.get(Subject, k2.subject_id), "context_window",
            quantity("200000", "tokens", exact=True), config, CHECK,
        )  # fmt: skip
        s.commit()
        verify_all(s, now=NOW)
        rows = s.exec(select(Discrepancy).where(Discrepancy.attribute == "context_window")).all()
        assert [(r.rule, r.state, sorted(json.loads(r.claim_ids_json))) for r in rows] == [
            (
                "contradicted_by_observation",
                "open",
                sorted(x.id for x in s.exec(select(Claim).where(Claim.key.like("context-%")))),
            )
        ]
