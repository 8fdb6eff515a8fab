"""CLI commands for the site and alerts: ``tracker serve``, ``tracker alerts test|send``.

Registered from ``tracker/cli/main.py``; each prints one line and exits 1 on a TrackerError.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli.common import DbOpt, JsonOpt, TrackerTyper, open_db, print_json
from tracker.cli.failures import fail
from tracker.cli.values import whole_number
from tracker.errors import TrackerError

if TYPE_CHECKING:  # http.server loads only for `tracker serve`
    from http.server import ThreadingHTTPServer

alerts_app = TrackerTyper(help="Push alerts through Apprise.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    """Add ``serve`` and the ``alerts`` group to the main CLI app."""
    app.command()(serve)
    app.add_typer(alerts_app, name="alerts")


@functools.cache
def _handler_class() -> Any:
    """The preview server's request handler: the stdlib's static-file handler with the
    site's export types and no request log (made on first use: http.server is imported
    only by ``tracker serve``)."""
    from http.server import SimpleHTTPRequestHandler

    class Handler(SimpleHTTPRequestHandler):
        extensions_map = {
            **SimpleHTTPRequestHandler.extensions_map,
            ".atom": "application/atom+xml",
            ".json": "application/json",
            ".csv": "text/csv; charset=utf-8",
        }

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
            pass

    return Handler


def make_server(directory: Path, port: int = 8000) -> ThreadingHTTPServer:
    """An HTTP server for ``directory`` on 127.0.0.1 only (port 0 picks a free one).

    Raises :class:`TrackerError` when the folder has no ``index.html`` (not built yet).
    """
    if not (directory / "index.html").is_file():
        raise TrackerError(f"{directory}/index.html not found; run `tracker build` first")
    from http.server import ThreadingHTTPServer

    handler = functools.partial(_handler_class(), directory=str(directory))
    try:
        return ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as exc:
        raise TrackerError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror}") from exc


def serve(
    dir: Annotated[Path, typer.Option("--dir", help="Built site folder.")] = Path("site"),  # noqa: A002
    port: Annotated[
        int,
        typer.Option(
            "--port",
            metavar="<1-65535>",
            parser=whole_number(1, 65535),
            help="Port on 127.0.0.1, a whole number from 1 to 65535.",
        ),
    ] = 8000,
) -> None:
    """Preview the built site on http://127.0.0.1:PORT/ (Ctrl-C stops)."""
    try:
        server = make_server(dir, port)
    except TrackerError as exc:
        raise fail(exc, json_out=False) from None
    print(f"serving {dir} on http://127.0.0.1:{server.server_address[1]}/")
    try:
        server.serve_forever()  # Ctrl-C: one line and exit 130, as in every command
    finally:
        server.server_close()


ConfigOpt = Annotated[
    Path | None,
    typer.Option("--config", help="Subscriptions file (default: subscriptions.toml of --data)."),
]
AlertsDataOpt = Annotated[
    Path | None,
    typer.Option(
        "--data",
        help="Data folder whose subscriptions.toml is read, as `track`/`load` take it "
        "(default data/).",
        show_default=False,
    ),
]


@alerts_app.command("test")
def alerts_test(
    to: Annotated[str | None, typer.Option("--to", help="Send to this Apprise URL only.")] = None,
    config: ConfigOpt = None,
    data: AlertsDataOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Send a test alert to --to, or to every configured subscription.

    Subscriptions come from subscriptions.toml of --data (default data/), or --config,
    and from TRACKER_APPRISE_URLS (Apprise URLs, space- or comma-separated). Prints one
    line per subscription, delivered or failed and why; exits 1 when any failed. With
    --db, a subscribed subject slug that database lacks is a warning.
    """
    from tracker.alerts.send import NotifyError, send_test
    from tracker.alerts.subscriptions import (
        Subscription,
        load_subscriptions,
        no_subscriptions_hint,
        redacted_url,
        unknown_subjects,
    )

    try:
        subs = (
            [Subscription(name="--to", url=to)] if to else load_subscriptions(config, data_dir=data)
        )
        if not subs:
            raise NotifyError(f"{no_subscriptions_hint(config, data)}; or give --to URL")
        if db is not None and not to:
            for warning in unknown_subjects(subs, subject_slugs(open_db(db))):
                print(f"warning: {warning}", file=sys.stderr)
        results = send_test(subs)
    except TrackerError as exc:
        raise fail(exc, json_out=json_out) from None
    if json_out:
        print_json(
            {
                "results": [
                    {"subscription": sub.name, "delivered": not why, "error": why or None}
                    for sub, why in results
                ]
            }
        )
    else:
        for sub, why in results:  # one line per target, the delivered ones too
            target = redacted_url(to) if to else sub.label()  # no password or token
            print(f"test alert to {target}: " + (f"failed: {why}" if why else "delivered"))
    if any(why for _sub, why in results):
        raise typer.Exit(1)


@alerts_app.command("send")
def alerts_send(
    db: DbOpt = None,
    config: ConfigOpt = None,
    data: AlertsDataOpt = None,
    site_url: Annotated[
        str | None, typer.Option("--site-url", help="Public site URL for links.")
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Drain the outbox: deliver due alerts once each, retry failed ones later.

    Subscriptions come from subscriptions.toml of --data (default data/), or --config,
    and from TRACKER_APPRISE_URLS (Apprise URLs, space- or comma-separated). Events of the last 48 hours
    are sent; a new subscription is not sent older ones (the summary says
    how many). Prints one "warning:" line on stderr per subscription with
    failures (count, first error, next attempt), and one "error:" line per
    subscription whose URL matched no service (not retried); exits 1 when a
    delivery failed, was given up or matched no service in this run, or when
    there is no subscription. A
    subscription's subject that is not in the database is a warning, naming the
    nearest known slug.
    """
    from tracker.alerts.send import NotifyError, drain
    from tracker.alerts.subscriptions import (
        load_subscriptions,
        no_subscriptions_hint,
        unknown_subjects,
    )

    try:
        subs = load_subscriptions(config, data_dir=data)
        if not subs:
            raise NotifyError(no_subscriptions_hint(config, data))
        engine = open_db(db, write=True)
        for warning in unknown_subjects(subs, subject_slugs(engine)):
            print(f"warning: {warning}", file=sys.stderr)
        report = drain(engine, subs, base_url=site_url)
    except TrackerError as exc:
        raise fail(exc, json_out=json_out) from None
    for failures in report.failures.values():
        print(f"warning: {failures.warning()}", file=sys.stderr)
    for error in report.config_errors():
        print(f"error: {error}", file=sys.stderr)
    if json_out:
        print_json(report.to_dict())
    else:
        print(report.summary())
    if report.failed or report.dead or report.unrouted:
        raise typer.Exit(1)


def subject_slugs(engine: object) -> set[str]:
    """Every subject slug stored in the database behind ``engine``."""
    from sqlmodel import Session, select

    from claims.store.tables import Subject

    with Session(engine) as session:  # type: ignore[arg-type]
        return set(session.exec(select(Subject.slug)))
