"""tracker.net.fetch: status handling (cases/C06), Hub 401 vs 404, validators, size cap."""

from __future__ import annotations

import datetime as dt
import json

import httpx
import pytest

from tracker.errors import BadStatus, FetchError, FetchTimeout, RateLimited, TooLarge
from tracker.net.fetch import FetchSettings, fetch, make_client, retry_after_seconds

T0 = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)
TREE = "https://huggingface.co/api/models/acme/Orca-9B/tree/main?recursive=true"
FILES = [
    {"type": "file", "path": "config.json"},
    {"type": "file", "path": "model-00001-of-00002.safetensors"},
    {"type": "file", "path": "model-00002-of-00002.safetensors"},
    {"type": "file", "path": "tokenizer.json"},
]


class FakeTime:
    """A clock that only moves when the code under test sleeps."""

    def __init__(self) -> None:
        self.now = T0
        self.sleeps: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += dt.timedelta(seconds=seconds)

    def clock(self) -> dt.datetime:
        return self.now


def sequence_client(responses, seen_times, fake):
    it = iter(responses)

    def handler(request: httpx.Request) -> httpx.Response:
        seen_times.append((fake.now - T0).total_seconds())
        status, headers, body = next(it)
        return httpx.Response(status, headers=headers, json=body)

    return make_client(
        FetchSettings(contact="ops@example.org"), transport=httpx.MockTransport(handler)
    )


def test_c06_retry_after_is_honoured_and_same_files_come_back():
    fake, times = FakeTime(), []
    client = sequence_client(
        [
            (429, {"Retry-After": "55"}, {"error": "rate limited"}),
            (429, {"Retry-After": "40"}, {"error": "rate limited"}),
            (200, {}, FILES),
        ],
        times,
        fake,
    )
    got = fetch(client, TREE, sleep=fake.sleep, clock=fake.clock)
    assert fake.sleeps == [55.0, 40.0]
    assert times == [0.0, 55.0, 95.0]
    assert got.status == 200
    assert [f["path"] for f in json.loads(got.body)] == [f["path"] for f in FILES]
    assert got.fetched_at == T0 + dt.timedelta(seconds=95)


def test_c06_exhausted_budget_is_rate_limited_not_missing():
    fake, times = FakeTime(), []
    client = sequence_client(
        [
            (429, {"Retry-After": "55"}, {"error": "rate limited"}),
            (429, {"Retry-After": "40"}, {"error": "rate limited"}),
            (429, {"Retry-After": "30"}, {"error": "rate limited"}),
        ],
        times,
        fake,
    )
    with pytest.raises(RateLimited) as info:
        fetch(client, TREE, retries=3, sleep=fake.sleep, clock=fake.clock)
    assert info.value.kind == "rate_limited"
    assert info.value.status == 429
    assert fake.sleeps == [55.0, 40.0]  # no pointless wait after the last attempt
    assert times == [0.0, 55.0, 95.0]


def test_hub_ratelimit_header_gives_the_wait_when_retry_after_is_absent(shared_dir):
    cases = json.loads((shared_dir / "fixtures/real/synthetic_hf_error_responses.json").read_text())
    case = next(c for c in cases["cases"] if c["case"] == "rate_limited_api_bucket")
    headers = httpx.Headers(case["headers"])
    assert retry_after_seconds(headers, T0) == 55.0


def test_retry_after_http_date():
    headers = httpx.Headers({"Retry-After": "Sun, 29 Nov 2026 12:01:30 GMT"})
    assert retry_after_seconds(headers, T0) == 90.0


def test_wait_longer_than_the_cap_fails_at_once():
    fake, times = FakeTime(), []
    client = sequence_client([(429, {"Retry-After": "3600"}, {})], times, fake)
    with pytest.raises(RateLimited, match="3600s"):
        fetch(client, TREE, sleep=fake.sleep, clock=fake.clock)
    assert fake.sleeps == []


def _error_case(cases, name):
    case = next(c for c in cases["cases"] if c["case"] == name)
    body = case["body"]
    content = json.dumps(body).encode() if isinstance(body, dict) else body.encode()
    return httpx.Response(case["status"], headers=case["headers"], content=content)


