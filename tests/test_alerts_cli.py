"""Alert setup from the command line: a bad URL in TRACKER_APPRISE_URLS is named with
its variable and (redacted) URL; `tracker alerts test` says per target what happened;
docs/alerts.md shows what `tracker alerts send` really prints."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest
from sitefixture import populate
from typer.testing import CliRunner
from webhook import Hook

from claims.store.engine import make_engine
from tracker.alerts.report import DrainReport
from tracker.alerts.subscriptions import load_subscriptions, redacted_url
from tracker.cli.main import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("json://user:s3cret@hooks.example.com:8080/path?token=abc", "json://hooks.example.com"),
        ("tgram://123456:BOTTOKEN/42", "tgram://…"),  # the bot token is the "host"
        ("discord://WEBHOOK_ID/WEBHOOK_TOKEN", "discord://…"),
        ("ntfy://localhost/topic", "ntfy://localhost"),
        ("hooks.example.com/x", "(not a URL)"),
    ],
)
def test_redacted_url_keeps_scheme_and_a_network_host_only(url, shown):
    assert redacted_url(url) == shown


def test_a_bad_env_url_names_the_variable_and_the_url_without_secrets(tmp_path, monkeypatch):
    db = tmp_path / "t.db"
    populate(make_engine(db))
    monkeypatch.chdir(tmp_path)  # no data/subscriptions.toml here
    monkeypatch.setenv(
        "TRACKER_APPRISE_URLS", "json://127.0.0.1:9/ jsn://bot:s3cret@hooks.example.com/t0ken"
    )
    result = runner.invoke(app, ["alerts", "send", "--db", str(db)])
    assert (result.exit_code, result.stderr) == (
        1,
        "error: subscription 'env-2' (URL 2 of TRACKER_APPRISE_URLS: jsn://hooks.example.com): "
        "not a usable Apprise URL\n",
    )
    subs = load_subscriptions(None, env={"TRACKER_APPRISE_URLS": "json://a.test/"})
    assert [s.label() for s in subs] == [
        "subscription 'env-1' (URL 1 of TRACKER_APPRISE_URLS: json://a.test)"
    ]


def test_alerts_test_prints_one_line_per_target_delivered_or_failed(tmp_path, monkeypatch):
    """One good and two failing targets printed only the errors (fresh-user trial)."""
    monkeypatch.delenv("TRACKER_APPRISE_URLS", raising=False)
    with Hook(lambda body: 204) as good, Hook(lambda body: 500) as bad:
        config = tmp_path / "subs.toml"
        config.write_text(
            f'[[subscription]]\nname = "good"\nurl = "json://127.0.0.1:{good.port}/"\n'
            f'[[subscription]]\nname = "down"\nurl = "json://127.0.0.1:{bad.port}/"\n'
            '[[subscription]]\nname = "typo"\nurl = "jsn://127.0.0.1/"\n'
        )
        result = runner.invoke(app, ["alerts", "test", "--config", str(config)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "test alert to subscription 'good': delivered"
    assert lines[1].startswith("test alert to subscription 'down': failed: ")
    assert "error=500" in lines[1]
    assert lines[2] == (
        "test alert to subscription 'typo': failed: not a usable Apprise URL "
        "(see https://appriseit.com/services/)"
    )
    assert len(lines) == 3 and result.stderr == ""
    assert len(good.posts) == 1 and len(bad.posts) == 1


ALERTS_DOC = (Path(__file__).resolve().parent.parent / "docs" / "alerts.md").read_text()
SEND_SECTION = ALERTS_DOC.split("### What `tracker alerts send` prints", 1)[1]
BLOCKS = re.findall(r"^```(?:json)?\n(.*?)^```$", SEND_SECTION, re.M | re.S)


def test_alerts_doc_samples_are_what_alerts_send_prints():
    """The doc showed "19 to retry, 0 waiting to retry" and "(76 chars: …)" long after the
    code stopped printing them: rebuild each sample from its numbers with the code."""
    retry_at = dt.datetime(2026, 11, 30, 9, 39, 10, tzinfo=dt.UTC)
    error = "A Connection error occurred sending JSON notification to 127.0.0.1."
    first = DrainReport(planned=7, too_old=8)
    for _ in range(7):
        first.record_failure("team-webhook", f"76 chars: {error}", retry_at)  # as logged
    rerun = DrainReport(planned=0, waiting=7, next_retry_at=retry_at)
    warning = "warning: " + first.failures["team-webhook"].warning()
    assert BLOCKS[0] == f"{warning}\n{first.summary()}\n"
    assert BLOCKS[1] == rerun.summary() + "\n"
    assert BLOCKS[2] == json.dumps(rerun.to_dict(), indent=2) + "\n"  # as --json prints it


def test_a_malformed_url_is_redacted_not_a_crash():
    """Review: `TRACKER_APPRISE_URLS='json://[::1/x'` ended `alerts test` in a traceback
    (urlsplit raises ValueError on an unclosed IPv6 bracket)."""
    from tracker.alerts.subscriptions import redacted_url

    assert redacted_url("json://[::1/x") == "(not a URL)"
    assert redacted_url("json://hooks.example.com/path?token=s3cret") == "json://hooks.example.com"


def test_an_alert_says_why_a_verdict_changed_and_what_the_reviewer_noted():
    """A trial: a verdict alert read only "unverified → disputed", a dismissal alert
    repeated its title without the reviewer's note."""
    from claims.store.outbox import make_event
    from tracker.alerts.send import compose

    verdict = make_event(
        "verdict_changed",
        "Orion 2: Context window 512K tokens (Wire) is now disputed (was unverified)",
        detail={"from": "unverified", "to": "disputed", "reason": "“Wire” says 1M tokens"},
    )
    assert compose(verdict, None, "https://t.example/").text == (
        "unverified → disputed: “Wire” says 1M tokens"
    )
    dismissed = make_event(
        "discrepancy_dismissed",
        "Orion 2: Context window: values disagree (dismissed)",
        detail={"note": "the 1M figure is the Pro tier's"},
    )
    assert compose(dismissed, None, "https://t.example/").text == (
        "dismissed by a reviewer: the 1M figure is the Pro tier's"
    )


