"""Site exports: JSON and CSV under ``api/`` (schema: docs/site-api.md).

Output is canonical (sorted keys, compact, UTF-8, one ``\\n`` at the end of JSON;
RFC 4180 CSV with CRLF) so an unchanged database gives identical bytes.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from claims.values.safetext import csv_cells
from claims.values.timefmt import iso_z
from claims.vocabulary import gated_value
from tracker.website.jsontext import json_encoder, plain_values, sorted_json_fast
from tracker.website.views import (
    ClaimView,
    DiscrepancyView,
    ObservationView,
    SiteContext,
    SourceInfo,
    SubjectView,
)

SCHEMA_VERSION = 1
CSV_COLUMNS = (
    "id",
    "subject",
    "attribute",
    "qualifiers",
    "value",
    "raw_text",
    "source_key",
    "source_url",
    "source_language",
    "claimant",
    "stated_date",  # only when the data gives the claim its own date (docs/site-api.md)
    "verdict",
    "verdict_reason",
    # added later, so at the end: a reader that counts columns keeps working
    "published",  # the source's publication date as stored (ISO, YYYY-MM-DD or YYYY-MM)
    "published_precision",  # day / month / estimated, empty when the data does not say
    "stated_by_claimant",  # yes / no / not checked: the claimant's own page (issue 18)
)


# No indent: the C encoder is ~10x faster, and a 30,000-claim export stays small. One
# encoder for all calls (jsontext.py): json.dumps with options builds a new one each time.
_ENCODE = json_encoder()
# json.dumps's default separators (", ", ": "), as the CSV's qualifiers column always had.
_ENCODE_SPACED = json_encoder(separators=(", ", ": "))


# The claim records' encoder where orjson is installed (jsontext.sorted_json_fast).
_FAST = sorted_json_fast()


def _encode(obj: Any) -> str:
    return _ENCODE(obj)


def _dump(obj: Any) -> str:
    return _encode(obj) + "\n"


def dump_with_encoded(obj: dict[str, Any], encoded: dict[str, str]) -> str:
    """What :func:`_dump` gives for ``obj`` plus ``encoded`` (key -> JSON text already
    made by :func:`_encode`): the same bytes, without encoding those values again."""
    parts = [
        f"{_encode(k)}:{encoded[k] if k in encoded else _encode(obj[k])}"
        for k in sorted(obj.keys() | encoded.keys())
    ]
    return "{" + ",".join(parts) + "}\n"


def subject_summary(sv: SubjectView) -> dict[str, Any]:
    """One subject as in ``api/subjects.json``."""
    w = sv.weights
    return {
        "slug": sv.slug,
        "name": sv.name,
        "organization": sv.organization,
        "page": f"subjects/{sv.slug}/",
        "weights": {
            "landed": w.landed,
            "repo": w.repo,
            "landed_at": iso_z(w.landed_at) or None,
            "landed_at_meaning": w.landed_at_meaning,
            "repo_created": w.repo_created,
            "promises": [
                {
                    "date": p.date,
                    "relation": p.relation,
                    "source": p.source_plain or p.source,  # no display quotes
                    "claimant": p.claimant,
                    "qualifiers": dict(p.qualifiers),
                }
                for p in w.promises
            ],
            "overdue_days": w.overdue_days,
            "as_of": iso_z(w.as_of) or None,
            # null unless the weights were public and are no longer
            "withdrawn": w.to_dict()["withdrawn"],
        },
        "license": w.license,
        "open_discrepancies": sv.open_discrepancies,
        "last_change": iso_z(sv.last_change) or None,
    }


def source_record(src: SourceInfo) -> dict[str, Any]:
    """A claim's source as in its :func:`claim_record`."""
    return {
        "key": src.key,
        "title": src.title,
        "url": src.url,
        "publisher": src.publisher,
        "published": src.published,
        "published_precision": src.published_precision,
        "language": src.language,
        "kind": src.kind,
    }


