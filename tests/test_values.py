from decimal import Decimal

from claims.values.value import Value, intervals_overlap, quantity, value_range


def test_stated_precision_interval():
    v = quantity("2.8", "params", scale=10**12)
    assert v.interval() == (Decimal("2.75e12"), Decimal("2.85e12"))


def test_about_is_wider_than_plain():
    plain = quantity("3", "params", scale=10**12)
    about = quantity("3", "params", scale=10**12, approx=True)
    assert plain.interval() == (Decimal("2.5e12"), Decimal("3.5e12"))
    assert about.interval() == (Decimal("2e12"), Decimal("4e12"))


def test_round_trip_dict():
    v = value_range(1000, 2000, "tokens_per_second", open_high=True)
    assert Value.from_dict(v.to_dict()) == v
    assert v.interval() == (Decimal(1000), None)


def test_overlap_symmetric():
    a = quantity("2.8", "params", scale=10**12)
    b = quantity("3", "params", scale=10**12, approx=True)
    c = quantity("2.4", "params", scale=10**12)
    assert intervals_overlap(a, b) and intervals_overlap(b, a)
    assert not intervals_overlap(a, c) and not intervals_overlap(c, a)


def test_a_figure_wider_than_the_decimal_context_keeps_its_exact_value():
    from claims.values.value import normalize_decimal

    v = quantity("9999999999999999999999999999", "count")
    assert v.value == Decimal("9999999999999999999999999999")
    assert v.high == Decimal("10000000000000000000000000000")
    assert str(normalize_decimal(Decimal("1E+3"))) == "1000"
    assert str(normalize_decimal(Decimal("2.50"))) == "2.5"


def test_negative_numbers_read_with_a_minus_sign_and_ranges_with_to():
    """A hyphen before a number read as a dash (fresh-user trial): U+2212, "to" between negatives."""
    from claims.verify.compare import span_text

    assert quantity("-33", "percent", approx=True).display() == "about \u221233%"
    assert value_range("-40", "-30", "percent").display() == "\u221240% to \u221230%"
    assert value_range("10", "20", "percent").display() == "10–20%"
    assert span_text(quantity("-33", "percent", approx=True)) == "\u221236.3% to \u221229.7%"
    assert span_text(quantity("2.8", "params", scale=10**12)) == "2.75T–2.85T params"
