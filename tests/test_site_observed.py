"""The subject page's "Observed" table and the export's ``observations``: what the
watches read, also where no claim states it; the different-subject note names both."""

from __future__ import annotations

import json
import re

import pytest
from sitefixture import NOW, SHA_HF, populate, t
from sqlmodel import Session, select

from claims.store.tables import Claim, Observation, Verdict, Watch
from claims.values.canonical import dumps
from claims.values.value import boolean_value, quantity
from tracker.website import build_site
from tracker.website.views import ObservationView, ObservedFrom, observed_rows


def _text(html: str) -> str:
    """Tags dropped, whitespace squeezed: what a reader sees."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


def _section(html: str, anchor: str) -> str:
    start = html.index(f'<h2 id="{anchor}">')
    return html[start : html.index("<h2 ", start + 1)]


def _rows(section: str) -> list[str]:
    return [_text(r) for r in re.findall(r"<tr(?: id=\"obs-\d+\")?>\n(.*?)</tr>", section, re.S)]


@pytest.fixture
def built(engine, tmp_path):
    ids = populate(engine)
    out = tmp_path / "site"
    build_site(engine, out, now=NOW, base_url="https://dash.example.org/")
    return engine, out, ids


def test_unclaimed_hub_observations_show_on_the_subject_page(built):
    _, out, _ = built
    html = (out / "subjects" / "kimi-k2-thinking" / "index.html").read_text()
    observed = _section(html, "observed")
    short = SHA_HF[:12]
    # Kimi K2 Thinking's only claim is a price: the Hub's licence and weights are
    # observed and no claim states them.
    assert _rows(observed) == [
        "Licence repo: moonshotai/Kimi-K2-Thinking modified-mit 2026-11-06 09:30 UTC "
        f"to 2026-11-20 12:00 UTC huggingface.co, watch hf-moonshotai snapshot {short} "
        "no claim states this",
        "Weights available repo: moonshotai/Kimi-K2-Thinking yes 2026-11-06 09:30 UTC "
        f"to 2026-11-20 12:00 UTC huggingface.co, watch hf-moonshotai snapshot {short} "
        "no claim states this",
    ]
    assert (
        '<a href="https://huggingface.co/api/models?author=moonshotai" rel="nofollow noopener">'
        "huggingface.co</a>" in observed
    )
    # The snapshot is for operators: small, and its title says what it is and how to see it.
    assert (
        '<small class="snapshot" title="the stored copy of the page this was read from; '
        f'“tracker snapshot {short}” prints it">snapshot <code>{short}</code></small>'
    ) in observed
    assert observed.count('<strong class="unclaimed">no claim states this</strong>') == 2


def test_claimed_observation_links_its_claims_and_past_values_stay_out(built):
    _, out, _ = built
    html = (out / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    observed = _section(html, "observed")
    rows = _rows(observed)
    assert len(rows) == 1  # the superseded $0.60 (current false) is not listed
    assert rows[0].startswith("Input price — $0.45 per 1M tokens 2026-11-10 12:00 UTC")
    # No qualifier names the provider: the From column says whose price list it is.
    assert "UTC openrouter.ai, watch openrouter snapshot cccccccccccc" in rows[0]
    assert '<a href="#attr-price_input_usd_per_mtok">stated by a claim</a>' in observed
    assert "no claim states this" not in observed


def test_subject_without_observations_says_so(built):
    _, out, _ = built
    html = (out / "subjects" / "orca-9b" / "index.html").read_text()
    assert _text(_section(html, "observed")) == (
        "Observed Nothing observed now: no watch currently reports a value for this subject."
    )


def test_weights_promise_states_availability_but_not_a_variant_price(built):
    engine, out, ids = built
    with Session(engine) as s:
        hf = s.exec(select(Watch).where(Watch.name == "hf-moonshotai")).one()
        common = {"subject_id": ids["k31"], "watch_id": hf.id, "first_seen": t(25)}
        on = boolean_value(True)
        s.add(
            Observation(
                attribute="weights_available",
                qualifiers_json=dumps({"repo": "moonshotai/Kimi-K3.1-Pro"}),
                value_json=dumps(on.to_dict()),
                value_key=on.key(),
                source_url="https://huggingface.co/moonshotai/Kimi-K3.1-Pro",
                last_seen=t(26),
                **common,
            )
        )
        fast = quantity("0.90", "usd_per_mtok", exact=True)
        s.add(
            Observation(
                attribute="price_input_usd_per_mtok",
                qualifiers_json=dumps({"variant": "Highspeed"}),
                value_json=dumps(fast.to_dict()),
                value_key=fast.key(),
                last_seen=t(25),
                **common,
            )
        )
        s.commit()
    build_site(engine, out, now=NOW, base_url="https://dash.example.org/")
    html = (out / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    # "Attribute qualifiers value" -> the whole row
    rows = {r.split(" 2026-")[0]: r for r in _rows(_section(html, "observed"))}
    assert rows["Input price variant: Highspeed $0.90 per 1M tokens"].endswith(
        "no claim states this"
    )
    assert rows["Weights available repo: moonshotai/Kimi-K3.1-Pro yes"].endswith("checks a claim")
    assert '<a href="#attr-weights_release_date">checks a claim</a>' in html


def test_subject_export_lists_current_observations(built):
    _, out, _ = built
    k2 = json.loads((out / "api" / "subjects" / "kimi-k2-thinking.json").read_text())
    lic = next(o for o in k2["observations"] if o["attribute"] == "license")
    assert lic == {
        "id": lic["id"],
        "attribute": "license",
        "qualifiers": {"repo": "moonshotai/Kimi-K2-Thinking"},
        "value": {
            "kind": "text",
            "value": "modified-mit",
            "unit": None,
            "low": None,
            "high": None,
            "approx": False,
            "relation": None,
        },
        "display": "modified-mit",
        "first_seen": "2026-11-06T09:30:00Z",
        "last_seen": "2026-11-20T12:00:00Z",
        "watch": "hf-moonshotai",
        "source_url": "https://huggingface.co/api/models?author=moonshotai",
        "sha256": SHA_HF,
        "claimed": False,
    }
    assert [o["attribute"] for o in k2["observations"]] == ["license", "weights_available"]
    k31 = json.loads((out / "api" / "subjects" / "kimi-k3.1-pro.json").read_text())
    assert [(o["display"], o["claimed"]) for o in k31["observations"]] == [
        ("$0.45 per 1M tokens", True)
    ]
    orca = json.loads((out / "api" / "subjects" / "orca-9b.json").read_text())
    assert orca["observations"] == []


def test_different_subject_note_names_both_subjects(built):
    engine, out, _ = built
    html = (out / "discrepancies.html").read_text()
    note = html[html.index('<li id="d4">') :].split("</li>")[0]
    heading = note[: note.index("</strong>")]
    assert re.findall(r'<a href="subjects/([^/]+)/index.html">([^<]+)</a>', heading) == [
        ("kimi-k2-thinking", "Kimi K2 Thinking"),
        ("kimi-k3.1-pro", "Kimi K3.1 Pro"),
    ]
    k2 = (out / "subjects" / "kimi-k2-thinking" / "index.html").read_text()
    assert (
        "figures for this subject and for "
        '<a href="../../subjects/kimi-k3.1-pro/index.html">Kimi K3.1 Pro</a>, never compared'
    ) in k2
    # One side's claim removed from its data file: still both subjects named, and the
    # note no longer says "both in" of the one claim left.
    with Session(engine) as s:
        gone = s.exec(select(Claim).where(Claim.raw_text == "US$ 0,60")).one()
        gone_id = gone.id
        assert s.exec(select(Verdict).where(Verdict.claim_id == gone_id)).first() is None
        s.delete(gone)
        s.commit()
    build_site(engine, out, now=NOW, base_url="https://dash.example.org/")
    html = (out / "discrepancies.html").read_text()
    note = _text(html[html.index('<li id="d4">') :].split("</li>")[0])
    assert note == (
        "Kimi K2 Thinking and Kimi K3.1 Pro — Input price: $0.45 per 1M tokens for "
        f"Kimi K3.1 Pro (Moonshot AI), in Artigo A (Jornal A); claim #{gone_id} no longer "
        "stored (corrected or removed in its data file)."
    )


def test_note_whose_other_side_is_gone_keeps_its_stored_reason(built):
    """With the other subject's claim gone, only the stored reason still names it."""
    engine, out, _ = built
    with Session(engine) as s:
        gone = s.exec(select(Claim).where(Claim.raw_text == "US$ 0,45")).one()
        gone_id = gone.id
        verdict = s.exec(select(Verdict).where(Verdict.claim_id == gone_id)).one()
        s.delete(verdict)
        s.flush()
        s.delete(gone)
        s.commit()
    build_site(engine, out, now=NOW, base_url="https://dash.example.org/")
    html = (out / "discrepancies.html").read_text()
    note = _text(html[html.index('<li id="d4">') :].split("</li>")[0])
    assert note == (
        "Kimi K2 Thinking — Input price: $0.60 per 1M tokens for Kimi K2 Thinking "
        f"(Moonshot AI), in Artigo A (Jornal A); claim #{gone_id} no longer stored "
        "(corrected or removed in its data file). Recorded reason: not a conflict: "
        "different subjects (kimi-k2-thinking vs kimi-k3.1-pro)."
    )


def test_two_watches_reading_one_value_make_one_row():
    """The Hub org listing and the repo's own API both report the weights: one row,
    seen from the earlier first to the later last time, with both sources."""

    def view(oid, watch, first, last):  # type: ignore[no-untyped-def]
        return ObservationView(
            oid, "weights_available", "repo: a/b", {"repo": "a/b"}, "yes", {}, first, last,
            watch, f"https://hub.example/{watch}", f"{oid}" * 64, "weights_release_date",
        )  # fmt: skip

    rows = observed_rows([view(1, "hf-model", t(3), t(20)), view(2, "hf-org", t(1), t(18))])
    assert [(r.value, r.first_seen, r.last_seen, r.claimed_by) for r in rows] == [
        ("yes", t(1), t(20), "weights_release_date")
    ]
    assert rows[0].sources == [
        ObservedFrom("hf-model", "https://hub.example/hf-model", "1" * 64),
        ObservedFrom("hf-org", "https://hub.example/hf-org", "2" * 64),
    ]
