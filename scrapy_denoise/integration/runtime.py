"""One core worker per crawler: the integration components' way to the core.

Every component (page filter, pipelines) talks to the core through this object. The core
is blocking CPU and database work that may not run on the reactor thread, and it is not
thread-safe, so all of a crawler's calls go to one worker (:mod:`scrapy_denoise.worker`)
that runs them in order, and the components await the results. By default that worker is
a child process (``DENOISE_CORE_WORKER = "process"``), so that the core's CPU does not come out
of Scrapy's on a CPU-bound crawl; ``"thread"`` keeps it in the crawler's process.

The database is opened when the spider opens rather than on the first page, so that a
database that is down stops the crawl before anything is downloaded (the spider closes with
reason ``denoise_database_unavailable`` and the log names the URL, password redacted)
instead of losing every article of the crawl one by one. Everything is flushed and closed
on ``spider_closed``, after the pipelines have written their last batch.

A worker process that dies mid-crawl (a crash in a C library, the OOM killer) fails the
calls it held (their pages are counted as errors by the components) and is replaced on
the next call, after an error in the log and the stat ``denoise/errors/core_restarted``:
its learned state since the last flush is lost, as when a crawler dies, and nothing that
was already written. A core that cannot be opened again then (the database briefly out of
reach) is retried after 1, 2, 4, 8 and 16 seconds (stat ``denoise/errors/core_reopen``):
meanwhile the page filter lets pages through unclassified and the pipelines wait for the
core. If the sixth attempt fails too, the spider is closed with the failure's reason, as
when the core cannot be opened at the start.

For the distributed scheduler (:mod:`~scrapy_denoise.integration.distributed`) the runtime
also offers a *checkpoint*: make everything the plugin was handed so far durable (articles
written, learned state flushed), so that requests can be acknowledged to the shared queue
only once their results are in the database; and it passes on *redelivered* URLs (requests
a killed crawler had taken but not finished), whose learning is skipped when a committed
fingerprint shows it was already counted.

Each call's worker CPU time goes to the stats as ``denoise/core/cpu_us/<operation>``
(microseconds; ``classify``, ``extract``, ``write_articles``, ...) and its count as
``denoise/core/calls/<operation>``, so a crawl's stats say what the core cost it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, ClassVar

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.core.engine import ExecutionEngine
from scrapy.exceptions import CloseSpider
from scrapy.utils.defer import deferred_from_coro

from ..worker import (
    CoreProcessDied,
    DenoiseUnavailable,
    Outcome,
    Worker,
    first_line,
    make_worker,
)
from .settings import DenoiseConfig

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler

    from ..article import Article
    from ..page.verdict import PageVerdict
    from ..store import ArticleRecord, UpsertCounts

__all__ = ["DenoiseRuntime", "DenoiseUnavailable", "close_spider"]

logger = logging.getLogger(__name__)

#: verdicts kept by :meth:`DenoiseRuntime.remember_verdict`
_VERDICT_MEMORY = 4096
#: articles kept by :meth:`DenoiseRuntime.note_extracted`, oldest forgotten first: each is
#: taken moments later, unless a pipeline between drops it or StorePipeline runs first
_EXTRACTED_MEMORY = 10_000
#: failed attempts in a row to open the core again (after its process died) before the
#: spider is closed; the first retry waits this many seconds, each later one twice as long
_REOPEN_ATTEMPTS = 6
_REOPEN_DELAY = 1.0


class DenoiseRuntime:
    """The per-crawler state shared by the integration components.

    Get it with :meth:`for_crawler`; components never construct it themselves, so that they
    share one instance (and one worker, one database connection) per crawler.
    """

    #: the crawler attribute holding its runtime: the runtime lives exactly as long as its
    #: crawler, which a registry keyed by crawler would get wrong (the runtime refers back)
    _ATTRIBUTE: ClassVar[str] = "_scrapy_denoise_runtime"

    def __init__(self, crawler: Crawler, config: DenoiseConfig) -> None:
        self.crawler = crawler
        self.config = config
        self._worker: Worker | None = None
        self._opening: Future[Outcome] | None = None
        self._closed = False
        self._used = False
        # set when the core cannot be opened at the start, or again after its process died
        # (see _open_failed): the spider is closing, so the calls fail at once instead of
        # starting process after process
        self._failed: DenoiseUnavailable | None = None
        # a core opened once and lost since is opened again, after a pause: the last failure
        # (None while none), how many in a row, and when the next attempt may start
        self._was_open = False
        self._reopen_failure: DenoiseUnavailable | None = None
        self._reopen_failures = 0
        self._retry_at = 0.0
        self._checkpoint_hooks: list[Callable[[], Awaitable[bool]]] = []
        # the page filter's last verdicts by URL, for page items that cannot carry one (an
        # Item class without the verdict field, or DENOISE_FIELDS switching it off): judged
        # again by the pipeline, such a page was counted twice, in the stats and the store
        self._verdicts: OrderedDict[str, PageVerdict] = OrderedDict()
        # With a DenoisePipeline in the project, StorePipeline stores only the articles it
        # made, not a spider's other items that happen to have a url and a text (a list of
        # its tags). The articles are remembered by (url, text), not by identity, so that a
        # pipeline between may copy them (``dict(item)``), and only while a StorePipeline
        # will take them: otherwise nothing is held on to. An article a pipeline between
        # drops is not forgotten (Scrapy's item_dropped also fires for drops after
        # StorePipeline, and forgetting then cost an identical copy in flight its row); it
        # ages out of the bounded memory instead.
        self._extracting = False
        self._storing = False
        self._extracted: OrderedDict[tuple[str, int], int] = OrderedDict()
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def for_crawler(cls, crawler: Crawler, *, use_core: bool = True) -> DenoiseRuntime:
        """The crawler's runtime, created (from its settings) on the first call.

        Components that call the core pass ``use_core=True``; the others (item filter, log
        line) only read the configuration, and a crawler without any core user never opens
        the database.
        """
        runtime: DenoiseRuntime | None = getattr(crawler, cls._ATTRIBUTE, None)
        if runtime is None:
            runtime = cls(crawler, DenoiseConfig.from_settings(crawler.settings))
            setattr(crawler, cls._ATTRIBUTE, runtime)
        runtime._used = runtime._used or use_core
        return runtime

    @property
    def worker(self) -> Worker | None:
        """The worker hosting the core (``None`` before the first call)."""
        return self._worker

    @property
    def closing(self) -> bool:
        """Is the spider being closed because the core is unavailable for good (or is the
        runtime closed)? Until then a :class:`DenoiseUnavailable` is a core being opened
        again, and a component should not lose its page for it."""
        return self._failed is not None or self._closed

    # -- running operations on the worker ---------------------------------------------

    def _submit(self, op: str, *args: Any, url: str | None = None) -> Future[Outcome]:
        if self._closed:
            raise RuntimeError("the denoise runtime is closed")
        return self._live_worker().submit(op, *args, url=url)

    def _live_worker(self) -> Worker:
        """The worker, started on first use and replaced when its process died (see the
        module doc). Its core is opened by its first call, so nothing runs before it,
        unless an attempt to open it again just failed: then not before ``_retry_at``
        (:meth:`open` waits for it)."""
        worker = self._worker
        if worker is None or not worker.alive:
            if worker is not None:
                self.crawler.stats.inc_value("denoise/errors/core_restarted")
                logger.error(
                    "the denoise core process died; starting a new one (learned state since "
                    "the last flush is lost, stored articles are not)",
                    extra={"spider": self.crawler.spider},
                )
                worker.shutdown()
            worker = self._worker = self._start_worker()
            self._opening = None
        if self._opening is None and time.monotonic() >= self._retry_at:
            self._opening = worker.submit("open", self.config.database_url, self.config.options())
        return worker

    def _start_worker(self) -> Worker:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a non-asyncio reactor: the worker reads on a thread
            loop = None
        try:
            return make_worker(self.config.core_worker, loop)
        except Exception as exc:  # e.g. no interpreter to start, out of processes
            raise DenoiseUnavailable(
                f"cannot start the denoise core ({self.config.core_worker}): "
                f"{type(exc).__name__}: {exc}",
                "denoise_setup_failed",
            ) from exc

    async def _run(self, op: str, *args: Any, url: str | None = None, wait: bool = True) -> Any:
        """Run ``op`` on the worker after the core is open; its CPU time goes to the stats.
        ``wait`` as in :meth:`open`."""
        await self.open(wait=wait)
        outcome = await self._wait(self._submit(op, *args, url=url))
        stats = self.crawler.stats
        stats.inc_value(f"denoise/core/cpu_us/{op}", round(outcome.cpu_seconds * 1e6))
        stats.inc_value(f"denoise/core/calls/{op}")
        return outcome.value

    @staticmethod
    async def _wait(future: Future[Outcome]) -> Outcome:
        """Await a worker future from whichever event loop Scrapy runs on."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a non-asyncio Twisted reactor drives this coroutine
            return await _twisted_wait(future)
        return await asyncio.wrap_future(future, loop=loop)

    async def open(self, *, wait: bool = True) -> None:
        """Open the database and build the core (once); raises :class:`DenoiseUnavailable`.

        A core being opened again after its process died (see the module doc) is waited
        for, retries included, unless ``wait`` is false: the page filter would rather let a
        page through unclassified than hold it up for half a minute.
        """
        while True:
            if self._failed is not None:
                raise self._failed
            if self._closed:
                raise RuntimeError("the denoise runtime is closed")
            self._live_worker()
            opening = self._opening
            if opening is None:  # between two attempts to open it again
                failure = self._reopen_failure
                assert failure is not None  # the reason of the pause
                if not wait:
                    raise DenoiseUnavailable(
                        f"the denoise core is being opened again: {failure}", failure.reason
                    )
                await _sleep(self._retry_at - time.monotonic())
                continue
            if opening.done() and opening.exception() is None:
                return  # every call after the first: no future to bridge
            try:
                await self._wait(opening)
            except (DenoiseUnavailable, CoreProcessDied) as exc:
                failure = self._open_failed(opening, exc)
                if not wait:
                    raise failure from exc
                continue
            if self._opening is opening:
                self._was_open = True
                self._reopen_failure, self._reopen_failures = None, 0
            return

    def _open_failed(self, opening: Future[Outcome], exc: BaseException) -> DenoiseUnavailable:
        """Opening the core failed: at the start, for good (the spider closes, see
        :meth:`spider_opened`); after its process died, it is tried again later, up to
        :data:`_REOPEN_ATTEMPTS` times in a row, and then the spider is closed. The failed
        attempt is forgotten: kept, it failed every later call for the rest of the crawl,
        which went on discarding every page (18 articles lost to a database out of reach
        for five seconds). Every caller that waited for the attempt gets here; the first
        one counts it. Returns the failure; raises it once the core is given up."""
        failure = (
            exc
            if isinstance(exc, DenoiseUnavailable)
            else DenoiseUnavailable(
                f"the denoise core could not be opened: {exc}", "denoise_setup_failed"
            )
        )
        if self._opening is opening:
            self._opening = None
            if not self._was_open:
                self._failed = failure  # the spider_opened handler closes the spider
            else:
                self._reopen_failed(failure)
        if self._failed is not None:
            raise self._failed from exc
        return failure

    def _reopen_failed(self, failure: DenoiseUnavailable) -> None:
        """Count a failed attempt to open the core again, and set when the next may start
        (each pause twice the last: a database restarting takes seconds, one gone for good
        should not hold the crawl's pages for long); the last attempt gives up."""
        self._reopen_failure = failure
        self._reopen_failures += 1
        self.crawler.stats.inc_value("denoise/errors/core_reopen")
        spider = self.crawler.spider
        if self._reopen_failures >= _REOPEN_ATTEMPTS:
            self._failed = failure
            self._give_up(failure)
            return
        delay = _REOPEN_DELAY * 2 ** (self._reopen_failures - 1)
        self._retry_at = time.monotonic() + delay
        logger.warning(
            "%s; trying again in %g s (attempt %d of %d)",
            failure,
            delay,
            self._reopen_failures + 1,
            _REOPEN_ATTEMPTS,
            extra={"spider": spider},
        )

    def _give_up(self, failure: DenoiseUnavailable) -> None:
        """Close the spider with ``failure``'s reason, as :meth:`spider_opened` does."""
        self._count_unavailable(failure, self.crawler.spider)
        close_spider(self.crawler, failure.reason)

    def _count_unavailable(self, exc: DenoiseUnavailable, spider: Spider | None) -> None:
        self.crawler.stats.inc_value(f"denoise/errors/{exc.reason.removeprefix('denoise_')}")
        logger.error("%s; closing the spider", exc, extra={"spider": spider})

    # -- the core calls the components make -------------------------------------------

    def _cut(self, body: bytes | str) -> bytes | str:
        """The body as far as loading reads it, plus one byte, so that loading still
        warns ``truncated``: a 943 MB decompressed body went whole through the pipe to
        the core's process (1.8 GB there) to have its first 5 MB read."""
        limit = self.config.max_bytes + 1
        return body[:limit] if len(body) > limit else body

    async def classify(
        self, body: bytes, url: str, headers: dict[str, str] | None
    ) -> tuple[PageVerdict, tuple[str, ...], bool]:
        """The page filter's verdict, the page's load warnings (``binary``, ``empty``,
        ``truncated``, ...): noise pages never reach extraction, so the middleware is the
        only component that can count theirs; and whether the URL's stored article was
        deleted (``DENOISE_STORE_WITHDRAW``)."""
        config = self.config
        verdict, warnings, withdrawn = await self._run(
            "classify",
            self._cut(body),
            url,
            headers,
            config.extract_enabled,
            config.store_enabled and config.store_withdraw,
            url=url,
            wait=False,  # the filter lets a page through rather than hold it up
        )
        return verdict, warnings, withdrawn

    async def extract(
        self,
        body: bytes | str,
        url: str,
        headers: dict[str, str] | None,
        verdict: PageVerdict | None,
    ) -> Article:
        # Without a verdict the extraction judges the page, hence reads its history.
        article, relearn_skipped = await self._run(
            "extract", self._cut(body), url, headers, verdict, url=url if verdict is None else None
        )
        if relearn_skipped:
            self.crawler.stats.inc_value("denoise/distributed/relearn_skipped")
        return article

    def remember_verdict(self, url: str, verdict: PageVerdict) -> None:
        """Keep the page filter's verdict of ``url`` for :meth:`recall_verdict` (the last
        :data:`_VERDICT_MEMORY` pages: an item follows its response within moments)."""
        self._verdicts[url] = verdict
        self._verdicts.move_to_end(url)
        if len(self._verdicts) > _VERDICT_MEMORY:
            self._verdicts.popitem(last=False)

    def recall_verdict(self, url: str) -> PageVerdict | None:
        """The verdict the page filter gave ``url``, once; None when it judged no such page
        lately."""
        return self._verdicts.pop(url, None)

    def register_extractor(self) -> None:
        """A DenoisePipeline is built: from now on StorePipeline stores only its articles."""
        self._extracting = True

    def register_store(self) -> None:
        """A StorePipeline is built: :meth:`note_extracted` remembers articles for it."""
        self._storing = True

    @property
    def extracting(self) -> bool:
        """Does a DenoisePipeline make this crawl's articles?"""
        return self._extracting

    @property
    def storing(self) -> bool:
        """Does a StorePipeline store this crawl's articles?"""
        return self._storing

    def note_extracted(self, item: Any) -> None:
        """``item`` is an article DenoisePipeline made (see :meth:`take_extracted`)."""
        if not self._storing:
            return
        key = self._item_key(item)
        self._extracted[key] = self._extracted.get(key, 0) + 1
        self._extracted.move_to_end(key)
        if len(self._extracted) > _EXTRACTED_MEMORY:
            self._extracted.popitem(last=False)

    def take_extracted(self, item: Any) -> bool:
        """Was ``item`` (or a copy with the same url and text) made by DenoisePipeline?
        Asked once per item, by StorePipeline."""
        key = self._item_key(item)
        count = self._extracted.get(key, 0)
        if count <= 1:
            self._extracted.pop(key, None)
        else:
            self._extracted[key] = count - 1
        return count > 0

    def _item_key(self, item: Any) -> tuple[str, int]:
        adapter = ItemAdapter(item)
        fields = self.config.fields
        url = adapter.get(fields["url"]) if "url" in fields else None
        text = adapter.get(fields["text"]) if "text" in fields else None
        return str(url or ""), hash(text if isinstance(text, str) else repr(text))

    async def write_articles(self, records: Sequence[ArticleRecord]) -> UpsertCounts:
        """Upsert articles into the database, each under its site's key; with
        ``DENOISE_DROP_DUPLICATES`` a copy of an article already stored is skipped."""
        counts: UpsertCounts = await self._run(
            "write_articles", list(records), self.config.drop_duplicates
        )
        return counts

    async def revise_stored_texts(self) -> list[str]:
        """Extract the first article pages of each site again with what the whole crawl
        learned (``DENOISE_REVISIT_FIRST``), take the lines learned as noise after them out
        of the other articles (``DENOISE_REFILTER_LINES``), and rewrite the stored text
        they changed; the URLs of the rows rewritten. Nothing when the core was never
        opened, or given up."""
        if not await self._still_open():
            return []
        revised: list[str] = await self._run("revise_stored_texts", self.config.min_text_chars)
        return revised

    async def withdraw_noise_pages(self) -> list[tuple[str, str]]:
        """Delete the stored articles of the pages this crawl let through that the evidence
        of every page the core classified and extracted judges noise pages by now
        (:meth:`~scrapy_denoise.Denoiser.noise_pages_passed`); (URL, reason) of the rows
        that went. Nothing when the core was never opened, or given up: it holds
        no links then."""
        if not await self._still_open():
            return []
        withdrawn: list[tuple[str, str]] = await self._run("withdraw_noise_pages")
        return withdrawn

    async def _still_open(self) -> bool:
        """Is the core open for a call at the crawl's end: opened (once its opening is
        done), and not given up or closed?"""
        if self._opening is None or self._closed:
            return False
        try:
            await self._wait(self._opening)
        except (DenoiseUnavailable, CoreProcessDied):
            return False
        return True

    # -- distributed crawls ----------------------------------------------------------

    def add_checkpoint_hook(self, hook: Callable[[], Awaitable[bool]]) -> None:
        """Register a component's "write what you hold" coroutine for :meth:`checkpoint`
        (the store pipeline's pending batch); it returns ``False`` when something could
        not be written."""
        self._checkpoint_hooks.append(hook)

    async def checkpoint(self) -> bool:
        """Make every result handed to the plugin so far durable: run the components'
        hooks (pending articles are written), then flush the learned site state.

        Returns ``False`` if anything could not be written; the caller must then not
        treat the pages as done. A crawler that never used the core has nothing to flush.
        """
        ok = True
        for hook in list(self._checkpoint_hooks):
            ok = await hook() and ok
        if self._opening is None or self._closed:
            return ok
        try:
            await self._run("flush")
        except Exception as exc:
            self.crawler.stats.inc_value("denoise/errors/checkpoint")
            logger.warning(
                "could not flush learned state at a checkpoint: %s: %s",
                type(exc).__name__,
                first_line(exc),
                extra={"spider": self.crawler.spider},
            )
            return False
        return ok

    def note_redelivered(self, url: str) -> None:
        """``url`` is being fetched again because the crawler that took it died.

        Its page is learned only if no committed fingerprint shows that the dead crawler's
        learning of it reached the database: otherwise RC and the line counts would count
        the page twice. Sent to the worker ahead of the page itself (calls run in order);
        not once the core is given up, when it would start a core process for nothing.
        """
        if self.closing:
            return
        self._submit("note_redelivered", url)

    # -- lifecycle --------------------------------------------------------------------

    async def spider_opened(self, spider: Spider) -> None:
        if not self._used:
            return
        try:
            await self.open()
        except DenoiseUnavailable as exc:
            self._count_unavailable(exc, spider)
            if not hasattr(ExecutionEngine, "close_spider_async"):  # pragma: no cover
                # Scrapy < 2.14 ignores CloseSpider from spider_opened handlers, and logs it
                # as "Error caught on signal handler" next to the close asked for here
                _close_later(self.crawler, spider, exc.reason)
                return
            raise CloseSpider(exc.reason) from exc

    async def spider_closed(self, spider: Spider) -> None:
        if self._closed or self._opening is None:
            self._closed = True
            if self._worker is not None:
                self._worker.shutdown()
            return
        try:
            try:
                await self._wait(self._opening)
            except (DenoiseUnavailable, CoreProcessDied):
                return  # nothing was opened, nothing to write
            await self._run("close")
        except Exception:
            self.crawler.stats.inc_value("denoise/errors/close")
            logger.exception(
                "error while writing learned state to the denoise database",
                extra={"spider": spider},
            )
        finally:
            self._closed = True
            if self._worker is not None:
                self._worker.shutdown()  # the child exits at once: its last call is done


