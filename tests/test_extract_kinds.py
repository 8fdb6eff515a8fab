"""What kind of figure a number is, in sentences we wrote: scores and margins, old and new
values, output lengths, one part's size, active counts, paired prices, ranges, and the
European Portuguese long scale."""

from __future__ import annotations

import datetime as dt

from claims.extract.extractor import extract
from claims.extract.figures import scan_figures
from claims.subjects.references import SubjectRef
from claims.values.numbers import scale_of

NOVA = SubjectRef("nova-2", ("Nova 2", "Nova-2"))
DAY = dt.date(2026, 3, 1)


def _rows(text, lang="en"):
    return [
        (c.attribute, c.qualifiers.get("benchmark"), c.value.display())
        for c in extract(text, [NOVA], lang=lang, published=DAY, default_subject="nova-2")
        if c.subject == "nova-2"
    ]


def test_margins_are_not_scores():
    text = "Nova 2 scores 71.2% on GPQA Diamond, within 2 points of the leader, and +5.3 on MMLU-Pro (+5.3)."
    assert _rows(text) == [("benchmark_score", "GPQA Diamond", "71.2%")]


def test_the_old_value_of_a_change_is_not_the_subjects():
    text = (
        "Nova 2 improves on its predecessor:\n- MMLU-Pro: 75.9 → 81.2 (+5.3)\n- GPQA: 59.1 → 68.4\n"
    )
    assert _rows(text) == [
        ("benchmark_score", "MMLU-Pro", "81.2%"),
        ("benchmark_score", "GPQA", "68.4%"),
    ]
    text = "Nova 2 input tokens went from $0.56 per million to $0.28 per million."
    assert _rows(text) == [("price_input_usd_per_mtok", None, "$0.28 per 1M tokens")]


def test_scores_right_after_a_benchmark_or_in_an_on_list():
    text = (
        "Nova 2 matches the leader on IFEval (92.1) and MATH (77.0), with DROP (3-shot F1) noted."
    )
    assert _rows(text) == [
        ("benchmark_score", "IFEval", "92.1%"),
        ("benchmark_score", "MATH", "77.0%"),  # as written: "(77.0)"
    ]
    text = (
        "Nova 2 reported 82.0% on MMLU, 87.0% on the MGSM math benchmark, and 87.2% on HumanEval."
    )
    assert [r[1] for r in _rows(text)] == ["MMLU", "MGSM", "HumanEval"]
    text = "Nova 2: MMLU 88.6%, GPQA Diamond 51.1%, HumanEval 89.0%."
    assert _rows(text) == [
        ("benchmark_score", "MMLU", "88.6%"),
        ("benchmark_score", "GPQA Diamond", "51.1%"),
        ("benchmark_score", "HumanEval", "89.0%"),
    ]


def test_an_output_length_is_not_the_context_window():
    text = (
        "Nova 2 supports 1 million context tokens and the longest 80,000 token inference "
        "output, and returns up to 16,384 output tokens per request."
    )
    assert _rows(text) == [("context_window", None, "1M tokens")]


def test_one_parts_size_and_an_average_active_count():
    text = "Nova 2 pairs a 10-billion-parameter dense core with 128 experts at 3.66 billion parameters each."
    assert _rows(text) == []  # one expert's size is no total (nor is a compound adjective)
    text = (
        "Nova 2 has 560 billion parameters in total, but only 18.6 to 31.3 billion parameters "
        "are activated per token, averaging about 27 billion."
    )
    assert [r[0] for r in _rows(text)] == ["total_params", "active_params", "active_params"]
    text = "O Nova 2 tem 400 mil milhões de parâmetros totais, mas só usa 17 mil milhões simultaneamente."
    assert _rows(text, "pt-PT") == [
        ("total_params", None, "400B params"),
        ("active_params", None, "17B params"),
    ]
    text = "- Parâmetros ativados: 32 bilhões por passe para frente"
    assert [r[0] for r in _rows(text, "pt")] == ["active_params"]


def test_prices_stated_respectively_and_a_cut_as_a_range():
    text = (
        "Nova 2 has input and output prices dropping to $0.28/M and $0.42/M respectively, "
        "a reduction of 50%-75%."
    )
    assert _rows(text) == [
        ("price_input_usd_per_mtok", None, "$0.28 per 1M tokens"),
        ("price_output_usd_per_mtok", None, "$0.42 per 1M tokens"),
        ("price_change_pct", None, "−75% to −50%"),
    ]


def test_mil_milhoes_is_a_thousand_million_in_any_portuguese():
    assert scale_of("mil milhões", "pt-BR") == scale_of("mil milhões", "pt-PT") == 10**9
    assert _rows("O Nova 2 tem 314 mil milhões de parâmetros.", "pt") == [
        ("total_params", None, "314B params")
    ]


def test_an_apposition_is_the_model_it_follows():
    text = "A equipe apresentou o Nova 2, um modelo de IA com 32 bilhões de parâmetros."
    assert _rows(text, "pt") == [("total_params", None, "32B params")]


def test_a_factor_against_another_model_is_no_price_factor():
    text = "Nova 2 matches Zephyr-9 on math while running at 4-5x lower cost."
    assert _rows(text) == []


