"""Shared fixtures: where the real data is, and the database servers tests may use."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def shared_data_dir() -> Path | None:
    path = Path(os.environ.get("DENOISE_SHARED_DATA", REPO.parent / "shared" / "data"))
    return path if path.is_dir() else None


@pytest.fixture(scope="session")
def shared_data() -> Path:
    path = shared_data_dir()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("../shared/data is missing in CI (set DENOISE_SHARED_DATA)")
        pytest.skip("real data not found: set DENOISE_SHARED_DATA to the shared/data folder")
    return path


@pytest.fixture(scope="session")
def postgres_url() -> str:
    url = os.environ.get("DENOISE_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("set DENOISE_TEST_POSTGRES_URL to run PostgreSQL tests")
    return url
