"""Feature-group ablation of the block classifier: which features earn their place.

The paper's block SVM reads five ratios (R1-R5). The shipped model reads more (text shape,
position, tag kind, class/id words, the parent block, the neighbours, the page) and adds a
second, context stage. Each addition has to show that it helps on pages the model never
saw, so this module trains one model per variant on exactly the shipped model's training
pages (the *dev* split of :data:`~.train_blocks.SHIPPED_DATASETS`) with the shipped recipe
(:func:`~.train_blocks.fit_model`), and scores every variant on the *holdout* pages of
every dataset with truth, through the real extraction path (:class:`~scrapy_denoise.Denoiser`
with the variant's model file, no store), all variants on the same decoded pages.

Variants:

* ``paper R1-R5, one stage``: the paper's model (its five features, no context stage);
* ``shipped features, one stage``: the shipped features, no context stage;
* ``shipped: features + context`` (the shipped configuration);
* ``without <group>``: the shipped configuration less one feature group it uses;
* ``with <group>``: the shipped configuration plus a group it leaves out
  (:data:`~.train_blocks.LEFT_OUT_FEATURES`).

A group earns its place when removing it lowers the mean F1 over the held-out datasets;
the table prints the change of every variant against the shipped configuration. The
boosted trees of the default method use the same features (they are not ablated here: one
tree model costs minutes to fit, and the question is which block features carry signal).
"""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..evaluation.benchmark import method_extractor
from ..evaluation.datasets import iter_pages
from ..evaluation.runner import evaluate
from ..methods.blocks import FEATURE_NAMES
from .train_blocks import (
    DEFAULT_FEATURES,
    DEFAULT_THRESHOLD,
    GRID_C,
    GRID_GAMMA,
    SHIPPED_DATASETS,
    PageExamples,
    collect,
    fit_model,
    fit_svm,
    sample_blocks,
)

__all__ = ["FEATURE_GROUPS", "AblationRow", "Variant", "ablation", "format_ablation", "variants"]

Progress = Callable[[str], Any]