def test_speeds_per_second_and_a_context_named_earlier_in_the_sentence():
    text = "Nova 2 serves $0.59/M input tokens at 314 tokens/second output speed."
    assert ("output_tokens_per_second", None, "314 tokens/s") in _rows(text)
    text = "A velocidade de saída do Nova 2 atinge 60 a 100 tokens/segundo."
    assert _rows(text, "pt") == [("output_tokens_per_second", None, "60–100 tokens/s")]
    text = "Nova 2 boasts an impressive context length, natively supporting 256K tokens."
    assert _rows(text) == [("context_window", None, "256K tokens")]


def test_a_named_leaderboard_is_a_benchmark():
    text = "Nova 2 has a 4.1% hallucination rate on the Vectara HHEM leaderboard."
    assert _rows(text) == [("benchmark_score", "Vectara HHEM leaderboard", "4.1%")]


def test_compound_sizes_arena_scores_and_gaps():
    text = "Vega unveiled Nova 2, a 1.1-trillion-parameter mixture-of-experts model."
    got = extract(text, [NOVA], lang="en", published=DAY)
    # read as "1.1 trillion", quoted as written
    assert [(c.attribute, c.value.display(), c.text) for c in got] == [
        ("total_params", "1.1T params", "1.1-trillion")
    ]
    text = "Nova 2 tops LMArena with 1,452 Elo, 12 points above Zephyr-9."
    assert _rows(text) == [("benchmark_score", "LMArena", "1,452 points")]


def test_a_clause_with_a_figure_after_another_model_is_its():
    text = "O Nova 2 obteve 71,3% no SWE-bench Verified, mas ficou atrás do Zephyr-9, com 74,9%."
    assert _rows(text, "pt") == [("benchmark_score", "SWE-bench Verified", "71.3%")]


def test_scores_on_a_benchmark_a_score_of_and_ranks():
    text = "Nova 2, which Vega released in May, scores 88.0 on AIME 2025 and 64.2 on LiveCodeBench."
    assert [r for r in _rows(text) if r[0] == "benchmark_score"] == [
        ("benchmark_score", "AIME", "88.0%"),
        ("benchmark_score", "LiveCodeBench", "64.2%"),
    ]
    text = "Nova 2 ranks #3 on the Intelligence Index with a score of 71."
    got = extract(text, [NOVA], lang="en", published=DAY)
    assert [(c.attribute, c.value.display()) for c in got] == [
        ("leaderboard_rank", "#3"),
        ("benchmark_score", "71 points"),
    ]


def test_a_models_name_is_no_claimant():
    orion = SubjectRef("nova-2-pro", ("Nova 2 Pro",))
    text = "According to Vega Research, Nova 2 Pro ranks #3 on the Intelligence Index."
    got = extract(text, [orion], lang="en", published=DAY)
    assert [(c.attribute, c.claimant) for c in got] == [("leaderboard_rank", "Vega Research")]


def test_a_compound_size_is_the_total_and_an_upper_bound_context_is_read():
    text = "The 480B-parameter Nova 2 activates 35B parameters per token and reads up to 128K tokens of context."
    assert _rows(text) == [
        ("total_params", None, "480B params"),
        ("active_params", None, "35B params"),
        ("context_window", None, "at most 128K tokens"),
    ]
    text = "Nova 2 was made available on March 5, 2026."
    assert _rows(text) == [("release_date", None, "on 2026-03-05")]


def test_released_and_open_sourced_on_one_date_and_a_reported_relative_date():
    text = "On September 1, Vega officially released and open-sourced Nova 2."
    assert _rows(text) == [
        ("release_date", None, "on 2026-09-01"),
        ("weights_release_date", None, "on 2026-09-01"),
    ]
    warnings: list[str] = []
    text = "Há uns dias, a Vega disse que o Nova 2 seria lançado como open-source dentro de uma semana."
    got = extract(text, [NOVA], lang="pt", published=DAY, warnings=warnings)
    assert got == []
    assert any("relative to a reported statement" in w for w in warnings)


def test_benchmark_variant_and_version_stay_apart():
    orca = SubjectRef("orca-coder", ("Orca-Coder",))

    def q(text):
        got = extract(text, [orca], lang="en", published=DAY)
        return [(c.qualifiers, c.value.display()) for c in got]

    assert q("Orca-Coder scores 47.0% on SWE-bench.") == [({"benchmark": "SWE-bench"}, "47.0%")]
    assert q("Orca-Coder: 38% on SWE-bench Live.") == [({"benchmark": "SWE-bench Live"}, "38%")]
    assert q("Orca-Coder: 47% on SWE-bench Lite.") == [({"benchmark": "SWE-bench Lite"}, "47%")]
    assert q("Orca-Coder scores 73 on Terminal-Bench 2.") == [
        ({"benchmark": "Terminal-Bench", "version": "2"}, "73%")
    ]


def test_weights_made_available_on_a_date():
    text = "Os pesos do Nova 2 serão disponibilizados no Hugging Face a 15 de julho."
    assert _rows(text, "pt-PT") == [("weights_release_date", None, "on 2026-07-15")]
    text = "Nova 2's weights will be made available on July 15."
    assert _rows(text) == [("weights_release_date", None, "on 2026-07-15")]


