"""Distributed crawls: several crawler processes share one Redis queue and one database.

Run the same spider in N processes with::

    SCHEDULER = "scrapy_denoise.integration.distributed.RedisScheduler"
    DUPEFILTER_CLASS = "scrapy_redis.dupefilter.RFPDupeFilter"
    REDIS_URL = "redis://127.0.0.1:6379/0"
    DENOISE_DATABASE_URL = "postgresql+psycopg://user@host/db"

and a different ``-s DENOISE_OWNER=worker-N`` per process (``docs/distributed.md`` has the
whole recipe). ``python -m scrapy_denoise.integration.distributed status|reset`` shows or
clears a crawl's Redis keys.

Why not scrapy-redis's own scheduler? With scrapy-redis 0.9.1 on Scrapy 2.19 its queue,
dupefilter and request serialisation work, but as a *distributed* crawl its documented
configuration fails in four ways, which :class:`RedisScheduler` (a subclass) fixes:

1. **Workers quit early.** A crawler closes when it is idle, and with a shared queue it is
   idle whenever the queue is momentarily empty: at the start, when one worker has taken
   the only start request, and at the end, while another worker is still extracting the
   page that yields the next links. With three workers on flink-blog, two closed after 2 s
   without a page and one crawled everything. Here a worker closes only when the crawl is
   done: something was queued, the queue is empty and *no* worker holds an unfinished
   request, checked in one Redis script.
2. **The first worker to close wipes the crawl.** With ``SCHEDULER_PERSIST = False`` (the
   default) a closing worker deletes the shared queue and dupefilter under the others.
   This scheduler never deletes them; ``reset`` does, between crawls.
3. **A killed worker loses requests.** scrapy-redis pops a request and forgets it: if the
   process dies before the page is done, the request is neither queued nor fetchable again
   (the dupefilter has it). Here a pop atomically moves the request into the worker's
   *processing* hash, and it is acknowledged (deleted) only at a checkpoint, after the
   page's article and learned state are in the database (``DenoiseRuntime.checkpoint``). A
   restarted worker (same ``DENOISE_OWNER``) puts its unfinished requests back first; the
   other workers do it for a worker silent for ``DENOISE_WORKER_TIMEOUT`` seconds.
4. **Enqueueing is two calls** (dupefilter ``SADD``, then queue ``ZADD``), a window in which
   the queue looks empty although a request is on its way; here it is one script.

No ``RedisSpider`` is needed: every worker's ``start()`` yields the start request and the
shared dupefilter keeps one. (On Scrapy >= 2.13 ``RedisSpider.start_requests`` is never
called: it reads its Redis start URLs only when the spider first goes idle, and its
``MAX_IDLE_TIME_BEFORE_CLOSE`` clock is a class attribute set at import time, so a worker
either never closes or closes at the first idle moment of a long crawl.)

What a crash costs: nothing in articles (unfinished requests are fetched again and upserts
are idempotent) and, in learned state, nothing either in the normal case: a redelivered page
is learned again only if no committed fingerprint shows its learning reached the database,
and a learner flush writes site state and fingerprints in one transaction, so a kill
cannot land between them (docs/distributed.md).

Limits: one Redis server (not Redis Cluster: the scripts touch keys they derive), requests
must be serialisable (callbacks are spider methods), the order is the priority queue's.
"""

from __future__ import annotations

import argparse
import itertools
import logging
import os
import secrets
import socket
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import CloseSpider, DontCloseSpider
from scrapy.utils.defer import deferred_from_coro
from scrapy.utils.misc import load_object

try:
    from redis.exceptions import RedisError
    from scrapy_redis import connection
    from scrapy_redis.queue import PriorityQueue
    from scrapy_redis.scheduler import Scheduler as _ScrapyRedisScheduler
except ImportError as exc:  # the [distributed] extra is not installed
    from ..extras import install_hint

    _missing = f"{exc} (RedisScheduler, distributed crawls): {install_hint('distributed')}"
    if __name__ == "__main__":  # `python -m ... status`: a message, not a traceback
        sys.exit(f"error: {_missing}")
    raise ModuleNotFoundError(_missing, name=exc.name) from exc

from .runtime import DenoiseRuntime
from .settings import DenoiseConfig

if TYPE_CHECKING:
    from redis import Redis
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings
    from twisted.internet.defer import Deferred
    from twisted.internet.task import LoopingCall

__all__ = [
    "REDELIVERED",
    "CrawlKeys",
    "CrawlStatus",
    "RedisScheduler",
    "crawl_status",
    "main",
    "redis_address",
    "reset",
]

