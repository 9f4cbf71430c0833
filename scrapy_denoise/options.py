"""All of the core's options in one object, so they travel together (and into the CLI,
the Scrapy settings and the benchmark) instead of as long argument lists."""

from __future__ import annotations

import numbers
import os
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from .document import DEFAULT_MAX_BYTES
from .methods import check_method_name, check_method_params
from .page.rules import PageRules

__all__ = ["DenoiseOptions"]


@dataclass(frozen=True, slots=True)
class DenoiseOptions:
    """The core's options, checked when given (``ValueError`` or ``TypeError`` naming the
    option), not on the first page."""

    #: extraction method: ``default`` (the measured best chain) or one method's name
    method: str = "default"
    #: how much of a page is processed at most: bytes of a ``bytes`` body, characters of a
    #: ``str`` body; the rest is cut and ``truncated`` is reported
    max_bytes: int = DEFAULT_MAX_BYTES
    #: remove learned site templates before extraction
    templates: bool = True
    #: remove lines that recur across a site's pages after extraction
    line_stats: bool = True
    #: keep the headline in the text; ``False`` drops the first of the text's first five
    #: lines that is the article's title (``Article.title``), and the lines of its first
    #: six that only say its date, author and reading time (:mod:`.methods.header_lines`),
    #: for a store that keeps them beside it. Five of the six datasets' truth has the
    #: headline, the shared sites' truth never does.
    keep_headline: bool = True
    #: URL prefixes that are sites of their own (portals hosting several sites); a list is
    #: kept as a tuple
    site_prefixes: tuple[str, ...] = ()
    #: skip learning from (and mark) pages the page filter judges to be noise pages
    skip_noise_pages: bool = True
    #: page filter threshold rules
    rules: PageRules = field(default_factory=PageRules)
    #: page SVM behind the rules: ``default`` (the shipped model), a model file path, or
    #: ``None`` for the rules alone
    page_model: str | None = "default"
    #: parameter overrides by method name, e.g. ``{"cevc": {"alpha": 0.6}}`` with
    #: ``method="cevc"``; ``default`` names the default chain's. Only the running method's
    #: are used; those of other methods are logged as ignored when a Denoiser is built.
    method_params: dict[str, dict[str, object]] = field(default_factory=dict)
    #: pages between writes of learned state to the store
    flush_every: int = 50
    #: name of this process's template batch (several processes learn the same site)
    owner: str = "default"
    #: keep the article pages ``extract`` learns from that are among the first this many
    #: its site's learning counted, for :meth:`~scrapy_denoise.Denoiser.revisit` to extract
    #: them again with what the site learned after them (:mod:`.first_pages`); 0: keep none
    revisit_first: int = 0
    #: remember the lines of the article pages ``extract`` learns from, for
    #: :meth:`~scrapy_denoise.Denoiser.outdated` to name those holding lines their site
    #: learned as noise after them, and :meth:`~scrapy_denoise.Denoiser.refilter` to take
    #: those lines out (:mod:`.article_lines`); 4 bytes a line, 32 MB at most
    refilter_lines: bool = False

    def __post_init__(self) -> None:
        # Without these checks a wrong value was accepted here and failed much later: a
        # str max_bytes as a TypeError inside loading, a str site_prefixes as one prefix per
        # character, rules=None on the first page, an unknown method when a Denoiser was
        # built. Each check is an isinstance or a dict lookup: options stay cheap to build.
        _check_type("method", self.method, str, "a str")
        check_method_name(self.method)
        _check_int("max_bytes", self.max_bytes)
        for name in (
            "templates",
            "line_stats",
            "keep_headline",
            "skip_noise_pages",
            "refilter_lines",
        ):
            _check_type(name, getattr(self, name), bool, "True or False")
        prefixes = self.site_prefixes
        if not isinstance(prefixes, tuple | list) or not all(isinstance(p, str) for p in prefixes):
            raise TypeError(
                "DenoiseOptions.site_prefixes must be a tuple of URL prefixes, e.g. "
                f"('https://example.org/blog/',); got {type(prefixes).__name__} {prefixes!r}"
            )
        for prefix in prefixes:
            parts = urlsplit(prefix)
            if parts.scheme not in ("http", "https") or not parts.netloc:
                raise ValueError(
                    f"DenoiseOptions.site_prefixes: {prefix!r} is not an absolute http(s) URL "
                    "(e.g. 'https://example.org/blog/'), so no page would match it"
                )
        object.__setattr__(self, "site_prefixes", tuple(prefixes))
        _check_type("rules", self.rules, PageRules, "a PageRules")
        if isinstance(self.page_model, os.PathLike):  # a Path worked before the checks
            object.__setattr__(self, "page_model", os.fsdecode(self.page_model))
        if self.page_model is not None:
            _check_type("page_model", self.page_model, str, "a str, a path or None")
        check_method_params(self.method_params)
        _check_int("flush_every", self.flush_every)
        _check_int("revisit_first", self.revisit_first, minimum=0)
        _check_type("owner", self.owner, str, "a str")
        if not self.owner:
            raise ValueError("DenoiseOptions.owner must not be empty")


def _check_type(name: str, value: object, expected: type, described: str) -> None:
    if not isinstance(value, expected):
        raise TypeError(
            f"DenoiseOptions.{name} must be {described}, got {type(value).__name__} {value!r}"
        )


def _check_int(name: str, value: object, *, minimum: int = 1) -> None:
    # bool is an int subclass: max_bytes=True would mean one byte; numpy's ints are
    # Integral without being int
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(
            f"DenoiseOptions.{name} must be an int, got {type(value).__name__} {value!r}"
        )
    if value < minimum:
        raise ValueError(f"DenoiseOptions.{name} must be at least {minimum}, got {value}")