def test_a_licence_needs_the_word_licence_near_it_in_its_clause_or_label():
    assert _rows("Nova 2 ships under the Apache 2.0 license.") == [("license", None, "apache-2.0")]
    assert _rows("Nova 2\nLicense: MIT\n") == [("license", None, "mit")]
    # the licence word is in another clause, far from the name: no licence read
    text = "Nova 2 follows Apache 2.0 conventions for its code, and the license of the weights is unclear."
    assert _rows(text) == []


def test_a_range_whose_ends_have_their_own_scale_words_reads_each_end():
    (fig,) = scan_figures("between 900 million and 2 billion", "en")
    v = fig.to_value("params")
    assert (v.low, v.high) == (900_000_000, 2_000_000_000)


def test_a_wide_range_of_sizes_is_a_line_up_not_the_subjects_size():
    text = "The Nova 2 family ships checkpoints from 700 million to 40 billion parameters."
    assert _rows(text) == []
    text = "Nova 2 has an estimated 300-320 billion parameters."
    assert [r[0] for r in _rows(text)] == ["total_params"]
    pt = "O Nova 2 ganhou versões menores, de 2,5 bilhões a 60 bilhões de parâmetros."
    assert _rows(pt, "pt") == []


def test_a_training_corpus_is_not_a_context_window():
    text = "Nova 2 was trained on roughly 22 trillion tokens and reads a context of 256K tokens."
    assert _rows(text) == [("context_window", None, "256K tokens")]
    pt = (
        "O Nova 2 foi treinado com 18 trilhões de tokens; a janela de contexto é de 200 mil tokens."
    )
    assert [r[0] for r in _rows(pt, "pt")] == ["context_window"]
    assert [r[2] for r in _rows(pt, "pt")] == ["200K tokens"]


def test_a_context_of_a_billion_tokens_or_more_is_something_else():
    text = "Nova 2 saw a context corpus of 3 billion tokens."
    assert _rows(text) == []


def test_a_contest_named_by_its_two_digit_year_has_that_version():
    rows = [
        (c.qualifiers.get("benchmark"), c.qualifiers.get("version"), c.value.display())
        for c in extract(
            "Nova 2 reaches 88.5% on AIME 25 (math) and 61.5% on HMMT '24.",
            [NOVA],
            lang="en",
            default_subject="nova-2",
        )
        if c.attribute == "benchmark_score"
    ]
    assert rows == [("AIME", "2025", "88.5%"), ("HMMT", "2024", "61.5%")]


def test_a_spec_label_glued_to_its_value_still_gives_the_figure():
    text = "Nova 2\nContext window256K tokens\nModalityText\n"
    assert _rows(text) == [("context_window", None, "256K tokens")]
    assert _rows("Nova 2\nContext Length1M tokens\n") == [("context_window", None, "1M tokens")]


def test_an_elo_before_its_number_is_an_arena_score():
    text = "On Chatbot Arena, Nova 2 reached Elo 1287 within a week."
    assert _rows(text) == [("benchmark_score", "Chatbot Arena", "1,287 points")]


def test_a_list_of_three_sizes_is_a_line_up():
    text = "The encoder of Nova 2 is shared across 2B/9B/30B checkpoints."
    assert _rows(text) == []
    text = "Nova 2 comes in 1B, 7B, 13B and 70B sizes."
    assert _rows(text) == []
    text = "Nova 2 (120B/9B) is a sparse model."  # two: total and active, kept
    assert [r[0] for r in _rows(text)] != []


def test_a_factor_between_two_other_things_is_no_factor_of_the_subject():
    text = "Nova 2 is cheap. The 3x output price gap between Orca 5 and Zephyr 4 is odd."
    assert [r for r in _rows(text) if r[0] == "price_factor"] == []


def test_a_range_after_change_words_is_the_old_and_the_new_value():
    text = "Nova 2 brings the expansion of its context window from 64,000 to 256,000 tokens."
    assert _rows(text) == [("context_window", None, "256K tokens")]
    pt = "No Nova 2, a janela de contexto passou de 32 mil para 200 mil tokens."
    assert [(r[0], r[2]) for r in _rows(pt, "pt")] == [("context_window", "200K tokens")]


def test_a_training_cluster_is_no_hardware_claim():
    text = "Nova 2 was trained on 2,048 H100 GPUs for a month; it serves on 8 H100 GPUs."
    assert _rows(text) == [("hardware_units", None, "8 gpus")]


def test_a_dotted_number_of_two_digits_after_a_benchmark_is_its_score_not_a_version():
    text = "Nova 2 leaderboard scores\nBBH 48.2\nGPQA 19.5\n"
    rows = [
        (c.qualifiers.get("benchmark"), c.qualifiers.get("version"), float(c.value.value))
        for c in extract(text, [NOVA], lang="en", default_subject="nova-2")
    ]
    assert rows == [("BBH", None, 48.2), ("GPQA", None, 19.5)]