logger = logging.getLogger(__name__)

#: ``request.meta`` flag of a request put back after its worker died.
REDELIVERED = "denoise_redelivered"
#: Seconds between an idle worker's looks at the shared queue (Scrapy's engine: 5 s); each
#: look is a pop, a read of the heartbeats and the "is the crawl done" script.
IDLE_POLL_SECONDS = 0.5

_DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
_DEFAULT_QUEUE_KEY = "%(spider)s:requests"
_DEFAULT_DUPEFILTER_KEY = "%(spider)s:dupefilter"


# A request's score: its priority first (negated: the lowest score is popped first), then
# the newest first, as Scrapy's own scheduler serves equal priorities (a LIFO queue). With
# the priority alone, Redis served equal scores in the byte order of the pickled requests,
# which is mostly their size: flink-blog's release announcements, whose URLs are all of one
# length, came one after the other, and site learning took their shared sentences for
# boilerplate (a first crawl lost text on 36 of 242 rows; in the site benchmark's replay,
# 46 of 237 in that order, none in path, newest-first or shuffled order).
# ARGV[2] is the negated priority, clamped to +-2^20 so that the score (priority * 2^32 -
# sequence) stays exact in a double for 2^32 requests.
def _score(sequence: str) -> str:
    return f"tonumber(ARGV[2]) * 4294967296 - redis.call('INCR', {sequence})"


# KEYS: dupefilter, queue, enqueued counter, sequence; ARGV: fingerprint, priority, request,
# filter?
_ENQUEUE = f"""
if ARGV[4] == '1' and redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('ZADD', KEYS[2], {_score("KEYS[4]")}, ARGV[3])
redis.call('INCR', KEYS[3])
return 1
"""
# KEYS: queue, own processing hash, popped counters; ARGV: token, owner
_POP = """
local found = redis.call('ZRANGE', KEYS[1], 0, 0)
if #found == 0 then return false end
redis.call('ZREM', KEYS[1], found[1])
redis.call('HSET', KEYS[2], ARGV[1], found[1])
redis.call('HINCRBY', KEYS[3], ARGV[2], 1)
return found[1]
"""
# KEYS: processing hash, queue, sequence; ARGV: token, priority, request (flagged as
# redelivered): the newest of its priority, so the requests of a dead worker go next
_REQUEUE = f"""
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('ZADD', KEYS[2], {_score("KEYS[3]")}, ARGV[3])
return 1
"""
# KEYS: heartbeats; ARGV: owner, the heartbeat read before ('' for none), the new one:
# written only if no other process wrote that owner's heartbeat since it was read
_CLAIM = """
local now = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if now ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
"""
# KEYS: queue, owners, enqueued counter; ARGV: processing hash prefix
_DONE = """
if tonumber(redis.call('GET', KEYS[3]) or '0') == 0 then return 0 end
if redis.call('ZCARD', KEYS[1]) > 0 then return 0 end
for _, owner in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  if redis.call('HLEN', ARGV[1] .. owner) > 0 then return 0 end
end
return 1
"""


@dataclass(frozen=True, slots=True)
class CrawlKeys:
    """The Redis keys of one distributed crawl; all but the dupefilter's derive from the
    queue key (``SCHEDULER_QUEUE_KEY``), so one prefix names a whole crawl."""

    queue: str
    dupefilter: str

    @classmethod
    def for_spider(cls, settings: BaseSettings, spider_name: str) -> CrawlKeys:
        values = {"spider": spider_name}
        queue = settings.get("SCHEDULER_QUEUE_KEY") or _DEFAULT_QUEUE_KEY
        dupefilter = settings.get("SCHEDULER_DUPEFILTER_KEY") or _DEFAULT_DUPEFILTER_KEY
        return cls(queue % values, dupefilter % values)

    @property
    def owners(self) -> str:
        return f"{self.queue}:owners"

    @property
    def heartbeats(self) -> str:
        return f"{self.queue}:heartbeats"

    @property
    def enqueued(self) -> str:
        return f"{self.queue}:enqueued"

    @property
    def popped(self) -> str:
        return f"{self.queue}:popped"

    @property
    def sequence(self) -> str:
        """The counter that orders equal priorities, newest first (see ``_score``)."""
        return f"{self.queue}:sequence"

    @property
    def processing_prefix(self) -> str:
        return f"{self.queue}:processing:"

    def processing(self, owner: str) -> str:
        return self.processing_prefix + owner


