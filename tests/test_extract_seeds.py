"""The three Portuguese seed articles (../shared/seeds): every figure stated about Kimi K3.1
Pro or Kimi K3 comes out right, and nothing of another model goes to K3.1 Pro.

Expected sets were built by reading each article; figures whose subject the text does not
settle (a generic dense model's ~100B, another lab's 2.4T flagship, a rival's 69 %) must
stay unattributed. Skips when ../shared is absent.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from pathlib import Path

from claims.extract.extractor import extract
from claims.subjects.references import subjects_from_config
from claims.values.value import date_value, quantity, value_range

PRO, K3 = "kimi-k3.1-pro", "kimi-k3"
T, B, M = 10**12, 10**9, 10**6
AA = "Artificial Analysis Intelligence Index"


def _run(shared_dir: Path, name: str):
    subjects = subjects_from_config(
        tomllib.loads((Path(__file__).parent / "data" / "subjects.toml").read_text())
    )
    (path,) = (shared_dir / "seeds").glob(f"{name}_*.txt")
    return extract(
        path.read_text(), subjects, lang="pt", published=dt.date(2026, 10, 27), default_subject=PRO
    )


def _attributed(cands):
    return {
        (c.subject, c.attribute, tuple(sorted(c.qualifiers.items())), c.value)
        for c in cands
        if c.subject
    }


def test_seed_000(shared_dir):
    got = _run(shared_dir, "000")
    assert _attributed(got) == {
        (PRO, "total_params", (), quantity("2.8", "params", scale=T)),
        (PRO, "active_params", (), quantity("104", "params", scale=B)),
        (PRO, "context_window", (), quantity("1", "tokens", scale=M)),
        (PRO, "benchmark_score", (("benchmark", AA),), quantity("55", "points")),
        (PRO, "leaderboard_rank", (("leaderboard", AA),), quantity("4", "rank")),
        (
            PRO,
            "benchmark_score",
            (("benchmark", "Terminal-Bench"), ("version", "4.0")),
            quantity("65.7", "percent"),
        ),
        (PRO, "price_output_usd_per_mtok", (), quantity("10", "usd_per_mtok")),
        (PRO, "price_change_pct", (), quantity("-33", "percent")),  # the title's figure
        (PRO, "price_change_pct", (), quantity("-33", "percent", approx=True)),  # body: "about"
        (PRO, "weights_release_date", (), date_value("2026-11-04", "before")),
        (PRO, "weights_release_date", (), date_value("2026-11-04", "on")),
        (PRO, "release_date", (), date_value("2026-10-23", "on")),
        (K3, "hardware_units", (("hardware", "WSE-3T"),), quantity("59", "wafers")),
        (K3, "weights_precision_bits", (), quantity("4", "bits")),
        (
            K3,
            "output_tokens_per_second",
            (),
            value_range(1000, 2000, "tokens_per_second", open_high=True),
        ),
        (K3, "output_tokens_per_second", (), quantity("2000", "tokens_per_second")),  # title
        (K3, "total_params", (), quantity("3", "params", scale=T)),
        (K3, "total_params", (), quantity("3", "params", scale=T, approx=True)),
    }
    by_text = {}
    for c in got:
        by_text.setdefault(c.text, []).append(c)
    assert {c.claimant for c in by_text["65,7%"]} == {"Moonshot AI"}
    assert {c.claimant for c in got if c.subject == K3} == {"Cerebras"}
    # The two ~100B / 100B figures describe a generic dense model: nobody's.
    assert {c.subject for c in by_text["~100B"] + by_text["100B"]} == {None}


def test_seed_003(shared_dir):
    got = _run(shared_dir, "003")
    assert _attributed(got) == {
        (PRO, "total_params", (), quantity("2.8", "params", scale=T)),
        (PRO, "active_params", (), quantity("104", "params", scale=B)),
        (PRO, "context_window", (), quantity("1", "tokens", scale=M)),
        (
            PRO,
            "benchmark_score",
            (("benchmark", "Terminal-Bench"), ("version", "3.0")),
            quantity("65.7", "percent"),
        ),
        (PRO, "price_input_usd_per_mtok", (), quantity("2.00", "usd_per_mtok")),
        (PRO, "price_output_usd_per_mtok", (), quantity("10.00", "usd_per_mtok")),
        (PRO, "weights_release_date", (), date_value("2026-11-04", "on")),
    }
    (rival,) = [c for c in got if c.text == "2.4T"]  # another lab's flagship
    assert (rival.subject, rival.attribute) == (None, "total_params")
    assert rival.warnings == ["'2.4': nonstandard decimal separator for pt-BR"]
    # "the company" confirming the weights date is the subject's vendor.
    assert {
        c.claimant
        for c in got
        if c.text.startswith("4 de novembro de 2026") and c.how == "restated"
    } == {"Moonshot AI"}


def test_seed_004(shared_dir):
    got = _run(shared_dir, "004")
    assert _attributed(got) == {
        (PRO, "total_params", (), quantity("2.8", "params", scale=T)),
        (PRO, "active_params", (), quantity("104", "params", scale=B)),
        (PRO, "context_window", (), quantity("1", "tokens", scale=M)),
        (PRO, "weights_release_date", (), date_value("2026-11-04", "on")),
        (PRO, "weights_release_date", (), date_value("2026-11", "on", precision="month")),
        (PRO, "leaderboard_rank", (("leaderboard", AA),), quantity("4", "rank")),
        (PRO, "benchmark_score", (("benchmark", AA),), quantity("55", "points")),
        (PRO, "leaderboard_rank", (("leaderboard", "Code Arena WebDev"),), quantity("8", "rank")),
        (PRO, "benchmark_score", (("benchmark", "Code Arena WebDev"),), quantity("1692", "points")),
        (PRO, "benchmark_score", (("benchmark", "Cyber Index"),), quantity("64", "percent")),
        (PRO, "speedup_factor", (("variant", "Highspeed"),), value_range(2, 3, "times")),
        (PRO, "price_factor", (("variant", "Highspeed"),), quantity("2", "times", approx=True)),
        (PRO, "price_factor", (("variant", "Highspeed"),), quantity("2", "times")),  # "o dobro"
    }
    unattributed = {(c.text, c.attribute) for c in got if c.subject is None}
    assert unattributed == {("3T", "total_params"), ("69 por cento", "benchmark_score")}
    assert {c.claimant for c in got if c.text == "em quarto"} == {"Artificial Analysis"}
    # "A Highspeed promete ...": a variant promises figures, it does not state them
    variant_figures = [c for c in got if c.attribute in ("speedup_factor", "price_factor")]
    assert variant_figures and {c.claimant for c in variant_figures} == {None}
