"""Shared pieces of the CLI: options, consoles, JSON output, one-line error handling."""

from __future__ import annotations

import functools
import inspect
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, cast

import typer

from claims.errors import ClaimsError
from claims.store.rawdb import RawDB, SchemaMissing
from claims.values.safetext import terminal_text
from tracker import settings
from tracker.cli.failures import fail, hinted_names, report
from tracker.cli.interrupt import was_interrupted
from tracker.cli.lazyconsole import LazyConsole, stdout_console
from tracker.cli.plainparams import use_plain_params
from tracker.cli.values import json_default, usage_error_line
from tracker.errors import DatabaseUnavailable, TrackerError

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table
    from sqlalchemy.engine import Engine

    from claims.curated.datafile import DataFileError


# Python type names as typer shows them, in words a user reads.
_TYPE_WORDS = {"<str>": "<text>", "<int>": "<integer>", "<float>": "<number>"}


def _readable_type(param: Any, ctx: Any) -> str | None:
    shown = type(param).display_type_rich(param, ctx)
    return _TYPE_WORDS.get(shown, shown) if isinstance(shown, str) else shown


def reflow_help(text: str) -> str:
    """A docstring's paragraphs each as one line, so that ``--help`` wraps them at the
    terminal's width: typer keeps a docstring's single line breaks, which left single
    words on lines at 80 columns. Paragraphs stay apart; one starting with ``\\b``
    (click's "keep as written") is kept as is."""
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(p if p.startswith("\b") else " ".join(p.split("\n")) for p in paragraphs)


class _ReadableHelp:
    """Typer's rich help shows Python internals: a flag's type (``--json <bool>``) as if
    it took a value, ``<str>``/``<int>`` for values, and a required argument as
    ``{SUBJECT}`` in the usage line. Flags get an empty metavar, value types read
    ``<text>``/``<integer>``/``<number>``, and the usage line says ``SUBJECT``."""

    help: str | None  # click's Command.help, which the commands this mixes into set

    # Any: these are typer's vendored click classes (typer._click), not a public API.
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if text := getattr(self, "help", None):
            self.help = reflow_help(text)

    def get_params(self, ctx: Any) -> list[Any]:
        """The parameters (``--help`` included), text, path and flag ones coerced
        without pydantic (:mod:`tracker.cli.plainparams`)."""
        params: list[Any] = super().get_params(ctx)  # type: ignore[misc]
        use_plain_params(params)
        for param in params:
            if getattr(param, "is_flag", False) and param.metavar is None:
                param.metavar = ""
            elif hasattr(param, "display_type_rich"):
                param.display_type_rich = functools.partial(_readable_type, param)
        return params

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """The usage line's pieces; ``{NAME}`` (typer's required argument) -> ``NAME``."""
        pieces: list[str] = super().collect_usage_pieces(ctx)  # type: ignore[misc]
        return [re.sub(r"^\{(.*)\}(\.\.\.)?$", r"\1\2", p) for p in pieces]


# click's UsageError, found through typer's public BadParameter: typer vendors click.
_UsageError = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError" and issubclass(c, Exception)
)


def _one_line_usage_errors(exc: Exception, command_path: str, args: list[str]) -> typer.Exit:
    """One ``error:`` line, exit 2 (click's status for usage errors); with ``--json``
    among the command's ``args``, the JSON error document (kind ``usage``) too."""
    line = usage_error_line(exc, command_path).removeprefix("error: ")
    return report(line, kind="usage", json_out="--json" in args, did_you_mean=hinted_names(line),
                  code=2)  # fmt: skip


class _OneLineUsageErrors:
    """A bad or missing argument or option, or an unknown command, is one ``error:`` line
    on stderr and exit status 2, like the CLI's other errors (no usage panel)."""

    # Any: typer's vendored click classes again.
    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any
    ) -> Any:
        given = list(args)  # click's parser consumes ``args``
        try:
            return super().make_context(info_name, args, parent, **extra)  # type: ignore[misc]
        except _UsageError as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # `tracker claims`: show help
                raise
            path = " ".join(p for p in (parent and parent.command_path, info_name) if p)
            raise _one_line_usage_errors(exc, path or "tracker", given) from None


class TrackerCommand(_OneLineUsageErrors, _ReadableHelp, typer.core.TyperCommand):
    """A command whose ``--help`` shows flags without a value type and whose usage errors
    are one line."""


