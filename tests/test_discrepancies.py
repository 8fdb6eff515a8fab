"""One discrepancy per fact, each announced once (claims/verify/discrepancies.py), and
the demo's summary, site and events counting the same open discrepancies."""

from __future__ import annotations

import json
import re
from pathlib import Path

from helpers_verify import cv
from sqlmodel import Session, select

from claims.store.engine import make_engine
from claims.store.tables import Discrepancy, Event
from claims.values.value import quantity, text_value
from claims.verify.compare import (
    CONTRADICTED_BY_OBSERVATION,
    SAME_VALUE_DIFFERENT_VERSION,
    VALUES_DISAGREE,
    Finding,
)
from claims.verify.discrepancies import (
    differ_reason,
    explained_claims,
    found_settled,
    observation_findings,
    observation_key,
    settled_by,
    state_event,
)
from claims.verify.judge import Decision

REPO = Path(__file__).resolve().parent.parent


def dec(status: str, *evidence: int, reason: str = "") -> Decision:
    return Decision(status, reason or status, tuple(evidence), None)


TB = Finding("tb", SAME_VALUE_DIFFERENT_VERSION, 1, "benchmark_score", (15, 37), "one is wrong")


def test_a_conflict_is_settled_by_an_observed_verdict_of_one_of_its_claims():
    assert settled_by(TB, {15: dec("disputed"), 37: dec("disputed")}) is None
    decisions = {15: dec("contradicted", 50, reason="3.0, not 4.0"), 37: dec("confirmed", 50)}
    assert settled_by(TB, decisions) == (
        "settled by observation #50: claim #15 contradicted (3.0, not 4.0), claim #37 confirmed"
    )
    own = Finding("o", CONTRADICTED_BY_OBSERVATION, 1, "license", (3,), "x")
    assert settled_by(own, {3: dec("contradicted", 9)}) is None


def test_sides_each_confirmed_by_its_own_observation_settle_nothing():
    """128K and 256K context claims, confirmed by a provider's 131,072 (#3) and by the
    config's 262,144 (#11): the observations differ, so the conflict stays open and its
    reason names both observations and where each was read."""
    ctx = Finding("ctx", VALUES_DISAGREE, 1, "context_window", (2, 7), "128K vs 256K")
    decisions = {2: dec("confirmed", 3), 7: dec("confirmed", 11)}
    assert settled_by(ctx, decisions) is None
    origins = {
        3: "131,072 tokens, watch openrouter-models (openrouter_models)",
        11: "262,144 tokens, watch hf-model-x (huggingface_model), max_position_embeddings",
    }
    assert differ_reason(ctx, decisions, origins) == (
        "the observations differ: claim #2 confirmed by observation #3 (131,072 tokens, "
        "watch openrouter-models (openrouter_models)), claim #7 confirmed by observation "
        "#11 (262,144 tokens, watch hf-model-x (huggingface_model), "
        "max_position_embeddings); none settles which holds"
    )
    # one observation confirming one side and contradicting the other still settles it
    one = {2: dec("confirmed", 3), 7: dec("contradicted", 3, reason="observed 131,072")}
    assert settled_by(ctx, one) is not None and differ_reason(ctx, one, origins) is None


def test_a_claim_a_settled_conflict_lists_is_not_a_second_discrepancy():
    """The demo's Terminal-Bench 4.0 score: the board's 3.0 score settles the two-versions
    conflict and contradicts the 4.0 claim; that is one fact, one discrepancy."""
    claims = [
        cv(
            15,
            "benchmark_score",
            quantity("65.7", unit="%"),
            q={"benchmark": "TB", "version": "4.0"},
        ),
        cv(
            37,
            "benchmark_score",
            quantity("65.7", unit="%"),
            q={"benchmark": "TB", "version": "3.0"},
        ),
    ]
    decisions = {15: dec("contradicted", 50), 37: dec("confirmed", 50)}
    explained = explained_claims([TB], decisions)
    assert explained == {15, 37}
    assert observation_findings(claims, decisions, explained) == []
    # a conflict still unsettled explains nothing
    assert explained_claims([TB], {15: dec("disputed"), 37: dec("disputed")}) == set()


