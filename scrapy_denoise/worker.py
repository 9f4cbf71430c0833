"""The core as a service: one :class:`~scrapy_denoise.Denoiser` and its store behind a few
operations, run in a worker thread or in a child process.

A crawl hands the core every page twice (the page filter's verdict, then the extraction)
and its articles in batches. The core is CPU-bound Python and not thread-safe, so one
worker runs all of a crawler's calls in order (:class:`CoreHost` needs no locks and the
database sees the order Scrapy issued them in). Where that worker runs is the choice here:

* :class:`ProcessWorker` (the default of the Scrapy integration, ``DENOISE_CORE_WORKER =
  "process"``) runs it in a child process. Python threads share one interpreter lock, so a
  worker *thread* takes its CPU from Scrapy's own: on a crawl that is CPU-bound (pages
  served faster than they are parsed) the two added up, and the plugin halved throughput
  (``scrapy-denoise bench crawl``, BENCHMARKS.md). A process runs on another core.
  The child owns the database connection too, so nothing about the store changes; a child
  that dies (a crash in a C library on a hostile page, the OOM killer) fails the calls it
  held and is replaced, as a crashed crawler would be: learned state since its last flush
  is lost, and nothing already in the database.
* :class:`ThreadWorker` (``DENOISE_CORE_WORKER = "thread"``) runs it on one thread of the
  calling process: no second interpreter, and the core's objects stay inspectable, which
  tests and debugging want.

Both run the same :class:`CoreHost` operations; each call's result comes back with the
worker's CPU seconds for it, which the integration adds to the crawl stats.

Histories of pages are read in batches (:meth:`CoreHost.prefetch`): before each page, the
worker reads the histories of every page already waiting for it, in one query, so that a
busy worker pays one query per batch rather than one per page.

This module imports no Scrapy: any host application (another crawler, a queue consumer)
can drive the core through it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import itertools
import logging
import os
import pickle
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, Protocol, TypeVar
from urllib.parse import urldefrag

if TYPE_CHECKING:
    from .article import Article
    from .denoiser import Denoiser
    from .document import Document
    from .options import DenoiseOptions
    from .page.verdict import PageVerdict
    from .store import ArticleRecord, Store, UpsertCounts

__all__ = [
    "WORKER_KINDS",
    "CoreHost",
    "CoreProcessDied",
    "DenoiseUnavailable",
    "Outcome",
    "ProcessWorker",
    "ThreadWorker",
    "Worker",
    "first_line",
    "make_worker",
]

logger = logging.getLogger(__name__)

#: Article-page parses kept between the page filter and the extraction. Items reach the
#: pipeline right after their response passed the spider, so a few suffice.
_DOCUMENT_CACHE_SIZE = 32
#: Article identities kept between the extraction and the write of the article (the store
#: pipeline writes in batches of ``DENOISE_STORE_BATCH``, 50 by default, and keeps a
#: failed batch for the next write).
_IDENTITY_CACHE_SIZE = 20_000
#: URLs whose history is read in one query at most (the store reads 500 per statement).
_PREFETCH_MAX = 500
#: stored articles read back, filtered again and written per batch at the crawl's end
#: (:meth:`CoreHost.revise_stored_texts`)
_REVISE_BATCH = 500
#: operations that judge a page, whose URL's history the worker prefetches
_PAGE_OPS = frozenset({"classify", "extract"})
#: the noise verdicts that delete a URL's stored article (``DENOISE_STORE_WITHDRAW``): a site
#: page is judged ``navigation_page`` only once the site has shown that it dates its
#: articles, so a site's first crawl stores the site pages it met before that; a URL that
#: ``site_page`` names had its row stored by an earlier version. Not ``url_pattern``: its
#: patterns are the user's as much as ours, and a crawl with other patterns than the one
#: that stored a row (another spider on the same database) must not delete it. Not
#: ``changing_content``: an article edited on two re-crawls in a row is held back as one
#: while it keeps changing, and is an article again on the next visit. Nor the verdicts
#: on the page's own content: a page that has lost its text (an unpublished story, a
#: "not found" served with status 200) must not take the stored article with it.
WITHDRAWN_REASONS = frozenset({"navigation_page", "site_page"})
#: the values of ``DENOISE_CORE_WORKER``
WORKER_KINDS = ("process", "thread")
#: how long a closing child may take to exit after its last operation
_EXIT_TIMEOUT = 10.0
#: the exit status of a child whose parent died without stopping it
_ORPHANED_EXIT = 3


class DenoiseUnavailable(RuntimeError):
    """The core could not start; ``reason`` becomes the spider's close reason."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:  # crosses the process boundary intact
        return (type(self), (str(self), self.reason))