def test_a_subject_after_a_comparison_word_is_the_yardstick():
    orca = SubjectRef("orca-5", ("Orca 5",))
    text = "Why it matters:\n  • MMLU: 81.0% — beats Zephyr 4 (77.5%), Orca 5 (70.2%), and more\n"
    got = [
        (c.subject, c.value.display())
        for c in extract(text, [NOVA, orca], lang="en", default_subject="nova-2")
        if c.attribute == "benchmark_score"
    ]
    assert got[0] == ("nova-2", "81.0%")
    assert ("orca-5", "70.2%") in got


def test_a_spec_card_label_with_no_space_after_its_colon_still_labels_the_value():
    text = "Nova 2\nEntrada:$0.30/M\nSaída:$1.20/M\nContexto:256K\nSaída Máxima:8K\n"
    assert [(r[0], r[2]) for r in _rows(text, "pt")] == [
        ("price_input_usd_per_mtok", "$0.30 per 1M tokens"),
        ("price_output_usd_per_mtok", "$1.20 per 1M tokens"),
        ("context_window", "256K tokens"),
    ]


def test_benchmark_names_of_the_names_file_label_their_scores():
    text = "Nova 2 scores 58.2% on HiddenMath, 44.0% on OSWorld and 51.5% on MMMU-Pro."
    assert _rows(text) == [
        ("benchmark_score", "HiddenMath", "58.2%"),
        ("benchmark_score", "OSWorld", "44.0%"),
        ("benchmark_score", "MMMU-Pro", "51.5%"),
    ]


def test_the_second_pair_of_a_versus_sentence_keeps_the_first_models_figure():
    text = "Nova 2 surpasses its teacher Orca-5 on GPQA (61.2 vs 58.0) and MATH (77.9 vs 75.3)."
    got = [
        (c.subject, c.qualifiers.get("benchmark"), c.text)
        for c in extract(text, [NOVA], lang="en")
        if c.attribute == "benchmark_score"
    ]
    assert got == [("nova-2", "GPQA", "61.2"), ("nova-2", "MATH", "77.9")]


def test_an_embedding_or_encoder_count_is_one_parts_size():
    text = "O Nova 2 tem 900 milhões de parâmetros, com 300 milhões de parâmetros de incorporação."
    assert _rows(text, "pt") == [("total_params", None, "900M params")]
    text = "Nova 2 has 9 billion parameters, 1.2 billion embedding parameters among them."
    assert _rows(text) == [("total_params", None, "9B params")]


def test_a_spec_cards_label_line_reads_the_value_line_under_it():
    text = (
        "Nova 2\n\nNova 2 is a reasoning model.\n\nPricing\n\nRates for this model.\n\nInput Tokens (1M)\n\n$0.40\n\nCached Input Tokens (1M)\n\n$0.10\n\n"
        "Output Tokens (1M)\n\n$1.60\n\nLicence\nApache 2.0\nParameters\n120B MoE\n"
    )
    assert _rows(text) == [
        ("price_input_usd_per_mtok", None, "$0.40 per 1M tokens"),
        ("price_output_usd_per_mtok", None, "$1.60 per 1M tokens"),
        ("license", None, "apache-2.0"),
        ("total_params", None, "120B params"),
    ]


def test_a_cached_input_rate_is_no_input_price():
    text = "Nova 2 costs $0.40 per million input tokens; cache hits cost $0.10 per million input tokens."
    assert _rows(text) == [("price_input_usd_per_mtok", None, "$0.40 per 1M tokens")]


def test_a_gain_in_points_and_a_gap_between_others_are_no_scores():
    text = (
        "No Codeforces, o Nova 2 alcançou uma classificação de aproximadamente 1930, "
        "uma melhoria de 400 pontos."
    )
    assert _rows(text, "pt") == [("benchmark_score", "Codeforces", "about 1,930 points")]
    text = (
        "On the Chatbot Arena Leaderboard, the gap between the best US and Chinese models "
        "fell from 9.26% to 1.70%."
    )
    assert _rows(text) == []


def test_a_memory_saving_is_no_price_change():
    text = (
        "Nova 2 reports memory reductions greater than 70% for long-context inference, which "
        "can translate into lower GPU cost."
    )
    assert _rows(text) == []


def test_sizes_naming_sibling_models_and_their_release_are_not_the_subjects():
    text = (
        "Nova 2 scales up the recipe used for our 7B and 13B models released in November. "
        "We trained Nova 2 on the same data mixes released in November."
    )
    assert _rows(text) == []
    text = "Nova 2 has 32 billion parameters and its weights were released in February."
    assert _rows(text) == [
        ("total_params", None, "32B params"),
        ("weights_release_date", None, "on 2026-02"),
    ]


def test_a_sibling_in_another_tier_and_a_score_carried_by_in_comparison():
    small = SubjectRef("nova-small", ("Nova Small",))
    text = (
        "The Nova Small features a model with 24 billion parameters. Nova Medium reportedly "
        "achieved 73.6 percent on the AIME2024 benchmark. In comparison, the Small version "
        "scored 70.7 percent, according to Vega Labs."
    )
    rows = [
        (c.subject, c.attribute, c.qualifiers.get("benchmark"), c.value.display())
        for c in extract(text, [small], lang="en", published=DAY, default_subject="nova-small")
    ]
    assert rows == [
        ("nova-small", "total_params", None, "24B params"),
        (None, "benchmark_score", "AIME", "73.6%"),
        ("nova-small", "benchmark_score", "AIME", "70.7%"),
    ]


