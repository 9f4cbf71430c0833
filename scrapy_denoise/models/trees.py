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

The walk reads the trees in a layout of its own, built once at load time: the forest as one
complete binary heap (:meth:`TreeEnsemble._heap`), so a node's children are found by
arithmetic instead of by looking them up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .modelfile import MALFORMED, ModelFormatError, check_format, load_file, write_json

__all__ = ["FORMAT", "TreeEnsemble"]

FORMAT = "scrapy-denoise/trees@1"

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int32]
#: rows scored per step of the walk: bounds the walk's four (rows x trees) matrices on
#: hostile pages with 10^5 blocks or more (6.5 MB at a hundred trees); real pages have a
#: few hundred blocks and are walked in one chunk
_CHUNK_ROWS = 2048
#: largest heap layout (slots: trees x 2^(depth + 1)) the walk pads an ensemble into; the
#: shipped ensembles take 12,800 (100 trees of depth 6), deeper ones keep the linked layout
_HEAP_MAX_NODES = 1 << 18


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
    # The walk's own layout (``_heap`` or ``_linked``): per walk node its feature, threshold
    # and value, the walk's start nodes (one per tree), and the children table of the
    # linked layout (None in the heap, whose children are implicit). int64 indices so that
    # ``take`` does not convert.
    _feature: npt.NDArray[np.int64] = field(init=False, repr=False)
    _threshold: FloatArray = field(init=False, repr=False)
    _value: FloatArray = field(init=False, repr=False)
    _start: npt.NDArray[np.int64] = field(init=False, repr=False)
    _children: npt.NDArray[np.int64] | None = field(init=False, repr=False)

    def __post_init__(self) -> None:
        small = 0 <= self.depth <= 16 and len(self.roots) << (self.depth + 1) <= _HEAP_MAX_NODES
        # the heap is built by following the references, so only from valid ones (from_dict
        # rejects the others after construction)
        if small and self._problem() is None:
            self._heap()
        else:
            self._linked()

    def _problem(self) -> str | None:
        """What makes the node arrays unfit to walk, or None."""
        n = len(self.feature)
        arrays = (self.threshold, self.left, self.right, self.value)
        if any(a.shape != (n,) for a in arrays) or self.roots.ndim != 1:
            return "node arrays differ in length"
        nodes_ok = all(
            a.size == 0 or (a.min() >= 0 and a.max() < n) for a in (self.left, self.right)
        )
        roots_ok = self.roots.size == 0 or (self.roots.min() >= 0 and self.roots.max() < n)
        features_ok = n == 0 or (
            self.feature.min() >= 0 and self.feature.max() < len(self.feature_names)
        )
        if not (nodes_ok and roots_ok and features_ok) or not 0 <= self.depth <= 64:
            return "node references out of range"
        # +inf is a leaf's threshold (``null`` in the file); NaN would send every row
        # right, and a NaN or infinite leaf value or baseline makes every score NaN
        if np.isnan(self.threshold).any():
            return "malformed model file: a threshold is NaN"
        if not (np.isfinite(self.value).all() and np.isfinite(self.baseline)):
            return "malformed model file: a leaf value or the baseline is NaN or infinite"
        return None

    def _heap(self) -> None:
        """Lay the forest out as one complete binary heap of ``depth`` levels, padded.

        With T trees, level l of the heap holds the 2^l nodes of that level of every tree,
        tree after tree, from position ``T * 2^l``: tree t's node p of level l sits at
        ``T * 2^l + t * 2^l + p``, and its children at twice that (right) and twice that
        plus one (left). A step of the walk is then ``node = 2 * node + went_left``, two
        additions in place of the linked layout's two and a ``take`` of the children table:
        one ``take`` fewer of the five per step, each decision 0.40 -> 0.33 ms per holdout
        page. A leaf above the last level is repeated down its left side (threshold +inf
        as in the node arrays, so it goes left whatever the row), and the last level holds
        the node each path of ``depth`` steps ends on, so every row reaches the same node,
        and sums the same leaf values in the same tree order, as the linked walk.
        """
        trees = len(self.roots)
        # node arrays' index of each heap slot of the level
        level: npt.NDArray[np.integer[Any]] = self.roots.astype(np.int64)
        features = [np.zeros(trees, dtype=np.int64)]  # slots 0 .. T-1 are never visited
        thresholds = [np.zeros(trees)]
        for _ in range(self.depth):
            features.append(self.feature[level].astype(np.int64))
            thresholds.append(self.threshold[level])
            level = np.stack([self.right[level], self.left[level]], axis=1).ravel()
        self._feature = np.concatenate(features)
        self._threshold = np.concatenate(thresholds)
        self._value = np.zeros(2 * len(level))
        self._value[len(level) :] = self.value[level]
        self._start = np.arange(trees, 2 * trees, dtype=np.int64)
        self._children = None

    def _linked(self) -> None:
        """The node arrays as they are, for ensembles too deep to pad into a heap: both
        children of node i at 2i (right) and 2i + 1 (left) of the children table, so a
        step is one ``take`` at ``2 * node + went_left``."""
        self._feature = self.feature.astype(np.int64)
        self._threshold = self.threshold
        self._value = self.value
        self._start = self.roots.astype(np.int64)
        self._children = np.stack([self.right, self.left], axis=1).astype(np.int64).ravel()

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

    def decision(self, x: npt.ArrayLike, columns: npt.ArrayLike | None = None) -> FloatArray:
        """Log-odds of the positive class for each row (scikit-learn's decision_function).

        ``columns`` picks the model's features out of a wider matrix chunk by chunk, so the
        selection is never a whole-page copy: on a hostile page of 10^5 blocks that copy
        was 48 MB (the default chain's Python heap peak on it 155 -> 133 MB).
        """
        arr = np.atleast_2d(np.asarray(x, dtype=np.float64))
        picked = None if columns is None else np.asarray(columns, dtype=np.intp)
        width = arr.shape[1] if picked is None else len(picked)
        if width != len(self.feature_names):
            raise ValueError(f"expected {len(self.feature_names)} features, got {width}")
        if (
            picked is not None
            and picked.size
            and not 0 <= picked.min() <= picked.max() < arr.shape[1]
        ):
            raise ValueError(f"columns out of range for {arr.shape[1]} features")
        out = np.empty(len(arr), dtype=np.float64)
        for start in range(0, len(arr), _CHUNK_ROWS):
            chunk = arr[start : start + _CHUNK_ROWS]
            out[start : start + _CHUNK_ROWS] = self._walk(
                chunk if picked is None else chunk[:, picked]
            )
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
        # (``from_sklearn`` copies a fitted model's), ``decision`` the row width, and the
        # heap's slots are within it by construction.
        row_base = (np.arange(n, dtype=np.int64) * width)[:, None]
        node = np.broadcast_to(self._start, (n, len(self._start))).copy()
        index = np.empty_like(node)
        values = np.empty(node.shape, dtype=np.float64)
        thresholds = np.empty(node.shape, dtype=np.float64)
        went_left = np.empty(node.shape, dtype=bool)
        # The arrays' own ``take``: ``np.take`` is a Python wrapper around it, and a page
        # makes 34 such calls (two ensembles of depth 6).
        feature, threshold, children = self._feature, self._threshold, self._children
        # The first step needs no ``take`` of features and thresholds: every row is at the
        # roots, so they are one row broadcast down (each decision 0.33 -> 0.32 ms per
        # holdout page).
        root_feature, root_threshold = feature[self._start], threshold[self._start]
        for step in range(self.depth):
            if step:
                feature.take(node, out=index, mode="clip")
                np.add(index, row_base, out=index)
                threshold.take(node, out=thresholds, mode="clip")
                limit = thresholds
            else:
                np.add(row_base, root_feature, out=index)
                limit = root_threshold
            flat.take(index, out=values, mode="clip")
            np.less_equal(values, limit, out=went_left)
            if children is None:  # the heap: the children of slot i are 2i and 2i + 1
                np.add(node, node, out=node)
                np.add(node, went_left, out=node)
            else:
                np.add(node, node, out=index)
                np.add(index, went_left, out=index)
                children.take(index, out=node, mode="clip")
        return np.asarray(self._value.take(node).sum(axis=1) + self.baseline, dtype=np.float64)

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
        except MALFORMED as exc:
            raise ModelFormatError(f"malformed model file: {exc}") from exc
        problem = model._problem()
        if problem is not None:
            raise ModelFormatError(problem)
        return model

    @classmethod
    def load(cls, path: str | Path) -> TreeEnsemble:
        return load_file(path, cls.from_dict)
