"""Is one text the other decoded with the wrong charset? (cases/C28)

A page's UTF-8 bytes read as windows-1252 or latin-1 give mojibake ("入札" -> "å…¥æœ\xad").
Such a difference between an old and a new reading is a decoding error, not a change:
the guard is that one text, encoded in the wrong charset and decoded as UTF-8, gives the
other back.
"""

from __future__ import annotations

WRONG_CHARSETS = ("cp1252", "latin-1")


def _undo(text: str) -> set[str]:
    out = set()
    for charset in WRONG_CHARSETS:
        try:
            out.add(text.encode(charset).decode("utf-8"))
        except (UnicodeEncodeError, UnicodeDecodeError):
            continue
    return out


def is_misdecoding(old: str, new: str) -> bool:
    """True when ``new`` is ``old`` mis-decoded (or the other way round): ``new``
    encoded as windows-1252 or latin-1 and decoded as UTF-8 is ``old``. Equal texts and
    plain ASCII changes are not misdecodings."""
    if old == new:
        return False
    return old in _undo(new) or new in _undo(old)
