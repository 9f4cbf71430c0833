"""The repository: short, batched, atomic transactions over the store's tables.

Every method is one transaction (retried whole on a deadlock or a busy SQLite file), so a
process killed at any moment leaves either all or none of a call's effect. Data the
database refuses (a value it cannot store, a broken constraint) fails the whole call with
:class:`StoreDataError`, which retrying the same data cannot cure; every other failure is a
:class:`StoreError`. Counts are only
ever changed by additive upserts (``count = count + excluded.count``), never by
read-modify-write in Python, which is what keeps them exact when several crawler processes
write to one PostgreSQL database at once. Rows are written in key order so that two
transactions never wait on each other's locks in opposite orders.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import replace
from itertools import zip_longest
from types import TracebackType
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

from sqlalchemy import (
    Connection,
    Engine,
    Integer,
    Table,
    bindparam,
    case,
    create_engine,
    delete,
    event,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DataError, DBAPIError, IntegrityError, StatementError
from sqlalchemy.pool import StaticPool

from ..extras import install_hint
from ..tracking import DIRECTORY_INDEX, without_tracking
from .errors import StoreDataError, StoreError, redact_url, scrub
from .migrate import ensure_schema
from .records import (
    FINGERPRINT_BASIS_CHARS,
    SCORE_BUCKETS,
    ArticleRecord,
    BatchState,
    LineCount,
    PageState,
    PageVisit,
    SiteDelta,
    SiteSnapshot,
    SiteSummary,
    TemplateText,
    UpsertCounts,
    VerdictCount,
)
from .schema import HASH_BYTES, Base, utcnow

__all__ = [
    "DAMAGED_SHARE",
    "LINE_TEXT_CHARS",
    "Store",
    "content_hash",
    "fit_hash",
    "stored_url",
    "text_hash",
]

#: share of replacement characters above which a text never rewrites a stored article (the
#: loader's ``undecodable`` warning is 5 % of the page; any real text has none or a few)
DAMAGED_SHARE = 0.01

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: Stored line texts are cut to this many characters: they are only for reports.
LINE_TEXT_CHARS = 500

_SQLITE_BUSY_MS = 30_000
# Column sizes (see schema.py) that values from pages could exceed.
_TAG_CHARS = 64
_HASH_CHARS = 64
_LANG_CHARS = 16
_ATTEMPTS = 6
# PostgreSQL deadlock_detected and serialization_failure: the transaction was rolled back
# whole, so running it again cannot double-count.
_RETRY_SQLSTATES = frozenset({"40P01", "40001"})

_SITES: Table = Base.metadata.tables["sites"]
_TEMPLATES: Table = Base.metadata.tables["templates"]
_BATCHES: Table = Base.metadata.tables["template_batches"]
_ENTRIES: Table = Base.metadata.tables["template_batch_entries"]
_LINES: Table = Base.metadata.tables["line_stats"]
_PAGES: Table = Base.metadata.tables["page_fingerprints"]
_ARTICLES: Table = Base.metadata.tables["articles"]
_VERDICTS: Table = Base.metadata.tables["page_verdicts"]
_REASON_CHARS = 64
#: first key of the PostgreSQL advisory locks on a site's article identities (the second
#: is the site id); the two-key lock space is apart from the migration's one-key lock
_IDENTITY_LOCK_SPACE = 0x5D3E


def text_hash(*parts: str) -> bytes:
    """16-byte MD5 of the parts joined by NUL: the key of lines, templates and URLs."""
    data = "\x00".join(parts).encode("utf-8", "surrogatepass")
    return hashlib.md5(data, usedforsecurity=False).digest()


def content_hash(title: str | None, text: str) -> str:
    """Default article content hash: what a reader would see change."""
    return text_hash(title or "", text).hex()


def fit_hash(value: str) -> str:
    """A content hash that fits the 64-character columns: longer values are hashed."""
    if len(value) <= _HASH_CHARS:
        return value
    return hashlib.md5(value.encode("utf-8", "surrogatepass"), usedforsecurity=False).hexdigest()


class Store:
    """Learned site state and extracted articles in one SQL database.

    Open with :meth:`open`; all methods are synchronous and safe to call from several
    threads (the Scrapy adapters call them from a worker thread).
    """

    def __init__(self, engine: Engine, url: URL) -> None:
        self._engine = engine
        self._url = url
        self._dialect = engine.dialect.name
        # One shared in-memory connection cannot run two transactions at once.
        self._lock: AbstractContextManager[Any] = (
            threading.RLock() if isinstance(engine.pool, StaticPool) else nullcontext()
        )
        self._closed = False

    # -- lifecycle ------------------------------------------------------------------

    @classmethod
    def open(cls, url: str | os.PathLike[str] | None = None, *, create: bool = True) -> Store:
        """Open (and create or upgrade the schema of) the database at ``url``.

        ``None`` is a private in-memory SQLite database, a path (:class:`~pathlib.Path`) a
        SQLite file, as for :class:`~scrapy_denoise.Denoiser`. ``create=False`` never
        writes DDL: an empty or outdated database is then an error.
        """
        if isinstance(url, os.PathLike):
            url = f"sqlite:///{os.fsdecode(url)}"
        if url is not None and not isinstance(url, str):
            raise TypeError(
                f"a database URL is a str (or a path to a SQLite file), not {type(url).__name__}"
            )
        try:
            sa_url = make_url(url) if url else make_url("sqlite://")
        except ArgumentError:
            hint = f" (a SQLite file is sqlite:///{url})" if "://" not in (url or "") else ""
            raise StoreError(f"not a database URL: {redact_url(url or '')}{hint}") from None
        if sa_url.get_backend_name() not in ("sqlite", "postgresql"):
            raise StoreError(
                f"unsupported database {redact_url(sa_url)}: use sqlite:///path or "
                "postgresql+psycopg://..."
            )
        _check_sqlite_writable(sa_url)
        try:
            engine = _create_engine(sa_url)
        except (ArgumentError, ImportError) as exc:
            # the driver of the [postgresql] extra, missing: say how to get it
            hint = (
                f" ({install_hint('postgresql')})"
                if isinstance(exc, ImportError) and sa_url.get_backend_name() == "postgresql"
                else ""
            )
            raise StoreError(
                f"cannot open store at {redact_url(sa_url)}: {scrub(str(exc), sa_url)}{hint}"
            ) from None
        store = cls(engine, sa_url)
        try:
            store._run(
                lambda conn: ensure_schema(conn, where=_where(sa_url), create=create),
                write=True,
                what="open",
            )
        except BaseException:
            engine.dispose()
            raise
        return store

    @property
    def url(self) -> str:
        """The database URL with the password hidden."""
        return redact_url(self._url)

    @property
    def dialect(self) -> str:
        return self._dialect

    @property
    def engine(self) -> Engine:
        return self._engine

    def close(self) -> None:
        """Release the connections; the store is then unusable (a disposed engine would
        quietly reconnect, and writes after a close are a caller's bug to surface)."""
        self._closed = True
        self._engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self.url!r})"

    # -- site learning state --------------------------------------------------------

    def load_site(self, site: str, owner: str = "default") -> SiteSnapshot:
        """RC, line counts, templates and ``owner``'s batch of one site, as one snapshot."""
        return self._run(lambda conn: _load_site(conn, site, owner), write=False, what="load")

    def dated_articles(self, site: str, at_most: int) -> int:
        """How many of the site's stored articles have a publication date, counted up to
        ``at_most``: a crawl's evidence that the site dates its articles, which it would
        otherwise have to see again before it can tell its site pages from them."""

        def run(conn: Connection) -> int:
            dated = (
                select(_ARTICLES.c.id)
                .join(_SITES, _SITES.c.id == _ARTICLES.c.site_id)
                .where(_SITES.c.key == site, _ARTICLES.c.published.is_not(None))
                .limit(at_most)
                .subquery()
            )
            return int(conn.execute(select(func.count()).select_from(dated)).scalar_one())

        return self._run(run, write=False, what="load")

    def apply(self, delta: SiteDelta) -> int:
        """Apply one site's learned increments atomically; returns RC afterwards."""
        return self._run(lambda conn: _apply(conn, delta), write=True, what="apply")

    def commit_learning(
        self,
        deltas: Sequence[SiteDelta],
        visits: Sequence[PageVisit] = (),
        verdicts: Sequence[VerdictCount] = (),
    ) -> None:
        """Apply several sites' deltas, page visits and verdict counters in one transaction.

        What a learner flushes belongs together: a page's line counts and its fingerprint.
        A fingerprint is how a redelivered or re-crawled page is recognised as already
        counted, so committing the counts without it would count the page twice after a
        crash, and the fingerprint without the counts would lose it. Sites are applied in
        key order and pages in URL-hash order, so concurrent flushes take their row locks
        in one order (and a deadlock the server reports anyway is retried).
        """
        if not deltas and not visits and not verdicts:
            return

        def run(conn: Connection) -> None:
            for delta in sorted(deltas, key=lambda d: d.site):
                _apply(conn, delta)
            _add_verdicts(conn, verdicts)
            if visits:
                _record_visits(conn, visits)

        self._run(run, write=True, what="flush")

    def prune_lines(self, site: str, divisor: int = 100) -> int:
        """Delete the site's lines with LC <= RC / divisor; returns how many went."""

        def run(conn: Connection) -> int:
            row = conn.execute(
                select(_SITES.c.id, _SITES.c.pages_processed).where(_SITES.c.key == site)
            ).first()
            return 0 if row is None else _prune(conn, row[0], row[1], divisor)

        return self._run(run, write=True, what="prune")

    # -- page fingerprints ----------------------------------------------------------

    def record_fingerprints(
        self, visits: Sequence[PageVisit], verdicts: Sequence[VerdictCount] = ()
    ) -> dict[str, PageState]:
        """Count a visit per item; a hash unlike the stored one counts a change. Add the
        page filter's ``verdicts`` to the site's counters in the same transaction.

        Returns each URL's state after this call. Several visits of one URL in the batch
        are applied in their order. Verdicts share the transaction because a noise page is
        fingerprinted when it is judged: a committed fingerprint then means its verdict is
        counted too, which is what a redelivered page's "already counted?" check reads.
        """
        if not visits and not verdicts:
            return {}

        def run(conn: Connection) -> dict[str, PageState]:
            _add_verdicts(conn, verdicts)
            return _record_visits(conn, visits) if visits else {}

        return self._run(run, write=True, what="record")

    def verdict_counts(self, site: str | None = None) -> list[VerdictCount]:
        """The page filter's verdict counters of one site, or of every site."""
        return self._run(lambda conn: _verdict_counts(conn, site), write=False, what="report")

    def page_states(self, urls: Iterable[str]) -> dict[str, PageState]:
        """Stored state of the URLs that have one."""
        wanted = list(dict.fromkeys(urls))
        if not wanted:
            return {}
        return self._run(lambda conn: _page_states(conn, wanted), write=False, what="read")

    # -- articles -------------------------------------------------------------------

    def upsert_articles(self, articles: Sequence[ArticleRecord]) -> UpsertCounts:
        """Insert new URLs, rewrite those whose content hash changed, count the rest; a
        new URL whose ``identity`` an article of its site already has is left out and
        counted in ``duplicates`` (see :func:`_without_copies`).

        A text of which over :data:`DAMAGED_SHARE` is replacement characters (bytes no
        encoding could read) is stored for a new URL but never rewrites a stored one
        (``kept_damaged``): a page served broken on a re-crawl must not destroy what an
        earlier crawl read whole.
        """
        # a generator would be spent by the checks below and store nothing
        articles = list(articles)
        for article in articles:
            for name in ("published", "fetched_at"):
                value = getattr(article, name)
                if value is not None and value.utcoffset() is None:
                    raise ValueError(f"{name} of {article.url} must be timezone-aware")
        if not articles:
            return UpsertCounts()
        keyed = [replace(a, url=stored_url(a.url)) for a in articles]
        moved = {a.url: k.url for a, k in zip(articles, keyed, strict=True) if a.url != k.url}
        # an article's row moves to the URL that names itself its canonical one; its record
        # in this batch under the old URL, not yet written, goes
        taken = {stored_url(k.replaces): k.url for k in keyed if k.replaces}
        if taken:
            moved.update(taken)
            keyed = [k for k in keyed if k.url not in taken or k.replaces]

        def work(conn: Connection) -> UpsertCounts:
            _move_rows(conn, moved)
            return _upsert_articles(conn, keyed)

        return self._run(work, write=True, what="save")

    def article_texts(self, urls: Iterable[str]) -> dict[str, tuple[str | None, str]]:
        """(title, text) of the stored articles of the ``urls`` that have a row (keyed
        as given; :func:`stored_url` finds the row), for the crawl's end to filter again
        (:meth:`~scrapy_denoise.Denoiser.refilter`) and write back with :meth:`revise_texts`."""
        wanted = list(dict.fromkeys(urls))
        if not wanted:
            return {}
        return self._run(lambda conn: _article_texts(conn, wanted), write=False, what="read")

    def revise_texts(self, revisions: Sequence[tuple[str, str]]) -> list[str]:
        """Rewrite the text of stored articles, (URL, new text) each, where it differs; the
        URLs whose row changed. A URL with no row gets none: the crawl extracts its first
        pages again (:meth:`~scrapy_denoise.Denoiser.revisit`) whether or not a pipeline
        stored them, and a row it did not store, or deleted, stays so. The row's other
        columns, its identity among them (a hash of the text before site learning), stay."""
        revisions = list(revisions)
        if not revisions:
            return []

        def run(conn: Connection) -> list[str]:
            revised = []
            now = utcnow()
            for url, text in revisions:
                key = text_hash(stored_url(url))
                row = conn.execute(
                    select(_ARTICLES.c.title, _ARTICLES.c.text)
                    .where(_ARTICLES.c.url_hash == key)
                    .with_for_update()
                ).first()
                cleaned = _clean(text)
                if row is None or row.text == cleaned:
                    continue
                conn.execute(
                    update(_ARTICLES)
                    .where(_ARTICLES.c.url_hash == key)
                    .values(
                        text=cleaned,
                        content_hash=fit_hash(content_hash(row.title, text)),
                        updated_at=now,
                    )
                )
                revised.append(url)
            return revised

        return self._run(run, write=True, what="save")

    def withdraw_article(self, url: str) -> bool:
        """Delete the article stored under ``url`` (as :func:`stored_url` keys it), when
        there is one: a later visit judged the page no article. True if a row went."""

        def run(conn: Connection) -> bool:
            result = conn.execute(
                delete(_ARTICLES).where(_ARTICLES.c.url_hash == text_hash(stored_url(url)))
            )
            return bool(result.rowcount)

        return self._run(run, write=True, what="withdraw")

    # -- reports --------------------------------------------------------------------

    def site_summary(self, site: str, *, top_lines: int = 10) -> SiteSummary | None:
        found = self._run(
            lambda conn: _summaries(conn, [site], top_lines), write=False, what="report"
        )
        return found[0] if found else None

    def site_summaries(self, *, top_lines: int = 10) -> list[SiteSummary]:
        """Every site, most processed first."""
        return self._run(lambda conn: _summaries(conn, None, top_lines), write=False, what="report")

    # -- transactions ---------------------------------------------------------------

    def _run(self, work: Callable[[Connection], T], *, write: bool, what: str) -> T:
        if self._closed:
            raise StoreError(f"store {what} failed: the store at {self.url} is closed")
        for attempt in range(1, _ATTEMPTS + 1):
            try:
                with self._lock, self._begin(write) as conn:
                    return work(conn)
            except DBAPIError as exc:
                if attempt < _ATTEMPTS and _retryable(exc):
                    logger.debug("store %s: retrying after %s", what, type(exc.orig).__name__)
                    time.sleep(0.05 * attempt)
                    continue
                detail = scrub(f"{type(exc.orig).__name__}: {exc.orig}", self._url).strip()
                verb = "cannot open store" if what == "open" else f"store {what} failed"
                # A driver's connection error may echo connection details: keep it out of
                # the chain; later errors keep their cause (SQL, never the URL) for debugging.
                cause = None if what == "open" else exc
                error = StoreDataError if _refused_data(exc) and what != "open" else StoreError
                raise error(f"{verb} at {self.url}: {detail}") from cause
            except StatementError as exc:
                # Not a DBAPIError: SQLAlchemy could not even bind a value (a datetime
                # with no UTC equivalent raised in UTCDateTime), so nothing reached the
                # database and the same data fails the same way again. Its message holds
                # the statement's parameters, whole article texts: only the cause is told.
                detail = scrub(f"{type(exc.orig).__name__}: {exc.orig}", self._url).strip()
                raise StoreDataError(f"store {what} failed at {self.url}: {detail}") from exc
        raise AssertionError("unreachable")

    @contextmanager
    def _begin(self, write: bool) -> Iterator[Connection]:
        with self._engine.connect() as conn:
            if self._dialect == "sqlite":
                conn.execution_options(denoise_write=write)
            elif not write:
                # One snapshot for the several SELECTs of a read, as SQLite's WAL gives.
                conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                yield conn


