"""Fuzz (issue 20, item 8): hostile JSON, HTML and HAR bodies through every adapter in a
real cycle, and hostile watch params through the loader. Whatever a server sends:

- no exception escapes ``run_check`` (each watch's error boundary holds);
- no subscriber event is produced (the generated bodies name no known subject, so a
  value read from them is never an alert, and a failure never is);
- nothing stored is lost (every observation and event stored before is still there,
  with its first-seen time and value).

Bounded for ``make test`` (``FUZZ_EXAMPLES``, default 25, derandomized: the same
examples every run); ``make fuzz`` runs many more, randomized.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import tempfile
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sitefixture import populate
from sqlalchemy import text

from claims.curated.loader import DataFileError, load_data
from claims.store.tables import Watch
from claims.values.canonical import dumps
from tracker.adapters.base import known_params
from tracker.curated.load import param_checks
from tracker.cycle.run import run_check
from tracker.errors import ConfigError
from tracker.net.fetch import make_client
from tracker.net.har import HarReplayTransport
from tracker.snapshots.store import SnapshotStore

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "25"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize="FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)
CORPUS = Path(__file__).resolve().parents[1] / "data" / "hostile" / "payloads.json"
PAYLOADS = [p["text"] for p in json.loads(CORPUS.read_text(encoding="utf-8"))["payloads"]]
# One watch per built-in adapter; none of their URLs names a subject of the fixture.
WATCHES = {
    "fz-org": ("huggingface_org", "https://huggingface.co/api/models?author=fuzzorg", {}),
    "fz-model": ("huggingface_model", "https://huggingface.co/api/models/fuzzorg/nothing", {}),
    "fz-config": (
        "huggingface_config",
        "https://huggingface.co/fuzzorg/nothing/resolve/main/config.json",
        {},
    ),
    "fz-openrouter": ("openrouter_models", "https://openrouter.ai/api/v1/models", {}),
    "fz-litellm": ("litellm_prices", "https://prices.example/model_prices.json", {}),
    "fz-lmarena": ("lmarena_catalog", "https://arena.example/leaderboard-text.json", {}),
    "fz-aa": ("artificial_analysis", "https://aa.example/api/v2/data/llms/models", {}),
    "fz-page": (
        "html_page",
        "https://vendor.example/pricing",
        {"selector": "td", "subject": "Nobody Known", "attribute": "price_input_usd_per_mtok"},
    ),
    "fz-table": (
        "html_page",
        "https://vendor.example/table",
        {"selector": "tr", "columns": {"1": "context_window", "2": "license"}},
    ),
}
KEYS = [
    "id", "modelId", "cardData", "license", "license_name", "tags", "gated", "createdAt",
    "safetensors", "total", "parameters", "config", "max_position_embeddings",
    "rope_scaling", "factor", "quantization_config", "bits", "data", "pricing", "prompt",
    "completion", "context_length", "hugging_face_id", "max_input_tokens",
    "input_cost_per_token", "output_cost_per_token", "mode", "text", "rating",
    "model_api_name", "slug", "evaluations", "pagination", "page", "siblings", "rfilename",
]  # fmt: skip
hostile_text = st.one_of(
    st.sampled_from(PAYLOADS),
    st.text(max_size=20),
    st.sampled_from(["\ud800", "\udfff", "x\ud83d", "\x00", "-1", "1e999999999", "NaN"]),
)
numbers = st.one_of(
    st.integers(min_value=-(10**60), max_value=10**60),
    st.sampled_from([0, -5, 10**400, 2**63, 1.5e308]),
    st.floats(allow_nan=True, allow_infinity=True),
)
json_values = st.recursive(
    st.none() | st.booleans() | numbers | hostile_text,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS) | hostile_text, inner, max_size=5)
    ),
    max_leaves=25,
)


def _json_body(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=True, allow_nan=True).encode()


json_bodies = st.one_of(
    json_values.map(_json_body),
    st.integers(min_value=1, max_value=20_000).map(lambda n: b"[" * n + b"]" * n),
    st.integers(min_value=100, max_value=6000).map(lambda n: b'{"total": ' + b"9" * n + b"}"),
    st.binary(max_size=200),
)
cells = st.one_of(hostile_text, numbers.map(str), st.just("9" * 5000))
html_bodies = st.one_of(
    st.lists(st.tuples(cells, cells, cells), max_size=4).map(
        lambda rows: (
            "<table>"
            + "".join(f"<tr><td>{a}</td><td>{b}</td><td>{c}</td></tr>" for a, b, c in rows)
            + "</table>"
        ).encode("utf-8", "surrogatepass")
    ),
    st.binary(max_size=300),
    st.sampled_from([b"<meta charset='x-unknown'><td>1</td>", b"\xef\xbb\xbf<td>\xff</td>"]),
)
headers = st.fixed_dictionaries(
    {},
    optional={
        "content-type": st.sampled_from(
            ["text/html; charset=shift_jis", "text/html; charset=bogus", "application/json"]
        ),
        "link": hostile_text.map(lambda t: f'<{t}>; rel="next"'),
        "cf-mitigated": st.just("challenge"),
        "etag": st.sampled_from(['"v1"', "W/x"]),
    },
)
answers = st.tuples(
    st.sampled_from([200, 200, 200, 301, 404, 429, 500]), headers, json_bodies, html_bodies
)


@pytest.fixture
def baseline(engine):
    populate(engine)
    from sqlmodel import Session

    with Session(engine) as s:
        for name, (adapter, url, params) in WATCHES.items():
            s.add(Watch(name=name, adapter=adapter, url=url, params_json=dumps(params)))
        s.commit()
    return engine


def _stored(engine) -> tuple[set[tuple], set[int], int]:
    with engine.connect() as conn:
        obs = {
            tuple(r)
            for r in conn.execute(
                text("SELECT id, subject_id, attribute, value_key, first_seen FROM observation")
            )
        }
        events = {r[0] for r in conn.execute(text("SELECT id FROM event"))}
        subscriber = conn.execute(
            text("SELECT count(*) FROM event WHERE audience = 'subscriber'")
        ).scalar_one()
    return obs, events, subscriber


def _client(answer: tuple[int, dict[str, str], bytes, bytes]) -> object:
    status, head, json_body, html_body = answer

    def handler(request: httpx.Request) -> httpx.Response:
        html = request.url.host == "vendor.example"
        h = dict(head)
        if status == 301:
            h["location"] = "https://elsewhere.example/x"
        return httpx.Response(status, headers=h, content=html_body if html else json_body)

    return make_client(transport=httpx.MockTransport(handler))


@SETTINGS
@given(answer=answers)
def test_hostile_bodies_through_every_adapter(baseline, tmp_path, answer):
    before_obs, before_events, before_subscriber = _stored(baseline)
    summary = run_check(
        baseline,
        _client(answer),
        snapshot_store=SnapshotStore(tmp_path / "snaps"),
        watch_names=list(WATCHES),
        now=NOW,
        sleep=lambda _s: None,
    )
    assert summary.checked == len(WATCHES)
    assert {r.outcome for r in summary.results} <= {"changed", "unchanged", "failed"}
    for r in summary.results:
        if r.error:
            assert "\n" not in r.error
    after_obs, after_events, after_subscriber = _stored(baseline)
    assert before_obs <= after_obs  # nothing stored is lost or rewritten
    assert before_events <= after_events
    assert after_subscriber == before_subscriber  # no subscriber event


har_entries = st.lists(
    st.one_of(
        json_values,
        st.fixed_dictionaries(
            {
                "startedDateTime": st.one_of(
                    hostile_text,
                    st.sampled_from(["2026-11-28T06:00:00Z", "9999-12-31T23:59:59-01:00"]),
                ),
                "request": st.fixed_dictionaries(
                    {
                        "method": st.sampled_from(["GET", 1, None]),
                        "url": st.one_of(
                            hostile_text,
                            st.just("https://huggingface.co/api/models/fuzzorg/nothing"),
                        ),
                    }
                ),
                "response": st.fixed_dictionaries(
                    {
                        "status": st.one_of(
                            st.sampled_from([200, 404, 429]), numbers, hostile_text
                        ),
                        "headers": st.one_of(
                            json_values,
                            st.lists(
                                st.fixed_dictionaries({"name": hostile_text, "value": json_values}),
                                max_size=2,
                            ),
                        ),
                        "content": st.one_of(
                            json_values,
                            st.fixed_dictionaries(
                                {"text": hostile_text, "encoding": st.sampled_from(["base64", "x"])}
                            ),
                        ),
                    }
                ),
            }
        ),
    ),
    max_size=4,
)


@SETTINGS
@given(entries=har_entries)
def test_hostile_har_files_are_config_errors_or_replay_safely(baseline, tmp_path, entries):
    path = tmp_path / "fuzz.har"
    path.write_text(json.dumps({"log": {"entries": entries}}, ensure_ascii=True, allow_nan=True))
    before_obs, before_events, before_subscriber = _stored(baseline)
    try:
        transport = HarReplayTransport(path)
    except ConfigError as exc:
        assert str(exc).startswith(str(path))
        return
    summary = run_check(
        baseline,
        make_client(transport=transport),
        snapshot_store=SnapshotStore(tmp_path / "snaps"),
        watch_names=list(WATCHES),
        now=NOW,
        sleep=lambda _s: None,
    )
    assert summary.checked == len(WATCHES)
    after_obs, after_events, after_subscriber = _stored(baseline)
    assert before_obs <= after_obs and before_events <= after_events
    assert after_subscriber == before_subscriber


param_values = st.one_of(hostile_text, numbers, st.booleans(), st.lists(hostile_text, max_size=2))
watch_params = st.dictionaries(
    st.sampled_from(
        [
            "selector",
            "regex",
            "scale",
            "columns",
            "decimal",
            "expect_min",
            "name_cell",
            "cron",
            "timezone",
            "failing_after",
            "allow_hosts",
            "allow_private",
            "auth",
            "robots",
        ]
    ),  # fmt: skip
    st.one_of(param_values, st.dictionaries(hostile_text, param_values, max_size=2)),
    max_size=5,
)


def _toml_str(value: object) -> str:
    return json.dumps(value, ensure_ascii=True)  # a TOML basic string is JSON's subset here


@SETTINGS
@given(params=watch_params, interval=numbers, name=hostile_text)
def test_hostile_watch_files_raise_only_data_file_error(params, interval, name):
    """Whatever a watches.toml says, loading it raises DataFileError naming the file, or
    gives watches whose html_page params all compile."""
    body = "\n".join(f"{k} = {_toml_str(v)}" for k, v in params.items() if not isinstance(v, dict))
    extra = f"interval_minutes = {interval}\n" if isinstance(interval, int) else ""
    doc = (
        f'[[watch]]\nname = {_toml_str(name)}\nadapter = "html_page"\n'
        f'url = "https://a.example/"\n{extra}[watch.params]\n{body}\n'
    )
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "watches.toml").write_text(doc, encoding="utf-8", errors="surrogatepass")
        try:
            data = load_data(
                root,
                known_adapters={"html_page"},
                known_params=known_params(),
                param_checks=param_checks(),
            )
        except DataFileError as exc:
            assert str(exc).startswith(str(root))
            return
    for watch in data.watches:
        assert param_checks()["html_page"](watch.params) == []
