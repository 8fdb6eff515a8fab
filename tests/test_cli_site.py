"""`tracker serve`, `tracker alerts test|send` through the CLI (local servers only)."""

from __future__ import annotations

import re
import threading
import urllib.request

from sitefixture import NOW, populate
from typer.testing import CliRunner
from webhook import Hook

from tracker.cli.main import app
from tracker.cli.site import make_server
from tracker.website import build_site

runner = CliRunner()


def test_alerts_test_to_url():
    with Hook(lambda body: 204) as hook:
        result = runner.invoke(app, ["alerts", "test", "--to", f"json://127.0.0.1:{hook.port}/"])
    assert result.exit_code == 0, result.output
    assert result.output == "test alert to json://127.0.0.1: delivered\n"
    assert [p["message"] for p in hook.posts] == ["Test alert from release-tracker."]


def test_alerts_test_failure_is_one_line(tmp_path):
    with Hook(lambda body: 500) as hook:
        result = runner.invoke(app, ["alerts", "test", "--to", f"json://127.0.0.1:{hook.port}/"])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("test alert to json://127.0.0.1: failed: ")
    assert "error=500" in lines[0]


def test_alerts_send_drains_once(tmp_path, monkeypatch):
    from claims.store.engine import make_engine

    db = tmp_path / "t.db"
    populate(make_engine(db))
    with Hook(lambda body: 200) as hook:
        config = tmp_path / "subs.toml"
        config.write_text(
            f'[[subscription]]\nname = "k2"\nurl = "json://127.0.0.1:{hook.port}/"\n'
            'subjects = ["kimi-k2-thinking"]\n'
        )
        # Events in the fixture are days old; the CLI uses the real clock and 48 h backlog,
        # so freshen the one event this subscription wants.
        import sqlite3

        with sqlite3.connect(db) as con:
            con.execute(
                "UPDATE event SET created_at = datetime('now') WHERE kind = 'weights_landed'"
            )
        args = ["alerts", "send", "--db", str(db), "--config", str(config)]
        first = runner.invoke(app, args)
        second = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert (
        first.output == "alerts: 1 planned, 1 delivered, 0 failed, 0 given up; 0 waiting to retry\n"
    )
    assert (
        second.output
        == "alerts: 0 planned, 0 delivered, 0 failed, 0 given up; 0 waiting to retry\n"
    )
    assert [p["title"] for p in hook.posts] == ["Kimi K2 Thinking weights landed"]


def test_alerts_send_without_any_subscription_is_an_error(engine, tmp_path, monkeypatch):
    """It printed "0 planned" and exited 0, as if alerts were set up (fresh-user trial)."""
    populate(engine)
    monkeypatch.delenv("TRACKER_APPRISE_URLS", raising=False)
    db = engine.url.database
    monkeypatch.chdir(tmp_path)  # no data/subscriptions.toml here
    result = runner.invoke(app, ["alerts", "send", "--db", str(db)])
    assert (result.exit_code, result.output) == (
        1,
        "error: no subscriptions: no data/subscriptions.toml and TRACKER_APPRISE_URLS unset; "
        "give --data DIR (the folder `tracker track --data DIR --subscribe URL` wrote to), "
        "--config FILE, or set TRACKER_APPRISE_URLS (docs/alerts.md)\n",
    )
    absent = tmp_path / "nope.toml"  # a mistyped --config is not "no subscriptions"
    result = runner.invoke(app, ["alerts", "send", "--db", str(db), "--config", str(absent)])
    assert (result.exit_code, result.output) == (
        1,
        f"error: {absent}: no such subscriptions file\n",
    )


