"""How the subject page's "Observed" values read (a fresh-user trial): no "≈" before an
exact count, booleans as words, the tracker's technical readings apart from the figures a
lab states, and the From column naming the site a value was read on."""

from __future__ import annotations

import html
import json
import re
from decimal import Decimal

import pytest
from sitefixture import NOW, SHA_HF, populate, t
from sqlmodel import Session, select

from claims.store.tables import Observation, Watch
from claims.values.canonical import dumps
from claims.values.value import Value, quantity, text_value
from tracker.website import build_site
from tracker.website.render import url_site

REPO = {"repo": "moonshotai/Kimi-K2-Thinking"}
LICENCE_HASH = "5a5323f745fa09cf5bba73fb84b0962567e8c9cb35c2f65e9599f73f79c977a5"


def _text(markup: str) -> str:
    """Tags dropped, entities decoded, whitespace squeezed: what a reader sees."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", markup)).strip())


def _rows(section: str) -> list[str]:
    return [_text(r) for r in re.findall(r"<tr(?: id=\"obs-\d+\")?>\n(.*?)</tr>", section, re.S)]


@pytest.fixture
def page(engine, tmp_path) -> str:  # type: ignore[no-untyped-def]
    """Kimi K2 Thinking's page with the Hub's readings of a packed INT4 repo added."""
    ids = populate(engine)
    with Session(engine) as s:
        hf = s.exec(select(Watch).where(Watch.name == "hf-moonshotai")).one()
        for attr, value in (
            ("hub_params_raw", quantity("170738182128", "params", exact=True)),
            ("total_params", quantity("1026880447728", "params", exact=True)),
            ("gated", text_value("false")),
            ("license_text_sha256", text_value(LICENCE_HASH)),
        ):
            s.add(
                Observation(
                    subject_id=ids["k2"],
                    watch_id=hf.id,
                    attribute=attr,
                    qualifiers_json=dumps(REPO),
                    value_json=dumps(value.to_dict()),
                    value_key=value.key(),
                    source_url="https://huggingface.co/api/models/moonshotai/Kimi-K2-Thinking",
                    first_seen=t(21),
                    last_seen=t(21),
                )
            )
        s.commit()
    out = tmp_path / "site"
    build_site(engine, out, now=NOW, base_url="https://dash.example.org/")
    return (out / "subjects" / "kimi-k2-thinking" / "index.html").read_text()


def _observed(html: str) -> str:
    start = html.index('<h2 id="observed">')
    return html[start : html.index('<details class="technical">', start)]


def _technical(html: str) -> str:
    start = html.index('<details class="technical">')
    return html[start : html.index("</details>", start)]


def test_exact_count_reads_without_approx_sign_and_gated_reads_as_a_word(page):
    rows = {r.split(" 2026-")[0]: r for r in _rows(_observed(page))}
    assert (
        "Total parameters repo: moonshotai/Kimi-K2-Thinking 1.03T (1,026,880,447,728) params"
        in rows
    )
    assert "Gated access repo: moonshotai/Kimi-K2-Thinking no" in rows
    assert "≈" not in _observed(page)


def test_technical_readings_sit_apart_without_the_unclaimed_badge(page):
    observed, technical = _observed(page), _technical(page)
    assert "Hub parameter count" not in observed and "Licence text hash" not in observed
    # Licence, weights, total parameters (no claim in the fixture) and gated: 4 badges.
    assert observed.count('<strong class="unclaimed">no claim states this</strong>') == 4
    assert "no claim states this" not in technical
    assert _rows(technical) == [
        "Hub parameter count (raw, packed): the Hub's stored-parameter count, before "
        "unpacking quantized weights (the total parameters are derived from it) "
        "repo: moonshotai/Kimi-K2-Thinking 170.74B (170,738,182,128) params "
        "2026-11-21 12:00 UTC huggingface.co, watch hf-moonshotai",
        "Licence text hash: a fingerprint of the licence file's text: a new one means "
        "the text changed repo: moonshotai/Kimi-K2-Thinking 5a5323f745fa "
        "2026-11-21 12:00 UTC huggingface.co, watch hf-moonshotai",
    ]
    assert f'<code title="{LICENCE_HASH}">5a5323f745fa</code>' in technical
    assert "<summary>Technical readings (2): inputs the tracker uses" in technical


def test_export_keeps_technical_readings_whole(page, tmp_path):
    k2 = json.loads((tmp_path / "site" / "api" / "subjects" / "kimi-k2-thinking.json").read_text())
    shown = {o["attribute"]: o["display"] for o in k2["observations"]}
    assert shown["license_text_sha256"] == LICENCE_HASH
    assert shown["hub_params_raw"] == "170.74B (170,738,182,128) params"
    assert shown["gated"] == "no"
    assert SHA_HF in {o["sha256"] for o in k2["observations"]}


def test_stated_figure_keeps_approx_sign_exact_one_drops_it():
    stated = quantity("1.0268", "params", scale=10**12)  # "1.0268T": a stated precision
    assert stated.display() == "≈1.03T (1,026,800,000,000) params"
    exact = quantity("1026880447728", "params", exact=True)
    assert exact.display() == "1.03T (1,026,880,447,728) params"
    gap = Value(kind="quantity", value=Decimal(829261817872), unit="params")
    assert gap.display() == "829.26B (829,261,817,872) params"


@pytest.mark.parametrize(
    ("url", "site"),
    [
        ("https://openrouter.ai/api/v1/models", "openrouter.ai"),
        ("https://www.example.com/prices", "example.com"),
        (
            "https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices.json",
            "github.com/BerriAI/litellm",
        ),
        ("javascript:alert(1)", ""),
        (None, ""),
    ],
)
def test_url_site_names_where_a_value_was_read(url, site):
    assert url_site(url) == site
