"""Base of the errors the claims core raises; the whole tree is drawn in
:mod:`tracker.errors`. Each also keeps its built-in base (ValueError, LookupError,
RuntimeError), so callers that caught those still do."""

from __future__ import annotations


class ClaimsError(Exception):
    """Base of every error the claims core raises on purpose; the CLI prints its message
    as one line (exit 1). ``kind`` is the short machine name of ``--json`` errors."""

    kind = "invalid"
