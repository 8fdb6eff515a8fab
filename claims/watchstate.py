"""A watch's health in one place: which state it is in, what its state reads, and which
error is current, as ``tracker watches`` (text and ``--json``), the site's watches page
and ``tracker status`` show them. Pure: it reads the watch row's stored fields.

The states (:data:`WATCH_STATES`) and how a row gets each, first match wins:

- ``retired``: the data files no longer define it; it runs no more, so its last
  failures and errors say nothing (none shown).
- ``failing`` / ``retrying``: its last check failed (``consecutive_failures`` > 0, or
  stored state ``failing``): ``failing`` from the threshold (the cycle stores state
  ``failing``), ``retrying`` below it. Its error is current. A cycle that skipped it
  since does not hide this: the skip (its ``skip_reason``, stored apart from the
  error) is shown beside it (``failing (3 in a row); skipped: TRACKER_AA_API_KEY not
  set``) and the error stays.
- ``skipped``: a healthy watch the last cycle skipped (a credential it needs is unset);
  nothing was checked.
- ``not_public``: a model watch whose last check succeeded with the Hub's "no such
  public repo" answer (a model tracked before release): text ``not public yet``.
- ``gone``: a model watch whose last check succeeded with that answer AFTER the repo
  was seen public (``repo_disappeared``): text ``no longer public``; no retry.
- ``new`` / ``ok``: never checked since it was defined (or re-activated by ``tracker
  track`` after ``untrack``), or its last check succeeded. An error still stored on
  such a row is history (from before the re-activation): not shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from claims.vocabulary import GONE_KIND, NOT_PUBLIC_KIND, RETIRED_STATE, SKIPPED_KIND

WATCH_STATES: dict[str, str] = {
    "new": "defined (or re-activated by `tracker track` after `untrack`), not checked since",
    "ok": "its last check succeeded",
    "not_public": "its last check succeeded: the Hub says the repo is not public yet "
    "(404 / 401 RepoNotFound for a model tracked before release)",
    "gone": "its last check succeeded: the Hub says the repo, seen public before, is no "
    "longer public (404 / 401 RepoNotFound; a repo_disappeared event was sent)",
    "retrying": "its last check failed, fewer times in a row than the failing threshold",
    "failing": "its last checks failed, at least the failing threshold in a row "
    "(a watch_failing event was sent)",
    "skipped": "a healthy watch the last cycle skipped (a credential it needs is not set)",
    RETIRED_STATE: "no longer in the data files: never checked again, its history kept",
}


@dataclass(frozen=True)
class WatchHealth:
    """``state`` (a key of :data:`WATCH_STATES`), ``failures`` in a row, ``error`` (the
    current error, None when none is current) and ``skipped`` (why the last cycle skipped
    it, when it did)."""

    state: str
    failures: int
    error: str | None
    skipped: str | None

    def text(self) -> str:
        """``ok``, ``retrying (1 failure in a row)``, ``failing (4 in a row)``,
        ``skipped: TRACKER_AA_API_KEY not set``, ``failing (3 in a row); skipped: …``."""
        n = self.failures
        if self.state == "retrying":
            base = f"retrying ({n} failure{'' if n == 1 else 's'} in a row)"
        elif self.state == "failing":
            base = f"failing ({n} in a row)" if n else "failing"
        elif self.state == "skipped":
            return f"skipped: {self.skipped}"
        elif self.state == "not_public":
            return "not public yet"
        elif self.state == "gone":
            return "no longer public"
        else:
            return self.state
        return f"{base}; skipped: {self.skipped}" if self.skipped else base


def watch_health(
    stored_state: str,
    failures: int,
    last_error: str | None = None,
    last_error_kind: str | None = None,
    job_error: str | None = None,
    *,
    skip_reason: str | None = None,
) -> WatchHealth:
    """The :class:`WatchHealth` of a watch row (``state``, ``consecutive_failures``,
    ``last_error``, ``last_error_kind``, ``skip_reason``), by the rules of this module's
    docstring. ``job_error``: the scheduler job's own error (``schedulestate.last_error``,
    cleared by its next good run), shown when the watch has no current error of its own.
    A ``last_error`` of kind :data:`claims.vocabulary.SKIPPED_KIND` (how a skip was
    stored before ``skip_reason``; revision 0006 moves them) reads as a skip too."""
    if stored_state == RETIRED_STATE:
        return WatchHealth(RETIRED_STATE, failures, None, None)
    legacy = last_error_kind == SKIPPED_KIND
    skipped = skip_reason or (last_error if legacy else None)
    if legacy:
        last_error = None
    if failures > 0 or stored_state == "failing":
        state = "failing" if stored_state == "failing" else "retrying"
        return WatchHealth(state, failures, last_error or job_error, skipped)
    if skipped:
        return WatchHealth("skipped", 0, job_error, skipped)
    if last_error_kind == NOT_PUBLIC_KIND and stored_state == "ok":
        return WatchHealth("not_public", 0, job_error, None)
    if last_error_kind == GONE_KIND and stored_state == "ok":
        return WatchHealth("gone", 0, job_error, None)
    return WatchHealth(stored_state, 0, job_error, None)
