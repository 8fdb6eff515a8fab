"""The static dashboard site: ``build_site(engine, Path("site"))`` (collect, then write)."""

from __future__ import annotations

from tracker.site.build import BuildReport, build_site
from tracker.site.writer import SiteError

__all__ = ["BuildReport", "SiteError", "build_site"]