def claim_record(cv: ClaimView, source: dict[str, Any] | None = None) -> dict[str, Any]:
    """One claim as in ``api/claims.json``; ``source``: its :func:`source_record`
    when already made (one per source, shared by its claims)."""
    return {**_claim_head(cv), "source": source or source_record(cv.source), **_claim_tail(cv)}


# The keys of a claim record sort around "source": the head's before it, the tail's after.
def _claim_head(cv: ClaimView) -> dict[str, Any]:
    return {
        "id": cv.id,
        "attribute": cv.attribute,
        "qualifiers": cv.qualifiers_dict,
        "display": cv.value,
        "raw_text": cv.raw_text,
        "claimant": cv.claimant,
        "locator": cv.locator,
    }


def _claim_tail(cv: ClaimView) -> dict[str, Any]:
    v = cv.verdict
    return {
        "subject": cv.subject_slug,
        "value": cv.value_dict,
        "stated_date": cv.stated_date,
        "verdict": None
        if v is None
        else {
            "status": v.status,
            "reason": v.reason,
            "as_of": iso_z(v.as_of) or None,
            "evidence": v.evidence_ids,
            "stated_by_claimant": {
                "status": v.statement.status,
                "reason": v.statement.reason,
                "evidence": v.statement.evidence,
            },
        },
    }


def claim_record_text(cv: ClaimView, source_text: str) -> str:
    """``_encode(claim_record(cv))`` given its source record's JSON text: the keys sort
    as head, ``source``, tail, so the record is the head's text and the tail's around
    the source's, which is encoded once per source (it was ~40 % of encoding a record)."""
    head_d, tail_d = _claim_head(cv), _claim_tail(cv)
    head = tail = ""
    if _FAST is not None and _fast_ok(cv):
        try:
            head, tail = _FAST(head_d), _FAST(tail_d)
        except TypeError:  # orjson.JSONEncodeError: a text orjson refuses
            head = ""
    if not head:
        head, tail = _ENCODE(head_d), _ENCODE(tail_d)
    return f'{head[:-1]},"source":{source_text},{tail[1:]}'


def _fast_ok(cv: ClaimView) -> bool:
    """Whether orjson gives ``json``'s text of ``cv``'s record (:func:`plain_values`):
    its other fields are the database's ints and texts and the verdict's ids."""
    v = cv.verdict
    if v is not None and any(i.__class__ is not int for i in v.statement.evidence):
        return False
    return plain_values(cv.qualifiers_dict) and plain_values(cv.value_dict)


def discrepancy_record(dv: DiscrepancyView) -> dict[str, Any]:
    """One discrepancy as in ``api/discrepancies.json``."""
    return {
        "id": dv.id,
        "subject": dv.subject_slug,
        "attribute": dv.attribute,
        "rule": dv.rule,
        "state": dv.state,
        "reason": dv.reason,
        "note": dv.note,
        "opened_at": iso_z(dv.opened_at) or None,
        "closed_at": iso_z(dv.closed_at) or None,
        # resolved when first found, never open: the page's "found settled (never open)"
        "found_settled": dv.found_settled,
        "claim_ids": dv.claim_ids,
        "observation_ids": dv.observation_ids,
    }


def observation_record(ov: ObservationView) -> dict[str, Any]:
    """One current observation as in a subject's ``observations`` (docs/site-api.md)."""
    return {
        "id": ov.id,
        "attribute": ov.attribute,
        "qualifiers": ov.qualifiers_dict,
        "value": ov.value_dict,
        "display": ov.value,
        "first_seen": iso_z(ov.first_seen),
        "last_seen": iso_z(ov.last_seen),
        "watch": ov.watch,
        "source_url": ov.source_url,
        "sha256": ov.sha256,
        "claimed": ov.claimed_by is not None,
    }


def claim_records(subjects: list[SubjectView]) -> dict[int, str]:
    """Claim id -> :func:`claim_record` as JSON text, in claim id order (each claim is
    encoded once for ``api/claims.json`` and its subject's export)."""
    return by_claim_id([subject_claim_records(sv) for sv in subjects])


