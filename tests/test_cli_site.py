"""`tracker serve`, `tracker alerts test|send` through the CLI (local servers only)."""

from __future__ import annotations

import threading
import urllib.request

from sitefixture import NOW, populate
from typer.testing import CliRunner
from webhook import Hook

from tracker.cli import app
from tracker.cli_site import make_server
from tracker.website import build_site

runner = CliRunner()


def test_alerts_test_to_url():
    with Hook(lambda body: 204) as hook:
        result = runner.invoke(app, ["alerts", "test", "--to", f"json://127.0.0.1:{hook.port}/"])
    assert result.exit_code == 0, result.output
    assert result.output == "test alert delivered to 1 subscription(s): --to\n"
    assert [p["message"] for p in hook.posts] == ["Test alert from release-tracker."]


def test_alerts_test_failure_is_one_line(tmp_path):
    with Hook(lambda body: 500) as hook:
        result = runner.invoke(app, ["alerts", "test", "--to", f"json://127.0.0.1:{hook.port}/"])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: test alert failed for --to (")


def test_alerts_send_drains_once(tmp_path, monkeypatch):
    from claims.db import make_engine

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
    assert first.output == "alerts: 1 planned, 1 delivered, 0 to retry, 0 given up\n"
    assert second.output == "alerts: 0 planned, 0 delivered, 0 to retry, 0 given up\n"
    assert [p["title"] for p in hook.posts] == ["Kimi K2 Thinking weights landed"]


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