# -- engine -------------------------------------------------------------------------


def _check_sqlite_writable(url: URL) -> None:
    """A SQLite file the process cannot write opens and reads fine, and fails on the first
    flush: a Denoiser ran a whole crawl's pages and lost what it learned at close. Every
    use of the store writes (the WAL journal beside the file, even to read)."""
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return
    if url.query.get("mode") == "memory" or str(url.database).startswith("file:"):
        return
    path = os.path.abspath(str(url.database))
    folder = os.path.dirname(path)
    # SQLite's own word for both is "unable to open database file".
    if os.path.isdir(path):
        raise StoreError(f"cannot open store at {redact_url(url)}: {path} is a folder, not a file")
    if not os.path.isdir(folder):
        raise StoreError(
            f"cannot open store at {redact_url(url)}: its folder {folder} does not exist"
        )
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise StoreError(f"cannot open store at {redact_url(url)}: the file is read-only")
    if not os.access(folder, os.W_OK):
        raise StoreError(
            f"cannot open store at {redact_url(url)}: its folder {folder} is read-only "
            "(SQLite writes its journal beside the file)"
        )


def _create_engine(url: URL) -> Engine:
    if url.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    memory = url.database in (None, "", ":memory:") or url.query.get("mode") == "memory"
    if memory:
        engine = create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
    else:
        engine = create_engine(
            url, connect_args={"timeout": _SQLITE_BUSY_MS / 1000, "check_same_thread": False}
        )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Hand transaction control to SQLAlchemy's begin event below: pysqlite's own
        # implicit BEGIN is deferred and skips DDL, which would break atomic migrations.
        dbapi_conn.isolation_level = None
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={_SQLITE_BUSY_MS}")
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # Writers take the write lock up front: a deferred transaction that reads and then
        # writes can fail with SQLITE_BUSY no busy_timeout waits out.
        write = conn.get_execution_options().get("denoise_write", True)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def _refused_data(exc: DBAPIError) -> bool:
    """The database refused a value (out of a column's range, a constraint broken), as
    opposed to failing to run the call: retrying the same rows cannot succeed."""
    return isinstance(exc, (DataError, IntegrityError))


