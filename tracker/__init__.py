"""The I/O around the claims core: fetching, adapters, scheduling, events, site, CLI."""

import sys
import types


def _keep_httpx_cli_out() -> None:
    """httpx 0.28 imports its command-line client (click, rich, pygments) on ``import
    httpx`` whenever those happen to be installed, as typer makes them here: about
    0.25 s and several MiB per process, for a CLI we never run (issue 7's cycle bench).
    A placeholder ``httpx._main`` keeps it out; upstream made this import lazy
    (pydantic/httpx2#947). Nothing changes if httpx was already imported."""
    if "httpx" in sys.modules or "httpx._main" in sys.modules:
        return
    stub = types.ModuleType("httpx._main")

    def main() -> None:
        raise SystemExit("the httpx command-line client is disabled inside release-tracker")

    stub.main = main  # type: ignore[attr-defined]
    sys.modules["httpx._main"] = stub


_keep_httpx_cli_out()
