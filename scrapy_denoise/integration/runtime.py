"""One :class:`~scrapy_denoise.Denoiser` and one worker thread per crawler.

Every component (page filter, pipelines) talks to the core through this object, for two
reasons:

* The core is blocking: parsing and extraction are CPU work, and with a database the core
  reads and writes learned site state. None of that may run on the reactor thread, so every
  call goes to a worker thread and the component awaits the result.
* The core is not thread-safe (site learning keeps in-memory state and one database
  session). A *single* worker thread serialises all calls of a crawler, so the core needs
  no locks and database calls keep the order in which Scrapy issued them.

The database is opened when the spider opens rather than on the first page, so that a
database that is down stops the crawl before anything is downloaded (the spider closes with
reason ``denoise_database_unavailable`` and the log names the URL, password redacted)
instead of losing every article of the crawl one by one. Everything is flushed and closed
on ``spider_closed``, after the pipelines have written their last batch.

The page filter parses a page to classify it and the extraction pipeline needs the same
parse; the runtime keeps the last few article-page parses (keyed by URL and body digest) so
that a page is parsed once between the two, not twice.

Every page's verdict needs its URL's visit history, one database read per URL, and in a
crawl nearly every URL is new. The runtime therefore notes the URL of every page handed to
the worker and, when the worker starts on a page, reads the history of all pages waiting
for it in one query (:meth:`~scrapy_denoise.learning.SiteLearner.prefetch_page_histories`):
the reads are batched exactly when the worker is the crawl's bottleneck, and cost one query
per page, as before, when it is idle anyway.

For the distributed scheduler (:mod:`~scrapy_denoise.integration.distributed`) the runtime
also offers a *checkpoint*: make everything the plugin was handed so far durable (articles
written, learned state flushed), so that requests can be acknowledged to the shared queue
only once their results are in the database; and it remembers *redelivered* URLs (requests
a killed crawler had taken but not finished), whose learning is skipped when a committed
fingerprint shows it was already counted.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, ClassVar, ParamSpec, TypeVar
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.core.engine import ExecutionEngine
from scrapy.exceptions import CloseSpider

from ..store.errors import redact_url
from .settings import DenoiseConfig

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler

    from ..article import Article
    from ..denoiser import Denoiser
    from ..document import Document
    from ..page.verdict import PageVerdict
    from ..store import Store

__all__ = ["DenoiseRuntime", "DenoiseUnavailable", "default_site_key"]

logger = logging.getLogger(__name__)

_P = ParamSpec("_P")
_T = TypeVar("_T")

#: Article-page parses kept between the page filter and the extraction pipeline. Items
#: reach the pipeline right after their response passed the spider, so a few suffice.
_DOCUMENT_CACHE_SIZE = 32
#: URLs whose history is read in one query at most (the store reads 500 per statement).
_PREFETCH_MAX = 500


class DenoiseUnavailable(RuntimeError):
    """The runtime could not start; ``reason`` becomes the spider's close reason."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def default_site_key(url: str, prefixes: Sequence[str] = ()) -> str:
    """Scheme and host, or the longest configured site prefix the URL starts with; the
    site key when site learning is off (with it on, the learner's key is used)."""
    matches = [p for p in prefixes if url.startswith(p)]
    if matches:
        return max(matches, key=len)
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else ""


def _body_key(url: str, body: bytes | str) -> tuple[str, bytes]:
    data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    return url, hashlib.blake2b(data, digest_size=16).digest()


