"""The shipped model files are what ``make models`` writes from the shared data today.

Retraining takes minutes, so these tests recompute only what each model was fitted on (the
training pages' labels and feature sums, stored in the file by the trainer) and compare.
A change to the loader or the features that moves the training data fails here, with the
command that rebuilds the files: a day of such changes once went unnoticed, and the
shipped models no longer matched their own rebuild command.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from scrapy_denoise.methods.block_svm import DEFAULT_MODEL_PATH as BLOCK_MODEL
from scrapy_denoise.page.model import DEFAULT_MODEL_PATH as PAGE_MODEL

_REBUILD = "the training data moved: rebuild the shipped models with `make models`"


def _stored(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["metadata"]
    return dict(data["training_data"])


def _assert_same(found: dict[str, Any], stored: dict[str, Any]) -> None:
    sums = found.pop("feature_sums")
    expected = stored.pop("feature_sums")
    assert found == stored, _REBUILD
    # relative 1e-9: a last-bit difference of log1p between machines stays far below it,
    # one block's feature changed moves a sum far above it
    assert np.allclose(sums, expected, rtol=1e-9, atol=1e-9), _REBUILD


def test_the_block_model_was_fitted_on_what_the_training_pages_give_today(
    shared_data: Path,
) -> None:
    from scrapy_denoise.models.train_blocks import SHIPPED_DATASETS, collect, training_data

    pages = collect(shared_data, datasets=list(SHIPPED_DATASETS), progress=lambda _: None)
    _assert_same(training_data(pages), _stored(BLOCK_MODEL))


def test_the_page_model_was_fitted_on_what_the_training_pages_give_today(
    shared_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    from scrapy_denoise.models.train_pages import _training_pages, collect_pages, training_data

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # no feature cache of a past run
    pages = _training_pages(collect_pages(shared_data, progress=lambda _: None))
    _assert_same(training_data(pages), _stored(PAGE_MODEL))