def test_a_context_length_label_and_an_apposition_name_the_window():
    card = "Model Card for Nova 2\n- Model Size: 104 billion parameters\n- Context length: 128K\n"
    assert [r for r in _rows(card) if r[0] == "context_window"] == [
        ("context_window", None, "128K tokens")
    ]
    prose = "Nova 2 can process up to 256,000 tokens—an industry-leading context window."
    assert _rows(prose) == [("context_window", None, "at most 256K tokens")]
    pt = "O Nova 2 processa 256.000 tokens, uma janela de contexto recorde."
    assert _rows(pt, "pt-BR") == [("context_window", None, "256K tokens")]


def test_a_supported_quantization_is_not_the_weights_precision():
    text = "Nova 2 ships 8-bit weights and is optimized through support for 4-bit and 2-bit quantization."
    assert _rows(text) == [("weights_precision_bits", None, "8 bits")]
    pt = "O Nova 2 tem pesos de 8 bits e suporte a quantização de 4 bits."
    assert _rows(pt, "pt-BR") == [("weights_precision_bits", None, "8 bits")]


def test_benchmark_rows_with_a_category_column_between_name_and_score():
    text = (
        "Benchmark scores\n\nBenchmarkCategoryScoreMeasured\n"
        "AIME 2025 math 88.9 2025-04-16\n"
        "GPQA Diamond reasoning 83.3 2025-04-16\n"
        "SWE-bench Verified coding 71.7 2025-04-16\n"
    )
    assert _rows("Nova 2 model page\n\n" + text) == [
        ("benchmark_score", "AIME", "88.9%"),
        ("benchmark_score", "GPQA Diamond", "83.3%"),
        ("benchmark_score", "SWE-bench Verified", "71.7%"),
    ]


def test_prices_named_previous_are_not_the_current_ones():
    text = (
        "Nova 2 now costs $2.00 per million input tokens and $8.00 per million output "
        "tokens, an 80% cut from previous rates of $10 and $40 per million tokens."
    )
    prices = [r for r in _rows(text) if r[0].startswith("price_") and "mtok" in r[0]]
    assert [(a, v) for a, _, v in prices] == [
        ("price_input_usd_per_mtok", "$2.00 per 1M tokens"),
        ("price_output_usd_per_mtok", "$8.00 per 1M tokens"),
    ]
    pt = (
        "O Nova 2 custa agora US$ 2 por milhão de tokens de entrada, face ao preço anterior "
        "de US$ 10 por milhão de tokens de entrada."
    )
    assert [(a, v) for a, _, v in _rows(pt, "pt-PT") if "mtok" in a] == [
        ("price_input_usd_per_mtok", "$2.00 per 1M tokens")
    ]


def test_a_short_alias_starting_a_sibling_tier_names_the_sibling():
    # "Nova 3" is the subject's short name, but "Nova 3 Mini" is its sibling in another tier.
    large = SubjectRef("nova-3-large", ("Nova 3 Large", "Nova 3"))
    text = (
        "Nova 3 comes in two sizes:\n"
        "- Nova 3 Large: 90 billion active parameters (400B total)\n"
        "- Nova 3 Mini: 11 billion active parameters (50B total)\n"
    )
    rows = [
        (c.subject, c.attribute, c.value.display())
        for c in extract(text, [large], lang="en", published=DAY, default_subject="nova-3-large")
        if c.subject
    ]
    assert rows == [
        ("nova-3-large", "active_params", "90B params"),
        ("nova-3-large", "total_params", "400B params"),
    ]


def test_a_score_on_a_benchmark_named_after_it_and_glued_versions():
    text = (
        "O Nova 2 alcançou a primeira posição no benchmark Arena-Hardv2 e obteve uma "
        "pontuação de 80,6 no teste de raciocínio matemático AIME25."
    )
    got = [
        (c.attribute, c.qualifiers, c.value.display())
        for c in extract(text, [NOVA], lang="pt", published=DAY, default_subject="nova-2")
    ]
    assert got == [("benchmark_score", {"benchmark": "AIME", "version": "2025"}, "80.6 points")]


def test_figures_stated_respectively_follow_the_names_in_order():
    e4b = SubjectRef("nova-e4b", ("Nova E4B", "E4B"))
    text = (
        "A Nova oferece duas versões, E2B e E4B. Os parâmetros originais são de 5B e 8B "
        "respectivamente. A E4B é o primeiro modelo abaixo de 10 bilhões de parâmetros a "
        "passar de 1300 pontos no LMArena."
    )
    rows = [
        (c.subject, c.other_model, c.attribute, c.value.display())
        for c in extract(text, [e4b], lang="pt", published=DAY, default_subject="nova-e4b")
        if c.attribute == "total_params"
    ]
    assert rows == [
        (None, "E2B", "total_params", "5B params"),
        ("nova-e4b", None, "total_params", "8B params"),
    ]


