"""Shared test helpers: paths to ../shared (skipped when absent) and a fresh database."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture
def shared_dir() -> Path:
    """../shared, or skip the test cleanly when it is not beside the checkout."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED


@pytest.fixture
def engine(tmp_path):
    from claims.db import make_engine

    return make_engine(tmp_path / "test.db")
