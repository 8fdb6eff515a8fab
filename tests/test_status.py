"""Weights status: landed (repo, first seen) vs promised and overdue as of the last Hub check."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from sqlmodel import Session, select

from claims.store import tables as models
from claims.store.status import weights_status
from claims.values.canonical import dumps
from claims.values.value import boolean_value, text_value
from tracker.curated.load import load_curated

DATA = Path(__file__).resolve().parent.parent / "data"
CHECK = dt.datetime(2026, 11, 28, 6, 0, tzinfo=dt.UTC)


def _setup(engine, *, checked: bool = True) -> None:
    load_curated(engine, DATA)
    with Session(engine) as s:
        watch = models.Watch(
            name="hf-org-moonshotai-test",
            adapter="huggingface_org",
            url="https://huggingface.co/api/models?author=moonshotai",
            params_json=dumps({"org": "moonshotai"}),
            last_success=CHECK if checked else None,
        )
        s.add(watch)
        s.flush()
        k2 = s.exec(select(models.Subject).where(models.Subject.slug == "kimi-k2-thinking")).one()
        for attr, value, quals in (
            ("weights_available", boolean_value(True), {"repo": "moonshotai/Kimi-K2-Thinking"}),
            ("license", text_value("modified-mit"), {}),
        ):
            s.add(
                models.Observation(
                    subject_id=k2.id,
                    attribute=attr,
                    qualifiers_json=dumps(quals),
                    value_json=dumps(value.to_dict()),
                    value_key=value.key(),
                    watch_id=watch.id,
                    source_url="https://huggingface.co/api/models/moonshotai/Kimi-K2-Thinking",
                    first_seen=CHECK,
                    last_seen=CHECK,
                )
            )
        s.commit()


def _status(engine, slug):
    with Session(engine) as s:
        subject = s.exec(select(models.Subject).where(models.Subject.slug == slug)).one()
        return weights_status(s, subject)


def test_not_landed_and_overdue_as_of_last_check(engine):
    _setup(engine)
    st = _status(engine, "kimi-k3.1-pro")
    assert st.landed is False and st.repo is None
    assert [(p.relation, p.date) for p in st.promises] == [
        ("before", "2026-11-04"),
        ("on", "2026-11-04"),
        ("on", "2026-11-04"),
    ]
    assert st.as_of == CHECK
    # The latest deadline is "on 2026-11-04"; 2026-11-28 is 24 days past it.
    assert st.overdue_days == 24
    assert st.license is None
    d = st.to_dict()
    assert d["weights"] == "not landed" and d["as_of"] == "2026-11-28T06:00:00Z"


def test_landed_with_repo_and_licence(engine):
    _setup(engine)
    st = _status(engine, "kimi-k2-thinking")
    assert st.landed is True
    assert st.repo == "moonshotai/Kimi-K2-Thinking"
    assert st.landed_at == CHECK
    # Already listed the first time the watch ran: CHECK only bounds the landing date.
    assert st.at_first_check is True
    assert st.to_dict()["landed_at_meaning"] == "first seen at the first check (landed earlier)"
    assert st.license == "modified-mit"
    assert st.overdue_days is None


def test_no_check_means_no_overdue_claim(engine):
    _setup(engine, checked=False)
    st = _status(engine, "kimi-k3.1-pro")
    assert st.as_of is None and st.overdue_days is None


def test_weights_that_land_after_the_promises_are_late_by_whole_days(engine):
    """A trial: once the weights landed, how late they were vanished from every summary."""
    _setup(engine)
    landed = CHECK + dt.timedelta(days=2)  # the watch's first check was CHECK (K2 Thinking)
    with Session(engine) as s:
        watch = s.exec(
            select(models.Watch).where(models.Watch.name == "hf-org-moonshotai-test")
        ).one()
        pro = s.exec(select(models.Subject).where(models.Subject.slug == "kimi-k3.1-pro")).one()
        value = boolean_value(True)
        s.add(
            models.Observation(
                subject_id=pro.id,
                attribute="weights_available",
                qualifiers_json=dumps({"repo": "moonshotai/Kimi-K3.1-Pro"}),
                value_json=dumps(value.to_dict()),
                value_key=value.key(),
                watch_id=watch.id,
                first_seen=landed,
                last_seen=landed,
            )
        )
        s.commit()
    st = _status(engine, "kimi-k3.1-pro")
    assert (st.landed, st.at_first_check, st.overdue_days) == (True, False, None)
    # the latest promised deadline is 2026-11-04; first seen 2026-11-30
    assert st.landed_late_days == 26 and st.to_dict()["landed_late_days"] == 26
    assert _status(engine, "kimi-k2-thinking").landed_late_days is None  # no promise
    from tracker.cli.status import landed_text

    assert (
        landed_text(st) == "first seen 2026-11-30 06:00 UTC, 26 days after the latest promised date"
    )


def test_a_month_deadline_ends_with_the_month_and_after_or_a_variant_sets_none(engine):
    """Review: "by 2026-11" read as due 2026-11-01 (so weights first seen on the 20th were
    "19 days late"), "after D" counted as a deadline, a variant's date as the model's."""
    from claims.store.status import Promise

    by_month = Promise("2026-11", "by", "S", None, 1)
    assert by_month.deadline() == dt.date(2026, 11, 30)
    assert by_month.days_overdue(dt.datetime(2026, 11, 20, tzinfo=dt.UTC)) is None
    assert by_month.days_overdue(dt.datetime(2026, 12, 2, tzinfo=dt.UTC)) == 2
    assert Promise("2026-11-04", "after", "S", None, 2).deadline() is None
    assert Promise("2026-11-04", "before", "S", None, 3).deadline() == dt.date(2026, 11, 3)


def test_gated_in_json_is_the_hubs_own_form():
    from claims.store.status import WeightsStatus

    fields = {"slug": "s", "name": "S", "landed": False}
    for stored, shown in (("false", False), ("manual", "manual"), ("auto", "auto"), (None, None)):
        assert WeightsStatus(**fields, gated=stored).to_dict()["gated"] == shown


def _fail_hub_check(engine, tmp_path, at: dt.datetime) -> None:
    """One cycle of the test's Hub org watch, answered 503 (a Hub outage)."""
    import httpx

    from tracker.cycle.run import run_check
    from tracker.net.fetch import make_client
    from tracker.snapshots.store import SnapshotStore

    client = make_client(transport=httpx.MockTransport(lambda r: httpx.Response(503)))
    run_check(engine, client, snapshot_store=SnapshotStore(tmp_path / "snap"), now=at,
              watch_names=["hf-org-moonshotai-test"], sleep=lambda s: None)  # fmt: skip


