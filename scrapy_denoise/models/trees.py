"""Gradient-boosted tree ensembles as JSON parameters, scored with numpy.

The same promise as :mod:`.svm`: a model file is plain JSON (node arrays), loading it
executes nothing, and the decision function is computed here, so a model trained with one
scikit-learn version scores identically under any other (a test compares it with
``HistGradientBoostingClassifier.decision_function``).

Scoring walks every row down every tree at once: the current node of each (row, tree) pair
is one integer matrix, advanced one level per step for the ensemble's depth. Leaves point to
themselves and always "go left", so rows that reach a leaf early stay there. With the
shallow trees the trainer fits (depth 6), a page of a few hundred blocks against a hundred
trees is six vectorised steps over some 10^4 pairs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .modelfile import ModelFormatError, check_format, read_json, write_json

__all__ = ["FORMAT", "TreeEnsemble"]

FORMAT = "scrapy-denoise/trees@1"

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int32]
#: rows scored per step of the walk: bounds the walk's four (rows x trees) matrices on
#: hostile pages with 10^5 blocks or more (6.5 MB at a hundred trees); real pages have a
#: few hundred blocks and are walked in one chunk
_CHUNK_ROWS = 2048


@dataclass(slots=True)
class TreeEnsemble:
    """A binary boosted-tree model: ``decision(x) > 0`` means the positive class.

    Node arrays are concatenated over the trees; ``roots`` holds each tree's first node.
    A row goes to ``left`` when its feature value is ``<= threshold``.
    """

    feature_names: list[str]
    feature: IntArray
    threshold: FloatArray
    left: IntArray
    right: IntArray
    #: leaf values (0 on inner nodes); the decision is ``baseline`` plus one leaf per tree
    value: FloatArray
    roots: IntArray
    depth: int
    baseline: float
    classes: list[str] = field(default_factory=lambda: ["negative", "positive"])
    metadata: dict[str, Any] = field(default_factory=dict)
    # The walk's own layout: both children of node i at 2i (right) and 2i + 1 (left), so a
    # step is one ``take`` at ``2 * node + went_left``; int64 so ``take`` does not convert.
    _children: npt.NDArray[np.int64] = field(init=False, repr=False)
    _feature: npt.NDArray[np.int64] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._children = np.stack([self.right, self.left], axis=1).astype(np.int64).ravel()
        self._feature = self.feature.astype(np.int64)

    # -- construction -----------------------------------------------------------------

    @classmethod
    def from_sklearn(
        cls,
        model: Any,
        *,
        feature_names: list[str],
        classes: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> TreeEnsemble:
        """Copy the trees out of a fitted binary ``HistGradientBoostingClassifier``.

        Its predictors are not public API, which is why they are copied into this format
        once, at training time, and never read again.
        """
        if len(model.classes_) != 2:
            raise ValueError("only binary classifiers are supported")
        features: list[Any] = []
        thresholds: list[Any] = []
        lefts: list[Any] = []
        rights: list[Any] = []
        values: list[Any] = []
        roots: list[int] = []
        depth = 0
        offset = 0
        for (predictor,) in model._predictors:
            nodes = predictor.nodes
            if np.any(nodes["is_categorical"]):
                raise ValueError("categorical splits are not supported")
            n = len(nodes)
            leaf = nodes["is_leaf"].astype(bool)
            own = np.arange(offset, offset + n)
            features.append(np.where(leaf, 0, nodes["feature_idx"]))
            thresholds.append(np.where(leaf, np.inf, nodes["num_threshold"]))
            lefts.append(np.where(leaf, own, nodes["left"] + offset))
            rights.append(np.where(leaf, own, nodes["right"] + offset))
            values.append(np.where(leaf, nodes["value"], 0.0))
            roots.append(offset)
            depth = max(depth, int(nodes["depth"].max()))
            offset += n
        return cls(
            feature_names=list(feature_names),
            feature=np.concatenate(features).astype(np.int32),
            threshold=np.concatenate(thresholds).astype(np.float64),
            left=np.concatenate(lefts).astype(np.int32),
            right=np.concatenate(rights).astype(np.int32),
            value=np.concatenate(values).astype(np.float64),
            roots=np.asarray(roots, dtype=np.int32),
            depth=depth,
            baseline=float(np.ravel(model._baseline_prediction)[0]),
            classes=classes or [str(c) for c in model.classes_],
            metadata=dict(metadata or {}),
        )

    # -- inference --------------------------------------------------------------------

    def decision(self, x: npt.ArrayLike) -> FloatArray:
        """Log-odds of the positive class for each row (scikit-learn's decision_function)."""
        arr = np.atleast_2d(np.asarray(x, dtype=np.float64))
        if arr.shape[1] != len(self.feature_names):
            raise ValueError(f"expected {len(self.feature_names)} features, got {arr.shape[1]}")
        out = np.empty(len(arr), dtype=np.float64)
        for start in range(0, len(arr), _CHUNK_ROWS):
            out[start : start + _CHUNK_ROWS] = self._walk(arr[start : start + _CHUNK_ROWS])
        return out

    def _walk(self, x: FloatArray) -> FloatArray:
        # NaN never goes left under "<="; the features are finite by construction, so NaN
        # only arrives from a corrupt page and is read as 0.
        if not np.isfinite(x).all():
            x = np.nan_to_num(x, nan=0.0, posinf=1e300, neginf=-1e300)
        x = np.ascontiguousarray(x)
        n, width = x.shape
        flat = x.ravel()
        # ``take`` on flat arrays: three times faster than fancy indexing with row and
        # column index matrices on pages of a few hundred blocks. Every step writes into
        # the same four matrices: ``mode="clip"`` lets ``take`` write into ``out`` directly
        # (under the default "raise" it buffers a copy first), 15 % of the walk. Clipping
        # never changes an index: ``from_dict`` checks every node and feature reference
        # (``from_sklearn`` copies a fitted model's), and ``decision`` the row width.
        row_base = (np.arange(n, dtype=np.int64) * width)[:, None]
        node = np.broadcast_to(self.roots.astype(np.int64), (n, len(self.roots))).copy()
        index = np.empty_like(node)
        values = np.empty(node.shape, dtype=np.float64)
        thresholds = np.empty(node.shape, dtype=np.float64)
        went_left = np.empty(node.shape, dtype=bool)
        # The arrays' own ``take``: ``np.take`` is a Python wrapper around it, and a page
        # makes 48 such calls (two ensembles of depth 6).
        feature, threshold, children = self._feature, self.threshold, self._children
        for _ in range(self.depth):
            feature.take(node, out=index, mode="clip")
            np.add(index, row_base, out=index)
            flat.take(index, out=values, mode="clip")
            threshold.take(node, out=thresholds, mode="clip")
            np.less_equal(values, thresholds, out=went_left)
            np.add(node, node, out=index)
            np.add(index, went_left, out=index)
            children.take(index, out=node, mode="clip")
        return np.asarray(self.value.take(node).sum(axis=1) + self.baseline, dtype=np.float64)

    # -- files ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "feature_names": self.feature_names,
            "feature": self.feature.tolist(),
            "threshold": [None if not np.isfinite(t) else float(t) for t in self.threshold],
            "left": self.left.tolist(),
            "right": self.right.tolist(),
            "value": self.value.tolist(),
            "roots": self.roots.tolist(),
            "depth": self.depth,
            "baseline": self.baseline,
            "classes": self.classes,
            "metadata": self.metadata,
        }

    def save(self, path: str | Path) -> None:
        write_json(path, self.to_dict())

    @classmethod
    def from_dict(cls, data: Any) -> TreeEnsemble:
        data = check_format(data, FORMAT)
        try:
            model = cls(
                feature_names=[str(n) for n in data["feature_names"]],
                feature=np.asarray(data["feature"], dtype=np.int32),
                threshold=np.asarray(
                    [np.inf if t is None else float(t) for t in data["threshold"]],
                    dtype=np.float64,
                ),
                left=np.asarray(data["left"], dtype=np.int32),
                right=np.asarray(data["right"], dtype=np.int32),
                value=np.asarray(data["value"], dtype=np.float64),
                roots=np.asarray(data["roots"], dtype=np.int32),
                depth=int(data["depth"]),
                baseline=float(data["baseline"]),
                classes=[str(c) for c in data.get("classes", ["negative", "positive"])],
                metadata=dict(data.get("metadata") or {}),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelFormatError(f"malformed model file: {exc}") from exc
        n = len(model.feature)
        arrays = (model.threshold, model.left, model.right, model.value)
        if any(a.shape != (n,) for a in arrays) or model.roots.ndim != 1:
            raise ModelFormatError("node arrays differ in length")
        nodes_ok = all(
            a.size == 0 or (a.min() >= 0 and a.max() < n) for a in (model.left, model.right)
        )
        roots_ok = model.roots.size == 0 or (model.roots.min() >= 0 and model.roots.max() < n)
        features_ok = n == 0 or (
            model.feature.min() >= 0 and model.feature.max() < len(model.feature_names)
        )
        if not (nodes_ok and roots_ok and features_ok) or not 0 <= model.depth <= 64:
            raise ModelFormatError("node references out of range")
        return model

    @classmethod
    def load(cls, path: str | Path) -> TreeEnsemble:
        return cls.from_dict(read_json(path))