class TrackerGroup(_OneLineUsageErrors, _ReadableHelp, typer.core.TyperGroup):
    """A command group whose ``--help`` shows flags without a value type and whose usage
    errors (an unknown command included) are one line."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """``TyperGroup.resolve_command``; "No such command" becomes one line, which
        names the command meant by a common other name (``site`` -> ``build``)."""
        try:
            return super().resolve_command(ctx, args)
        except _UsageError as exc:
            meant = _OTHER_NAMES.get(args[0] if args else "")
            if meant is not None and meant in self.commands:
                line = (f"no such command {args[0]!r} (did you mean {meant!r}?); "
                        f"see `{ctx.command_path} --help`")  # fmt: skip
                raise report(line, kind="usage", json_out="--json" in args,
                             did_you_mean=[meant], code=2) from None  # fmt: skip
            raise _one_line_usage_errors(exc, ctx.command_path, args) from None


# Names a user may try for a command that has another name (click suggests only
# near-spellings). Applied only where the group has the command meant.
_OTHER_NAMES = {
    "site": "build",
    "website": "build",
    "html": "build",
    "fetch": "check",
    "run": "check",
    "watch": "watches",
    "discrepancy": "discrepancies",
    "subjects": "status",
    "daemon": "schedule",
}


class TrackerTyper(typer.Typer):
    """``typer.Typer`` whose group and commands use :class:`TrackerGroup` and
    :class:`TrackerCommand` (every ``tracker ... --help``, sub-apps included)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("cls", TrackerGroup)
        super().__init__(**kwargs)

    def command(self, name: str | None = None, **kwargs: Any) -> Callable[[F], F]:
        """``Typer.command`` with :class:`TrackerCommand` unless ``cls`` is given."""
        kwargs.setdefault("cls", TrackerCommand)
        return super().command(name, **kwargs)


console = cast("Console", stdout_console())
err_console = cast("Console", LazyConsole(stderr=True, highlight=False, soft_wrap=True))

_UNBOUNDED = 1_000_000  # a width no table reaches: measure it unconstrained
# A free-text column (an error message) is never made narrower than this to fit: its
# long words (URLs) end in "…" at this width, which still shows the host and path start.
FREE_TEXT_MIN = 20


def _content_widths(table: Table) -> tuple[list[int], list[int], list[int], int]:
    """Per column, the width of its longest word and of its longest line (cells and
    header), the width of its header's longest word, and what borders and padding add
    to the table's width."""
    from rich.measure import Measurement

    options = console.options.update_width(_UNBOUNDED)
    lows, highs, heads = [], [], []
    for column in table.columns:
        sizes = [Measurement.get(console, options, c) for c in (column.header, *column.cells)]
        lows.append(max(m.minimum for m in sizes))
        highs.append(max(m.maximum for m in sizes))
        heads.append(Measurement.get(console, options, column.header).minimum)
    natural = console.measure(table, options=options).maximum
    return lows, highs, heads, natural - sum(highs)


def whole_word_widths(
    table: Table, width: int, breakable: int | None = None, *, whole_lines: bool = False
) -> list[int] | None:
    """Column widths (content, no padding) that fit ``table`` in ``width`` characters
    with no word broken, the columns that need least room to show their lines whole
    served first; None when its longest words do not fit side by side.

    ``breakable``: index of a free-text column (an error message) whose words longer
    than its width are shortened with "…" by :func:`print_table`; it gets at least
    :data:`FREE_TEXT_MIN` characters (or its longest line, if shorter) and never less
    than its header's longest word. ``whole_lines``: every other column must show each
    of its lines whole (no wrapping at all), else None."""
    lows, highs, heads, extra = _content_widths(table)
    room = width - extra
    if sum(highs) <= room:
        return highs
    if whole_lines:
        lows = [low if i == breakable else highs[i] for i, low in enumerate(lows)]
    if breakable is not None:  # shortened free text is better than any column wrapped
        lows[breakable] = min(highs[breakable], max(FREE_TEXT_MIN, heads[breakable]))
    if sum(lows) > room:
        return None
    widths, room = list(lows), room - sum(lows)
    # The rest goes to the columns that need least to fit on one line, first, and to
    # the free text last: short values (a time, a state) stay on one line.
    for i in sorted(range(len(widths)), key=lambda i: (i == breakable, highs[i] - widths[i])):
        give = min(highs[i] - widths[i], room)
        widths[i], room = widths[i] + give, room - give
    return widths


def whole_word_minimum(table: Table, breakable: int | None = None) -> int:
    """The narrowest width (characters, borders included) at which ``table``'s longest
    words fit side by side (``breakable`` as in :func:`whole_word_widths`: its words
    are shortened, so it counts :data:`FREE_TEXT_MIN` at most)."""
    lows, highs, heads, extra = _content_widths(table)
    if breakable is not None:
        lows[breakable] = min(highs[breakable], max(FREE_TEXT_MIN, heads[breakable]))
    return sum(lows) + extra


