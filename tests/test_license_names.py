"""claims/readings/license_names.toml through claims.readings.licenses: licence names and
ids compared case-insensitively, and a card's metadata migration read as the same
licence (cases/C22)."""

from __future__ import annotations

import pytest

from claims.readings.licenses import (
    ALIASES,
    NAMES_FILE,
    hub_license,
    license_link,
    normalize_license_text,
    spdx_id,
)


@pytest.mark.parametrize(
    ("text", "hub_id"),
    [
        ("apache-2.0", "apache-2.0"),
        ("Apache-2.0", "apache-2.0"),
        ("Apache License 2.0", "apache-2.0"),
        ("Apache 2.0", "apache-2.0"),
        ("gemma-terms-of-use", "gemma"),
        ("Gemma Terms of Use", "gemma"),
        ("gemma", "gemma"),
        ("llama2", "llama2"),
        ("Modified MIT", "modified-mit"),
        ("MIT", "mit"),
    ],
)
def test_names_and_ids_read_as_one_hub_id(text, hub_id):
    assert normalize_license_text(text) == hub_id


def test_a_card_moving_from_other_plus_name_to_the_hub_id_reads_the_same_licence():
    t1 = hub_license(
        {"license": "other", "license_name": "gemma-terms-of-use",
         "license_link": "https://ai.google.dev/gemma/terms"},
        ["license:other"],
    )  # fmt: skip
    t2 = hub_license({"license": "gemma"}, ["license:gemma"])
    assert (t1.id, t1.provenance, t2.id, t2.provenance) == (
        "gemma", "cardData.license_name", "gemma", "cardData.license",
    )  # fmt: skip


def test_hub_ids_without_an_spdx_id_are_never_mapped_to_one():
    assert [spdx_id(i) for i in ("llama2", "llama3.1", "gemma", "apache-2.0")] == [
        None, None, None, "Apache-2.0",
    ]  # fmt: skip
    # no licence file known and no SPDX id: no link (never the repo page), saying why
    assert license_link("gemma", "acme/Orca-9B").url is None
    assert license_link("mit").url == "https://spdx.org/licenses/MIT.html"
    assert license_link("other").url is None


def test_the_names_file_is_read_whole():
    lines = [
        ln for ln in NAMES_FILE.read_text(encoding="utf-8").splitlines()
        if ln.startswith('"')
    ]  # fmt: skip
    assert len(ALIASES) == len(lines) == 14
