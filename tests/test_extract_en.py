"""English announcement paragraphs: weights dates, and who states each figure (the
announcing organization, "According to X," and "Y claims") with its full name; the pt
forms of the same rules ("os pesos ... serão liberados", "Segundo a X," opening a sentence)."""

from __future__ import annotations

import datetime as dt

from claims.extract.extractor import extract
from claims.subjects.references import SubjectRef
from claims.values.value import date_value

DAY = dt.date(2026, 11, 30)
ORION = SubjectRef("orion-5-max", ("Orion-5 Max",), (), "Vega Systems")
K3 = SubjectRef("kimi-k3", ("Kimi K3", "K3"), (), "Moonshot AI")

# Made-up lab and model; the same shape as a fresh user's announcement paragraph.
ANNOUNCEMENT = (
    "Vega Systems today announced Orion-5 Max, with 2.4 trillion total parameters and 64B "
    "active, a 256K context window, priced at $2.50 per million input tokens and $9.00 per "
    "million output tokens. The open weights will be released on March 3, 2027 under the "
    "MIT license. According to Artificial Analysis, Orion-5 Max scored 68.4% on GPQA "
    "Diamond, and Cerebras claims about 2,000 tokens per second.\n"
)


def rows(text: str, refs=(ORION, K3), default: str | None = None):
    return [
        (c.subject, c.attribute, c.value.display(), c.claimant)
        for c in extract(text, list(refs), lang="en", published=DAY, default_subject=default)
    ]


def test_announcement_paragraph_attributes_and_claimants():
    assert rows(ANNOUNCEMENT) == [
        ("orion-5-max", "total_params", "2.4T params", "Vega Systems"),
        ("orion-5-max", "active_params", "64B params", "Vega Systems"),
        ("orion-5-max", "context_window", "256K tokens", "Vega Systems"),
        ("orion-5-max", "price_input_usd_per_mtok", "$2.50 per 1M tokens", "Vega Systems"),
        ("orion-5-max", "price_output_usd_per_mtok", "$9.00 per 1M tokens", "Vega Systems"),
        ("orion-5-max", "weights_release_date", "on 2027-03-03", "Vega Systems"),
        ("orion-5-max", "license", "mit", "Vega Systems"),
        ("orion-5-max", "benchmark_score", "68.4%", "Artificial Analysis"),
        ("orion-5-max", "output_tokens_per_second", "about 2,000 tokens/s", "Cerebras"),
    ]


def test_weights_released_on_a_date_is_the_weights_date():
    got = extract(
        "Kimi K3 weights will be released on Hugging Face on December 15, 2026.\n",
        [K3], lang="en", published=DAY,
    )  # fmt: skip
    assert [(c.subject, c.attribute, c.value) for c in got] == [
        ("kimi-k3", "weights_release_date", date_value("2026-12-15", relation="on"))
    ]


def test_release_dates_that_stay_release_dates():
    text = (
        "Kimi K3 open weights are due by December 2026.\n\n"
        "Kimi K3 was released on July 1, 2026 with open weights.\n\n"
        "Kimi K3, whose weights are public, was released on July 1, 2026.\n"
    )
    assert rows(text) == [
        ("kimi-k3", "weights_release_date", "by 2026-12", None),
        ("kimi-k3", "release_date", "on 2026-07-01", None),
        ("kimi-k3", "release_date", "on 2026-07-01", None),
    ]


def test_pt_weights_to_be_released_is_the_weights_date():
    got = extract(
        "Os pesos do Kimi K3 serão liberados em 15 de dezembro de 2026.\n",
        [K3], lang="pt-BR", published=DAY,
    )  # fmt: skip
    assert [(c.attribute, c.value) for c in got] == [
        ("weights_release_date", date_value("2026-12-15", relation="on"))
    ]


def test_according_to_opening_a_sentence_names_the_claimant():
    text = "According to Artificial Analysis, Kimi K3 scored 71.2% on GPQA Diamond.\n"
    assert rows(text) == [("kimi-k3", "benchmark_score", "71.2%", "Artificial Analysis")]


