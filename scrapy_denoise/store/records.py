"""Plain values that cross the store's boundary, so callers never hold ORM objects.

The learning code and the Scrapy adapters run the store from worker threads and other
processes; detached ORM instances would drag sessions and lazy loads along, plain frozen
values do not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

__all__ = [
    "ArticleRecord",
    "BatchState",
    "LineCount",
    "PageState",
    "PageVisit",
    "SiteDelta",
    "SiteSnapshot",
    "SiteSummary",
    "TemplateText",
    "UpsertCounts",
]


@dataclass(frozen=True, slots=True)
class TemplateText:
    """A (tag, text) unit with a frequency: a learned template or a batch-cache entry."""

    tag: str
    text: str
    frequency: int


@dataclass(frozen=True, slots=True)
class BatchState:
    """One owner's template batch in progress: pages seen in the batch and the cache S."""

    pages: int = 0
    entries: tuple[TemplateText, ...] = ()


@dataclass(frozen=True, slots=True)
class SiteSnapshot:
    """Everything a learner needs about one site, read in one transaction."""

    site: str
    #: RC of the line-statistics paper: pages whose lines were counted
    pages_processed: int
    #: line MD5 (16 bytes) -> LC
    line_counts: Mapping[bytes, int]
    templates: tuple[TemplateText, ...]
    batch: BatchState


@dataclass(frozen=True, slots=True)
class SiteDelta:
    """What one process learned about one site since its last flush; applied atomically.

    Counts are increments, never absolute values, so several processes can apply theirs in
    any order and the sums come out the same.
    """

    site: str
    owner: str = "default"
    #: RC += pages
    pages: int = 0
    #: line MD5 -> LC increment
    line_counts: Mapping[bytes, int] = field(default_factory=dict)
    #: line MD5 -> line text (optional, for reports; capped by the store)
    line_texts: Mapping[bytes, str] = field(default_factory=dict)
    #: templates to add, ``frequency`` being the increment
    templates: Sequence[TemplateText] = ()
    #: replacement for this owner's batch cache, ``None`` leaves it as it is
    batch: BatchState | None = None
    #: prune lines with LC <= RC / prune_divisor when RC crosses a multiple of this
    prune_every: int | None = None
    prune_divisor: int = 100


@dataclass(frozen=True, slots=True)
class PageVisit:
    """One fetch of a URL and the hash of the main content found there."""

    url: str
    site: str
    content_hash: str
    seen_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class PageState:
    """A URL's history as stored: last content hash, visits, and changes between visits."""

    content_hash: str
    visits: int
    changes: int


@dataclass(frozen=True, slots=True)
class ArticleRecord:
    """One extracted article to store; ``content_hash`` defaults to a hash of title + text."""

    url: str
    site: str
    text: str
    title: str | None = None
    #: timezone-aware; naive datetimes are rejected rather than guessed
    published: datetime | None = None
    author: str | None = None
    lang: str | None = None
    fetched_at: datetime | None = None
    content_hash: str | None = None


@dataclass(frozen=True, slots=True)
class UpsertCounts:
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0


@dataclass(frozen=True, slots=True)
class LineCount:
    """A frequent line of a site: LC and, when it was stored, the text (capped)."""

    count: int
    text: str | None


@dataclass(frozen=True, slots=True)
class SiteSummary:
    """Read-only numbers about one site for reports."""

    site: str
    pages_processed: int
    articles: int
    templates: int
    fingerprints: int
    top_lines: tuple[LineCount, ...]
