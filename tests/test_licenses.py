"""Licence identifiers from Hub payloads, properties and LICENSE text changes."""

from __future__ import annotations

from helpers_verify import real

from claims.readings.licenses import (
    LicenseReading,
    hub_license,
    license_changed,
    license_has_property,
    license_property,
    license_text_sha256,
    normalize_license_text,
    spdx_id,
)


def test_other_with_license_name():
    info = real("synthetic_hf_model_info_int4_compressed_tensors_kimi_like.json")
    r = hub_license(info["cardData"], ["license:other"])
    assert (r.id, r.provenance, r.warnings) == ("modified-mit", "cardData.license_name", ())
    assert spdx_id("modified-mit") is None


def test_real_bert_apache():
    info = real("hf_model_info_google-bert_bert-base-uncased.json")
    r = hub_license(info["cardData"], info["tags"])
    assert (r.id, r.provenance) == ("apache-2.0", "cardData.license")
    assert spdx_id(r.id) == "Apache-2.0"


def test_listing_item_tags_only():
    items = real("hf_models_list_default_fields_excerpt_2025-11.json")
    k2 = next(i for i in items if i["id"] == "moonshotai/Kimi-K2-Thinking")
    r = hub_license(None, k2["tags"])
    assert r.id == "other"
    assert r.warnings == ("license is 'other' without a license_name",)


def test_free_text_normalization():
    assert normalize_license_text("Modified MIT") == "modified-mit"
    assert normalize_license_text("Apache 2.0") == "apache-2.0"
    assert normalize_license_text("MIT") == "mit"


def test_properties_are_claims_about_a_licence():
    assert license_property("permissive") == "permissive"
    assert license_property("commercial use allowed") == "commercial_use"
    assert license_property("modified-mit") is None
    assert license_has_property("apache-2.0", "permissive") is True
    assert license_has_property("modified-mit", "commercial_use") is True
    assert license_has_property("modified-mit", "permissive") is None


def test_text_hash_change_is_a_licence_change_under_same_id():
    a = license_text_sha256("Modified MIT License\r\nCopyright 2025\n")
    same = license_text_sha256("Modified MIT License\nCopyright 2025   \n")
    b = license_text_sha256("Modified MIT License\nCopyright 2025\nDisplay Kimi K2 on the UI.\n")
    assert a == same and a != b
    old, new = LicenseReading("modified-mit", "x", a), LicenseReading("modified-mit", "x", b)
    assert license_changed(old, new) == "LICENSE text changed under the same id modified-mit"
    assert license_changed(old, LicenseReading("modified-mit", "x", same)) is None
    assert license_changed(old, LicenseReading("mit", "x", a)) == (
        "licence id changed from modified-mit to mit"
    )
