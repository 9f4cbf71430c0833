"""The "perf" section of BENCHMARKS.md: CPU per page, store throughput, memory over a long run.

``scrapy-denoise bench perf`` prints three tables from one run on one machine:

1. **Extraction CPU per page.** A fixed sample (the first ``per_dataset`` pages of the
   held-out split of every shared extraction dataset) is decoded once, and every extractor
   gets the same ``str``: lxml parsing alone (``lxml.html.fromstring``, the floor no
   extractor built on lxml can go under), our ``load_document`` alone (decode-free parse +
   cleaning + per-node aggregates), the default chain without a store (what the extraction
   table measures) and with an in-memory store (what a crawl runs: template removal and
   line statistics included), trafilatura and readability-lxml. Extractors run interleaved
   page by page, so a load spike on the shared machine hits all of them alike; CPU time is
   ``time.process_time()`` around the call only, and every extractor is warmed up on the
   first page, untimed, as in :mod:`.runner`. Ratios are of total CPU over the same pages.
2. **Store throughput** (wall time, the database's own work included): article upserts per
   second (batches of ``DENOISE_STORE_BATCH`` = 50 as the pipeline writes them: new URLs,
   then the same articles unchanged, then changed), and line-statistics deltas applied per
   second (each delta is what one site's 50-page flush writes), into a SQLite file and, when
   a URL is given, into a fresh PostgreSQL database created and dropped for the run.
3. **Memory over a long replay.** The pages of a shared site are replayed from raw bytes
   through ``Denoiser(store="sqlite:///...").extract`` with varied URLs and titles
   (``?v=N`` and ``N`` on every pass after the first), printing RSS, the SQLite file size
   and the row counts of ``line_stats``, ``templates`` and ``page_fingerprints`` at
   checkpoints: after warm-up RSS must stay flat, while fingerprints grow by one row per
   new URL by design.

Targets (from the "scale out and hold up" issue): default chain <= 0.5x trafilatura's CPU
per page and <= 4x lxml parsing; flat memory after warm-up.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import multiprocessing
import os
import random
import re
import resource
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ..encoding import decode
from ..store.scratch import scratch_database
from .datasets import Split, extraction_zips, iter_pages, site_zip
from .peers import TRAFILATURA_ROW

__all__ = [
    "Checkpoint",
    "SamplePage",
    "StoreRates",
    "Timing",
    "extraction_cpu",
    "perf_benchmark",
    "replay_memory",
    "sample_pages",
    "store_throughput",
]

#: name -> callable(html str, url) timed per page
Timed = Callable[[str, str], object]
Progress = Callable[[str], None]

LXML = "lxml.html.fromstring (floor)"
LOAD = "load_document"
#: the parse, cleaning and every block's features: what the block models need before they
#: run, so the part of the chain no model choice can remove
FEATURES = "load_document + block features"
CHAIN = "scrapy-denoise default, store=False"
CHAIN_STORE = "scrapy-denoise default, in-memory store"
TRAFILATURA = "trafilatura"
READABILITY = "readability-lxml"

#: what the extraction table holds the default chain against
TARGET_VS_TRAFILATURA = 0.5
TARGET_VS_LXML = 4.0
#: articles per transaction, as the store pipeline writes them (DENOISE_STORE_BATCH)
ARTICLE_BATCH = 50


@dataclass(frozen=True, slots=True)
class SamplePage:
    dataset: str
    url: str
    html: str


@dataclass
class Timing:
    """CPU seconds of one extractor, one entry per page."""

    name: str
    seconds: list[float] = field(default_factory=list)
    errors: int = 0
    by_dataset: dict[str, float] = field(default_factory=dict)

    @property
    def total(self) -> float:
        return sum(self.seconds)

    def ms(self, q: float | None = None) -> float:
        """Mean (``q=None``) or the ``q`` quantile of per-page CPU milliseconds."""
        if not self.seconds:
            return 0.0
        if q is None:
            return 1000 * self.total / len(self.seconds)
        ordered = sorted(self.seconds)
        return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def sample_pages(
    *, split: Split = "holdout", per_dataset: int = 100, datasets: Sequence[str] | None = None
) -> list[SamplePage]:
    """The fixed sample, decoded once (as :mod:`.runner` does, so nobody is timed on it).

    Pages without a URL get a stable synthetic one: the in-memory-store variant learns per
    site, and a page without a URL would skip learning and look cheaper than it is.
    """
    out: list[SamplePage] = []
    for name, path in extraction_zips(datasets).items():
        for page in iter_pages(path, split=split, limit=per_dataset):
            url = page.url or f"http://{name}.invalid/{page.id}"
            out.append(SamplePage(name, url, decode(page.html).text))
    return out


def _extractors(with_peers: bool) -> dict[str, Timed]:
    from lxml import html as lxml_html

    from .. import Denoiser
    from ..document import load_document
    from ..methods.blocks import compute_blocks

    plain = Denoiser(store=False)
    stored = Denoiser(store=None)

    def lxml_parse(html: str, url: str) -> object:
        try:
            return lxml_html.fromstring(html)
        except ValueError:
            # A str with an XML encoding declaration; lxml wants bytes then.
            return lxml_html.fromstring(html.encode("utf-8"))

    extractors: dict[str, Timed] = {
        LXML: lxml_parse,
        LOAD: lambda html, url: load_document(html, url),
        FEATURES: lambda html, url: compute_blocks(load_document(html, url)),
        CHAIN: lambda html, url: plain.extract(html, url).text,
        CHAIN_STORE: lambda html, url: stored.extract(html, url).text,
    }
    if with_peers:
        from .peers import (
            MissingPeerError,
            readability_extractor,
            trafilatura_extractor,
            trafilatura_row_extractor,
        )

        with contextlib.suppress(MissingPeerError):
            extractors[TRAFILATURA] = trafilatura_extractor()
            extractors[TRAFILATURA_ROW] = trafilatura_row_extractor()
        with contextlib.suppress(MissingPeerError):
            extractors[READABILITY] = readability_extractor()
    return extractors


def extraction_cpu(
    pages: Sequence[SamplePage],
    extractors: Mapping[str, Timed] | None = None,
    *,
    progress: Progress | None = None,
) -> dict[str, Timing]:
    """CPU seconds per page of every extractor, interleaved page by page."""
    if extractors is None:
        extractors = _extractors(with_peers=True)
    timings = {name: Timing(name) for name in extractors}
    if pages:
        for fn in extractors.values():  # untimed warm-up: imports, models, caches
            with contextlib.suppress(Exception):
                fn(pages[0].html, pages[0].url)
    for done, page in enumerate(pages, start=1):
        for name, fn in extractors.items():
            start = time.process_time()
            try:
                fn(page.html, page.url)
            except Exception:
                timings[name].errors += 1
            elapsed = time.process_time() - start
            timing = timings[name]
            timing.seconds.append(elapsed)
            timing.by_dataset[page.dataset] = timing.by_dataset.get(page.dataset, 0.0) + elapsed
        if progress is not None and (done % 50 == 0 or done == len(pages)):
            progress(f"extraction CPU: {done}/{len(pages)} pages")
    return timings


def _ratio(a: Timing | None, b: Timing | None) -> float | None:
    if a is None or b is None or b.total <= 0:
        return None
    return a.total / b.total


def format_extraction(timings: Mapping[str, Timing], pages: Sequence[SamplePage]) -> str:
    trafilatura, floor = timings.get(TRAFILATURA), timings.get(LXML)
    lines = [
        "| extractor | pages | mean CPU ms/page | median | p95 | max | vs trafilatura | "
        "vs lxml parse | errors |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, t in timings.items():
        vs_t, vs_l = _ratio(t, trafilatura), _ratio(t, floor)
        lines.append(
            f"| {name} | {len(t.seconds)} | {t.ms():.2f} | {t.ms(0.5):.2f} | {t.ms(0.95):.2f} | "
            f"{max(t.seconds, default=0) * 1000:.1f} | "
            f"{'—' if vs_t is None else f'{vs_t:.2f}x'} | "
            f"{'—' if vs_l is None else f'{vs_l:.2f}x'} | {t.errors} |"
        )
    counts: dict[str, int] = {}
    for page in pages:
        counts[page.dataset] = counts.get(page.dataset, 0) + 1
    shown = [
        n
        for n in (LXML, LOAD, FEATURES, CHAIN, CHAIN_STORE, TRAFILATURA, TRAFILATURA_ROW)
        if n in timings
    ]
    lines += [
        "",
        "Mean CPU ms/page by dataset:",
        "",
        "| dataset | pages | " + " | ".join(shown) + " |",
        "|---|---:|" + "---:|" * len(shown),
    ]
    for dataset, n in counts.items():
        cells = [f"{1000 * timings[s].by_dataset.get(dataset, 0.0) / n:.2f}" for s in shown]
        lines.append(f"| {dataset} | {n} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "- CPU time is `time.process_time()` around each call only; the extractors run "
        "interleaved page by page on the same decoded `str` (decoding is not timed), each "
        "warmed up once on the first page. Ratios are of total CPU over all pages.",
        "- The in-memory-store variant learns across the sample (a few pages per site at "
        "most), so it pays for template and line-statistics learning but rarely removes "
        "anything; on a real crawl the same work runs on every page. Nearly every page "
        "here is a new site, so it also pays a site's state read and first batch write "
        "per page, which a crawl of one site pays once per flush (the replay table below "
        "is that case).",
    ]
    chain = timings.get(CHAIN)
    for label, ref, target in (
        ("trafilatura", trafilatura, TARGET_VS_TRAFILATURA),
        ("lxml parse", floor, TARGET_VS_LXML),
    ):
        for variant in (chain, timings.get(CHAIN_STORE)):
            ratio = _ratio(variant, ref)
            if variant is None or ratio is None:
                continue
            verdict = "met" if ratio <= target else "NOT met"
            lines.append(f"- target {variant.name} <= {target}x {label}: {ratio:.2f}x, {verdict}")
    return "\n".join(lines) + "\n"


# -- store throughput -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StoreRates:
    backend: str
    inserted_per_s: float
    unchanged_per_s: float
    updated_per_s: float
    deltas_per_s: float
    line_rows_per_s: float
    articles: int
    deltas: int
    lines_per_delta: int


def _articles(n: int, seed: int, *, changed: bool = False) -> list[Any]:
    from ..store import ArticleRecord

    rng = random.Random(seed)
    words = [f"word{i}" for i in range(2000)]
    published = datetime(2024, 1, 1, tzinfo=UTC)
    out = []
    for i in range(n):
        text = "\n".join(
            " ".join(rng.choice(words) for _ in range(60)) for _ in range(6)
        )  # ~3 KB, a short news article
        if changed:
            text += "\nUpdated."
        site = f"https://site{i % 20}.example"
        title = f"Article {i}"
        out.append(
            ArticleRecord(
                url=f"{site}/2024/01/{i}.html",
                site=site,
                text=text,
                title=title,
                # as the crawl's articles carry one, so the copy check is measured too
                identity=hashlib.md5(f"{title}\n{text}".encode()).hexdigest(),
                published=published + timedelta(hours=i),
                author="Jane Roe",
                lang="en",
            )
        )
    return out


def _deltas(n: int, lines: int, seed: int) -> list[Any]:
    """Deltas as a 50-page flush of one site writes them: mostly recurring lines."""
    from ..methods.linestats import LineParams, line_hash
    from ..store import SiteDelta

    params = LineParams()
    rng = random.Random(seed)
    recurring = [f"recurring line {i} of the site's navigation" for i in range(2000)]
    out = []
    for i in range(n):
        texts = rng.sample(recurring, (3 * lines) // 4)
        texts += [f"article {i} paragraph {j} " + "text " * 20 for j in range(lines - len(texts))]
        counts = {line_hash(t): rng.randint(1, 50) for t in texts}
        out.append(
            SiteDelta(
                site=f"https://site{i % 5}.example",
                pages=50,
                line_counts=counts,
                line_texts={line_hash(t): t for t in texts},
                prune_every=params.prune_every,
                prune_divisor=params.prune_divisor,
            )
        )
    return out


def store_throughput(
    url: str, backend: str, *, articles: int = 2000, deltas: int = 200, lines_per_delta: int = 400
) -> StoreRates:
    """Wall-clock rates of the two writes a crawl makes most, on an empty store at ``url``."""
    from ..store import Store

    store = Store.open(url)
    try:
        new = _articles(articles, 1)
        rates: list[float] = []
        for batch_set in (new, new, _articles(articles, 1, changed=True)):
            start = time.perf_counter()
            for i in range(0, len(batch_set), ARTICLE_BATCH):
                store.upsert_articles(batch_set[i : i + ARTICLE_BATCH])
            rates.append(len(batch_set) / (time.perf_counter() - start))
        work = _deltas(deltas, lines_per_delta, 2)
        start = time.perf_counter()
        for delta in work:
            store.apply(delta)
        seconds = time.perf_counter() - start
    finally:
        store.close()
    return StoreRates(
        backend,
        rates[0],
        rates[1],
        rates[2],
        deltas / seconds,
        deltas * lines_per_delta / seconds,
        articles,
        deltas,
        lines_per_delta,
    )


@contextlib.contextmanager
def _sqlite_url() -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="denoise-perf-") as tmp:
        yield f"sqlite:///{tmp}/store.sqlite3"


def format_store(rates: Sequence[StoreRates], notes: Sequence[str] = ()) -> str:
    lines = [
        "| backend | article inserts/s | unchanged re-upserts/s | updates/s | "
        "line-stat deltas/s | line rows/s |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in rates:
        lines.append(
            f"| {r.backend} | {r.inserted_per_s:,.0f} | {r.unchanged_per_s:,.0f} | "
            f"{r.updated_per_s:,.0f} | {r.deltas_per_s:,.1f} | {r.line_rows_per_s:,.0f} |"
        )
    if rates:
        r = rates[0]
        lines.append("")
        lines.append(
            f"- {r.articles} articles of ~3 KB, each with its identity as the crawl writes them "
            f"(the copy check reads once per batch), in batches of {ARTICLE_BATCH} (one "
            f"transaction each); {r.deltas} deltas of {r.lines_per_delta} line counts each "
            "(one site's 50-page flush: 3/4 recurring lines, 1/4 new), wall time, empty store "
            "at start."
        )
    lines.extend(f"- {note}" for note in notes)
    return "\n".join(lines) + "\n"


# -- memory over a long replay ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Checkpoint:
    pages: int
    rss_mb: float
    peak_rss_mb: float
    db_bytes: int
    line_stats: int
    templates: int
    fingerprints: int
    pages_per_s: float
    #: CPU milliseconds per page since the previous checkpoint
    cpu_ms: float


def _rss_mb() -> float:
    """Current resident set size; /proc is Linux-only, elsewhere the peak stands in."""
    try:
        with open("/proc/self/statm") as handle:
            resident = int(handle.read().split()[1])
        return resident * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return _peak_rss_mb()


def _peak_rss_mb() -> float:
    """This process's RSS high-water mark.

    ``VmHWM`` belongs to the address space, which ``exec`` replaces; ``ru_maxrss`` would
    carry the parent's peak into a spawned child (Linux keeps it across fork and exec).
    """
    try:
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024


_TITLE = re.compile(rb"<title[^>]*>", re.I)


def _site_pages(name: str) -> list[tuple[str, bytes]]:
    """(path, raw bytes) of every HTML page of a shared site."""
    from .datasets import iter_site_pages

    path = site_zip(name)
    pages = [(p.path, p.html) for p in iter_site_pages(path) if p.html]
    if not pages:
        raise ValueError(f"site {name!r} has no pages")
    return pages


def _counts(url: str) -> tuple[int, int, int]:
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return tuple(  # type: ignore[return-value]
                int(conn.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())
                for table in ("line_stats", "templates", "page_fingerprints")
            )
    finally:
        engine.dispose()


def _file_bytes(db: Path) -> int:
    return sum(p.stat().st_size for p in (db, db.with_name(db.name + "-wal")) if p.exists())


def checkpoints_for(pages: int) -> list[int]:
    """1k, 2k, 5k, 10k, ... below ``pages``, and ``pages`` itself."""
    marks: list[int] = []
    scale = 1000
    while scale < pages:
        marks += [m for m in (scale, 2 * scale, 5 * scale) if m < pages]
        scale *= 10
    return [*marks, pages]


def replay_memory(
    *,
    site: str = "flink-blog",
    pages: int = 100_000,
    checkpoints: Sequence[int] | None = None,
    verbose: bool = False,
) -> tuple[list[Checkpoint], int]:
    """Replay a site's pages ``pages`` times in total; returns checkpoints and site size.

    Run it in a fresh process (:func:`replay_in_subprocess`) for RSS numbers that are the
    Denoiser's own and not whatever the caller loaded before.
    """
    from .. import Denoiser

    site_pages = _site_pages(site)
    marks = sorted(set(checkpoints or checkpoints_for(pages)))
    base = f"https://{site}.bench"
    out: list[Checkpoint] = []
    with tempfile.TemporaryDirectory(prefix="denoise-replay-") as tmp:
        db = Path(tmp) / "replay.sqlite3"
        url = f"sqlite:///{db}"
        denoiser = Denoiser(store=url)
        try:
            gc.collect()
            last_t, last_c, last_n = time.perf_counter(), time.process_time(), 0
            for n in range(1, pages + 1):
                path, body = site_pages[(n - 1) % len(site_pages)]
                round_ = (n - 1) // len(site_pages)
                page_url = base + path
                if round_:
                    # a new URL and a new <title>: new pages to learn from, as in a long
                    # crawl, not copies of the first pass (which the denoiser would know
                    # as duplicates and learn nothing from)
                    page_url += f"?v={round_}"
                    body = _TITLE.sub(rb"\g<0>%d " % round_, body, count=1)
                denoiser.extract(body, page_url, {"Content-Type": "text/html"})
                if n in marks:
                    now, cpu = time.perf_counter(), time.process_time()
                    lines, templates, prints = _counts(url)
                    rss = _rss_mb()
                    out.append(
                        Checkpoint(
                            n,
                            rss,
                            # the kernel updates the high-water mark lazily
                            max(rss, _peak_rss_mb()),
                            _file_bytes(db),
                            lines,
                            templates,
                            prints,
                            (n - last_n) / (now - last_t),
                            1000 * (cpu - last_c) / (n - last_n),
                        )
                    )
                    last_t, last_c, last_n = time.perf_counter(), time.process_time(), n
                    if verbose:
                        c = out[-1]
                        print(
                            f"replay {n}/{pages}: RSS {c.rss_mb:.0f} MB, "
                            f"db {c.db_bytes / 2**20:.1f} MB, line_stats {c.line_stats}, "
                            f"templates {c.templates}, fingerprints {c.fingerprints}, "
                            f"{c.pages_per_s:.0f} pages/s, {c.cpu_ms:.1f} CPU ms/page",
                            file=sys.stderr,
                            flush=True,
                        )
        finally:
            denoiser.close()
    return out, len(site_pages)


def replay_in_subprocess(
    site: str, pages: int, *, verbose: bool = False
) -> tuple[list[Checkpoint], int]:
    """:func:`replay_memory` in a fresh interpreter (spawned, so nothing is inherited)."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        return pool.submit(replay_memory, site=site, pages=pages, verbose=verbose).result()


