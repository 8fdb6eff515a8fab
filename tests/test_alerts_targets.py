"""Alerts per target (cases/C31): one delivery per subscription URL, only failed targets
retried after the service's delay, an unrouted alert is a configuration error once, and
many alerts for one target in one run are one digest."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import apprise
import pytest
from sqlmodel import Session, select
from webhook import Hook

from claims.store.outbox import make_event
from claims.store.tables import Delivery, Subject
from tracker.alerts.retry_after import delay_of
from tracker.alerts.send import SendResult, drain, read_answer
from tracker.alerts.subscriptions import load_subscriptions, split_urls, target_name
from tracker.errors import ConfigError

NOW = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)
OPTS = {"base_url": "https://dash.example.org/", "backlog": dt.timedelta(days=2)}


def price_events(engine, n: int) -> None:
    with Session(engine) as s:
        orca = Subject(slug="orca-9b", name="Orca 9B")
        s.add(orca)
        s.flush()
        for i in range(n):
            s.add(
                make_event(
                    "price_changed",
                    f"Orca 9B: input price changed from $0.{10 + i} to $0.{11 + i}",
                    subject_id=orca.id,
                    detail={"attribute": "price_input_usd_per_mtok", "n": i},
                    at=NOW - dt.timedelta(minutes=5),
                )
            )
        s.commit()


def subs_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "subscriptions.toml"
    path.write_text(body, encoding="utf-8")
    return path


def rows(engine) -> list[Delivery]:
    with Session(engine) as s:
        return list(s.exec(select(Delivery).order_by(Delivery.id)))


def test_c31_a_429_target_alone_is_retried_after_the_delay_it_asked_for(engine, tmp_path):
    price_events(engine, 1)
    limited = {"status": 429}
    with (
        Hook(lambda body: 200) as tgram,
        Hook(lambda body: limited["status"], headers={"Retry-After": "120"}) as discord,
        Hook(lambda body: 200) as mail,
    ):
        urls = [f"json://127.0.0.1:{h.port}/" for h in (tgram, discord, mail)]
        path = subs_file(
            tmp_path,
            f'[[subscription]]\nname = "prices"\nurls = {urls!r}\n'.replace("'", '"'),
        )
        subs = load_subscriptions(path, env={})
        first = drain(engine, subs, now=NOW, **OPTS)
        early = drain(engine, subs, now=NOW + dt.timedelta(seconds=60), **OPTS)
        limited["status"] = 200
        later = drain(engine, subs, now=NOW + dt.timedelta(seconds=120), **OPTS)
    names = [target_name("prices", u) for u in urls]
    assert [s.name for s in subs] == names
    assert (first.planned, first.delivered, first.failed) == (3, 2, 1)
    assert list(first.failures) == [names[1]]  # only the Discord stand-in failed
    assert first.failures[names[1]].next_attempt_at == NOW + dt.timedelta(seconds=120)
    assert (early.delivered, early.failed, early.waiting) == (0, 0, 1)
    assert (later.delivered, later.failed) == (1, 0)
    assert (len(tgram.posts), len(discord.posts), len(mail.posts)) == (1, 2, 1)  # no duplicates
    assert discord.statuses == [429, 200]
    assert [(d.subscription, d.state, d.attempts) for d in rows(engine)] == [
        (names[0], "delivered", 1),
        (names[1], "delivered", 2),
        (names[2], "delivered", 1),
    ]


def test_an_alert_no_service_matched_is_a_configuration_error_once_never_retried(engine):
    price_events(engine, 1)
    nothing = apprise.Apprise().notify(body="x")  # Apprise's own "no service matched"
    calls: list[str] = []

    def unrouted_sender(url: str, title: str, body: str) -> SendResult:
        calls.append(url)
        return read_answer(nothing, "", [], NOW)

    subs = load_subscriptions(None, env={"TRACKER_APPRISE_URLS": "json://127.0.0.1:9/"})
    first = drain(engine, subs, now=NOW, sender=unrouted_sender, **OPTS)
    again = drain(engine, subs, now=NOW + dt.timedelta(days=1), sender=unrouted_sender, **OPTS)
    assert first.config_errors() == [
        "subscription 'env-1': no service matched its URL (no service matched); "
        "1 alert not routed (fix the subscription; they are not retried)"
    ]
    assert first.summary().endswith("; 1 not routed (configuration error)")
    assert (first.failed, first.dead, first.to_dict()["unrouted"]) == (0, 0, 1)
    assert (again.config_errors(), again.waiting, len(calls)) == ([], 0, 1)
    [d] = rows(engine)
    assert (d.state, d.attempts) == ("unrouted", 1)


def test_read_answer_tells_apprise_v1_and_v2_answers_apart():
    now = NOW
    assert read_answer(True, "", [], now).ok
    assert read_answer(None, "", [], now).unrouted  # Apprise 1.x: nothing notified
    failed = read_answer(False, "Failed: error=500.", [], now)
    assert (failed.ok, failed.unrouted, failed.status, failed.retry_after) == (
        False,
        False,
        500,
        None,
    )
    limited = read_answer(False, "", [(429, {"retry-after": "7"})], now)
    assert (limited.status, limited.retry_after) == (429, dt.timedelta(seconds=7))


@pytest.mark.parametrize(
    ("status", "headers", "delay"),
    [
        (429, {"Retry-After": "30"}, dt.timedelta(seconds=30)),
        (503, {"Retry-After": "Sun, 29 Nov 2026 12:02:00 GMT"}, dt.timedelta(minutes=2)),
        (429, {"X-RateLimit-Reset-After": "1.5"}, dt.timedelta(seconds=1.5)),
        (429, {"Retry-After": "999999"}, dt.timedelta(hours=24)),
        (429, {"Retry-After": "soon"}, None),
        (500, {"Retry-After": "30"}, None),
        (429, {}, None),
    ],
)
def test_delay_of_reads_the_services_retry_delay(status, headers, delay):
    assert delay_of(status, headers, NOW) == delay


def test_twenty_five_changes_to_one_target_are_one_digest(engine):
    price_events(engine, 25)
    with Hook(lambda body: 200) as hook:
        subs = load_subscriptions(
            None, env={"TRACKER_APPRISE_URLS": f"json://127.0.0.1:{hook.port}/"}
        )
        report = drain(engine, subs, now=NOW, **OPTS)
    assert (report.planned, report.delivered) == (25, 25)
    [post] = hook.posts
    assert post["title"] == "25 alerts from release-tracker"
    lines = post["message"].splitlines()
    # each alert: its line and its own link (the anchor on the subject page)
    assert lines[:2] == [
        "- Orca 9B: input price changed from $0.10 to $0.11",
        "  https://dash.example.org/subjects/orca-9b/#observed-price_input_usd_per_mtok",
    ]
    assert lines[48] == "- Orca 9B: input price changed from $0.34 to $0.35"
    assert lines[-1] == "https://dash.example.org/changes.html"
    assert {(d.state, d.attempts) for d in rows(engine)} == {("delivered", 1)}


def test_several_urls_in_one_subscription_are_one_target_each(tmp_path):
    assert split_urls("tgram://a/b, discord://c/d  mailto://u:p@example.com?to=x,y") == [
        "tgram://a/b",
        "discord://c/d",
        "mailto://u:p@example.com?to=x,y",
    ]
    path = subs_file(
        tmp_path, '[[subscription]]\nname = "team"\nurl = "json://a.example/ json://b.example/"\n'
    )
    subs = load_subscriptions(path, env={})
    assert [(s.name, s.url) for s in subs] == [
        (target_name("team", "json://a.example/"), "json://a.example/"),
        (target_name("team", "json://b.example/"), "json://b.example/"),
    ]
    assert subs[1].label() == (
        f"subscription {subs[1].name!r} (URL 2 of 2 of subscription 'team': json://b.example)"
    )
    for body, error in [
        ('url = "json://a.example/"\nurls = ["json://b.example/"]', "give field 'url'"),
        ('urls = ["json://a.example/", "json://a.example/"]', "names one URL twice"),
        ("urls = [1]", "must be an Apprise URL or a list"),
    ]:
        bad = subs_file(tmp_path, f'[[subscription]]\nname = "team"\n{body}\n')
        with pytest.raises(ConfigError, match=error):
            load_subscriptions(bad, env={})
