"""Plain values that cross the store's boundary, so callers never hold ORM objects.

The learning code and the Scrapy adapters run the store from worker threads and other
processes; detached ORM instances would drag sessions and lazy loads along, plain frozen
values do not.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..article import Article

__all__ = [
    "SCORE_BUCKETS",
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
    "VerdictCount",
    "score_bucket",
]

#: The page filter's scores are counted in this many equal buckets of [0, 1]: fine enough
#: to see where the SVM's 0.5 threshold falls in the distribution, coarse enough that the
#: counter table stays a few dozen rows per site whatever the crawl's size.
SCORE_BUCKETS = 20


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


#: A page fingerprint may start with what it hashes, four letters and a colon (``main:``
#: the text the method extracted, ``page:`` all the page's text; see ``Denoiser``): a page
#: judged noise on one visit (hashed whole, never extracted) and an article on the next is
#: not a page whose content changed. A fingerprint without one (older rows, any other
#: string a caller records) has the empty basis.
FINGERPRINT_BASIS_CHARS = 5


def fingerprint_basis(fingerprint: str) -> str:
    n = FINGERPRINT_BASIS_CHARS
    return fingerprint[:n] if fingerprint[n - 1 : n] == ":" else ""


def comparable(before: str, after: str) -> bool:
    """Can a visit hashing to ``after`` be compared with one hashing to ``before``? Only
    when both hash the same thing (the store's upsert says the same in SQL).

    A visit that cannot is counted neither as a visit nor as a change: the rule fires when
    ``changes >= visits - 1``, and a visit that could never count as a change would keep a
    page one change short of it for good (every page fingerprinted before the bases, the
    first time it was fingerprinted with one; a page whose verdict flipped once).
    """
    return fingerprint_basis(before) == fingerprint_basis(after)


@dataclass(frozen=True, slots=True)
class PageVisit:
    """One fetch of a URL and the hash of the main content found there."""

    url: str
    site: str
    content_hash: str
    seen_at: datetime | None = None
    #: the lines the URL has taught its site's line statistics so far
    #: (:func:`~scrapy_denoise.methods.linestats.pack_keys`); None leaves the stored ones
    lines: bytes | None = None


@dataclass(frozen=True, slots=True)
class PageState:
    """A URL's history as stored: last content hash, visits, and changes between visits."""

    content_hash: str
    visits: int
    changes: int
    #: the lines the URL has taught its site's line statistics, packed; None when unknown
    #: (a noise page's fingerprint, or one recorded before schema 0004)
    lines: bytes | None = None


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
    #: ``Article.identity`` (32 hex digits): a new URL whose identity a stored article of
    #: its site already has is that article again and is not stored; ``None`` never matches
    identity: str | None = None
    #: ``Article.replaces``: the URL of the article's stored row, which moves to this
    #: record's URL (the page names itself the article's canonical URL and the stored
    #: one did not); a row already at this URL stays, and so does the other
    replaces: str | None = None

    @classmethod
    def from_article(
        cls, article: Article, *, site: str | None = None, fetched_at: datetime | None = None
    ) -> ArticleRecord:
        """The record the Scrapy pipeline would write for ``article``, for callers of the
        core that store articles themselves (:meth:`Store.upsert_articles`).

        ``site`` defaults to the article's site key, which a :class:`~scrapy_denoise.Denoiser`
        without a site store (``store=False``) does not set: pass it then.
        """
        key = site or article.site
        if not key:
            raise ValueError(
                f"{article.url} has no site key (extracted with store=False, or its URL has no "
                "host): pass site="
            )
        return cls(
            url=article.url,
            site=key,
            text=article.text,
            title=article.title,
            published=article.published,
            author=article.author,
            lang=article.lang,
            fetched_at=fetched_at,
            identity=article.identity,
            replaces=article.replaces,
        )


@dataclass(frozen=True, slots=True)
class UpsertCounts:
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0
    #: new URLs not stored: their article is stored under another URL of the site
    duplicates: int = 0
    #: stored URLs left as they were because the new text is damaged (see
    #: ``Store.upsert_articles``); counted apart from ``unchanged``
    kept_damaged: int = 0


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


def score_bucket(score: float) -> int:
    """The bucket a score in [0, 1] is counted in; 1.0 joins the top bucket, and values a
    broken model could give (NaN, out of range) are clamped rather than refused."""
    if math.isnan(score):
        return 0
    return min(max(int(score * SCORE_BUCKETS), 0), SCORE_BUCKETS - 1)


@dataclass(frozen=True, slots=True)
class VerdictCount:
    """How many of a site's pages the page filter judged one way: noise or article, the
    rule that decided (``model`` for the SVM), and the score's bucket."""

    site: str
    is_noise: bool
    reason: str
    #: ``score_bucket(score)``: bucket b holds scores in [b, b + 1) / SCORE_BUCKETS
    score_bucket: int
    count: int
