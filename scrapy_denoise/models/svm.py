"""SVM model files that are safe to load and outlive scikit-learn versions.

A model is a JSON document holding the fitted parameters (feature scaling, support vectors,
dual coefficients, intercept, kernel settings). Loading parses JSON and builds numpy arrays;
nothing is imported or executed, unlike pickle/joblib, and the decision function below is
the textbook one, so a model trained with one scikit-learn version scores identically in
any other (a test compares it with ``SVC.decision_function``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .modelfile import MALFORMED, ModelFormatError, check_format, load_file, write_json

__all__ = ["FORMAT", "ModelFormatError", "SvmModel"]

FORMAT = "scrapy-denoise/svm@1"
_KERNELS = ("rbf", "poly", "linear")
#: a polynomial kernel's degree beyond this overflows float64 on ordinary inputs, and the
#: margin becomes NaN: a page would then pass every threshold test unjudged
_MAX_DEGREE = 10

FloatArray = npt.NDArray[np.float64]


def _whole(value: Any) -> int:
    """An integer field: ``2.7`` is an error, not silently 2."""
    number = float(value)
    if not number.is_integer():
        raise ValueError(f"{value!r} is not a whole number")
    return int(number)


@dataclass(slots=True)
class SvmModel:
    """A binary SVM: ``decision(x) > 0`` means the positive class (``classes[1]``)."""

    feature_names: list[str]
    #: affine scaling applied before the kernel: ``x * scale + offset``
    scale: FloatArray
    offset: FloatArray
    kernel: str
    gamma: float
    coef0: float
    degree: int
    support_vectors: FloatArray
    dual_coef: FloatArray
    intercept: float
    #: Platt scaling fitted by the trainer: P = 1 / (1 + exp(prob_a * decision + prob_b))
    prob_a: float | None = None
    prob_b: float | None = None
    classes: list[str] = field(default_factory=lambda: ["negative", "positive"])
    metadata: dict[str, Any] = field(default_factory=dict)

    # -- construction -----------------------------------------------------------------

    @classmethod
    def from_sklearn(
        cls,
        svc: Any,
        *,
        feature_names: list[str],
        scale: FloatArray | None = None,
        offset: FloatArray | None = None,
        classes: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> SvmModel:
        """Copy the fitted parameters out of a binary ``sklearn.svm.SVC``."""
        if len(svc.classes_) != 2:
            raise ValueError("only binary SVMs are supported")
        n = len(feature_names)
        gamma = float(svc._gamma) if hasattr(svc, "_gamma") else float(svc.gamma)
        return cls(
            feature_names=list(feature_names),
            scale=np.ones(n) if scale is None else np.asarray(scale, dtype=np.float64),
            offset=np.zeros(n) if offset is None else np.asarray(offset, dtype=np.float64),
            kernel=str(svc.kernel),
            gamma=gamma,
            coef0=float(svc.coef0),
            degree=int(svc.degree),
            support_vectors=np.asarray(svc.support_vectors_, dtype=np.float64),
            dual_coef=np.asarray(svc.dual_coef_[0], dtype=np.float64),
            intercept=float(svc.intercept_[0]),
            classes=classes or [str(c) for c in svc.classes_],
            metadata=dict(metadata or {}),
        )

    # -- inference --------------------------------------------------------------------

    def transform(self, x: npt.ArrayLike) -> FloatArray:
        arr = np.atleast_2d(np.asarray(x, dtype=np.float64))
        if arr.shape[1] != len(self.feature_names):
            raise ValueError(f"expected {len(self.feature_names)} features, got {arr.shape[1]}")
        return arr * self.scale + self.offset

    def _kernel(self, x: FloatArray) -> FloatArray:
        sv = self.support_vectors
        if self.kernel == "linear":
            return x @ sv.T
        if self.kernel == "poly":
            return (self.gamma * (x @ sv.T) + self.coef0) ** self.degree
        # rbf: ||x - s||^2 = |x|^2 + |s|^2 - 2 x.s, clipped against rounding below zero
        sq = (x * x).sum(1)[:, None] + (sv * sv).sum(1)[None, :] - 2.0 * (x @ sv.T)
        return np.exp(-self.gamma * np.maximum(sq, 0.0))

    def decision(self, x: npt.ArrayLike) -> FloatArray:
        """Signed distance to the margin for each row; positive means ``classes[1]``.

        libsvm stores the first class as positive; scikit-learn flips the sign so that
        positive means ``classes_[1]``. :meth:`from_sklearn` keeps scikit-learn's
        convention, and so does this.
        """
        z = self.transform(x)
        if len(z) == 0:
            return np.zeros(0)
        return np.asarray(self._kernel(z) @ self.dual_coef + self.intercept, dtype=np.float64)

    def probability(self, x: npt.ArrayLike) -> FloatArray:
        """P(``classes[1]``): Platt scaling when the trainer fitted it, else a logistic of the
        margin (monotone in it, so thresholds on either agree)."""
        d = self.decision(x)
        if self.prob_a is not None and self.prob_b is not None:
            return np.asarray(1.0 / (1.0 + np.exp(self.prob_a * d + self.prob_b)))
        return np.asarray(1.0 / (1.0 + np.exp(-2.0 * d)))

    # -- files ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "feature_names": self.feature_names,
            "scale": self.scale.tolist(),
            "offset": self.offset.tolist(),
            "kernel": self.kernel,
            "gamma": self.gamma,
            "coef0": self.coef0,
            "degree": self.degree,
            "support_vectors": np.round(self.support_vectors, 8).tolist(),
            "dual_coef": self.dual_coef.tolist(),
            "intercept": self.intercept,
            "prob_a": self.prob_a,
            "prob_b": self.prob_b,
            "classes": self.classes,
            "metadata": self.metadata,
        }

    def save(self, path: str | Path) -> None:
        write_json(path, self.to_dict())

    @classmethod
    def from_dict(cls, data: Any) -> SvmModel:
        data = check_format(data, FORMAT)
        try:
            names = [str(n) for n in data["feature_names"]]
            model = cls(
                feature_names=names,
                scale=np.asarray(data["scale"], dtype=np.float64),
                offset=np.asarray(data["offset"], dtype=np.float64),
                kernel=str(data["kernel"]),
                gamma=float(data["gamma"]),
                coef0=float(data["coef0"]),
                degree=_whole(data["degree"]),
                support_vectors=np.asarray(data["support_vectors"], dtype=np.float64),
                dual_coef=np.asarray(data["dual_coef"], dtype=np.float64),
                intercept=float(data["intercept"]),
                prob_a=None if data.get("prob_a") is None else float(data["prob_a"]),
                prob_b=None if data.get("prob_b") is None else float(data["prob_b"]),
                classes=[str(c) for c in data.get("classes", ["negative", "positive"])],
                metadata=dict(data.get("metadata") or {}),
            )
        except MALFORMED as exc:
            raise ModelFormatError(f"malformed model file: {exc}") from exc
        n = len(names)
        sv = model.support_vectors
        if model.kernel not in _KERNELS:
            raise ModelFormatError(f"unknown kernel {model.kernel!r}")
        if model.scale.shape != (n,) or model.offset.shape != (n,):
            raise ModelFormatError("scale/offset do not match the feature count")
        if sv.ndim != 2 or sv.shape[1] != n or model.dual_coef.shape != (sv.shape[0],):
            raise ModelFormatError("support vectors do not match the feature count")
        problem = model._problem()
        if problem is not None:
            raise ModelFormatError(problem)
        return model

    def _problem(self) -> str | None:
        """What makes the parameters unfit to score with, or None.

        JSON allows ``NaN`` and ``Infinity``, and a margin computed from either is NaN or
        infinite: no threshold test on it fails loudly, so a tampered or corrupt file
        would judge every page the same way without a word. It is refused on load.
        """
        scalars = (self.gamma, self.coef0, self.intercept, self.prob_a, self.prob_b)
        arrays = (self.scale, self.offset, self.support_vectors, self.dual_coef)
        if not all(np.isfinite(v) for v in scalars if v is not None) or not all(
            np.isfinite(a).all() for a in arrays
        ):
            return "malformed model file: a parameter is NaN or infinite"
        if self.gamma < 0:
            return f"malformed model file: gamma {self.gamma} is negative"
        if self.kernel == "poly" and not 1 <= self.degree <= _MAX_DEGREE:
            return f"malformed model file: degree {self.degree} is not in 1..{_MAX_DEGREE}"
        # Finite parameters can still overflow the margin (gamma 1e308 made every page's
        # score NaN, so the page model never judged a page noise): score a few of the
        # support vectors, points the model is sure to meet.
        with np.errstate(all="ignore"):
            margins = self._kernel(self.support_vectors[:16]) @ self.dual_coef + self.intercept
        if not np.isfinite(margins).all():
            return "malformed model file: its margins overflow (gamma, coef0 or degree too large)"
        return None

    @classmethod
    def load(cls, path: str | Path) -> SvmModel:
        return load_file(path, cls.from_dict)
