"""html_page adapter: cases/C12 (nothing extracted is not a change), C11 numbers, C19 text."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import httpx
import pytest
from cycle_setup import add_watch
from sqlmodel import Session, select

from claims.store.tables import Event, Observation, Subject, SubjectAlias, Watch
from tracker.adapters import Fetched, get_adapter
from tracker.adapters.html_page import read_number
from tracker.cycle.run import run_check
from tracker.errors import LayoutChanged
from tracker.net.fetch import make_client
from tracker.snapshots.store import SnapshotStore

AT = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)
PRICING = """<html><body><table class="pricing">
  <tr><th>Modelo</th><th>Entrada</th><th>Saída</th></tr>
  <tr><td>Orca 9B</td><td>US$ 0,45</td><td>US$ 1,80</td></tr>
  <tr><td>Orca 70B</td><td>US$ 2,00</td><td>US$ 8,00</td></tr>
</table></body></html>"""
CONSENT = """<html><body><div id="consent"><p>Aceite os cookies para continuar.</p>
<button>Aceitar</button></div></body></html>"""
SKELETON_ROW = "<tr>" + '<td><div class="skeleton pulse"></div></td>' * 3 + "</tr>"
LEADERBOARD = (
    "<html><body><table><thead><tr><th>#</th><th>Model</th><th>Score</th></tr></thead><tbody>"
    + SKELETON_ROW * 3
    + "</tbody></table></body></html>"
)
PRICE_PARAMS = {
    "selector": "table.pricing tr",
    "expect_min": 2,
    "columns": {"1": "price_input_usd_per_mtok", "2": "price_output_usd_per_mtok"},
    "decimal": ",",
}
BOARD_PARAMS = {
    "selector": "table tbody tr",
    "name_cell": 1,
    "columns": {"2": "benchmark_score"},
    "unit": "points",
    "qualifiers": {"leaderboard": "acme-arena"},
}


def parse(html: str, params):
    f = Fetched.from_body("https://acme.example/precos", html.encode(), AT)
    return get_adapter("html_page").parse(f, params)


def test_c12_pricing_table():
    got = [(v.subject_ref, v.attribute, v.value.value) for v in parse(PRICING, PRICE_PARAMS).values]
    assert got == [
        (("name", "Orca 9B"), "price_input_usd_per_mtok", Decimal("0.45")),
        (("name", "Orca 9B"), "price_output_usd_per_mtok", Decimal("1.8")),
        (("name", "Orca 70B"), "price_input_usd_per_mtok", Decimal(2)),
        (("name", "Orca 70B"), "price_output_usd_per_mtok", Decimal(8)),
    ]


@pytest.mark.parametrize(
    ("html", "params", "message"),
    [
        (CONSENT, PRICE_PARAMS, r"matched 0 \(expected >= 2\): consent wall"),
        (LEADERBOARD, BOARD_PARAMS, "placeholder or empty cells"),
        (
            "<html><title>Just a moment...</title><table class='pricing'></table></html>",
            PRICE_PARAMS,
            "a bot challenge page",
        ),
        ("<html><body><p>Redesigned!</p></body></html>", PRICE_PARAMS, "selector not found"),
    ],
)
def test_c12_pages_that_are_not_the_content_fail(html, params, message):
    with pytest.raises(LayoutChanged, match=message):
        parse(html, params)


@pytest.mark.parametrize(
    ("text", "decimal", "expected"),
    [
        ("US$ 2,00 por milhão", ",", Decimal("2.00")),
        ("1.000.000 de tokens", ",", Decimal(1000000)),
        ("US$ 1.250,50 por mês", ",", Decimal("1250.50")),
        ("1\u00a0000\u00a0000 de tokens", ",", Decimal(1000000)),
        ("1\u202f000\u202f000 de tokens", ",", Decimal(1000000)),
        ("1 000 000 de tokens", ",", Decimal(1000000)),
        ("0,80 € por milhão", ",", Decimal("0.80")),
        ("1\u00a0048\u00a0576 tokens", ".", Decimal(1048576)),
        ("$3.30 / 1M", ".", Decimal("3.30")),
    ],
)
def test_read_number_c11(text, decimal, expected):
    assert read_number(text, decimal) == expected


def test_read_number_refuses_to_guess():
    with pytest.raises(LayoutChanged, match="ambiguous"):
        read_number("US$ 8.00 por milhão", ",")  # never 800


def test_per_thousand_scale_and_single_mode_decoded_text():
    params = {
        "selector": "p.preco",
        "subject": "Orca Mini",
        "attribute": "price_input_usd_per_mtok",
        "regex": r"US\$ ([\d.,]+) por mil tokens de entrada",
        "decimal": ",",
        "scale": "1000",
    }
    html = '<p class="preco">US$ 0,0032 por mil tokens de entrada e US$ 0,0097 por mil</p>'
    [v] = parse(html, params).values
    assert (v.subject_ref, v.value.value) == (("name", "Orca Mini"), Decimal("3.2"))
    row = (
        "<table><tr><td>Orca-9B &lt;Instruct&gt; &amp; &quot;Chat&quot;</td>"
        "<td>55,0</td></tr></table>"
    )
    params = {"selector": "tr", "columns": {"1": "benchmark_score"}, "decimal": ","}
    [v] = parse(row, params).values
    assert v.subject_ref == ("name", 'Orca-9B <Instruct> & "Chat"')  # decoded once (C19)


def _orca(engine):
    with Session(engine) as s:
        for name in ("Orca 9B", "Orca 70B"):
            subj = Subject(slug=name.lower().replace(" ", "-"), name=name, organization="Acme")
            s.add(subj)
            s.flush()
            s.add(SubjectAlias(subject_id=subj.id, namespace="name", alias=name))
        s.commit()


def test_c12_three_fetches_give_zero_price_alerts(engine, tmp_path):
    _orca(engine)
    add_watch(engine, "acme-precos", "html_page", "https://acme.example/precos", **PRICE_PARAMS)
    pages = iter([PRICING, CONSENT, PRICING])
    client = make_client(
        transport=httpx.MockTransport(lambda r: httpx.Response(200, text=next(pages)))
    )
    store = SnapshotStore(tmp_path)
    outcomes = []
    for day in range(3):
        s = run_check(engine, client, snapshot_store=store, now=AT + dt.timedelta(days=day))
        outcomes.append((s.results[0].outcome, s.results[0].error_kind, s.events))
    assert outcomes == [
        ("changed", None, 0),
        ("failed", "layout_changed", 0),
        ("unchanged", None, 0),
    ]
    with Session(engine) as s:
        assert s.exec(select(Event)).all() == []
        obs = s.exec(select(Observation)).all()
        assert len(obs) == 4 and all(o.current for o in obs)
        assert {o.last_seen for o in obs} == {AT + dt.timedelta(days=2)}


def test_c12_three_consecutive_extraction_failures_give_one_operator_event(engine, tmp_path):
    _orca(engine)
    add_watch(engine, "acme-precos", "html_page", "https://acme.example/precos", **PRICE_PARAMS)
    client = make_client(transport=httpx.MockTransport(lambda r: httpx.Response(200, text=CONSENT)))
    store = SnapshotStore(tmp_path)
    for day in range(5):
        run_check(engine, client, snapshot_store=store, now=AT + dt.timedelta(days=day))
    with Session(engine) as s:
        events = s.exec(select(Event)).all()
        assert [(e.kind, e.audience) for e in events] == [("extraction_failed", "operator")]
        assert s.exec(select(Observation)).all() == []
        w = s.exec(select(Watch)).one()
        assert (w.state, w.consecutive_failures, w.last_error_kind) == (
            "failing",
            5,
            "layout_changed",
        )


def test_c12_skeleton_after_redirect_keeps_previous_scores_and_logs_the_target(engine, tmp_path):
    with Session(engine) as s:
        for name in ("Orca 70B", "Orca 9B", "Rival 12B"):
            s.add(Subject(slug=name.lower().replace(" ", "-"), name=name))
        s.commit()
    add_watch(engine, "acme-board", "html_page", "https://board.example/old", **BOARD_PARAMS)
    rows = "".join(
        f"<tr><td>{i}</td><td>{n}</td><td>{v}</td></tr>"
        for i, (n, v) in enumerate(
            [("Orca 70B", "71.4"), ("Orca 9B", "55.0"), ("Rival 12B", "49.2")]
        )
    )
    good = f"<table><tbody>{rows}</tbody></table>"
    served = iter([good, LEADERBOARD])

    def handler(request):
        if request.url.path == "/old":
            return httpx.Response(308, headers={"Location": "https://board.example/new"})
        return httpx.Response(200, text=next(served))

    client = make_client(transport=httpx.MockTransport(handler))
    store = SnapshotStore(tmp_path)
    run_check(engine, client, snapshot_store=store, now=AT)
    summary = run_check(engine, client, snapshot_store=store, now=AT + dt.timedelta(hours=1))
    r = summary.results[0]
    assert (r.outcome, r.error_kind) == ("failed", "layout_changed")
    assert r.redirects == ["https://board.example/old -> https://board.example/new"]
    with Session(engine) as s:
        obs = s.exec(select(Observation).where(Observation.current)).all()
        assert sorted(str(o.value.value) for o in obs) == ["49.2", "55", "71.4"]
        assert s.exec(select(Event)).all() == []