def _retryable(exc: DBAPIError) -> bool:
    sqlstate = getattr(exc.orig, "sqlstate", None)
    if sqlstate in _RETRY_SQLSTATES:
        return True
    return "database is locked" in str(exc.orig)


def _insert(conn: Connection, table: Table) -> Any:
    """The dialect's INSERT, which has ``on_conflict_do_update`` and ``excluded``."""
    if conn.dialect.name == "postgresql":
        return postgresql.insert(table)
    if conn.dialect.name == "sqlite":
        return sqlite.insert(table)
    raise StoreError(f"unsupported database {conn.dialect.name!r}: use SQLite or PostgreSQL")


def _chunks(items: Sequence[T], size: int = 500) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _rounds(items: Sequence[T], key: Callable[[T], object]) -> list[list[T]]:
    """Split into rounds holding each key at most once, keeping per-key order, so one
    multi-row upsert never touches a row twice (PostgreSQL refuses that)."""
    rounds: list[list[T]] = []
    seen: dict[object, int] = defaultdict(int)
    for item in items:
        k = key(item)
        index = seen[k]
        seen[k] += 1
        if index == len(rounds):
            rounds.append([])
        rounds[index].append(item)
    return rounds


# -- sites --------------------------------------------------------------------------


def _site_ids(conn: Connection, keys: Collection[str]) -> dict[str, int]:
    wanted = sorted(set(keys))
    if not wanted:
        return {}
    stmt = _insert(conn, _SITES).on_conflict_do_nothing(index_elements=[_SITES.c.key])
    now = utcnow()
    conn.execute(stmt, [{"key": k, "pages_processed": 0, "created_at": now} for k in wanted])
    ids: dict[str, int] = {}
    for chunk in _chunks(wanted):
        ids.update(
            (key, site_id)
            for site_id, key in conn.execute(
                select(_SITES.c.id, _SITES.c.key).where(_SITES.c.key.in_(chunk))
            )
        )
    return ids


