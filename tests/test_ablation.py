"""The block classifier's feature-group ablation (``scrapy-denoise bench blocks``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapy_denoise.methods.blocks import FEATURE_NAMES
from scrapy_denoise.models.ablation import (
    FEATURE_GROUPS,
    SHIPPED,
    AblationRow,
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
        seeds=(0, 1), limit=8, train_datasets=["cleaneval", "dragnet"],
        progress=lambda line: None,
    )  # fmt: skip
    assert [row.variant.name for row in rows] == [v.name for v in chosen]
    for row in rows:
        f1 = row.f1["cleaneval"]
        assert f1 is not None and 0.0 < f1 <= 1.0
        assert row.support_vectors > 0
        # one dataset: each seed's mean is that seed's F1, and the row averages them
        assert len(row.seed_f1) == 2
        assert f1 == pytest.approx(sum(row.seed_f1) / 2)
    table = format_ablation(rows)
    assert "| paper R1-R5, one stage | 5 |" in table
    assert "vs shipped, per seed |" in table
    assert "+0.000 | +0.000 / +0.000 |" in table  # the shipped row against itself


def test_ablation_needs_a_seed(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="seeds"):
        ablation(tmp_path, eval_datasets=[], seeds=())


def test_format_ablation_gives_each_seed_its_own_difference() -> None:
    shipped, other = (v for v in variants() if v.name in (SHIPPED, "without neighbours"))
    rows = [
        AblationRow(shipped, {"a": 0.80}, 10, (0.81, 0.79)),
        AblationRow(other, {"a": 0.79}, 10, (0.78, 0.80)),
    ]
    table = format_ablation(rows)
    assert "| without neighbours | 55 | 10 | 0.790 | 0.790 | -0.010 | -0.030 / +0.010 |" in table
