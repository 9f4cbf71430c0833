"""``ADDONS = {"scrapy_denoise.integration.Addon": 0}``: the whole plugin in one line.

The add-on only registers the components; each of them reads its own ``DENOISE_*``
settings (defaults in :mod:`~scrapy_denoise.integration.settings`) and raises
``NotConfigured`` when its ``DENOISE_*_ENABLED`` setting is false, so a user switches a part
off with one setting instead of editing component dictionaries. Priorities are set with
``setdefault``: a project that lists a component itself keeps its own priority.

Priorities, and why:

* ``PageFilterMiddleware`` at 540 (downloader): its ``process_response`` runs after
  decompression (590), redirects (600), meta refresh (580) and retries (550), so it
  classifies the final, decoded page once, not each redirect hop or failed attempt.
* ``NoiseItemFilterMiddleware`` at 800 (spider): closest to the spider, so items of noise
  pages are dropped before any other spider middleware spends time on them.
* ``DenoisePipeline`` at 300 and ``StorePipeline`` at 800 (item pipelines): extraction
  first, storage last, with room between for the project's own pipelines (validation,
  enrichment) that want to see clean articles.
* ``DenoiseLogStats`` (extension) at 500.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

from .logstats import DenoiseLogStats
from .middleware import PageFilterMiddleware
from .pipelines import DenoisePipeline, StorePipeline
from .spidermw import NoiseItemFilterMiddleware

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

__all__ = ["COMPONENTS", "Addon"]

#: (component setting, class, priority)
COMPONENTS: tuple[tuple[str, type, int], ...] = (
    ("DOWNLOADER_MIDDLEWARES", PageFilterMiddleware, 540),
    ("SPIDER_MIDDLEWARES", NoiseItemFilterMiddleware, 800),
    ("ITEM_PIPELINES", DenoisePipeline, 300),
    ("ITEM_PIPELINES", StorePipeline, 800),
    ("EXTENSIONS", DenoiseLogStats, 500),
)


class Addon:
    """Enable the page filter, the item filter, both pipelines and the log line."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def update_settings(self, settings: BaseSettings) -> None:
        for setting, component, priority in COMPONENTS:
            settings.setdefault_in_component_priority_dict(setting, component, priority)
