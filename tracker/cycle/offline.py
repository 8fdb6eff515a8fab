"""Offline workflows over the fetch seam: re-run an adapter on recorded responses
(``tracker parse``, as ``scrapy parse``) and record one live cycle to HAR
(``tracker record``). The CLI calls these; they print nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from claims.store.tables import Watch
from tracker.adapters.base import ParseResult, get_adapter, read_files
from tracker.cycle.run import run_check
from tracker.cycle.types import CycleSummary
from tracker.errors import ConfigError, NothingRecorded, TrackerError
from tracker.net.fetch import FetchSettings, fetch, live_transport, make_client
from tracker.net.har import HarRecorder, HarReplayTransport
from tracker.net.response import Fetched
from tracker.snapshots.store import BodyStore


@dataclass(frozen=True)
class Reparsed:
    """One recorded response run through an adapter: its result, or the error."""

    url: str
    fetched_at: dt.datetime | None
    result: ParseResult | None
    error: str | None = None
    error_kind: str | None = None


def parse_har(
    kind: str,
    har_path: str | Path,
    *,
    url: str | None = None,
    params: Mapping[str, Any] | None = None,
) -> list[Reparsed]:
    """Run adapter ``kind`` on every response recorded in ``har_path`` (or only ``url``).

    Each item carries the ParseResult or the FetchError/ParseError text and kind, so a
    parser change can be checked against old captures. A page that asks for ``files``
    (``huggingface_model`` with param ``files``) is combined with their recorded answers
    as in the cycle; the result then holds the values read from every file. Raises ConfigError for an
    unknown adapter, an unreadable HAR, or a ``url`` not in the file.
    """
    adapter = get_adapter(kind)
    transport = HarReplayTransport(har_path)
    urls = transport.urls()
    if url is not None:
        if url not in urls:
            raise ConfigError(f"{url} is not recorded in {har_path}")
        urls = [url]
    client = make_client(transport=transport)
    out: list[Reparsed] = []
    for u in urls:
        try:
            f = fetch(client, u, retries=1)
            result = adapter.parse(f, params or {})
            if result.files:  # e.g. a model page's repo files, when recorded too
                pages = read_files(
                    adapter,
                    f,
                    result,
                    lambda file_url: fetch(client, file_url, retries=1),
                    params or {},
                )
                result = replace(pages[0][1], values=[v for _f, page in pages for v in page.values])
            out.append(Reparsed(u, f.fetched_at, result))
        except TrackerError as exc:
            out.append(Reparsed(u, None, None, str(exc), exc.kind))
    return out


def parse_snapshot(
    kind: str,
    store: BodyStore,
    sha: str,
    *,
    url: str,
    fetched_at: dt.datetime,
    params: Mapping[str, Any] | None = None,
) -> ParseResult:
    """Run adapter ``kind`` on a stored snapshot body (e.g. a Snapshot row's sha256,
    url and fetched_at). Raises KeyError for a missing body, ParseError from the adapter."""
    fetched = Fetched.from_body(url, store.get(sha), fetched_at)
    return get_adapter(kind).parse(fetched, params or {})


def record_check(
    engine: Engine,
    out: str | Path,
    *,
    snapshot_store: BodyStore,
    settings: FetchSettings | None = None,
    inner: Any = None,
    **run_kwargs: Any,
) -> tuple[CycleSummary, Path]:
    """Run one live cycle through a :class:`HarRecorder` and write every exchange to
    ``out`` (HAR 1.2), so ``tracker check --replay out`` gives the same observations.

    ``inner`` is the transport to record (default: the live, per-host-throttled one;
    tests pass a MockTransport). ``run_kwargs`` go to :func:`run_check`.

    Raises :class:`NothingRecorded` (carrying the summary) when no watch succeeded:
    ``out`` is then neither created nor overwritten, so an earlier capture is kept.
    Some watches failing is not an error: the others are written, and the summary's
    ``failing`` says how many did not make it.
    """
    s = settings or FetchSettings.from_env()
    recorder = HarRecorder(
        inner if inner is not None else live_transport(s),
        max_bytes=s.max_bytes,
        total_timeout=s.total_timeout,
    )
    with make_client(s, transport=recorder) as client:
        summary = run_check(engine, client, snapshot_store=snapshot_store, **run_kwargs)
    if summary.changed + summary.unchanged + summary.new == 0:
        raise NothingRecorded(f"{nothing_recorded(summary)}; {out} not written", summary)
    # Workers finish in any order; the file lists the exchanges watch by watch, in the
    # cycle's (name) order, so recording the same cycle twice gives the same file.
    wanted = run_kwargs.get("watch_names")
    names = set(wanted) if wanted is not None else None
    with Session(engine) as session:
        rows = session.exec(select(Watch.name, Watch.url).order_by(Watch.name)).all()
    urls = [url for name, url in rows if names is None or name in names]
    return summary, recorder.save(out, watch_urls=urls)


def failed_names(summary: CycleSummary, limit: int = 3) -> str:
    """The watches that failed in ``summary``, by name: ``a, b, c and 2 more``."""
    names = [r.name for r in summary.results if r.outcome == "failed"]
    if not names:  # results not kept: totals only
        return f"{summary.failing} of {summary.checked}"
    if len(names) <= limit + 1:  # "and 1 more" would be no shorter
        return ", ".join(names)
    return ", ".join(names[:limit]) + f" and {len(names) - limit} more"


def nothing_recorded(summary: CycleSummary) -> str:
    """Why a recording cycle has nothing to save, in one line: the watches that failed
    and the first error (or why none was checked)."""
    if summary.failing:
        first = next((r for r in summary.results if r.outcome == "failed"), None)
        why = f"; {first.name}: {first.error_kind}: {first.error}" if first else ""
        return f"every watch failed ({failed_names(summary)}){why}"
    skipped = [r for r in summary.results if r.outcome == "skipped"]
    if skipped:
        return f"every watch was skipped ({skipped[0].name}: {skipped[0].error})"
    return "no watch to check (run `tracker load` first)"
