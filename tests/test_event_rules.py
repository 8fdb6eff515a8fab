"""claims.events rules: a watch's observations before/after in, events out (one test per
path of landed vs discovered, first readings, gone and renamed repos)."""

from __future__ import annotations

import datetime as dt

from claims.events import (
    Promise,
    WatchHistory,
    WeightsSighting,
    first_reading_event,
    gone_event,
    lateness,
    weights_events,
)
from claims.values.timefmt import utc_minute

SEEN = dt.datetime(2026, 12, 1, 6, 0, tzinfo=dt.UTC)
BEFORE = dt.datetime(2026, 11, 30, 18, 0, tzinfo=dt.UTC)
REPO = "acme/Orca-9B"


def sighting(**kw):
    base = {"subject": "Acme Orca 9B", "repo": REPO, "seen_at": SEEN}
    return WeightsSighting(**(base | kw))


def test_a_repo_listed_at_the_watchs_first_successful_check_is_discovered():
    [ev] = weights_events(sighting(created_at="2025-03-01T09:12:00.000Z"), WatchHistory())
    assert (ev.kind, ev.title) == (
        "subject_discovered",
        "Acme Orca 9B: weights already on Hugging Face at the first check (acme/Orca-9B)",
    )
    assert ev.detail == {
        "repo": REPO,
        "first_seen": "2026-12-01T06:00:00+00:00",
        "created_at": "2025-03-01T09:12:00.000Z",
        "at_first_check": True,
        "summary": "acme/Orca-9B was already listed at the first check (repo created 2025-03-01)",
    }


def test_a_repo_that_appears_after_a_successful_check_landed_between_the_two():
    """The issue's missed landing: the earlier check listed nothing (or no match)."""
    s = sighting(
        license="apache-2.0",
        gated="manual",
        promises=(Promise("by", "2026-11-04", dt.date(2026, 11, 4)),),
        url="https://huggingface.co/acme/Orca-9B",
    )
    [ev] = weights_events(s, WatchHistory(previous_success=BEFORE))
    assert ev.kind == "weights_landed"
    assert ev.title == (
        "Acme Orca 9B: weights available on Hugging Face (acme/Orca-9B); licence apache-2.0, "
        "gated (manual); 27 days after the promised 2026-11-04"
    )
    assert ev.detail == {
        "repo": REPO,
        "first_seen": "2026-12-01T06:00:00+00:00",
        "url": "https://huggingface.co/acme/Orca-9B",
        "previous_check": "2026-11-30T18:00:00+00:00",
        "license": "apache-2.0",
        "gated": "manual",
        "lateness": [
            {
                "promise": "by 2026-11-04",
                "deadline": "2026-11-04",
                "days_late": 27,
                "text": "27 days after the promised 2026-11-04",
            }
        ],
        "summary": "acme/Orca-9B: first seen 2026-12-01 06:00 UTC (the check before "
        "2026-11-30 18:00 UTC); licence apache-2.0, gated (manual); 27 days after the "
        "promised 2026-11-04",
    }


def test_a_model_url_that_went_from_not_found_to_public_is_a_landing():
    [ev] = weights_events(sighting(), WatchHistory(last_error_kind="not_found"))
    assert (ev.kind, ev.title) == (
        "weights_landed",
        "Acme Orca 9B: weights available on Hugging Face (acme/Orca-9B)",
    )
    assert "previous_check" not in ev.detail  # no successful check to bound it
    assert ev.detail["not_public_before"] is True


def test_a_watch_that_only_failed_for_other_reasons_has_not_looked():
    [ev] = weights_events(sighting(), WatchHistory(last_error_kind="timeout"))
    assert ev.kind == "subject_discovered" and ev.detail["at_first_check"] is True


def test_a_repo_another_watch_already_saw_is_no_new_event():
    assert weights_events(sighting(known_repos=(REPO,)), WatchHistory(BEFORE)) == []


