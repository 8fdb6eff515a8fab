"""Claim fields a fresh-user trial got past `tracker load`: a unit that is not the
attribute's, a variant the subject does not have; and the wording of the unknown
subject / adapter and date errors (named at their line, with the nearest known name)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from claims.curated.loader import DataFileError, load_data

SUBJECTS = '[[subject]]\nslug = "kimi-k3"\nname = "Kimi K3"\nvariants = ["Mini"]\n\n'
SUBJECTS += '[[subject]]\nslug = "kimi-k2-thinking"\nname = "Kimi K2 Thinking"\n'


def _folder(tmp_path: Path, claim: str) -> Path:
    """A data folder with two subjects and one claims file holding ``claim`` (TOML lines
    after ``[[claim]]``, which is line 4 of the file)."""
    data = tmp_path / "data"
    (data / "claims").mkdir(parents=True)
    (data / "subjects.toml").write_text(SUBJECTS, encoding="utf-8")
    (data / "claims" / "a.toml").write_text(
        f'[source]\nkey = "a"\ntitle = "A"\n[[claim]]\n{claim}', encoding="utf-8"
    )
    return data


def _error(data: Path) -> tuple[int | None, str, str]:
    with pytest.raises(DataFileError) as err:
        load_data(data)
    assert err.value.path == str(data / "claims" / "a.toml")
    return err.value.line, err.value.field, err.value.message


PRICE = 'subject = "kimi-k3"\nattribute = "price_input_usd_per_mtok"\nvalue = "0.6"\n'


@pytest.mark.parametrize("unit", ["parsecs", "USD/1M tokens"])
def test_a_unit_that_is_not_the_attributes_is_refused_at_its_line(tmp_path, unit):
    """`unit = "parsecs"` on a price loaded and showed `0.6 parsecs`; a unit never
    converts, so it is the attribute's own or none."""
    data = _folder(tmp_path, PRICE + f'unit = "{unit}"\n')
    assert _error(data) == (
        8,
        "claim[0].unit",
        f"price_input_usd_per_mtok is in usd_per_mtok, not '{unit}': leave unit out (the "
        'figure is then in usd_per_mtok) or set it to "usd_per_mtok"; units are not converted',
    )


def test_the_attributes_own_unit_or_any_unit_where_it_has_none_loads(tmp_path):
    data = _folder(
        tmp_path,
        PRICE + 'unit = "usd_per_mtok"\n\n[[claim]]\nsubject = "kimi-k3"\n'
        'attribute = "benchmark_score"\nvalue = "71"\nunit = "points"\n'
        'qualifiers = { benchmark = "X" }\n',
    )
    got = [(c.value.display(), c.value.unit) for c in load_data(data).claims]
    assert got == [("$0.60 per 1M tokens", "usd_per_mtok"), ("71 points", "points")]


@pytest.mark.parametrize(
    ("variant", "subject", "hint"),
    [
        ("Maxi", "kimi-k3", "known: Mini"),
        ("Mimi", "kimi-k3", "did you mean 'Mini'?"),
        ("Mini", "kimi-k2-thinking", "it lists no variants"),
    ],
)
def test_a_variant_the_subject_does_not_have_is_refused(tmp_path, variant, subject, hint):
    data = _folder(
        tmp_path,
        f'subject = "{subject}"\nattribute = "total_params"\nvalue = "1T"\n'
        f'qualifiers = {{ variant = "{variant}" }}\n',
    )
    assert _error(data) == (
        8,
        "claim[0].qualifiers",
        f"variant '{variant}' is not a variant of {subject} ({hint}); fix the name, or add "
        "it to that subject's variants in subjects.toml",
    )


def test_a_known_variant_loads(tmp_path):
    data = _folder(
        tmp_path,
        'subject = "kimi-k3"\nattribute = "total_params"\nvalue = "1T"\n'
        'qualifiers = { variant = "Mini" }\n',
    )
    assert [c.qualifiers for c in load_data(data).claims] == [{"variant": "Mini"}]


@pytest.mark.parametrize(
    ("slug", "hint"),
    [
        ("kimi-k4", "did you mean 'kimi-k3'?"),
        ("gpt-9", "known: kimi-k2-thinking, kimi-k3"),  # was a Python list
    ],
)
def test_an_unknown_subject_names_the_nearest_or_the_known_ones(tmp_path, slug, hint):
    data = _folder(tmp_path, f'subject = "{slug}"\nattribute = "total_params"\nvalue = "1T"\n')
    assert _error(data) == (5, "claim[0].subject", f"unknown subject '{slug}' ({hint})")


@pytest.mark.parametrize(
    ("adapter", "hint"),
    [
        ("hugingface_org", "did you mean 'huggingface_org'?"),
        ("nosuch", "known: html_page, huggingface_org"),
    ],
)
def test_an_unknown_adapter_names_the_nearest_or_the_known_ones(tmp_path, adapter, hint):
    data = tmp_path / "data"
    data.mkdir()
    (data / "watches.toml").write_text(
        f'[[watch]]\nname = "w"\nadapter = "{adapter}"\nurl = "https://a.example/"\n'
    )
    with pytest.raises(DataFileError) as err:
        load_data(data, known_adapters={"huggingface_org", "html_page"})
    assert (err.value.line, err.value.field, err.value.message) == (
        3,
        "watch[0].adapter",
        f"unknown adapter '{adapter}' ({hint})",
    )


