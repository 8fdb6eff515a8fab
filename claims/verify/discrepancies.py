"""Which discrepancies a verification run records, and which event each change of
state means (pure; issue 17 item 6, "one discrepancy per fact").

Input: the claim-vs-claim findings of :mod:`claims.verify.compare` and the verdict
decisions of :mod:`claims.verify.judge`; :mod:`claims.store.verification` stores the result.

- A claim-vs-claim discrepancy is *settled* (resolved) once an observation confirms or
  contradicts one of its claims (:func:`settled_by`).
- A claim an observation contradicts is a discrepancy of its own
  (``contradicted_by_observation``), one per fact: claims of one subject stating the
  same figure (:func:`claims.verify.compare.same_fact`) share one. It is *not* one when
  a settled claim-vs-claim discrepancy lists the claim: that discrepancy already says
  which side the observation contradicted (the demo's "65.7% for Terminal-Bench 4.0",
  settled by the board's 3.0 score, is one discrepancy, not two).
- Every discrepancy that opens is announced once by ``discrepancy_opened`` and, when it
  closes, once by ``discrepancy_resolved`` (:func:`state_event`); one found already
  settled was never open and is announced by one ``discrepancy_resolved`` marked found
  settled (so every discrepancy the Discrepancies page lists has its place in the
  history); a note, stored dismissed, announces nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping, Sequence

from claims.values.canonical import dumps
from claims.verify.compare import (
    CONTRADICTED_BY_OBSERVATION,
    DIFFERENT_SUBJECT,
    Finding,
    group_facts,
    side_who,
)
from claims.verify.facts import ClaimView
from claims.verify.judge import Decision

# Verdict statuses that rest on an observation (they settle a claim-vs-claim discrepancy).
OBSERVED_STATUSES: tuple[str, ...] = ("confirmed", "contradicted")


def settled_by(f: Finding, decisions: Mapping[int, Decision]) -> str | None:
    """How an observation settled claim-vs-claim finding ``f``: ``settled by observation
    #50: claim #15 contradicted (65.7% is observed for Terminal-Bench 3.0 ..., not for
    version 4.0), claim #37 confirmed`` (a contradicted claim's verdict reason says
    what was observed instead, since this discrepancy is the only one telling it); None while none of its claims has
    an observed verdict (:data:`OBSERVED_STATUSES`), and always for an observation's own
    finding or a different-subjects note (nothing to settle)."""
    if f.rule in (CONTRADICTED_BY_OBSERVATION, DIFFERENT_SUBJECT):
        return None
    if differing_sides(f, decisions):
        return None  # each side holds by its own observation: nothing is settled
    settled = [
        (cid, decisions[cid])
        for cid in f.claim_ids
        if cid in decisions and decisions[cid].status in OBSERVED_STATUSES
    ]
    if not settled:
        return None
    parts = [
        f"claim #{cid} {d.status}" + (f" ({d.reason})" if d.status == "contradicted" else "")
        for cid, d in settled
    ]
    evidence = sorted({e for _, d in settled for e in d.evidence})
    return f"settled by observation {', '.join(f'#{e}' for e in evidence)}: " + ", ".join(parts)


def differing_sides(
    f: Finding, decisions: Mapping[int, Decision]
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The claims of claim-vs-claim finding ``f`` that are each confirmed by observations
    the others do not cite, as ``(claim id, evidence ids)``, when there are two or more
    and none of its claims is contradicted: the observations themselves differ (an
    OpenRouter ``context_length`` of 131,072 and a config's ``max_position_embeddings``
    of 262,144 confirm 128K and 256K), so no observation settles the finding. Else ``()``."""
    ds = [(cid, decisions[cid]) for cid in f.claim_ids if cid in decisions]
    if any(d.status == "contradicted" for _, d in ds):
        return ()
    sides = [(cid, tuple(d.evidence)) for cid, d in ds if d.status == "confirmed" and d.evidence]
    cited = [set(ev) for _, ev in sides]
    apart = all(not (a & b) for i, a in enumerate(cited) for b in cited[i + 1 :])
    return tuple(sides) if len(sides) > 1 and apart else ()


