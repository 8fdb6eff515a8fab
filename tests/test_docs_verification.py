"""docs/verification.md has one section per claimable attribute, each naming its primary
sources, its rule and an example verdict."""

from __future__ import annotations

import re
from pathlib import Path

from claims.vocabulary import ATTRIBUTES, VERDICT_STATUSES

DOC = (Path(__file__).resolve().parent.parent / "docs" / "verification.md").read_text()
# Read by adapters from a repo, never stated by a claim (docs/data.md, Attributes).
OBSERVED_ONLY = {
    "weights_available",
    "gated",
    "repo_created",
    "hub_params_raw",
    "license_text_sha256",
}


def _sections() -> dict[str, str]:
    part = DOC[DOC.index("## Per attribute") :]
    heads = list(re.finditer(r"^### (.+)$", part, re.M))
    out = {}
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(part)
        for name in re.findall(r"`([a-z_]+)`", m.group(1)):
            out[name] = part[m.end() : end]
    return out


def test_every_claimable_attribute_has_sources_a_rule_and_an_example():
    sections = _sections()
    assert set(ATTRIBUTES) - OBSERVED_ONLY <= set(sections)
    for name, text in sections.items():
        assert "Primary source" in text, name
        assert "Example" in text or "example" in text, name
        examples = re.findall(r"`(\w+) —", text)
        assert examples and set(examples) <= set(VERDICT_STATUSES), name


def test_the_readmes_overdue_count_is_the_one_count_of_the_code():
    """README's `tracker status` row gives worked examples of the overdue count; each is
    what claims.verify.promises.days_past gives (calendar days from the deadline)."""
    import datetime as dt

    from claims.values.value import date_value
    from claims.verify.promises import days_past, deadline_of

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    m = re.search(
        r"\(`(before|on) (\d{4}-\d\d-\d\d)` as of (\d{4}-\d\d-\d\d) (\d\d:\d\d) UTC: overdue "
        r"by (\d+) days; `(before|on) (\d{4}-\d\d-\d\d)`: (\d+)\)",
        readme,
    )
    assert m, "README's tracker status row has no worked overdue example"
    at = dt.datetime.fromisoformat(f"{m[3]}T{m[4]}+00:00")
    for relation, day, days in ((m[1], m[2], m[5]), (m[6], m[7], m[8])):
        promise = date_value(day, relation)
        assert days_past(deadline_of(promise), at) == int(days), (relation, day)
