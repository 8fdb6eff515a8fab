"""claims.values.safetext: each destination's escaping on its own (issue 20, item 3)."""

from __future__ import annotations

from claims.values.safetext import chat_text, csv_cell, terminal_text, xml_text


def test_xml_text_replaces_what_xml_forbids_only():
    assert xml_text("a\x00b\x1bc\td\ne\rf\ud800") == "a\ufffdb\ufffdc\td\ne\rf\ufffd"
    assert xml_text("入札 <b>&") == "入札 <b>&"


def test_terminal_text_shows_controls_and_bidi_as_escapes():
    assert terminal_text("\x1b]0;owned\x07x") == "\\x1b]0;owned\\x07x"
    assert terminal_text("a\u202eb\x9b1m") == "a\\u202eb\\x9b1m"
    assert terminal_text("line\nnext\ttab [/]") == "line\nnext\ttab [/]"


def test_csv_cell_prefixes_formula_starts():
    cells = ["=1+1", "+1", "-2+3", "@SUM(1)", "\tx", "\rx", "mit", "0.45", "", "a=b"]
    assert [csv_cell(c) for c in cells] == [
        "'=1+1", "'+1", "'-2+3", "'@SUM(1)", "'\tx", "'\rx", "mit", "0.45", "", "a=b",
    ]  # fmt: skip


def test_chat_text_neutralizes_mentions_and_links():
    out = chat_text("@everyone @Here <@U1> <!channel> see [docs](https://evil.example/x)\x1b")
    assert out == (
        "@\u2060everyone @\u2060Here <\u2060@U1> <\u2060!channel> "
        "see docs (`https://evil.example/x`)"
    )
    assert chat_text("mail me@example.com") == "mail me@example.com"
