"""Every ``TRACKER_*`` environment variable: read here and nowhere else, documented once.

Each reader takes an optional ``env`` mapping (tests pass one; the default is the
process environment) and returns ``None`` when the variable is unset or blank, so the
caller's own default applies. README "Configuration" lists the same variables; a test
checks that the two lists agree.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping
from contextvars import ContextVar

from tracker.errors import ConfigError

# name -> what it sets (README "Configuration" shows these, with the defaults).
VARIABLES: dict[str, str] = {
    "TRACKER_DATABASE_URL": "SQLite path URL or PostgreSQL URL (--db overrides)",
    "TRACKER_CONTACT": "contact put in the User-Agent of every request",
    "TRACKER_CONCURRENCY": "watches fetched at once in one check",
    "TRACKER_AA_API_KEY": "Artificial Analysis API key (named by that watch's auth param)",
    "TRACKER_APPRISE_URLS": "Apprise URLs for alerts, separated by spaces or commas",
    "TRACKER_SITE_URL": "public URL of the site, for absolute feed ids and alert links",
    "TRACKER_LLM_API_KEY": "API key of the chat endpoint of `claims extract --extractor llm`",
}


def _get(name: str, env: Mapping[str, str] | None) -> str | None:
    value = (os.environ if env is None else env).get(name, "").strip()
    return value or None


def database_url(env: Mapping[str, str] | None = None) -> str | None:
    """``TRACKER_DATABASE_URL``: a database URL or SQLite path, or None."""
    return _get("TRACKER_DATABASE_URL", env)


def contact(env: Mapping[str, str] | None = None) -> str | None:
    """``TRACKER_CONTACT``: who to reach about our requests (put in the User-Agent)."""
    return _get("TRACKER_CONTACT", env)


def concurrency(env: Mapping[str, str] | None = None) -> int | None:
    """``TRACKER_CONCURRENCY``: a positive integer, or None; raises ConfigError naming the
    variable for anything else."""
    workers = _get("TRACKER_CONCURRENCY", env)
    if workers is None:
        return None
    if not workers.isdigit() or int(workers) < 1:
        raise ConfigError(f"TRACKER_CONCURRENCY must be a positive integer, not {workers!r}")
    return int(workers)


def apprise_urls(env: Mapping[str, str] | None = None) -> str | None:
    """``TRACKER_APPRISE_URLS``: the raw list (split by :mod:`tracker.alerts.subscriptions`)."""
    return _get("TRACKER_APPRISE_URLS", env)


def site_url(env: Mapping[str, str] | None = None) -> str | None:
    """``TRACKER_SITE_URL``: the site's public URL, or None."""
    return _get("TRACKER_SITE_URL", env)


def llm_api_key(env: Mapping[str, str] | None = None) -> str | None:
    """``TRACKER_LLM_API_KEY``: the key sent to the LLM extractor's endpoint, or None (a
    local llama.cpp / Ollama / vLLM server needs none)."""
    return _get("TRACKER_LLM_API_KEY", env)


def terminal_columns(env: Mapping[str, str] | None = None) -> int | None:
    """``COLUMNS`` (the shell's own variable, not the tracker's: Rich and ``ls`` read it
    too): the width a fitted table (`tracker claims list`) is laid out in, honoured piped
    as well; None when unset or not a positive whole number."""
    raw = _get("COLUMNS", env)
    return int(raw) if raw is not None and raw.isdigit() and int(raw) > 0 else None


# Stands in for an unset API key while `tracker demo` replays recorded answers: nothing
# is sent anywhere (the HAR transport serves every request) and recordings hold no key.
REPLAY_KEY = "replayed-recording-no-key-needed"
_replaying: ContextVar[bool] = ContextVar("replaying_recordings", default=False)


@contextlib.contextmanager
def replayed_secrets() -> Iterator[None]:
    """Within this block an unset credential reads as :data:`REPLAY_KEY`, so a replayed
    cycle (the demo) shows the watches that need a key offline. The environment is not
    touched."""
    token = _replaying.set(True)
    try:
        yield
    finally:
        _replaying.reset(token)


def secret(name: str, env: Mapping[str, str] | None = None) -> str | None:
    """A credential variable a watch's ``auth`` param names (``TRACKER_AA_API_KEY``);
    :data:`REPLAY_KEY` when unset inside :func:`replayed_secrets`."""
    value = _get(name, env)
    if value is None and _replaying.get():
        return REPLAY_KEY
    return value