@dataclass(frozen=True, slots=True)
class CrawlStatus:
    """A snapshot of a distributed crawl, for ``status`` and for tests."""

    queued: int
    enqueued: int
    seen: int
    processing: dict[str, int]
    popped: dict[str, int]
    heartbeat_age: dict[str, float]
    #: owners whose last heartbeat came from a process of this host that has exited (a
    #: killed worker): not live however fresh the heartbeat, as a restarted worker sees it
    exited: frozenset[str] = frozenset()

    def live(self, timeout: float) -> list[str]:
        """Owners whose heartbeat is younger than ``timeout`` from a process still running."""
        return sorted(
            o for o, age in self.heartbeat_age.items() if age < timeout and o not in self.exited
        )

    @property
    def done(self) -> bool:
        return self.enqueued > 0 and self.queued == 0 and not any(self.processing.values())


def _progress(status: CrawlStatus) -> str:
    """The end of ``status``'s first line: a queue nothing ever entered is no crawl under way
    (after ``reset``, or when every worker failed at start), not one that is "not done"."""
    if status.done:
        return "done"
    if status.enqueued == 0 and status.queued == 0 and not any(status.processing.values()):
        return "not started"
    return "in progress"


def _text(value: bytes | str) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value


def _now(server: Redis) -> float:
    """Redis's clock, so that heartbeats of workers on different machines compare."""
    seconds, micros = server.time()
    return float(seconds) + micros / 1e6


_PRIORITY_BOUND = 1 << 20
#: fingerprints a worker remembers as known to the shared duplicate filter (about 13 MB).
#: A crawl of flink-blog offered 16,242 links for 431 pages, each a Redis round trip and a
#: pickling before; past this many, new fingerprints are asked of Redis as before.
_KNOWN_MAX = 100_000


def _negated_priority(priority: int) -> int:
    """The queue's score before the sequence (``_score``): lower is served first."""
    return -max(-_PRIORITY_BOUND, min(_PRIORITY_BOUND, priority))


def _owners(server: Redis, keys: CrawlKeys) -> list[str]:
    return sorted(_text(o) for o in server.smembers(keys.owners))


def crawl_status(server: Redis, keys: CrawlKeys) -> CrawlStatus:
    now = _now(server)
    owners = _owners(server, keys)
    beats = {_text(k): _text(v) for k, v in server.hgetall(keys.heartbeats).items()}
    return CrawlStatus(
        queued=int(server.zcard(keys.queue)),
        enqueued=int(server.get(keys.enqueued) or 0),
        seen=int(server.scard(keys.dupefilter)),
        processing={o: int(server.hlen(keys.processing(o))) for o in owners},
        popped={_text(k): int(v) for k, v in server.hgetall(keys.popped).items()},
        heartbeat_age={o: now - _Heartbeat.parse(v).time for o, v in beats.items()},
        exited=frozenset(o for o, v in beats.items() if _Heartbeat.parse(v).exited_here()),
    )


def reset(server: Redis, keys: CrawlKeys) -> int:
    """Delete every key of the crawl (queue, dupefilter, processing hashes, bookkeeping);
    returns how many existed. Only between crawls: the workers must be stopped."""
    names = [keys.queue, keys.dupefilter, keys.owners, keys.heartbeats]
    names += [keys.enqueued, keys.popped, keys.sequence]
    names += [keys.processing(o) for o in _owners(server, keys)]
    return int(server.delete(*names))


@dataclass(frozen=True, slots=True)
class _Heartbeat:
    time: float
    host: str
    pid: int

    def dump(self) -> str:
        return f"{self.time:.3f}|{self.pid}|{self.host}"

    @classmethod
    def parse(cls, raw: str) -> _Heartbeat:
        time, pid, host = raw.split("|", 2)
        return cls(float(time), host, int(pid))

    @classmethod
    def now(cls, server: Redis) -> _Heartbeat:
        """This process's heartbeat, at Redis's time."""
        return cls(_now(server), socket.gethostname(), os.getpid())

    def exited_here(self) -> bool:
        """Sent by another process of this host that is gone: its owner is free at once."""
        return (
            self.host == socket.gethostname()
            and self.pid != os.getpid()
            and not _pid_alive(self.pid)
        )


def redis_address(server: Redis) -> str:
    """Where ``server`` connects, for messages (never its password)."""
    kwargs = server.connection_pool.connection_kwargs
    db = kwargs.get("db", 0)
    if "path" in kwargs:
        return f"unix://{kwargs['path']}?db={db}"
    return f"redis://{kwargs.get('host', 'localhost')}:{kwargs.get('port', 6379)}/{db}"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