def fit_width() -> int | None:
    """The width a ``fit`` table is laid out in: ``$COLUMNS`` when set to a whole number
    (the shell's own variable, as ``ls`` and Rich read it; honoured piped too), else the
    terminal's width, else None (piped or redirected: the table's full width)."""
    from tracker.settings import terminal_columns

    columns = terminal_columns()
    if columns is not None:
        return columns
    return console.width if console.is_terminal else None


def print_table(table: Table, breakable: int | None = None, *, fit: bool = False) -> None:
    """Print ``table`` without breaking words. Piped or redirected, it is laid out at its
    natural width (as wide as its longest cells, one line per row), so scripts and logs
    get every cell whole; on a terminal too narrow for it, columns wrap between words
    (:func:`whole_word_widths`; ``breakable`` as there): a word of the ``breakable``
    column longer than its width ends in "…", a word of another column (only when even
    the longest words do not fit side by side) folds. ``fit``: a table of long free text
    (`claims list`, whose --json has every cell whole) is laid out in :func:`fit_width`
    characters (``$COLUMNS`` honoured piped too) with no word of another column split:
    when its longest words do not fit side by side there, it is as narrow as they
    allow (:func:`whole_word_minimum`), wider than asked."""
    from rich.console import Console

    width = fit_width() if fit else console.width if console.is_terminal else None
    if width is not None:
        for i, column in enumerate(table.columns):
            column.overflow = "ellipsis" if i == breakable else "fold"
        widths = whole_word_widths(table, width, breakable)
        if widths is None and fit:
            width = whole_word_minimum(table, breakable)
            widths = whole_word_widths(table, width, breakable)
        if widths is not None:
            for column, w in zip(table.columns, widths, strict=True):
                column.width = w
        out = Console(file=console.file, width=width, highlight=False) if fit else console
        out.print(table)
        return
    for column in table.columns:
        column.overflow = "fold"
    natural = console.measure(table, options=console.options.update_width(_UNBOUNDED)).maximum
    Console(file=console.file, width=max(natural, 1), highlight=False).print(table)


DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar="<path|url>",
        help="SQLite path or database URL (default: $TRACKER_DATABASE_URL or data/tracker.db).",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of text.")]
DataOpt = Annotated[
    Path, typer.Option("--data", help="Folder with subjects.toml, watches.toml and claims/.")
]

F = TypeVar("F", bound=Callable[..., Any])


def _loaded_error(exc: BaseException, module: str, name: str) -> bool:
    """Whether ``exc`` is a ``module.name``. An error class can only have been raised if
    its module was imported, so this needs no import: commands load the ORM, the loader
    or a database driver only when they use them (a fast `tracker check`, issue 7)."""
    cls = getattr(sys.modules.get(module), name, None)
    return cls is not None and isinstance(exc, cls)


def _database_error(exc: BaseException) -> bool:
    return (
        _loaded_error(exc, "sqlalchemy.exc", "SQLAlchemyError")
        or _loaded_error(exc, "sqlite3", "Error")
        or _loaded_error(exc, "psycopg", "Error")
    )


def database_name(db: str | None) -> str:
    """`` FILE`` (a SQLite database's path) or `` URL`` (another's, password hidden) for
    ``--db`` ``db`` (None: ``TRACKER_DATABASE_URL``, else the default file), to name the
    database a database error is about ("database mydata/subjects.toml: file is not a
    database"); empty when the URL cannot be read."""
    from claims.store.rawdb import database_url

    url = database_url(db or settings.database_url())
    if url.startswith("sqlite:///"):
        return f" {url.removeprefix('sqlite:///')}"
    try:
        return f" {checked_db_url(db).render_as_string(hide_password=True)}"
    except DatabaseUnavailable:  # only a name for the message
        return ""


def _data_file_report(exc: DataFileError, json_out: bool) -> typer.Exit:
    """The one-line error (and ``--json`` document with every problem) of a bad data file."""
    from claims.curated.problems import error_records, error_text

    return report(error_text(exc), kind=exc.kind, json_out=json_out, problems=error_records(exc))


def db_hint(reason: str) -> str:
    """What to do about a database driver's first error line, to append to it: a
    PostgreSQL database that does not exist (``database "team" does not exist``) must be
    made first with ``createdb`` (tracker makes tables, never databases); else empty."""
    missing = re.search(r'database "([^"]+)" does not exist', reason)
    if missing:
        return f"; create it first: `createdb {missing.group(1)}` (PostgreSQL's client)"
    return ""