async def _sleep(seconds: float) -> None:
    """Sleep on whichever event loop Scrapy runs on."""
    seconds = max(0.0, seconds)
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # a non-asyncio Twisted reactor drives this coroutine
        from twisted.internet import reactor, task

        await task.deferLater(reactor, seconds)
        return
    await asyncio.sleep(seconds)


def close_spider(crawler: Crawler, reason: str) -> None:
    """Ask the engine to close the crawler's spider, if it is crawling; not awaited, since
    closing waits for the calls and items in flight, the caller's own included."""
    try:
        engine = crawler.engine
    except RuntimeError:  # not crawling (Scrapy >= 2.14 raises instead of None)
        return
    if engine is None or engine.spider is None:
        return
    close = getattr(engine, "close_spider_async", None)
    if close is not None:
        deferred_from_coro(close(reason=reason))
    else:  # Scrapy < 2.14
        engine.close_spider(engine.spider, reason)


def _close_later(crawler: Crawler, spider: Spider, reason: str) -> None:
    """Scrapy < 2.14 ignores ``CloseSpider`` from ``spider_opened`` handlers."""
    from twisted.internet import reactor, task

    engine = crawler.engine
    if engine is not None:
        task.deferLater(reactor, 0, engine.close_spider, spider, reason)


async def _twisted_wait(future: Future[Outcome]) -> Outcome:
    from twisted.internet import reactor
    from twisted.internet.defer import Deferred

    deferred: Deferred[Outcome] = Deferred()

    def fire(done: Future[Outcome]) -> None:
        exc = done.exception()
        if exc is not None:
            deferred.errback(exc)
        else:
            deferred.callback(done.result())

    def on_done(done: Future[Outcome]) -> None:
        reactor.callFromThread(fire, done)

    future.add_done_callback(on_done)
    return await deferred
