"""Fuzz: the locale number reader and the figure scanner (claims.values.numbers, claims.extract.figures).

``read_number`` raises only ValueError (documented: not a numeric token / unknown
locale) and returns a plain ``.``-decimal text or None; ``scan_figures`` and
``parse_figure`` never raise on any text, and every figure they find converts to a Value.
"""

from __future__ import annotations

import os
import unicodedata
from decimal import Decimal

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from claims.extract.figures import parse_figure, scan_figures
from claims.values.numbers import read_number, scale_of
from claims.values.value import Value

LOCALES = ["en", "pt-BR", "pt-PT", "pt", "pt_br", "fr", "de", "es-ES"]
SETTINGS = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "300")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
DIGITS = st.text(alphabet="0123456789", min_size=1, max_size=4)
SEPS = st.sampled_from([".", ",", "\u00a0", "\u202f", "\u2009", " ", ""])
tokens = st.one_of(
    st.lists(st.tuples(DIGITS, SEPS), min_size=1, max_size=4).map(
        lambda parts: "".join(d + s for d, s in parts)
    ),
    st.text(max_size=12),
)
PIECES = [
    "2,8", "1.000", "1.250,50", "0,125", "8.00", "1\u00a0048\u00a0576", "104", "3", "65,7",
    " ", "\u00a0", "trilhões", "bilhões", "mil milhões", "milhão", "billion", "T", "B", "K",
    "M", "%", "x", "vezes", "US$", "$", "€", "R$", "cerca de", "about", "mais de", "até",
    "entre", " e ", " a ", "-", "–", "+", "por milhão de tokens", "per 1M tokens", "por mês",
    "K3.1", "GPT-6", "dois", "two", "o dobro", "metade", "(", ")", ".", ",", "\n",
]  # fmt: skip
texts = st.one_of(
    st.lists(st.sampled_from(PIECES), max_size=10).map("".join),
    st.text(max_size=40),
)


@SETTINGS
@given(token=tokens, locale=st.one_of(st.sampled_from(LOCALES), st.text(max_size=6)))
@example(token="\uaa50", locale="en")  # found by hypothesis: a Cham digit zero
def test_read_number_raises_only_value_error(token, locale):
    try:
        reading = read_number(token, locale)
    except ValueError:
        return
    assert all(isinstance(w, str) for w in reading.warnings)
    if reading.text is None:
        assert reading.warnings  # no number is always explained
        return
    assert set(reading.text) <= set("0123456789.")
    assert isinstance(reading.value, Decimal)
    # Reading never invents digits: the digits read are the token's, in order (a digit of
    # another script, e.g. Cham U+AA50, reads as its value).
    assert reading.text.replace(".", "").lstrip("0") == "".join(
        str(unicodedata.digit(c)) for c in token if c.isdigit()
    ).lstrip("0")


@SETTINGS
@given(text=texts, locale=st.sampled_from(LOCALES))
# found by hypothesis: a 28-digit figure's interval bound rounds to 29 digits
@example(text="9999999999999999999999999999", locale="en")
def test_scan_figures_never_raises_and_every_figure_converts(text, locale):
    figures = scan_figures(text, locale)
    for fig in figures:
        value = fig.to_value()
        assert value is None or isinstance(value, Value)
    value = parse_figure(text, locale)
    assert value is None or isinstance(value, Value)


@SETTINGS
@given(
    word=st.one_of(st.sampled_from(PIECES), st.text(max_size=10)), locale=st.sampled_from(LOCALES)
)
def test_scale_of_is_total(word, locale):
    scale = scale_of(word, locale)
    assert scale is None or isinstance(scale, Decimal)
