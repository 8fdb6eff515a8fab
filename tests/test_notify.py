"""Alerts through Apprise to webhooks on 127.0.0.1: exactly once, retries, C20 lengths."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from sitefixture import NOW, populate
from sqlmodel import Session, select
from webhook import Hook

from claims.store.outbox import make_event
from claims.store.tables import Delivery, Subject
from tracker.alerts.send import (
    MAX_ATTEMPTS,
    NotifyError,
    NotSent,
    SendResult,
    backoff,
    drain,
    send_test,
)
from tracker.alerts.subscriptions import Subscription, load_subscriptions
from tracker.errors import ConfigError

BASE = "https://dash.example.org/"
OPTS = {"base_url": BASE, "backlog": dt.timedelta(days=60)}
C20_LINK = "https://dash.example.org/diff/2026-11-29/acme-prices"


def json_url(hook: Hook, **extra: str) -> str:
    query = "&".join(f"{k}={v}" for k, v in extra.items())
    return f"json://127.0.0.1:{hook.port}/" + (f"?{query}" if query else "")


def deliveries(engine) -> list[Delivery]:  # type: ignore[no-untyped-def]
    with Session(engine) as s:
        return list(s.exec(select(Delivery).order_by(Delivery.id)).all())


def test_one_event_one_delivery_and_rerun_sends_nothing(engine):
    populate(engine)
    with Hook(lambda body: 200) as hook:
        subs = [Subscription(name="orca", url=json_url(hook), subjects=frozenset({"orca-9b"}))]
        first = drain(engine, subs, now=NOW, **OPTS)
        again = drain(engine, subs, now=NOW + dt.timedelta(hours=1), **OPTS)
    assert (first.planned, first.delivered, first.failed) == (1, 1, 0)
    assert (again.planned, again.delivered, again.failed) == (0, 0, 0)
    assert len(hook.posts) == 1
    post = hook.posts[0]
    assert post["title"] == 'Orca licence <b>changed</b> & "more"'
    assert (
        post["message"]
        == "Licence: mit → apache-2.0\nhttps://dash.example.org/subjects/orca-9b/#weights"
    )
    [d] = deliveries(engine)
    assert (d.subscription, d.state, d.attempts) == ("orca", "delivered", 1)


def test_failing_channel_retried_and_logged_while_other_receives(engine):
    populate(engine)
    with Hook(lambda body: 500) as bad, Hook(lambda body: 204) as good:
        subs = [
            Subscription(name="bad", url=json_url(bad), kinds=frozenset({"weights_landed"})),
            Subscription(name="good", url=json_url(good), kinds=frozenset({"weights_landed"})),
        ]
        first = drain(engine, subs, now=NOW, **OPTS)
        early = drain(engine, subs, now=NOW + dt.timedelta(seconds=30), **OPTS)
        later = drain(engine, subs, now=NOW + dt.timedelta(minutes=1), **OPTS)
    assert (first.delivered, first.failed) == (1, 1)
    assert (early.delivered, early.failed) == (0, 0)  # backoff: not due yet
    assert (later.delivered, later.failed) == (0, 1)
    assert len(good.posts) == 1 and len(bad.posts) == 2
    bad_row, good_row = deliveries(engine)
    assert (bad_row.state, bad_row.attempts) == ("pending", 2)
    assert "error=500" in (bad_row.last_error or "")
    assert bad_row.next_attempt_at is not None
    assert bad_row.next_attempt_at.replace(tzinfo=dt.UTC) == NOW + dt.timedelta(
        minutes=1
    ) + backoff(2)
    assert backoff(2) == dt.timedelta(minutes=4)
    assert (good_row.state, good_row.attempts) == ("delivered", 1)


def test_gives_up_after_budget(engine):
    populate(engine)
    with Hook(lambda body: 500) as bad:
        subs = [Subscription(name="bad", url=json_url(bad), kinds=frozenset({"weights_landed"}))]
        moment = NOW
        for _ in range(MAX_ATTEMPTS + 2):
            drain(engine, subs, now=moment, **OPTS)
            moment += dt.timedelta(hours=7)
    [row] = deliveries(engine)
    assert (row.state, row.attempts) == ("dead", MAX_ATTEMPTS)
    assert len(bad.posts) == MAX_ATTEMPTS


def test_operator_events_only_to_operator_subscriptions(engine):
    populate(engine)
    with Hook(lambda body: 200) as hook:
        subs = [
            Subscription(name="users", url=json_url(hook)),
            Subscription(name="ops", url=json_url(hook), audience="operator"),
        ]
        drain(engine, subs, now=NOW, **OPTS)
    got = sorted((d.subscription, d.event_id) for d in deliveries(engine))
    titles = sorted(p["title"] for p in hook.posts)
    assert [name for name, _ in got].count("ops") == 1
    assert [name for name, _ in got].count("users") == 3
    assert "openrouter failing" in titles


def _c20_event(engine) -> None:
    """The demo subjects plus cases/C20's event: a 300-character title and a 2,600-character
    summary ending in a link that must survive whole."""
    populate(engine)
    with Session(engine) as s:
        k31 = s.exec(select(Subject).where(Subject.slug == "kimi-k3.1-pro")).one()
        ev = make_event(
            "price_changed",
            "T" * 300,
            subject_id=k31.id,
            detail={"summary": ("acme/model-xx: $0.60 → $0.45; " * 100)[:2600], "url": C20_LINK},
        )
        ev.created_at = NOW
        s.add(ev)
        s.commit()


def test_c20_too_long_for_channel_is_shortened_keeping_link(engine):
    """cases/C20: the mock answers 400 over 2,000 characters of content, else 204."""
    _c20_event(engine)

    def discord_like(body: dict) -> int:  # type: ignore[type-arg]
        return 400 if len(body["content"]) > 2000 or len(body.get("title", "")) > 256 else 204

    with Hook(discord_like) as hook:
        url = json_url(hook, **{":message": "content"})  # Discord's field name
        subs = [Subscription(name="chat", url=url, kinds=frozenset({"price_changed"}))]
        recent = {"base_url": BASE, "backlog": dt.timedelta(hours=1)}
        report = drain(engine, subs, now=NOW, **recent)
        rerun = drain(engine, subs, now=NOW + dt.timedelta(minutes=30), **recent)
    assert hook.statuses == [400, 204]
    assert len(hook.posts[0]["content"]) == 2600 + 1 + len(C20_LINK)
    short = hook.posts[1]["content"]
    assert len(short) == 2000
    assert short.endswith("…\n" + C20_LINK)
    assert len(hook.posts[1]["title"]) <= 256
    assert (report.delivered, rerun.delivered, rerun.planned) == (1, 0, 0)
    [row] = deliveries(engine)
    assert (row.state, row.sent_chars) == ("delivered", 2000)


def test_c20_discord_counts_the_title_in_its_2000_characters(engine, monkeypatch):
    """cases/C20 through Apprise's own Discord plugin (its HTTP post replaced by the case's
    mock): Apprise posts ``title\\r\\nbody`` as one ``content``, so the title counts against
    Discord's 2,000. Every post must fit: one 204, no 400 first, the link whole."""
    import apprise.plugins.discord as discord_plugin

    _c20_event(engine)
    posts: list[dict] = []  # type: ignore[type-arg]

    class Answer:
        def __init__(self, status: int) -> None:
            self.status_code, self.headers = status, {}
            self.content = b'{"content": ["too long"]}' if status == 400 else b""

    def post(url, data=None, **kwargs):  # type: ignore[no-untyped-def]
        payload = json.loads(data)
        posts.append(payload)
        too_long = len(payload.get("content", "")) > 2000 or any(
            len(e.get("title", "")) > 256 for e in payload.get("embeds", [])
        )
        return Answer(400 if too_long else 204)

    monkeypatch.setattr(discord_plugin.requests, "post", post)
    subs = [
        Subscription(
            name="discord", url="discord://123456/abcdef", kinds=frozenset({"price_changed"})
        )
    ]
    report = drain(engine, subs, now=NOW, base_url=BASE, backlog=dt.timedelta(hours=1))
    assert report.delivered == 1
    assert len(posts) == 1  # fitted the first time: no 400 to recover from
    content = posts[0]["content"]
    title, _, body = content.partition("\r\n")
    assert len(content) <= 2000 and len(title) <= 256
    assert body.endswith("…\n" + C20_LINK)
    [row] = deliveries(engine)
    assert (row.state, row.sent_chars) == ("delivered", len(body))


