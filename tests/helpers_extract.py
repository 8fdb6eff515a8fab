"""Subjects and row helpers several extraction test files share."""

from __future__ import annotations

import datetime as dt

from claims.extract.extractor import extract
from claims.subjects.references import SubjectRef

# Two models of one lab whose variants share a name ("Highspeed").
KIMI_VARIANTS = SubjectRef(
    "kimi-k3.1-pro", ("Kimi K3.1 Pro",), ("Highspeed", "Standard"), "Moonshot AI"
)
K3_VARIANTS = SubjectRef("kimi-k3", ("Kimi K3",), ("Highspeed",), "Moonshot AI")


def variant_rows(text: str):
    """(subject, attribute, qualifiers, claimant) of ``text`` naming a Kimi with variants,
    published 2026-11-20."""
    return [
        (c.subject, c.attribute, c.qualifiers, c.claimant)
        for c in extract(text, [KIMI_VARIANTS, K3_VARIANTS], published=dt.date(2026, 11, 20))
    ]