def test_serve_previews_on_loopback(engine, tmp_path):
    populate(engine)
    build_site(engine, tmp_path / "site", now=NOW)
    server = make_server(tmp_path / "site", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        assert host == "127.0.0.1"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/subjects/kimi-k3.1-pro/") as resp:
            assert resp.status == 200
            assert b'<h1 title="Kimi K3.1 Pro">Kimi K3.1 Pro</h1>' in resp.read()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/feeds/all.atom") as resp:
            assert resp.headers["Content-Type"] == "application/atom+xml"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_serve_without_site_is_one_line(tmp_path):
    result = runner.invoke(app, ["serve", "--dir", str(tmp_path / "none")])
    assert result.exit_code == 1
    assert (
        result.output
        == f"error: {tmp_path / 'none'}/index.html not found; run `tracker build` first\n"
    )


def test_alerts_send_says_why_and_counts_waiting(tmp_path):
    """Failures: one stderr warning per subscription; a re-run counts what still waits."""
    import json
    import sqlite3

    from claims.store.engine import make_engine

    db = tmp_path / "t.db"
    populate(make_engine(db))
    with sqlite3.connect(db) as con:
        con.execute("UPDATE event SET created_at = datetime('now')")
    bad_config = tmp_path / "bad.toml"
    bad_config.write_text('[[subscription]]\nname = "x"\nurl = "nope://x"\n')
    base = ["alerts", "send", "--db", str(db), "--config"]
    bad = runner.invoke(app, [*base, str(bad_config)])
    assert (bad.exit_code, bad.stderr) == (1, "error: subscription 'x': not a usable Apprise URL\n")
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM delivery").fetchone() == (0,)  # nothing claimed
    with Hook(lambda body: 500) as hook:
        config = tmp_path / "subs.toml"
        config.write_text(f'[[subscription]]\nname = "x"\nurl = "json://127.0.0.1:{hook.port}/"\n')
        first = runner.invoke(app, [*base, str(config)])
        second = runner.invoke(app, [*base, str(config), "--json"])
    assert first.exit_code == 1
    assert first.stdout.startswith(
        "alerts: 3 planned, 0 delivered, 3 failed, 0 given up; 3 waiting to retry (next at 20"
    )
    assert first.stdout.endswith(" UTC)\n")
    [warning] = first.stderr.splitlines()
    assert warning.startswith("warning: subscription 'x': 3 deliveries failed (")
    assert "error=500" in warning and "; next attempt after 20" in warning
    assert second.exit_code == 0 and second.stderr == ""
    out = json.loads(second.stdout)
    assert (out["planned"], out["failed"], out["waiting"], out["failures"]) == (0, 0, 3, [])
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", out["next_retry_at"])


def _send_with(tmp_path, subscription: str):
    """`tracker alerts send` on the fixture database with one subscription (its URL a
    port nothing listens on: nothing is due, so nothing is sent)."""
    from claims.store.engine import make_engine

    db = tmp_path / "t.db"
    populate(make_engine(db))
    config = tmp_path / "subs.toml"
    config.write_text(
        f'[[subscription]]\nname = "team"\nurl = "json://127.0.0.1:9/"\n{subscription}\n'
    )
    return runner.invoke(app, ["alerts", "send", "--db", str(db), "--config", str(config)]), config


def test_alerts_send_warns_about_a_subject_not_in_the_database(tmp_path):
    result, _ = _send_with(tmp_path, 'subjects = ["kimi-k2-thinkin", "kimi-k2-thinking"]')
    assert result.exit_code == 0, result.output
    assert result.stderr == (
        "warning: subscription 'team': subject 'kimi-k2-thinkin' is not in the database "
        "(did you mean 'kimi-k2-thinking'?); no alert matches it until it is loaded\n"
    )
    assert result.stdout.startswith("alerts: ")


def test_alerts_send_refuses_an_unknown_event_kind_naming_the_nearest(tmp_path):
    result, config = _send_with(tmp_path, 'kinds = ["weight_landed"]')
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"error: {config}: subscription 'team': field 'kinds': unknown event kind "
        "'weight_landed' (did you mean 'weights_landed'?)\n"
    )


def test_alerts_send_refuses_a_bare_string_where_a_list_is_meant(tmp_path):
    # read as a set of characters, "kimi-k2-thinking" matched no subject, silently
    result, config = _send_with(tmp_path, 'subjects = "kimi-k2-thinking"')
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {config}: subscription 'team': field 'subjects' must be a list of subject "
        "slugs in brackets\n",
    )
