"""Small feed-forward networks as JSON parameters, scored with numpy.

The same promise as :mod:`.svm` and :mod:`.trees`: a model file is plain JSON (the layers'
weights), loading it executes nothing, and the decision function is computed here, so a
network trained with one scikit-learn version scores the same under any other (a test
compares it with ``MLPClassifier.predict_proba``).

The network is what scikit-learn's ``MLPClassifier`` fits for two classes: ReLU hidden
layers and one logistic output unit, on inputs standardised by the trainer (``mean`` and
``scale`` are stored with it). Scoring folds the standardisation into the first layer and
runs in float32: a page's few hundred blocks through layers of 64 and 32 units are three
small matrix products, 0.05 ms on a development page of utomo-big9-chaos against 0.09 in
double precision, and the log-odds move by about 1e-5.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .modelfile import ModelFormatError, check_format, read_json, write_json

__all__ = ["FORMAT", "DenseNetwork"]

FORMAT = "scrapy-denoise/network@1"

FloatArray = npt.NDArray[np.float64]
#: rows scored per product: bounds the hidden layers' (rows x units) matrices on hostile
#: pages of 10^5 blocks; real pages have a few hundred and are scored in one piece
_CHUNK_ROWS = 4096
#: what an infinite input is read as (the features are ratios and logarithms)
_INPUT_LIMIT = 1e6
#: log-odds are clipped to this magnitude (a probability within 1e-22 of 0 or 1)
_OUTPUT_LIMIT = 50.0


@dataclass(slots=True)
class DenseNetwork:
    """A binary classifier: ``decision(x) > 0`` means the positive class.

    ``weights[k]`` has shape (inputs of layer k, units of layer k); the last layer has one
    unit, its output the log-odds. Hidden layers are ReLU.
    """

    feature_names: list[str]
    #: standardisation of the inputs: ``(x - mean) / scale`` is what the layers read
    mean: FloatArray
    scale: FloatArray
    weights: list[FloatArray]
    biases: list[FloatArray]
    classes: list[str] = field(default_factory=lambda: ["negative", "positive"])
    metadata: dict[str, Any] = field(default_factory=dict)
    # the layers as scored: float32, the standardisation folded into the first
    _weights: list[npt.NDArray[np.float32]] = field(init=False, repr=False)
    _biases: list[npt.NDArray[np.float32]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        problem = self._problem()
        if problem is not None:
            raise ValueError(problem)
        first = self.weights[0] / self.scale[:, None]
        weights = [first, *self.weights[1:]]
        biases = [self.biases[0] - self.mean @ first, *self.biases[1:]]
        self._weights = [w.astype(np.float32) for w in weights]
        self._biases = [b.astype(np.float32) for b in biases]

    def _problem(self) -> str | None:
        """What makes the layers unfit to score, or None."""
        width = len(self.feature_names)
        if not self.weights or len(self.weights) != len(self.biases):
            return "a network needs as many bias vectors as weight matrices, at least one"
        if self.mean.shape != (width,) or self.scale.shape != (width,):
            return f"mean and scale must have one value per feature ({width})"
        if not np.all(self.scale > 0):
            return "scale must be positive"
        inputs = width
        for k, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            if w.ndim != 2 or w.shape[0] != inputs or b.shape != (w.shape[1],):
                return f"layer {k}: weights {w.shape} and biases {b.shape} do not chain"
            inputs = w.shape[1]
        if inputs != 1:
            return f"the last layer must have one unit, not {inputs}"
        arrays = (self.mean, self.scale, *self.weights, *self.biases)
        if not all(np.isfinite(a).all() for a in arrays):
            return "weights must be finite"
        return None

    # -- construction -----------------------------------------------------------------

    @classmethod
    def from_sklearn(
        cls,
        model: Any,
        *,
        feature_names: list[str],
        mean: npt.ArrayLike,
        scale: npt.ArrayLike,
        classes: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> DenseNetwork:
        """Copy the layers out of a fitted binary ``MLPClassifier`` with ReLU hidden layers,
        trained on ``(x - mean) / scale``."""
        if len(model.classes_) != 2 or model.out_activation_ != "logistic":
            raise ValueError("only binary classifiers with a logistic output are supported")
        if model.activation != "relu":
            raise ValueError(f"only ReLU hidden layers are supported, not {model.activation}")
        return cls(
            feature_names=list(feature_names),
            mean=np.asarray(mean, dtype=np.float64),
            scale=np.asarray(scale, dtype=np.float64),
            weights=[np.asarray(w, dtype=np.float64) for w in model.coefs_],
            biases=[np.asarray(b, dtype=np.float64) for b in model.intercepts_],
            classes=classes or [str(c) for c in model.classes_],
            metadata=dict(metadata or {}),
        )

    # -- inference --------------------------------------------------------------------

    def decision(self, x: npt.ArrayLike, columns: npt.ArrayLike | None = None) -> FloatArray:
        """Log-odds of the positive class for each row; ``columns`` picks the network's
        features out of a wider matrix, chunk by chunk."""
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
            out[start : start + _CHUNK_ROWS] = self._forward(
                chunk if picked is None else chunk[:, picked]
            )
        return out

    def _forward(self, x: FloatArray) -> FloatArray:
        # NaN and inf only come from a corrupt page (the features are finite by
        # construction); a huge finite input can still overflow float32 into inf - inf =
        # NaN on the way, so the output is checked as well
        if not np.isfinite(x).all():
            x = np.nan_to_num(x, nan=0.0, posinf=_INPUT_LIMIT, neginf=-_INPUT_LIMIT)
        last = len(self._weights) - 1
        with np.errstate(over="ignore", invalid="ignore"):
            h = x.astype(np.float32)
            for k, (w, b) in enumerate(zip(self._weights, self._biases, strict=True)):
                h = h @ w
                h += b
                if k < last:
                    np.maximum(h, 0.0, out=h)
        out = h[:, 0].astype(np.float64)
        if not np.isfinite(out).all():
            out = np.nan_to_num(out, nan=0.0)
        return np.clip(out, -_OUTPUT_LIMIT, _OUTPUT_LIMIT)

    # -- files ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "feature_names": self.feature_names,
            "mean": self.mean.tolist(),
            "scale": self.scale.tolist(),
            "weights": [w.tolist() for w in self.weights],
            "biases": [b.tolist() for b in self.biases],
            "classes": self.classes,
            "metadata": self.metadata,
        }

    def save(self, path: str | Path) -> None:
        write_json(path, self.to_dict())

    @classmethod
    def from_dict(cls, data: Any) -> DenseNetwork:
        data = check_format(data, FORMAT)
        try:
            return cls(
                feature_names=[str(n) for n in data["feature_names"]],
                mean=np.asarray(data["mean"], dtype=np.float64),
                scale=np.asarray(data["scale"], dtype=np.float64),
                weights=[np.asarray(w, dtype=np.float64) for w in data["weights"]],
                biases=[np.asarray(b, dtype=np.float64) for b in data["biases"]],
                classes=[str(c) for c in data.get("classes", ["negative", "positive"])],
                metadata=dict(data.get("metadata") or {}),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelFormatError(f"malformed model file: {exc}") from exc

    @classmethod
    def load(cls, path: str | Path) -> DenseNetwork:
        return cls.from_dict(read_json(path))