def test_a_trillion_is_one_trillion_before_a_scale_word_only():
    text = "Nova 2 is built on a trillion-parameter architecture and activates 32 billion parameters per forward pass."
    assert _rows(text) == [
        ("total_params", None, "1T params"),
        ("active_params", None, "32B params"),
    ]
    assert [f.text for f in scan_figures("a model with a 7B core", "en")] == ["7B"]


def test_today_in_an_announcement_is_the_publication_day():
    text = "March 1, 2026\nToday we release Nova 2, the largest model of the family."
    assert _rows(text) == [("release_date", None, "on 2026-03-01")]
    text = "In today's competition, Nova 2 stands out."
    assert _rows(text) == []
    text = "Hoje, a Vega lança o Nova 2. O termo mais honesto hoje é em breve open weights."
    assert _rows(text, "pt") == [("release_date", None, "on 2026-03-01")]


def _subject_rows(text, ref, lang="en"):
    return [
        (c.subject, c.other_model, c.attribute, c.value.display())
        for c in extract(text, [ref], lang=lang, published=DAY, default_subject=ref.slug)
    ]


def test_lower_case_tier_siblings_and_sizes_named_by_a_model_noun():
    mini = SubjectRef("nova-2-mini", ("Nova 2 Mini", "nova-2-mini"))
    text = (
        "A Vega apresenta o nova-2-mini, um modelo com 3,8 bilhões de parâmetros. Os "
        "modelos nova-2-small e nova-2-medium, que têm parâmetros 7B e 14B, vêm depois."
    )
    assert [r for r in _subject_rows(text, mini, "pt") if r[0]] == [
        ("nova-2-mini", None, "total_params", "3.8B params")
    ]
    sized = SubjectRef("nova-2-27b", ("Nova 2 27B",))
    text = (
        "Vega Labs today released Nova 2, now available in 9B and 27B parameter sizes. "
        "The 27B model leads its class. The 9B model was distilled from a larger teacher."
    )
    assert [r for r in _subject_rows(text, sized) if r[0]] == [
        ("nova-2-27b", None, "release_date", "on 2026-03-01"),
        ("nova-2-27b", None, "total_params", "27B params"),
    ]


def test_an_attention_span_and_a_simile_are_no_claims():
    text = (
        "Nova 2 has a 128K context window; it interleaves sliding window attention (4,096 tokens)."
    )
    assert _rows(text) == [("context_window", None, "128K tokens")]
    text = "Nova 2 is a 3.8B parameter model that benchmarks like a 70B."
    assert _rows(text) == [("total_params", None, "3.8B params")]
    text = "O Nova 2 tem 3,8 bilhões de parâmetros e responde como um 70B."
    assert _rows(text, "pt") == [("total_params", None, "3.8B params")]


def test_examples_after_a_comparison_word_are_yardsticks():
    text = (
        "O Nova 2 tem 3,8 bilhões de parâmetros. Ele compete com modelos maiores, como o "
        "Orca 8x7B e o GPT-3.5, alcançando 69% no MMLU."
    )
    assert _rows(text, "pt") == [
        ("total_params", None, "3.8B params"),
        ("benchmark_score", "MMLU", "69%"),
    ]


def test_out_of_a_total_and_a_licence_after_under():
    text = "Vega releases Nova 2 under Apache 2.0: it uses 39B active parameters out of 141B."
    assert _rows(text) == [
        ("license", None, "apache-2.0"),
        ("active_params", None, "39B params"),
        ("total_params", None, "141B params"),
    ]
    text = "Under pressure, Nova 2 ships with 12B parameters."
    assert _rows(text) == [("total_params", None, "12B params")]


def test_a_spec_cards_date_reads_the_label_above_it():
    text = "Nova 2\nParameters\n123B\nRelease Date\n24 Jul 2024\nKnowledge Cutoff\nOct 2023\n"
    assert _rows(text) == [
        ("total_params", None, "123B params"),
        ("release_date", None, "on 2024-07-24"),
    ]


def test_today_before_a_past_release_verb_is_the_publication_day():
    text = "Vega Labs today released Nova 2, a model with 12B parameters."
    assert _rows(text)[0] == ("release_date", None, "on 2026-03-01")
    text = "Vega Labs today announced Nova 2, with open weights later."
    assert [r for r in _rows(text) if r[0] == "release_date"] == []


def test_a_size_next_to_a_component_is_that_parts():
    text = "Nova 2 combines a 123B decoder with a 1B vision encoder, 124B parameters in all."
    assert _rows(text) == [("total_params", None, "124B params")]
    text = "Nova 2 is a 124-billion-parameter model.\n| Component | Size |\n|---|---|\n| Vision Encoder | 1B |\n| Text Decoder | 123B |\n"
    assert _rows(text) == [("total_params", None, "124B params")]
    text = "O Nova 2 une um decodificador de 123 bilhões de parâmetros a um codificador de visão de 1 bilhão."
    assert _rows(text, "pt") == []