def format_replay(site: str, site_size: int, marks: Sequence[Checkpoint]) -> str:
    lines = [
        "| pages | RSS MB | peak RSS MB | SQLite file MB | line_stats rows | templates rows | "
        "page_fingerprints rows | pages/s (wall) | CPU ms/page |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for c in marks:
        lines.append(
            f"| {c.pages:,} | {c.rss_mb:.1f} | {c.peak_rss_mb:.1f} | {c.db_bytes / 2**20:.1f} | "
            f"{c.line_stats:,} | {c.templates:,} | {c.fingerprints:,} | {c.pages_per_s:.0f} | "
            f"{c.cpu_ms:.1f} |"
        )
    lines.append("")
    warm = [c for c in marks if c.pages >= 2 * site_size]
    if len(warm) >= 2:
        first, last = warm[0], warm[-1]
        growth = last.rss_mb - first.rss_mb
        lines.append(
            f"- RSS after warm-up (two passes over the site's {site_size} pages, "
            f"{first.pages:,} pages) to the end ({last.pages:,}): {first.rss_mb:.1f} -> "
            f"{last.rss_mb:.1f} MB ({growth:+.1f} MB, "
            f"{100 * growth / first.rss_mb:+.1f} %)."
        )
    lines.append(
        "- RSS is read at each checkpoint; peak RSS is the process high-water mark, start-up "
        "included (schema migration, reading the site's pages into memory)."
    )
    lines.append(
        f"- {site}: {site_size} pages replayed from raw bytes in order, pass k > 0 with "
        "`?v=k` appended to every URL and `k` to every `<title>` (new pages with the same "
        "text, so that they are learned from, not known as duplicates): page_fingerprints "
        "grows by one row per new URL by design, and the memory of article pages met (for "
        "duplicates) up to its 20,000 entries; line_stats and templates must not grow with "
        "passes."
    )
    return "\n".join(lines) + "\n"


# -- the whole section ------------------------------------------------------------------


def perf_benchmark(
    *,
    split: Split = "holdout",
    per_dataset: int = 100,
    datasets: Sequence[str] | None = None,
    postgres_url: str | None = None,
    replay_site: str = "flink-blog",
    replay_pages: int = 100_000,
    with_peers: bool = True,
    progress: Progress | None = None,
) -> str:
    """Run all three measurements; returns the Markdown section body."""
    parts: list[str] = []
    pages = sample_pages(split=split, per_dataset=per_dataset, datasets=datasets)
    if pages:
        timings = extraction_cpu(pages, _extractors(with_peers), progress=progress)
        parts.append(
            f"### Extraction CPU per page ({len(pages)} {split} pages, first {per_dataset} "
            "of each extraction dataset, same decoded str for all)\n\n"
            + format_extraction(timings, pages)
        )
    else:
        parts.append("### Extraction CPU per page\n\nshared data not found: skipped\n")

    rates: list[StoreRates] = []
    notes: list[str] = []
    with _sqlite_url() as url:
        rates.append(store_throughput(url, "SQLite file (WAL)"))
    if progress is not None:
        progress("store throughput: SQLite done")
    postgres_url = postgres_url or os.environ.get("DENOISE_TEST_POSTGRES_URL")
    if postgres_url:
        try:
            with scratch_database(postgres_url, "denoise_perf") as url:
                rates.append(store_throughput(url, "PostgreSQL"))
        except Exception as exc:  # a missing server is a gap in the table, not a crash
            notes.append(f"PostgreSQL skipped: {type(exc).__name__}: {str(exc)[:200]}")
    else:
        notes.append("PostgreSQL skipped: no --postgres URL or DENOISE_TEST_POSTGRES_URL")
    parts.append("### Store throughput\n\n" + format_store(rates, notes))

    if replay_pages > 0:
        try:
            marks, size = replay_in_subprocess(
                replay_site, replay_pages, verbose=progress is not None
            )
        except FileNotFoundError as exc:
            parts.append(f"### Memory over a long replay\n\nskipped: {exc}\n")
        else:
            parts.append(
                f"### Memory over a long replay ({replay_pages:,} pages of {replay_site}, "
                "Denoiser(store=sqlite file).extract)\n\n" + format_replay(replay_site, size, marks)
            )
    return "\n".join(parts)
