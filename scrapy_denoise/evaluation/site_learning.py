"""What per-site learning buys on whole real sites: the "sites" table of BENCHMARKS.md.

The extraction table scores unrelated single pages, where site learning cannot help. This
benchmark replays each shared site (``shared/data/sites/NAME.zip``) through
:class:`~scrapy_denoise.Denoiser` the way a crawl would, in path order, and scores the
article pages against their ground truth, under these configurations:

* ``single-page``: no site learning at all (``store=False``): the floor to beat;
* ``1st crawl``: a fresh Denoiser with an in-memory store that sees the site once with
  ``learn=True``: early pages are extracted before much has been learned, which is what a
  first crawl really gets;
* ``re-crawl``: the site was learned in an earlier run (``Denoiser.learn`` over every page
  into a temporary SQLite file, then closed); a *new* Denoiser on the same file extracts
  with ``learn=False``. This is the steady state and also proves the learned state
  survives a restart;
* ``added line``: a site that added a line to every article since the last crawl (a
  membership appeal after the story's last paragraph of truth, ``ADDED_LINE``): a first
  crawl with ``learn=True`` into a temporary SQLite file, then, by new Denoisers on that
  file, a re-crawl and the crawl after it of the pages with the line, ``learn=True``, as
  a daily crawl runs; the rows score those two crawls (the line is not in the truth);
* the same two modes with only templates, only line statistics, and learning from every
  page (``skip_noise_pages=False``: list, tag and archive pages repeat article text, which
  then becomes "common noise" and is cut from the articles);
* ``headline dropped``: the first crawl with ``keep_headline=False``, as the crawl runs it
  by default, its store keeping the title beside the text (the sites' truth, their posts'
  own source, has no headline);
* ``as a crawl runs it``: that, and the site's first pages extracted again at the end
  with what the whole replay learned (``revisit_first``, ``DENOISE_REVISIT_FIRST``), and
  the other articles' lines that became noise after them taken out (``refilter_lines``,
  ``DENOISE_REFILTER_LINES``), as the crawl rewrites their rows when the spider closes;
* ``peer`` rows: trafilatura and readability-lxml on the same article pages (same decoded
  ``str`` as the extraction table gives them), when installed: the whole-site rows are
  only worth the learning they do if they stand against what a user would run instead.

Pages get URL ``http://127.0.0.1:8000`` + path so every page of a site has one site key.
Columns ``templates`` and ``noise lines`` are read back from the store after the run:
templates learned for the site, and counted lines currently above the keep limit
``int(1 + max(RC, min_pages) / L)`` (the lines line statistics removes).
"""

from __future__ import annotations

import re
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import lxml.html

from ..denoiser import Denoiser
from ..encoding import decode
from ..first_pages import CRAWL_REVISIT_FIRST
from ..methods.linestats import keep_limit
from ..options import DenoiseOptions
from .datasets import SitePage, iter_site_pages, site_zip
from .metrics import Aggregate, LcsAggregate, lcs_prf, page_counts
from .peers import installed_peers
from .runner import Extractor

__all__ = [
    "CONFIGS",
    "DEFAULT_SITES",
    "SITE_ORIGIN",
    "SiteConfig",
    "SiteRow",
    "format_site_table",
    "run_peer",
    "run_site",
    "site_learning_benchmark",
    "site_learning_rows",
]

#: the shared sites with ground truth (``shared/data/sites``)
DEFAULT_SITES: tuple[str, ...] = ("zjuvai-blog", "flink-blog")

#: every page of a benchmark site lives under this origin, so the site key never changes
SITE_ORIGIN = "http://127.0.0.1:8000"

Mode = Literal["single", "first", "recrawl", "added", "added-next", "peer"]
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True, slots=True)
class SiteConfig:
    """One row of the table: how the site is replayed and which site methods are on."""

    label: str
    mode: Mode
    templates: bool = True
    line_stats: bool = True
    skip_noise_pages: bool = True
    keep_headline: bool = True
    revisit_first: int = 0
    refilter_lines: bool = False

    def options(self, method: str) -> DenoiseOptions:
        return DenoiseOptions(
            method=method,
            templates=self.templates,
            line_stats=self.line_stats,
            skip_noise_pages=self.skip_noise_pages,
            keep_headline=self.keep_headline,
            revisit_first=self.revisit_first,
            refilter_lines=self.refilter_lines,
        )