def test_c20_first_400_is_logged_when_nothing_shorter_works(engine):
    populate(engine)
    with Hook(lambda body: 400) as hook:
        subs = [Subscription(name="chat", url=json_url(hook), kinds=frozenset({"weights_landed"}))]
        report = drain(engine, subs, now=NOW, **OPTS)
    assert (report.delivered, report.failed) == (0, 1)
    [row] = deliveries(engine)
    assert row.state == "pending" and "error=400" in (row.last_error or "")


def test_send_test_reports_failures():
    with Hook(lambda body: 204) as ok, Hook(lambda body: 500) as bad:
        good, failing = Subscription("ok", json_url(ok)), Subscription("bad", json_url(bad))
        [(first, none), (second, why)] = send_test([good, failing])
    assert (first, none, second) == (good, None, failing)
    assert "error=500" in why
    assert ok.posts[0]["title"] == "release-tracker test"


def test_subscriptions_file_and_env(tmp_path: Path):
    path = tmp_path / "subscriptions.toml"
    path.write_text(
        '[[subscription]]\nname = "team"\nurl = "json://127.0.0.1:9/"\n'
        'subjects = ["kimi-k3.1-pro"]\nkinds = ["weights_landed"]\n'
        '[[subscription]]\nname = "ops"\nurl = "json://127.0.0.1:9/"\naudience = "operator"\n'
    )
    subs = load_subscriptions(path, env={"TRACKER_APPRISE_URLS": "json://a/, json://b/"})
    assert [(s.name, s.audience, s.url) for s in subs] == [
        ("team", "subscriber", "json://127.0.0.1:9/"),
        ("ops", "operator", "json://127.0.0.1:9/"),
        ("env-1", "subscriber", "json://a/"),
        ("env-2", "subscriber", "json://b/"),
    ]
    assert subs[0].wants("weights_landed", "subscriber", "kimi-k3.1-pro")
    assert not subs[0].wants("weights_landed", "subscriber", "kimi-k3")
    assert not subs[2].wants("watch_failing", "operator", None)
    path.write_text('[[subscription]]\nname = "x"\nurl = "json://h/"\nkinds = ["watch_failing"]\n')
    with pytest.raises(
        ConfigError, match=r"subscription 'x': field 'kinds': 'watch_failing' is an operator kind"
    ):
        load_subscriptions(path, env={})
    path.write_text('[[subscription]]\nname = "x"\nurl = "json://h/"\nsubject = ["a"]\n')
    with pytest.raises(ConfigError) as err:
        load_subscriptions(path, env={})
    assert str(err.value) == (
        f"{path}: subscription #1: unknown field 'subject' (did you mean 'subjects'?)"
    )
    with pytest.raises(ConfigError, match="no such subscriptions file"):
        load_subscriptions(tmp_path / "nope.toml", env={})


