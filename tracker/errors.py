"""Exception tree of release-tracker: every type raised on purpose, in one drawing.

The CLI prints any ``TrackerError`` or ``ClaimsError`` as one line (exit 1); a data-file
problem lists every problem of the folder (``path:line: field: message``).

    TrackerError                  (tracker/errors.py) base of the I/O layer's errors
    ├── ConfigError               a bad setting or data file (names file/line/field)
    │   └── CandidateErrors       `claims import`: every bad candidate of the file
    ├── FetchError                the request did not yield a usable response
    │   ├── FetchTimeout          connect/read timeout
    │   ├── RateLimited           429 (or 503 with Retry-After) after the retry budget
    │   ├── BadStatus             any other non-2xx status (kept: status, error code)
    │   ├── TooLarge              body over the size cap
    │   ├── NotRecorded           --replay: the request is not in the HAR file
    │   ├── Disallowed            robots.txt disallows the URL
    │   │   └── RobotsUnreachable robots.txt could not be fetched (a network error)
    │   ├── OffHost               a redirect or next link to a host not allowed
    │   └── PrivateAddress        a private/loopback/link-local address not allowed
    ├── ParseError                the body cannot be read as the adapter's format
    │   └── LayoutChanged         the expected element/key is missing: the watch is
    │                             marked failing; never read as "the value disappeared"
    ├── UnknownName               a subject, source or other name nothing stored has
    │                             (``did_you_mean``: the near known names)
    ├── DatabaseUnavailable       the database cannot be opened (missing file, bad
    │                             URL, driver or server error)
    ├── NothingRecorded           `tracker record`: no watch fetched anything, so no
    │                             HAR file was written (one already there is kept)
    ├── MissingCredential         (net/fetch.py) a watch's API key variable is unset:
    │                             the cycle skips that watch with one notice
    ├── BodyStoreError            (snapshots/store.py) the local snapshot body file is
    │                             of a newer schema or not a database (names the
    │                             file; it is left as it was)
    ├── SchedulerBusy             (schedule/locks.py) another scheduler holds the lease
    ├── LockLost                  (schedule/locks.py) this scheduler lost its lease
    ├── NotifyError               (alerts/send.py) an alert could not be delivered
    │   ├── DoesNotFit            the message is too long for the service
    │   └── NotSent               the service refused or did not answer
    └── SiteError                 (site/writer.py) the site cannot be written safely

    ClaimsError                   (claims/errors.py) base of the core's errors
    ├── DataFileError             (curated/datafile.py; also a ValueError) a curated
    │   │                         file is malformed: ``path:line: field: message``
    │   └── DataFileErrors        (curated/problems.py) every problem of a folder
    ├── StatedValueError          (values/stated.py; also a ValueError) a value's
    │                             notation cannot be read for its attribute
    ├── ExportError               (curated/export.py; also a ValueError) a stored
    │                             claim's value the data-file notation cannot state
    ├── ValueError_               (values/value.py; also a ValueError) a stored value
    │                             dict cannot be read
    ├── ReviewError               (store/review.py; also a LookupError) no such
    │                             discrepancy or subject
    ├── FormatChanged             (readings/boards.py; also a ValueError) a leaderboard
    │                             or endpoints body of another shape (adapters raise
    │                             it on as LayoutChanged)
    ├── StatementSpecError        (readings/statements.py; also a ValueError) a
    │                             claimant_page statement that cannot be used
    └── SchemaMissing             (store/rawdb.py; also a RuntimeError) the database
                                  has no, or an older, release-tracker schema

    Internal signal, never raised out of the function that catches it:
    Exception
    └── RecordMiss                (website/views.py) a site build reached claim views
                                  a per-subject build record stood in for;
                                  ``build_site`` builds again from every subject's

Each FetchError/ParseError carries ``kind`` (a short machine name stored on the watch).
Errors of libraries (httpx, SQLAlchemy, sqlite3, psycopg, OSError) are turned into
these at the seam that calls them, or into one ``error: database: …`` line by the CLI.
"""

from __future__ import annotations


class TrackerError(Exception):
    """Base of all errors the CLI reports as one clear line."""

    kind = "error"


class UnknownName(TrackerError):
    """A name (subject slug or alias, source key...) nothing stored has. The message
    names it; ``did_you_mean`` lists the near known names (empty when none is near), which
    ``--json`` errors give as a list."""

    kind = "unknown_name"

    def __init__(self, message: str, did_you_mean: tuple[str, ...] | list[str] = ()) -> None:
        super().__init__(message)
        self.did_you_mean = list(did_you_mean)


class DatabaseUnavailable(TrackerError):
    """The database cannot be opened: a missing SQLite file, an unsupported URL, a driver
    that is not installed, or the server's refusal; the message says which."""

    kind = "database"


class ConfigError(TrackerError):
    """A bad setting, data file or watch param; the message names file, line and field."""

    kind = "config"


