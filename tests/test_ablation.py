"""The block classifier's feature-group ablation (``scrapy-denoise bench blocks``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapy_denoise.methods.blocks import FEATURE_NAMES
from scrapy_denoise.models.ablation import (
    FEATURE_GROUPS,
    SHIPPED,
    ablation,
    format_ablation,
    variants,
)
from scrapy_denoise.models.train_blocks import DEFAULT_FEATURES


def test_feature_groups_partition_the_features() -> None:
    grouped = [name for names in FEATURE_GROUPS.values() for name in names]
    assert sorted(grouped) == sorted(FEATURE_NAMES)
    assert len(grouped) == len(set(grouped))


def test_variants_drop_each_used_group_and_add_each_left_out_group() -> None:
    by_name = {v.name: v for v in variants()}
    shipped = by_name[SHIPPED]
    assert shipped.context and set(shipped.features) == set(DEFAULT_FEATURES)
    for group, names in FEATURE_GROUPS.items():
        if group == "paper R1-R5":
            continue
        if set(names) <= set(DEFAULT_FEATURES):
            variant = by_name[f"without {group}"]
            assert set(variant.features) == set(DEFAULT_FEATURES) - set(names)
        else:
            variant = by_name[f"with {group}"]
            assert set(variant.features) == set(DEFAULT_FEATURES) | set(names)
    assert "with page" in by_name  # the group the shipped model leaves out
    assert by_name["paper R1-R5, one stage"].features == FEATURE_GROUPS["paper R1-R5"]


@pytest.mark.data
def test_ablation_trains_and_scores_variants_through_the_denoiser(shared_data: Path) -> None:
    chosen = [v for v in variants() if v.name in ("paper R1-R5, one stage", SHIPPED)]
    rows = ablation(
        shared_data, eval_datasets=["cleaneval"], chosen=chosen, per_class=150, folds=3,
        limit=8, train_datasets=["cleaneval", "dragnet"], progress=lambda line: None,
    )  # fmt: skip
    assert [row.variant.name for row in rows] == [v.name for v in chosen]
    for row in rows:
        f1 = row.f1["cleaneval"]
        assert f1 is not None and 0.0 < f1 <= 1.0
        assert row.support_vectors > 0
    table = format_ablation(rows)
    assert "| paper R1-R5, one stage | 5 |" in table
    assert "+0.000 |" in table  # the shipped row against itself
