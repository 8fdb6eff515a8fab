"""Licence candidates: a licence name is never a model, and the words saying a licence is
missing are those of the article's language (Portuguese "no Hugging Face" is "on")."""

from __future__ import annotations

from claims.extract.extractor import extract
from claims.subjects.references import SubjectRef

NIMBUS = SubjectRef("nimbus-3", ("Nimbus 3",), (), "Cirrus Labs")


def licences(text: str, lang: str):
    return [
        (c.subject, c.value.value, c.text)
        for c in extract(text, [NIMBUS], lang=lang)
        if c.attribute == "license"
    ]


def test_portuguese_no_is_not_an_absence_word():
    text = (
        "O Nimbus 3 tem 9 bilhões de parâmetros. Os pesos serão publicados no Hugging Face "
        "sob licença MIT."
    )
    assert licences(text, "pt") == [("nimbus-3", "mit", "MIT")]
    text = "O Nimbus 3 chega ao Hugging Face. Os pesos ficam no repositório sob licença Apache 2.0."
    assert licences(text, "pt") == [("nimbus-3", "apache-2.0", "Apache 2.0")]


def test_absence_words_still_deny_a_licence_in_their_language():
    assert licences("O Nimbus 3 foi publicado sem licença MIT.", "pt") == []
    assert licences("O Nimbus 3 não tem licença MIT.", "pt") == []
    assert licences("Nimbus 3 weights come with no MIT license.", "en") == []
    assert licences("Nimbus 3 weights come under the MIT license.", "en") == [
        ("nimbus-3", "mit", "MIT")
    ]


def test_a_licence_name_is_no_model_for_later_figures():
    text = (
        "Cirrus Labs released Nimbus 3 today. Weights will be published on Hugging Face under the Apache-2.0 "
        "licence by the end of January 2027."
    )
    got = [(c.attribute, c.subject, c.how) for c in extract(text, [NIMBUS], lang="en")]
    assert got == [
        ("license", "nimbus-3", "paragraph"),
        ("weights_release_date", "nimbus-3", "paragraph"),
    ]


def test_licence_names_come_from_the_names_file_and_read_as_the_hub_ids():
    text = "Nimbus 3 ships under a Modified MIT License, like its sibling."
    assert licences(text, "en") == [("nimbus-3", "modified-mit", "Modified MIT")]
    text = "Nimbus 3 weights are released under the Gemma Terms of Use."
    assert licences(text, "en") == [("nimbus-3", "gemma", "Gemma Terms of Use")]
    text = "Os pesos do Nimbus 3 saem sob a licença Apache 2.0."
    assert licences(text, "pt") == [("nimbus-3", "apache-2.0", "Apache 2.0")]


def test_the_licence_word_as_subject_of_a_future_or_modal_verb():
    assert licences("A licença do Nimbus 3 será CC-BY-NC-4.0.", "pt") == [
        ("nimbus-3", "cc-by-nc-4.0", "CC-BY-NC-4.0")
    ]
    assert licences("The licence of Nimbus 3 will be CC-BY-NC-4.0 rather than MIT.", "en") == [
        ("nimbus-3", "cc-by-nc-4.0", "CC-BY-NC-4.0")
    ]
    assert licences("The Nimbus 3 license would be MIT, a source said.", "en") == [
        ("nimbus-3", "mit", "MIT")
    ]


def test_a_negation_in_another_clause_does_not_deny_the_licence():
    text = "Os pesos do Nimbus 3 não saem antes de 2027, e a licença será CC-BY-NC-4.0."
    assert licences(text, "pt") == [("nimbus-3", "cc-by-nc-4.0", "CC-BY-NC-4.0")]
    assert licences("O Nimbus 3 não tem licença definida, mas fala-se em MIT.", "pt") == []


def test_a_licence_the_names_file_lacks_is_read_whole():
    text = "Nimbus 3\n\nLicense\n\nCirrus Nimbus-LM License 2.0\n\nRelease Date\n\n17 Dec 2024\n"
    assert licences(text, "en") == [
        ("nimbus-3", "cirrus-nimbus-lm-license-2.0", "Cirrus Nimbus-LM License 2.0")
    ]
    text = "Nimbus 3 ships under the Cirrus Community License Agreement."
    assert licences(text, "en") == [
        ("nimbus-3", "cirrus-community-license-agreement", "Cirrus Community License Agreement")
    ]
    # words that name no licence: no candidate
    assert licences("Nimbus 3 is released under an Open-Source License.", "en") == []


def test_an_end_user_license_agreement_names_no_licence():
    text = (
        "Nimbus 3\n\n  • End User License Agreements and Terms of Use: View\n\n"
        "  • License: Cirrus Community License\n"
    )
    assert licences(text, "en") == [
        ("nimbus-3", "cirrus-community-license", "Cirrus Community License")
    ]
