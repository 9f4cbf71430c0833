"""Log the plugin's counters next to Scrapy's own "Crawled N pages" line.

Scrapy's :class:`~scrapy.extensions.logstats.LogStats` shows pages and items per minute;
what a user of this plugin watches is different: how many pages were articles, how many
were noise, how many articles were stored. This extension logs those ``denoise/...`` stats
at the same ``LOGSTATS_INTERVAL`` and once more when the spider closes, reading the stats
collector only, so it costs the core's worker nothing.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Self

from scrapy import signals
from scrapy.exceptions import NotConfigured

from .runtime import DenoiseRuntime

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

    from ..page.verdict import PageVerdict

__all__ = ["DenoiseLogStats", "page_stat", "summary"]

logger = logging.getLogger(__name__)


def page_stat(verdict: PageVerdict) -> str:
    """The counter of a judged page: ``denoise/pages/article`` or
    ``denoise/pages/noise/<reason>``, whether the page filter or the pipeline judged it."""
    return f"denoise/pages/noise/{verdict.reason}" if verdict.is_noise else "denoise/pages/article"


#: load warnings that mean text was lost or never there (logged at INFO, the others at
#: DEBUG: a repaired ``<title>`` or a second copy of the page read once lose nothing)
_LOSSY_WARNINGS = frozenset({"binary", "empty", "not_html", "truncated", "undecodable"})


def count_warnings(
    stats: StatsCollector, warnings: Sequence[str], url: str, spider: Spider | None
) -> None:
    """Count a page's load warnings under ``denoise/warnings/<kind>`` and say which page
    had them: the counters alone never told which page was cut, binary or undecodable."""
    if not warnings:
        return
    for warning in warnings:
        stats.inc_value(f"denoise/warnings/{warning}")
    level = logging.INFO if _LOSSY_WARNINGS.intersection(warnings) else logging.DEBUG
    logger.log(
        level,
        "page loaded with warnings (%s): %s",
        ", ".join(warnings),
        url,
        extra={"spider": spider},
    )


def _sum(stats: dict[str, Any], prefix: str) -> int:
    return sum(int(v) for k, v in stats.items() if k.startswith(prefix))


def summary(stats: dict[str, Any], *, not_stored: str | None = None) -> str:
    """One line with the plugin's counters, for the log and for reports. ``not_stored`` is
    why a crawl stores nothing ("DENOISE_DATABASE_URL is empty"): said instead of "stored 0
    new", which read as a database that lost the articles."""
    noise = {
        k.removeprefix("denoise/pages/noise/"): int(v)
        for k, v in stats.items()
        if k.startswith("denoise/pages/noise/")
    }
    reasons = ", ".join(f"{k} {v}" for k, v in sorted(noise.items(), key=lambda kv: -kv[1]))
    dropped = _sum(stats, "denoise/items/dropped_")
    errors = _sum(stats, "denoise/errors/")
    warned = _sum(stats, "denoise/warnings/")
    # the store's outcomes add up to the articles it was given: copies of stored articles,
    # rows a damaged page did not rewrite, articles the database refused and those never
    # written are named when there are any
    extra = "".join(
        f", {n} {what}"
        for what, key in (
            ("copies not stored", "denoise/store/duplicates"),
            ("kept (damaged page)", "denoise/store/kept_damaged"),
            ("rejected by the database", "denoise/store/rejected"),
            ("not written", "denoise/store/lost"),
            ("deleted (now noise pages)", "denoise/store/withdrawn"),
            ("rewritten with what the crawl learned", "denoise/store/revised"),
        )
        if (n := int(stats.get(key, 0)))
    )
    stored = (
        f"stored {int(stats.get('denoise/store/inserted', 0))} new, "
        f"{int(stats.get('denoise/store/updated', 0))} updated, "
        f"{int(stats.get('denoise/store/unchanged', 0))} unchanged{extra}"
        if not_stored is None
        else f"not stored ({not_stored})"
    )
    return (
        f"Denoise: {_count(int(stats.get('denoise/pages/article', 0)), 'article page')}, "
        f"{_count(sum(noise.values()), 'noise page')}{f' ({reasons})' if reasons else ''}; "
        f"{_count(int(stats.get('denoise/items/extracted', 0)), 'article')} extracted, "
        f"{_count(dropped, 'item')} dropped; {stored}; "
        f"{_count(warned, 'page warning')}; {_count(errors, 'error')}"
    )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _looping_call(func: Callable[[Spider], None], spider: Spider) -> Any:
    try:
        from scrapy.utils.asyncio import create_looping_call
    except ImportError:  # Scrapy < 2.14
        from twisted.internet.task import LoopingCall

        return LoopingCall(func, spider)
    return create_looping_call(func, spider)


class DenoiseLogStats:
    """Periodic and final log line of the ``denoise/...`` stats."""

    def __init__(
        self, stats: StatsCollector, interval: float, runtime: DenoiseRuntime | None = None
    ) -> None:
        self.stats = stats
        self.interval = interval
        self.runtime = runtime
        self.task: Any = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        interval = crawler.settings.getfloat("LOGSTATS_INTERVAL")
        config = DenoiseRuntime.for_crawler(crawler, use_core=False).config
        if not config.logstats_enabled:
            raise NotConfigured
        assert crawler.stats is not None
        ext = cls(crawler.stats, interval, DenoiseRuntime.for_crawler(crawler, use_core=False))
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def spider_opened(self, spider: Spider) -> None:
        if not self.interval:
            return
        self.task = _looping_call(self.log, spider)
        # now=False: at start every counter is zero, Scrapy's own line says enough
        self.task.start(self.interval, now=False)

    def log(self, spider: Spider) -> None:
        logger.info(
            summary(self.stats.get_stats(), not_stored=self.not_stored()), extra={"spider": spider}
        )

    def not_stored(self) -> str | None:
        """Why this crawl stores no articles, or ``None`` when a StorePipeline does; read
        when logging, for the pipelines are built after the extensions."""
        runtime = self.runtime
        if runtime is None or runtime.storing:
            return None
        if not runtime.config.store_enabled:
            return "DENOISE_STORE_ENABLED is off"
        if not runtime.config.database_url:
            return "DENOISE_DATABASE_URL is empty"
        return "no StorePipeline in ITEM_PIPELINES"

    def spider_closed(self, spider: Spider, reason: str) -> None:
        if self.task is not None and self.task.running:
            self.task.stop()
        self.log(spider)