def _where(url: URL) -> str:
    """The database as messages name it: a SQLite file by its absolute path (a relative
    one is relative to wherever ``scrapy crawl`` ran, and a crawl started from another
    folder quietly writes a new database there), an in-memory one as such."""
    if url.get_backend_name() != "sqlite":
        return redact_url(url)
    database = url.database or ""
    if database in ("", ":memory:") or database.startswith("file::memory:"):
        return "an in-memory SQLite database"
    return f"sqlite:///{os.path.abspath(database)}"


def _load_site(conn: Connection, site: str, owner: str) -> SiteSnapshot:
    row = conn.execute(
        select(_SITES.c.id, _SITES.c.pages_processed).where(_SITES.c.key == site)
    ).first()
    if row is None:
        return SiteSnapshot(site, 0, {}, (), BatchState())
    site_id, rc = row
    lines = {
        bytes(h): int(c)
        for h, c in conn.execute(
            select(_LINES.c.line_hash, _LINES.c.count).where(_LINES.c.site_id == site_id)
        )
    }
    templates = tuple(
        TemplateText(tag, text, int(freq))
        for tag, text, freq in conn.execute(
            select(_TEMPLATES.c.tag, _TEMPLATES.c.text, _TEMPLATES.c.frequency)
            .where(_TEMPLATES.c.site_id == site_id)
            .order_by(_TEMPLATES.c.id)
        )
    )
    pages = conn.execute(
        select(_BATCHES.c.pages).where(_BATCHES.c.site_id == site_id, _BATCHES.c.owner == owner)
    ).scalar()
    entries = tuple(
        TemplateText(tag, text, int(freq))
        for tag, text, freq in conn.execute(
            select(_ENTRIES.c.tag, _ENTRIES.c.text, _ENTRIES.c.frequency)
            .where(_ENTRIES.c.site_id == site_id, _ENTRIES.c.owner == owner)
            .order_by(_ENTRIES.c.position)
        )
    )
    return SiteSnapshot(site, int(rc), lines, templates, BatchState(int(pages or 0), entries))


