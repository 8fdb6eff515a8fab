"""tracker.net.policy and its use by the cycle, fetch and the recorder: fetching that a
server cannot steer (issue 20, item 4). Next-page links and redirects stay on the watch's
host (or its allow-list); credentials go only to their host and never into a recording;
private addresses are refused; every fetch and recording has a total time and a
decoded-size cap; a challenge answer never moves a baseline."""

from __future__ import annotations

import datetime as dt
import gzip
import json
import tracemalloc

import httpx
import pytest
from cycle_setup import DATA, add_subjects, add_watch
from sqlmodel import Session, select

from claims.store.tables import Event, Observation, Watch
from tracker.cycle.offline import record_check
from tracker.cycle.run import run_check
from tracker.errors import FetchTimeout, RateLimited, TooLarge
from tracker.net.fetch import FetchSettings, fetch, make_client
from tracker.net.har import HarRecorder
from tracker.snapshots.store import SnapshotStore

NOW = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)
ORG = "https://huggingface.co/api/models?author=moonshotai"
MODEL = "https://huggingface.co/api/models/moonshotai/Kimi-K2-Thinking"


def _model_info(licence: str = "modified-mit") -> bytes:
    info = json.loads(
        (DATA / "synthetic_hf_model_info_int4_compressed_tensors_kimi_like.json").read_text()
    )
    info["cardData"]["license_name"] = licence
    return json.dumps(info).encode()


class Seen(httpx.BaseTransport):
    """Answers from ``pages`` (url -> response factory) and keeps every request."""

    def __init__(self, pages):
        self.pages = pages
        self.requests: list[httpx.Request] = []

    def handle_request(self, request):
        self.requests.append(request)
        make = self.pages.get(str(request.url))
        return make() if make else httpx.Response(404)


def _rows(engine, model):
    with Session(engine) as s:
        return s.exec(select(model)).all()


def test_a_next_link_to_another_host_is_not_followed_and_carries_no_token(
    engine, tmp_path, monkeypatch
):
    """A ``Link: rel="next"`` to a second host, or to the link-local metadata address,
    was followed with the watch's Hub token and its body stored."""
    monkeypatch.setenv("HF_TOKEN_T", "hf_secret")
    add_subjects(engine)
    auth = {"env": "HF_TOKEN_T", "header": "Authorization"}
    add_watch(engine, "hf-org", "huggingface_org", ORG, auth=auth)
    for target in ("https://evil.example/steal", "http://169.254.169.254/latest/meta-data/"):
        listing = [{"id": "moonshotai/Kimi-K2-Thinking", "private": False}]
        seen = Seen(
            {
                ORG: lambda listing=listing, target=target: httpx.Response(
                    200, json=listing, headers={"Link": f'<{target}>; rel="next"'}
                ),
                target: lambda: httpx.Response(200, json=[{"id": "x/secret"}]),
            }
        )
        summary = run_check(
            engine, make_client(transport=seen), snapshot_store=SnapshotStore(tmp_path), now=NOW
        )
        r = summary.results[0]
        assert (r.outcome, r.error_kind) == ("failed", "off_host")
        assert f"next-page link to {target} refused" in r.error
        assert [str(q.url) for q in seen.requests] == [ORG]
        assert seen.requests[0].headers["authorization"] == "hf_secret"
    assert _rows(engine, Observation) == []


def test_a_cross_host_redirect_fails_the_watch_and_alerts_nothing(engine, tmp_path):
    """Followed silently, another host's licence was read and alerted as license_changed."""
    add_subjects(engine)
    add_watch(engine, "hf-model", "huggingface_model", MODEL)
    store = SnapshotStore(tmp_path)
    first = Seen({MODEL: lambda: httpx.Response(200, content=_model_info())})
    run_check(engine, make_client(transport=first), snapshot_store=store, now=NOW)
    other = "https://mirror.example/api/models/moonshotai/Kimi-K2-Thinking"
    moved = Seen(
        {
            MODEL: lambda: httpx.Response(302, headers={"Location": other}),
            other: lambda: httpx.Response(200, content=_model_info("evil-licence")),
        }
    )
    later = NOW + dt.timedelta(hours=1)
    summary = run_check(engine, make_client(transport=moved), snapshot_store=store, now=later)
    r = summary.results[0]
    assert (r.outcome, r.error_kind) == ("failed", "off_host")
    assert r.error == (
        f"{MODEL}: redirect to {other} refused: host mirror.example is not huggingface.co "
        "nor in the watch's allow_hosts"
    )
    assert [str(q.url) for q in moved.requests] == [MODEL]
    assert [e.kind for e in _rows(engine, Event) if e.kind == "license_changed"] == []