def test_concurrent_drain_never_sends_twice(engine):
    """A second drain running while the first is mid-send finds the row claimed."""
    from tracker.alerts.send import SendResult

    populate(engine)
    subs = [Subscription(name="k2", url="json://127.0.0.1:9/", kinds=frozenset({"weights_landed"}))]
    sent: list[str] = []
    inner: list[object] = []

    def sender(url: str, title: str, body: str) -> SendResult:
        sent.append(title)
        if not inner:  # the "other process" runs while we are sending
            inner.append(drain(engine, subs, now=NOW, sender=sender, **OPTS))
        return SendResult(ok=True)

    outer = drain(engine, subs, now=NOW, sender=sender, **OPTS)
    assert sent == ["Kimi K2 Thinking weights landed"]
    assert (outer.delivered, inner[0].delivered) == (1, 0)  # type: ignore[attr-defined]


def test_bad_url_claims_nothing_then_fixed_url_sends(engine):
    """A URL Apprise cannot use is found before anything is planned or claimed."""
    populate(engine)
    kinds = frozenset({"weights_landed"})
    with Hook(lambda body: 204) as hook:
        good = Subscription(name="good", url=json_url(hook), kinds=kinds)
        with pytest.raises(NotifyError, match="subscription 'bad': not a usable Apprise URL"):
            drain(
                engine,
                [good, Subscription(name="bad", url="garbage", kinds=kinds)],
                now=NOW,
                **OPTS,
            )
        assert deliveries(engine) == [] and hook.posts == []
        fixed = Subscription(name="bad", url=json_url(hook), kinds=kinds)
        report = drain(engine, [good, fixed], now=NOW, **OPTS)
    assert report.delivered == 2
    assert [(d.state, d.attempts) for d in deliveries(engine)] == [("delivered", 1)] * 2