#: the rows, in table order; the first is the single-page baseline the notes compare with
CONFIGS: tuple[SiteConfig, ...] = (
    SiteConfig("single-page (no learning)", "single", templates=False, line_stats=False),
    SiteConfig("1st crawl: templates + lines", "first"),
    SiteConfig("1st crawl: templates only", "first", line_stats=False),
    SiteConfig("1st crawl: line stats only", "first", templates=False),
    SiteConfig("1st crawl: learn from every page", "first", skip_noise_pages=False),
    SiteConfig("1st crawl: headline dropped", "first", keep_headline=False),
    SiteConfig(
        "1st crawl: as a crawl runs it",
        "first",
        keep_headline=False,
        revisit_first=CRAWL_REVISIT_FIRST,
        refilter_lines=True,
    ),
    SiteConfig("re-crawl: templates + lines", "recrawl"),
    SiteConfig("re-crawl: templates only", "recrawl", line_stats=False),
    SiteConfig("re-crawl: line stats only", "recrawl", templates=False),
    SiteConfig("re-crawl: learn from every page", "recrawl", skip_noise_pages=False),
    SiteConfig("added line: its 1st re-crawl", "added"),
    SiteConfig("added line: the re-crawl after", "added-next"),
)

#: the line the ``added line`` rows add to every article page
ADDED_LINE = (
    "Support our journalism: become a member today and read every new story before anyone else."
)


@dataclass(slots=True)
class SiteRow:
    """Scores and learned-state sizes of one (site, configuration)."""

    site: str
    config: SiteConfig
    shingle: Aggregate = field(default_factory=Aggregate)
    lcs: LcsAggregate = field(default_factory=LcsAggregate)
    templates: int = 0
    noise_lines: int = 0
    #: the page filter on this replay: noise pages judged noise, article pages judged noise
    noise_caught: int = 0
    articles_rejected: int = 0
    seconds: float = 0.0
    #: CPU time (``time.process_time``) of the calls on the article pages alone, the pages
    #: every row handles (a crawl's noise pages cost the page filter too, peers none)
    article_cpu: float = 0.0

    @property
    def cpu_ms_per_article(self) -> float | None:
        pages = self.shingle.pages
        return 1000 * self.article_cpu / pages if pages else None


def _url(page: SitePage) -> str:
    return SITE_ORIGIN + page.path


def _score(row: SiteRow, page: SitePage, text: str) -> None:
    row.shingle.add(page_counts(page.truth, text))
    row.lcs.add(lcs_prf(page.truth, text))


def _read_state(row: SiteRow, denoiser: Denoiser) -> None:
    """Templates and noise lines of the site as stored (after a flush)."""
    learner = denoiser.learner
    if learner is None:
        return
    denoiser.flush()
    snap = learner.store.load_site(learner.site_key(SITE_ORIGIN + "/"), learner.owner)
    limit = keep_limit(snap.pages_processed, learner.line_params)
    row.templates = len(snap.templates)
    row.noise_lines = sum(1 for count in snap.line_counts.values() if count > limit)


