"""tracker.cycle.run concurrency: watches fetch in parallel, bounded in all and per host;
results are recorded in name order and equal a sequential run's.

No wall-clock assertions: parallelism is shown by requests meeting at a barrier that a
sequential run could never pass, and caps by the peak number of requests in flight.
"""

from __future__ import annotations

import threading
from collections import Counter

import httpx
from cycle_setup import DEMO_HAR, add_subjects, add_watch, add_watches
from sqlmodel import Session, select

from claims.store.engine import make_engine
from claims.store.tables import Event, Observation, Snapshot, Watch
from tracker.cycle.run import run_check
from tracker.net.fetch import make_client
from tracker.net.har import HarReplayTransport
from tracker.net.throttle import HostThrottle
from tracker.snapshots.store import SnapshotStore

# Safety net only: a barrier that is never met fails the test instead of hanging it.
BARRIER_TIMEOUT_S = 10.0


class InFlight:
    """Counts requests in flight, in all and per host, and keeps the peaks."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now: Counter[str] = Counter()
        self.peak: Counter[str] = Counter()

    def enter(self, host: str) -> None:
        with self.lock:
            for key in ("*", host):
                self.now[key] += 1
                self.peak[key] = max(self.peak[key], self.now[key])

    def leave(self, host: str) -> None:
        with self.lock:
            for key in ("*", host):
                self.now[key] -= 1


def info(repo: str) -> dict:
    return {"id": repo, "createdAt": "2025-11-04T08:25:31.000Z", "gated": False}


def add_model_watches(engine, hosts: dict[str, int]) -> list[str]:
    """``hosts``: host -> number of watches; returns the watch names."""
    names = []
    for host, n in hosts.items():
        for i in range(n):
            name = f"{host}-{i}"
            add_watch(engine, name, "huggingface_model", f"https://{host}/api/models/org/m{i}")
            names.append(name)
    return sorted(names)


def test_watches_run_in_parallel_up_to_the_concurrency_cap(engine, tmp_path):
    add_model_watches(engine, {f"h{i}.example": 1 for i in range(6)})
    flight = InFlight()
    # Three requests must be in flight together to pass: impossible one at a time.
    barrier = threading.Barrier(3, timeout=BARRIER_TIMEOUT_S)

    def handler(request):
        flight.enter(request.url.host)
        try:
            barrier.wait()
        finally:
            flight.leave(request.url.host)
        return httpx.Response(200, json=info("org/" + request.url.path.rsplit("/", 1)[1]))

    client = make_client(transport=httpx.MockTransport(handler))
    summary = run_check(engine, client, snapshot_store=SnapshotStore(tmp_path), concurrency=3)
    assert [(r.outcome, r.error) for r in summary.results] == [("new", None)] * 6  # 1st checks
    assert flight.peak["*"] == 3  # never more than the cap, and the cap was reached


def test_per_host_cap_holds_while_other_hosts_proceed(engine, tmp_path):
    add_model_watches(engine, {"fast.example": 4, "slow.example": 3})
    flight = InFlight()
    pair = threading.Barrier(2, timeout=BARRIER_TIMEOUT_S)  # fast.example: 2 at once
    second_slow = threading.Event()

    def handler(request):
        host = request.url.host
        flight.enter(host)
        try:
            if host == "fast.example":
                pair.wait()
            elif flight.now[host] > 1:
                second_slow.set()  # only possible if the per-host cap let two in
            else:
                second_slow.wait(0.3)  # give a second slow request the chance to overlap
        finally:
            flight.leave(host)
        return httpx.Response(200, json=info("org/x"))

    throttle = HostThrottle(
        httpx.MockTransport(handler),
        min_interval=0,
        max_concurrent=2,
        per_host_concurrent={"slow.example": 1},
    )
    client = make_client(transport=throttle)
    summary = run_check(engine, client, snapshot_store=SnapshotStore(tmp_path), concurrency=8)
    assert summary.failing == 0 and summary.checked == 7
    assert (flight.peak["fast.example"], flight.peak["slow.example"]) == (2, 1)
    assert not second_slow.is_set()


def test_results_and_progress_come_in_name_order_whatever_finishes_first(engine, tmp_path):
    names = add_model_watches(engine, {"a.example": 1, "b.example": 1, "c.example": 1})
    done: list[str] = []
    others_done = threading.Barrier(3, timeout=BARRIER_TIMEOUT_S)

    def handler(request):
        host = request.url.host
        if host == "a.example":  # the first watch by name answers last
            others_done.wait()
        response = httpx.Response(200, json=info("org/x"))
        done.append(host)
        if host != "a.example":
            others_done.wait()
        return response

    seen: list[str] = []
    client = make_client(transport=httpx.MockTransport(handler))
    summary = run_check(
        engine,
        client,
        snapshot_store=SnapshotStore(tmp_path),
        progress=lambda r: seen.append(r.name),
        concurrency=3,
    )
    assert done[-1] == "a.example"
    assert seen == names == [r.name for r in summary.results]
    assert names == ["a.example-0", "b.example-0", "c.example-0"]


def _demo_state(tmp_path, name: str, concurrency: int):
    engine = make_engine(tmp_path / f"{name}.db")
    add_subjects(engine)
    add_watches(engine)
    client = make_client(transport=HarReplayTransport(DEMO_HAR))
    summary = run_check(
        engine,
        client,
        snapshot_store=SnapshotStore(tmp_path / name),
        concurrency=concurrency,
    )
    with Session(engine) as s:
        obs = [
            (
                o.id,
                o.subject_id,
                o.attribute,
                o.qualifiers_json,
                o.value_key,
                o.watch_id,
                o.snapshot_id,
                o.first_seen,
                o.current,
            )
            for o in s.exec(select(Observation).order_by(Observation.id)).all()
        ]
        events = [(e.id, e.kind, e.key) for e in s.exec(select(Event).order_by(Event.id)).all()]
        snaps = [
            (x.id, x.watch_id, x.sha256) for x in s.exec(select(Snapshot).order_by(Snapshot.id))
        ]
        watches = [(w.name, w.state, w.etag) for w in s.exec(select(Watch).order_by(Watch.name))]
    return summary.to_dict(), obs, events, snaps, watches


def test_concurrent_demo_cycle_equals_the_sequential_one(tmp_path):
    sequential = _demo_state(tmp_path, "seq", 1)
    concurrent = _demo_state(tmp_path, "par", 8)
    assert concurrent == sequential
    summary, obs, events, _snaps, _watches = concurrent
    assert (summary["checked"], summary["failing"], len(events)) == (16, 0, 1)
    assert len(obs) == summary["observations"] > 0


def test_concurrency_setting_comes_from_the_environment(engine, tmp_path, monkeypatch):
    import pytest

    from tracker.errors import ConfigError
    from tracker.net.fetch import FetchSettings

    assert FetchSettings().max_concurrent == 8
    monkeypatch.setenv("TRACKER_CONCURRENCY", "3")
    assert FetchSettings.from_env().max_concurrent == 3
    monkeypatch.setenv("TRACKER_CONCURRENCY", "0")
    with pytest.raises(ConfigError, match="TRACKER_CONCURRENCY must be a positive integer"):
        run_check(
            engine,
            make_client(transport=HarReplayTransport(DEMO_HAR)),
            snapshot_store=SnapshotStore(tmp_path),
        )


def test_workers_share_one_robots_txt_fetch_per_origin(engine, tmp_path):
    from tracker.net.robots import RobotsPolicy

    add_model_watches(engine, {"h.example": 4})
    asked: list[str] = []
    overlap = threading.Event()

    def fetch_text(url: str) -> str:
        asked.append(url)
        if len(asked) > 1:
            overlap.set()  # only possible if two workers fetched robots.txt at once
        else:
            overlap.wait(0.3)  # give a racing worker the chance to ask too
        return "User-agent: *\nAllow: /\n"

    client = make_client(
        transport=httpx.MockTransport(lambda r: httpx.Response(200, json=info("o/m")))
    )
    summary = run_check(
        engine,
        client,
        snapshot_store=SnapshotStore(tmp_path),
        robots=RobotsPolicy(fetch_text),
        concurrency=4,
    )
    assert summary.failing == 0
    assert asked == ["https://h.example/robots.txt"]


def test_recording_never_holds_a_write_transaction_while_workers_fetch(engine, tmp_path):
    """cases/C17 with workers: watch a is recorded (committed) while b's request is still
    in flight, and b's request itself commits another write meanwhile."""
    add_model_watches(engine, {"a.example": 1, "b.example": 1})
    a_recorded = threading.Event()

    def handler(request):
        if request.url.host == "b.example":
            assert a_recorded.wait(BARRIER_TIMEOUT_S)  # a was recorded while b waits here
            with Session(engine) as s:  # another writer commits during b's network I/O
                w = s.exec(select(Watch).where(Watch.name == "a.example-0")).one()
                w.interval_minutes = 30
                s.add(w)
                s.commit()
        return httpx.Response(200, json=info("org/x"))

    def progress(result):
        if result.name == "a.example-0":
            a_recorded.set()

    client = make_client(transport=httpx.MockTransport(handler))
    summary = run_check(
        engine, client, snapshot_store=SnapshotStore(tmp_path), progress=progress, concurrency=2
    )
    assert [(r.name, r.outcome) for r in summary.results] == [
        ("a.example-0", "new"),
        ("b.example-0", "new"),
    ]
    with Session(engine) as s:
        a = s.exec(select(Watch).where(Watch.name == "a.example-0")).one()
    assert (a.interval_minutes, a.state) == (30, "ok")


def test_scheduled_watch_jobs_share_one_client_and_its_per_host_caps(engine, tmp_path, monkeypatch):
    import tracker.net.fetch
    from tracker.schedule.jobs import default_jobs

    add_model_watches(engine, {"h.example": 2})
    made: list[object] = []

    def fake_make_client(settings=None, transport=None):
        def handler(request):
            if request.url.path == "/robots.txt":
                return httpx.Response(404)
            return httpx.Response(200, json=info("o/m"))

        made.append(object())
        return make_client(transport=httpx.MockTransport(handler))  # the real factory

    monkeypatch.setattr(tracker.net.fetch, "make_client", fake_make_client)
    jobs = default_jobs(engine, snapshot_dir=tmp_path / "s", site_dir=tmp_path / "site")
    results = [jobs.run_watch(name) for name in ("h.example-0", "h.example-1", "h.example-0")]
    assert [r.results[0].outcome for r in results] == ["new", "new", "unchanged"]
    assert len(made) == 1  # one client (one HostThrottle) for every watch job
