"""Item pipelines: page items become articles (:class:`DenoisePipeline`), articles go into
the database (:class:`StorePipeline`).

``DenoisePipeline`` takes the page item a spider yields (``page_item(response)``: url, raw
body, a few headers, the page filter's verdict), parses the page once and runs template
removal, the extraction method and line statistics on that one parse
(``Denoiser.extract_document``) on the runtime's worker. It then fills the article
fields and removes the raw body and headers, so exporters and later pipelines see an
article, not a page. Items that carry no body are not page items and pass untouched, so
the pipeline can sit in a project whose spiders yield other items too.

Items are dropped (``DropItem``, each with a stat) when the page is a noise page (the page
filter ran but the item filter did not), when it is an article met before under another URL
of its site (``Article.duplicate_of``; ``DENOISE_DROP_DUPLICATES``; but a copy that names
itself the article's canonical URL, where the first did not, is stored and the first's row
moves to it: ``Article.replaces``, stat ``denoise/items/canonical_copies``), when the extracted
text is shorter than ``DENOISE_MIN_TEXT_CHARS``, or when the core fails on the page; the
crawl goes on either way.

``StorePipeline`` upserts the articles ``DenoisePipeline`` made into the ``articles`` table
(in a project without ``DenoisePipeline``, or with ``DENOISE_EXTRACT_ENABLED = False``, every
item that has a URL and a text: the spider extracts itself). A spider's other items pass
untouched and are not stored, though they have a ``url`` and a ``text`` (stat
``denoise/store/skipped_other_items``). The articles are recognised by URL and text, so a
pipeline between the two may copy an article but not change either. Rows are
keyed by URL: new URLs are inserted, changed content is rewritten, the rest is counted as
unchanged (stats ``denoise/store/inserted|updated|unchanged``). A new URL whose article
the database already holds under another URL of the site (the same ``Article.identity``,
met by another crawler process or an earlier crawl) is not stored again (stat
``denoise/store/duplicates``; ``DENOISE_DROP_DUPLICATES = False`` stores it). Writes are
batched (``DENOISE_STORE_BATCH`` items per transaction) because one transaction per article costs
a disk sync each on SQLite and a round trip each on PostgreSQL; the last batch is written
when the spider closes. A batch the database fails to write is kept and retried with the
next one; once the same articles failed three times the spider is closed (reason
``denoise_store_failed``) instead of crawling on into a database that is gone, and anything
still unwritten at the end is reported as an error with its count (stat
``denoise/store/lost``). A batch the database refuses for its data (``StoreDataError``: a
value it cannot store) is written in halves, and halves of those, so that one bad article
cannot take its batch down with it: the article that fails alone is logged as an error with
its URL and not stored (stat ``denoise/store/rejected``), never retried. A ``published``
date with no UTC equivalent (``0001-01-01T00:00:00+01:00``) never gets that far: the article
is stored without it (stat ``denoise/store/out_of_range_date_dropped``).

The pipeline registers a checkpoint hook with the runtime (``DenoiseRuntime.checkpoint``):
the distributed scheduler acknowledges a request to the shared queue only after its article
is in the database, so a crawler killed with articles still pending loses none of them (the
requests are redelivered instead).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

import scrapy
from itemadapter import ItemAdapter
from scrapy import Item
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.utils.defer import deferred_from_coro

from ..article import too_short
from ..page.verdict import PageVerdict
from ..store import DAMAGED_SHARE, StoreDataError
from ..store.records import ArticleRecord
from ..worker import first_line
from .logstats import count_warnings, page_stat
from .runtime import DenoiseRuntime, DenoiseUnavailable, close_spider
from .settings import DEFAULT_FIELDS

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector
    from twisted.internet.defer import Deferred

    from ..article import Article
    from ..store import UpsertCounts

__all__ = ["DenoisePipeline", "StorePipeline"]

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

#: Article attributes copied into items, in this order, when ``DENOISE_FIELDS`` names them.
_ARTICLE_FIELDS = ("url", "title", "text", "published", "author", "lang", "site", "method")

#: Failed writes of the same articles after which the spider is closed.
_MAX_STORE_FAILURES = 3


def _drop(message: str, level: str) -> DropItem:
    """A ``DropItem`` logged at ``level``: each drop says how loud it is (a noise page is
    routine, DEBUG; an unavailable core is an ERROR), where Scrapy logs every drop as a
    warning by default."""
    return DropItem(message, log_level=level)


def _settable(adapter: ItemAdapter, name: str) -> bool:
    declared = ItemAdapter.get_field_names_from_class(type(adapter.item))
    return declared is None or name in declared


def _remove(adapter: ItemAdapter, name: str) -> None:
    """Remove a field; types with a fixed schema (dataclass, attrs) get ``None`` instead."""
    if name not in adapter:
        return
    if isinstance(adapter.item, (dict, Item)):
        del adapter[name]
    else:
        adapter[name] = None


def _headers(value: Any) -> dict[str, str] | None:
    """``str`` headers for the core, whatever a spider put in the item (``page_item``
    stores them so; ``response.headers`` itself has bytes and lists of values)."""
    if not isinstance(value, Mapping) or not value:
        return None
    headers: dict[str, str] = {}
    for key, raw in value.items():
        if isinstance(raw, (list, tuple)):
            raw = raw[0] if raw else b""
        headers[_text(key)] = _text(raw)
    return headers


def _text(value: Any) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else str(value)


def _verdict(value: Any) -> PageVerdict | None:
    if isinstance(value, PageVerdict):
        return value
    if isinstance(value, dict) and "is_noise" in value:
        return PageVerdict(
            bool(value["is_noise"]),
            float(value.get("score", 1.0 if value["is_noise"] else 0.0)),
            str(value.get("reason", "")),
        )
    return None


def _default_names_renamed(adapter: ItemAdapter, fields: Mapping[str, str]) -> list[str]:
    """Roles an item carries under their default name although DENOISE_FIELDS renamed them:
    the spider built it with ``page_item(response)``, not ``page_item(response,
    fields=self.settings)``, and its pages were judged twice or stored with no URL."""
    return [
        role
        for role in ("url", "body", "headers", "verdict")
        if fields.get(role) not in (None, DEFAULT_FIELDS[role])
        and DEFAULT_FIELDS[role] in adapter
        and fields[role] not in adapter
    ]


#: what the crawl's last look took a withdrawn row for, by reason (the log line)
_WITHDRAWN_AS = {"navigation_page": "site page", "listing": "list page"}


class DenoisePipeline:
    """Turn page items into article items (see the module docstring)."""

    def __init__(self, crawler: Crawler, runtime: DenoiseRuntime) -> None:
        self.crawler = crawler
        self.runtime = runtime
        self.stats: StatsCollector = crawler.stats
        config = runtime.config
        self.fields: Mapping[str, str] = config.fields
        self.min_text_chars = config.min_text_chars
        self.keep_headline = config.keep_headline
        self.drop_duplicates = config.drop_duplicates
        self._warned: set[tuple[type, str]] = set()
        self._warned_default_names = False
        self._warned_verdict = False
        runtime.register_extractor()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        # the setting first: a disabled pipeline must not make the runtime open the core
        if not DenoiseRuntime.for_crawler(crawler, use_core=False).config.extract_enabled:
            raise NotConfigured
        return cls(crawler, DenoiseRuntime.for_crawler(crawler))

    async def process_item(self, item: Any, spider: Spider | None = None) -> Any:
        fields = self.fields
        adapter = ItemAdapter(item)
        if not self._warned_default_names and (roles := _default_names_renamed(adapter, fields)):
            self._warned_default_names = True
            logger.warning(
                "page items use the default field names for %s, which DENOISE_FIELDS renames: "
                "yield page_item(response, fields=self.settings) so the pipeline finds them",
                ", ".join(roles),
                extra={"spider": self.crawler.spider},
            )
        body = adapter.get(fields["body"])
        if body is None:
            return item  # not a page item
        url = str(adapter.get(fields["url"]) or "")
        raw_headers = adapter.get(fields["headers"]) if "headers" in fields else None
        raw_verdict = adapter.get(fields["verdict"]) if "verdict" in fields else None
        # Read what the item holds, then strip it before parsing anything: a verdict whose
        # score is "n/a" raised here, and Scrapy's "Error processing" line printed the item
        # with its whole raw page.
        self._strip(adapter)
        headers = _headers(raw_headers)
        verdict = self._item_verdict(raw_verdict, url)
        remembered = self.runtime.recall_verdict(url)
        if verdict is None:  # an item that cannot carry it: counted already, not again
            verdict = remembered
        if verdict is not None and verdict.is_noise:
            raise self._drop_noise(url, verdict)
        try:
            article = await self.runtime.extract(body, url, headers, verdict)
        except DenoiseUnavailable as exc:
            self.stats.inc_value("denoise/items/dropped_unavailable")
            raise _drop(f"denoise unavailable: {exc}", "ERROR") from exc
        except Exception as exc:
            self.stats.inc_value("denoise/errors/extract")
            logger.exception("extraction failed on %s", url, extra={"spider": self.crawler.spider})
            # logged above with its traceback; the drop itself needs no second line
            raise _drop(f"extraction failed on {url}: {exc!r}", "DEBUG") from exc
        # The page filter counts the pages it judges, and the load warnings of the noise
        # ones, which never get here. A page it did not see (a response that is not HTML,
        # the filter turned off, an item built by hand) was judged just now: counted the
        # same way, so the stats and the closing summary add up whatever the spider yields.
        judged_here = article.verdict if verdict is None else None
        if judged_here is not None:
            self.stats.inc_value(page_stat(judged_here))
        count_warnings(self.stats, article.warnings, url, self.crawler.spider)
        if judged_here is not None and judged_here.is_noise:
            raise self._drop_noise(url, judged_here)
        if article.duplicate_of is not None and self.drop_duplicates:
            self.stats.inc_value("denoise/items/dropped_duplicate")
            raise _drop(f"same article as {article.duplicate_of}: {url}", "INFO")
        self._fill(adapter, article, verdict is None)
        if too_short(article, self.min_text_chars, keep_headline=self.keep_headline):
            self.stats.inc_value("denoise/items/dropped_short_text")
            raise _drop(
                f"extracted text under DENOISE_MIN_TEXT_CHARS={self.min_text_chars}: {url}",
                "INFO",
            )
        self.stats.inc_value("denoise/items/extracted")
        if article.replaces is not None and self.drop_duplicates:
            # the store moves the article's row here (ArticleRecord.replaces)
            self.stats.inc_value("denoise/items/canonical_copies")
            logger.info(
                "%s names itself the canonical URL of the article met first at %s: the "
                "article is stored under it",
                url,
                article.replaces,
                extra={"spider": self.crawler.spider},
            )
        self.runtime.note_extracted(item)
        return item

    def _item_verdict(self, value: Any, url: str) -> PageVerdict | None:
        """The verdict the item carries; one a spider or pipeline mangled (a score that is
        no number) is read as none, so the page is judged again rather than lost."""
        try:
            return _verdict(value)
        except (TypeError, ValueError) as exc:
            self.stats.inc_value("denoise/items/malformed_verdict")
            logger.log(
                logging.DEBUG if self._warned_verdict else logging.WARNING,
                "the page verdict of %s is malformed (%s: %s); the page is judged again "
                "(stat denoise/items/malformed_verdict)",
                url,
                type(exc).__name__,
                exc,
                extra={"spider": self.crawler.spider},
            )
            self._warned_verdict = True
            return None

    def _drop_noise(self, url: str, verdict: PageVerdict) -> DropItem:
        self.stats.inc_value("denoise/items/dropped_noise_page")
        return _drop(f"noise page ({verdict.reason}): {url}", "DEBUG")

    def _strip(self, adapter: ItemAdapter) -> None:
        """Remove the raw page before anything can fail: no log line or export gets it."""
        for role in ("body", "headers"):
            name = self.fields.get(role)
            if name:
                _remove(adapter, name)

    def _fill(self, adapter: ItemAdapter, article: Article, new_verdict: bool) -> None:
        values: dict[str, Any] = {name: getattr(article, name) for name in _ARTICLE_FIELDS}
        values["warnings"] = list(article.warnings)
        if new_verdict and article.verdict is not None:
            values["verdict"] = article.verdict.as_dict()
        for role, value in values.items():
            name = self.fields.get(role)
            if not name:
                continue
            if _settable(adapter, name):
                adapter[name] = value
            elif (key := (type(adapter.item), name)) not in self._warned:
                self._warned.add(key)
                logger.warning(
                    "%s has no field %r: the article's %s is not kept, on the item nor in "
                    "the database, which stores what the item carries (declare the field "
                    "or rename it in DENOISE_FIELDS)",
                    type(adapter.item).__name__,
                    name,
                    role,
                    extra={"spider": self.crawler.spider},
                )


class StorePipeline:
    """Upsert article items into the ``articles`` table in batches (see the module docstring)."""

    def __init__(self, crawler: Crawler, runtime: DenoiseRuntime) -> None:
        self.crawler = crawler
        self.runtime = runtime
        self.stats: StatsCollector = crawler.stats
        config = runtime.config
        self.fields: Mapping[str, str] = config.fields
        self.batch_size = max(1, config.store_batch)
        self._warned_foreign = False
        self._warned_order = False
        self._warned_date_range = False
        self._pending: list[ArticleRecord] = []
        # failed writes of each article waiting for another, by id(): an article's own
        # count, which a concurrent batch written fine does not reset (a whole-pipeline
        # "in a row" count was, so a batch failing for ever never closed the spider)
        self._attempts: dict[int, int] = {}
        # batches handed to the worker and not yet confirmed written
        self._writing: list[list[ArticleRecord]] = []
        runtime.add_checkpoint_hook(self._checkpoint)
        runtime.register_store()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        # the settings first: a disabled pipeline must not make the runtime open the core
        config = DenoiseRuntime.for_crawler(crawler, use_core=False).config
        if not config.store_enabled:
            raise NotConfigured
        if not config.database_url:
            raise NotConfigured("DENOISE_DATABASE_URL is empty: articles are not stored")
        return cls(crawler, DenoiseRuntime.for_crawler(crawler))

    async def process_item(self, item: Any, spider: Spider | None = None) -> Any:
        # with a DenoisePipeline in the project, only its articles are (module docstring)
        if self.runtime.extracting and not self.runtime.take_extracted(item):
            self._skip_foreign(item)
            return item
        record = self._record(ItemAdapter(item))
        if record is None:
            return item
        self._pending.append(record)
        if len(self._pending) >= self.batch_size:
            await self._flush()
        return item

    def _skip_foreign(self, item: Any) -> None:
        """Count an item DenoisePipeline did not make, and say once why it is not stored."""
        self.stats.inc_value("denoise/store/skipped_other_items")
        body = self.fields.get("body")
        if body and not self._warned_order and body in ItemAdapter(item):
            # a page item: this pipeline runs before DenoisePipeline and would store nothing
            self._warned_order = True
            logger.warning(
                "StorePipeline got a page item (it has a %r field): it runs before "
                "DenoisePipeline, so no article is stored; give StorePipeline the higher "
                "number in ITEM_PIPELINES",
                body,
                extra={"spider": self.crawler.spider},
            )
        if not self._warned_foreign:
            self._warned_foreign = True
            logger.info(
                "items that did not come through DenoisePipeline (a %s) are not stored: only "
                "the articles it extracts are, found by url and text, so a pipeline between "
                "that changes either makes them other items too (stat "
                "denoise/store/skipped_other_items)",
                type(item).__name__,
                extra={"spider": self.crawler.spider},
            )

    async def close_spider(self, spider: Spider | None = None) -> None:
        """Write what is left, then rewrite each site's first articles
        (``DENOISE_REVISIT_FIRST``) and the lines learned as noise after the others
        (``DENOISE_REFILTER_LINES``), and delete the rows of the noise pages the crawl let
        through (``DENOISE_STORE_WITHDRAW``). Scrapy 2.13 calls this without awaiting a
        coroutine (its last batch, up to ``DENOISE_STORE_BATCH`` articles, was never
        written: 200 of 245 rows), so there :func:`_deferred_close_spider` stands in for it."""
        await self._flush()
        if self._pending:
            self.stats.inc_value("denoise/store/lost", len(self._pending))
            logger.error(
                "%d articles could not be written to the denoise database",
                len(self._pending),
                extra={"spider": self.crawler.spider},
            )
        await self._revise_stored_texts()
        await self._withdraw_noise_pages()

    async def _revise_stored_texts(self) -> None:
        """Rewrite the stored text of each site's first articles, extracted again with
        what the whole crawl learned (``DENOISE_REVISIT_FIRST``), and of the articles that
        hold lines their site learned as noise after them (``DENOISE_REFILTER_LINES``),
        once the last articles are written. A failure leaves those rows as the crawl first
        stored them."""
        revised = await self._last_call(
            self.runtime.revise_stored_texts(),
            "revise",
            "could not rewrite the stored articles with what the crawl learned",
        )
        if revised:
            self.stats.inc_value("denoise/store/revised", len(revised))
            logger.info(
                "rewrote the text of %d articles stored before their site's boilerplate was "
                "learned",
                len(revised),
                extra={"spider": self.crawler.spider},
            )

    async def _withdraw_noise_pages(self) -> None:
        """Delete the rows of the noise pages the crawl let through before the pages after
        them told (``DENOISE_STORE_WITHDRAW``): site pages met before their site showed
        the ``navigation_page`` rule its dated articles, listings met before the articles
        whose titles they list. Once the last articles are written. Here rather than at
        ``spider_closed``, whose handlers Scrapy runs together: the crawl's summary line
        (:mod:`.logstats`) was logged before the rows went, and did not count them. A
        failure costs the next crawl's deleting them, nothing else."""
        if not self.runtime.config.store_withdraw:
            return
        withdrawn = await self._last_call(
            self.runtime.withdraw_noise_pages(),
            "withdraw",
            "could not delete the noise pages the crawl stored",
        )
        for url, reason in withdrawn or ():
            self.stats.inc_value("denoise/store/withdrawn")
            logger.info(
                "deleted the stored article %s: the whole crawl judges it a %s (%s)",
                url,
                _WITHDRAWN_AS.get(reason, "noise page"),
                reason,
                extra={"spider": self.crawler.spider},
            )

    async def _last_call(self, call: Awaitable[_T], name: str, failed: str) -> _T | None:
        """``call``'s result, or None when it fails: one of the spider's last calls on the
        core, whose failure is a warning and a stat (``denoise/errors/NAME``), and leaves
        the rows as they are."""
        try:
            return await call
        except Exception as exc:
            self.stats.inc_value(f"denoise/errors/{name}")
            logger.warning(
                "%s: %s: %s",
                failed,
                type(exc).__name__,
                first_line(exc),
                extra={"spider": self.crawler.spider},
            )
            return None

    async def _checkpoint(self) -> bool:
        """Write every article received so far; ``True`` once all of them are confirmed
        in the database. Articles arriving meanwhile are not waited for (they belong to
        requests the checkpoint does not acknowledge), but a batch another item started
        writing must be confirmed too: it may yet fail and come back."""
        before = self._unconfirmed()
        if not before:
            return True
        await self._flush()
        left = {id(r) for r in self._unconfirmed()}
        return not any(id(r) in left for r in before)

    def _unconfirmed(self) -> list[ArticleRecord]:
        records = list(self._pending)
        for batch in self._writing:
            records.extend(batch)
        return records

    def _record(self, adapter: ItemAdapter) -> ArticleRecord | None:
        fields = self.fields
        url = adapter.get(fields["url"])
        text = adapter.get(fields["text"]) if "text" in fields else None
        if not url or not text:
            return None

        def optional(role: str) -> str | None:
            name = fields.get(role)
            value = adapter.get(name) if name else None
            return str(value) if value else None

        return ArticleRecord(
            url=str(url),
            site="",  # filled by the core, from the configured site prefixes
            text=str(text),
            title=optional("title"),
            published=self._published(adapter, str(url)),
            author=optional("author"),
            lang=optional("lang"),
        )

    def _published(self, adapter: ItemAdapter, url: str) -> datetime | None:
        name = self.fields.get("published")
        value = adapter.get(name) if name else None
        if isinstance(value, str):
            try:
                value = datetime.fromisoformat(value)
            except ValueError:
                value = None
        if not isinstance(value, datetime):
            return None
        if value.utcoffset() is None:
            # The store refuses to guess a time zone; losing a date beats a wrong one.
            self.stats.inc_value("denoise/store/naive_date_dropped")
            logger.debug("published date of %s has no time zone; not stored", url)
            return None
        try:
            # The store keeps UTC. A date at the edge of datetime's range has none (.NET's
            # minimum date 0001-01-01T00:00:00+01:00 is in year 0 there): left in, it failed
            # the whole batch in the database, every time it was retried.
            return value.astimezone(UTC)
        except (OverflowError, ValueError):
            self.stats.inc_value("denoise/store/out_of_range_date_dropped")
            logger.log(
                logging.DEBUG if self._warned_date_range else logging.WARNING,
                "published date %s of %s has no UTC equivalent (out of range); the article "
                "is stored without it (stat denoise/store/out_of_range_date_dropped)",
                value.isoformat(),
                url,
                extra={"spider": self.crawler.spider},
            )
            self._warned_date_range = True
            return None

    async def _flush(self) -> None:
        if not self._pending:
            return
        batch, self._pending = self._pending, []
        self._writing.append(batch)
        unwritten, error = await self._write(batch)
        self._done_writing(batch)
        left = {id(r) for r in unwritten}
        for record in batch:
            if id(record) not in left:
                self._attempts.pop(id(record), None)
        if error is None:
            return
        # Back in front of the new articles; counted per article, so it is these
        # articles' third failure that closes the spider, whatever else was written since.
        self._pending = unwritten + self._pending
        attempt = 1 + max(self._attempts.get(id(r), 0) for r in unwritten)
        for record in unwritten:
            self._attempts[id(record)] = attempt
        self.stats.inc_value("denoise/errors/store")
        logger.error(
            "writing %d articles to the denoise database failed (%s attempt): %s: %s",
            len(unwritten),
            _ordinal(attempt),
            type(error).__name__,
            error,
            extra={"spider": self.crawler.spider},
        )
        if attempt >= _MAX_STORE_FAILURES:
            self._close_spider("denoise_store_failed")

    async def _write(
        self, batch: list[ArticleRecord]
    ) -> tuple[list[ArticleRecord], Exception | None]:
        """Write ``batch``; return the articles left unwritten by a failure that another
        attempt may cure, and that failure (``[], None`` once everything is written or
        rejected).

        Data the database refuses fails the whole transaction, and would fail it again on
        every retry, taking the good articles with it. So a refused batch is written in
        halves, recursively, until every good article is written and each bad one is
        refused alone, and rejected: one bad article among 50 costs some 12 more writes, a
        rare price. A failure of the database itself stops the search: what is not yet
        written waits for the next flush.
        """
        try:
            counts = await self.runtime.write_articles(batch)
        except StoreDataError as exc:
            if len(batch) == 1:
                self._reject(batch[0], exc)
                return [], None
            logger.debug(
                "the denoise database refused a batch of %d articles (%s): writing it in halves",
                len(batch),
                exc,
                extra={"spider": self.crawler.spider},
            )
            half = len(batch) // 2
            unwritten, error = await self._write(batch[:half])
            if error is not None:
                return unwritten + batch[half:], error
            return await self._write(batch[half:])
        except Exception as exc:
            return batch, exc
        self._count(counts)
        return [], None

    def _reject(self, record: ArticleRecord, exc: StoreDataError) -> None:
        """Give up on an article the database refuses by itself: writing it again would fail
        the same way, so it is not kept for another attempt."""
        self.stats.inc_value("denoise/store/rejected")
        logger.error(
            "the denoise database refused the article %s; it is not stored: %s",
            record.url,
            exc,
            extra={"spider": self.crawler.spider},
        )

    def _count(self, counts: UpsertCounts) -> None:
        self.stats.inc_value("denoise/store/inserted", counts.inserted)
        self.stats.inc_value("denoise/store/updated", counts.updated)
        self.stats.inc_value("denoise/store/unchanged", counts.unchanged)
        self.stats.inc_value("denoise/store/duplicates", counts.duplicates)
        if counts.kept_damaged:
            self.stats.inc_value("denoise/store/kept_damaged", counts.kept_damaged)
            logger.warning(
                "%d stored articles kept as they were: the pages fetched now are damaged "
                "(over %d %% of their text could not be decoded)",
                counts.kept_damaged,
                round(DAMAGED_SHARE * 100),
                extra={"spider": self.crawler.spider},
            )

    def _done_writing(self, batch: list[ArticleRecord]) -> None:
        self._writing = [b for b in self._writing if b is not batch]

    def _close_spider(self, reason: str) -> None:
        close_spider(self.crawler, reason)


def _deferred_close_spider(self: StorePipeline, spider: Spider | None = None) -> Deferred[None]:
    """``close_spider`` as Scrapy 2.13 waits for it: a Deferred. Scrapy 2.14 and later await
    coroutines and deprecate Deferreds, so only 2.13 gets this."""
    return deferred_from_coro(_async_close_spider(self, spider))


_async_close_spider = StorePipeline.close_spider
if scrapy.version_info < (2, 14):
    StorePipeline.close_spider = _deferred_close_spider  # type: ignore[assignment,method-assign]


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")
