"""Measure extractors on the shared evaluation data with the benchmark's own metric.

``metrics`` is the scoring (pinned by ``shared/data/metric-vectors.json``), ``datasets``
streams the shared zips and defines the stable dev/held-out split, ``peers`` wraps the
extractors we compare with, and ``runner`` puts them together on equal terms.
"""

from __future__ import annotations

from scrapy_denoise.evaluation.datasets import (
    Page,
    SitePage,
    holdout,
    iter_pages,
    iter_site_pages,
    shared_data_dir,
)
from scrapy_denoise.evaluation.metrics import Aggregate, lcs_prf, page_counts
from scrapy_denoise.evaluation.runner import (
    Extractor,
    Result,
    evaluate,
    evaluate_dataset,
    format_table,
    to_json,
)

__all__ = [
    "Aggregate",
    "Extractor",
    "Page",
    "Result",
    "SitePage",
    "evaluate",
    "evaluate_dataset",
    "format_table",
    "holdout",
    "iter_pages",
    "iter_site_pages",
    "lcs_prf",
    "page_counts",
    "shared_data_dir",
    "to_json",
]