@pytest.mark.parametrize(
    ("case", "status", "code", "kind"),
    [
        ("nonexistent_or_private_repo_anonymous", 401, "RepoNotFound", "missing_or_private"),
        ("nonexistent_or_private_repo_with_valid_token", 404, "RepoNotFound", "not_found"),
        ("gated_repo_file_anonymous", 401, "GatedRepo", "gated"),
        ("gated_repo_file_token_not_approved", 403, "GatedRepo", "gated"),
        ("file_missing_in_existing_repo", 404, "EntryNotFound", "entry_not_found"),
        ("bad_revision", 404, "RevisionNotFound", "revision_not_found"),
    ],
)
def test_hub_error_statuses_are_told_apart(shared_dir, case, status, code, kind):
    cases = json.loads((shared_dir / "fixtures/real/synthetic_hf_error_responses.json").read_text())
    calls = []

    def handler(request):
        calls.append(request.url)
        return _error_case(cases, case)

    client = make_client(transport=httpx.MockTransport(handler))
    with pytest.raises(BadStatus) as info:
        fetch(client, "https://huggingface.co/api/models/x/y", sleep=pytest.fail)
    assert (info.value.status, info.value.error_code, info.value.kind) == (status, code, kind)
    assert len(calls) == 1  # a 4xx is not retried


def test_conditional_get_sends_validators_and_304_is_unchanged():
    seen = {}

    def handler(request):
        seen.update(request.headers)
        return httpx.Response(304, headers={"ETag": 'W/"abc"'})

    client = make_client(transport=httpx.MockTransport(handler))
    got = fetch(
        client,
        "https://openrouter.ai/api/v1/models",
        etag='W/"abc"',
        last_modified="Sat, 28 Nov 2026 06:00:00 GMT",
        clock=lambda: T0,
    )
    assert seen["if-none-match"] == 'W/"abc"'
    assert seen["if-modified-since"] == "Sat, 28 Nov 2026 06:00:00 GMT"
    assert got.unchanged and got.body == b"" and got.fetched_at == T0


def test_user_agent_is_honest_and_names_the_contact(monkeypatch):
    monkeypatch.setenv("TRACKER_CONTACT", "mailto:ops@example.org")
    seen = {}

    def handler(request):
        seen["ua"] = request.headers["user-agent"]
        return httpx.Response(200, json=[])

    client = make_client(transport=httpx.MockTransport(handler))
    fetch(client, "https://huggingface.co/api/models?author=x")
    assert seen["ua"] == "release-tracker/0.1.0 (+mailto:ops@example.org)"
    assert client.timeout.connect == 10.0 and client.timeout.read == 30.0
    assert client.max_redirects == 5


def test_body_over_the_cap_is_too_large():
    client = make_client(
        transport=httpx.MockTransport(lambda r: httpx.Response(200, content=b"x" * 2048))
    )
    with pytest.raises(TooLarge, match="1024-byte cap"):
        fetch(client, "https://example.org/big", max_bytes=1024)


def test_timeouts_retry_then_raise_fetch_timeout():
    attempts = []

    def handler(request):
        attempts.append(1)
        raise httpx.ReadTimeout("slow", request=request)

    client = make_client(transport=httpx.MockTransport(handler))
    waits: list[float] = []
    with pytest.raises(FetchTimeout) as info:
        fetch(client, "https://example.org/slow", sleep=waits.append)
    assert info.value.kind == "timeout"
    assert len(attempts) == 3 and len(waits) == 2
    assert 2 <= waits[0] < 3 and 4 <= waits[1] < 5  # exponential back-off with jitter


def test_redirects_are_followed_and_listed():
    def handler(request):
        if request.url.path == "/old":
            return httpx.Response(308, headers={"Location": "https://example.org/new"})
        return httpx.Response(200, text="ok")

    client = make_client(transport=httpx.MockTransport(handler))
    got = fetch(client, "https://example.org/old", clock=lambda: T0)
    assert got.final_url == "https://example.org/new"
    assert got.redirects == ("https://example.org/old",)
    assert got.body == b"ok"


def test_truncated_body_is_retried_then_a_fetch_error():
    calls = []

    def handler(request):
        calls.append(1)
        raise httpx.RemoteProtocolError("peer closed connection without sending complete body")

    client = make_client(transport=httpx.MockTransport(handler))
    with pytest.raises(FetchError, match="network error") as info:
        fetch(client, "https://example.org/x", sleep=lambda s: None)
    assert info.value.kind == "fetch_error" and len(calls) == 3


def test_body_failing_its_content_encoding_is_a_fetch_error():
    client = make_client(
        transport=httpx.MockTransport(
            lambda r: httpx.Response(200, headers={"Content-Encoding": "gzip"}, content=b"not gzip")
        )
    )
    with pytest.raises(FetchError, match="unreadable response"):
        fetch(client, "https://example.org/x")