def test_claims_of_one_contradicted_fact_share_one_discrepancy():
    claims = [
        cv(3, "license", text_value("mit"), source=1),
        cv(4, "license", text_value("MIT"), source=2, claimant="Press"),
        cv(5, "license", text_value("apache-2.0"), source=3),
        cv(6, "context_window", quantity("256000", unit="tokens")),
    ]
    decisions = {
        3: dec("contradicted", 9, reason="observed modified-mit"),
        4: dec("contradicted", 9, 10, reason="observed modified-mit"),
        5: dec("contradicted", 9, reason="observed modified-mit"),
        6: dec("confirmed", 11),
    }
    found = observation_findings(claims, decisions)
    assert [(f.claim_ids, obs) for f, obs in found] == [((3, 4), (9, 10)), ((5,), (9,))]
    first = found[0][0]
    assert (first.rule, first.attribute, first.key) == (
        CONTRADICTED_BY_OBSERVATION,
        "license",
        observation_key("k3"),
    )
    assert first.reason == "Moonshot AI via source 1 and Press via source 2: observed modified-mit"
    # a conflict settled by the observation explains claims 3 and 5: only 4 stays
    conflict = Finding("c", VALUES_DISAGREE, 1, "license", (3, 5), "mit vs apache")
    rest = observation_findings(claims, decisions, explained_claims([conflict], decisions))
    assert [f.claim_ids for f, _ in rest] == [(4,)]


def test_each_change_of_state_means_one_event():
    assert state_event(None, "open") == "discrepancy_opened"
    assert state_event("resolved", "open") == "discrepancy_opened"
    assert state_event("open", "resolved") == "discrepancy_resolved"
    assert state_event(None, "resolved") == "discrepancy_resolved"  # found settled: one event
    assert found_settled(None, "resolved") and not found_settled("open", "resolved")
    assert state_event(None, "dismissed") is None  # a different-subjects note
    assert state_event("open", "open") is None


def test_demo_summary_site_and_events_count_the_same_open_discrepancies(tmp_path):
    from tracker.demo import run_demo

    engine = make_engine(tmp_path / "demo.db")
    site = tmp_path / "site"
    report = run_demo(
        engine,
        data_dir=REPO / "data",
        har=REPO / "data" / "recordings" / "demo.har",
        out_dir=site,
        snapshot_dir=tmp_path / "snapshots",
    )
    with Session(engine) as s:
        open_keys = sorted(
            d.key for d in s.exec(select(Discrepancy).where(Discrepancy.state == "open"))
        )
        announced = sorted(
            json.loads(e.detail_json)["discrepancy"]
            for e in s.exec(select(Event).where(Event.kind == "discrepancy_opened"))
        )
        resolved = s.exec(select(Event).where(Event.kind == "discrepancy_resolved")).all()
        tb = s.exec(
            select(Discrepancy).where(Discrepancy.rule == SAME_VALUE_DIFFERENT_VERSION)
        ).one()
        contradictions = s.exec(
            select(Discrepancy).where(Discrepancy.rule == CONTRADICTED_BY_OBSERVATION)
        ).all()
    assert announced == open_keys  # each open discrepancy announced exactly once
    # the Terminal-Bench one, found already settled, has its one "found settled" event
    assert [json.loads(e.detail_json)["discrepancy"] for e in resolved] == [tb.key]
    assert json.loads(resolved[0].detail_json)["found_settled"] is True
    assert resolved[0].title.endswith(
        ": the same score reported for two versions of a benchmark "
        "(sources disagreed; already settled by an observation, never open)"
    )
    assert report.events["discrepancy_found_settled"] == 1
    assert "discrepancy_resolved" not in report.events
    assert report.events["discrepancy_opened"] == len(report.open_discrepancies) == 1
    exported = json.loads((site / "api" / "discrepancies.json").read_text())["discrepancies"]
    assert sum(d["state"] == "open" for d in exported) == 1
    page = (site / "discrepancies.html").read_text()
    assert re.search(
        r"<p>1 open, 1 already settled \(by an observation, never open\), 0 resolved ", page
    )
    # the Terminal-Bench 4.0 claim is told once: the settled two-versions discrepancy
    assert tb.state == "resolved"
    assert tb.reason.endswith(
        "settled by observation #82: claim #15 contradicted (65.7% is observed for "
        "Terminal-Bench 3.0 (observation #82), not for version 4.0), claim #37 confirmed"
    )
    assert contradictions == []
