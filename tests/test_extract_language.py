"""The locale guess of `--lang auto` (claims/extract/language.py) on short texts: a short
English price line read as pt-BR and warned "'0.45': nonstandard decimal separator for
pt-BR" (a fresh-user trial)."""

from __future__ import annotations

import pytest

from claims.extract.language import detect_locale


@pytest.mark.parametrize(
    "text",
    [
        "Price: 0.45 per million input tokens.",
        "Input: $0.45 per 1M tokens; output: $1.80 per 1M tokens.",
        "Nimbus 5 has 70 billion parameters and a 128K context window.",
        "Zephyrine 70B: 0.45 USD / 1M tokens",  # no marker of either language
    ],
)
def test_short_english_texts_are_english(text):
    assert detect_locale(text) == "en"


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Preço: 0,45 por milhão de tokens.", "pt-BR"),
        ("O modelo tem 70 bilhões de parâmetros e contexto de 128 mil tokens.", "pt-BR"),
        ("O modelo tem 70 mil milhões de parâmetros; a equipa diz que é um facto.", "pt-PT"),
    ],
)
def test_short_portuguese_texts_stay_portuguese(text, locale):
    assert detect_locale(text) == locale
