"""Network model files: JSON parameters scored with numpy, like the SVM and tree files."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier

from scrapy_denoise.models.modelfile import ModelFormatError
from scrapy_denoise.models.network import DenseNetwork


def _data(seed: int, rows: int = 400) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    # features on unlike scales, as the block features are (ratios, logarithms, counts)
    x = rng.normal(size=(rows, 5)) * np.array([1.0, 10.0, 0.1, 3.0, 100.0]) + 2.0
    z = (x - 2.0) / np.array([1.0, 10.0, 0.1, 3.0, 100.0])
    y = (z[:, 0] * z[:, 1] + 0.5 * z[:, 2] - z[:, 3] ** 2 > -0.5).astype(int)
    return x, y


def _fit(layers: tuple[int, ...], seed: int = 0) -> tuple[DenseNetwork, MLPClassifier, np.ndarray]:
    x, y = _data(seed)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf = MLPClassifier(hidden_layer_sizes=layers, max_iter=200, random_state=0)
        clf.fit((x - mean) / scale, y)
    model = DenseNetwork.from_sklearn(clf, feature_names=list("abcde"), mean=mean, scale=scale)
    return model, clf, scale


@pytest.mark.parametrize("layers", [(16, 8), (12,)])
def test_decision_agrees_with_sklearn(layers: tuple[int, ...], tmp_path: Path) -> None:
    model, clf, _ = _fit(layers)
    model.save(tmp_path / "n.json")
    loaded = DenseNetwork.load(tmp_path / "n.json")
    probe, _ = _data(11, rows=300)
    p = clf.predict_proba((probe - model.mean) / model.scale)[:, 1]
    expected = np.log(p / (1.0 - p))
    # float32 scoring with the standardisation folded into the first layer
    np.testing.assert_allclose(loaded.decision(probe), expected, rtol=0, atol=1e-3)
    predicted = clf.predict((probe - model.mean) / model.scale) == 1
    np.testing.assert_array_equal(loaded.decision(probe) > 0, predicted)


def test_rows_are_scored_in_chunks_like_in_one_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    model, _, _ = _fit((8,))
    x, _ = _data(5)
    whole = model.decision(x)
    monkeypatch.setattr("scrapy_denoise.models.network._CHUNK_ROWS", 7)
    # float32 products of other row counts may round differently in the last bits
    np.testing.assert_allclose(model.decision(x), whole, rtol=0, atol=1e-5)


def test_columns_are_picked_like_a_selected_matrix() -> None:
    model, _, _ = _fit((8,))
    x, _ = _data(19)
    wide = np.random.default_rng(23).normal(size=(len(x), 8))
    columns = np.array([6, 0, 3, 1, 7])
    wide[:, columns] = x
    np.testing.assert_allclose(model.decision(wide, columns), model.decision(x), atol=1e-5)
    with pytest.raises(ValueError, match="expected 5 features"):
        model.decision(wide, columns[:4])
    with pytest.raises(ValueError, match="out of range"):
        model.decision(wide, np.array([0, 1, 2, 3, 8]))


def test_non_finite_features_give_finite_log_odds() -> None:
    model, _, _ = _fit((8,))
    x, _ = _data(7)
    probe = x[:4].copy()
    probe[0, 0] = np.nan
    probe[1, 2] = np.inf
    probe[2, 4] = -1e300
    assert np.isfinite(model.decision(probe)).all()


def test_loading_rejects_other_formats_and_layers_that_do_not_chain(tmp_path: Path) -> None:
    model, _, _ = _fit((8, 4))
    data = model.to_dict()
    with pytest.raises(ModelFormatError, match="not a"):
        DenseNetwork.from_dict({**data, "format": "scrapy-denoise/trees@1"})
    with pytest.raises(ModelFormatError, match="as many bias vectors"):
        DenseNetwork.from_dict({**data, "weights": [data["weights"][0], *data["weights"][2:]]})
    with pytest.raises(ModelFormatError, match="do not chain"):
        DenseNetwork.from_dict({**data, "biases": [data["biases"][0][:-1], *data["biases"][1:]]})
    with pytest.raises(ModelFormatError, match="one value per feature"):
        DenseNetwork.from_dict({**data, "mean": data["mean"][:-1]})
    with pytest.raises(ModelFormatError, match="scale must be positive"):
        DenseNetwork.from_dict({**data, "scale": [0.0, *data["scale"][1:]]})
    with pytest.raises(ModelFormatError, match="finite"):
        DenseNetwork.from_dict({**data, "biases": [[float("nan")] * 8, *data["biases"][1:]]})
    with pytest.raises(ModelFormatError, match="malformed"):
        DenseNetwork.from_dict({k: v for k, v in data.items() if k != "weights"})
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ModelFormatError, match="not JSON"):
        DenseNetwork.load(tmp_path / "bad.json")


def test_only_relu_networks_with_one_logistic_output_are_copied() -> None:
    x, y = _data(3, rows=100)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        tanh = MLPClassifier(hidden_layer_sizes=(4,), activation="tanh", max_iter=5).fit(x, y)
        three = MLPClassifier(hidden_layer_sizes=(4,), max_iter=5).fit(x, y % 3 + (x[:, 0] > 2))
    with pytest.raises(ValueError, match="ReLU"):
        DenseNetwork.from_sklearn(tanh, feature_names=list("abcde"), mean=[0] * 5, scale=[1] * 5)
    with pytest.raises(ValueError, match="binary"):
        DenseNetwork.from_sklearn(three, feature_names=list("abcde"), mean=[0] * 5, scale=[1] * 5)
