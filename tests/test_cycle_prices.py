"""Price watches through the cycle: C07 (offerings kept apart), C08 (unit error ignored)."""

from __future__ import annotations

import datetime as dt
import json

import httpx
from cycle_setup import add_watch
from sqlmodel import Session, select

from claims.store.tables import Event, Observation, Subject, SubjectAlias
from tracker.cycle.run import run_check
from tracker.net.fetch import make_client
from tracker.snapshots.store import SnapshotStore

T1 = dt.datetime(2026, 11, 28, 6, 0, 0, tzinfo=dt.UTC)
T2 = dt.datetime(2026, 11, 29, 6, 0, 0, tzinfo=dt.UTC)
GOOD = (
    b'{"acme/orca-9b": {"input_cost_per_token": 4.5e-07, "output_cost_per_token": 1.8e-06, '
    b'"litellm_provider": "acme", "mode": "chat"}}'
)
BAD = (
    b'{"acme/orca-9b": {"input_cost_per_token": 0.045, "output_cost_per_token": 0.18, '
    b'"litellm_provider": "acme", "mode": "chat"}}'
)


def orca(engine, namespace, alias):
    with Session(engine) as s:
        subj = Subject(slug="acme-orca-9b", name="Orca 9B", organization="Acme")
        s.add(subj)
        s.flush()
        s.add(SubjectAlias(subject_id=subj.id, namespace=namespace, alias=alias))
        s.commit()
        return subj.id


def serve(body):
    return make_client(transport=httpx.MockTransport(lambda r: httpx.Response(200, content=body)))


def current(engine):
    with Session(engine) as s:
        obs = s.exec(select(Observation).where(Observation.current)).all()
        return sorted((o.attribute, o.qualifiers_json, str(o.value.value)) for o in obs)


def test_c08_unit_error_keeps_the_current_price_and_raises_no_alert(engine, tmp_path):
    orca(engine, "litellm", "acme/orca-9b")
    add_watch(engine, "litellm", "litellm_prices", "https://example.org/prices.json")
    store = SnapshotStore(tmp_path)
    run_check(engine, serve(GOOD), snapshot_store=store, now=T1)
    expected = [
        ("price_input_usd_per_mtok", '{"provider":"acme"}', "0.45"),
        ("price_output_usd_per_mtok", '{"provider":"acme"}', "1.8"),
    ]
    assert current(engine) == expected
    summary = run_check(engine, serve(BAD), snapshot_store=store, now=T2)
    assert current(engine) == expected
    assert (summary.events, summary.observations, summary.failing) == (0, 0, 0)
    assert len(summary.results[0].warnings) == 2
    with Session(engine) as s:
        assert s.exec(select(Event)).all() == []


def test_c07_free_offering_is_not_merged_and_dynamic_price_is_not_stored(engine, tmp_path):
    orca(engine, "openrouter", "acme/orca-9b")
    add_watch(engine, "openrouter", "openrouter_models", "https://openrouter.ai/api/v1/models")
    body = {
        "data": [
            {
                "id": "router/auto",
                "context_length": 1000000,
                "pricing": {"prompt": "-1", "completion": "-1"},
            },
            {"id": "acme/orca-9b", "pricing": {"prompt": "0.00000057", "completion": "0.0000033"}},
            {"id": "acme/orca-9b:free", "pricing": {"prompt": "0", "completion": "0"}},
        ]
    }
    run_check(
        engine, serve(json.dumps(body).encode()), snapshot_store=SnapshotStore(tmp_path), now=T1
    )
    assert current(engine) == [
        ("price_input_usd_per_mtok", '{"offering":"free"}', "0"),
        ("price_input_usd_per_mtok", "{}", "0.57"),
        ("price_output_usd_per_mtok", '{"offering":"free"}', "0"),
        ("price_output_usd_per_mtok", "{}", "3.3"),
    ]
    with Session(engine) as s:
        assert s.exec(select(Event)).all() == []


def test_two_ids_aliased_to_one_subject_record_neither(engine, tmp_path):
    sid = orca(engine, "openrouter", "acme/orca-9b")
    with Session(engine) as s:
        s.add(SubjectAlias(subject_id=sid, namespace="openrouter", alias="acme/orca-9b-latest"))
        s.commit()
    add_watch(engine, "openrouter", "openrouter_models", "https://openrouter.ai/api/v1/models")
    body = {
        "data": [
            {"id": "acme/orca-9b", "pricing": {"prompt": "0.00000057"}},
            {"id": "acme/orca-9b-latest", "pricing": {"prompt": "0.0000006"}},
        ]
    }
    summary = run_check(
        engine, serve(json.dumps(body).encode()), snapshot_store=SnapshotStore(tmp_path), now=T1
    )
    assert current(engine) == []
    assert summary.results[0].warnings == [
        "Orca 9B: price_input_usd_per_mtok {} has 2 different values in one response; "
        "none recorded (check the aliases)"
    ]


def test_a_price_change_is_a_price_changed_event_titled_in_words(engine, tmp_path):
    """A trial subscribed to `price_changed` (docs/alerts.md) and got nothing: every
    observed change was a `value_changed`, titled with the attribute's id."""
    orca(engine, "litellm", "acme/orca-9b")
    add_watch(engine, "litellm", "litellm_prices", "https://example.org/prices.json")
    store = SnapshotStore(tmp_path)
    run_check(engine, serve(GOOD), snapshot_store=store, now=T1)
    dearer = GOOD.replace(b"1.8e-06", b"2.4e-06")
    summary = run_check(engine, serve(dearer), snapshot_store=store, now=T2)
    assert summary.events == 1
    with Session(engine) as s:
        (event,) = s.exec(select(Event)).all()
    assert (event.kind, event.title) == (
        "price_changed",
        "Orca 9B: Output price [provider: acme] changed from $1.80 per 1M tokens to "
        "$2.40 per 1M tokens",
    )
