"""All of the core's options in one object, so they travel together (and into the CLI,
the Scrapy settings and the benchmark) instead of as long argument lists."""

from __future__ import annotations

from dataclasses import dataclass, field

from .document import DEFAULT_MAX_BYTES
from .page.rules import PageRules

__all__ = ["DenoiseOptions"]


@dataclass(frozen=True, slots=True)
class DenoiseOptions:
    #: extraction method: ``default`` (the measured best chain) or one method's name
    method: str = "default"
    #: bytes of a page processed at most; the rest is cut and ``truncated`` is reported
    max_bytes: int = DEFAULT_MAX_BYTES
    #: remove learned site templates before extraction
    templates: bool = True
    #: remove lines that recur across a site's pages after extraction
    line_stats: bool = True
    #: URL prefixes that are sites of their own (portals hosting several sites)
    site_prefixes: tuple[str, ...] = ()
    #: skip learning from (and mark) pages the page filter judges to be noise pages
    skip_noise_pages: bool = True
    #: page filter threshold rules
    rules: PageRules = field(default_factory=PageRules)
    #: page SVM behind the rules: ``default`` (the shipped model), a model file path, or
    #: ``None`` for the rules alone
    page_model: str | None = "default"
    #: per-method parameter overrides, e.g. ``{"cevc": {"alpha": 0.6}}``
    method_params: dict[str, dict[str, object]] = field(default_factory=dict)
    #: pages between writes of learned state to the store
    flush_every: int = 50
    #: name of this process's template batch (several processes learn the same site)
    owner: str = "default"