def test_a_claimant_in_a_later_clause_speaks_for_what_follows_it():
    text = (
        "Kimi K3 scored 71.2% on GPQA Diamond, and Cerebras claims about 2,000 tokens "
        "per second.\n\nKimi K3 runs at 1,800 tokens per second, Cerebras says.\n"
    )
    assert rows(text) == [
        ("kimi-k3", "benchmark_score", "71.2%", None),
        ("kimi-k3", "output_tokens_per_second", "about 2,000 tokens/s", "Cerebras"),
        ("kimi-k3", "output_tokens_per_second", "1,800 tokens/s", "Cerebras"),
    ]


def test_a_model_that_introduces_something_is_not_a_claimant():
    text = "Orion-5 Max introduced a 256K context window.\n"
    assert rows(text, refs=(K3,)) == [(None, "context_window", "256K tokens", None)]


def test_pt_segundo_opening_a_sentence_names_the_claimant():
    text = (
        "Segundo a Artificial Analysis, o Kimi K3 marcou 71,2% no GPQA Diamond.\n\n"
        "De acordo com a Artificial Analysis, o Kimi K3 marcou 70,1% no GPQA Diamond.\n"
    )
    got = extract(text, [K3], lang="pt-BR", published=DAY)
    assert [(c.subject, c.value.display(), c.claimant) for c in got] == [
        ("kimi-k3", "71.2%", "Artificial Analysis"),
        ("kimi-k3", "70.1%", "Artificial Analysis"),
    ]


def test_the_most_tokens_one_request_carries_is_the_context_window():
    text = (
        "Orion-5 Max offers one of the largest token limits around—up to 512,000 tokens "
        "per API request. Its rate limit is 90,000 tokens per minute."
    )
    assert [r[:3] for r in rows(text)] == [("orion-5-max", "context_window", "at most 512K tokens")]


def test_a_hyphenated_token_count_is_no_parameter_count():
    text = "Orion-5 Max has 90 billion parameters after a 30T-token pretraining phase."
    assert [r[:3] for r in rows(text)] == [("orion-5-max", "total_params", "90B params")]


def test_a_later_item_of_an_enumeration_refers_to_the_lists_topic():
    text = (
        "Orion-5 Max has three limitations. First, the Orion-4 model it builds on reads only "
        "English. Second, it is tuned on Python. Third, it has a context length of 48k tokens."
    )
    assert [r[:3] for r in rows(text)] == [("orion-5-max", "context_window", "48K tokens")]


def test_a_quantization_the_model_can_operate_under_is_no_weights_precision():
    text = "Orion-5 Max has 90 billion parameters and can operate under 4-bit/8-bit quantization."
    assert [r[:3] for r in rows(text)] == [("orion-5-max", "total_params", "90B params")]


def test_a_total_and_active_size_after_an_article_gives_both_counts():
    text = "Vega Systems released Orion-5 Max, a 40B-A4B MoE model. Zephyr-40B-A4B is older."
    assert [r[:3] for r in rows(text)] == [
        ("orion-5-max", "total_params", "40B params"),
        ("orion-5-max", "active_params", "4B params"),
    ]


def test_a_training_stages_length_is_no_context_window():
    text = (
        "Orion-5 Max has a 256K context window. Context window: 4096 tokens during "
        "pre-training, extended to 32K during mid-training."
    )
    assert [r[:3] for r in rows(text)] == [("orion-5-max", "context_window", "256K tokens")]


def test_a_hard_wrapped_article_reads_as_its_paragraphs():
    # A plain-text article saved at 80 columns: the output price ran over a line break,
    # and the promise's relation word sat on the line before its date.
    text = (
        "Vega Systems unveils Orion-5 Max, promises open weights by mid-December\n"
        "\n"
        "Vega Systems on Monday announced Orion-5 Max. The company said the weights will\n"
        "be published on Hugging Face under the Apache 2.0 licence before 2026-12-15.\n"
        "\n"
        "Through its API, Orion-5 Max costs $0.10 per million input tokens and $0.40 per\n"
        "million output tokens, the company said in a statement on its website today.\n"
    )
    got = [(a, v) for _, a, v, _ in rows(text)]
    assert ("weights_release_date", "by 2026-12") in got
    assert ("weights_release_date", "before 2026-12-15") in got
    assert ("price_input_usd_per_mtok", "$0.10 per 1M tokens") in got
    assert ("price_output_usd_per_mtok", "$0.40 per 1M tokens") in got