_NEEDS_REDIS_DUPEFILTER = (
    "RedisScheduler needs a Redis dupefilter shared by the workers: "
    'DUPEFILTER_CLASS = "scrapy_redis.dupefilter.RFPDupeFilter"'
)


def _check_settings(settings: BaseSettings) -> None:
    """Name the setting a user got wrong in one ERROR line, before scrapy-redis fails on it
    under a traceback of its own (Scrapy's default ``DUPEFILTER_CLASS`` ended in
    "type object 'RFPDupeFilter' has no attribute 'from_settings'", a ``REDIS_URL``
    without a scheme in redis's own ``ValueError``, neither naming the setting)."""
    dupefilter = settings.get("DUPEFILTER_CLASS")
    try:
        dupefilter_cls = load_object(dupefilter) if isinstance(dupefilter, str) else dupefilter
    except (ImportError, NameError, ValueError) as exc:
        message = f"DUPEFILTER_CLASS {dupefilter!r} cannot be loaded: {exc}"
    else:
        message = ""
        if not hasattr(dupefilter_cls, "from_spider"):
            message = f"DUPEFILTER_CLASS is {dupefilter!r}: {_NEEDS_REDIS_DUPEFILTER}"
    if not message:
        try:
            connection.from_settings(settings)  # parses REDIS_URL, connects lazily
        except ValueError as exc:  # redis's message does not repeat the URL (no password)
            message = f"REDIS_URL is not a valid Redis URL: {exc}"
    if message:
        # raised in from_crawler, this fails the crawl (exit status 1) under Scrapy's
        # traceback, as an unreachable Redis does: the cause goes first, in one line
        logger.error(message)
        raise ValueError(message)