def test_a_redirect_to_an_allowed_host_is_followed_without_credentials(engine, tmp_path):
    """The Hub's CDN (``*.hf.co``) is on the Hub adapters' list; a watch adds its own."""
    add_subjects(engine)
    url = "https://vendor.example/pricing"
    cdn = "https://cdn.vendor-static.example/pricing.html"
    add_watch(
        engine,
        "page",
        "html_page",
        url,
        selector="#p",
        subject="Kimi K3",
        attribute="price_input_usd_per_mtok",
        allow_hosts=["*.vendor-static.example"],
    )
    seen = Seen(
        {
            url: lambda: httpx.Response(301, headers={"Location": cdn}),
            cdn: lambda: httpx.Response(200, text="<p id='p'>$1.20</p>"),
        }
    )
    summary = run_check(
        engine, make_client(transport=seen), snapshot_store=SnapshotStore(tmp_path), now=NOW
    )
    assert summary.results[0].outcome == "changed"
    assert summary.results[0].redirects == [f"{url} -> {cdn}"]


def test_host_patterns_and_private_addresses():
    from tracker.net.policy import host_matches, is_private

    assert host_matches("cdn-lfs.hf.co", "*.hf.co")
    assert not host_matches("hf.co.evil.example", "*.hf.co")
    assert not host_matches("evilhf.co", "*.hf.co")
    assert host_matches("API.example", "api.example")
    private = ["127.0.0.1", "10.1.2.3", "192.168.0.1", "169.254.169.254", "::1", "0.0.0.0"]
    assert [is_private(a) for a in private] == [True] * len(private)
    assert is_private("::ffff:169.254.169.254") and is_private("[fe80::1]")
    assert not is_private("93.184.216.34") and not is_private("huggingface.co")


def test_the_live_guard_refuses_private_addresses_unless_allowed():
    from tracker.errors import PrivateAddress
    from tracker.net.policy import AddressGuard, RequestPolicy

    served: list[str] = []

    def inner(request):
        served.append(str(request.url))
        return httpx.Response(200)

    resolve = {"metadata.example": ["169.254.169.254"], "public.example": ["93.184.216.34"]}
    guard = AddressGuard(httpx.MockTransport(inner), resolve=lambda h, _p: resolve.get(h, []))
    client = make_client(transport=guard)
    for url in ("http://metadata.example/", "http://127.0.0.1:8080/", "http://localhost/"):
        with pytest.raises(PrivateAddress, match="private, loopback or link-local"):
            fetch(client, url)
    fetch(client, "http://public.example/")
    allowed = RequestPolicy(allow_private=True)
    fetch(client, "http://metadata.example/", policy=allowed)
    assert served == ["http://public.example/", "http://metadata.example/"]


def test_a_dripping_body_hits_the_total_deadline():
    """One byte every 5 s passed the per-read timeout for 187 s; the fetch now ends at
    its total time (a fake monotonic clock: 5 s per chunk)."""
    ticks = iter(range(0, 10_000, 5))
    sent: list[int] = []

    def drip():
        while True:  # never ends by itself
            sent.append(1)
            yield b"x"

    client = make_client(
        transport=httpx.MockTransport(lambda r: httpx.Response(200, content=drip()))
    )
    with pytest.raises(FetchTimeout, match="total time limit"):
        fetch(client, "https://slow.example/", total_timeout=120, monotonic=lambda: next(ticks))
    assert 20 <= len(sent) <= 30


def test_a_challenge_answer_is_no_content_and_moves_no_baseline(engine, tmp_path):
    add_subjects(engine)
    add_watch(engine, "hf-model", "huggingface_model", MODEL)
    store = SnapshotStore(tmp_path)
    run_check(
        engine,
        make_client(transport=Seen({MODEL: lambda: httpx.Response(200, content=_model_info())})),
        snapshot_store=store,
        now=NOW,
    )
    before = [(o.id, o.value_key, o.current, o.last_seen) for o in _rows(engine, Observation)]
    challenge = Seen(
        {
            MODEL: lambda: httpx.Response(
                200, headers={"cf-mitigated": "challenge", "ETag": '"c"'}, text="Just a moment..."
            )
        }
    )
    later = NOW + dt.timedelta(hours=1)
    summary = run_check(engine, make_client(transport=challenge), snapshot_store=store, now=later)
    assert summary.results[0].error_kind == "challenge"
    assert [(o.id, o.value_key, o.current, o.last_seen) for o in _rows(engine, Observation)] == (
        before
    )
    assert _rows(engine, Watch)[0].etag is None