def test_a_second_repo_of_the_subject_is_discovered_not_landed():
    [ev] = weights_events(sighting(repo="acme/Orca-9B-FP8", known_repos=(REPO,)), WatchHistory())
    assert (ev.kind, ev.title) == (
        "subject_discovered",
        "Acme Orca 9B: new weights repo acme/Orca-9B-FP8",
    )


def test_a_renamed_repo_is_one_rename_event_and_no_new_release():
    """cases/C34: the Hub answered acme/Orca-9B with acme-labs/Orca-9B."""
    s = sighting(repo="acme-labs/Orca-9B", known_repos=(REPO,), renamed_from=REPO)
    [ev] = weights_events(s, WatchHistory(BEFORE))
    assert (ev.kind, ev.title, ev.per_watch) == (
        "repo_renamed",
        "Acme Orca 9B: weights repo acme/Orca-9B is now acme-labs/Orca-9B (renamed or transferred)",
        False,
    )
    assert ev.detail == {"from": REPO, "to": "acme-labs/Orca-9B", "seen_at": SEEN.isoformat()}


def test_a_transferred_repo_is_known_by_its_old_created_at():
    """cases/C34: listed under the new org with the old createdAt: a transfer."""
    stamp = "2025-03-01T09:12:00.000Z"
    s = sighting(
        repo="acme-labs/Orca-9B", created_at=stamp, known_repos=(REPO,), created={REPO: stamp}
    )
    assert [e.kind for e in weights_events(s, WatchHistory(BEFORE))] == ["repo_renamed"]


def test_lateness_against_each_promise():
    got = lateness(
        dt.date(2026, 12, 1),
        [
            Promise("before", "2026-11-04", dt.date(2026, 11, 3)),
            Promise("by", "2026-12", dt.date(2026, 12, 31)),
            Promise("after", "2026-10", None),
        ],
    )
    assert [(x["promise"], x["days_late"], x["text"]) for x in got] == [
        ("before 2026-11-04", 28, "28 days after the promised before 2026-11-04"),
        ("by 2026-12", 0, "on time for 2026-12"),
    ]


def test_a_first_licence_and_access_reading_is_its_own_event():
    ev = first_reading_event("Acme Orca 9B", REPO, {"license": "apache-2.0", "gated": "auto"}, SEEN)
    assert ev is not None
    assert (ev.kind, ev.title) == (
        "license_observed",
        "Acme Orca 9B: licence apache-2.0, gated (auto) (acme/Orca-9B)",
    )
    assert ev.detail == {
        "repo": REPO,
        "observed_at": SEEN.isoformat(),
        "gated": "auto",
        "license": "apache-2.0",
        "summary": "acme/Orca-9B: licence apache-2.0, gated (auto)",
    }
    only_gating = first_reading_event("Acme Orca 9B", REPO, {"gated": "false"}, SEEN)
    assert only_gating is not None and only_gating.title == "Acme Orca 9B: not gated (acme/Orca-9B)"
    assert first_reading_event("Acme Orca 9B", REPO, {}, SEEN) is None


def test_a_repo_gone_from_a_listing_is_not_deleted_and_a_renamed_one_is_not_gone():
    where = "no longer listed in the Hugging Face org acme"
    ev = gone_event("Acme Orca 9B", REPO, where, "weights_available", {"repo": REPO}, BEFORE, SEEN)
    assert ev is not None
    assert (ev.kind, ev.title) == (
        "repo_disappeared",
        "Acme Orca 9B: acme/Orca-9B is no longer listed in the Hugging Face org acme",
    )
    assert ev.detail == {
        "attribute": "weights_available",
        "qualifiers": {"repo": REPO},
        "last_seen": BEFORE.isoformat(),
        "missing_at": SEEN.isoformat(),
        "summary": f"acme/Orca-9B: {where}; last seen public {utc_minute(BEFORE)} "
        "(private or removed; its history is kept)",
    }
    renamed = gone_event(
        "Acme Orca 9B", REPO, where, "weights_available", {"repo": REPO}, BEFORE, SEEN,
        renamed_to="acme-labs/Orca-9B",
    )  # fmt: skip
    assert renamed is None
