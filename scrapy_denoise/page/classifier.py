"""Rules first, then (when a model is given) the page SVM: the paper's two-stage filter;
in a crawl, then the site's links (``navigation_page``)."""

from __future__ import annotations

from typing import Protocol

from ..document import Document
from ..metadata import extract_metadata
from .features import PageFeatures, page_features
from .links import LinkCount
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
        self._navigation_min = rules.navigation_min_links

    def classify(
        self,
        doc: Document,
        history: PageHistory | None = None,
        links: LinkCount | None = None,
    ) -> PageVerdict:
        """``history`` and ``links`` are what the crawl knows of the page's URL (its earlier
        visits, the pages linking to it); without them the rules that read them stay off.

        ``navigation_page`` is judged last, on pages the rules and the SVM let through: it
        reads the page's date and author, which cost more than every other feature, and
        the extraction of an article page reuses them (:func:`~..metadata.extract_metadata`
        keeps them with the document).
        """
        features = page_features(doc)
        verdict = apply_rules(features, doc.url, self.rules, history, pattern=self._pattern)
        if verdict is None:
            if self.model is None:
                verdict = PageVerdict(False, 0.0, "article")
            else:
                score = self.model.noise_probability(features)
                verdict = PageVerdict(score >= 0.5, score, "model")
        if verdict.is_noise or links is None or self._navigation_min is None:
            return verdict
        if not links.content and links.navigation >= self._navigation_min:
            meta = extract_metadata(doc)
            if meta.published is None and meta.author is None:
                return PageVerdict(True, 1.0, "navigation_page")
        return verdict
