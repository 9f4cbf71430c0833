"""The page filter's decision, shared by the core API and the Scrapy middleware."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PageVerdict"]


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
