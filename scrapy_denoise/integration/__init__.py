"""Scrapy components over :class:`~scrapy_denoise.Denoiser`: the page filter, the item
filter, the extraction and storage pipelines, and the add-on that enables them all.

Enable everything with ``ADDONS = {"scrapy_denoise.integration.Addon": 0}`` and yield
``page_item(response)`` from the spider; settings are listed in
:mod:`scrapy_denoise.integration.settings`.
"""

from __future__ import annotations

from .addon import Addon
from .items import page_item
from .logstats import DenoiseLogStats
from .middleware import PageFilterMiddleware
from .pipelines import DenoisePipeline, StorePipeline
from .runtime import DenoiseRuntime
from .settings import DenoiseConfig
from .spidermw import NoiseItemFilterMiddleware

__all__ = [
    "Addon",
    "DenoiseConfig",
    "DenoiseLogStats",
    "DenoisePipeline",
    "DenoiseRuntime",
    "NoiseItemFilterMiddleware",
    "PageFilterMiddleware",
    "StorePipeline",
    "page_item",
]
