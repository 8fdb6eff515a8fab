"""robots.txt policy (RFC 9309 via protego) and the per-host throttle."""

from __future__ import annotations

import datetime as dt
import threading

import httpx
import pytest
from cycle_setup import add_watch
from sqlmodel import Session, select

from claims.store.tables import Observation, Watch
from tracker.cycle.run import run_check
from tracker.errors import Disallowed
from tracker.net.fetch import make_client
from tracker.net.robots import RobotsPolicy
from tracker.net.throttle import HostThrottle
from tracker.snapshots.store import SnapshotStore

AT = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)
ROBOTS = (
    "User-agent: *\nDisallow: /private/\n\nUser-agent: release-tracker\nDisallow: /precos/beta\n"
)


def site(robots_status=200, robots_body=ROBOTS):
    seen = []

    def handler(request):
        seen.append(request.url.path)
        if request.url.path == "/robots.txt":
            return httpx.Response(robots_status, text=robots_body)
        return httpx.Response(200, text="<p class='x'>ok</p>")

    return make_client(transport=httpx.MockTransport(handler)), seen


def test_robots_rules_for_our_agent():
    client, seen = site()
    policy = RobotsPolicy.for_client(client)
    policy.check("https://acme.example/precos")
    with pytest.raises(Disallowed, match="disallowed by robots.txt for release-tracker"):
        policy.check("https://acme.example/precos/beta")
    policy.check("https://acme.example/private/x")  # our group replaces the * group
    assert seen == ["/robots.txt"]  # fetched once per origin


@pytest.mark.parametrize(
    ("status", "allowed"), [(404, True), (410, True), (500, False), (429, False)]
)
def test_unreadable_robots_follow_rfc9309(status, allowed):
    client, _ = site(robots_status=status)
    policy = RobotsPolicy.for_client(client)
    if allowed:
        policy.check("https://acme.example/anything")
    else:
        with pytest.raises(Disallowed, match="robots.txt could not be fetched") as err:
            policy.check("https://acme.example/anything")
        # not the site's rules: the failure says robots.txt was out of reach
        assert err.value.kind == "robots_unreachable"


def test_cycle_does_not_fetch_a_disallowed_page(engine, tmp_path):
    params = {"selector": "p.x", "subject": "Orca 9B", "attribute": "license"}
    add_watch(engine, "beta", "html_page", "https://acme.example/precos/beta", **params)
    add_watch(
        engine, "api", "html_page", "https://acme.example/precos/beta?api", robots=False, **params
    )
    client, seen = site()
    summary = run_check(
        engine,
        client,
        snapshot_store=SnapshotStore(tmp_path),
        now=AT,
        robots=RobotsPolicy.for_client(client),
    )
    outcomes = {r.name: (r.outcome, r.error_kind) for r in summary.results}
    assert outcomes == {"api": ("new", None), "beta": ("failed", "robots_disallowed")}
    # "api" opted out; "beta" never fetched (order varies: the watches run concurrently)
    assert sorted(seen) == ["/precos/beta", "/robots.txt"]
    with Session(engine) as s:
        assert s.exec(select(Observation)).all() == []
        assert (
            s.exec(select(Watch).where(Watch.name == "beta")).one().last_error_kind
            == "robots_disallowed"
        )


class FakeClock:
    def __init__(self):
        self.t = 0.0
        self.sleeps = []

    def sleep(self, s):
        self.sleeps.append(s)
        self.t += s

    def monotonic(self):
        return self.t


def test_throttle_spaces_requests_per_host():
    clock = FakeClock()
    starts = []

    def handler(request):
        starts.append((request.url.host, clock.t))
        return httpx.Response(200)

    throttle = HostThrottle(
        httpx.MockTransport(handler),
        min_interval=2.0,
        per_host={"openrouter.ai": 5.0},
        sleep=clock.sleep,
        monotonic=clock.monotonic,
    )
    client = httpx.Client(transport=throttle)
    for url in [
        "https://huggingface.co/a",
        "https://huggingface.co/b",
        "https://openrouter.ai/x",
        "https://openrouter.ai/y",
        "https://huggingface.co/c",
    ]:
        client.get(url)
    assert starts == [
        ("huggingface.co", 0.0),
        ("huggingface.co", 2.0),
        ("openrouter.ai", 2.0),
        ("openrouter.ai", 7.0),
        ("huggingface.co", 7.0),
    ]


def test_throttle_caps_concurrency_per_host():
    active, peak, lock = [0], [0], threading.Lock()
    release = threading.Event()

    def handler(request):
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        release.wait(0.2)
        with lock:
            active[0] -= 1
        return httpx.Response(200)

    throttle = HostThrottle(httpx.MockTransport(handler), min_interval=0, max_concurrent=2)
    client = httpx.Client(transport=throttle)
    threads = [threading.Thread(target=client.get, args=("https://h.example/",)) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert peak[0] == 2