class RedisScheduler(_ScrapyRedisScheduler):
    """scrapy-redis's scheduler made safe for several workers (see the module docstring)."""

    df: Any  # the dupefilter, set by scrapy-redis or in open()

    def __init__(self, server: Redis, **kwargs: Any) -> None:
        super().__init__(server, **kwargs)
        self.crawler: Crawler | None = None
        self.runtime: DenoiseRuntime | None = None
        self.owner = "default"
        self.worker_timeout = 120.0
        self.checkpoint_every = 50
        self.keys: CrawlKeys | None = None
        self._taken: dict[str, Request] = {}
        self._taken_count = 0
        #: whether the crawl was over before this worker opened: only then is "nothing to
        #: crawl" the news (a worker the others outran, or restarted after they finished
        #: its put-back requests, saw a whole crawl)
        self._done_at_open = False
        self._token_prefix = secrets.token_hex(4) + "-"
        self._tokens = itertools.count()
        self._since_checkpoint = 0
        self._checkpointing = False
        self._registered = False
        self._closing = False
        #: the close reason when this worker may not join the crawl (see spider_opened)
        self._refusal: str | None = None
        self._heartbeat: LoopingCall | None = None
        self._scripts: dict[str, Any] = {}
        # fingerprints this worker knows the shared duplicate filter holds (it only grows
        # during a crawl): the links every page repeats are refused without a round trip
        self._known: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RedisScheduler:
        _check_settings(crawler.settings)
        try:
            scheduler: RedisScheduler = super().from_crawler(crawler)  # pings Redis
        except RedisError as exc:
            # Scrapy builds the scheduler before the engine can close cleanly, so this
            # fails the crawl (exit status 1) under a traceback whose last line is the
            # engine's own "Engine slot not assigned" (up to Scrapy 2.19; fixed upstream by
            # scrapy/scrapy#8169): the cause goes first, in one line.
            logger.error(
                "cannot reach Redis at %s (REDIS_URL): %s",
                redis_address(connection.from_settings(crawler.settings)),
                exc,
            )
            raise
        config = DenoiseConfig.from_settings(crawler.settings)
        scheduler.crawler = crawler
        scheduler.runtime = DenoiseRuntime.for_crawler(crawler, use_core=False)
        scheduler.owner = config.owner
        scheduler.worker_timeout = float(max(config.worker_timeout, 1))
        scheduler.checkpoint_every = max(config.flush_every, 1)
        queue_cls = crawler.settings.get("SCHEDULER_QUEUE_CLASS")
        if queue_cls and load_object(queue_cls) is not PriorityQueue:
            logger.warning(
                "SCHEDULER_QUEUE_CLASS is ignored: RedisScheduler keeps a priority queue"
            )
        if crawler.settings.getbool("SCHEDULER_FLUSH_ON_START"):
            logger.warning(
                "SCHEDULER_FLUSH_ON_START is ignored: a starting worker must not wipe the "
                "others' queue; run `python -m scrapy_denoise.integration.distributed reset`"
            )
        crawler.signals.connect(scheduler.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(scheduler.spider_opened, signal=signals.spider_opened)
        return scheduler

    # -- lifecycle ----------------------------------------------------------------------

    def open(self, spider: Spider) -> None:
        self.spider = spider
        self.queue = PriorityQueue(
            server=self.server,
            spider=spider,
            key=self.queue_key % {"spider": spider.name},
            serializer=self.serializer,
        )
        if not self.df:
            self.df = load_object(self.dupefilter_cls).from_spider(spider)
        if not hasattr(self.df, "key") or not hasattr(self.df, "request_fingerprint"):
            raise ValueError(_NEEDS_REDIS_DUPEFILTER)
        self.keys = CrawlKeys(self.queue.key, self.df.key)
        for name, source in (
            ("enqueue", _ENQUEUE),
            ("pop", _POP),
            ("requeue", _REQUEUE),
            ("done", _DONE),
            ("claim", _CLAIM),
        ):
            self._scripts[name] = self.server.register_script(source)
        if not self._claim_owner():
            self._refusal = "denoise_owner_in_use"
            return
        put_back = self._requeue(self.owner)
        self._inc("denoise/distributed/requeued_own", put_back)
        self._done_at_open = self._crawl_done()
        from twisted.internet.task import LoopingCall

        self._heartbeat = LoopingCall(self._beat)
        self._heartbeat.start(min(5.0, self.worker_timeout / 4), now=False)
        logger.info(
            "distributed crawl: worker %r on queue %r (%d requests queued; %d unfinished "
            "requests of this worker put back)",
            self.owner,
            self.keys.queue,
            len(self.queue),
            put_back,
            extra={"spider": spider},
        )

    def close(self, reason: str) -> Deferred[None]:
        return deferred_from_coro(self._close(reason))

    async def _close(self, reason: str) -> None:
        self._closing = True
        if self._heartbeat is not None and self._heartbeat.running:
            self._heartbeat.stop()
        if not self._registered or self.keys is None:
            return
        if self._taken:
            await self._checkpoint()
        if self._taken:
            logger.info(
                "%d unfinished requests stay in worker %r's processing list: they are redone "
                "when it restarts, or by another worker after DENOISE_WORKER_TIMEOUT",
                len(self._taken),
                self.owner,
                extra={"spider": self.spider},
            )
        self.server.hdel(self.keys.heartbeats, self.owner)

    def _claim_owner(self) -> bool:
        """Register as this worker's owner; False (logged) when another live process runs
        as it: two processes with one owner would share a processing list and a template
        batch."""
        assert self.keys is not None
        raw = self.server.hget(self.keys.heartbeats, self.owner)
        if raw:
            beat = _Heartbeat.parse(_text(raw))
            age = _now(self.server) - beat.time
            if age < self.worker_timeout and not beat.exited_here():
                logger.error(
                    "DENOISE_OWNER %r is in use by a live crawler (%s, pid %d, heartbeat "
                    "%.0f s ago): give every worker its own owner",
                    self.owner,
                    beat.host,
                    beat.pid,
                    age,
                    extra={"spider": self.spider},
                )
                return False
        # read, then written only if unchanged: two processes started at one instant with
        # one owner both read a stale (or no) heartbeat, and both were accepted
        beat = _Heartbeat.now(self.server)
        read = _text(raw) if raw else ""
        if not self._scripts["claim"](
            keys=[self.keys.heartbeats], args=[self.owner, read, beat.dump()]
        ):
            logger.error(
                "DENOISE_OWNER %r was claimed by another crawler as this one started: give "
                "every worker its own owner",
                self.owner,
                extra={"spider": self.spider},
            )
            return False
        self.server.sadd(self.keys.owners, self.owner)
        self._registered = True
        return True

    def spider_opened(self, spider: Spider) -> None:
        """Close a worker that could not join the crawl (another live process runs as its
        owner). Raised here, not in :meth:`open`: Scrapy 2.19 skips opening the scraper
        when the scheduler's ``open`` raises ``CloseSpider``, and closing then fails a
        second time ("Scraper slot not assigned")."""
        if self._refusal is not None:
            raise CloseSpider(self._refusal)

    def _beat(self) -> None:
        """Say "alive"; a Redis blip must not stop the loop (the others would then think
        this worker dead after DENOISE_WORKER_TIMEOUT and redo its requests)."""
        assert self.keys is not None
        try:
            beat = _Heartbeat.now(self.server)
            self.server.hset(self.keys.heartbeats, self.owner, beat.dump())
        except Exception as exc:
            if not self._registered:
                raise
            logger.warning("could not send the heartbeat to Redis: %s", exc)

    # -- the queue ----------------------------------------------------------------------

    def enqueue_request(self, request: Request) -> bool:
        assert self.keys is not None
        if self._refusal is not None:
            return False
        filtered = not request.dont_filter
        fingerprint = self.df.request_fingerprint(request) if filtered else ""
        if filtered and fingerprint in self._known:
            self.df.log(request, self.spider)
            return False
        added = self._scripts["enqueue"](
            keys=[self.keys.dupefilter, self.keys.queue, self.keys.enqueued, self.keys.sequence],
            args=[
                fingerprint,
                _negated_priority(request.priority),
                self.queue._encode_request(request),
                int(filtered),
            ],
        )
        if filtered and len(self._known) < _KNOWN_MAX:
            self._known.add(fingerprint)
        if not added:
            self.df.log(request, self.spider)
            return False
        self._inc("scheduler/enqueued/redis")
        return True

    def has_pending_requests(self) -> bool:
        return self._refusal is None and super().has_pending_requests()

    def next_request(self) -> Request | None:
        assert self.keys is not None
        if self._refusal is not None:
            return None
        token = f"{self._token_prefix}{next(self._tokens)}"
        processing = self.keys.processing(self.owner)
        data = self._scripts["pop"](
            keys=[self.keys.queue, processing, self.keys.popped], args=[token, self.owner]
        )
        if data is None:
            return None
        try:
            request: Request = self.queue._decode_request(data)
        except Exception:
            logger.exception("dropping a queued request that cannot be decoded")
            self.server.hdel(processing, token)
            self._inc("denoise/distributed/undecodable")
            return None
        self._taken[token] = request
        self._taken_count += 1
        self._inc("scheduler/dequeued/redis")
        if request.meta.get(REDELIVERED):
            self._inc("denoise/distributed/redelivered")
            if self.runtime is not None:
                self.runtime.note_redelivered(request.url)
        self._since_checkpoint += 1
        if self._since_checkpoint >= self.checkpoint_every:
            self._schedule_checkpoint()
        return request

    def _requeue(self, owner: str) -> int:
        """Put ``owner``'s unfinished requests back into the queue, flagged as redelivered;
        each move is atomic and exclusive, so two workers adopting at once cannot both."""
        assert self.keys is not None
        processing = self.keys.processing(owner)
        serializer = self.queue.serializer  # scrapy-redis's default when none is set
        moved = 0
        for token, data in self.server.hgetall(processing).items():
            obj = serializer.loads(data)
            meta = obj.get("meta") or {}
            meta[REDELIVERED] = True
            obj["meta"] = meta
            moved += int(
                self._scripts["requeue"](
                    keys=[processing, self.keys.queue, self.keys.sequence],
                    args=[
                        token,
                        _negated_priority(int(obj.get("priority") or 0)),
                        serializer.dumps(obj),
                    ],
                )
            )
        return moved

    # -- checkpoints: acknowledge finished requests -------------------------------------

    def _schedule_checkpoint(self) -> None:
        # Later, not now: the request just popped is added to the engine's in-progress set
        # only after next_request() returns, and must not look finished.
        from twisted.internet import reactor, task

        task.deferLater(reactor, 0, self._start_checkpoint)

    def _start_checkpoint(self) -> None:
        if self._checkpointing or self._closing:
            return
        self._checkpointing = True
        self._since_checkpoint = 0

        def done(result: Any) -> Any:
            self._checkpointing = False
            return result

        deferred_from_coro(self._checkpoint()).addBoth(done)

    def _finished_tokens(self) -> list[str]:
        """Taken requests the engine is done with: downloaded, parsed, and every item
        through the pipelines. ``[]`` if the engine's in-progress set cannot be read (then
        requests are acknowledged when the worker is idle or closes)."""
        inprogress = getattr(self._engine_slot(), "inprogress", None)
        if inprogress is None:
            return list(self._taken) if self._idle() else []
        return [token for token, request in self._taken.items() if request not in inprogress]

    def _idle(self) -> bool:
        engine = getattr(self.crawler, "engine", None)
        try:
            return bool(engine is not None and engine.spider_is_idle())
        except Exception:
            return False

    async def _checkpoint(self) -> bool:
        """Write what the finished requests produced, then acknowledge them."""
        assert self.keys is not None
        finished = self._finished_tokens()
        if not finished:
            return True
        ok = True if self.runtime is None else await self.runtime.checkpoint()
        if not ok:
            self._inc("denoise/distributed/checkpoint_failed")
            return False
        self.server.hdel(self.keys.processing(self.owner), *finished)
        for token in finished:
            self._taken.pop(token, None)
        self._inc("denoise/distributed/acknowledged", len(finished))
        self._inc("denoise/distributed/checkpoints")
        return True

    # -- when is the crawl done? --------------------------------------------------------

    def spider_idle(self, spider: Spider) -> None:
        """Keep an idle worker open while any worker may still produce requests."""
        if self._closing or self.keys is None:
            return
        if self._taken:
            self._start_checkpoint()
            self._poll_soon()
            raise DontCloseSpider
        self._adopt_orphans()
        if self._crawl_done():
            if self._done_at_open:
                logger.info(
                    "nothing to crawl: the queue %r is empty and its dupefilter has seen the "
                    "start requests; reset the crawl's keys to crawl again",
                    self.keys.queue,
                    extra={"spider": spider},
                )
            elif not self._taken_count:
                logger.info(
                    "the crawl is done: the other workers fetched every request of %r",
                    self.keys.queue,
                    extra={"spider": spider},
                )
            return
        self._poll_soon()
        raise DontCloseSpider

    def _crawl_done(self) -> bool:
        """Has the crawl begun (something was enqueued) and ended (the queue and every
        worker's unfinished requests are empty)?"""
        assert self.keys is not None
        return bool(
            self._scripts["done"](
                keys=[self.keys.queue, self.keys.owners, self.keys.enqueued],
                args=[self.keys.processing_prefix],
            )
        )

    def _poll_soon(self) -> None:
        """Have the engine ask this scheduler again in :data:`IDLE_POLL_SECONDS`.

        Once idle, Scrapy's engine asks its scheduler for a request only at its 5-second
        heartbeat, and a shared queue is often empty at those moments while other workers
        drain it as fast as pages yield links: a third worker on flink-blog looked at 1 s,
        6 s and 11 s, found the queue empty each time and ended with no request while two
        others crawled the site in 12 s. Without the engine's call slot (a private
        attribute) the heartbeat alone remains.
        """
        schedule = getattr(getattr(self._engine_slot(), "nextcall", None), "schedule", None)
        if callable(schedule):
            schedule(IDLE_POLL_SECONDS)

    def _engine_slot(self) -> Any:
        """The engine's call slot (``ExecutionEngine._slot``: its in-progress requests and
        its next call), or ``None``. Scrapy has no public way to read either; every use
        here has a fallback for a Scrapy that renames it."""
        return getattr(getattr(self.crawler, "engine", None), "_slot", None)

    def _adopt_orphans(self) -> None:
        """Requeue the unfinished requests of workers whose heartbeat stopped."""
        assert self.keys is not None
        now = _now(self.server)
        beats = {_text(k): _text(v) for k, v in self.server.hgetall(self.keys.heartbeats).items()}
        for owner in _owners(self.server, self.keys):
            if owner == self.owner:
                continue
            raw = beats.get(owner)
            if raw is not None and now - _Heartbeat.parse(raw).time < self.worker_timeout:
                continue
            moved = self._requeue(owner)
            if moved:
                self._inc("denoise/distributed/adopted", moved)
                logger.warning(
                    "worker %r is gone (no heartbeat for %d s): %d of its unfinished requests "
                    "put back into the queue",
                    owner,
                    int(self.worker_timeout),
                    moved,
                    extra={"spider": self.spider},
                )

    def _inc(self, key: str, count: int = 1) -> None:
        if self.stats is not None and count:
            self.stats.inc_value(key, count)


# -- command line -----------------------------------------------------------------------


def _command_settings(args: argparse.Namespace) -> BaseSettings:
    """The crawl's settings as its workers see them: the Scrapy project's ``settings.py``
    when run inside the project (as ``scrapy crawl`` finds it), then ``REDIS_URL`` from the
    environment, then the options given here."""
    from scrapy.utils.project import get_project_settings

    settings = get_project_settings().copy()
    if os.environ.get("REDIS_URL"):
        settings.set("REDIS_URL", os.environ["REDIS_URL"], priority="cmdline")
    for name, value in (
        ("REDIS_URL", args.redis_url),
        ("SCHEDULER_QUEUE_KEY", args.queue_key),
        ("SCHEDULER_DUPEFILTER_KEY", args.dupefilter_key),
        ("DENOISE_WORKER_TIMEOUT", args.worker_timeout),
    ):
        if value is not None:
            settings.set(name, value, priority="cmdline")
    if not settings.get("REDIS_URL") and not settings.get("REDIS_HOST"):
        settings.set("REDIS_URL", _DEFAULT_REDIS_URL, priority="cmdline")
    return settings  # unset key names: CrawlKeys.for_spider applies scrapy-redis's


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scrapy_denoise.integration.distributed",
        description="Show or clear the Redis keys of a distributed crawl. Run inside the "
        "Scrapy project, it reads REDIS_URL, SCHEDULER_QUEUE_KEY, SCHEDULER_DUPEFILTER_KEY and "
        "DENOISE_WORKER_TIMEOUT from its settings; the REDIS_URL environment variable and the "
        "options below "
        f"override them (default Redis: {_DEFAULT_REDIS_URL}).",
    )
    parser.add_argument("action", choices=("status", "reset"))
    parser.add_argument("--spider", required=True, help="the spider's name (e.g. news)")
    parser.add_argument("--redis-url", help="the workers' REDIS_URL")
    parser.add_argument("--queue-key", help="SCHEDULER_QUEUE_KEY (%%(spider)s:requests)")
    parser.add_argument(
        "--dupefilter-key", help="SCHEDULER_DUPEFILTER_KEY (%%(spider)s:dupefilter)"
    )
    parser.add_argument(
        "--worker-timeout",
        type=int,
        metavar="SECONDS",
        help="DENOISE_WORKER_TIMEOUT, when the workers were given it with -s: a worker "
        "silent this many seconds is gone",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="reset: even while a worker's heartbeat is fresh (it then re-crawls pages)",
    )
    args = parser.parse_args(argv)
    if args.worker_timeout is not None and args.worker_timeout < 1:
        parser.error(f"--worker-timeout must be at least 1 second, got {args.worker_timeout}")
    settings = _command_settings(args)
    try:
        # the project's settings are checked whole, as a crawl checks them at start
        timeout = float(DenoiseConfig.from_settings(settings).worker_timeout)
        server = connection.from_settings(settings)
    except ValueError as exc:  # an invalid setting or REDIS_URL: one line, not a traceback
        parser.error(str(exc))
    keys = CrawlKeys.for_spider(settings, args.spider)
    try:
        return _run_command(args, server, keys, timeout)
    except RedisError as exc:
        print(
            f"{parser.prog} {args.action}: cannot reach Redis at {redis_address(server)}: {exc}",
            file=sys.stderr,
        )
        return 1