@pytest.mark.parametrize("where", ["compose", "not-sent"])
def test_error_before_hand_off_puts_claimed_row_back(engine, monkeypatch, where):
    """Claimed, then an error before the message reached Apprise: the row is pending
    again with no attempt counted, and the next drain sends it."""
    import tracker.alerts.send as notify

    populate(engine)
    subs = [Subscription(name="k2", url="json://127.0.0.1:9/", kinds=frozenset({"weights_landed"}))]

    def broken_compose(*args: object) -> None:
        raise RuntimeError("compose bug")

    def not_sent(url: str, title: str, body: str) -> SendResult:
        raise NotSent("rejected before sending")

    if where == "compose":
        monkeypatch.setattr(notify, "compose", broken_compose)
    with pytest.raises((RuntimeError, NotSent)):
        drain(engine, subs, now=NOW, sender=not_sent, **OPTS)
    [row] = deliveries(engine)
    assert (row.state, row.attempts) == ("pending", 0)
    monkeypatch.undo()
    sent: list[str] = []
    report = drain(
        engine, subs, now=NOW, sender=lambda u, t, b: sent.append(t) or SendResult(ok=True), **OPTS
    )
    assert (report.delivered, sent) == (1, ["Kimi K2 Thinking weights landed"])


def test_crash_during_send_is_never_resent(engine):
    """At most once: a send that dies midway may have gone out, so its row stays
    ``sending`` and later drains leave it alone."""
    populate(engine)
    subs = [Subscription(name="k2", url="json://127.0.0.1:9/", kinds=frozenset({"weights_landed"}))]
    calls: list[str] = []

    def dies(url: str, title: str, body: str) -> SendResult:
        calls.append(title)
        raise KeyboardInterrupt  # e.g. Ctrl-C while Apprise is posting

    with pytest.raises(KeyboardInterrupt):
        drain(engine, subs, now=NOW, sender=dies, **OPTS)
    report = drain(engine, subs, now=NOW + dt.timedelta(hours=1), sender=dies, **OPTS)
    [row] = deliveries(engine)
    assert (row.state, len(calls), report.delivered, report.waiting) == ("sending", 1, 0, 0)


def test_report_names_each_failing_subscription_and_counts_waiting(engine):
    populate(engine)
    with Hook(lambda body: 500) as bad, Hook(lambda body: 204) as good:
        subs = [
            Subscription(name="bad", url=json_url(bad)),
            Subscription(name="good", url=json_url(good)),
        ]
        first = drain(engine, subs, now=NOW, **OPTS)
        second = drain(engine, subs, now=NOW + dt.timedelta(seconds=30), **OPTS)
    assert (first.delivered, first.failed, first.waiting) == (3, 3, 0)
    [failures] = first.failures.values()
    retry_at = NOW + dt.timedelta(minutes=1)
    assert (failures.subscription, failures.failed, failures.next_attempt_at) == (
        "bad",
        3,
        retry_at,
    )
    assert "error=500" in failures.first_error
    assert " chars: " not in failures.first_error  # the log's size tag is not for people
    assert failures.first_error[:1].isalpha()
    assert failures.warning().startswith("subscription 'bad': 3 deliveries failed (")
    assert failures.warning().endswith("); next attempt after 2026-11-29 16:01 UTC")
    assert (second.planned, second.failed, second.waiting, second.failures) == (0, 0, 3, {})
    assert second.next_retry_at == retry_at
    # one wording for what waits for a retry, whether it failed in this run or before;
    # the time as every CLI line gives it (UTC, to the minute, with the date)
    assert first.summary() == (
        f"alerts: {first.planned} planned, 3 delivered, 3 failed, 0 given up; "
        "3 waiting to retry (next at 2026-11-29 16:01 UTC)"
    )
    assert second.summary() == (
        "alerts: 0 planned, 0 delivered, 0 failed, 0 given up; "
        "3 waiting to retry (next at 2026-11-29 16:01 UTC)"
    )
    assert second.to_dict()["next_retry_at"] == "2026-11-29T16:01:00Z"


