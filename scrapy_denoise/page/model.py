"""The page SVM: the paper's second stage, over the 18 features, from a JSON model file.

The shipped model (``scrapy_denoise/models/pages.json``) is produced by
:func:`scrapy_denoise.models.train_pages.train_pages` with a fixed seed; it is read once per
process, on first use, so importing the package or building a Denoiser that never scores a
page costs nothing.

Before the kernel, a feature vector goes through the same steps as in training (stored in
the model file, so a file always scores the way it was trained):

1. a page without a URL gets the training median URL length and depth ("unknown", not
   "short"), since the core API may be called without one;
2. counts and lengths are log-scaled (``metadata.log_features``): page sizes span five
   orders of magnitude, and a linear [-1, 1] scaling would squash every ordinary page into
   a corner of the range the longest page defines;
3. values are clipped to the training range, then scaled to [-1, 1] (the model's
   scale/offset, as libsvm's svm-scale): a polynomial kernel grows without bound outside
   the range it was fitted on, so one page with 50,000 links must not outvote the rest.
"""

from __future__ import annotations

import functools
import threading
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..models.svm import ModelFormatError, SvmModel
from .classifier import PageClassifier
from .features import FEATURE_NAMES, PageFeatures
from .rules import PageRules

__all__ = ["DEFAULT_MODEL_PATH", "PageSvm", "default_page_classifier", "shipped_page_model"]

DEFAULT_MODEL_PATH = Path(__file__).resolve().parents[1] / "models" / "pages.json"

FloatArray = npt.NDArray[np.float64]

_LOCK = threading.Lock()


@functools.cache
def _load(path: str) -> SvmModel:
    return SvmModel.load(path)


def shipped_page_model() -> SvmModel:
    """The packaged page model, parsed once per process (later calls share it)."""
    with _LOCK:
        return _load(str(DEFAULT_MODEL_PATH))


class PageSvm:
    """Implements :class:`~scrapy_denoise.page.classifier.PageModel` over an :class:`SvmModel`.

    ``model`` is a loaded model, a path to a model file, or ``None`` for the shipped model;
    files are read on the first call that needs them.
    """

    def __init__(self, model: SvmModel | str | Path | None = None) -> None:
        self._source = model
        self._model: SvmModel | None = model if isinstance(model, SvmModel) else None
        self._log = np.zeros(len(FEATURE_NAMES), dtype=bool)
        self._lo = np.full(len(FEATURE_NAMES), -np.inf)
        self._hi = np.full(len(FEATURE_NAMES), np.inf)
        self._missing = (0.0, 0.0)
        if self._model is not None:
            self._prepare(self._model)

    @property
    def model(self) -> SvmModel:
        if self._model is None:
            if self._source is None:
                model = shipped_page_model()
            else:
                with _LOCK:
                    model = _load(str(self._source))
            self._prepare(model)
            self._model = model
        return self._model

    def _prepare(self, model: SvmModel) -> None:
        if list(model.feature_names) != list(FEATURE_NAMES):
            raise ModelFormatError(
                "not a page model: its features are not the 18 page features"
                + (" (a block model?)" if model.classes[-1:] == ["main"] else "")
            )
        if len(model.classes) != 2 or model.classes[1] != "noise":
            raise ModelFormatError(f"not a page model (classes {model.classes})")
        meta = model.metadata
        try:
            logged = {str(name) for name in meta.get("log_features") or ()}
            missing = dict(meta.get("missing_url") or {})
            url_len = float(missing.get("url_len", 0.0))
            url_depth = float(missing.get("url_depth", 0.0))
        except (TypeError, ValueError) as exc:
            raise ModelFormatError(f"malformed page model metadata: {exc}") from exc
        if not (np.isfinite(url_len) and np.isfinite(url_depth)):
            raise ModelFormatError("malformed page model metadata: missing_url is not finite")
        self._log = np.asarray([n in logged for n in FEATURE_NAMES])
        self._missing = (url_len, url_depth)
        # Training range in the (logged) input space: scale * x + offset spans [-1, 1].
        scale, offset = model.scale, model.offset
        nonzero = scale != 0
        safe = np.where(nonzero, scale, 1.0)
        a, b = (-1.0 - offset) / safe, (1.0 - offset) / safe
        self._lo = np.where(nonzero, np.minimum(a, b), -np.inf)
        self._hi = np.where(nonzero, np.maximum(a, b), np.inf)

    def transform(self, rows: npt.ArrayLike) -> FloatArray:
        """Steps 1-2 and the clipping of step 3 (module doc); the model scales after."""
        self.model  # noqa: B018 -- loads the model and its transform on first use
        x = np.array(np.atleast_2d(np.asarray(rows, dtype=np.float64)), copy=True)
        li, di = FEATURE_NAMES.index("url_len"), FEATURE_NAMES.index("url_depth")
        no_url = x[:, li] == 0
        x[no_url, li], x[no_url, di] = self._missing
        x[:, self._log] = np.log1p(np.maximum(x[:, self._log], 0.0))
        return np.clip(x, self._lo, self._hi)

    def decisions(self, rows: npt.ArrayLike) -> FloatArray:
        """Signed margins, positive for noise, of a matrix of feature vectors."""
        return self.model.decision(self.transform(rows))

    def noise_probabilities(self, rows: npt.ArrayLike) -> FloatArray:
        """P(noise) of a matrix of feature vectors (one per row, ``FEATURE_NAMES`` order)."""
        return self.model.probability(self.transform(rows))

    def noise_probability(self, features: PageFeatures) -> float:
        return float(self.noise_probabilities([features.vector()])[0])


def default_page_classifier(rules: PageRules | None = None) -> PageClassifier:
    """Rules first, then the shipped page SVM (loaded on the first page that needs it)."""
    return PageClassifier(rules if rules is not None else PageRules(), PageSvm())
