"""Drop the items of noise pages, follow their links.

The page filter (:mod:`~scrapy_denoise.integration.middleware`) only marks noise
responses, because home, list and tag pages are where the links to articles are. This
spider middleware is the other half: items a spider yields from a response marked noise are
dropped (stat ``denoise/items/dropped_noise_page``) before they cost a pipeline run, while
the requests it yields from the same response pass untouched. A generic spider can
therefore yield ``page_item(response)`` for every page and still store only articles.

It runs as a spider middleware rather than in the pipeline so that the decision is made on
the response the item came from, whatever item type the spider yields, and without carrying
page bodies of noise pages through the item pipeline.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from .middleware import META_KEY
from .runtime import DenoiseRuntime

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.http import Response

__all__ = ["NoiseItemFilterMiddleware"]


def _is_noise(response: Response | None) -> bool:
    if response is None or response.request is None:
        return False
    verdict = response.meta.get(META_KEY)
    return isinstance(verdict, dict) and bool(verdict.get("is_noise"))


class NoiseItemFilterMiddleware(BaseSpiderMiddleware):
    """Remove items yielded from noise responses; keep every request."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        if not DenoiseRuntime.for_crawler(crawler, use_core=False).config.item_filter_enabled:
            raise NotConfigured
        return cls(crawler)

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        if _is_noise(response):
            assert self.crawler.stats is not None
            self.crawler.stats.inc_value("denoise/items/dropped_noise_page")
            return None
        return item
