"""A subject named by another subject's claim (qualifier ``relative_to`` of a price
change: ``relative_to = "kimi-k3"``) is shown by its display name, linked to its page,
never by its slug: the card's "Price change (vs Kimi K3)", a fact's and sources.html's
"relative to: Kimi K3" (a fresh-user trial read "(vs kimi-k3)"). A ``relative_to`` that
is no subject's slug (a variant: "Highspeed vs Standard") is shown as written."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tracker.website.marks import esc

# "relative to: kimi-k3" in qualifiers text (claims.vocabulary.qualifiers_text: keys
# sorted, ", " between them; a slug holds no comma)
_RELATIVE = re.compile(r"(?<![\w-])relative to: ([^,<]+)")


def subject_link(slug: str, names: Mapping[str, str], root: str) -> str | None:
    """``<a href="{root}subjects/kimi-k3/index.html">Kimi K3</a>``; None when no
    subject has ``slug``."""
    name = names.get(slug)
    if name is None:
        return None
    return f'<a href="{esc(root)}subjects/{esc(slug)}/index.html">{esc(name)}</a>'


def named_quals(html: str, names: Mapping[str, str] | None, root: str) -> str:
    """Qualifiers as page HTML (already escaped) with a ``relative to: <slug>`` of a
    known subject as its linked name (:func:`subject_link`); unchanged otherwise."""
    if not names or "relative to: " not in html:
        return html

    def named(m: re.Match[str]) -> str:
        link = subject_link(m.group(1).strip(), names, root)
        return f"relative to: {link}" if link else m.group(0)

    return _RELATIVE.sub(named, html)


def named_quals_text(text: str, names: Mapping[str, str] | None) -> str:
    """Qualifiers as plain text (search's detail) with a ``relative to: <slug>`` of a
    known subject as its display name (``relative to: Kimi K3``); unchanged otherwise."""
    if not names or "relative to: " not in text:
        return text

    def named(m: re.Match[str]) -> str:
        name = names.get(m.group(1).strip())
        return f"relative to: {name}" if name else m.group(0)

    return _RELATIVE.sub(named, text)


def label_html(
    label: str, quals: Mapping[str, Any], names: Mapping[str, str] | None, root: str, href: str
) -> str:
    """A card line's heading linked to ``href`` (its detail): ``Price change (vs Kimi
    K3)`` with the subject's name linked to its page, outside the heading's own link (a
    link holds no link); the label escaped as it is otherwise."""
    base = str(quals.get("relative_to") or "")
    tail = f"vs {base})"  # "Price change (vs kimi-k3)", "Price factor (Highspeed vs x)"
    link = subject_link(base, names, root) if names and base and label.endswith(tail) else None
    if link is None:
        return f'<a href="{esc(href)}">{esc(label)}</a>'
    head, _, rest = label.removesuffix(tail).partition(" (")
    variant = f"{esc(rest.strip())} " if rest.strip() else ""
    return f'<a href="{esc(href)}">{esc(head)}</a> ({variant}vs {link})'
