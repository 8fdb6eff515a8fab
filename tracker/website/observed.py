"""Site stage 1 helper: each subject's current observations as :class:`ObservationView`.

Collect reads every observation once; this turns the current ones into views in one
pass, and marks each with the claim attribute that states it, if any, so the subject
page can say "no claim states this" where the watches saw something no source claimed.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from claims.values.canonical import as_utc
from claims.values.value import Value
from claims.verify.compare import qualifiers_compatible
from claims.vocabulary import qualifiers_text
from tracker.website.views import ClaimView, ObservationView

if TYPE_CHECKING:
    from claims.store.rows import ObservationRow

# Observed attribute -> claim attributes that state it. A promised weights date is
# verified against weights_available observations (claims/verify/promises.py), so it states
# availability; every other attribute is stated only by claims of itself.
STATED_BY: dict[str, tuple[str, ...]] = {
    "weights_available": ("weights_available", "weights_release_date"),
}


# The Hub's `gated` is stored as its text ("false", "auto", "manual"): read as words.
GATED_WORDS: dict[str, str] = {
    "false": "no",
    "true": "yes",
    "auto": "yes, access granted automatically",
    "manual": "yes, access granted by the repo's owners",
}


def value_text(attribute: str, value: dict[str, Any]) -> str:
    """How an observed value reads (``Value.display``); the Hub's ``gated`` text reads
    as :data:`GATED_WORDS`."""
    text = Value.from_dict(value).display()
    return GATED_WORDS.get(text, text) if attribute == "gated" else text


def _claimed_by(
    attribute: str,
    quals: dict[str, Any],
    claimed: Mapping[str, list[dict[str, Any]]],
) -> str | None:
    """The first of :data:`STATED_BY`'s attributes for ``attribute`` with a claim whose
    qualifiers are compatible with ``quals`` (:func:`qualifiers_compatible`), or None."""
    for attr in STATED_BY.get(attribute, (attribute,)):
        for cq in claimed.get(attr, ()):
            if qualifiers_compatible(attr, cq, quals)[0]:
                return attr
    return None


def _sort_key(o: ObservationView) -> tuple[str, str, str, str]:
    return (o.attribute, o.qualifiers, o.value, o.watch or "")


def current_observations(
    observations: Iterable[ObservationRow],
    claims_of: Mapping[int, list[ClaimView]],
    watch_names: Mapping[int, str],
    snapshots: Mapping[int, Any],
) -> dict[int, list[ObservationView]]:
    """Subject id -> its current observations (``current`` true) as views, sorted by
    attribute, qualifiers, value and watch. ``claims_of`` is each subject's claims,
    ``watch_names`` watch id -> name, ``snapshots`` snapshot id -> a row with ``url`` and
    ``sha256``. The source URL is the observation's own, else its snapshot's (as the
    evidence under a verdict shows it). Raises ValueError for a stored value or
    qualifiers that are not valid JSON (as reading them anywhere else would)."""
    out: dict[int, list[ObservationView]] = defaultdict(list)
    for o in observations:
        if not o.current:
            continue
        quals = json.loads(o.qualifiers_json)
        value = json.loads(o.value_json)
        snap = snapshots.get(o.snapshot_id) if o.snapshot_id else None
        out[o.subject_id].append(
            ObservationView(
                id=o.id,  # type: ignore[arg-type]
                attribute=o.attribute,
                qualifiers=qualifiers_text(quals),
                qualifiers_dict=quals,
                value=value_text(o.attribute, value),
                value_dict=value,
                first_seen=as_utc(o.first_seen),
                last_seen=as_utc(o.last_seen),
                watch=watch_names.get(o.watch_id) if o.watch_id else None,
                source_url=o.source_url or (snap.url if snap else None),
                sha256=snap.sha256 if snap else None,
                claimed_by=None,
            )
        )
    # Only subjects with observations need their claims indexed (most have none).
    for sid, views in out.items():
        claimed: dict[str, list[dict[str, Any]]] = defaultdict(list)
        cited: dict[int, str] = {}  # observation id -> attribute of a claim it verifies
        for cv in claims_of.get(sid, ()):
            claimed[cv.attribute].append(cv.qualifiers_dict)
            for oid in cv.verdict.evidence_ids if cv.verdict else ():
                cited.setdefault(oid, cv.attribute)
        views[:] = sorted(
            (
                v._replace(
                    claimed_by=_claimed_by(v.attribute, v.qualifiers_dict, claimed)
                    or cited.get(v.id)  # e.g. a variant's price behind a price factor
                )
                for v in views
            ),
            key=_sort_key,
        )
    return out