def _apply(conn: Connection, delta: SiteDelta) -> int:
    site_id = _site_ids(conn, [delta.site])[delta.site]
    # Always taken, even for n = 0: the row lock serialises one site's flushes, and taking
    # it first gives every writer the same lock order.
    rc = int(
        conn.execute(
            update(_SITES)
            .where(_SITES.c.id == site_id)
            .values(pages_processed=_SITES.c.pages_processed + delta.pages)
            .returning(_SITES.c.pages_processed)
        ).scalar_one()
    )
    _add_lines(conn, site_id, delta)
    _add_templates(conn, site_id, delta.templates)
    if delta.batch is not None:
        _replace_batch(conn, site_id, delta.owner, delta.batch)
    every = delta.prune_every
    if every and delta.pages > 0 and rc // every > (rc - delta.pages) // every:
        _prune(conn, site_id, rc, delta.prune_divisor)
    return rc


def _add_lines(conn: Connection, site_id: int, delta: SiteDelta) -> None:
    rows = [
        {
            "site_id": site_id,
            "line_hash": h,
            "count": n,
            "text": _cap(delta.line_texts.get(h)),
        }
        for h, n in sorted(delta.line_counts.items())
        if n
    ]
    if not rows:
        return
    ins = _insert(conn, _LINES)
    stmt = ins.on_conflict_do_update(
        index_elements=[_LINES.c.site_id, _LINES.c.line_hash],
        set_={
            "count": _LINES.c.count + ins.excluded.count,
            "text": func.coalesce(_LINES.c.text, ins.excluded.text),
        },
    )
    for chunk in _chunks(rows, 1000):
        conn.execute(stmt, list(chunk))


def _cap(text: str | None) -> str | None:
    return None if text is None else _clean(text[:LINE_TEXT_CHARS])


def _clean(text: str) -> str:
    """Text PostgreSQL accepts: no NUL, no lone surrogates (from undecodable bytes).

    Without this one odd page would make every later flush fail the same way.
    """
    if "\x00" in text:
        text = text.replace("\x00", "")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "replace").decode("utf-8")
    return text


def _opt(text: str | None, limit: int | None = None) -> str | None:
    return None if text is None else _clean(text[:limit] if limit else text)


def _add_templates(conn: Connection, site_id: int, templates: Sequence[TemplateText]) -> None:
    merged: dict[bytes, dict[str, Any]] = {}
    now = utcnow()
    for t in templates:
        tag, text_ = t.tag[:_TAG_CHARS], _clean(t.text)
        key = text_hash(tag, text_)
        row = merged.get(key)
        if row is None:
            merged[key] = {
                "site_id": site_id,
                "tag": tag,
                "text": text_,
                "key_hash": key,
                "frequency": t.frequency,
                "learned_at": now,
            }
        else:
            row["frequency"] += t.frequency
    if not merged:
        return
    ins = _insert(conn, _TEMPLATES)
    stmt = ins.on_conflict_do_update(
        index_elements=[_TEMPLATES.c.site_id, _TEMPLATES.c.key_hash],
        set_={"frequency": _TEMPLATES.c.frequency + ins.excluded.frequency},
    )
    conn.execute(stmt, [merged[k] for k in sorted(merged)])


def _replace_batch(conn: Connection, site_id: int, owner: str, batch: BatchState) -> None:
    conn.execute(delete(_ENTRIES).where(_ENTRIES.c.site_id == site_id, _ENTRIES.c.owner == owner))
    ins = _insert(conn, _BATCHES)
    conn.execute(
        ins.values(
            site_id=site_id, owner=owner, pages=batch.pages, updated_at=utcnow()
        ).on_conflict_do_update(
            index_elements=[_BATCHES.c.site_id, _BATCHES.c.owner],
            set_={"pages": ins.excluded.pages, "updated_at": ins.excluded.updated_at},
        )
    )
    rows = [
        {
            "site_id": site_id,
            "owner": owner,
            "position": i,
            "tag": e.tag[:_TAG_CHARS],
            "text": _clean(e.text),
            "key_hash": text_hash(e.tag[:_TAG_CHARS], _clean(e.text)),
            "frequency": e.frequency,
        }
        for i, e in enumerate(batch.entries)
    ]
    for chunk in _chunks(rows, 1000):
        conn.execute(_ENTRIES.insert(), list(chunk))


def _prune(conn: Connection, site_id: int, rc: int, divisor: int) -> int:
    result = conn.execute(
        delete(_LINES).where(_LINES.c.site_id == site_id, _LINES.c.count * divisor <= rc)
    )
    removed = int(result.rowcount or 0)
    if removed:
        logger.debug("pruned %d lines of site %d at RC=%d", removed, site_id, rc)
    return removed


# -- fingerprints -------------------------------------------------------------------


def _basis(column: Any) -> Any:
    """records.fingerprint_basis, in SQL."""
    n = FINGERPRINT_BASIS_CHARS
    return case((func.substr(column, n, 1) == ":", func.substr(column, 1, n)), else_="")


