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