def _named(prefixes: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(name for name in FEATURE_NAMES if name.startswith(prefixes))


#: The feature groups of :data:`~scrapy_denoise.methods.blocks.FEATURE_NAMES`, as its
#: comments group them; every feature is in exactly one group (a test checks it).
FEATURE_GROUPS: dict[str, tuple[str, ...]] = {
    "paper R1-R5": ("r1", "r2", "r3", "r4", "r5"),
    "text shape": (
        "log_len", "log_tokens", "own_share", "punct_density", "sentence_density",
        "comma_density", "log_links",
    ),
    "position and depth": (
        "pos_start", "pos_end", "depth_rel", "log_depth", "log_subtree_len", "subtree_share",
        "subtree_link_density",
    ),
    "tag kind": _named(("tag_",)),
    "class/id words": _named(("cls_", "anc_")),
    "parent block": _named(("parent_",)),
    "neighbours": _named(("prev_", "next_", "win_")),
    "headings": ("after_heading", "before_h1", "h1_dist"),
    "page": ("page_log_len", "page_link_density"),
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    features: tuple[str, ...]
    context: bool


@dataclass(frozen=True, slots=True)
class AblationRow:
    variant: Variant
    #: dataset -> F1 on its holdout pages, averaged over the training seeds
    f1: Mapping[str, float | None]
    #: support vectors of both stages, averaged over the training seeds
    support_vectors: int
    #: the mean F1 over datasets of each training seed's model, in seed order
    seed_f1: tuple[float, ...] = ()

    @property
    def mean_f1(self) -> float:
        return _mean(self.f1.values()) or 0.0


def _mean(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def _key(variant: Variant, seed: int) -> str:
    """The extractor name of one variant trained with one seed."""
    return f"{variant.name} @ {seed}"


SHIPPED = "shipped: features + context"


def variants(groups: Mapping[str, tuple[str, ...]] = FEATURE_GROUPS) -> list[Variant]:
    """The paper's model, the shipped features in one stage, the shipped configuration,
    then the shipped configuration without each group it uses and with each it leaves out."""
    shipped = tuple(name for names in groups.values() for name in names if name in DEFAULT_FEATURES)
    out = [
        Variant("paper R1-R5, one stage", groups["paper R1-R5"], context=False),
        Variant("shipped features, one stage", shipped, context=False),
        Variant(SHIPPED, shipped, context=True),
    ]
    for group, names in groups.items():
        if group == "paper R1-R5":
            continue
        if set(names) <= set(shipped):
            kept = tuple(name for name in shipped if name not in names)
            out.append(Variant(f"without {group}", kept, context=True))
        else:
            added = tuple(name for name in FEATURE_NAMES if name in shipped or name in names)
            out.append(Variant(f"with {group}", added, context=True))
    return out


def _fit_variant(
    pages: list[PageExamples],
    variant: Variant,
    *,
    per_class: int,
    folds: int,
    seed: int,
    progress: Progress,
) -> tuple[Any, int]:
    if variant.context:
        model, report = fit_model(
            pages, features=variant.features, per_class=per_class, folds=folds, seed=seed,
            progress=progress,
        )  # fmt: skip
        return model, int(report["block_svm"]["support_vectors"]) + int(
            report["context_svm"]["support_vectors"]
        )
    columns = [FEATURE_NAMES.index(name) for name in variant.features]
    matrices = [page.features[:, columns] for page in pages]
    x, y, groups = sample_blocks(matrices, pages, per_class, np.random.default_rng(seed))
    grid = {"C": GRID_C, "gamma": [g / len(columns) for g in GRID_GAMMA]}
    model, report = fit_svm(
        x, y, groups, list(variant.features), grid=grid, search_per_class=min(600, per_class),
        folds=folds, seed=seed, progress=progress, what=variant.name,
    )  # fmt: skip
    return model, int(report["support_vectors"])


def ablation(
    data_dir: str | Path,
    *,
    eval_datasets: Iterable[str],
    chosen: Iterable[Variant] | None = None,
    per_class: int = 2000,
    folds: int = 10,
    seeds: Sequence[int] = (0,),
    limit: int | None = None,
    train_datasets: Iterable[str] | None = None,
    progress: Progress = print,
) -> list[AblationRow]:
    """Train every variant once per seed on the dev pages and score it on the holdout
    pages (module doc); each row averages its seeds.

    One seed cannot rank groups whose removal moves the mean F1 by less than the seed
    does: the 4,000-block sample alone moves it by about 0.005 (three seeds of the shipped
    configuration, 2026-11-23: 0.882, 0.876, 0.880). ``limit`` caps the pages read per
    dataset on both sides (for quick runs and tests).
    """
    if not seeds:
        raise ValueError("seeds must name at least one training seed")
    datasets = SHIPPED_DATASETS if train_datasets is None else tuple(train_datasets)
    pages = collect(data_dir, datasets=datasets, progress=progress, limit=limit)
    chosen = list(chosen) if chosen is not None else variants()
    extractors: dict[str, Callable[[str, str | None], str]] = {}
    sizes: dict[str, int] = {}
    total = len(chosen) * len(seeds)
    with tempfile.TemporaryDirectory(prefix="denoise-ablation-") as tmp:
        for k, (seed, variant) in enumerate(itertools.product(seeds, chosen)):
            key = _key(variant, seed)
            model, sizes[key] = _fit_variant(
                pages, variant, per_class=per_class, folds=folds, seed=seed, progress=progress
            )
            if variant.context:
                model.metadata["threshold"] = DEFAULT_THRESHOLD
            path = Path(tmp) / f"variant-{k}.json"
            model.save(path)
            params: dict[str, object] = {"model_path": str(path), "context": variant.context}
            if not variant.context:
                params["threshold"] = 0.0
            extractors[key] = method_extractor("block_svm", params)
            progress(f"trained {k + 1}/{total}: {key}")
        f1: dict[str, dict[str, float | None]] = {key: {} for key in extractors}
        for name in eval_datasets:
            path = Path(data_dir) / "extraction" / f"{name}.zip"
            results = evaluate(iter_pages(path, split="holdout", limit=limit), extractors)
            for key, result in results.items():
                f1[key][name] = result.f1
            progress(f"scored {name}")
    rows = []
    for variant in chosen:
        keys = [_key(variant, seed) for seed in seeds]
        per_seed = [_mean(f1[key].values()) or 0.0 for key in keys]
        rows.append(
            AblationRow(
                variant,
                {name: _mean(f1[key].get(name) for key in keys) for name in eval_datasets},
                round(sum(sizes[key] for key in keys) / len(keys)),
                tuple(per_seed),
            )
        )
    return rows


def format_ablation(rows: list[AblationRow]) -> str:
    """Markdown table: F1 per held-out dataset (mean over seeds), mean, and the change
    against the shipped configuration, in all and seed by seed (negative: the variant is
    worse, so what it lacks earns its place)."""
    datasets = sorted({name for row in rows for name in row.f1})
    reference = next((row for row in rows if row.variant.name == SHIPPED), None)
    head = ["variant", "features", "support vectors", *datasets, "mean F1", "vs shipped"]
    seeds = max((len(row.seed_f1) for row in rows), default=0)
    if seeds > 1:
        head.append("vs shipped, per seed")
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for row in rows:
        cells = [
            row.variant.name,
            str(len(row.variant.features)),
            str(row.support_vectors),
            *(_fmt(row.f1.get(name)) for name in datasets),
            f"{row.mean_f1:.3f}",
            "" if reference is None else f"{row.mean_f1 - reference.mean_f1:+.3f}",
        ]
        if seeds > 1:
            cells.append(
                ""
                if reference is None
                else " / ".join(
                    f"{mine - theirs:+.3f}"
                    for mine, theirs in zip(row.seed_f1, reference.seed_f1, strict=True)
                )
            )
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"