def test_a_number_hyphened_to_its_scale_word_before_parameter_is_a_count():
    text = "The lab open-sourced an 8-billion parameter instruction model, Nova 2."
    assert _rows(text) == [("total_params", None, "8B params")]


def test_a_context_label_may_name_the_token_unit_before_the_count():
    text = "O Nova 2 suporta comprimento de contexto de tokens de 128K."
    assert _rows(text, "pt") == [("context_window", None, "128K tokens")]


def test_a_spec_sheet_label_glued_to_its_value_still_labels_it():
    text = "Nova 2\nTamanho do contexto32.000\nLicençaApache 2.0\n"
    rows = [
        (c.attribute, c.value.display())
        for c in extract(text, [NOVA], lang="pt", published=DAY, default_subject="nova-2")
    ]
    assert rows == [("context_window", "32K tokens"), ("license", "apache-2.0")]


def test_an_input_token_limit_is_the_context_window_but_a_price_unit_is_not():
    text = "O Nova 2 permite até 200.000 tokens de entrada e custa US$3 por 1 milhão de tokens de entrada."
    rows = [
        (c.attribute, c.value.display())
        for c in extract(text, [NOVA], lang="pt", published=DAY, default_subject="nova-2")
    ]
    assert rows == [
        ("context_window", "at most 200K tokens"),
        ("price_input_usd_per_mtok", "$3.00 per 1M tokens"),
    ]


def test_an_input_token_count_without_a_bound_is_no_window():
    text = "For 1,000 tokens of input Nova 2 needs one call."
    assert [c.attribute for c in extract(text, [NOVA], lang="en", published=DAY)] == []


def test_a_count_per_block_or_layer_is_one_parts_size():
    text = "Nova 2 adds a small draft module (0.5B params/block) to its 120B parameters."
    assert _rows(text) == [("total_params", None, "120B params")]
    text = "O Nova 2 usa 2B parâmetros por camada num total de 90 bilhões de parâmetros."
    assert _rows(text, "pt") == [("total_params", None, "90B params")]


def test_an_active_cue_in_a_relative_clause_is_the_next_counts():
    text = "Nova 2: A 60B Open Model That Activates Only 6B Parameters Per Token"
    assert _rows(text) == [
        ("total_params", None, "60B params"),
        ("active_params", None, "6B params"),
    ]


def test_a_count_after_a_word_and_a_slash_is_a_figure():
    text = "Nova 2 is a sparse model with 210B total/21B active parameters."
    assert _rows(text) == [
        ("total_params", None, "210B params"),
        ("active_params", None, "21B params"),
    ]
    assert _rows("Nova 2 ships in 210B/21B.") == [("total_params", None, "210B params")]


def test_a_training_corpus_size_is_no_parameter_count():
    text = "O Nova 2 tem 2T de parâmetros totais e viu 20T de treinamento multimodal."
    assert _rows(text, "pt") == [("total_params", None, "2T params")]
    assert _rows("Nova 2 has 2T parameters and 20T training tokens.") == [
        ("total_params", None, "2T params")
    ]


def test_an_apposition_after_a_bracketed_note_is_the_model_it_follows():
    text = (
        "Dois modelos:\n· Nova 2 (90B parâmetros) – um modelo denso com uma janela de contexto "
        "de 256.000 tokens.\n· Zephyr Mini (9B) – um modelo reduzido."
    )
    assert ("context_window", None, "256K tokens") in _rows(text, "pt")


def test_multilingual_is_part_of_a_bench_name():
    text = "Nova 2 scores 61.5% on Cube-Bench Multilingual and 70.5% on Cube-Bench Verified."
    assert _rows(text) == [
        ("benchmark_score", "Cube-Bench Multilingual", "61.5%"),
        ("benchmark_score", "Cube-Bench Verified", "70.5%"),
    ]


def test_an_apposition_after_a_bracket_and_a_spaced_hyphen_is_the_model_before_it():
    text = "Nova 2 (90B total, 9B active) - a sparse model with a 200K context window."
    assert ("context_window", None, "200K tokens") in _rows(text)
    assert [r for r in _rows("Zeta-9 - a sparse model with a 200K context window.")] == []


def test_tps_is_tokens_per_second():
    assert _rows("Nova 2 serves 140tps on its own cloud.") == [
        ("output_tokens_per_second", None, "140 tokens/s")
    ]
    assert _rows("Nova 2 took 140 steps.") == []


def test_a_benchmark_name_in_quotes_after_on_is_the_scores():
    text = "O Nova 2 obteve 90,4% no benchmark GPQA Diamond e 33,7% no “Humanity’s Last Exam”."
    assert _rows(text, "pt") == [
        ("benchmark_score", "GPQA Diamond", "90.4%"),
        ("benchmark_score", "Humanity’s Last Exam", "33.7%"),
    ]


def test_a_side_named_in_a_fronted_phrase_is_the_prices():
    assert _rows(
        "Nos tokens de saída, o preço do Nova 2 fixa-se nos 4 dólares por milhão.", "pt"
    ) == [("price_output_usd_per_mtok", None, "$4.00 per 1M tokens")]
    assert _rows("For input and output, Nova 2 costs $4 per million tokens.") == []


