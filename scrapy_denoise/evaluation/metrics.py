"""The scores every extraction number in this project is reported with.

The primary metric is the 4-token shingle metric of the public article-extraction benchmark
(as specified in ``shared/data/README.md`` "Scoring" and pinned by ``metric-vectors.json``),
so that our numbers are comparable with published ones. Chinese has no spaces, so ``\\w+``
would make a whole sentence one token; each CJK character is therefore its own token.
The secondary metric, character LCS, is the customary one for Chinese extraction and does not
depend on tokenisation at all.

Edge cases, as fixed by the test vectors:

* a text with 1-3 tokens has exactly one shingle (all its tokens), so ``"a b c"`` can match;
* a text with no token has no shingle; a page where neither side has one scores (0, 0, 0)
  and takes part in neither mean;
* an empty prediction against a non-empty truth is (0, 0, 1): it lowers recall and is not
  counted in precision (there is nothing predicted to be precise about).
"""

from __future__ import annotations

import math
import re
import warnings
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from rapidfuzz.distance import LCSseq

from ..tokens import TOKEN

__all__ = [
    "SHINGLE_SIZE",
    "Aggregate",
    "F1Difference",
    "LcsAggregate",
    "LcsScore",
    "PageCounts",
    "f1_score",
    "lcs_length",
    "lcs_prf",
    "page_counts",
    "paired_f1_difference",
    "shingles",
    "tokenize",
]

SHINGLE_SIZE = 4

_WHITESPACE = re.compile(r"\s+")


def tokenize(text: str | None) -> list[str]:
    """Split into ``\\w+`` runs, with every CJK character a token of its own.

    Case is kept: the reference benchmark does not fold case, and the vectors do not need it.
    """
    return TOKEN.findall(text or "")


def shingles(text: str | None, n: int = SHINGLE_SIZE) -> Counter[tuple[str, ...]]:
    """Multiset of ``n``-token shingles; a text shorter than ``n`` tokens is one shingle.

    Counted as a multiset so that an extractor repeating a paragraph is charged for the copy.
    """
    tokens = tokenize(text)
    if not tokens:
        return Counter()
    if len(tokens) <= n:
        return Counter([tuple(tokens)])
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


class PageCounts(NamedTuple):
    """One page's shingle TP/FP/FN, normalised to sum to 1 (all zero when both are empty).

    Normalising per page weights every page equally, whatever its length.
    """

    tp: float
    fp: float
    fn: float

    @property
    def precision(self) -> float | None:
        """None when nothing was predicted, so such a page stays out of the precision mean."""
        predicted = self.tp + self.fp
        return self.tp / predicted if predicted > 0 else None

    @property
    def recall(self) -> float | None:
        """None when the truth has no shingle, so such a page stays out of the recall mean."""
        relevant = self.tp + self.fn
        return self.tp / relevant if relevant > 0 else None


def page_counts(true: str | None, pred: str | None, n: int = SHINGLE_SIZE) -> PageCounts:
    """Normalised shingle TP/FP/FN of one (truth, prediction) pair."""
    true_sh = shingles(true, n)
    pred_sh = shingles(pred, n)
    tp = sum((true_sh & pred_sh).values())
    fp = sum((pred_sh - true_sh).values())
    fn = sum((true_sh - pred_sh).values())
    total = tp + fp + fn
    if total == 0:
        return PageCounts(0.0, 0.0, 0.0)
    return PageCounts(tp / total, fp / total, fn / total)


def f1_score(precision: float | None, recall: float | None) -> float | None:
    """Harmonic mean; None when either side is undefined, 0 when both are 0."""
    if precision is None or recall is None:
        return None
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


class F1Difference(NamedTuple):
    """F1 of one extractor minus another's on the same pages, with a bootstrap interval."""

    diff: float
    low: float
    high: float