def test_a_discrepancy_found_settled_reads_alike_in_alerts_and_on_the_site():
    """A fresh-user trial: a discrepancy an observation had settled before it could open
    was told as "Discrepancy resolved … (found settled: never open)": resolved, though
    never announced open. Alerts, the site and feeds word it as its own kind; its stored
    kind and detail (so its key, the feed entry's id) stay as they were."""
    from claims.events import event_key, event_label, reader_kind
    from claims.store.outbox import make_event
    from claims.store.rows import EventRow
    from tracker.alerts.send import compose
    from tracker.website.collect import event_views

    detail = {"discrepancy": "abc", "rule": "same_value_different_version", "found_settled": True}
    old_title = (  # as older versions stored it
        "Kimi K3.1 Pro: Benchmark score: the same score reported for two versions of a "
        "benchmark (resolved) (found settled: never open)"
    )
    told = (
        "Kimi K3.1 Pro: Benchmark score: the same score reported for two versions of a "
        "benchmark (sources disagreed; already settled by an observation, never open)"
    )
    event = make_event("discrepancy_resolved", old_title, detail=detail)
    assert event.kind == "discrepancy_resolved"
    assert event.key == event_key("discrepancy_resolved", None, None, detail)
    assert compose(event, None, "https://t.example/").title == told
    row = EventRow(
        id=1, key=event.key, kind=event.kind, audience=event.audience, title=event.title,
        detail_json=event.detail_json, created_at=event.created_at, subject_id=None,
        watch_id=None,
    )  # fmt: skip
    (view,) = event_views([row], {})
    assert (view.title, view.label, view.key) == (told, "Disagreement already settled", event.key)
    assert event_label(reader_kind(event.kind, detail)) == "Disagreement already settled"
    # one that opened and then resolved is still "resolved"
    assert reader_kind("discrepancy_resolved", {"discrepancy": "abc"}) == "discrepancy_resolved"


def test_alerts_test_to_names_the_url_without_secrets_and_hints_json_for_http(monkeypatch):
    """`alerts test --to URL` said "test alert to --to: failed", and an http:// URL was
    refused with no word of json:// (fresh-user trial)."""
    monkeypatch.delenv("TRACKER_APPRISE_URLS", raising=False)
    result = runner.invoke(app, ["alerts", "test", "--to", "json://me:s3cret@127.0.0.1:1/x"])
    assert result.exit_code == 1
    assert result.stdout.startswith("test alert to json://127.0.0.1: failed: ")
    assert "s3cret" not in result.stdout
    result = runner.invoke(app, ["alerts", "test", "--to", "https://hooks.example.com/t0ken"])
    assert (result.exit_code, result.stdout) == (
        1,
        "test alert to https://hooks.example.com: failed: not a usable Apprise URL (see "
        "https://appriseit.com/services/); for a plain webhook use json://HOST/PATH or "
        "jsons://HOST/PATH (Apprise's JSON webhook schemes: http and https)\n",
    )