def test_a_price_for_the_same_amount_takes_the_earlier_prices_unit_and_side():
    text = (
        "Enquanto o Zephyr-7 custa 2 dólares por milhão de tokens de entrada, o Nova 2 custa "
        "apenas 0,30 dólares pela mesma quantidade de dados."
    )
    assert _rows(text, "pt") == [("price_input_usd_per_mtok", None, "$0.30 per 1M tokens")]


def test_a_threshold_or_a_difference_is_no_score():
    text = "Nova 2 é o primeiro a quebrar a barreira de 80% no Cube-Bench (81.5%)."
    assert _rows(text, "pt") == [("benchmark_score", "Cube-Bench", "81.5%")]
    text = "On Cube-Bench Verified Nova 2 matches Zephyr-7 with 76% fewer output tokens."
    assert _rows(text) == []
    assert _rows("Nova 2 crossed the 90% mark on Cube-Bench with 91.2%.") == [
        ("benchmark_score", "Cube-Bench", "91.2%")
    ]


def test_a_listed_benchmark_with_a_context_length_suffix():
    text = "In the RULER-128K benchmark, Nova 2 scored 94.6."
    rows = [
        (c.qualifiers.get("benchmark"), c.qualifiers.get("version"), c.value.display())
        for c in extract(text, [NOVA], lang="en", published=DAY, default_subject="nova-2")
    ]
    assert rows == [("RULER", "128K", "94.6%")]


def test_a_slash_pair_of_prices_naming_no_side_is_input_then_output():
    text = "O preço do Nova 2 caiu: de $15/$75 para $5/$25 por milhão de tokens."
    assert _rows(text, "pt") == [
        ("price_input_usd_per_mtok", None, "$5.00 per 1M tokens"),
        ("price_output_usd_per_mtok", None, "$25.00 per 1M tokens"),
    ]
    assert [r[0] for r in _rows("Nova 2 costs $25/$5 per million tokens.")] == []


def test_a_date_in_a_sentence_opening_with_the_model_is_not_a_later_models():
    text = (
        "O modelo chegou em 24 de outubro de 2026 com contexto de 200K tokens e não chega aos "
        "pés do Zephyr-7 Pro que oferece 1M tokens."
    )
    assert ("release_date", None, "on 2026-10-24") in _rows(text, "pt")


def test_a_tier_phrase_names_the_sibling_of_that_tier():
    text = (
        "The release has two tiers: Nova 2 Pro and Nova 2 Flash. The Pro model is a giant, "
        "boasting a total of 1.2 trillion parameters. The Flash model uses 9 billion active "
        "parameters out of a total 90 billion."
    )
    pro = SubjectRef("nova-2-pro", ("Nova 2 Pro",))
    flash = SubjectRef("nova-2-flash", ("Nova 2 Flash",))
    got = [
        (c.subject, c.attribute, c.value.display())
        for c in extract(
            text, [pro, flash], lang="en", published=DAY, default_subject="nova-2-flash"
        )
    ]
    assert got == [
        ("nova-2-pro", "total_params", "1.2T params"),
        ("nova-2-flash", "active_params", "9B params"),
        ("nova-2-flash", "total_params", "90B params"),
    ]


def test_a_scale_letter_one_space_after_its_number():
    text = (
        "Nova 2\nTotal parameters: 1.6 T\nActive parameters: 49 B\nContext window: 1 million tokens"
    )
    assert _rows(text) == [
        ("total_params", None, "1.6T params"),
        ("active_params", None, "49B params"),
        ("context_window", None, "1M tokens"),
    ]
    assert [f.text for f in scan_figures("Plan B, Table 2 B shows", "en")] == ["2"]


def test_a_token_memory_and_long_texts_of_up_to_n_tokens_are_the_context_window():
    assert _rows("Nova 2 brings a 2 million‑token memory to every chat.") == [
        ("context_window", None, "2M tokens")
    ]
    assert _rows("Nova 2 also handles long texts of up to 64,000 tokens.") == [
        ("context_window", None, "at most 64K tokens")
    ]
    assert _rows("O Nova 2 tem memória de 200 mil tokens.", "pt-BR") == [
        ("context_window", None, "200K tokens")
    ]


def test_a_count_of_them_after_another_noun_is_no_parameter_count():
    assert (
        _rows("Nova 2 led the router by tokens last week. 2.7 trillion of them, in seven days.")
        == []
    )
    assert (
        _rows("O Nova 2 liderou o ranking em tokens: 2,7 trilhões deles numa semana.", "pt-BR")
        == []
    )
    # "of them" after parameters named earlier in the sentence counts parameters
    assert _rows("Nova 2 has 1.2 trillion parameters, and 32 billion of them are active.") == [
        ("total_params", None, "1.2T params"),
        ("active_params", None, "32B params"),
    ]


def test_a_subscriptions_fee_change_is_no_token_price_change():
    assert _rows("The Nova 2 subscription price was cut by 30%.") == []
    assert _rows("O Nova 2 teve o preço da assinatura reduzido em 30%.", "pt-BR") == []
    assert _rows("The Nova 2 price was cut by 30%.") == [("price_change_pct", None, "−30%")]