def _macro_f1(
    precision: npt.NDArray[np.float64], recall: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """:attr:`Aggregate.f1` of each row of page scores (NaN = undefined, as None there)."""
    with warnings.catch_warnings():  # a row without any defined score: F1 0, as there
        warnings.simplefilter("ignore", RuntimeWarning)
        p = np.nan_to_num(np.nanmean(precision, axis=-1), nan=0.0)
        r = np.nan_to_num(np.nanmean(recall, axis=-1), nan=0.0)
    total = p + r
    return np.divide(2 * p * r, total, out=np.zeros_like(total), where=total > 0)


def paired_f1_difference(
    first: Sequence[PageCounts | None],
    second: Sequence[PageCounts | None],
    *,
    rounds: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
) -> F1Difference | None:
    """F1(first) - F1(second) over the same pages, and its percentile bootstrap interval.

    Pages are resampled in pairs (both extractors' scores of one page together), so the
    interval reflects how much the difference depends on which pages a dataset happens to
    hold: a difference whose interval contains 0 is not one the data can tell from a tie.
    Pages without truth (None) are left out. None when no page has truth.
    """
    if len(first) != len(second):
        raise ValueError("the two extractors must be scored on the same pages")
    pairs = [(a, b) for a, b in zip(first, second, strict=True) if a is not None and b is not None]
    if not pairs:
        return None

    def scores(k: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        p = [np.nan if c[k].precision is None else c[k].precision for c in pairs]
        r = [np.nan if c[k].recall is None else c[k].recall for c in pairs]
        return np.asarray(p, dtype=np.float64), np.asarray(r, dtype=np.float64)

    (p1, r1), (p2, r2) = scores(0), scores(1)
    diff = float(_macro_f1(p1, r1) - _macro_f1(p2, r2))
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(pairs), size=(rounds, len(pairs)))
    boot = _macro_f1(p1[idx], r1[idx]) - _macro_f1(p2[idx], r2[idx])
    tail = (1.0 - confidence) / 2 * 100
    low, high = np.percentile(boot, [tail, 100 - tail])
    return F1Difference(diff, float(low), float(high))


def _mean(values: list[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


@dataclass
class Aggregate:
    """Macro-averages page counts the benchmark's way: F1 of the two means, not mean of F1s.

    Precision and recall are averaged over different page sets (pages with any predicted
    shingle, pages with any true shingle), which is why they are kept as separate lists.
    """

    pages: int = 0
    _precisions: list[float] = field(default_factory=list, repr=False)
    _recalls: list[float] = field(default_factory=list, repr=False)

    def add(self, counts: PageCounts) -> None:
        self.pages += 1
        p = counts.precision
        if p is not None:
            self._precisions.append(p)
        r = counts.recall
        if r is not None:
            self._recalls.append(r)

    def extend(self, many: Iterable[PageCounts]) -> None:
        for counts in many:
            self.add(counts)

    @property
    def precision(self) -> float | None:
        return _mean(self._precisions)

    @property
    def recall(self) -> float | None:
        return _mean(self._recalls)

    @property
    def f1(self) -> float | None:
        """None only when no page had a shingle on either side; a missing side counts as 0."""
        p, r = self.precision, self.recall
        if p is None and r is None:
            return None
        return f1_score(p or 0.0, r or 0.0)


def _strip_ws(text: str | None) -> str:
    return _WHITESPACE.sub("", text or "")


def lcs_length(a: str, b: str) -> int:
    """Length of the longest common character subsequence (bit-parallel, C speed)."""
    if not a or not b:
        return 0
    return int(LCSseq.similarity(a, b))


class LcsScore(NamedTuple):
    """Character-LCS scores of one page; a side is None when it is undefined (empty text)."""

    precision: float | None
    recall: float | None
    f1: float | None


def lcs_prf(true: str | None, pred: str | None) -> LcsScore:
    """Character LCS precision/recall/F1 on whitespace-stripped text.

    Whitespace is dropped because Chinese ground truth and extractor output disagree freely
    on spaces and line breaks, which carry no content. Undefined sides follow the shingle
    metric: an empty prediction has no precision, an empty truth no recall; F1 is 0 when
    only one side is empty and None when both are.
    """
    t = _strip_ws(true)
    p = _strip_ws(pred)
    if not t and not p:
        return LcsScore(None, None, None)
    common = lcs_length(t, p)
    precision = common / len(p) if p else None
    recall = common / len(t) if t else None
    if precision is None or recall is None:
        return LcsScore(precision, recall, 0.0)
    return LcsScore(precision, recall, f1_score(precision, recall))


@dataclass
class LcsAggregate:
    """Macro-average of per-page LCS scores; F1 here is the mean of per-page F1s.

    That differs from :class:`Aggregate` on purpose: it is how the reference numbers in
    ``metric-vectors.json`` were computed.
    """

    pages: int = 0
    _precisions: list[float] = field(default_factory=list, repr=False)
    _recalls: list[float] = field(default_factory=list, repr=False)
    _f1s: list[float] = field(default_factory=list, repr=False)

    def add(self, score: LcsScore) -> None:
        self.pages += 1
        if score.precision is not None:
            self._precisions.append(score.precision)
        if score.recall is not None:
            self._recalls.append(score.recall)
        if score.f1 is not None:
            self._f1s.append(score.f1)

    @property
    def precision(self) -> float | None:
        return _mean(self._precisions)

    @property
    def recall(self) -> float | None:
        return _mean(self._recalls)

    @property
    def f1(self) -> float | None:
        return _mean(self._f1s)