class CandidateErrors(ConfigError):
    """Every bad candidate of a `tracker claims import` file (``problems``: a list of
    ``{"candidate": N, "message"}``, N 1-based); the message is the one bad candidate's,
    or a count line and one line per candidate."""

    kind = "candidates"

    def __init__(self, problems: list[tuple[int, str]], total: int) -> None:
        head = f"{len(problems)} of {total} candidates cannot be imported (nothing was):"
        lines = [head, *(f"  {m}" for _n, m in problems)] if len(problems) > 1 else [problems[0][1]]
        super().__init__("\n".join(lines))
        self.problems = [{"candidate": n, "message": m} for n, m in problems]


class FetchError(TrackerError):
    """The request yielded no usable response; ``url`` and ``status`` say where and what."""

    kind = "fetch_error"

    def __init__(self, message: str, *, url: str | None = None, status: int | None = None) -> None:
        super().__init__(message)
        self.url = url
        self.status = status


class FetchTimeout(FetchError):
    """Connect, read or total time limit reached."""

    kind = "timeout"


class RateLimited(FetchError):
    """429 (or 503 with Retry-After) after the retry budget; the watch waits."""

    kind = "rate_limited"


class BadStatus(FetchError):
    """A non-2xx answer. ``error_code`` is the server's machine code (the Hub's
    ``X-Error-Code``: RepoNotFound, GatedRepo, EntryNotFound...). ``kind`` tells them
    apart: ``missing_or_private`` (Hub 401 RepoNotFound, anonymous), ``not_found``
    (a real 404), ``gated``, ``unauthorized``, ``entry_not_found``, ``bad_status``."""

    kind = "bad_status"

    def __init__(
        self,
        message: str,
        *,
        url: str | None = None,
        status: int | None = None,
        error_code: str | None = None,
        kind: str | None = None,
    ) -> None:
        super().__init__(message, url=url, status=status)
        self.error_code = error_code
        if kind:
            self.kind = kind


class TooLarge(FetchError):
    """The body (decompressed) passed the size cap."""

    kind = "too_large"


class NotRecorded(FetchError):
    """``--replay``: the request is not in the HAR file."""

    kind = "not_recorded"


class Disallowed(FetchError):
    """robots.txt disallows the URL for our user agent, or could not be read (RFC 9309
    §2.3.1.4: an unreachable robots.txt means complete disallow)."""

    kind = "robots_disallowed"


class RobotsUnreachable(Disallowed):
    """robots.txt could not be fetched (a network error, a timeout): the page is not
    fetched either, but the cause is the network, not the site's rules."""

    kind = "robots_unreachable"


class ParseError(TrackerError):
    """The body cannot be read as the adapter's format."""

    kind = "parse_error"


class LayoutChanged(ParseError):
    """The expected element or key is missing: the watch fails; never read as a value gone."""

    kind = "layout_changed"


class NothingRecorded(TrackerError):
    """A recording cycle in which no watch succeeded; ``summary`` is its CycleSummary
    (the CLI still prints it). The HAR file was not written."""

    kind = "nothing_recorded"

    def __init__(self, message: str, summary: object) -> None:
        super().__init__(message)
        self.summary = summary


class BodyStoreError(TrackerError):
    """The local snapshot body file (``data/snapshots/bodies.sqlite3``) cannot be used:
    its schema is newer than this code, or it is not a SQLite database; the message names
    the file, which is left as it was."""

    kind = "body_store"


# Exceptions a hostile value raises where code reads or stores it (a RecursionError, a
# decimal overflow, a lone surrogate the database cannot encode, a parser's ValueError).
DATA_ERRORS: tuple[type[Exception], ...] = (
    ArithmeticError,
    LookupError,
    RecursionError,
    TypeError,
    UnicodeError,
    ValueError,
)
UNEXPECTED_MAX = 200  # characters of an unexpected exception's message kept


def unexpected(url: str, exc: BaseException) -> ParseError:
    """A :class:`ParseError` (kind ``parse_error``) for an exception a parser did not
    expect: one line naming ``url``, the exception's type and its message (control
    characters dropped, at most :data:`UNEXPECTED_MAX` characters), e.g. ``https://x/:
    RecursionError: maximum recursion depth exceeded``."""
    text = " ".join(str(exc).split())
    text = "".join(c if c.isprintable() else "?" for c in text)[:UNEXPECTED_MAX]
    err = ParseError(
        f"{url}: {type(exc).__name__}: {text}" if text else f"{url}: {type(exc).__name__}"
    )
    err.__cause__ = exc
    return err


class OffHost(FetchError):
    """A redirect or a next-page link to a host the watch may not fetch from (issue 20:
    fetching that cannot be steered); the message names the target."""

    kind = "off_host"


class PrivateAddress(FetchError):
    """A URL whose host is (or resolves to) a private, loopback or link-local address,
    which a watch fetches only when it allows it (param ``allow_private``)."""

    kind = "private_address"