class DenoiseRuntime:
    """The per-crawler state shared by the integration components.

    Get it with :meth:`for_crawler`; components never construct it themselves, so that they
    share one instance (and one thread, one database connection) per crawler.
    """

    #: the crawler attribute holding its runtime: the runtime lives exactly as long as its
    #: crawler, which a registry keyed by crawler would get wrong (the runtime refers back)
    _ATTRIBUTE: ClassVar[str] = "_scrapy_denoise_runtime"

    def __init__(self, crawler: Crawler, config: DenoiseConfig) -> None:
        self.crawler = crawler
        self.config = config
        self._executor: ThreadPoolExecutor | None = None
        self._opening: Future[None] | None = None
        self._closed = False
        self._used = False
        # Only ever touched on the worker thread:
        self._denoiser: Denoiser | None = None
        self._store: Store | None = None
        self._documents: OrderedDict[tuple[str, bytes], Document] = OrderedDict()
        self._checkpoint_hooks: list[Callable[[], Awaitable[bool]]] = []
        # URLs of redelivered requests: added on the reactor thread before the page is
        # downloaded, read and removed on the worker thread when it is extracted
        self._redelivered: set[str] = set()
        # URLs of pages handed to the worker whose history is not read yet: appended on the
        # reactor thread, drained on the worker thread (deque operations are atomic)
        self._waiting: deque[str] = deque()
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

    # -- running things on the worker thread -----------------------------------------

    def _submit(self, fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> Future[_T]:
        if self._closed:
            raise RuntimeError("the denoise runtime is closed")
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="denoise")
        return self._executor.submit(fn, *args, **kwargs)

    @staticmethod
    async def _wait(future: Future[_T]) -> _T:
        """Await a worker-thread future from whichever event loop Scrapy runs on."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a non-asyncio Twisted reactor drives this coroutine
            return await _twisted_wait(future)
        return await asyncio.wrap_future(future, loop=loop)

    async def open(self) -> None:
        """Open the database and build the core (once); raises :class:`DenoiseUnavailable`."""
        if self._opening is None:
            self._opening = self._submit(self._open_sync)
        await self._wait(self._opening)

    async def call(self, fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """Run ``fn`` on the worker thread, after the core is open."""
        await self.open()
        return await self._wait(self._submit(fn, *args, **kwargs))

    @property
    def denoiser(self) -> Denoiser:
        """The core; only for functions passed to :meth:`call` (worker thread)."""
        if self._denoiser is None:
            raise RuntimeError("the denoise runtime is not open")
        return self._denoiser

    @property
    def store(self) -> Store | None:
        """The database, ``None`` without ``DENOISE_DATABASE_URL``; worker thread only."""
        return self._store

    def site_key(self, url: str) -> str:
        """The key articles of ``url`` are stored under; worker thread only."""
        learner = self.denoiser.learner
        if learner is not None:
            return learner.site_key(url)
        return default_site_key(url, self.config.site_prefixes)

    # -- the core calls the components make -------------------------------------------

    async def classify(
        self, body: bytes, url: str, headers: dict[str, str] | None
    ) -> tuple[PageVerdict, tuple[str, ...]]:
        """The page filter's verdict and the page's load warnings (``binary``, ``empty``,
        ``truncated``, ...): noise pages never reach extraction, so the middleware is the
        only component that can count theirs."""
        self._waiting.append(url)
        return await self.call(self._classify_sync, body, url, headers)

    async def extract(
        self,
        body: bytes | str,
        url: str,
        headers: dict[str, str] | None,
        verdict: PageVerdict | None,
    ) -> Article:
        if verdict is None:  # the verdict, hence the history read, is made by the extraction
            self._waiting.append(url)
        return await self.call(self._extract_sync, body, url, headers, verdict)

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
            await self.call(self._flush_sync)
        except Exception as exc:
            self.crawler.stats.inc_value("denoise/errors/checkpoint")
            logger.warning(
                "could not flush learned state at a checkpoint: %s: %s",
                type(exc).__name__,
                _first_line(exc),
                extra={"spider": self.crawler.spider},
            )
            return False
        return ok

    def note_redelivered(self, url: str) -> None:
        """``url`` is being fetched again because the crawler that took it died.

        Its page is learned only if no committed fingerprint shows that the dead crawler's
        learning of it reached the database: otherwise RC and the line counts would count
        the page twice. Reactor thread.
        """
        self._redelivered.add(url)

    def _flush_sync(self) -> None:
        if self._denoiser is not None:
            self._denoiser.flush()

    def _already_learned(self, url: str, *, done: bool = True) -> bool:
        """Worker thread: a redelivered page whose fingerprint is already in the database
        (noise pages are fingerprinted when classified, articles when extracted). ``done``
        forgets the URL: its last use, the extraction."""
        if url not in self._redelivered:
            return False
        if done:
            self._redelivered.discard(url)
        learner = self.denoiser.learner
        return learner is not None and learner.page_history(url) is not None

    def _prefetch_waiting(self) -> None:
        """Worker thread: read the histories of the pages waiting for the worker (see the
        module doc)."""
        waiting = self._waiting
        urls: list[str] = []
        while waiting and len(urls) < _PREFETCH_MAX:
            urls.append(waiting.popleft())
        learner = self.denoiser.learner
        if learner is not None and urls:
            learner.prefetch_page_histories(u for u in urls if u)

    def _classify_sync(
        self, body: bytes, url: str, headers: dict[str, str] | None
    ) -> tuple[PageVerdict, tuple[str, ...]]:
        self._prefetch_waiting()
        denoiser = self.denoiser
        doc = denoiser.load(body, url, headers)
        # a redelivered page whose fingerprint is committed was judged and counted already
        record = not (self._redelivered and self._already_learned(url, done=False))
        verdict = denoiser.classify_document(doc, record=record, count=record)
        if not verdict.is_noise and self.config.extract_enabled:
            documents = self._documents
            documents[_body_key(url, body)] = doc
            while len(documents) > _DOCUMENT_CACHE_SIZE:
                documents.popitem(last=False)
        return verdict, doc.warnings

    def _extract_sync(
        self,
        body: bytes | str,
        url: str,
        headers: dict[str, str] | None,
        verdict: PageVerdict | None,
    ) -> Article:
        if verdict is None:
            self._prefetch_waiting()
        denoiser = self.denoiser
        doc = self._documents.pop(_body_key(url, body), None)
        if doc is None:
            doc = denoiser.load(body, url, headers)
        if self._redelivered and self._already_learned(url):
            self.crawler.stats.inc_value("denoise/distributed/relearn_skipped")
            return denoiser.extract_document(doc, verdict=verdict, learn=False)
        return denoiser.extract_document(doc, verdict=verdict)

    # -- lifecycle --------------------------------------------------------------------

    def _open_sync(self) -> None:
        from ..denoiser import Denoiser

        url = self.config.database_url
        store: Store | None = None
        if url:
            from ..store import Store, StoreError

            try:
                store = Store.open(url)
            except StoreError as exc:  # its message names the database, password hidden
                raise DenoiseUnavailable(
                    f"cannot open the denoise database: {exc}", "denoise_database_unavailable"
                ) from exc
            except Exception as exc:
                raise DenoiseUnavailable(
                    f"cannot open the denoise database {redact_url(url)}: "
                    f"{type(exc).__name__}: {_first_line(exc)}",
                    "denoise_database_unavailable",
                ) from exc
        try:
            denoiser = Denoiser(store=store, options=self.config.options())
        except Exception as exc:
            if store is not None:
                store.close()
            raise DenoiseUnavailable(
                f"cannot set up the denoiser: {type(exc).__name__}: {exc}",
                "denoise_setup_failed",
            ) from exc
        self._store = store
        self._denoiser = denoiser

    def _close_sync(self) -> None:
        self._documents.clear()
        try:
            if self._denoiser is not None:
                self._denoiser.close()
        finally:
            self._denoiser = None
            if self._store is not None:
                store, self._store = self._store, None
                store.close()

    async def spider_opened(self, spider: Spider) -> None:
        if not self._used:
            return
        try:
            await self.open()
        except DenoiseUnavailable as exc:
            self.crawler.stats.inc_value(f"denoise/errors/{exc.reason.removeprefix('denoise_')}")
            logger.error("%s; closing the spider", exc, extra={"spider": spider})
            if not hasattr(ExecutionEngine, "close_spider_async"):  # pragma: no cover
                _close_later(self.crawler, spider, exc.reason)  # Scrapy < 2.14
            raise CloseSpider(exc.reason) from exc

    async def spider_closed(self, spider: Spider) -> None:
        if self._closed or self._opening is None:
            self._closed = True
            return
        try:
            try:
                await self._wait(self._opening)
            except DenoiseUnavailable:
                return  # nothing was opened, nothing to write
            await self._wait(self._submit(self._close_sync))
        except Exception:
            self.crawler.stats.inc_value("denoise/errors/close")
            logger.exception(
                "error while writing learned state to the denoise database",
                extra={"spider": spider},
            )
        finally:
            self._closed = True
            if self._executor is not None:
                self._executor.shutdown(wait=False)


def _close_later(crawler: Crawler, spider: Spider, reason: str) -> None:
    """Scrapy < 2.14 ignores ``CloseSpider`` from ``spider_opened`` handlers."""
    from twisted.internet import reactor, task

    engine = crawler.engine
    if engine is not None:
        task.deferLater(reactor, 0, engine.close_spider, spider, reason)


async def _twisted_wait(future: Future[_T]) -> _T:
    from twisted.internet import reactor
    from twisted.internet.defer import Deferred

    deferred: Deferred[_T] = Deferred()

    def fire(done: Future[_T]) -> None:
        exc = done.exception()
        if exc is not None:
            deferred.errback(exc)
        else:
            deferred.callback(done.result())

    def on_done(done: Future[_T]) -> None:
        reactor.callFromThread(fire, done)

    future.add_done_callback(on_done)
    return await deferred
