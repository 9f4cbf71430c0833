"""Per-site learning: template library, line statistics and page fingerprints over a Store
(plus the page filter's verdict counters, written with the fingerprints).

:class:`SiteLearner` keeps each site's state in memory (loaded lazily from the store, one
snapshot read), applies the methods to pages, and writes what it learned back as additive
deltas every ``flush_every`` pages and on :meth:`SiteLearner.close`. Between flushes the
local view is "store snapshot + unflushed local deltas", so counts are right within the
process; after a flush the cached sites are dropped and re-read on next use, which is how
one process sees what the others learned.

A flush is one transaction (every site's RC, line counts, new templates and this owner's
batch cache, with the pages' fingerprints and verdict counters), so a process killed at any
moment leaves the store consistent: RC always matches the line counts and the batch cache,
and a page is fingerprinted exactly when its counts are in (which is how a redelivered page
is known to be counted already). What was learned since the last flush is lost with the
process; nothing committed is.

The flush is triggered at the *start* of a learning call once ``flush_every`` pages are
pending, so with the usual per-page call order (templates, lines, fingerprint) a flush
never splits a page.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import TracebackType
from urllib.parse import urlsplit

from .article_lines import key_int
from .methods.linestats import (
    MAX_TAUGHT,
    SHORT_KEY_BYTES,
    LineParams,
    SiteLines,
    keep_limit,
    keyed_lines,
    pack_keys,
    short_key,
    unpack_keys,
)
from .methods.template import Entry, SiteTemplates, TemplateParams, Unit
from .page.links import MIN_DATED, LinkCount, LinkIndex
from .page.listing import ListingIndex
from .page.rules import PageHistory
from .page.verdict import PageVerdict
from .store import (
    BatchState,
    PageState,
    PageVisit,
    SiteDelta,
    Store,
    StoreError,
    TemplateText,
    VerdictCount,
    comparable,
    fit_hash,
    score_bucket,
    text_hash,
)
from .store.schema import utcnow

__all__ = ["SiteLearner", "site_key", "site_key_for"]

logger = logging.getLogger(__name__)

_DEFAULT_PORTS = {"http": 80, "https": 443}
_OWNER_CHARS = 200  # template_batches.owner
# Page-history reads cached between flushes; bounded for runs that classify but never learn.
_READ_CACHE_MAX = 10_000
# Article pages remembered for spotting one article under a second URL, oldest forgotten
# first: at most about 4 MB (20,000 entries of 80-character URLs), whatever the crawl's
# length. The variants of a URL (``?replytocom=``, ``?utm_source=``, ``/index.html``) are
# mostly links on the page itself, met soon after it.
_CONTENTS_MAX = 20_000
# Unsigned pages remembered per site for the crawl's last look (SiteLearner.note_unsigned):
# a site's own pages are tens, an undated site's every page would be more.
_UNSIGNED_MAX = 2_000
_UNSIGNED_TOTAL_MAX = 50_000


@dataclass(slots=True)
class _SiteState:
    templates: SiteTemplates
    lines: SiteLines


class SiteLearner:
    """Learns each site's common noise from its pages and removes it from later pages.

    ``owner`` names this process's template batch: processes learning the same site
    concurrently need different owners (each keeps its own batch cache S), while a
    restarted process should reuse its owner to resume its half-full batch.
    ``site_prefixes`` are URL prefixes (``"https://portal.example/news/"``) that are sites
    of their own instead of their scheme + host.
    """

    def __init__(
        self,
        store: Store,
        *,
        owner: str = "default",
        templates: TemplateParams | None = None,
        lines: LineParams | None = None,
        flush_every: int = 50,
        site_prefixes: Iterable[str] = (),
    ) -> None:
        if flush_every < 1:
            raise ValueError("flush_every must be at least 1")
        if not owner or len(owner) > _OWNER_CHARS:
            raise ValueError(f"owner must be 1 to {_OWNER_CHARS} characters")
        self.store = store
        self.owner = owner
        self.template_params = templates or TemplateParams()
        self.line_params = lines or LineParams()
        self.flush_every = flush_every
        self._prefixes = _parse_prefixes(site_prefixes)
        self._lock = threading.RLock()
        self._sites: dict[str, _SiteState] = {}
        self._visits: list[PageVisit] = []
        # URL -> state after this process's unflushed visits, or as read from the store
        self._pages: dict[str, PageState | None] = {}
        # (site, is_noise, reason, score bucket) -> pages judged so since the last flush
        self._verdicts: Counter[tuple[str, bool, str, int]] = Counter()
        # where the pages seen so far link to, and each site's evidence of dated articles:
        # this process's memory only (see .page.links)
        self._links = LinkIndex()
        self._dated: Counter[str] = Counter()
        # site -> URLs of the pages that passed the filter with neither date nor author,
        # in the order met (see note_unsigned)
        self._unsigned: dict[str, dict[str, None]] = {}
        self._unsigned_count = 0
        # the titles and lines of the pages that passed the filter (see note_passed)
        self._listings = ListingIndex()
        # digest of (site, identity) -> the URL the article was met under first, oldest
        # first, and whether that page named itself its canonical URL
        self._contents: dict[bytes, tuple[str, bool]] = {}
        # pages learned per kind since the last flush (attempt)
        self._template_pages = 0
        self._line_pages = 0
        self._visit_pages = 0
        # a page's templates or lines were counted and its fingerprint is not recorded yet:
        # a flush now would commit its counts without the fingerprint that marks it counted
        self._page_open = False
        # the lines filter_lines was last given and their keys, for record_fingerprint
        self._page_keys: tuple[Sequence[str], list[tuple[bytes, str] | None]] | None = None

    # -- sites --------------------------------------------------------------------------

    def site_key(self, url: str) -> str:
        """The site a URL belongs to: the longest matching configured prefix, else
        ``scheme://host[:port]`` lower-cased with the default port dropped."""
        return site_key(url, self._prefixes)

    # -- templates ----------------------------------------------------------------------

    def learn_templates(self, site: str, units: Sequence[Unit]) -> int:
        """Count a page's units (:func:`~.methods.template.page_units`) in the site's
        batch; returns how many entries the batch this page closed promoted (new templates
        and known ones strengthened; 0 mid-batch)."""
        with self._lock:
            if self._template_pages >= self.flush_every:
                self._auto_flush()
            made = self._site(site).templates.learn(units)
            self._template_pages += 1
            self._page_open = True
            if made:
                logger.debug(
                    "site %s: a batch promoted %d templates (new, or known ones strengthened)",
                    site,
                    made,
                )
            return made

    def match_templates(self, site: str, units: Sequence[Unit]) -> list[Unit]:
        """The page's units that are the site's common noise (site-wide templates)."""
        with self._lock:
            return self._site(site).templates.matches(units)

    # -- line statistics ----------------------------------------------------------------

    def filter_lines(
        self, site: str, lines: Sequence[str], learn: bool = True, *, url: str | None = None
    ) -> list[str]:
        """The lines that are not site noise; with ``learn`` the page is counted first.

        Given the page's ``url``, only its first visit counts it as a page; a later one
        counts the lines it gained since the lines its URL counted (a visit recorded without
        them, a noise page's or one from before schema 0004, counts nothing and records
        them). Without ``url`` the page is counted as new.
        """
        with self._lock:
            # Revisits count here but not in the template batch, so this counter can run
            # ahead of that one: with a new page's templates counted (page open), the flush
            # waits for its fingerprint, as in record_fingerprint.
            if learn and self._line_pages >= self.flush_every and not self._page_open:
                self._auto_flush()
            stats = self._site(site).lines
            taught = None
            if learn and url is not None:
                before = self._page_state(url)
                if before is not None:
                    if before.lines is None:
                        learn = False  # recorded without its lines: this visit records them
                    else:
                        taught = unpack_keys(before.lines)
                        # a URL that has counted MAX_TAUGHT lines counts no more (its set
                        # is kept whole, so no line of it can be counted twice)
                        learn = len(taught) < MAX_TAUGHT
            keyed = keyed_lines(lines, self.line_params)
            self._page_keys = (lines, keyed)
            kept = stats.filter(lines, learn, taught=taught, keyed=keyed)
            if learn:
                self._line_pages += 1
                self._page_open = True
                every = self.line_params.prune_every
                if taught is None and every and stats.pages_processed % every == 0:
                    stats.prune()
            return kept

    # -- duplicates -----------------------------------------------------------------------

    def first_url(
        self, site: str, identity: str, url: str, *, canonical: bool = False
    ) -> str | None:
        """The URL this process first met the article ``identity`` under on ``site``, when
        that is not ``url``: the page is that article again under another address. None
        otherwise, and ``url`` is remembered as the identity's first (``canonical``: the
        page names itself its canonical URL). This process's memory only, like the links
        (see :meth:`record_links`); the store checks the identities of the articles it
        stores."""
        key = text_hash(site, identity)
        with self._lock:
            contents = self._contents
            first = contents.get(key)
            if first is None:
                contents[key] = (url, canonical)
                if len(contents) > _CONTENTS_MAX:
                    del contents[next(iter(contents))]
                return None
            return None if first[0] == url else first[0]

    def take_over(self, site: str, identity: str, url: str) -> bool:
        """Make ``url``, a page that names itself its canonical URL, the article
        ``identity``'s first URL in place of one met before that did not; False (nothing
        changes) when the first named itself too, or is ``url``."""
        key = text_hash(site, identity)
        with self._lock:
            first = self._contents.get(key)
            if first is None or first[1] or first[0] == url:
                return False
            self._contents[key] = (url, True)
            return True

    # -- page fingerprints --------------------------------------------------------------

    def record_fingerprint(
        self, url: str, site: str, content_hash: str, lines: Sequence[str] | None = None
    ) -> PageHistory:
        """Count a visit of ``url`` whose main content hashes to ``content_hash``.

        Any string identifying the content works; strings over 64 characters are hashed.
        A visit is compared with the one before only when both hashes start with the same
        basis (:func:`~.store.comparable`); one that is not is not counted, only kept as
        the hash the next visit is compared with. ``lines`` (those given to
        :meth:`filter_lines`) join the lines the URL has taught, which its next visits do
        not count again. Returns the URL's history including this visit.
        """
        content_hash = fit_hash(content_hash)
        with self._lock:
            # Noise pages are fingerprinted too, so this counter runs ahead of the others:
            # with a page's counts pending (the usual order is templates, lines,
            # fingerprint), the flush waits until its fingerprint is in, or a process
            # killed before the next flush had its counts committed without it and counted
            # the page again on its next visit.
            due = self._visit_pages >= self.flush_every
            if due and not self._page_open:
                self._auto_flush()
                due = False
            before = self._page_state(url)
            taught = None
            if lines is not None:
                taught = self._taught(before, lines)
            elif before is not None:
                taught = before.lines
            if before is None:
                after = PageState(content_hash, 1, 0, taught)
            else:
                if comparable(before.content_hash, content_hash):
                    changed = int(before.content_hash != content_hash)
                    after = PageState(
                        content_hash, before.visits + 1, before.changes + changed, taught
                    )
                else:
                    # not comparable: not counted as a visit either, or the visit would
                    # widen the gap the rule measures for good (see comparable)
                    after = PageState(content_hash, before.visits, before.changes, taught)
            self._pages[url] = after
            self._visits.append(
                PageVisit(url, site, content_hash, utcnow(), taught if lines is not None else None)
            )
            self._visit_pages += 1
            self._page_open = False
            if due:
                self._auto_flush()
            return PageHistory(after.visits, after.changes)

    def _taught(self, before: PageState | None, lines: Sequence[str]) -> bytes:
        """The URL's taught lines after this visit, packed: the ones before and these (the
        keys :meth:`filter_lines` computed for these ``lines``, if it was given them)."""
        old = None if before is None else before.lines
        if old is not None and len(old) >= MAX_TAUGHT * SHORT_KEY_BYTES:
            return old  # counts nothing more (filter_lines): nothing to add
        computed, self._page_keys = self._page_keys, None
        if computed is not None and computed[0] is lines:
            keyed = computed[1]
        else:
            keyed = keyed_lines(lines, self.line_params)
        short = {short_key(pair[0]) for pair in keyed if pair is not None}
        if old:
            short |= unpack_keys(old)
        return pack_keys(short)

    # -- links --------------------------------------------------------------------------

    def record_links(
        self, navigation: Iterable[str], content: Iterable[str], *, home: bool = False
    ) -> None:
        """Count one page's links to its own host (:func:`~.page.links.outgoing_links`);
        ``home``: the page is a home page (:meth:`~.page.links.LinkIndex.add`)."""
        with self._lock:
            self._links.add(navigation, content, home=home)

    def links_to(self, url: str) -> LinkCount | None:
        """How the pages seen so far link to ``url``; ``None`` when none does."""
        with self._lock:
            return self._links.get(url)

    def note_unsigned(self, url: str, site: str) -> None:
        """Remember a page that passed the page filter with neither date nor author: a site
        page, if the links of the pages after it say so (:meth:`unsigned_pages`). At most
        :data:`_UNSIGNED_MAX` per site: a site whose dates are never found makes every page
        one, and none of them can be judged; at most :data:`_UNSIGNED_TOTAL_MAX` in all, as
        the link index that judges them is bounded (a broad crawl of many sites)."""
        with self._lock:
            if self._unsigned_count >= _UNSIGNED_TOTAL_MAX:
                return
            pages = self._unsigned.setdefault(site, {})
            if len(pages) < _UNSIGNED_MAX and url not in pages:
                pages[url] = None
                self._unsigned_count += 1

    def unsigned_pages(self) -> list[tuple[str, str]]:
        """The (URL, site) pairs :meth:`note_unsigned` remembered, in the order met."""
        with self._lock:
            return [(url, site) for site, pages in self._unsigned.items() for url in pages]

    def note_passed(
        self,
        url: str,
        site: str,
        title: str | None,
        lines: Sequence[str],
        *,
        judge: bool = True,
    ) -> None:
        """Remember a page extracted as an article: its title, and its lines, which may be
        the titles of the site's other articles (:meth:`listings`); with ``judge=False``
        the page is never judged a listing itself."""
        with self._lock:
            self._listings.add(url, site, title, lines, judge=judge)

    def revise_passed(self, url: str, site: str, lines: Sequence[str]) -> None:
        """Judge a page :meth:`note_passed` remembered by ``lines``, its text extracted
        again (:meth:`.page.listing.ListingIndex.revise`)."""
        with self._lock:
            self._listings.revise(url, site, lines)

    def listings(self) -> list[tuple[str, str]]:
        """(URL, site) of the pages :meth:`note_passed` remembered whose lines list the
        titles of the site's other articles (:mod:`.page.listing`), in the order met."""
        with self._lock:
            return self._listings.listings()

    def count_dated(self, site: str, n: int = 1) -> None:
        """Count evidence that the site's articles carry dates: its pages that passed the
        page filter with a date, its links from content to URLs with a date."""
        with self._lock:
            self._dated_site(site)
            self._dated[site] += n

    def noise_line_keys(self, site: str) -> frozenset[int]:
        """The keys (:func:`~.article_lines.key_int`) of the lines the site's line
        statistics remove now, this process's counts and the store's as of the last flush."""
        with self._lock:
            lines = self._site(site).lines
            limit = keep_limit(lines.pages_processed, lines.params)
            return frozenset(key_int(k) for k, n in lines.counts.items() if n > limit)

    def pages_learned(self, site: str) -> int:
        """The pages the site's line statistics have counted (RC), this process's and the
        store's."""
        with self._lock:
            return self._site(site).lines.pages_processed

    def dated(self, site: str) -> int:
        """:meth:`count_dated`'s count for the site so far, starting from its stored
        articles with a date (up to :data:`MIN_DATED`, read once per site). Without them
        every crawl of a site starts from nothing, and stores again the about and policy
        pages its footer links to: Scrapy fetches a page's last links first, footers come
        last, and so those pages are fetched before three dated articles have been."""
        with self._lock:
            return self._dated_site(site)

    def _dated_site(self, site: str) -> int:
        if site not in self._dated:
            self._dated[site] = self.store.dated_articles(site, MIN_DATED)
        return self._dated[site]

    def count_verdict(self, site: str, verdict: PageVerdict) -> None:
        """Count the page filter's verdict on one of the site's pages; written with the
        next flush (a counter per site, reason and score bucket: it never grows with the
        crawl, so it does not trigger a flush of its own)."""
        key = (site, verdict.is_noise, verdict.reason, score_bucket(verdict.score))
        with self._lock:
            self._verdicts[key] += 1

    def page_history(self, url: str) -> PageHistory | None:
        """Visits and content changes of ``url`` so far, ``None`` if never recorded."""
        with self._lock:
            state = self._page_state(url)
            return None if state is None else PageHistory(state.visits, state.changes)

    def prefetch_page_histories(self, urls: Iterable[str]) -> None:
        """Read the stored state of the ``urls`` not cached yet, in one query.

        :meth:`page_history` reads one URL per query, and in a crawl nearly every URL is
        new, so without this each page paid one database round trip (4 ms of wall time per
        page in the ``bench crawl`` breakdown). The core's crawl worker passes the URLs of
        the responses waiting for it; what is read is cached like a single read
        (until the next flush).
        """
        with self._lock:
            wanted = [u for u in dict.fromkeys(urls) if u not in self._pages]
            if not wanted:
                return
            if len(self._pages) + len(wanted) > _READ_CACHE_MAX and not self._visits:
                self._pages.clear()
            found = self.store.page_states(wanted)
            for url in wanted:
                self._pages[url] = found.get(url)

    # -- persistence --------------------------------------------------------------------

    def flush(self) -> None:
        """Write everything learned since the last flush."""
        with self._lock:
            self._flush()

    def close(self) -> None:
        """Flush; the store stays open (it belongs to whoever opened it)."""
        self.flush()

    def __enter__(self) -> SiteLearner:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _site(self, site: str) -> _SiteState:
        state = self._sites.get(site)
        if state is None:
            snap = self.store.load_site(site, self.owner)
            params = self.template_params
            state = _SiteState(
                SiteTemplates(
                    params,
                    (Entry(t.tag, t.text, t.frequency) for t in snap.templates),
                    snap.batch.pages,
                    (Entry(e.tag, e.text, e.frequency) for e in snap.batch.entries),
                ),
                SiteLines(self.line_params, snap.pages_processed, snap.line_counts),
            )
            self._sites[site] = state
        return state

    def _page_state(self, url: str) -> PageState | None:
        if url in self._pages:
            return self._pages[url]
        if len(self._pages) >= _READ_CACHE_MAX and not self._visits:
            self._pages.clear()
        state = self.store.page_states([url]).get(url)
        self._pages[url] = state
        return state

    def _auto_flush(self) -> None:
        try:
            self._flush()
        except StoreError as exc:
            # A database blip must not stop the crawl: the deltas stay in memory and the
            # next flush point retries them (explicit flush() and close() do raise).
            logger.warning(
                "could not write learned state (retrying in %d pages): %s", self.flush_every, exc
            )
            self._template_pages = self._line_pages = self._visit_pages = 0

    def _flush(self) -> None:
        # One transaction for everything (Store.commit_learning says why); nothing local is
        # dropped before it commits, so after a failed flush the deltas are still here.
        deltas = [
            delta
            for key, state in self._sites.items()
            if (delta := self._delta(key, state)) is not None
        ]
        verdicts = [VerdictCount(*key, n) for key, n in self._verdicts.items()]
        self.store.commit_learning(deltas, self._visits, verdicts)
        self._sites.clear()
        self._visits.clear()
        self._verdicts.clear()
        self._pages.clear()
        self._template_pages = self._line_pages = self._visit_pages = 0
        self._page_open = False

    def _delta(self, site: str, state: _SiteState) -> SiteDelta | None:
        templates, lines = state.templates, state.lines
        new_templates = templates.pending_templates()
        if not (lines.pending_pages or lines.pending_counts or new_templates) and not (
            templates.batch_dirty
        ):
            return None
        batch = None
        if templates.batch_dirty:
            batch = BatchState(
                templates.batch.pages,
                tuple(TemplateText(e.tag, e.text, e.frequency) for e in templates.batch_entries()),
            )
        params = self.line_params
        return SiteDelta(
            site=site,
            owner=self.owner,
            pages=lines.pending_pages,
            line_counts=dict(lines.pending_counts),
            line_texts=dict(lines.pending_texts) if params.keep_text else {},
            templates=tuple(TemplateText(e.tag, e.text, e.frequency) for e in new_templates),
            batch=batch,
            prune_every=params.prune_every or None,
            prune_divisor=params.prune_divisor,
        )