def _record_visits(conn: Connection, visits: Sequence[PageVisit]) -> dict[str, PageState]:
    site_ids = _site_ids(conn, [v.site for v in visits])
    now = utcnow()
    ins = _insert(conn, _PAGES)
    new_basis = _basis(_PAGES.c.content_hash) != _basis(ins.excluded.content_hash)
    stmt = ins.on_conflict_do_update(
        index_elements=[_PAGES.c.url_hash],
        set_={
            # records.comparable, in SQL: a visit that cannot be compared with the one
            # before counts neither as a visit nor as a change
            "visits": _PAGES.c.visits + case((new_basis, 0), else_=1),
            "changes": _PAGES.c.changes
            + case(
                (_PAGES.c.content_hash == ins.excluded.content_hash, 0),
                (new_basis, 0),
                else_=1,
            ),
            "content_hash": ins.excluded.content_hash,
            "last_seen": ins.excluded.last_seen,
            # a visit without lines (a noise page's) leaves the URL's counted lines
            "line_keys": func.coalesce(ins.excluded.line_keys, _PAGES.c.line_keys),
        },
    )
    for round_ in _rounds(visits, lambda v: v.url):
        rows: list[dict[str, Any]] = sorted(
            (
                {
                    "url": _clean(v.url),
                    "url_hash": text_hash(v.url),
                    "site_id": site_ids[v.site],
                    "content_hash": fit_hash(v.content_hash),
                    "visits": 1,
                    "changes": 0,
                    "first_seen": v.seen_at or now,
                    "last_seen": v.seen_at or now,
                    "line_keys": v.lines,
                }
                for v in round_
            ),
            key=lambda r: r["url_hash"],
        )
        for chunk in _chunks(rows):
            conn.execute(stmt, list(chunk))
    return _page_states(conn, list(dict.fromkeys(v.url for v in visits)))


def _add_verdicts(conn: Connection, verdicts: Sequence[VerdictCount]) -> None:
    if not verdicts:
        return
    site_ids = _site_ids(conn, [v.site for v in verdicts])
    merged: dict[tuple[int, bool, str, int], int] = defaultdict(int)
    for v in verdicts:
        if v.count:
            reason = _clean(v.reason[:_REASON_CHARS])
            # clamped like score_bucket(): a caller's stray bucket must not fail the flush
            bucket = min(max(v.score_bucket, 0), SCORE_BUCKETS - 1)
            merged[(site_ids[v.site], v.is_noise, reason, bucket)] += v.count
    if not merged:
        return
    ins = _insert(conn, _VERDICTS)
    stmt = ins.on_conflict_do_update(
        index_elements=[
            _VERDICTS.c.site_id,
            _VERDICTS.c.is_noise,
            _VERDICTS.c.reason,
            _VERDICTS.c.score_bucket,
        ],
        set_={"count": _VERDICTS.c.count + ins.excluded.count},
    )
    conn.execute(
        stmt,
        [
            {"site_id": s, "is_noise": noise, "reason": r, "score_bucket": b, "count": n}
            for (s, noise, r, b), n in sorted(merged.items())
        ],
    )


def _verdict_counts(conn: Connection, site: str | None) -> list[VerdictCount]:
    query = (
        select(
            _SITES.c.key,
            _VERDICTS.c.is_noise,
            _VERDICTS.c.reason,
            _VERDICTS.c.score_bucket,
            _VERDICTS.c.count,
        )
        .join(_SITES, _SITES.c.id == _VERDICTS.c.site_id)
        .order_by(_SITES.c.key, _VERDICTS.c.is_noise, _VERDICTS.c.reason, _VERDICTS.c.score_bucket)
    )
    if site is not None:
        query = query.where(_SITES.c.key == site)
    return [
        VerdictCount(key, bool(noise), reason, int(bucket), int(n))
        for key, noise, reason, bucket, n in conn.execute(query)
    ]


def _page_states(conn: Connection, urls: Sequence[str]) -> dict[str, PageState]:
    by_hash = {text_hash(u): u for u in urls}
    states: dict[str, PageState] = {}
    for chunk in _chunks(sorted(by_hash)):
        for h, ch, visits, changes, keys in conn.execute(
            select(
                _PAGES.c.url_hash,
                _PAGES.c.content_hash,
                _PAGES.c.visits,
                _PAGES.c.changes,
                _PAGES.c.line_keys,
            ).where(_PAGES.c.url_hash.in_(chunk))
        ):
            lines = None if keys is None else bytes(keys)
            states[by_hash[bytes(h)]] = PageState(ch, int(visits), int(changes), lines)
    return states


# -- articles -----------------------------------------------------------------------


def _article_texts(conn: Connection, urls: Sequence[str]) -> dict[str, tuple[str | None, str]]:
    by_hash = {text_hash(stored_url(u)): u for u in urls}
    found: dict[str, tuple[str | None, str]] = {}
    for chunk in _chunks(sorted(by_hash)):
        for h, title, text in conn.execute(
            select(_ARTICLES.c.url_hash, _ARTICLES.c.title, _ARTICLES.c.text).where(
                _ARTICLES.c.url_hash.in_(chunk)
            )
        ):
            found[by_hash[bytes(h)]] = (title, text)
    return found


def _move_rows(conn: Connection, moved: dict[str, str]) -> None:
    """Move rows, old URL -> new, unless a row is at the new URL already: rows stored
    under a URL :func:`stored_url` now cuts (before it did), when the cut URL is written
    to (otherwise an edited page re-crawled under its old URL became a second row beside
    its stale first), and an article's row to the URL that names itself its canonical one
    (``ArticleRecord.replaces``)."""
    for old, new in sorted(moved.items()):
        taken = select(_ARTICLES.c.url_hash).where(_ARTICLES.c.url_hash == text_hash(new))
        conn.execute(
            update(_ARTICLES)
            .where(_ARTICLES.c.url_hash == text_hash(old), ~taken.exists())
            .values(url=_clean(new), url_hash=text_hash(new))
        )