def test_fetch_raises_challenge_as_rate_limited():
    client = make_client(
        transport=httpx.MockTransport(
            lambda r: httpx.Response(200, headers={"cf-mitigated": "challenge"})
        )
    )
    with pytest.raises(RateLimited) as info:
        fetch(client, "https://x.example/")
    assert info.value.kind == "challenge"


@pytest.mark.parametrize("header", ["apikey", "X-Goog-Api-Key", "X-Auth-Token"])
def test_a_recording_never_holds_the_watchs_auth_header(engine, tmp_path, monkeypatch, header):
    """Only five built-in names were redacted; any header a watch's auth adds is now."""
    monkeypatch.setenv("VENDOR_KEY_T", "sk-very-secret")
    with Session(engine) as s:
        from cycle_setup import add_named_subject

        add_named_subject(s, "orion", "Orion")
        s.commit()
    url = "https://api.vendor.example/prices"
    auth = {"env": "VENDOR_KEY_T", "header": header}
    params = {"selector": "#p", "subject": "Orion", "attribute": "price_input_usd_per_mtok"}
    add_watch(engine, "vendor", "html_page", url, auth=auth, **params)
    seen = Seen({url: lambda: httpx.Response(200, text="<p id='p'>$2</p>")})
    out = tmp_path / "rec.har"
    summary, path = record_check(
        engine, out, snapshot_store=SnapshotStore(tmp_path / "s"), inner=seen, now=NOW
    )
    assert summary.failing == 0
    assert seen.requests[0].headers[header] == "sk-very-secret"  # it was sent...
    text = path.read_text()
    assert "sk-very-secret" not in text  # ...and never written
    names = [h["name"].lower() for h in json.loads(text)["log"]["entries"][0]["request"]["headers"]]
    assert header.lower() not in names and "user-agent" in names


def test_a_gzip_bomb_is_capped_while_recording():
    """``tracker record`` decompressed a whole body in memory (1 MiB of gzip: 2.2 GB)."""
    bomb = gzip.compress(b"\0" * (64 * 1024 * 1024), compresslevel=9)
    assert len(bomb) < 100_000
    inner = httpx.MockTransport(
        # Streamed as a server would (bytes content would be decoded by the mock at once).
        lambda r: httpx.Response(200, headers={"Content-Encoding": "gzip"}, content=iter([bomb]))
    )
    recorder = HarRecorder(inner, clock=lambda: NOW, max_bytes=2 * 1024 * 1024)
    client = make_client(transport=recorder)
    tracemalloc.start()
    try:
        with pytest.raises(TooLarge, match="2097152-byte cap"):
            fetch(client, "https://bomb.example/")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 * 1024 * 1024
    assert recorder.entries == []


def test_a_dripping_body_hits_the_recorders_deadline():
    ticks = iter(range(0, 10_000, 5))

    def drip():
        while True:
            yield b"x"

    inner = httpx.MockTransport(lambda r: httpx.Response(200, content=drip()))
    recorder = HarRecorder(inner, clock=lambda: NOW, monotonic=lambda: next(ticks))
    with pytest.raises(FetchTimeout):
        fetch(make_client(transport=recorder), "https://slow.example/")


def test_off_host_is_a_fetch_error_naming_the_target():
    from tracker.errors import OffHost
    from tracker.net.policy import RequestPolicy

    policy = RequestPolicy(hosts=("*.hf.co",))
    policy.check_host("https://huggingface.co/a", "https://cdn-lfs.hf.co/b", "redirect")
    with pytest.raises(OffHost, match="file to https://evil.example/b refused"):
        policy.check_host("https://huggingface.co/a", "https://evil.example/b", "file")
    assert FetchSettings().total_timeout == 120.0


def test_the_guard_reuses_a_hosts_addresses_for_a_minute():
    from tracker.net.policy import RESOLVE_TTL_S, AddressGuard

    lookups: list[str] = []
    clock = [0.0]

    def resolve(host, _port):
        lookups.append(host)
        return ["93.184.216.34"]

    guard = AddressGuard(
        httpx.MockTransport(lambda r: httpx.Response(200)),
        resolve=resolve,
        monotonic=lambda: clock[0],
    )
    client = make_client(transport=guard)
    fetch(client, "https://public.example/a")
    fetch(client, "https://public.example/b")
    clock[0] = RESOLVE_TTL_S + 1
    fetch(client, "https://public.example/c")
    assert lookups == ["public.example", "public.example"]
