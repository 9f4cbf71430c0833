"""Block-level SVM extraction (template-and-block-svm-denoising.txt §5–7).

Every block unit with own text (:mod:`.blocks`) is scored by the shipped RBF SVM in one
matrix product, and the own text of the blocks on the main-text side is output in reading
order, one paragraph per line. The model is a JSON parameter file read once per process
(:class:`~scrapy_denoise.models.svm.SvmModel`); scikit-learn is not needed at run time.

Two small corrections after the classifier, each kept because it measurably helped on
development pages (numbers in the training report):

* *smoothing*: in reading order, a block whose two neighbours are both kept is kept when its
  margin is only mildly negative, and a kept block whose neighbours are both dropped is
  dropped when its margin is only mildly positive (main text comes in runs, §9 of the paper
  names blocks judged alone as its weakness);
* *fallback*: a page where no block clears the margin keeps its single best block, since an
  article page with no text at all is the worst possible answer for a crawl of articles.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..document import Document
from ..models.svm import SvmModel
from .base import Extraction
from .blocks import FEATURE_NAMES, Blocks, compute_blocks

__all__ = ["DEFAULT_MODEL_PATH", "BlockSvmMethod", "load_model"]

DEFAULT_MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "blocks.json"

_LOCK = threading.Lock()


@lru_cache(maxsize=4)
def _load(path: str) -> tuple[SvmModel, npt.NDArray[np.intp]]:
    model = SvmModel.load(path)
    missing = [name for name in model.feature_names if name not in FEATURE_NAMES]
    if missing:
        raise ValueError(f"{path}: model uses features this version does not compute: {missing}")
    columns = np.asarray([FEATURE_NAMES.index(name) for name in model.feature_names])
    return model, columns


def load_model(path: str | Path | None = None) -> tuple[SvmModel, npt.NDArray[np.intp]]:
    """The model at ``path`` (default: the shipped one) and the feature columns it reads;
    loaded once per process and path."""
    key = str(Path(path).resolve()) if path is not None else str(DEFAULT_MODEL_PATH)
    with _LOCK:
        return _load(key)


class BlockSvmMethod:
    """Keep the block units the SVM puts on the main-text side."""

    name = "block_svm"

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        threshold: float = 0.0,
        smooth_margin: float = 0.0,
        fallback: bool = True,
    ) -> None:
        self.model_path = model_path
        self.threshold = float(threshold)
        self.smooth_margin = float(smooth_margin)
        self.fallback = fallback

    def scores(self, blocks: Blocks) -> npt.NDArray[np.float64]:
        """SVM margin of every text unit (row of ``blocks.features``); positive = main."""
        if not blocks.text_units:
            return np.zeros(0)
        model, columns = load_model(self.model_path)
        return model.decision(blocks.features[:, columns])

    def select(self, scores: npt.NDArray[np.float64]) -> list[int]:
        """Rows to keep, given the margins in reading order (smoothing and fallback)."""
        return select_rows(scores, self.threshold, self.smooth_margin, self.fallback)

    def extract(self, doc: Document) -> Extraction:
        blocks = compute_blocks(doc)
        scores = self.scores(blocks)
        rows = self.select(scores)
        return Extraction(
            lines=blocks.render(rows),
            kept=[blocks.node(r) for r in rows],
            scores={blocks.node(r): float(s) for r, s in enumerate(scores)},
        )


def select_rows(
    scores: npt.NDArray[np.float64],
    threshold: float = 0.0,
    smooth_margin: float = 0.0,
    fallback: bool = True,
) -> list[int]:
    """Rows whose margin clears ``threshold``, smoothed in reading order (module doc)."""
    if len(scores) == 0:
        return []
    keep = scores > threshold
    if smooth_margin > 0 and len(scores) > 2:
        prev_kept = np.concatenate([[False], keep[:-1]])
        next_kept = np.concatenate([keep[1:], [False]])
        near = np.abs(scores - threshold) < smooth_margin
        keep = np.where(near & prev_kept & next_kept, True, keep)
        keep = np.where(near & ~prev_kept & ~next_kept, False, keep)
    if fallback and not keep.any():
        keep[int(np.argmax(scores))] = True
    return [int(r) for r in np.flatnonzero(keep)]