#: the columns a rewrite keeps when the new visit has no value (see _upsert_articles)
_KEPT_WHEN_MISSING = frozenset({"title", "published", "author", "lang"})


def _rewritten(name: str) -> Any:
    """A rewrite's new value of column ``name``: the visit's, or the stored one where the
    visit has none and the column is one of :data:`_KEPT_WHEN_MISSING`."""
    value = bindparam(f"b_{name}", type_=_ARTICLES.c[name].type)
    return func.coalesce(value, _ARTICLES.c[name]) if name in _KEPT_WHEN_MISSING else value


def _upsert_articles(conn: Connection, articles: Sequence[ArticleRecord]) -> UpsertCounts:
    site_ids = _site_ids(conn, [a.site for a in articles])
    # Damaged texts of stored URLs are set aside first: the copy check takes a stored URL
    # with a new identity to be rewritten, and lets the old identity go to another URL.
    articles, kept_damaged = _without_damaged_rewrites(conn, articles)
    kept = _without_copies(conn, articles, site_ids)
    duplicates = len(articles) - len(kept)
    articles = kept
    inserted = updated = unchanged = 0
    now = utcnow()
    ins = _insert(conn, _ARTICLES)
    insert_new = ins.on_conflict_do_nothing(index_elements=[_ARTICLES.c.url_hash]).returning(
        _ARTICLES.c.url_hash
    )
    # A rewrite keeps the stored title, date, author and language where the new visit found
    # none: a visit that misses them (a page served damaged, a changed layout) must not
    # erase what an earlier one read. A value found replaces the stored one.
    rewrite = (
        update(_ARTICLES)
        .where(_ARTICLES.c.url_hash == bindparam("b_url_hash", type_=_ARTICLES.c.url_hash.type))
        .values(
            {
                name: _rewritten(name)
                for name in (
                    "site_id",
                    "title",
                    "text",
                    "published",
                    "author",
                    "lang",
                    "fetched_at",
                    "updated_at",
                    "content_hash",
                    "identity_hash",
                )
            }
        )
    )
    # An unchanged article read under an identity it did not have (stored before identities,
    # or by a core that did not extract it) gets it: it is then found as the original.
    reidentify = (
        update(_ARTICLES)
        .where(_ARTICLES.c.url_hash == bindparam("b_url_hash", type_=_ARTICLES.c.url_hash.type))
        .values(identity_hash=bindparam("b_identity_hash", type_=_ARTICLES.c.identity_hash.type))
    )
    for round_ in _rounds(articles, lambda a: a.url):
        rows = sorted(
            (_article_row(a, site_ids[a.site], now) for a in round_),
            key=lambda r: r["url_hash"],
        )
        for chunk in _chunks(rows):
            new = {bytes(h) for (h,) in conn.execute(insert_new, list(chunk))}
            inserted += len(new)
            rest = {r["url_hash"]: r for r in chunk if r["url_hash"] not in new}
            if not rest:
                continue
            stored = {
                bytes(h): (ch, None if ih is None else bytes(ih))
                for h, ch, ih in conn.execute(
                    select(
                        _ARTICLES.c.url_hash, _ARTICLES.c.content_hash, _ARTICLES.c.identity_hash
                    )
                    .where(_ARTICLES.c.url_hash.in_(sorted(rest)))
                    .order_by(_ARTICLES.c.url_hash)
                    .with_for_update()
                )
            }
            changed: list[dict[str, Any]] = []
            identified: list[dict[str, Any]] = []
            damaged = 0
            for h, row in sorted(rest.items()):
                content, identity = stored.get(h, (None, None))
                if content != row["content_hash"] and _damaged(row["text"]):
                    # stored by another process since _without_damaged_rewrites looked: the
                    # row lock taken above is what makes "never rewrites" hold
                    damaged += 1
                elif content != row["content_hash"]:
                    changed.append({f"b_{k}": v for k, v in row.items() if k != "url"})
                elif row["identity_hash"] not in (None, identity):
                    identified.append({"b_url_hash": h, "b_identity_hash": row["identity_hash"]})
            if changed:
                conn.execute(rewrite, changed)
            if identified:
                conn.execute(reidentify, identified)
            updated += len(changed)
            kept_damaged += damaged
            unchanged += len(rest) - len(changed) - damaged
    return UpsertCounts(inserted, updated, unchanged, duplicates, kept_damaged)


def _without_damaged_rewrites(
    conn: Connection, articles: Sequence[ArticleRecord]
) -> tuple[list[ArticleRecord], int]:
    """The articles but those whose text is damaged and whose URL is stored (left as it
    is), and how many were left out."""
    damaged = {i: text_hash(a.url) for i, a in enumerate(articles) if _damaged(a.text)}
    if not damaged:
        return list(articles), 0
    stored = {
        bytes(h)
        for chunk in _chunks(sorted(set(damaged.values())))
        for (h,) in conn.execute(
            select(_ARTICLES.c.url_hash).where(_ARTICLES.c.url_hash.in_(list(chunk)))
        )
    }
    kept = [a for i, a in enumerate(articles) if damaged.get(i) not in stored]
    return kept, len(articles) - len(kept)


