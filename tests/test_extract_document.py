"""The annotated document (claims.extract.document): lines, bullets, "label: value"
lines, tables and segments, with offsets into the (hyphen-normalised) text."""

from __future__ import annotations

from claims.extract.document import Document

TEXT = (
    "Nova\u20112 is here. It is fast.\n"
    "- MMLU-Pro: 75.9 → 81.2\n"
    "- a plain bullet\n"
    "Context: 128K tokens\n"
    "\n"
    "| Benchmark | Nova 2 |\n|---|---|\n| GPQA | 71.5 |\n"
)


def test_lines_bullets_and_labels():
    doc = Document.read(TEXT)
    assert doc.text.startswith("Nova-2 is here.") and len(doc.text) == len(TEXT)
    shown = [
        (doc.text[ln.start : ln.end], ln.bullet, doc.text[slice(*ln.label)] if ln.label else None)
        for ln in doc.lines
    ]
    assert shown[:5] == [
        ("Nova-2 is here. It is fast.", False, None),
        ("- MMLU-Pro: 75.9 → 81.2", True, "MMLU-Pro"),
        ("- a plain bullet", True, None),
        ("Context: 128K tokens", False, "Context"),
        ("", False, None),
    ]
    pos = TEXT.index("81.2")
    assert doc.line_at(pos) == doc.lines[1]


def test_segments_and_tables_of_the_same_text():
    doc = Document.read(TEXT)
    assert [s.text for s in doc.segments.sentences][:2] == ["Nova-2 is here.", "It is fast."]
    (table,) = doc.tables
    assert [[c.text for c in r] for r in table.rows] == [["GPQA", "71.5"]]


def test_a_line_label_says_what_its_figure_is():
    import datetime as dt

    from claims.extract.extractor import extract
    from claims.subjects.references import SubjectRef

    nova = SubjectRef("nova-2", ("Nova 2",))
    text = "Nova 2 pricing\n- Input: $1.20 per million tokens\n- Output: $4.80 per million tokens\n- Context: 128K tokens\n"
    got = extract(text, [nova], lang="en", published=dt.date(2026, 3, 1))
    assert [(c.subject, c.attribute, c.text) for c in got] == [
        ("nova-2", "price_input_usd_per_mtok", "$1.20 per million"),
        ("nova-2", "price_output_usd_per_mtok", "$4.80 per million"),
        ("nova-2", "context_window", "128K"),
    ]


def test_a_claimant_name_stays_on_its_line():
    from claims.extract.claimants import find_claimants

    text = "Vega launches Nova 2\n\nVega Labs on Tuesday announced Nova 2."
    assert [c.name for c in find_claimants(text, ["Vega Labs"])] == ["Vega Labs"]


def test_a_glued_list_item_is_a_sentence_of_its_own_and_offsets_stay():
    text = "- It had 16k tokens.-Orion 5 came later. U.S.-China trade and a 70B-class.-model stay."
    doc = Document.read(text)
    assert len(doc.text) == len(text)
    assert [s.text for s in doc.segments.sentences] == [
        "- It had 16k tokens.",
        "Orion 5 came later.",
        "U.S.-China trade and a 70B-class.-model stay.",
    ]


WRAPPED = (
    "Vega Systems on Monday announced Orion-5 Max, a dense model with 9 billion parameters\n"
    "and a context window of 128K tokens. Through its API, Orion-5 Max costs $0.10 per\n"
    "million input tokens and $0.40 per million output tokens, the company said in a\n"
    "statement published on its website.\n"
    "\n"
    "Context window\n"
    "128K\n"
    "Parameters: 9 billion\n"
    "Licence: Apache 2.0\n"
)


def test_a_hard_wrapped_paragraph_is_one_line_and_offsets_stay():
    doc = Document.read(WRAPPED)
    assert len(doc.text) == len(WRAPPED)
    paragraph = WRAPPED.split("\n\n")[0]
    assert doc.text[: len(paragraph)] == paragraph.replace("\n", " ")
    # the sentence that ran over two lines is one sentence
    assert (
        "costs $0.10 per million input tokens and $0.40 per million output tokens"
        in [s.text for s in doc.segments.sentences][1]
    )
    # a spec card's short lines and "label: value" lines keep their breaks
    assert doc.text[len(paragraph) :] == WRAPPED[len(paragraph) :]


def test_lines_ending_their_sentences_are_not_joined():
    text = (
        "Orion-5 Max has 9 billion parameters and a window of 128K tokens in total.\n"
        "Vega Systems charges $0.10 per million input tokens for the model today.\n"
        "The weights are on Hugging Face under the Apache 2.0 licence as of this week.\n"
    )
    assert Document.read(text).text == text


def test_tables_flattened_or_aligned_by_spaces_keep_their_rows():
    flattened = (
        "Feature Orion-5 Max Stratus-2 Pro and the other model in the same family\n"
        "Positioning Flagship for long agentic tasks Everyday use and chat\n"
        "MMLU-Pro 81.0% 77.5%\n"
    )
    aligned = (
        "Model              Parameters    Input price per million    Output price\n"
        "Orion-5 Max        9B            $0.10                      $0.40 per million\n"
    )
    for text in (flattened, aligned):
        assert Document.read(text).text == text
