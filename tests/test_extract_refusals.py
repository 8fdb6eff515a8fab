"""A refusal of a date is no promise of it ("has no plans to release ... before March
2027" is not before March 2027); a denied date is reported, not dropped silently; a
yearless month follows the clause's tense; a claimant name stops at a sentence end.
Each asserts the exact reading (sentences written for these tests)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims.extract.claimants import find_claimants
from claims.extract.dates import parse_date, scan_dates
from claims.extract.extractor import extract
from claims.subjects.references import SubjectRef
from tracker.cli.main import app

DAY = dt.date(2026, 11, 20)
NOVA = SubjectRef("nova-k2.5-max", ("Nova K2.5 Max",), (), "Orbital AI")
ORCA = SubjectRef("orca-7-thinking", ("Orca 7 Thinking",), (), "Deepwater Labs")


def rows(
    text: str,
    lang: str = "auto",
    warnings: list[str] | None = None,
    subjects: tuple[SubjectRef, ...] = (NOVA,),
):
    return [
        (c.subject, c.attribute, c.value.display(), c.claimant)
        for c in extract(text, list(subjects), lang=lang, published=DAY, warnings=warnings)
    ]


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Orbital AI has no plans to publish the weights of Nova K2.5 Max before May 2027.", "en"),
        ("Orbital AI never intends to open the checkpoints before May 2027.", "en"),
        ("The lab refused to share the checkpoints before May 2027.", "en"),
        ("Orbital AI declines to put the weights online before May 2027.", "en"),
        ("Orbital AI has ruled out publishing its weights before May 2027.", "en"),
        (
            "A Orbital AI não tem planos de abrir os pesos do Nova K2.5 Max antes de maio de 2027.",
            "pt-BR",
        ),
        ("A Orbital AI está sem planos de abrir os pesos antes de maio de 2027.", "pt-BR"),
        ("O laboratório descarta publicar os checkpoints antes de maio de 2027.", "pt-BR"),
        ("A Orbital AI recusou-se a abrir os pesos antes de maio de 2027.", "pt-BR"),
        ("A Orbital AI recusa publicar os pesos antes de maio de 2027.", "pt-BR"),
    ],
)
def test_a_refusal_before_a_date_is_not_before_that_date(text, locale):
    r = parse_date(text, locale, DAY)
    assert (r.iso, r.precision, r.relation, r.denied) == ("2027-04", "month", "after", False)


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        # The negation is in a clause before a comma: the date is a plain promise.
        ("Orbital AI did not give a price, the Nova K2.5 Max weights land before May 2027.", "en"),
        ("A Orbital AI não divulgou o preço, os pesos saem antes de maio de 2027.", "pt-BR"),
        # "not only ... but" negates nothing.
        ("Orbital AI will not only publish a paper but open the weights before May 2027.", "en"),
        # A conjunction ends the negation's reach.
        ("Orbital AI is not a big lab and its weights arrive before May 2027.", "en"),
        # A refusal that is itself negated is doubt: the date reads as written.
        ("Orbital AI did not rule out opening the weights before May 2027.", "en"),
        ("A Orbital AI não descartou abrir os pesos antes de maio de 2027.", "pt-BR"),
    ],
)
def test_a_far_or_governed_negation_leaves_the_date_alone(text, locale):
    r = parse_date(text, locale, DAY)
    assert (r.iso, r.relation, r.denied) == ("2027-05", "before", False)


def test_ten_words_between_negation_and_relation_are_reached():
    text = "Orbital AI não tem planos de abrir os pesos do Nova K2.5 Max antes de maio de 2027"
    assert parse_date(text, "pt-BR", DAY).relation == "after"
    one_more = text.replace("abrir", "abrir já")  # eleven words: out of reach
    assert parse_date(one_more, "pt-BR", DAY).relation == "before"


@pytest.mark.parametrize("when", ["maio", "maio de 2027"])
def test_a_denied_date_is_reported_with_or_without_a_year(when):
    text = f"Os pesos do Nova K2.5 Max não vão sair até {when}."
    (span,) = scan_dates(text, "pt-BR", DAY)
    assert (span.reading.iso, span.reading.denied) == ("2027-05", True)
    notes: list[str] = []
    assert rows(text, "pt", notes) == []
    assert notes == [
        f"at {span.start}: a negated date ('não … até {when}') states no date: skipped"
    ]


def test_extract_command_warns_about_a_denied_date(tmp_path: Path):
    article = tmp_path / "a.txt"
    article.write_text("Os pesos do Nova K2.5 Max não vão sair até maio.\n")
    subjects = tmp_path / "s.toml"
    subjects.write_text(
        '[[subjects]]\nslug = "nova-k2.5-max"\nnames = ["Nova K2.5 Max"]\n'
        'organization = "Orbital AI"\n'
    )
    result = CliRunner().invoke(
        app,
        [
            "claims",
            "extract",
            str(article),
            "--published",
            "2026-11-20",
            "--json",
            "--subjects",
            str(subjects),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "a negated date ('não … até maio') states no date: skipped" in result.stderr


@pytest.mark.parametrize(
    ("text", "locale", "iso"),
    [
        # Future tense: a month already past at publication is next year's...
        ("The checkpoints will be published in September.", "en", "2027-09"),
        ("Os pesos vão ser publicados em setembro.", "pt-BR", "2027-09"),
        ("Orbital AI plans to open the weights on September 9.", "en", "2027-09-09"),
        # ...the publication month and later ones stay in this year (six-month rule aside).
        ("The checkpoints will be published in November.", "en", "2026-11"),
        ("The checkpoints will be published in December.", "en", "2026-12"),
        ("The checkpoints will be published in April.", "en", "2027-04"),
        # Past tense: a month still to come at publication was last year's.
        ("The checkpoints were published in December.", "en", "2025-12"),
        ("Os pesos foram publicados em dezembro.", "pt-BR", "2025-12"),
        ("The checkpoints were published in September.", "en", "2026-09"),
        # A past promise ("were promised for") dates the promise: the six-month rule.
        ("The checkpoints were promised for December.", "en", "2026-12"),
        # No tense: the six-month rule.
        ("Checkpoints: September, says the roadmap.", "en", "2026-09"),
        ("Checkpoints: March, says the roadmap.", "en", "2027-03"),
    ],
)
def test_yearless_month_follows_the_tense_of_its_clause(text, locale, iso):
    assert parse_date(text, locale, DAY).iso == iso


def test_claimant_stops_at_a_sentence_end_and_skips_a_month():
    text = "Nova K2.5 Max weights will ship in June. Orbital AI confirmed this later."
    (m,) = find_claimants(text, ["Orbital AI"])
    assert (m.name, text[m.start : m.end]) == ("Orbital AI", "Orbital AI")
    # The claimant is in the next sentence: the figure's own sentence names none.
    assert rows(text) == [("nova-k2.5-max", "weights_release_date", "on 2027-06", None)]
    (m,) = find_claimants("In June Orbital AI said the weights are ready.", ["Orbital AI"])
    assert m.name == "Orbital AI"


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Orbital AI denied it would publish the Nova K2.5 Max weights in January.", "en"),
        ("Orbital AI denied that it would publish the weights in January 2027.", "en"),
        ("Orbital AI rejected reports that it would open the weights in February 2027.", "en"),
        (
            "A Orbital AI negou que vá publicar os pesos do Nova K2.5 Max em fevereiro de 2027.",
            "pt-BR",
        ),
    ],
)
def test_a_denied_date_states_no_date(text, locale):
    assert parse_date(text, locale, DAY).denied


def test_a_denied_date_is_a_warning_not_a_promise():
    warnings: list[str] = []
    text = "Orbital AI denied it would publish the Nova K2.5 Max weights in January."
    assert rows(text, warnings=warnings, subjects=(NOVA, ORCA)) == []
    assert any("states no date" in w for w in warnings)


def test_a_date_that_was_not_denied_stays_a_promise():
    # "did not deny" is doubt: the date reads as written
    r = parse_date(
        "Orbital AI did not deny it would publish the weights in January 2027.", "en", DAY
    )
    assert (r.iso, r.relation, r.denied) == ("2027-01", "on", False)


@pytest.mark.parametrize(
    "text",
    [
        "Moonshot AI has never missed a deadline so the weights arrive before March 2027",
        "Moonshot AI did not comment because the weights arrive before March 2027",
    ],
)
def test_a_negation_does_not_reach_past_so_or_because(text):
    assert parse_date(text, "en", DAY).relation == "before"