def test_the_date_error_says_a_month_is_accepted_too(tmp_path):
    claim = 'subject = "kimi-k3"\nattribute = "release_date"\nvalue = "{}"\n'
    data = _folder(tmp_path, claim.format("2026-12"))
    assert _error(data) == (
        7,
        "claim[0].value",
        "'2026-12': expected on, before, by or after, then a day (YYYY-MM-DD) or a month "
        "(YYYY-MM), e.g. 'before 2026-11-04' or 'by 2026-12'",
    )
    data = _folder(tmp_path / "ok", claim.format("by 2026-12"))
    assert [c.value.display() for c in load_data(data).claims] == ["by 2026-12"]


def _error_in(data: Path, file: str) -> tuple[int | None, str, str]:
    with pytest.raises(DataFileError) as err:
        load_data(data)
    assert err.value.path == str(data / file)
    return err.value.line, err.value.field, err.value.message


def test_the_same_claim_twice_in_a_file_is_refused_naming_the_first(tmp_path):
    """It was stored once with the second one's `raw`, and a fresh load said "1 updated"."""
    claim = 'subject = "kimi-k3"\nattribute = "total_params"\nvalue = "3T"\nraw = "3T"\n'
    data = _folder(tmp_path, claim + "\n[[claim]]\n" + claim.replace('raw = "3T"', 'raw = "3 tri"'))
    assert _error(data) == (
        13,
        "claim[1].value",
        "the same claim as claim[0] (line 4): same subject, attribute, qualifiers, value "
        "and claimant; keep one",
    )


@pytest.mark.parametrize(
    ("extra", "line", "field", "message"),
    [
        ('exact = "false"\n', 8, "claim[0].exact", "expected true or false, got 'false'"),
        ('stated_date = "last week"\n', 8, "claim[0].stated_date",
         "'last week' is not a date (YYYY-MM-DD or YYYY-MM)"),
    ],
)  # fmt: skip
def test_claim_field_types_the_toml_reader_lets_through(tmp_path, extra, line, field, message):
    """`exact = "false"` was read with bool() and so counted as exact."""
    data = _folder(
        tmp_path, 'subject = "kimi-k3"\nattribute = "total_params"\nvalue = "3T"\n' + extra
    )
    assert _error(data) == (line, field, message)


def test_a_toml_number_keeps_the_precision_it_was_written_with(tmp_path):
    """`value = 2.00` reached the parser as the float 2.0: precision 0.1, not 0.01."""
    data = _folder(tmp_path, PRICE.replace('value = "0.6"', "value = 2.00"))
    (claim,) = load_data(data).claims
    assert (claim.value.display(), claim.value.interval()) == (
        "$2.00 per 1M tokens",
        (Decimal("1.995"), Decimal("2.005")),
    )


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ('published_precision = "day"\n', "given without published"),
        ('published = "2026-10-27"\npublished_precision = "month"\n',
         "month, but published '2026-10-27' is a day (write YYYY-MM)"),
    ],
)  # fmt: skip
def test_a_publication_precision_that_contradicts_its_date_is_refused(tmp_path, source, message):
    data = _folder(tmp_path, PRICE)
    path = data / "claims" / "a.toml"
    path.write_text(path.read_text().replace('title = "A"\n', 'title = "A"\n' + source))
    line, field, got = _error(data)
    assert (field, got) == ("source.published_precision", message)
    assert path.read_text().splitlines()[line - 1].startswith("published_precision")


def test_an_alias_two_subjects_give_is_refused_at_the_second(tmp_path):
    data = _folder(tmp_path, PRICE)
    (data / "subjects.toml").write_text(
        SUBJECTS.replace(
            'name = "Kimi K2 Thinking"\n', 'name = "Kimi K2 Thinking"\naliases = ["kimi k3"]\n'
        )
    )
    assert _error_in(data, "subjects.toml") == (
        9,
        "subject[1].aliases",
        "'kimi k3' also names subject 'kimi-k3' (line 1); an alias names one subject",
    )


def test_a_variant_in_another_case_is_the_listed_one(tmp_path):
    """A trial: `variant = "fast"` was refused for a listed "Fast", though qualifiers
    compare ignoring case; it is stored with the listed spelling."""
    data = _folder(
        tmp_path,
        'subject = "kimi-k3"\nattribute = "total_params"\nvalue = "1T"\n'
        'qualifiers = { variant = "mini" }\n',
    )
    (claim,) = load_data(data).claims
    assert claim.qualifiers == {"variant": "Mini"}


@pytest.mark.parametrize(
    ("key_line", "message"),
    [
        ("", "required: a lower-case slug naming the source (e.g. wire-orion-2)"),
        (
            'key = "Wire Orion"\n',
            "'Wire Orion' is not a lower-case slug (letters, digits and dashes)",
        ),
    ],
)
def test_a_missing_or_malformed_source_key_says_which(tmp_path, key_line, message):
    """A trial's key that was present but not a slug read "required lower-case slug"."""
    data = _folder(tmp_path, PRICE)
    path = data / "claims" / "a.toml"
    path.write_text(path.read_text().replace('key = "a"\n', key_line))
    with pytest.raises(DataFileError) as err:
        load_data(data)
    assert (err.value.field, err.value.message) == ("source.key", message)
