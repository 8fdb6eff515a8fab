"""Fresh-user trial findings about alerts: a bad URL in TRACKER_APPRISE_URLS is named with
its variable and (redacted) URL; `tracker alerts test` says per target what happened;
docs/alerts.md shows what `tracker alerts send` really prints."""

from __future__ import annotations

import pytest
from sitefixture import populate
from typer.testing import CliRunner
from webhook import Hook

from claims.db import make_engine
from tracker.cli import app
from tracker.subscriptions import load_subscriptions, redacted_url

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