def subject_claim_records(sv: SubjectView) -> dict[int, str]:
    """Claim id -> :func:`claim_record` JSON text of one subject's claims (each source's
    record encoded once, :func:`source_text`)."""
    sources: dict[int, str] = {}
    out = {}
    for _, rows in sv.groups:
        for cv in rows:
            src = sources.get(cv.source.id)
            if src is None:
                src = sources[cv.source.id] = source_text(cv.source)
            out[cv.id] = claim_record_text(cv, src)
    return out


def source_text(src: SourceInfo) -> str:
    """``_encode(source_record(src))``, encoded once per distinct record in this process
    (a site has dozens of sources and thousands of claims citing them)."""
    record = source_record(src)
    key = tuple(record.values())  # every field the text holds, so a hit is that text
    text = _SOURCE_TEXTS.get(key)
    if text is None:
        if len(_SOURCE_TEXTS) >= 4096:
            _SOURCE_TEXTS.clear()
        text = _SOURCE_TEXTS[key] = _encode(record)
    return text


_SOURCE_TEXTS: dict[tuple[Any, ...], str] = {}


def by_claim_id(parts: list[dict[int, str]]) -> dict[int, str]:
    """The per-subject texts of ``parts`` merged into one mapping in claim id order."""
    merged: dict[int, str] = {}
    for part in parts:
        merged.update(part)
    return {i: merged[i] for i in sorted(merged)}


def _by_id(cv: ClaimView) -> int:
    return cv.id


def subject_export(sv: SubjectView, records: dict[int, str]) -> str:
    """``api/subjects/<slug>.json``: the summary plus aliases, variants, claims,
    discrepancies, current observations and events. ``records`` is :func:`claim_records`."""
    record = subject_summary(sv)
    record["schema"] = SCHEMA_VERSION
    record["aliases"] = sv.aliases
    record["variants"] = sv.variants
    claims = ",".join(records[cv.id] for _, rows in sv.groups for cv in rows)
    record["discrepancies"] = [discrepancy_record(dv) for dv in sv.discrepancies]
    record["observations"] = [observation_record(ov) for ov in sv.observations]
    record["gated"] = gated_value(sv.weights.gated)  # as `tracker status --json`
    record["events"] = [
        {
            "kind": ev.kind,
            "title": ev.title,
            "change": ev.change,
            "created_at": iso_z(ev.created_at),
        }
        for ev in sv.events
    ]
    summary = ",".join([card_text(card_record(ln)) for ln in sv.card])
    return dump_with_encoded(record, {"claims": f"[{claims}]", "summary": f"[{summary}]"})


def card_text(record: dict[str, Any]) -> str:
    """``_encode(record)`` of a :func:`card_record`, by orjson where it gives the same
    text (:func:`tracker.website.jsontext.plain_values` of its values, qualifiers and
    best value)."""
    if _FAST is not None and plain_values(record["qualifiers"]):
        best = record["best"]
        if best is None or plain_values(best):
            top = record.copy()
            del top["qualifiers"], top["best"]
            if plain_values(top):
                try:
                    return _FAST(record)
                except TypeError:  # orjson.JSONEncodeError: a text orjson refuses
                    pass
    return _ENCODE(record)


def card_record(line: Any) -> dict[str, Any]:
    """One summary-card line (``summary.CardLine``) as in a subject export's
    ``summary``: what the page's card says, with the observed time absolute."""
    facts = line.facts
    one = facts[0] if len(facts) == 1 else None  # most lines: their properties are its
    return {
        "attribute": line.attribute,
        "qualifiers": line.quals,
        "label": line.label,
        "stated": (one.value if one else line.text) if facts else None,
        # what the card shows first (summary.best_supported): never a contradicted figure
        "best": best_record(line.best) if facts else None,
        "agreed": True if one else line.agreed,
        "status": one.status if one else line.status,
        "sources": one.sources if one else line.sources,
        "claims": [c.id for f in facts for c in f.claims],
        "observed": line.observed,
        "checked_at": iso_z(line.checked) or None,
        "observed_note": line.note or None,
        "derived_from": line.derived_from,
        "stated_on": line.stated_on,
        "anchor": line.anchor,
    }