def _run_command(args: argparse.Namespace, server: Redis, keys: CrawlKeys, timeout: float) -> int:
    status = crawl_status(server, keys)
    live = status.live(timeout)
    print(f"redis {redis_address(server)}")
    if args.action == "reset":
        if live and not args.force:
            # Deleting the queue and the duplicate filter under a running worker makes it
            # fetch pages again and rewrite their rows (a user saw 148 pages twice).
            print(
                f"not reset: worker{'s' if len(live) > 1 else ''} {', '.join(live)} of "
                f"{keys.queue!r} sent a heartbeat in the last {timeout:.0f} s "
                "(DENOISE_WORKER_TIMEOUT); stop them first, or give --force",
                file=sys.stderr,
            )
            return 1
        print(f"deleted {reset(server, keys)} keys of {keys.queue!r}")
        return 0
    print(
        f"queue {keys.queue!r}: {status.queued} queued, {status.enqueued} enqueued in all, "
        f"{status.seen} URLs seen; {_progress(status)}"
    )
    for owner in sorted(set(status.processing) | set(status.popped)):
        age = status.heartbeat_age.get(owner)
        if age is None:
            state = "no heartbeat (stopped)"
        elif owner in status.exited:
            state = f"heartbeat {age:.0f} s ago (gone: its process on this host has exited)"
        elif age < timeout:
            state = f"heartbeat {age:.0f} s ago"
        else:
            state = f"heartbeat {age:.0f} s ago (gone: over DENOISE_WORKER_TIMEOUT)"
        print(
            f"  {owner}: {status.popped.get(owner, 0)} taken, "
            f"{status.processing.get(owner, 0)} unfinished, {state}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
