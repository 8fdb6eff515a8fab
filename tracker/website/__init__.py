"""The static dashboard site: ``build_site(engine, Path("site"))`` (collect, then write)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.website.writer import SiteError

if TYPE_CHECKING:
    from tracker.website.build import BuildReport, build_site

__all__ = ["BuildReport", "SiteError", "build_site"]


def __getattr__(name: str) -> Any:
    """``build_site`` and ``BuildReport`` load on first use: the site writer's helper
    process imports ``tracker.website.writer`` only, not Jinja2 and SQLAlchemy."""
    if name in ("BuildReport", "build_site"):
        from tracker.website import build

        return getattr(build, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