def best_record(best: Any) -> dict[str, Any]:
    """A card line's best-supported value (``summary.Best``) as in a subject export."""
    return {
        "text": best.text,
        "number": best.number,
        "status": best.status,
        "basis": best.basis,
        "contradicted": list(best.contradicted),
        "contradicted_sources": best.contradicted_sources,
    }


def subjects_export(summaries: list[dict[str, Any]]) -> str:
    """``api/subjects.json`` from every subject's :func:`subject_summary`."""
    return _dump({"schema": SCHEMA_VERSION, "subjects": summaries})


def claims_export(records: dict[int, str]) -> str:
    """``api/claims.json`` from :func:`claim_records`: what :func:`dump_with_encoded`
    gives for ``{"claims": [...], "schema": ...}``, joined in one pass (the file is 18
    MB at 30,000 claims and a one-claim rebuild makes it again)."""
    parts = list(records.values()) or [""]
    parts[0] = '{"claims":[' + parts[0]
    parts[-1] += f'],"schema":{_encode(SCHEMA_VERSION)}}}\n'
    return ",".join(parts)


def discrepancies_export(rows: list[dict[str, Any]]) -> str:
    """``api/discrepancies.json`` from every discrepancy's :func:`discrepancy_record`."""
    return _dump({"schema": SCHEMA_VERSION, "discrepancies": rows})


def all_claims(ctx: SiteContext) -> list[ClaimView]:
    """Every claim of every subject, by id (the order of the claim exports)."""
    return sorted((cv for sv in ctx.subjects for _, rows in sv.groups for cv in rows), key=_by_id)


def exports(ctx: SiteContext) -> dict[str, str]:
    """Relative path -> file text for every export."""
    records = claim_records(ctx.subjects)
    out = {
        "api/subjects.json": subjects_export([subject_summary(sv) for sv in ctx.subjects]),
        "api/claims.json": claims_export(records),
        "api/discrepancies.json": discrepancies_export(
            [discrepancy_record(dv) for dv in ctx.discrepancies]
        ),
        "api/claims.csv": claims_csv(all_claims(ctx)),
    }
    for sv in ctx.subjects:
        out[f"api/subjects/{sv.slug}.json"] = subject_export(sv, records)
    return out


def claims_csv(claims: list[ClaimView]) -> str:
    """``api/claims.csv``: one row per claim, columns :data:`CSV_COLUMNS`. A text cell a
    spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``...) starts with ``'``
    (:func:`claims.values.safetext.csv_cell`; issue 20)."""
    return csv_from_rows(claim_csv_rows(claims))


def csv_from_rows(rows: dict[int, str]) -> str:
    """``api/claims.csv`` from :func:`claim_csv_rows` texts (in the order given)."""
    buf = io.StringIO()
    csv.writer(buf).writerow(CSV_COLUMNS)
    return "".join([buf.getvalue(), *rows.values()])


class _Lines:
    """A file for ``csv.writer`` that keeps each row it writes (the writer makes one
    ``write`` call per row) as an item of ``lines``."""

    def __init__(self, lines: list[str]) -> None:
        self.write = lines.append


def claim_csv_rows(claims: list[ClaimView]) -> dict[int, str]:
    """Claim id -> its CSV row's text (line end included; the csv module's quoting, so
    rows joined are the file a single writer makes)."""
    lines: list[str] = []
    writerow = csv.writer(_Lines(lines)).writerow
    qualifiers = _ENCODE_SPACED
    for cv in claims:
        v, src = cv.verdict, cv.source
        writerow(
            csv_cells(
                [
                    cv.id,
                    cv.subject_slug,
                    cv.attribute,
                    qualifiers(cv.qualifiers_dict),
                    cv.value,
                    cv.raw_text or "",
                    src.key,
                    src.url or "",
                    src.language or "",
                    cv.claimant or "",
                    cv.stated_date or "",
                    v.status if v else "",
                    v.reason if v else "",
                    src.published or "",
                    src.published_precision or "",
                    v.statement.status if v else "",
                ]
            )
        )
    return {cv.id: line for cv, line in zip(claims, lines, strict=True)}