def friendly_errors(fn: F) -> F:
    """Turn known errors into one ``error:`` line on stderr and exit status 1 (no
    traceback), and with ``--json`` (the command's ``json_out``) also the JSON error
    document on stdout (:mod:`tracker.cli.failures`): every TrackerError and ClaimsError
    (the tree in :mod:`tracker.errors`); a DataFileError as ``path:line: field`` (every
    problem of a data folder, in ``problems`` with ``--json``), database errors
    (SQLAlchemy, sqlite3, psycopg) and other OSErrors; a closed output pipe is left to
    :func:`tracker.cli.main.main`, which ends quietly."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        json_out = bool(kwargs.get("json_out"))
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            if was_interrupted(exc):  # e.g. a rollback Ctrl-C cut short: not the error
                raise KeyboardInterrupt from None
            # a DataFileError, tested without importing the data-file reader (see above)
            if _loaded_error(exc, "claims.curated.datafile", "DataFileError"):
                raise _data_file_report(cast("DataFileError", exc), json_out) from None
            if isinstance(exc, TrackerError | ClaimsError):
                raise fail(exc, json_out=json_out) from None
            if _database_error(exc):
                reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
                reason += db_hint(reason)
                which = database_name(kwargs["db"]) if "db" in kwargs else ""
                raise report(f"database{which}: {reason}", kind="database",
                             json_out=json_out) from None  # fmt: skip
            if isinstance(exc, OSError) and not isinstance(exc, BrokenPipeError):
                where = f": {exc.filename}" if exc.filename else ""
                message = f"{exc.strerror or exc}{where}"
                raise report(message, kind="file", json_out=json_out) from None
            raise

    return wrapper  # type: ignore[return-value]


def print_json(obj: Any, *, sort_keys: bool = False) -> None:
    """JSON to stdout (plain, so pipes get exactly the document); times via
    :func:`json_default`."""
    text = json.dumps(obj, indent=2, ensure_ascii=False, sort_keys=sort_keys, default=json_default)
    sys.stdout.write(text + "\n")


def check_sqlite_path(path: Path, *, create: bool, given: bool) -> None:
    """Refuse a SQLite ``path`` that cannot be the database meant, with one line
    (DatabaseUnavailable): a folder ("is a folder, not a database file"); a file that
    does not exist unless ``create`` (``tracker load``/``demo``); and even then a file
    whose folder does not exist, as a mistyped ``--db`` (``/nonexistent/dir/x.db``) must
    not silently make a new folder and an empty database. Only the default file's folder
    (``data/``, ``given`` False and no ``TRACKER_DATABASE_URL``) is made when missing."""
    from claims.store.rawdb import DEFAULT_DB_PATH

    if path.is_dir():
        raise DatabaseUnavailable(
            f"database {path} is a folder, not a database file; give --db a file path "
            f"(e.g. {path / 'tracker.db'})"
        )
    if path.is_file():
        return
    if not create:
        hint = "" if given else ", or pass --db"
        raise DatabaseUnavailable(
            f"database {path} does not exist; run `tracker demo` or `tracker load` first{hint}"
        )
    folder = path.parent
    if folder.is_dir():
        return
    if path == DEFAULT_DB_PATH:
        folder.mkdir(parents=True, exist_ok=True)
        return
    raise DatabaseUnavailable(
        f"folder {folder} does not exist (database {path}); check --db or "
        "$TRACKER_DATABASE_URL, or create the folder first"
    )


def open_db(
    db: str | None, *, create: bool = False, write: bool = False, schema: bool = True
) -> Engine:
    """The engine for ``--db`` (or ``TRACKER_DATABASE_URL``, or the default file).

    Commands that write pass ``write=True``: a database at an older schema revision is
    upgraded first (:func:`claims.store.migrate.upgrade`). Commands that only read leave
    it False: nothing is written (a read-only PostgreSQL role works), and an older schema
    is an error saying to run ``tracker db upgrade``. Without ``create`` (which implies
    ``write``: ``tracker load`` and ``tracker demo``) a SQLite file that does not exist is
    an error (never silently created empty). ``schema=False`` leaves the schema alone
    (``tracker db upgrade`` applies it itself). Raises DatabaseUnavailable (a TrackerError) with one clear line.
    """
    from sqlalchemy.exc import SQLAlchemyError

    from claims.store.engine import connect, make_engine

    given = db
    db = db or settings.database_url()
    parsed = checked_db_url(db)
    shown = parsed.render_as_string(hide_password=True)
    if parsed.drivername.startswith("sqlite") and parsed.database not in (None, "", ":memory:"):
        check_sqlite_path(Path(parsed.database), create=create, given=bool(given))
    try:
        return make_engine(db, upgrade=write or create) if schema else connect(db)
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        raise DatabaseUnavailable(
            f"cannot open database {shown}: {reason}{db_hint(reason)}"
        ) from None
    except ImportError as exc:  # a driver that is not installed
        raise DatabaseUnavailable(f"cannot open database {shown}: {exc}") from None


_POSTGRES_HINT = "use postgresql+psycopg://USER@HOST/DB (psycopg 3, the driver installed)"


def checked_db_url(db: str | None) -> Any:
    """``--db`` ``db`` (None: ``TRACKER_DATABASE_URL``, else the default file) resolved
    and parsed into a SQLAlchemy ``URL``: the one place every command's database path or
    URL is validated. Raises DatabaseUnavailable with one line naming the URL (password
    hidden) and its problem: not a URL, a port that is no number, a backend other than
    SQLite/PostgreSQL, a PostgreSQL driver other than psycopg (3)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from claims.store.rawdb import database_url

    url = database_url(db or settings.database_url())
    hidden = re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url)
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseUnavailable(f"{hidden!r} is not a database path or URL") from None
    except ValueError as exc:  # sqlalchemy reads the port with int()
        bad = re.search(r"int\(\) with base 10: '(.*)'", str(exc))
        why = f"port {bad.group(1)!r} is not a number" if bad else str(exc)
        raise DatabaseUnavailable(f"bad database URL {hidden!r}: {why}") from None
    shown = parsed.render_as_string(hide_password=True)
    backend, _, driver = parsed.drivername.partition("+")  # no dialect loaded
    if backend not in ("sqlite", "postgresql"):
        raise DatabaseUnavailable(
            f"unsupported database {shown}: use a file path, sqlite:///PATH or "
            "postgresql+psycopg://USER@HOST/DB"
        )
    if backend == "postgresql" and driver not in ("", "psycopg"):
        raise DatabaseUnavailable(f"unsupported driver {driver!r} in {shown}: {_POSTGRES_HINT}")
    return parsed


