"""Fresh-user trial findings about alerts: a bad URL in TRACKER_APPRISE_URLS is named with
its variable and (redacted) URL; `tracker alerts test` says per target what happened;
docs/alerts.md shows what `tracker alerts send` really prints."""

from __future__ import annotations

import pytest
from sitefixture import populate
from typer.testing import CliRunner

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