def differ_reason(
    f: Finding, decisions: Mapping[int, Decision], origins: Mapping[int, str]
) -> str | None:
    """Why finding ``f`` stays open though each of its sides is confirmed
    (:func:`differing_sides`), naming each observation and where it comes from
    (``origins``: observation id -> ``131,072 tokens, watch openrouter-models
    (openrouter_models)``): ``the observations differ: claim #2 confirmed by observation
    #3 (...), claim #7 confirmed by observation #11 (...); none settles which holds``.
    None when the sides do not differ so."""
    sides = differing_sides(f, decisions)
    if not sides:
        return None

    def obs(ids: tuple[int, ...]) -> str:
        named = [f"#{i}" + (f" ({origins[i]})" if i in origins else "") for i in ids]
        return ("observation " if len(ids) == 1 else "observations ") + ", ".join(named)

    parts = [f"claim #{cid} confirmed by {obs(ev)}" for cid, ev in sides]
    return "the observations differ: " + ", ".join(parts) + "; none settles which holds"


def explained_claims(
    conflicts: Sequence[Finding], decisions: Mapping[int, Decision]
) -> frozenset[int]:
    """Ids of the claims a settled claim-vs-claim finding lists (``conflicts``: those not
    dismissed by a reviewer): their contradiction is that discrepancy's outcome, so it
    is not a second discrepancy."""
    return frozenset(
        cid for f in conflicts if settled_by(f, decisions) is not None for cid in f.claim_ids
    )


def observation_key(claim_key: str) -> str:
    """The key of the observation discrepancy whose first claim (lowest id) has key
    ``claim_key``: sha256 of ``{"rule": "contradicted_by_observation", "claim": key}``."""
    payload = dumps({"rule": CONTRADICTED_BY_OBSERVATION, "claim": claim_key})
    return hashlib.sha256(payload.encode()).hexdigest()


def observation_findings(
    claims: Sequence[ClaimView],
    decisions: Mapping[int, Decision],
    explained: Collection[int] = frozenset(),
) -> list[tuple[Finding, tuple[int, ...]]]:
    """One ``contradicted_by_observation`` finding per fact that observations contradict,
    with the observation ids its verdicts cite, e.g. two sources stating "licence: mit"
    that the Hub's ``modified-mit`` contradicts give one finding listing both claims.
    Claims in ``explained`` (:func:`explained_claims`) are left out. The key is that
    of the fact's first claim (:func:`observation_key`), so another source repeating
    the figure joins the same discrepancy."""
    wrong: dict[tuple[int, str], list[ClaimView]] = {}
    for c in sorted(claims, key=lambda c: c.id):
        d = decisions.get(c.id)
        if d is not None and d.status == "contradicted" and c.id not in explained:
            wrong.setdefault((c.subject_id, c.attribute), []).append(c)
    out = []
    for (subject_id, attribute), group in sorted(wrong.items()):
        for fact in group_facts(attribute, group, lambda c: (c.qualifiers, c.value)):
            first = fact[0]
            ids = tuple(c.id for c in fact)
            evidence = tuple(sorted({e for c in fact for e in decisions[c.id].evidence}))
            reason = f"{side_who(fact)}: {decisions[first.id].reason}"
            key = observation_key(first.key)
            finding = Finding(key, CONTRADICTED_BY_OBSERVATION, subject_id, attribute, ids, reason)
            out.append((finding, evidence))
    return out


def state_event(old: str | None, new: str) -> str | None:
    """The event a discrepancy's change of state from ``old`` (None: not stored before)
    to ``new`` means: ``discrepancy_opened`` when it opens (first found open, or
    reopened), ``discrepancy_resolved`` when an open one resolves or one is first found
    already resolved (:func:`found_settled`), else None (a note stored dismissed, no
    change; a reviewer's dismissal has its own event,
    :func:`claims.store.review.dismiss_discrepancy`)."""
    if new == old:
        return None
    if new == "open":
        return "discrepancy_opened"
    if new == "resolved" and old in ("open", None):
        return "discrepancy_resolved"
    return None


def found_settled(old: str | None, new: str) -> bool:
    """Whether a discrepancy was first found already resolved (never open): its one
    event says so ("found settled")."""
    return old is None and new == "resolved"