def open_read_db(db: str | None) -> RawDB:
    """A plain DB-API connection for a command that only reads through
    :mod:`claims.store.rows` (``tracker build``: no ORM loaded). Nothing is written (a
    read-only PostgreSQL role works). Whatever it cannot open (a missing file, an
    unsupported URL, a schema older than this code, an unreachable server) fails with
    :func:`open_db`'s one clear line, which loads SQLAlchemy only then."""
    try:
        return RawDB.open(db or settings.database_url())
    except Exception as exc:
        if not isinstance(exc, SchemaMissing | ValueError | ImportError) and not _database_error(
            exc
        ):
            raise
        open_db(db).dispose()  # raises the one-line error every read command gives
    return RawDB.open(db or settings.database_url())


def open_cycle_db(db: str | None) -> RawDB:
    """The plain DB-API connection the watch cycle records through (:mod:`claims.store.rawdb`;
    no ORM loaded). A database whose schema is older than this code is upgraded first
    through :func:`open_db` (the cycle writes); a missing SQLite file is the same clear
    error as there."""
    db = db or settings.database_url()
    try:
        return RawDB.open(db)
    except Exception as exc:
        if not isinstance(exc, SchemaMissing | ValueError) and not _database_error(exc):
            raise
        # open_db explains a missing file or a bad URL in one line (checked_db_url), and
        # creates or upgrades the schema of an existing database
        open_db(db, write=True).dispose()
    return RawDB.open(db)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 event``, ``2 events``; ``many`` is the plural when it is not ``word + "s"``
    (``plural(2, "watch", "watches")``)."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def plain(value: object) -> str:
    """Data for a ``console.print`` string with markup: control and escape sequences
    shown as visible escapes (:func:`claims.values.safetext.terminal_text`) and rich
    markup escaped, so a ``[/]`` in a licence or an ESC from a scraped page is printed,
    never interpreted (issue 20)."""
    from rich.markup import escape

    return escape(terminal_text(str(value)))


def echo_wrapped(line: str) -> None:
    """Print ``line`` as is when piped (one line per item for scripts); on a terminal, wrapped
    between words at its width with the line's indent kept, so the terminal does not
    cut words at its edge. Control characters in it show as visible escapes."""
    import shutil
    import textwrap

    line = terminal_text(line)
    if not sys.stdout.isatty():
        typer.echo(line)
        return
    indent = " " * (len(line) - len(line.lstrip(" ")) + 2)
    width = shutil.get_terminal_size().columns
    typer.echo(textwrap.fill(line, width=width, subsequent_indent=indent, break_long_words=False,
                             break_on_hyphens=False))  # fmt: skip
