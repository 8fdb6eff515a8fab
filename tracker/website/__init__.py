"""The static dashboard site: ``build_site(engine, Path("site"))`` (collect, then write)."""

from __future__ import annotations

from tracker.website.build import BuildReport, build_site
from tracker.website.writer import SiteError

__all__ = ["BuildReport", "SiteError", "build_site"]