def _cli_status(engine, slug: str, *extra: str):  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from tracker.cli.main import app

    return CliRunner().invoke(app, ["status", slug, "--db", str(engine.url.database), *extra])


def test_a_failed_check_after_a_success_is_named_beside_the_last_good_answer(engine, tmp_path):
    import json

    _setup(engine)
    failed_at = CHECK + dt.timedelta(days=1)
    _fail_hub_check(engine, tmp_path, failed_at)
    st = _status(engine, "kimi-k3.1-pro")
    assert (st.weights_word, st.as_of, st.overdue_days) == ("not landed", CHECK, 24)
    assert st.last_failure is not None
    assert (st.last_failure.at, st.last_failure.watch, st.last_failure.failures) == (
        failed_at, "hf-org-moonshotai-test", 1,
    )  # fmt: skip
    text = _cli_status(engine, "kimi-k3.1-pro").stdout.splitlines()
    assert text[1] == "  weights: not landed (as of 2026-11-28 06:00 UTC)"
    assert text[-5:-3] == [
        "  overdue by 24 days as of 2026-11-28 06:00 UTC (counted from the latest promised deadline, 2026-11-04)",
        "  last successful Hub check 2026-11-28 06:00 UTC (the weights are as of it)",
    ]
    assert text[-3] == (
        "  last Hub check failed at 2026-11-29 06:00 UTC: bad_status: "
        "https://huggingface.co/api/models?author=moonshotai: HTTP 503 "
        "(watch hf-org-moonshotai-test, 1 failure in a row); retry due 2026-11-29 06:05 UTC, "
        "but no scheduler is running: `tracker check` or `tracker schedule` runs it"
    )
    got = json.loads(_cli_status(engine, "kimi-k3.1-pro", "--json").stdout)
    assert (got["weights"], got["landed"], got["as_of"]) == (
        "not landed", False, "2026-11-28T06:00:00Z",
    )  # fmt: skip
    assert got["last_check_failed"] is True
    failure = got["last_failure"]
    assert (failure["at"], failure["kind"], failure["watch"], failure["failures_in_a_row"]) == (
        "2026-11-29T06:00:00Z", "bad_status", "hf-org-moonshotai-test", 1,
    )  # fmt: skip
    assert failure["next_retry"] == "2026-11-29T06:05:00Z"  # 5 minutes after the failure
    assert failure["scheduler_running"] is False  # a stale plan said "next retry" (trial)
    assert "503" in failure["error"]


