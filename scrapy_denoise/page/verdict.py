"""The page filter's decision, shared by the core API and the Scrapy middleware."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["REASONS", "PageVerdict"]

#: What each ``reason`` means, for reports: the threshold rules (``rules.py``, in the order
#: they are tried), the page SVM, and the verdict when neither judged the page noise.
REASONS: dict[str, str] = {
    "url_pattern": "URL of a tag, category, search, feed, archive or paging page",
    "site_page": "URL named as a site's own page (about, contact, privacy, terms, jobs, ...)",
    "shallow_url": "home page (shallow URL path)",
    "declared_collection": "the page's JSON-LD declares a collection, search or profile page "
    "and no article",
    "little_text": "too little text outside links",
    "many_links": "too many links",
    "link_text_ratio": "far more link text than other text",
    "changing_content": "main content changed on every visit",
    "navigation_page": "page without date or author, linked from navigation only",
    "model": "the page SVM's noise probability",
    "declared_article": "the page SVM's noise verdict overruled: the page declares an article "
    "with a publication time (article:published_time)",
    "article": "no rule fired and no page SVM is configured",
}


@dataclass(frozen=True, slots=True)
class PageVerdict:
    """Whether a page is a noise page (index, list, tag, form, ...) or an article page."""

    is_noise: bool
    #: confidence that the page is noise, in [0, 1] (rules give 1.0 or 0.0)
    score: float
    #: the rule that fired (e.g. ``url_pattern``), ``model`` for the page SVM, ``article``
    reason: str

    def as_dict(self) -> dict[str, object]:
        return {"is_noise": self.is_noise, "score": self.score, "reason": self.reason}