class CoreProcessDied(RuntimeError):
    """The core's child process exited while it held this call."""


_K = TypeVar("_K")
_V = TypeVar("_V")


def _body_key(url: str, body: bytes | str) -> tuple[str, bytes]:
    data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    return url, hashlib.blake2b(data, digest_size=16).digest()


def _remember(cache: OrderedDict[_K, _V], key: _K, value: _V, limit: int) -> None:
    """Put ``key`` in ``cache`` as its newest entry, dropping the oldest past ``limit``."""
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > limit:
        cache.popitem(last=False)


def first_line(exc: BaseException) -> str:
    """The first line of an error's message: a log line or a drop reason stays one line."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else ""


class CoreHost:
    """The operations a crawl runs on the core, on whichever worker hosts it.

    Every method runs on the worker only. The page filter parses a page to judge it and
    the extraction needs the same parse, so the last few article-page parses are kept
    (keyed by URL and body digest) and a page is parsed once between the two.
    """

    def __init__(self) -> None:
        self.denoiser: Denoiser | None = None
        self.store: Store | None = None
        self._documents: OrderedDict[tuple[str, bytes], Document] = OrderedDict()
        # URL -> Article.identity of the pages extracted here: items carry the article's
        # fields, not its identity, and the store needs it to keep one row per article
        self._identities: OrderedDict[str, str] = OrderedDict()
        # URL -> Article.replaces of those pages, for the same reason: the row it moves
        self._replaces: OrderedDict[str, str] = OrderedDict()
        # URLs of redelivered requests (a killed crawler had taken them): learned again only
        # when no committed fingerprint shows the dead crawler's learning reached the store;
        # each is forgotten at its page's last use (see :meth:`classify`)
        self._redelivered: set[str] = set()

    def open(self, database_url: str | None, options: DenoiseOptions) -> None:
        from .denoiser import Denoiser
        from .store import Store, StoreError
        from .store.errors import redact_url

        store: Store | None = None
        if database_url:
            try:
                store = Store.open(database_url)
            except StoreError as exc:  # its message names the database, password hidden
                raise DenoiseUnavailable(
                    f"cannot open the denoise database: {exc}", "denoise_database_unavailable"
                ) from None
            except Exception as exc:
                raise DenoiseUnavailable(
                    f"cannot open the denoise database {redact_url(database_url)}: "
                    f"{type(exc).__name__}: {first_line(exc)}",
                    "denoise_database_unavailable",
                ) from None
        try:
            denoiser = Denoiser(store=store, options=options)
            denoiser.preload()
        except Exception as exc:
            if store is not None:
                store.close()
            raise DenoiseUnavailable(
                f"cannot set up the denoiser: {type(exc).__name__}: {exc}",
                "denoise_setup_failed",
            ) from None
        self.store = store
        self.denoiser = denoiser

    def _core(self) -> Denoiser:
        if self.denoiser is None:
            raise RuntimeError("the denoise core is not open")
        return self.denoiser

    def prefetch(self, urls: Sequence[str]) -> None:
        """Read the visit histories of ``urls`` in one query (pages about to be judged)."""
        learner = self.denoiser.learner if self.denoiser is not None else None
        if learner is not None and urls:
            learner.prefetch_page_histories(u for u in urls if u)

    def note_redelivered(self, url: str) -> None:
        # The request's URL: Scrapy downloads it without its #fragment, and the page comes
        # back under that URL, which is the one looked up (a link to "post/#comments",
        # redelivered, was learned again under "post/": visits 2 in page_fingerprints).
        self._redelivered.add(urldefrag(url)[0])

    def _already_learned(self, url: str, *, done: bool = True) -> bool:
        """A redelivered page whose fingerprint is already in the database (noise pages are
        fingerprinted when classified, articles when extracted). ``done`` forgets the URL:
        its last use, the extraction."""
        url = urldefrag(url)[0]
        if url not in self._redelivered:
            return False
        if done:
            self._redelivered.discard(url)
        learner = self._core().learner
        return learner is not None and learner.page_history(url) is not None

    def classify(
        self,
        body: bytes,
        url: str,
        headers: dict[str, str] | None,
        keep_document: bool,
        withdraw: bool = False,
    ) -> tuple[PageVerdict, tuple[str, ...], bool]:
        """The page filter's verdict, the page's load warnings (``binary``, ``empty``,
        ``truncated``, ...) and whether a stored article of the URL was deleted;
        ``keep_document`` keeps an article page's parse for its extraction, ``withdraw``
        deletes the stored article of a page now judged a site page
        (``DENOISE_STORE_WITHDRAW``)."""
        denoiser = self._core()
        doc = denoiser.load(body, url, headers)
        # a redelivered page whose fingerprint is committed was judged and counted already
        record = not (self._redelivered and self._already_learned(url, done=False))
        verdict = denoiser.classify_document(doc, record=record, count=record)
        if self._redelivered and (verdict.is_noise or not keep_document):
            # No extraction follows (a noise page, or extraction off), so this was the
            # redelivered page's last use: kept, the URL made a later ordinary fetch of the
            # same page skip its learning too.
            self._redelivered.discard(urldefrag(url)[0])
        if keep_document and not verdict.is_noise:
            _remember(self._documents, _body_key(url, body), doc, _DOCUMENT_CACHE_SIZE)
        withdrawn = False
        if withdraw and self.store is not None and verdict.reason in WITHDRAWN_REASONS:
            withdrawn = self._withdraw(self.store, url)
        return verdict, doc.warnings, withdrawn

    @staticmethod
    def _withdraw(store: Store, url: str) -> bool:
        """Delete ``url``'s stored article; a database that fails here must not cost the
        verdict (the page would pass the filter unclassified): the row waits for the next
        crawl."""
        from .store import StoreError

        try:
            return store.withdraw_article(url)
        except StoreError as exc:
            logger.warning("could not delete the stored article %s: %s", url, exc)
            return False

    def extract(
        self,
        body: bytes | str,
        url: str,
        headers: dict[str, str] | None,
        verdict: PageVerdict | None,
    ) -> tuple[Article, bool]:
        """The article, and whether its learning was skipped (a redelivered page already
        learned by the crawler that died with it)."""
        denoiser = self._core()
        doc = self._documents.pop(_body_key(url, body), None)
        if doc is None:
            doc = denoiser.load(body, url, headers)
        skip = bool(self._redelivered) and self._already_learned(url)
        article = denoiser.extract_document(
            doc, verdict=verdict, learn=not skip, body=body, headers=headers
        )
        if article.identity is not None:
            _remember(self._identities, url, article.identity, _IDENTITY_CACHE_SIZE)
        if article.replaces is not None:
            _remember(self._replaces, url, article.replaces, _IDENTITY_CACHE_SIZE)
        return article, skip

    def write_articles(self, records: Sequence[ArticleRecord], dedupe: bool = True) -> UpsertCounts:
        """Upsert articles, each under its site key and, with ``dedupe`` and when this core
        extracted it, with its identity (the store then skips a copy of an article it has)
        and the URL of the row it takes over (``Article.replaces``)."""
        from dataclasses import replace

        from .learning import site_key_for

        prefixes = self._core().options.site_prefixes  # the learner's keys, learner or not
        if self.store is None:
            raise RuntimeError("no denoise database")
        return self.store.upsert_articles(
            [
                replace(
                    r,
                    site=site_key_for(r.url, prefixes),
                    identity=(r.identity or self._identities.get(r.url)) if dedupe else None,
                    replaces=(r.replaces or self._replaces.pop(r.url, None)) if dedupe else None,
                )
                for r in records
            ]
        )

    def revise_stored_texts(self, min_text_chars: int) -> list[str]:
        """Extract the first pages of each site again (:meth:`~.denoiser.Denoiser.revisit`),
        take out of the other articles' text the lines their site learned as noise after them
        (:meth:`~.denoiser.Denoiser.outdated`, read back from the rows), and rewrite the
        stored text of those that changed; the URLs of the rows rewritten. A text now under
        ``min_text_chars`` is not written: its row keeps the first one."""
        from .article import short_text, too_short

        denoiser = self._core()
        articles = denoiser.revisit()
        store = self.store
        if store is None:
            return []
        keep_headline = denoiser.options.keep_headline
        revised = store.revise_texts(
            [
                (a.url, a.text)
                for a in articles
                if not too_short(a, min_text_chars, keep_headline=keep_headline)
            ]
        )
        outdated = denoiser.outdated()
        # by batches: a broad crawl's rows to filter again may not fit in memory at once
        for start in range(0, len(outdated), _REVISE_BATCH):
            revisions = []
            batch = outdated[start : start + _REVISE_BATCH]
            for url, (title, text) in store.article_texts(batch).items():
                cleaned = denoiser.refilter(url, text)
                if cleaned != text and not short_text(
                    cleaned, title, min_text_chars, keep_headline=keep_headline
                ):
                    revisions.append((url, cleaned))
            revised += store.revise_texts(revisions)
        return revised

    def withdraw_noise_pages(self) -> list[tuple[str, str]]:
        """Delete the stored articles of the pages the crawl let through that the whole
        crawl's evidence judges noise pages by now
        (:meth:`~.denoiser.Denoiser.noise_pages_passed`); (URL, reason) of the rows that
        went."""
        from .store import StoreError

        store = self.store
        if store is None:
            return []
        withdrawn = []
        for url, reason in self._core().noise_pages_passed():
            try:
                if store.withdraw_article(url):
                    withdrawn.append((url, reason))
            except StoreError as exc:  # a failing database: once, not a warning per page
                logger.warning("could not delete the stored noise pages: %s", exc)
                break
        return withdrawn

    def flush(self) -> None:
        if self.denoiser is not None:
            self.denoiser.flush()

    def close(self) -> None:
        self._documents.clear()
        try:
            if self.denoiser is not None:
                self.denoiser.close()
        finally:
            self.denoiser = None
            if self.store is not None:
                store, self.store = self.store, None
                store.close()

    def identity(self) -> tuple[int, int]:
        """Process and thread the worker runs in (for tests and diagnostics)."""
        return os.getpid(), threading.get_ident()


@dataclass(frozen=True, slots=True)
class Outcome:
    """An operation's result and the worker's CPU seconds spent on it."""

    value: Any
    cpu_seconds: float


class Worker(Protocol):
    """Runs :class:`CoreHost` operations one at a time, in submission order."""

    def submit(self, op: str, *args: Any, url: str | None = None) -> Future[Outcome]:
        """Queue ``op(*args)``; ``url`` is the page it judges, for the history prefetch."""
        ...

    def shutdown(self) -> None: ...

    @property
    def alive(self) -> bool: ...


def _run(host: CoreHost, op: str, args: tuple[Any, ...], urls: Sequence[str]) -> Outcome:
    if urls:
        host.prefetch(urls)
    cpu = time.thread_time()
    value = getattr(host, op)(*args)
    return Outcome(value, time.thread_time() - cpu)


class ThreadWorker:
    """The core on one thread of this process (``DENOISE_CORE_WORKER = "thread"``)."""

    def __init__(self) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.host = CoreHost()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="denoise")
        # URLs of pages submitted whose history is not read yet: appended by the caller,
        # drained on the worker (deque operations are atomic)
        self._waiting: deque[str] = deque()

    @property
    def alive(self) -> bool:
        return True

    def submit(self, op: str, *args: Any, url: str | None = None) -> Future[Outcome]:
        if url is not None:
            self._waiting.append(url)
        return self._executor.submit(self._call, op, args)

    def _call(self, op: str, args: tuple[Any, ...]) -> Outcome:
        urls: list[str] = []
        if op in _PAGE_OPS:
            waiting = self._waiting
            while waiting and len(urls) < _PREFETCH_MAX:
                urls.append(waiting.popleft())
        return _run(self.host, op, args, urls)

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False)


# -- the child process -------------------------------------------------------------------

#: a message to the child: (call id, operation, arguments, URL of the page or None); the
#: arguments are an :class:`_Unreadable` when the child could not unpickle them
_Call = tuple[int, str, "tuple[Any, ...] | _Unreadable", "str | None"]
#: the exit status of a child that could not read a message's envelope (it cannot tell
#: which call to fail, so it exits, and the parent fails every pending call)
_UNREADABLE_EXIT = 4


@dataclass(frozen=True, slots=True)
class _Unreadable:
    """A call's arguments the child could not unpickle, and why."""

    error: BaseException


