"""Rules first, then (when a model is given) the page SVM: the paper's two-stage filter."""

from __future__ import annotations

from typing import Protocol

from ..document import Document
from .features import PageFeatures, page_features
from .rules import PageHistory, PageRules, apply_rules
from .verdict import PageVerdict

__all__ = ["PageClassifier", "PageModel"]


class PageModel(Protocol):
    """The seam for the second stage: anything that scores a feature vector."""

    def noise_probability(self, features: PageFeatures) -> float: ...


class PageClassifier:
    def __init__(self, rules: PageRules, model: PageModel | None = None) -> None:
        self.rules = rules
        self.model = model
        self._pattern = rules.compiled_patterns()

    def classify(self, doc: Document, history: PageHistory | None = None) -> PageVerdict:
        features = page_features(doc)
        verdict = apply_rules(features, doc.url, self.rules, history, pattern=self._pattern)
        if verdict is not None:
            return verdict
        if self.model is not None:
            score = self.model.noise_probability(features)
            return PageVerdict(score >= 0.5, score, "model")
        return PageVerdict(False, 0.0, "article")