def test_a_landed_subject_keeps_its_landing_beside_a_failed_check(engine, tmp_path):
    _setup(engine)
    _fail_hub_check(engine, tmp_path, CHECK + dt.timedelta(days=1))
    text = _cli_status(engine, "kimi-k2-thinking").stdout.splitlines()
    assert text[1].startswith("  weights: landed — moonshotai/Kimi-K2-Thinking")
    assert "  last successful Hub check 2026-11-28 06:00 UTC (the weights are as of it)" in text
    assert any(line.startswith("  last Hub check failed at 2026-11-29 06:00 UTC") for line in text)


def test_a_success_after_the_failure_clears_it(engine, tmp_path):
    _setup(engine)
    _fail_hub_check(engine, tmp_path, CHECK + dt.timedelta(days=1))
    with Session(engine) as s:  # as the cycle's success resets the watch's health
        w = s.exec(select(models.Watch).where(models.Watch.name == "hf-org-moonshotai-test")).one()
        w.consecutive_failures, w.last_error, w.last_error_kind = 0, None, None
        w.last_success = w.last_run = CHECK + dt.timedelta(days=2)
        s.add(w)
        s.commit()
    st = _status(engine, "kimi-k3.1-pro")
    assert st.last_failure is None and st.to_dict()["last_check_failed"] is False


def test_every_overdue_count_is_days_from_the_end_of_a_stated_deadline(engine):
    """One count (claims.verify.promises.days_past) for each promise line and the overall
    line, each naming the deadline it counts from: "before 2026-11-04" ends 2026-11-03."""
    import json

    _setup(engine)
    text = _cli_status(engine, "kimi-k3.1-pro").stdout
    promised = [line for line in text.splitlines() if line.startswith("  promised:")]
    assert any(
        line.startswith("  promised: before 2026-11-04")
        and line.endswith("— overdue by 25 days (from its deadline 2026-11-03)")
        for line in promised
    ), promised
    assert any(
        line.startswith("  promised: on 2026-11-04")
        and line.endswith("— overdue by 24 days (from its deadline 2026-11-04)")
        for line in promised
    ), promised
    assert "days overdue" not in text
    got = json.loads(_cli_status(engine, "kimi-k3.1-pro", "--json").stdout)
    assert (got["overdue_days"], got["overdue_from"]) == (24, "2026-11-04")
    days = {(p["relation"], p["deadline"], p["days_overdue"]) for p in got["promises"]}
    assert ("before", "2026-11-03", 25) in days and ("on", "2026-11-04", 24) in days


def test_json_names_sources_without_display_quotes(engine):
    """--json carries a source's bare name: a source named by its title gives the whole
    title without the quotes and the cut of sentences (which keep them), and its key."""
    import json

    _setup(engine)
    text = _cli_status(engine, "kimi-k3.1-pro").stdout
    assert "“Kimi K3.1 Pro launch: architecture, pricing…”" in text
    got = json.loads(_cli_status(engine, "kimi-k3.1-pro", "--json").stdout)
    named = {p["source_key"]: p["source"] for p in got["promises"]}
    assert named == {
        "maquinaweb-k31-cerebras": "Máquina Web",
        "opinion-k31-vs-fable": "Kimi 3.1 Pro: 2.8T open weights against Fable 5.1",
        "report-k31-launch": "Kimi K3.1 Pro launch: architecture, pricing and open-weights date",
    }
