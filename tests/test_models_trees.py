"""Boosted-tree model files: JSON parameters scored with numpy, like the SVM files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.ensemble import HistGradientBoostingClassifier

from scrapy_denoise.models.svm import ModelFormatError
from scrapy_denoise.models.trees import TreeEnsemble


def _data(seed: int, rows: int = 400) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, 5))
    y = (x[:, 0] * x[:, 1] + 0.5 * x[:, 2] - x[:, 3] ** 2 > -0.5).astype(int)
    return x, y


@pytest.mark.parametrize(
    "params",
    [
        {"max_iter": 30, "max_depth": 6, "max_leaf_nodes": None, "learning_rate": 0.2},
        {"max_iter": 20, "max_leaf_nodes": 15},  # leaf-wise trees of uneven depth
    ],
)
def test_decision_agrees_with_sklearn(params: dict[str, object], tmp_path: Path) -> None:
    x, y = _data(3)
    clf = HistGradientBoostingClassifier(**params, random_state=0).fit(x, y)
    model = TreeEnsemble.from_sklearn(clf, feature_names=list("abcde"))
    model.save(tmp_path / "t.json")
    loaded = TreeEnsemble.load(tmp_path / "t.json")
    probe, _ = _data(11, rows=300)
    np.testing.assert_allclose(loaded.decision(probe), clf.decision_function(probe), atol=1e-9)


@pytest.mark.parametrize("max_leaf_nodes", [None, 6])  # full trees, and uneven leaf-wise ones
def test_heap_and_linked_layouts_score_alike(
    max_leaf_nodes: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The padded heap the walk uses for small ensembles and the node arrays as they are
    (deep ensembles) reach the same leaves and sum them in the same order: equal bits."""
    x, y = _data(13)
    clf = HistGradientBoostingClassifier(
        max_iter=25, max_depth=5, max_leaf_nodes=max_leaf_nodes, random_state=0
    ).fit(x, y)
    data = TreeEnsemble.from_sklearn(clf, feature_names=list("abcde")).to_dict()
    monkeypatch.setattr("scrapy_denoise.models.trees._HEAP_MAX_NODES", 1 << 30)
    heap = TreeEnsemble.from_dict(data)
    monkeypatch.setattr("scrapy_denoise.models.trees._HEAP_MAX_NODES", 0)
    linked = TreeEnsemble.from_dict(data)
    assert heap._children is None and linked._children is not None
    probe, _ = _data(17, rows=500)
    probe[::7, 1] = np.nan
    np.testing.assert_array_equal(heap.decision(probe), linked.decision(probe))
    np.testing.assert_allclose(
        heap.decision(probe[1::7]), clf.decision_function(probe[1::7]), atol=1e-9
    )


def test_rows_are_scored_in_chunks_like_in_one_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    x, y = _data(5)
    clf = HistGradientBoostingClassifier(max_iter=10, random_state=0).fit(x, y)
    model = TreeEnsemble.from_sklearn(clf, feature_names=list("abcde"))
    whole = model.decision(x)
    monkeypatch.setattr("scrapy_denoise.models.trees._CHUNK_ROWS", 7)
    np.testing.assert_array_equal(model.decision(x), whole)


def test_columns_are_picked_chunk_by_chunk_like_a_selected_matrix(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    x, y = _data(19)
    clf = HistGradientBoostingClassifier(max_iter=10, random_state=0).fit(x, y)
    model = TreeEnsemble.from_sklearn(clf, feature_names=list("abcde"))
    wide = np.random.default_rng(23).normal(size=(len(x), 8))
    columns = np.array([6, 0, 3, 1, 7])
    wide[:, columns] = x
    monkeypatch.setattr("scrapy_denoise.models.trees._CHUNK_ROWS", 7)
    np.testing.assert_array_equal(model.decision(wide, columns), model.decision(x))
    with pytest.raises(ValueError, match="expected 5 features"):
        model.decision(wide, columns[:4])
    with pytest.raises(ValueError, match="out of range"):
        model.decision(wide, np.array([0, 1, 2, 3, 8]))


def test_nan_features_do_not_crash_the_walk() -> None:
    x, y = _data(7)
    clf = HistGradientBoostingClassifier(max_iter=5, random_state=0).fit(x, y)
    model = TreeEnsemble.from_sklearn(clf, feature_names=list("abcde"))
    probe = x[:3].copy()
    probe[0, 0] = np.nan
    probe[1, 2] = np.inf
    assert np.isfinite(model.decision(probe)).all()


def test_loading_rejects_other_formats_and_broken_node_references(tmp_path: Path) -> None:
    x, y = _data(9)
    clf = HistGradientBoostingClassifier(max_iter=3, random_state=0).fit(x, y)
    data = TreeEnsemble.from_sklearn(clf, feature_names=list("abcde")).to_dict()
    with pytest.raises(ModelFormatError, match="not a"):
        TreeEnsemble.from_dict({**data, "format": "scrapy-denoise/svm@1"})
    broken = {**data, "left": [len(data["left"]) + 5, *data["left"][1:]]}
    with pytest.raises(ModelFormatError, match="out of range"):
        TreeEnsemble.from_dict(broken)
    with pytest.raises(ModelFormatError, match="differ in length"):
        TreeEnsemble.from_dict({**data, "value": data["value"][:-1]})
    # numbers no field can hold: numpy's and int()'s OverflowError, not a bare crash
    huge = {**data, "left": [2**40, *data["left"][1:]]}
    with pytest.raises(ModelFormatError, match="out of bounds for int32"):
        TreeEnsemble.from_dict(huge)
    with pytest.raises(ModelFormatError, match="infinity"):
        TreeEnsemble.from_dict({**data, "depth": float("inf")})
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ModelFormatError, match="not JSON"):
        TreeEnsemble.load(tmp_path / "bad.json")
    assert json.loads(json.dumps(data))["format"] == "scrapy-denoise/trees@1"


def test_loading_rejects_nan_thresholds_and_non_finite_values() -> None:
    """A leaf's threshold is +inf (null in the file); NaN would send every row right."""
    x, y = _data(9)
    clf = HistGradientBoostingClassifier(max_iter=3, random_state=0).fit(x, y)
    data = TreeEnsemble.from_sklearn(clf, feature_names=list("abcde")).to_dict()
    inner = next(i for i, t in enumerate(data["threshold"]) if t is not None)
    thresholds = list(data["threshold"])
    thresholds[inner] = float("nan")
    with pytest.raises(ModelFormatError, match="threshold is NaN"):
        TreeEnsemble.from_dict({**data, "threshold": thresholds})
    values = list(data["value"])
    values[-1] = float("inf")
    with pytest.raises(ModelFormatError, match="NaN or infinite"):
        TreeEnsemble.from_dict({**data, "value": values})
    with pytest.raises(ModelFormatError, match="NaN or infinite"):
        TreeEnsemble.from_dict({**data, "baseline": float("nan")})
    assert TreeEnsemble.from_dict(data).depth == data["depth"]
