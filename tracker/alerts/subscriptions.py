"""Alert subscriptions: ``data/subscriptions.toml`` plus ``TRACKER_APPRISE_URLS``.

File format (one table per subscription)::

    [[subscription]]
    name = "team-discord"                 # unique; the delivery log's key
    url = "discord://ID/TOKEN"            # any Apprise URL (https://appriseit.com/services/)
    # or several: urls = ["tgram://...", "discord://...", "mailto://..."]
    subjects = ["kimi-k3.1-pro"]          # optional; default: every subject
    kinds = ["weights_landed", "license_changed"]   # optional; default: every kind of the audience
    audience = "subscriber"               # or "operator" (watch_failing, watch_recovered, ...)
    max_length = 2000                     # optional cap below the channel's own limit

``TRACKER_APPRISE_URLS`` (URLs separated by spaces or commas) adds one subscriber
subscription per URL, named ``env-1``, ``env-2``, ... with no filter.

A subscription with several URLs (``urls``, or several in ``url`` as Apprise allows) is
one route to several targets: it is expanded into one :class:`Subscription` per URL,
named ``NAME#<first 8 hex of the URL's sha256>`` (stable when the list is reordered), so
delivery is recorded, and retried, per URL (cases/C31).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from claims.curated.datafile import nearest
from claims.events import EVENT_KINDS
from tracker import settings
from tracker.errors import ConfigError

DEFAULT_PATH = Path("data") / "subscriptions.toml"
ENV_URLS = "TRACKER_APPRISE_URLS"
AUDIENCES = ("subscriber", "operator")
_KEYS = {"name", "url", "urls", "subjects", "kinds", "audience", "max_length"}
# Where one Apprise URL ends and the next begins in a list written as one string.
_URL_SPLIT = re.compile(r"[\s,]+(?=[A-Za-z][A-Za-z0-9+.-]*://)")


@dataclass(frozen=True)
class Subscription:
    """Where and what to alert. Empty ``subjects``/``kinds`` mean "all"."""

    name: str
    url: str
    subjects: frozenset[str] = frozenset()
    kinds: frozenset[str] = frozenset()
    audience: str = "subscriber"
    max_length: int | None = None
    origin: str = ""  # where it was given, when not the file: "URL 2 of TRACKER_APPRISE_URLS"

    def label(self) -> str:
        """How messages name it: ``subscription 'team'``; one from the environment also
        says where and which URL, without secrets: ``subscription 'env-2' (URL 2 of
        TRACKER_APPRISE_URLS: discord://…)`` (see :func:`redacted_url`)."""
        if not self.origin:
            return f"subscription {self.name!r}"
        return f"subscription {self.name!r} ({self.origin}: {redacted_url(self.url)})"

    def wants(self, kind: str, audience: str, subject_slug: str | None) -> bool:
        """True when an event of ``kind``/``audience`` about ``subject_slug`` goes here.

        Operator events go to operator subscriptions only, and subscriber events to
        subscriber subscriptions only.
        """
        if audience != self.audience:
            return False
        if self.kinds and kind not in self.kinds:
            return False
        return not self.subjects or subject_slug in self.subjects


def subscriptions_path(path: Path | None = None, data_dir: Path | None = None) -> Path:
    """The subscriptions file a command reads: ``path`` (``--config``) when given, else
    ``subscriptions.toml`` in ``data_dir`` (``--data``, the folder ``tracker track --data``
    wrote it to), else ``data/subscriptions.toml``."""
    if path is not None:
        return path
    return (data_dir if data_dir is not None else DEFAULT_PATH.parent) / DEFAULT_PATH.name


def load_subscriptions(
    path: Path | None = None,
    env: Mapping[str, str] | None = None,
    data_dir: Path | None = None,
) -> list[Subscription]:
    """Read the config file and the environment variable. ``path`` None reads
    ``subscriptions.toml`` of ``data_dir`` (default ``data/``) when it exists
    (:func:`subscriptions_path`); a ``path`` given that does not exist is an error (a
    mistyped ``--config`` must not read as "no subscriptions").

    Raises :class:`ConfigError` naming the file, the entry and the field for an unknown
    key (with the nearest known one), an unknown kind, an operator kind on a subscriber
    subscription (or the reverse), a missing url, or a duplicate name.
    """
    if path is not None and not path.is_file():
        raise ConfigError(f"{path}: no such subscriptions file")
    path = subscriptions_path(path, data_dir)
    subs: list[Subscription] = []
    if path.is_file():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: {exc}") from exc
        for i, entry in enumerate(data.get("subscription", []), start=1):
            subs.extend(_entry(path, i, entry))
    urls = [u for u in (settings.apprise_urls(env) or "").replace(",", " ").split() if u]
    subs += [
        Subscription(name=f"env-{i}", url=u, origin=f"URL {i} of {ENV_URLS}")
        for i, u in enumerate(urls, start=1)
    ]
    seen: set[str] = set()
    for s in subs:
        if s.name in seen:
            raise ConfigError(f"{path}: subscription name {s.name!r} is used twice")
        seen.add(s.name)
    return subs


def describe_source(
    subs: list[Subscription], path: Path | None = None, data_dir: Path | None = None
) -> str:
    """Where ``subs`` came from, for the scheduler's start and for errors:
    ``2 subscriptions from my-models/subscriptions.toml and TRACKER_APPRISE_URLS``, or
    ``no subscriptions (no my-models/subscriptions.toml, TRACKER_APPRISE_URLS unset)``."""
    file = subscriptions_path(path, data_dir)
    from_file = sum(1 for s in subs if not s.origin.endswith(ENV_URLS))
    from_env = len(subs) - from_file
    if not subs:
        return f"no subscriptions (no {file}, {ENV_URLS} unset)"
    where = [str(file)] if from_file else []
    where += [ENV_URLS] if from_env else []
    noun = "subscription" if len(subs) == 1 else "subscriptions"
    return f"{len(subs)} {noun} from {' and '.join(where)}"


def no_subscriptions_hint(path: Path | None = None, data_dir: Path | None = None) -> str:
    """The error text when a command needs subscriptions and finds none: names the file
    it looked for and how to point at another (``--data DIR`` as ``track``/``load``
    take it, or ``--config FILE``)."""
    return (
        f"no subscriptions: no {subscriptions_path(path, data_dir)} and {ENV_URLS} unset; "
        "give --data DIR (the folder `tracker track --data DIR --subscribe URL` wrote to), "
        "--config FILE, or set TRACKER_APPRISE_URLS (docs/alerts.md)"
    )


def redacted_url(url: str) -> str:
    """``url`` safe to print: its scheme and host only (``json://127.0.0.1``), never the
    user, password, path or query. Apprise URLs often carry a token where the host goes
    (``tgram://BOT_TOKEN/CHAT``, ``discord://WEBHOOK_ID/TOKEN``), so a host is shown only
    when it reads as a network name (a dot, or ``localhost``), else ``…``. Text with no
    ``scheme://`` gives ``(not a URL)``."""
    try:
        parts = urlsplit(url) if "://" in url else None
        host = (parts.hostname or "") if parts is not None else ""
    except ValueError:  # e.g. an unclosed IPv6 bracket: "json://[::1/x"
        return "(not a URL)"
    if parts is None or not parts.scheme:
        return "(not a URL)"
    shown = host if "." in host or host == "localhost" else "…"
    return f"{parts.scheme}://{shown}"


def split_urls(text: str) -> list[str]:
    """Several Apprise URLs written in one string (separated by spaces or commas before
    the next ``scheme://``) as a list; one URL gives a list of one."""
    return [u for u in _URL_SPLIT.split(text.strip()) if u]


def target_name(name: str, url: str) -> str:
    """The delivery key of one URL of a multi-URL subscription: ``NAME#1a2b3c4d``."""
    return f"{name}#{hashlib.sha256(url.encode()).hexdigest()[:8]}"


def _entry(path: Path, i: int, entry: object) -> list[Subscription]:
    where = f"{path}: subscription #{i}"
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: expected a table")
    unknown = sorted(set(entry) - _KEYS)
    if unknown:
        hint = nearest(unknown[0], _KEYS)
        hint = f" ({hint})" if hint.startswith("did") else f"; {hint}"
        raise ConfigError(f"{where}: unknown field {unknown[0]!r}{hint}")
    name = entry.get("name")
    if not isinstance(name, str) or not name:
        raise ConfigError(f"{where}: field 'name' is required")
    where = f"{path}: subscription {name!r}"
    urls = _urls(entry, where)
    audience = entry.get("audience", "subscriber")
    if audience not in AUDIENCES:
        raise ConfigError(f"{where}: field 'audience' must be one of {', '.join(AUDIENCES)}")
    subjects = _names(entry, "subjects", where, "subject slugs")
    kinds = _names(entry, "kinds", where, "event kinds")
    for kind in kinds:
        if kind not in EVENT_KINDS:
            raise ConfigError(
                f"{where}: field 'kinds': unknown event kind {kind!r} "
                f"({nearest(kind, EVENT_KINDS)})"
            )
        if EVENT_KINDS[kind][0] != audience:
            raise ConfigError(
                f"{where}: field 'kinds': {kind!r} is an {EVENT_KINDS[kind][0]} kind, "
                f"not for a {audience} subscription"
            )
    max_length = entry.get("max_length")
    if max_length is not None and (not isinstance(max_length, int) or max_length < 200):
        raise ConfigError(f"{where}: field 'max_length' must be an integer of at least 200")
    return [
        Subscription(
            name=name if len(urls) == 1 else target_name(name, url),
            url=url,
            subjects=frozenset(subjects),
            kinds=frozenset(kinds),
            audience=audience,
            max_length=max_length,
            origin="" if len(urls) == 1 else f"URL {n} of {len(urls)} of subscription {name!r}",
        )
        for n, url in enumerate(urls, start=1)
    ]


def _urls(entry: dict, where: str) -> list[str]:
    """The entry's target URLs from ``url`` (one, or several in one string) or ``urls``
    (a list); ConfigError naming ``where`` for neither, both, a non-URL or a repeat."""
    if ("url" in entry) == ("urls" in entry):
        raise ConfigError(f"{where}: give field 'url' (one Apprise URL) or 'urls' (a list)")
    raw = entry.get("url", entry.get("urls"))
    field = "url" if "url" in entry else "urls"
    if isinstance(raw, str):
        urls = split_urls(raw)
    elif isinstance(raw, list) and all(isinstance(u, str) for u in raw):
        urls = [u.strip() for u in raw]
    else:
        raise ConfigError(f"{where}: field {field!r} must be an Apprise URL or a list of them")
    if not urls or any("://" not in u for u in urls):
        raise ConfigError(f"{where}: field {field!r} must be an Apprise URL")
    if len(set(urls)) != len(urls):
        raise ConfigError(f"{where}: field {field!r} names one URL twice")
    return urls


def _names(entry: dict, field: str, where: str, what: str) -> list[str]:
    """``entry[field]`` as a list of strings (empty when absent); ConfigError naming
    ``where`` and the field otherwise (a bare string would read as its characters)."""
    value = entry.get(field, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: field {field!r} must be a list of {what} in brackets")
    return value


def unknown_subjects(subs: list[Subscription], known: Collection[str]) -> list[str]:
    """One warning per subject slug a subscription names that ``known`` (the database's
    subject slugs) lacks, with the nearest known slug: ``subscription 'team': subject
    'kimi-k3.1-proo' is not in the database (did you mean 'kimi-k3.1-pro'?); no alert
    matches it until it is loaded``. Not an error: ``tracker load`` may not have stored
    that subject yet. Empty when every slug is known."""
    out = []
    for sub in subs:
        for slug in sorted(sub.subjects - set(known)):
            hint = nearest(slug, known) if known else "the database has no subjects yet"
            out.append(
                f"subscription {sub.name!r}: subject {slug!r} is not in the database "
                f"({hint}); no alert matches it until it is loaded"
            )
    return out