def run_site(
    site: str,
    pages: Sequence[SitePage],
    config: SiteConfig,
    method: str = "default",
    *,
    on_article: Callable[[SitePage, str], None] | None = None,
) -> SiteRow:
    """Replay ``pages`` (already in crawl order) under ``config`` and score the articles.

    ``on_article`` sees every scored article page with its extracted text (for tests and
    for looking at what a configuration removes).
    """
    row = SiteRow(site, config)

    def score(page: SitePage, text: str) -> None:
        _score(row, page, text)
        if on_article is not None:
            on_article(page, text)

    options = config.options(method)
    started = time.perf_counter()
    if config.mode == "recrawl":
        with tempfile.TemporaryDirectory(prefix="denoise-sites-") as tmp:
            store_url = f"sqlite:///{Path(tmp) / 'store.db'}"
            with Denoiser(options=options, store=store_url) as teacher:
                for page in pages:
                    teacher.learn(page.html, _url(page))
            # A new object on the same file: only what was persisted can help it.
            with Denoiser(options=options, store=store_url) as denoiser:
                denoiser.preload()  # model loading is not a page's cost
                for page in pages:
                    if page.kind == "article":
                        cpu = time.process_time()
                        article = denoiser.extract(page.html, _url(page), learn=False)
                        row.article_cpu += time.process_time() - cpu
                        score(page, article.text)
                _read_state(row, denoiser)
    elif config.mode in ("added", "added-next"):
        with tempfile.TemporaryDirectory(prefix="denoise-sites-") as tmp:
            store_url = f"sqlite:///{Path(tmp) / 'store.db'}"
            versions = [_with_added_line(page) for page in pages]
            with Denoiser(options=options, store=store_url) as first:
                for page, (html, _) in zip(pages, versions, strict=True):
                    first.extract(html, _url(page), learn=True)
            added = [html for _, html in versions]
            scored = 0 if config.mode == "added" else 1
            for crawl in range(scored + 1):
                with Denoiser(options=options, store=store_url) as denoiser:
                    denoiser.preload()
                    for page, html in zip(pages, added, strict=True):
                        cpu = time.process_time()
                        article = denoiser.extract(html, _url(page), learn=True)
                        if page.kind == "article" and crawl == scored:
                            row.article_cpu += time.process_time() - cpu
                            score(page, article.text)
                    _read_state(row, denoiser)
    else:
        store: bool | None = False if config.mode == "single" else None
        with Denoiser(options=options, store=store) as denoiser:
            denoiser.preload()
            texts: dict[str, tuple[SitePage, str]] = {}
            for page in pages:
                cpu = time.process_time()
                article = denoiser.extract(page.html, _url(page), learn=True)
                cpu = time.process_time() - cpu
                is_noise = article.verdict is not None and article.verdict.is_noise
                if page.kind == "article":
                    row.article_cpu += cpu
                    texts[article.url] = (page, article.text)
                    row.articles_rejected += is_noise
                else:
                    row.noise_caught += is_noise
            # the crawl's close: the first pages again (none unless revisit_first), then
            # the lines learned as noise after the others (none unless refilter_lines)
            cpu = time.process_time()
            for article in denoiser.revisit():
                if article.url in texts:
                    texts[article.url] = (texts[article.url][0], article.text)
            for url in denoiser.outdated():
                if url in texts:
                    page, text = texts[url]
                    texts[url] = (page, denoiser.refilter(url, text))
            row.article_cpu += time.process_time() - cpu
            for page, text in texts.values():
                score(page, text)
            _read_state(row, denoiser)
    row.seconds = time.perf_counter() - started
    return row


def _with_added_line(page: SitePage) -> tuple[bytes | str, bytes | str]:
    """An article page before and after the site added :data:`ADDED_LINE` as a paragraph
    after the last ``<p>`` whose text is in the page's truth. Both are serialised by lxml,
    so the line is all that changes; a page without such a paragraph is served as is."""
    if page.kind != "article" or not page.truth:
        return page.html, page.html
    truth = " ".join(page.truth.split())
    root = lxml.html.fromstring(decode(page.html).text)
    last = None
    for p in root.iter("p"):
        text = " ".join(p.text_content().split())
        if len(text) >= 20 and text in truth:
            last = p
    if last is None:
        return page.html, page.html
    before = str(lxml.html.tostring(root, encoding="unicode", doctype="<!DOCTYPE html>"))
    added = lxml.html.Element("p")
    added.text = ADDED_LINE
    last.addnext(added)
    after = str(lxml.html.tostring(root, encoding="unicode", doctype="<!DOCTYPE html>"))
    return before, after


def run_peer(site: str, pages: Sequence[SitePage], name: str, extractor: Extractor) -> SiteRow:
    """Score another extractor on the article pages of ``pages``, one page at a time."""
    row = SiteRow(
        site, SiteConfig(f"{name} (single page)", "peer", templates=False, line_stats=False)
    )
    articles = [page for page in pages if page.kind == "article"]
    if articles:  # untimed, as the extraction table does: lazy imports are no page's cost
        extractor(decode(articles[0].html).text, _url(articles[0]))
    started = time.perf_counter()
    for page in pages:
        if page.kind == "article":
            html = decode(page.html).text
            cpu = time.process_time()
            text = extractor(html, _url(page))
            row.article_cpu += time.process_time() - cpu
            _score(row, page, text or "")
    row.seconds = time.perf_counter() - started
    return row