def test_an_alert_that_cannot_fit_its_channel_is_given_up_and_the_run_goes_on(engine):
    """A link longer than the channel allows fails the same way every time: that
    delivery is given up at once (dead, its error kept) instead of blocking every later
    run, and the other subscription still gets its alert."""
    populate(engine)
    kinds = frozenset({"weights_landed"})
    sent: list[str] = []

    def sender(url: str, title: str, body: str) -> SendResult:
        sent.append(url)
        return SendResult(ok=True)

    subs = [
        Subscription(name="tiny", url="json://127.0.0.1:9/tiny", kinds=kinds, max_length=20),
        Subscription(name="wide", url="json://127.0.0.1:9/wide", kinds=kinds),
    ]
    report = drain(engine, subs, now=NOW, sender=sender, **OPTS)
    assert (report.delivered, report.dead, report.failed) == (1, 1, 0)
    assert sent == ["json://127.0.0.1:9/wide"]
    tiny, wide = deliveries(engine)
    assert (tiny.subscription, tiny.state, tiny.attempts) == ("tiny", "dead", 1)
    assert tiny.last_error is not None and "does not fit in 20" in tiny.last_error
    assert (wide.state, wide.attempts) == ("delivered", 1)
    again = drain(engine, subs, now=NOW + dt.timedelta(days=1), sender=sender, **OPTS)
    assert (again.planned, again.delivered, again.dead, sent) == (0, 0, 0, sent)


def test_a_new_subscriptions_silence_about_older_events_is_explained(engine):
    """Events older than the backlog are not sent to a new subscription, and the summary
    says how many, so `tracker alerts send` after an old import does not look broken."""
    populate(engine)  # three subscriber events, 2 to 23 days before NOW
    sent: list[str] = []

    def sender(url: str, title: str, body: str) -> SendResult:
        sent.append(title)
        return SendResult(ok=True)

    subs = [Subscription(name="all", url="json://127.0.0.1:9/")]
    first = drain(engine, subs, now=NOW, sender=sender, base_url=BASE)
    assert (first.planned, first.too_old, sent) == (0, 3, [])
    assert first.summary().endswith(
        "; 3 older events not sent: a new subscription gets only the last 48 h"
    )
    assert first.to_dict()["too_old"] == 3
    wide = drain(engine, subs, now=NOW, sender=sender, **OPTS)  # a 60-day backlog
    assert (wide.delivered, wide.too_old) == (3, 0)
    later = drain(engine, subs, now=NOW, sender=sender, base_url=BASE)
    assert (later.planned, later.too_old) == (0, 0)  # no longer a new subscription


def test_unknown_subjects_names_the_nearest_slug_or_says_none_are_loaded():
    from tracker.alerts.subscriptions import unknown_subjects

    subs = [Subscription(name="team", url="json://h/", subjects=frozenset({"kimi-k3", "kimi-k9"}))]
    assert unknown_subjects(subs, {"kimi-k3", "kimi-k2-thinking"}) == [
        "subscription 'team': subject 'kimi-k9' is not in the database (did you mean "
        "'kimi-k3'?); no alert matches it until it is loaded"
    ]
    assert unknown_subjects(subs, set())[0].endswith(
        "(the database has no subjects yet); no alert matches it until it is loaded"
    )
    assert unknown_subjects([Subscription(name="all", url="json://h/")], set()) == []