def _pack(call_id: int, op: str, args: tuple[Any, ...], url: str | None) -> memoryview:
    """A call as the child reads it: its envelope ``(call id, operation, URL)`` and its
    arguments, two pickles in one message. Arguments that do not unpickle in the child (an
    instance of a class the crawl script defines in its ``__main__``, a module only the
    parent has) then fail their own call: unpickled whole, the message killed the child's
    reader thread, and with it every later call and the crawl's close, which waited for
    ever."""
    buffer = io.BytesIO()
    pickle.dump((call_id, op, url), buffer, pickle.HIGHEST_PROTOCOL)
    pickle.dump(args, buffer, pickle.HIGHEST_PROTOCOL)
    return buffer.getbuffer()


def _unpack(data: bytes) -> _Call | None:
    """A message of :func:`_pack` (``None``: the parent says stop); raises only when the
    envelope itself does not unpickle."""
    stream = io.BytesIO(data)
    envelope = pickle.load(stream)
    if envelope is None:
        return None
    call_id, op, url = envelope
    args: tuple[Any, ...] | _Unreadable
    try:
        args = pickle.load(stream)
    except Exception as exc:
        args = _Unreadable(exc)
    return call_id, op, args, url


class ProcessWorker:
    """The core in a child process (``DENOISE_CORE_WORKER = "process"``, see the module doc).

    Calls are written to the socket by the caller itself (the reactor thread): the child
    has a thread that only reads, so the socket's buffer is drained while a page is being
    processed and a send waits on the kernel, not on the core. A sender thread did the
    writing at first; handing every message to it and taking the interpreter lock back
    cost Scrapy's thread enough that loopback throughput went from 0.77x and 0.74x of plain
    Scrapy (two runs of four crawls) to 0.80x and 0.79x without it. Answers (results and
    the child's log records, re-emitted through this process's logging) are read by the
    caller's event loop when one is given (the crawl's asyncio reactor), whenever the socket
    is readable, so no thread stands between Scrapy and its core; without a loop, by a
    daemon receiver thread.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        # A fresh interpreter, not multiprocessing's fork (the crawler runs threads, which a
        # fork copies mid-flight) nor its spawn (which re-imports the parent's main script:
        # a crawl started from a script without a ``__main__`` guard would start again).
        if os.name != "posix":
            raise OSError("the core's child process needs a POSIX system; use the thread worker")
        parent, child = socket.socketpair()
        level = logging.getLogger("scrapy_denoise").getEffectiveLevel()
        # the parent's import path, so the child finds the same scrapy_denoise (and any
        # user module a method parameter names) however the parent found it
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", __name__, str(child.fileno()), str(level)],
                pass_fds=(child.fileno(),),
                stdin=subprocess.DEVNULL,
                env=env,
            )
        except BaseException:
            parent.close()
            raise
        finally:
            child.close()
        self._conn = Connection(parent.detach())
        self._ids = itertools.count()
        self._futures: dict[int, Future[Outcome]] = {}
        self._lock = threading.Lock()
        self._dead = False
        self._send_lock = threading.Lock()
        self._loop = loop
        self._fd = self._conn.fileno()
        self._receiver: threading.Thread | None = None
        if loop is not None:
            loop.add_reader(self._fd, self._on_readable)
        else:
            self._read_on_thread()

    def _read_on_thread(self) -> None:
        self._loop = None
        self._receiver = threading.Thread(
            target=self._receive_loop, name="denoise-receive", daemon=True
        )
        self._receiver.start()

    @property
    def alive(self) -> bool:
        return not self._dead

    @property
    def pid(self) -> int:
        return self._process.pid

    def submit(self, op: str, *args: Any, url: str | None = None) -> Future[Outcome]:
        if self._loop is not None and self._loop.is_closed():
            self._read_on_thread()  # the loop that read the answers is gone (asyncio.run ended)
        future: Future[Outcome] = Future()
        with self._lock:
            if self._dead:
                future.set_exception(CoreProcessDied(self._death()))
                return future
            call_id = next(self._ids)
            self._futures[call_id] = future
        try:
            data = _pack(call_id, op, args, url)
        except Exception as exc:
            self._fail(call_id, exc)
            return future
        # a closed socket means a dead child: the receiver fails what is pending
        with self._send_lock, contextlib.suppress(OSError, ValueError):
            self._conn.send_bytes(data)
        return future

    def _receive_loop(self) -> None:
        """The receiver thread (no event loop given): answers until the child is gone."""
        while True:
            try:
                message = self._conn.recv_bytes()
            except (EOFError, OSError):
                break
            self._handle(message)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=_EXIT_TIMEOUT)
        self._gone()

    def _on_readable(self) -> None:
        """The event loop's reader (an event loop given): every answer already there.

        A message arrives in one or two writes of the child, so reading one that has begun
        to arrive waits microseconds at most.
        """
        conn = self._conn
        try:
            while conn.poll(0):
                self._handle(conn.recv_bytes())
        except (EOFError, OSError):
            if self._loop is not None and not self._loop.is_closed():
                self._loop.remove_reader(self._fd)
            self._gone()

    def _handle(self, data: bytes) -> None:
        message = pickle.loads(data)
        if message[0] == "log":
            _emit(message[1])
            return
        _, call_id, ok, payload, cpu = message
        with self._lock:
            future = self._futures.pop(call_id, None)
        if future is None:
            return
        # The answer is unpickled apart from its envelope, so that one unreadable answer
        # fails its own call instead of the receiver.
        try:
            value = pickle.loads(payload)
        except Exception as exc:
            future.set_exception(RuntimeError(f"unreadable answer from the denoise core: {exc!r}"))
            return
        if ok:
            future.set_result(Outcome(value, cpu))
        else:
            future.set_exception(value)

    def _gone(self) -> None:
        """The child is gone: every pending call fails."""
        with self._lock:
            self._dead = True
            pending, self._futures = self._futures, {}
        if pending:
            error = CoreProcessDied(self._death())
            for future in pending.values():
                future.set_exception(error)

    def _fail(self, call_id: int, exc: BaseException) -> None:
        with self._lock:
            future = self._futures.pop(call_id, None)
        if future is not None:
            future.set_exception(exc)

    def _death(self) -> str:
        code = self._process.poll()
        how = "is gone" if code is None else f"exited with code {code}"
        return f"the denoise core process (pid {self._process.pid}) {how}"

    def shutdown(self) -> None:
        """Ask the child to exit once its queued calls are done (it does not flush: call
        ``close`` first), and wait for it; a child that does not exit is killed."""
        with self._send_lock, contextlib.suppress(OSError, ValueError):
            self._conn.send(None)
        try:
            self._process.wait(timeout=_EXIT_TIMEOUT)
        except subprocess.TimeoutExpired:
            logger.warning("the denoise core process did not exit; killing it")
            self._process.kill()  # it ignores SIGTERM (see _serve)
            self._process.wait(timeout=_EXIT_TIMEOUT)
        if self._receiver is not None:
            self._receiver.join(timeout=_EXIT_TIMEOUT)
        elif not self._conn.closed:
            self._on_readable()  # the last answers, then the end of the stream
        self._conn.close()


def _emit(record: dict[str, Any]) -> None:
    """Re-emit a child's log record through this process's handlers."""
    target = logging.getLogger(record["name"])
    if target.isEnabledFor(record["levelno"]):
        target.handle(logging.makeLogRecord(record))


class _PipeLogHandler(logging.Handler):
    """Sends the child's log records to the parent, message already formatted (arguments
    of a record need not pickle)."""

    def __init__(self, send: Callable[[Any], None]) -> None:
        super().__init__()
        self._send = send

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
            if record.exc_info:
                message += "\n" + logging.Formatter().formatException(record.exc_info)
            self._send(
                (
                    "log",
                    {
                        "name": record.name,
                        "levelno": record.levelno,
                        "levelname": record.levelname,
                        "msg": message,
                        "pathname": record.pathname,
                        "lineno": record.lineno,
                        "funcName": record.funcName,
                        "created": record.created,
                        "process": record.process,
                        "processName": record.processName,
                    },
                )
            )
        except Exception:
            self.handleError(record)


def _serve(conn: Connection, level: int) -> None:
    """The child's main loop: run calls in order until the parent says stop or is gone."""
    # Ctrl-C reaches the whole process group, and a service manager's SIGTERM every
    # process of the service: the parent then shuts down gracefully and still needs its
    # core to write the last batch, so the child leaves both signals to the parent and
    # ends when told to or when the parent is gone.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    send_lock = threading.Lock()

    def send(message: Any) -> None:
        with send_lock:
            conn.send(message)

    root = logging.getLogger()
    root.handlers[:] = [_PipeLogHandler(send)]
    logging.getLogger("scrapy_denoise").setLevel(level)
    root.setLevel(min(level, logging.WARNING))

    # A reader thread drains the pipe while a page is being processed, so the parent's
    # sends never wait on it and the main loop can see every page already waiting.
    inbox: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()

    def read() -> None:
        while True:
            try:
                data = conn.recv_bytes()
            except (EOFError, OSError):
                # The parent is gone without saying so (killed). Exit at once, in the middle
                # of whatever call is running, as the core would have died with its parent:
                # finishing that call could commit learned state after the parent's
                # unfinished requests were handed to another crawler, whose "already
                # learned?" check would then miss it and count the page twice.
                os._exit(_ORPHANED_EXIT)
            try:
                message = _unpack(data)
            except Exception:
                # No call id to answer: a reader that stopped here left the main loop
                # waiting for ever and the parent seeing a live child. Exiting, the child
                # closes its socket, and the parent fails the pending calls and replaces it.
                logging.getLogger(__name__).exception(
                    "the denoise core process cannot read a message; exiting"
                )
                os._exit(_UNREADABLE_EXIT)
            inbox.put(message)
            if message is None:
                return

    def read_or_exit() -> None:
        """``read``, and the process's end if anything escapes it: the reader must never
        stop silently while the parent waits for answers."""
        try:
            read()
        except BaseException:
            with contextlib.suppress(BaseException):
                logging.getLogger(__name__).exception("the denoise core process's reader failed")
            os._exit(_UNREADABLE_EXIT)

    threading.Thread(target=read_or_exit, name="denoise-inbox", daemon=True).start()
    host = CoreHost()
    backlog: deque[_Call | None] = deque()
    # calls whose page history an earlier prefetch read
    prefetched: set[int] = set()
    while True:
        message = backlog.popleft() if backlog else inbox.get()
        if message is None:
            break  # the parent stopped us (it flushed first if it wanted to)
        with contextlib.suppress(queue.Empty):  # everything already waiting, to prefetch
            while True:
                backlog.append(inbox.get_nowait())
        call_id, op, args, _ = message
        urls: list[str] = []
        if op in _PAGE_OPS and call_id not in prefetched:
            for pending in (message, *backlog):
                if pending is None or len(urls) >= _PREFETCH_MAX:
                    break
                if (
                    pending[1] in _PAGE_OPS
                    and pending[3] is not None
                    and not isinstance(pending[2], _Unreadable)
                ):
                    urls.append(pending[3])
                    prefetched.add(pending[0])
        prefetched.discard(call_id)
        if isinstance(args, _Unreadable):
            error = RuntimeError(
                f"the denoise core process cannot read the arguments of {op!r}: "
                f"{type(args.error).__name__}: {args.error} (pass values of classes it can "
                "import, not ones defined in the crawl script's __main__)"
            )
            send(("result", call_id, False, _pickled_error(error), 0.0))
            continue
        try:
            outcome = _run(host, op, args, urls)
            payload = pickle.dumps(outcome.value, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:
            send(("result", call_id, False, _pickled_error(exc), 0.0))
            continue
        send(("result", call_id, True, payload, outcome.cpu_seconds))


def _pickled_error(exc: BaseException) -> bytes:
    """The exception, pickled; as a RuntimeError with its text when it does not pickle."""
    try:
        data = pickle.dumps(exc, pickle.HIGHEST_PROTOCOL)
        pickle.loads(data)
    except Exception:
        return pickle.dumps(RuntimeError(f"{type(exc).__name__}: {exc}"))
    return data


def main(argv: Sequence[str] | None = None) -> int:
    """The child's entry point: ``python -m scrapy_denoise.worker FD LOG_LEVEL``, with FD
    one end of a socket pair whose other end a :class:`ProcessWorker` holds."""
    fd, level = (sys.argv[1:] if argv is None else argv)[:2]
    _serve(Connection(int(fd)), int(level))
    return 0


def make_worker(kind: str, loop: asyncio.AbstractEventLoop | None = None) -> Worker:
    """``"process"`` or ``"thread"`` (see the module doc); a process worker given the
    caller's running event loop reads its answers on that loop (see :class:`ProcessWorker`)."""
    if kind == "process":
        return ProcessWorker(loop)
    if kind == "thread":
        return ThreadWorker()
    raise ValueError(f"worker must be 'process' or 'thread', not {kind!r}")


if __name__ == "__main__":
    # Run as a script this file is ``__main__``: serve from the imported module instead,
    # so that its classes (DenoiseUnavailable, ...) pickle under their real names.
    from scrapy_denoise import worker as _worker

    sys.exit(_worker.main())