def _is_chinese(pages: Iterable[SitePage]) -> bool:
    """Most truth characters are Han: report character LCS, the usual Chinese metric."""
    han = total = 0
    for page in pages:
        if page.truth:
            han += len(_CJK.findall(page.truth))
            total += sum(1 for ch in page.truth if not ch.isspace())
    return total > 0 and han * 2 >= total


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def format_site_table(rows: Sequence[SiteRow], chinese: Iterable[str] = ()) -> str:
    """The Markdown table: one line per (site, configuration)."""
    zh = set(chinese)
    lines = [
        "| site | configuration | P | R | F1 | LCS F1 (zh) | pages | templates | noise lines "
        "| CPU ms/article page | vs trafilatura |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row.site} | {row.config.label} | {_fmt(row.shingle.precision)} "
            f"| {_fmt(row.shingle.recall)} | {_fmt(row.shingle.f1)} "
            f"| {_fmt(row.lcs.f1) if row.site in zh else '–'} | {row.shingle.pages} "
            f"| {row.templates} | {row.noise_lines} "
            f"| {_fmt_ms(row.cpu_ms_per_article)} | {_cpu_ratio(row, rows)} |"
        )
    return "\n".join(lines)


def _fmt_ms(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def _cpu_ratio(row: SiteRow, rows: Sequence[SiteRow]) -> str:
    """``row``'s article-page CPU over trafilatura's on the same site (same run)."""
    peer = next(
        (r for r in rows if r.site == row.site and r.config.label == _TRAFILATURA_ROW), None
    )
    if peer is None or not peer.article_cpu or not row.shingle.pages:
        return "–"
    return f"{row.article_cpu / peer.article_cpu:.2f}x"


_TRAFILATURA_ROW = "trafilatura (single page)"


def _delta(a: float | None, b: float | None) -> str:
    if a is None or b is None:
        return "–"
    return f"{a - b:+.3f}"


def _notes(rows: Sequence[SiteRow], pages_by_site: Mapping[str, Sequence[SitePage]]) -> str:
    """Generated observations: every number in them comes from the rows above."""
    notes: list[str] = []
    for site, pages in pages_by_site.items():
        site_rows = [r for r in rows if r.site == site]
        base = next((r for r in site_rows if r.config.mode == "single"), None)
        if base is None:
            continue
        articles = sum(1 for p in pages if p.kind == "article")
        noise = len(pages) - articles
        parts = [f"**{site}** ({articles} article and {noise} noise pages, path order):"]
        for row in site_rows:
            if row.config.mode == "single":
                continue
            parts.append(
                f"{row.config.label}: P {_delta(row.shingle.precision, base.shingle.precision)}"
                f", R {_delta(row.shingle.recall, base.shingle.recall)}"
                f", F1 {_delta(row.shingle.f1, base.shingle.f1)}"
                + (f", LCS F1 {_delta(row.lcs.f1, base.lcs.f1)}" if _is_chinese(pages) else "")
                + ";"
            )
        first = next((r for r in site_rows if r.config.mode == "first"), None)
        if first is not None:
            parts.append(
                f"the page filter kept {first.noise_caught} of {noise} noise pages out of "
                f"learning and wrongly held back {first.articles_rejected} article pages."
            )
        notes.append("- " + " ".join(parts))
    return "\n".join(notes)


_EXPLANATION = """\
Rows: *single-page* runs the extraction method alone; *1st crawl* is a fresh Denoiser
(in-memory store) extracting every page once, in path order, with `learn=True`, so early
pages are extracted before their site's boilerplate has been learned; *re-crawl* first
learns every page into a temporary SQLite store with `Denoiser.learn`, closes it, and a new
Denoiser on that file extracts the article pages with `learn=False` (persistence is part of
what is measured). *added line* rows: the site added a paragraph after the last paragraph
of every article's story (`ADDED_LINE`, not in the truth) since a first crawl with
`learn=True` into a SQLite file; new Denoisers on that file re-crawl it (every page,
`learn=True`), and the row scores the first re-crawl or the one after. The article pages
of all three crawls are serialised by lxml (which alone changes some pages' extraction),
so the line is all that differs between them. A URL counts its
page in line statistics on its first visit and the lines it gained on later ones, so the
added line goes once it is on more than a third of the pages (RC at least 60); the rows the
first re-crawl wrote before then keep it. *learn from every page* sets
`skip_noise_pages=False`, so index, list, tag and archive pages, which repeat article
titles and teasers, are learned from too. *headline dropped* is the first crawl with
`keep_headline=False` (`DENOISE_KEEP_HEADLINE = False`, a crawl's default): the text's
line that is the article's title is left out, as the sites' truth leaves it out.
P/R/F1: shingle metric over the article pages (`pages`); LCS F1: character LCS, for the
Chinese site. `templates`: templates stored for the site; `noise lines`: stored lines above
the line statistics keep limit. Numbers in the notes are differences to single-page.
*CPU ms/article page*: `time.process_time()` around each article page's call only (a
crawl's noise pages cost the page filter too; they are left out so that every row is timed
on the same pages), ours from the served bytes (decoding included, as a crawl gives them)
and the peers from the decoded `str`; *vs trafilatura* divides by trafilatura's total on the
same site in the same run. Ours also finds the title, date, author and language; trafilatura
is asked for the text alone (`extract`), so the ratio flatters it (the extraction table
times its `bare_extraction` with metadata too).
*(single page)* rows are the peers of the extraction table on the same article pages
(the `compare` extra; left out when they are not installed).
`demo-daily` (when listed) is the synthetic site of `make demo` (in-article ads, share
bars, bylines and comments in three layouts, English and Chinese), packed with
`cd example_project && python -m demosite.generate /tmp/demo-site --zip /tmp/demo-daily.zip`;
it was built by us, so read it as a demonstration, not as evidence."""


def site_learning_rows(
    sites: Sequence[str] = DEFAULT_SITES,
    method: str = "default",
    *,
    configs: Sequence[SiteConfig] = CONFIGS,
    zips: dict[str, Path] | None = None,
    progress: Callable[[str], None] | None = None,
    others: Mapping[str, Extractor] | None = None,
) -> list[SiteRow]:
    """Run every configuration on every site (pages in path order); one row each, then one
    per extractor of ``others`` (name -> extractor).

    ``zips`` maps a site name to its zip (default: ``shared/data/sites/NAME.zip``), which is
    how tests run the benchmark on a synthetic site.
    """
    rows: list[SiteRow] = []
    for site in sites:
        pages = _site_pages(site, zips)
        site_rows = [run_site(site, pages, config, method) for config in configs]
        site_rows += [run_peer(site, pages, name, f) for name, f in (others or {}).items()]
        for row in site_rows:
            if progress is not None:
                label = f"{site}: {row.config.label}"
                progress(f"{label}: F1 {_fmt(row.shingle.f1)} ({row.seconds:.0f} s)")
        rows += site_rows
    return rows


def _site_pages(site: str, zips: dict[str, Path] | None) -> list[SitePage]:
    path = (zips or {}).get(site) or site_zip(site)
    return sorted(iter_site_pages(path), key=lambda p: p.path)


def site_learning_benchmark(
    sites: Sequence[str] = DEFAULT_SITES,
    method: str = "default",
    *,
    configs: Sequence[SiteConfig] = CONFIGS,
    zips: dict[str, Path] | None = None,
    progress: Callable[[str], None] | None = None,
    with_peers: bool = True,
) -> str:
    """The Markdown section body: the table, generated notes and how to read them."""
    others = installed_peers() if with_peers else {}
    rows = site_learning_rows(
        sites, method, configs=configs, zips=zips, progress=progress, others=others
    )
    pages_by_site = {site: _site_pages(site, zips) for site in sites}
    chinese = [site for site, pages in pages_by_site.items() if _is_chinese(pages)]
    return (
        format_site_table(rows, chinese)
        + "\n\n"
        + _notes(rows, pages_by_site)
        + "\n\n"
        + _EXPLANATION
        + "\n"
    )
