"""`tracker record` when fetches fail: nothing written and exit 1 when every watch
failed (an earlier capture is kept); exit 3 and a warning naming the failed watches
when only some did. The network is a MockTransport."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from tracker.cli.main import app
from tracker.cycle import offline
from tracker.cycle import run as cycle

ROOT = Path(__file__).resolve().parent.parent
DEMO_HAR = ROOT / "data" / "recordings" / "demo.har"
runner = CliRunner()


@pytest.fixture
def db(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # `load` reads data/ (the demo's 16 watches)
    path = str(tmp_path / "t.db")
    assert runner.invoke(app, ["load", "--db", path]).exit_code == 0
    # no backoff between retries of a refused connection
    monkeypatch.setattr(
        offline, "run_check", functools.partial(cycle.run_check, sleep=lambda _s: None)
    )
    return path


def _network(monkeypatch, handler) -> None:
    monkeypatch.setattr(offline, "live_transport", lambda _s: httpx.MockTransport(handler))


def _record(db: str, out: Path, *extra: str):
    return runner.invoke(
        app, ["record", "--out", str(out), "--db", db, "--snapshots", str(out.parent / "s"), *extra]
    )


def _refused(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("Name or service not known", request=request)


def test_every_fetch_failing_keeps_the_old_har_and_exits_1(db, tmp_path, monkeypatch):
    _network(monkeypatch, _refused)
    out = tmp_path / "old.har"
    out.write_text('{"log": {"entries": ["an earlier capture"]}}\n', encoding="utf-8")
    r = _record(db, out)
    assert r.exit_code == 1
    assert out.read_text(encoding="utf-8") == '{"log": {"entries": ["an earlier capture"]}}\n'
    errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert errors == [
        "error: every watch failed (cerebras-kimi-k3-post, hf-model-kimi-k2-thinking, "
        "hf-org-moonshotai and 9 more); cerebras-kimi-k3-post: fetch_error: "
        "https://www.cerebras.ai/blog/kimi-k3-on-wse-3t: network error "
        f"(Name or service not known); {out} not written"
    ]
    assert r.stderr.rstrip("\n").splitlines()[-1] == errors[0]  # the last line, alone
    assert not (tmp_path / ".old.har.tmp").exists()


def test_every_fetch_failing_creates_no_file_and_json_says_so(db, tmp_path, monkeypatch):
    # answered, but useless (a 404 would be a model watch's "not public yet" answer)
    _network(monkeypatch, lambda request: httpx.Response(403))
    out = tmp_path / "new.har"
    r = _record(db, out, "--json")
    assert r.exit_code == 1
    assert not out.exists()
    doc = json.loads(r.stdout)
    # 12 failed; the four Artificial Analysis watches are skipped (no TRACKER_AA_API_KEY)
    assert (doc["har"], doc["checked"], doc["failing"]) == (None, 16, 12)
    assert doc["error"]["kind"] == "nothing_recorded"  # one document: the error beside it
    assert r.stderr.splitlines()[-1].startswith("error: every watch failed (")


def test_some_fetches_failing_records_the_rest_and_exits_3(db, tmp_path, monkeypatch):
    demo = offline.HarReplayTransport(DEMO_HAR)

    def handler(request: httpx.Request) -> httpx.Response:
        if str(request.url) == "https://openrouter.ai/api/v1/models":
            return _refused(request)
        return demo.handle_request(request)

    _network(monkeypatch, handler)
    out = tmp_path / "part.har"
    r = _record(db, out)
    assert r.exit_code == 3
    assert "  failed  openrouter-models: fetch_error: " in r.stdout
    assert f"recorded to {out}" in r.stdout
    assert r.stderr.splitlines()[-1] == (
        f"warning: 1 of 16 watches failed (openrouter-models); {out} holds the others"
    )
    urls = [e["request"]["url"] for e in json.loads(out.read_text())["log"]["entries"]]
    assert len(urls) == 14 and "https://openrouter.ai/api/v1/models" not in urls


def test_snapshot_prints_a_stored_body_by_the_start_of_its_digest(tmp_path):
    from tracker.snapshots.store import SnapshotStore

    with SnapshotStore(tmp_path / "s") as store:
        sha = store.put(b'{"model_type": "kimi_k2"}')
        other = store.put(b"<html>other</html>")
    snaps = ["--snapshots", str(tmp_path / "s")]
    res = CliRunner().invoke(app, ["snapshot", sha[:8], *snaps])
    assert res.exit_code == 0 and res.stdout == '{"model_type": "kimi_k2"}'
    res = CliRunner().invoke(app, ["snapshot", other, *snaps, "--out", str(tmp_path / "b")])
    assert res.exit_code == 0 and (tmp_path / "b").read_bytes() == b"<html>other</html>"
    res = CliRunner().invoke(app, ["snapshot", "0000", *snaps])
    assert res.exit_code == 1 and "no snapshot starting with 0000" in res.output
