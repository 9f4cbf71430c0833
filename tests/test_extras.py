"""The install hints of missing optional modules: never a PyPI name, which is not this package."""

from __future__ import annotations

from pathlib import Path

import pytest

import scrapy_denoise
from scrapy_denoise import extras
from scrapy_denoise.extras import install_hint


def test_the_hint_names_the_checkout_this_copy_runs_from() -> None:
    checkout = Path(scrapy_denoise.__file__).resolve().parent.parent
    assert (checkout / "pyproject.toml").is_file()  # the suite runs from a checkout
    assert install_hint("postgresql") == f'pip install -e "{checkout}[postgresql]"'


def test_an_installed_copy_says_where_the_checkout_path_goes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(extras, "_checkout", lambda: None)
    hint = install_hint("compare")
    assert hint.startswith('pip install "path/to/scrapy-denoise[compare]"')
    assert "pip install 'scrapy-denoise" not in hint