def stored_url(url: str) -> str:
    """The URL an article is stored under: its own, but for a final directory index file
    (``/post/index.html`` is ``/post/``), which names the same page on every server, and
    without the query parameters that only say where a reader came from (``utm_source``,
    ``fbclid``, ...: :mod:`~scrapy_denoise.tracking`). A crawl that met a story first through
    a newsletter's redirect to ``story.html?utm_source=mail`` stored that URL and dropped
    the clean one as its copy.

    Met under both, one article was two rows once edited: the alias, crawled first, was
    taken for a copy of the stored row while the text was the same, so the real URL was
    dropped as the copy of the alias; once the text changed, the alias was a new row and
    the real one kept the old text.
    """
    parts = urlsplit(url)
    path = DIRECTORY_INDEX.sub("/", parts.path)
    query = without_tracking(parts.query)
    if path == parts.path and query == parts.query:
        return url
    return urlunsplit(parts._replace(path=path, query=query))


def _damaged(text: str) -> bool:
    return text.count("\ufffd") > DAMAGED_SHARE * len(text)


def _without_copies(
    conn: Connection, articles: Sequence[ArticleRecord], site_ids: dict[str, int]
) -> list[ArticleRecord]:
    """The articles that are not copies: a new URL whose identity an article of its site
    already has, stored or earlier in this batch, is left out. A stored URL is always
    kept (it is rewritten or counted unchanged as before).

    The check and the insert must not interleave with another process's: on PostgreSQL
    the sites' identities are locked for the transaction (an advisory lock per site,
    taken in site order so two writers cannot deadlock); SQLite's write transactions
    (``BEGIN IMMEDIATE``) already run one at a time.
    """
    keyed = [
        (i, site_ids[a.site], _identity_bytes(a.identity))
        for i, a in enumerate(articles)
        if a.identity
    ]
    if not keyed:
        return list(articles)
    sites = sorted({site_id for _, site_id, _ in keyed})
    if conn.dialect.name == "postgresql":
        # One statement; PostgreSQL calls a volatile function after sorting the rows.
        site = func.unnest(postgresql.array(sites, type_=Integer)).column_valued("site_id")
        conn.execute(select(func.pg_advisory_xact_lock(_IDENTITY_LOCK_SPACE, site)).order_by(site))
    url_hashes = {i: text_hash(articles[i].url) for i, _, _ in keyed}
    incoming = {url_hashes[i]: identity for i, _, identity in keyed}  # a URL's last
    identities = sorted({identity for _, _, identity in keyed})
    urls = sorted(set(url_hashes.values()))
    first: dict[tuple[int, bytes], bytes] = {}
    stored_urls: set[bytes] = set()
    columns = (_ARTICLES.c.site_id, _ARTICLES.c.identity_hash, _ARTICLES.c.url_hash)
    # Both lists are at most a batch long; a batch of over 500 is read in steps.
    for identity_chunk, url_chunk in zip_longest(_chunks(identities), _chunks(urls), fillvalue=()):
        rows = conn.execute(
            select(*columns).where(
                or_(
                    _ARTICLES.c.identity_hash.in_(identity_chunk),
                    _ARTICLES.c.url_hash.in_(url_chunk),
                )
            )
        )
        # Every row is a stored URL, and the owner of its identity, unless this batch
        # rewrites it with another article (its identity is then left without a row).
        for site_id, raw_identity, raw_url_hash in rows:
            url_hash = bytes(raw_url_hash)
            stored_urls.add(url_hash)
            if raw_identity is None:
                continue
            identity = bytes(raw_identity)
            if incoming.get(url_hash, identity) == identity:
                first.setdefault((site_id, identity), url_hash)
    copies: set[int] = set()
    for i, site_id, identity in keyed:
        url_hash = url_hashes[i]
        owner = first.setdefault((site_id, identity), url_hash)
        if owner != url_hash and url_hash not in stored_urls:
            copies.add(i)
    return [a for i, a in enumerate(articles) if i not in copies]


def _article_row(a: ArticleRecord, site_id: int, now: Any) -> dict[str, Any]:
    return {
        "url": _clean(a.url),
        "url_hash": text_hash(a.url),
        "site_id": site_id,
        "title": _opt(a.title),
        "text": _clean(a.text),
        "published": a.published,
        "author": _opt(a.author),
        "lang": _opt(a.lang, _LANG_CHARS),
        "fetched_at": a.fetched_at or now,
        "updated_at": now,
        "content_hash": fit_hash(a.content_hash or content_hash(a.title, a.text)),
        "identity_hash": _identity_bytes(a.identity) if a.identity else None,
    }


def _identity_bytes(identity: str) -> bytes:
    """The stored form of an article identity: 32 hex digits (``Article.identity``) as
    their 16 bytes, any other string by its hash."""
    if len(identity) == 2 * HASH_BYTES:
        try:
            return bytes.fromhex(identity)
        except ValueError:
            pass
    return text_hash(identity)


# -- reports ------------------------------------------------------------------------


def _summaries(conn: Connection, keys: Sequence[str] | None, top: int) -> list[SiteSummary]:
    def per_site(table: Table) -> Any:
        return (
            select(func.count())
            .select_from(table)
            .where(table.c.site_id == _SITES.c.id)
            .scalar_subquery()
        )

    query = select(
        _SITES.c.id,
        _SITES.c.key,
        _SITES.c.pages_processed,
        per_site(_ARTICLES),
        per_site(_TEMPLATES),
        per_site(_PAGES),
    ).order_by(_SITES.c.pages_processed.desc(), _SITES.c.key)
    if keys is not None:
        query = query.where(_SITES.c.key.in_(keys))
    summaries = []
    for site_id, key, rc, n_articles, n_templates, n_pages in conn.execute(query).all():
        lines = tuple(
            LineCount(int(c), t)
            for c, t in conn.execute(
                select(_LINES.c.count, _LINES.c.text)
                .where(_LINES.c.site_id == site_id)
                .order_by(_LINES.c.count.desc(), _LINES.c.line_hash)
                .limit(top)
            )
        )
        summaries.append(
            SiteSummary(key, int(rc), int(n_articles), int(n_templates), int(n_pages), lines)
        )
    return summaries