def site_key(url: str, prefixes: Sequence[tuple[str, str]] = ()) -> str:
    """See :meth:`SiteLearner.site_key`; ``prefixes`` are ``(origin, path)`` pairs.
    ``""`` for a URL without a scheme and a host (none, a relative path, ``javascript:``):
    such pages belong to no site (they all shared the site ``"://"`` before, and taught
    one another's templates)."""
    parts = urlsplit(url.strip())
    if not parts.scheme or not parts.netloc:
        return ""
    origin, path = _origin_and_path(url)
    best = ""
    for prefix_origin, prefix_path in prefixes:
        if (
            origin == prefix_origin
            and path.startswith(prefix_path)
            and len(prefix_path) >= len(best)
        ):
            best = prefix_path
    return origin + best if best else origin


def site_key_for(url: str, site_prefixes: Iterable[str] = ()) -> str:
    """:func:`site_key` with prefixes given as URLs, as ``DenoiseOptions.site_prefixes``
    has them (for callers without a learner)."""
    return site_key(url, _parse_prefixes(site_prefixes))


def _parse_prefixes(prefixes: Iterable[str]) -> list[tuple[str, str]]:
    parsed = []
    for prefix in prefixes:
        origin, path = _origin_and_path(prefix)
        parsed.append((origin, path if path != "/" else ""))
    return parsed


def _origin_and_path(url: str) -> tuple[str, str]:
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").rstrip(".")
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = host if port is None or port == _DEFAULT_PORTS.get(scheme) else f"{host}:{port}"
    return f"{scheme}://{netloc}", parts.path or "/"
