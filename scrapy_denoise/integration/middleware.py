"""The page filter as a downloader middleware: is this response an article or a noise page?

Every HTML response (2xx, after redirects, retries and decompression) is classified by the
core's page filter on the runtime's worker, and the verdict is recorded in
``response.meta["denoise"]`` as ``{"is_noise": bool, "score": float, "reason": str}``.

Noise pages are *not* dropped by default, and that is deliberate: home, section, list,
archive and tag pages are exactly where a crawler finds the links to articles, so dropping
them here would starve the crawl. Instead the spider middleware
(:mod:`~scrapy_denoise.integration.spidermw`) drops the *items* a spider yields from a noise
response and lets its requests through, so the links are followed and nothing from the page
itself is stored.

Where a spider knows a request leads to a content page only (an article link, never a page
it needs links from), it can mark it ``meta["denoise_leaf"] = True``; with
``DENOISE_DROP_NOISE_LEAVES = True`` a noise response to such a request is dropped here
(``IgnoreRequest``), saving the callback and everything after it.

A page the filter now judges a site page whose article an earlier crawl stored
(``navigation_page``, before the site had shown the rule its dated articles; ``site_page``,
under a version without that rule) has that row deleted by the core
(``DENOISE_STORE_WITHDRAW``); it is said here at INFO and counted in
``denoise/store/withdrawn``.

``meta["denoise_skip"] = True`` leaves a request out of the filter entirely: no verdict,
and the extraction pipeline then treats the page as an article.

Load warnings of noise pages (binary or empty bodies, cut pages) are counted here under
``denoise/warnings/<kind>``, since those pages never reach extraction; the pipeline counts
those of article pages, and judges and counts (``denoise/pages/...``) the pages this filter
never saw: responses that are not HTML, whose page items a spider may still yield.

A page that makes the core fail passes unclassified (counted in
``denoise/errors/classify``): the filter is an optimisation, and losing a page to it would
be worse than extracting one page too many. So do the pages that arrive while the core is
being opened again after its process died (counted in ``denoise/pages/unclassified``);
only once the core is given up and the spider is closing are pages ignored.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse

from .items import response_headers
from .logstats import count_warnings, page_stat
from .runtime import DenoiseRuntime, DenoiseUnavailable

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.statscollectors import StatsCollector

__all__ = ["META_KEY", "META_LEAF", "META_SKIP", "PageFilterMiddleware"]

logger = logging.getLogger(__name__)

#: where the verdict is recorded
META_KEY = "denoise"
#: per-request opt-out of the filter
META_SKIP = "denoise_skip"
#: the request leads to a content page whose links the spider does not need
META_LEAF = "denoise_leaf"


class PageFilterMiddleware:
    """Classify HTML responses as article or noise pages (see the module docstring)."""

    def __init__(self, crawler: Crawler, runtime: DenoiseRuntime) -> None:
        self.crawler = crawler
        self.runtime = runtime
        self.stats: StatsCollector = crawler.stats
        self.drop_noise_leaves = runtime.config.drop_noise_leaves
        # said once per spell of an unavailable core, not once per page
        self._said_unavailable = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        # the setting first: a disabled filter must not make the runtime open the core
        if not DenoiseRuntime.for_crawler(crawler, use_core=False).config.page_filter_enabled:
            raise NotConfigured
        return cls(crawler, DenoiseRuntime.for_crawler(crawler))

    async def process_response(
        self, request: Request, response: Response, spider: Spider | None = None
    ) -> Response:
        # A verdict already in the meta is not this response's: the spider passed on its
        # parent's meta (``meta=response.meta``), and the parent's "noise" made the item
        # filter drop the items of a PDF, a JSON or an error page it never judged.
        request.meta.pop(META_KEY, None)
        if request.meta.get(META_SKIP):
            self.stats.inc_value("denoise/pages/skipped")
            return response
        if not isinstance(response, HtmlResponse) or not 200 <= response.status < 300:
            return response
        try:
            verdict, warnings, withdrawn = await self.runtime.classify(
                response.body, response.url, response_headers(response)
            )
        except DenoiseUnavailable as exc:
            if self.runtime.closing:
                # the spider is being closed; logged once, by the runtime
                raise IgnoreRequest(str(exc)) from exc
            self._pass_unavailable(exc)
            return response
        except Exception:
            self.stats.inc_value("denoise/errors/classify")
            logger.exception(
                "page filter failed on %s; the page passes unclassified",
                response.url,
                extra={"spider": self.crawler.spider},
            )
            return response
        self._said_unavailable = False
        request.meta[META_KEY] = verdict.as_dict()
        self.runtime.remember_verdict(response.url, verdict)
        self.stats.inc_value(page_stat(verdict))
        if not verdict.is_noise:
            return response
        # Its items are dropped without a line of their own (see .spidermw): which page was
        # judged noise, and why, is said here, beside Scrapy's "Crawled" line.
        logger.debug(
            "noise page (%s, score %.2f): %s",
            verdict.reason,
            verdict.score,
            response.url,
            extra={"spider": self.crawler.spider},
        )
        if withdrawn:
            self.stats.inc_value("denoise/store/withdrawn")
            logger.info(
                "deleted the stored article %s: a visit now judges it a noise page (%s)",
                response.url,
                verdict.reason,
                extra={"spider": self.crawler.spider},
            )
        # an article's load warnings are counted by the pipeline when it is extracted
        count_warnings(self.stats, warnings, response.url, self.crawler.spider)
        if self.drop_noise_leaves and request.meta.get(META_LEAF):
            self.stats.inc_value("denoise/pages/dropped_leaf")
            raise IgnoreRequest(f"noise page ({verdict.reason}): {response.url}")
        return response

    def _pass_unavailable(self, exc: DenoiseUnavailable) -> None:
        """Count a page let through unclassified while the core is being opened again (the
        extraction pipeline judges it instead), and say so once per spell."""
        self.stats.inc_value("denoise/pages/unclassified")
        if not self._said_unavailable:
            self._said_unavailable = True
            logger.warning(
                "the denoise core is unavailable (%s): pages pass the page filter "
                "unclassified until it is back (stat denoise/pages/unclassified)",
                exc,
                extra={"spider": self.crawler.spider},
            )
