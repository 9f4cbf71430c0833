"""End to end: real Scrapy crawls of the generated demo site into a real database.

Each crawl runs the example project's ``news`` spider with the add-on in a subprocess
against the demo site served on 127.0.0.1, and the tests read what the database holds.
The ground truth is the generator's ``manifest.json``.

Bounds were measured on this machine (see the numbers the tests print with ``-s``) and set
with a margin for crawl order: pages arrive in a different order on each run, and what the
site learner has seen when a page is extracted changes its text slightly.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from integration_support import (
    CrawlRun,
    StoredArticle,
    TruthPage,
    read_articles,
    run_crawl,
    score,
    serve,
)

from scrapy_denoise.store.scratch import scratch_database

pytestmark = pytest.mark.slow

#: Measured while the core's methods were still changing (so the range, not one number):
#: precision 0.83-0.86 (section, about and privacy pages pass the page filter), recall
#: 1.000, text F1 0.868-0.975. The text F1 bound that matters for this integration is the
#: relative one: the crawl must store text as good as the core extracts on its own from the
#: same pages (``core_reference``); measured difference -0.01 to +0.02.
MIN_PRECISION = 0.75
MIN_RECALL = 0.95
MIN_TEXT_F1 = 0.80
MAX_F1_BELOW_CORE = 0.05


@dataclass(frozen=True)
class DemoSite:
    start_url: str
    truth: dict[str, TruthPage]
    manifest: Any
    root: Path


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoSite]:
    from demosite.generate import generate

    root = tmp_path_factory.mktemp("demo_site")
    manifest = generate(root, seed=7)
    truth = {page.path: TruthPage(page.kind, page.text, page.lang) for page in manifest.pages}
    with serve(root) as base_url:
        yield DemoSite(base_url + "/", truth, manifest, root)


@pytest.fixture(scope="module")
def sqlite_crawl(
    demo_site: DemoSite, tmp_path_factory: pytest.TempPathFactory
) -> tuple[CrawlRun, str, Path]:
    start_url = demo_site.start_url
    out = tmp_path_factory.mktemp("crawl")
    db_url = f"sqlite:///{out / 'demo.sqlite3'}"
    return run_crawl(start_url, out, {"DENOISE_DATABASE_URL": db_url}), db_url, out


def test_demo_crawl_stores_articles_in_sqlite(
    demo_site: DemoSite, sqlite_crawl: tuple[CrawlRun, str, Path]
) -> None:
    truth = demo_site.truth
    run, db_url, _ = sqlite_crawl
    stats = run.stats
    articles = read_articles(db_url)
    scores = score(articles, truth, run.html_paths())
    reference = core_reference(demo_site)
    print(f"\n[{run.seconds:.1f}s] {scores.summary('demo/sqlite')}")
    print(f"  the core alone on the same pages: text F1 {reference:.3f}")
    print(f"  stored non-articles: {sorted(scores.false_positives)}")

    run.check_finished()
    # one row per article item, nothing lost between pipeline and database
    assert len(articles) == stats["denoise/items/extracted"] == stats["item_scraped_count"]
    assert stats["denoise/store/inserted"] == len(articles)
    assert len({a.url for a in articles}) == len(articles)
    assert all(a.text.strip() and a.title for a in articles)
    # noise pages were recognised, and their items never reached the pipeline
    noise = sum(v for k, v in stats.items() if k.startswith("denoise/pages/noise/"))
    assert noise >= 50
    assert stats["denoise/items/dropped_noise_page"] == noise
    assert scores.precision >= MIN_PRECISION
    assert scores.recall >= MIN_RECALL
    assert scores.text.f1 is not None and scores.text.f1 >= MIN_TEXT_F1
    assert scores.text.f1 >= reference - MAX_F1_BELOW_CORE


def core_reference(site: DemoSite) -> float:
    """Text F1 of the core called directly (the crawl's default options, learning in
    memory) on every page of the site in path order: what the crawl should match."""
    from scrapy_denoise import Denoiser
    from scrapy_denoise.evaluation.metrics import Aggregate, page_counts
    from scrapy_denoise.integration.settings import DenoiseConfig

    base = site.start_url.rstrip("/")
    scores = Aggregate()
    with Denoiser(store=None, options=DenoiseConfig().options()) as denoiser:
        for page in site.manifest.pages:
            body = (site.root / page.file).read_bytes()
            article = denoiser.extract(body, base + quote(page.path))
            if page.kind == "article":
                scores.add(page_counts(page.text, article.text))
    assert scores.f1 is not None
    return scores.f1


def test_demo_crawl_stores_languages_and_dates(
    demo_site: DemoSite, sqlite_crawl: tuple[CrawlRun, str, Path]
) -> None:
    truth = demo_site.truth
    _, db_url, _ = sqlite_crawl
    articles = [a for a in read_articles(db_url) if truth.get(_path(a.url), None)]
    true_articles = [a for a in articles if truth[_path(a.url)].kind == "article"]
    langs = {truth[_path(a.url)].lang: 0 for a in true_articles}
    for a in true_articles:
        langs[truth[_path(a.url)].lang] += a.lang == truth[_path(a.url)].lang
    print(f"\n  language agreement per truth language: {langs}")
    assert set(langs) == {"en", "zh"}
    assert all(n >= 15 for n in langs.values())
    dated = [a for a in true_articles if a.published is not None]
    assert len(dated) >= 0.9 * len(true_articles)
    assert all(a.published.tzinfo is not None for a in dated)


def stored_verdicts(db_url: str) -> dict[str, int]:
    """The page filter's verdicts in the database, keyed like the crawl's stats: article
    pages, and noise pages per reason."""
    from scrapy_denoise.store import Store

    counts: dict[str, int] = {}
    with Store.open(db_url, create=False) as store:
        for v in store.verdict_counts():
            key = f"denoise/pages/noise/{v.reason}" if v.is_noise else "denoise/pages/article"
            counts[key] = counts.get(key, 0) + v.count
    return counts


def verdict_stats(stats: dict[str, Any]) -> dict[str, int]:
    return {
        k: int(v)
        for k, v in stats.items()
        if k == "denoise/pages/article" or k.startswith("denoise/pages/noise/")
    }


def _path(url: str) -> str:
    from integration_support import url_path

    return url_path(url)


def test_recrawl_updates_rows_instead_of_duplicating(
    demo_site: DemoSite, sqlite_crawl: tuple[CrawlRun, str, Path]
) -> None:
    start_url = demo_site.start_url
    _, db_url, out = sqlite_crawl
    before = {a.url for a in read_articles(db_url)}
    verdicts_before = stored_verdicts(db_url)
    second = run_crawl(start_url, out, {"DENOISE_DATABASE_URL": db_url})
    after = {a.url for a in read_articles(db_url)}
    stats = second.stats
    # the second crawl's verdicts are added to the first's, none lost, none twice
    added = {
        k: n - verdicts_before.get(k, 0)
        for k, n in stored_verdicts(db_url).items()
        if n != verdicts_before.get(k, 0)
    }
    assert added == verdict_stats(stats)
    counts = {
        k: stats.get(f"denoise/store/{k}", 0)
        for k in ("inserted", "updated", "unchanged", "duplicates")
    }
    print(f"\n  re-crawl: {counts}, rows {len(before)} -> {len(after)}")
    second.check_finished()
    # every article the crawl extracted was written, or skipped as a copy of a stored one
    assert sum(counts.values()) == stats["denoise/items/extracted"]
    # rows go only as pages now judged site pages (none on the demo site: its first crawl
    # stores no site page)
    withdrawn = stats.get("denoise/store/withdrawn", 0)
    assert len(after) == len(before) + counts["inserted"] - withdrawn
    # the same site crawled again is (almost) all known URLs
    assert counts["inserted"] <= 0.05 * len(before)
    assert counts["updated"] + counts["unchanged"] >= 0.9 * len(before)


def test_a_crawl_stores_the_title_beside_the_text_only_unless_told_to_keep_the_headline(
    demo_site: DemoSite, sqlite_crawl: tuple[CrawlRun, str, Path], tmp_path: Path
) -> None:
    """The setting reaches the core in its own process, and the rows show it: the demo
    site's truth, like the shared sites', has no headline."""
    _, dropped_url, _ = sqlite_crawl  # the default
    db_url = f"sqlite:///{tmp_path / 'headline.sqlite3'}"
    settings = {"DENOISE_DATABASE_URL": db_url, "DENOISE_KEEP_HEADLINE": "True"}
    run = run_crawl(demo_site.start_url, tmp_path, settings)
    run.check_finished()
    kept, dropped = read_articles(db_url), read_articles(dropped_url)

    def first_line_is_title(a: Any) -> bool:
        return " ".join(a.text.split("\n")[0].split()).casefold() == (a.title or "").casefold()

    assert sum(map(first_line_is_title, kept)) >= len(kept) // 2
    assert not any(map(first_line_is_title, dropped))
    assert all(a.title for a in dropped)
    before = score(kept, demo_site.truth, run.html_paths()).text.f1
    after = score(dropped, demo_site.truth, run.html_paths()).text.f1
    print(f"\n  text F1, headline kept {before:.3f}, dropped {after:.3f}")
    assert before is not None and after is not None and after > before


def test_plugin_reaches_as_many_articles_as_plain_crawl(
    demo_site: DemoSite, sqlite_crawl: tuple[CrawlRun, str, Path]
) -> None:
    start_url, truth = demo_site.start_url, demo_site.truth
    with_plugin, _, out = sqlite_crawl
    plain = run_crawl(start_url, out, {"ADDONS": {}, "DENOISE_DATABASE_URL": ""})
    articles = {p for p, page in truth.items() if page.kind == "article"}
    reached_plain = articles & plain.html_paths()
    reached_plugin = articles & with_plugin.html_paths()
    print(
        f"\n  article pages reached: plain {len(reached_plain)}, "
        f"with plugin {len(reached_plugin)} of {len(articles)}"
    )
    plain.check_finished()
    assert not [k for k in plain.stats if k.startswith("denoise/")]
    assert len(reached_plain) == len(articles)
    assert reached_plugin >= reached_plain


def test_crawl_under_a_non_asyncio_reactor(demo_site: DemoSite, tmp_path: Path) -> None:
    """The worker-thread results reach the crawl through Twisted, not asyncio, here."""
    start_url, truth = demo_site.start_url, demo_site.truth
    db_url = f"sqlite:///{tmp_path / 'poll.sqlite3'}"
    run = run_crawl(
        start_url,
        tmp_path,
        {
            "DENOISE_DATABASE_URL": db_url,
            "TWISTED_REACTOR": "twisted.internet.pollreactor.PollReactor",
        },
    )
    articles = read_articles(db_url)
    scores = score(articles, truth, run.html_paths())
    print(f"\n[{run.seconds:.1f}s] {scores.summary('demo/poll reactor')}")
    assert "PollReactor" in run.log
    run.check_finished()
    assert len(articles) == run.stats["denoise/store/inserted"]
    verdicts = stored_verdicts(db_url)
    print(f"  stored verdicts: {verdicts}")
    assert verdicts == verdict_stats(run.stats)
    assert sum(n for k, n in verdicts.items() if "/noise/" in k) >= 50
    assert scores.recall >= MIN_RECALL


@pytest.mark.postgres
def test_demo_crawl_stores_articles_in_postgres(
    demo_site: DemoSite, postgres_url: str, tmp_path: Path
) -> None:
    start_url, truth = demo_site.start_url, demo_site.truth
    with scratch_database(postgres_url) as db_url:
        run = run_crawl(start_url, tmp_path, {"DENOISE_DATABASE_URL": db_url})
        articles = read_articles(db_url)
        verdicts = stored_verdicts(db_url)
    scores = score(articles, truth, run.html_paths())
    print(f"\n[{run.seconds:.1f}s] {scores.summary('demo/postgresql')}")
    assert verdicts == verdict_stats(run.stats)
    run.check_finished()
    assert len(articles) == run.stats["denoise/store/inserted"]
    assert scores.precision >= MIN_PRECISION
    assert scores.recall >= MIN_RECALL
    assert scores.text.f1 is not None and scores.text.f1 >= MIN_TEXT_F1


def test_database_down_closes_spider_before_crawling(demo_site: DemoSite, tmp_path: Path) -> None:
    start_url = demo_site.start_url
    run = run_crawl(
        start_url,
        tmp_path,
        {"DENOISE_DATABASE_URL": "postgresql+psycopg://crawler:s3cretpw@127.0.0.1:1/news"},
    )
    assert run.stats["finish_reason"] == "denoise_database_unavailable"
    assert run.stats.get("response_received_count", 0) == 0
    assert "127.0.0.1:1/news" in run.log
    assert "s3cretpw" not in run.log


def _write_page(folder: Path, title: str, body: str) -> None:
    """``folder/index.html``: a UTF-8 page titled ``title`` around ``body``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text(
        f"<!doctype html><html><head><meta charset=utf-8><title>{title}</title></head>"
        f"<body>{body}</body></html>"
    )


def _town_site(root: Path) -> None:
    """Twelve dated stories under ``/posts/SLUG/`` (no date in the URL), each with its AMP
    and print version (copies the URL rule keeps out), and eight undated site pages linked
    from every page's footer, which Scrapy fetches first (a page's last links first). Four
    are named as the ``site_page`` rule knows site pages (about, contact, privacy, terms)
    and are never stored; a first crawl stores the other four before it has seen three
    dated articles."""
    import random

    rng = random.Random(4)
    words = ["council", "harbour", "budget", "river", "bridge", "vote", "school", "market"]
    words += ["minister", "festival", "museum", "station", "library", "garden", "weather"]
    words += ["election", "hospital", "theatre", "ferry", "storm", "road", "park"]

    def text() -> str:  # pages that share no sentence, or they are each other's boilerplate
        return " ".join(rng.choice(words) for _ in range(60)).capitalize() + ". "

    footer = "".join(
        f'<a href="/{name}/">{name.title()}</a> '
        for name in (*_NAMED_SITE_PAGES, *_UNNAMED_SITE_PAGES)
    )

    def write(path: str, title: str, body: str) -> None:
        _write_page(
            root / path,
            title,
            f'<header><nav><a href="/">Home</a></nav></header><main>{body}</main>'
            f"<footer><nav>{footer}</nav><p>Copyright 2024 Town Gazette</p></footer>",
        )

    links = "".join(f'<li><a href="/posts/story-{i}/">Story {i}</a></li>' for i in range(12))
    write("", "Town Gazette", f"<h1>Latest</h1><ul>{links}</ul>")
    for i in range(12):
        byline = f'<p>By Ann Lee, <time datetime="2024-05-{i + 1:02d}">May {i + 1}</time></p>'
        story = "".join(f"<p>{text()}</p>" for _ in range(5))
        versions = f'<a href="/posts/story-{i}/print/">Print</a> <a href="amp/">AMP</a>'
        write(
            f"posts/story-{i}",
            f"Story {i}",
            f"<article><h1>Story {i}</h1>{byline}{story}<p>{versions}</p></article>",
        )
        # the copies add a line of their own, as real ones do, so they are no text copy
        write(
            f"posts/story-{i}/print",
            f"Story {i}",
            f"<h1>Story {i}</h1>{byline}{story}<p>URL to article: /posts/story-{i}/</p>",
        )
        write(f"posts/story-{i}/amp", f"Story {i}", f"<h1>Story {i}</h1><p>Ann Lee</p>{story}")
    for name in (*_NAMED_SITE_PAGES, *_UNNAMED_SITE_PAGES):
        about = "".join(f"<p>{text()}</p>" for _ in range(4))
        write(name, name.title(), f"<h1>{name.title()}</h1>{about}")


#: the town site's pages that the ``site_page`` rule judges by name, and the ones it cannot
_NAMED_SITE_PAGES = ("about", "contact", "privacy", "terms")
_UNNAMED_SITE_PAGES = ("our-team", "history", "mission", "masthead")


def test_a_crawl_deletes_at_its_end_the_rows_of_site_pages_it_let_through(
    tmp_path: Path,
) -> None:
    """The ``navigation_page`` rule judges a site's pages only once the site has shown
    that it dates its articles, and the crawl meets the town site's footer pages before
    that: it stores them, and deletes their rows when the spider closes, by the links of
    every page it fetched. The pages the ``site_page`` rule knows by name are never
    stored; a second crawl finds nothing to delete."""
    from integration_support import url_path

    _town_site(tmp_path / "www")
    db_url = f"sqlite:///{tmp_path / 'town.sqlite3'}"
    rows, withdrawn, logs = [], [], []
    with serve(tmp_path / "www") as base_url:
        for _ in range(2):
            run = run_crawl(base_url + "/", tmp_path, {"DENOISE_DATABASE_URL": db_url})
            run.check_finished()
            rows.append(sorted(url_path(a.url) for a in read_articles(db_url)))
            withdrawn.append(run.stats.get("denoise/store/withdrawn", 0))
            logs.append(run.log)
    stories = sorted(f"/posts/story-{i}/" for i in range(12))
    print(f"\n  rows per crawl {[len(r) for r in rows]}, deleted {withdrawn}")
    assert rows == [stories, stories]
    # how many passed depends on the order responses arrive in (all four, measured)
    assert 1 <= withdrawn[0] <= len(_UNNAMED_SITE_PAGES) and withdrawn[1] == 0
    # deleted before the crawl's summary line, which counts them
    assert f"{withdrawn[0]} deleted (now noise pages)" in logs[0]


def test_a_recrawl_deletes_the_rows_of_pages_it_judges_site_pages(tmp_path: Path) -> None:
    """``DENOISE_STORE_WITHDRAW``: rows of site pages an earlier crawl kept (here one
    with the setting off, as an earlier version kept them) are deleted by the next crawl
    that meets them; the one after finds nothing more to do."""
    from integration_support import url_path

    _town_site(tmp_path / "www")
    db_url = f"sqlite:///{tmp_path / 'town.sqlite3'}"
    rows, withdrawn = [], []
    with serve(tmp_path / "www") as base_url:
        for keep in (True, False, False):
            settings = {"DENOISE_DATABASE_URL": db_url, "DENOISE_STORE_WITHDRAW": not keep}
            run = run_crawl(base_url + "/", tmp_path, settings)
            run.check_finished()
            rows.append(sorted(url_path(a.url) for a in read_articles(db_url)))
            withdrawn.append(run.stats.get("denoise/store/withdrawn", 0))
    stories = [f"/posts/story-{i}/" for i in range(12)]
    print(f"\n  rows per crawl {[len(r) for r in rows]}, deleted {withdrawn}")
    first_site_pages = sorted(set(rows[0]) - set(stories))
    assert set(stories) <= set(rows[0]) and first_site_pages  # the case this is for
    assert set(first_site_pages) <= {f"/{name}/" for name in _UNNAMED_SITE_PAGES}
    assert rows[1] == rows[2] == sorted(stories)
    assert withdrawn == [0, len(first_site_pages), 0]


#: a line under every post, in the post's own block: only what the site's learning knows
#: tells it from the post (a template from the first batch of 10 pages on)
_SIGN_OFF = "Thanks for reading the Thornbank plot diary, and see you at the allotment next week"


#: a line on every other post: line statistics learn it once more than a third of the
#: site's pages, and more than 21, have it, after the posts met before were stored
_APPEAL = "Keep the Thornbank plot diary going: become a friend of the allotment society"


def _diary_site(root: Path, posts: int, *, appeal: bool = False) -> None:
    """``posts`` dated posts of varied text, each ending in :data:`_SIGN_OFF` (and, with
    ``appeal``, every other one holding :data:`_APPEAL` before its last paragraph),
    listed on the home page."""
    import random

    rng = random.Random(9)
    words = ["rhubarb", "potatoes", "beans", "shed", "compost", "frost", "courgettes", "hedge"]
    words += ["manure", "onions", "leeks", "carrots", "greenhouse", "seedlings", "slugs", "rain"]

    def write(path: str, title: str, body: str) -> None:
        _write_page(root / path, title, f"<main>{body}</main>")

    links = "".join(f'<li><a href="/posts/day-{i}/">Day {i}</a></li>' for i in range(posts))
    write("", "Plot diary", f"<h1>Plot diary</h1><ul>{links}</ul>")
    for i in range(posts):
        story = "".join(
            "<p>" + " ".join(rng.choice(words) for _ in range(40)).capitalize() + ".</p>"
            for _ in range(3)
        )
        if appeal and i % 2 == 0:
            story += f"<p>{_APPEAL}.</p>"
        date = f'<time datetime="2024-{1 + i // 28:02d}-{1 + i % 28:02d}">day {i}</time>'
        write(
            f"posts/day-{i}",
            f"Day {i}",
            f"<article><h1>Day {i}</h1><p>By Ruth, {date}</p>{story}<p>{_SIGN_OFF}.</p></article>",
        )


def _crawl_diary(
    base_url: str, tmp_path: Path, posts: int, settings: Mapping[str, object]
) -> tuple[CrawlRun, list[StoredArticle]]:
    """A crawl of the served diary into a database of its own, with ``settings``; the run
    and its rows, each of the ``posts`` stored."""
    db_url = f"sqlite:///{tmp_path / f'diary-{uuid.uuid4().hex[:8]}.sqlite3'}"
    run = run_crawl(base_url + "/", tmp_path, {"DENOISE_DATABASE_URL": db_url, **settings})
    run.check_finished()
    articles = read_articles(db_url)
    assert len(articles) == posts
    return run, articles


def test_a_crawl_rewrites_at_its_end_the_rows_stored_before_their_site_was_learned(
    tmp_path: Path,
) -> None:
    """``DENOISE_REVISIT_FIRST``: the first posts are extracted before the sign-off line is
    known as the site's (9 of 40 rows kept it), and the crawl extracts them again when it
    closes and rewrites their rows. Switched off, the rows keep it."""
    _diary_site(tmp_path / "www", 40)
    kept: dict[int, int] = {}
    with serve(tmp_path / "www") as base_url:
        for revisit in (40, 0):
            run, articles = _crawl_diary(base_url, tmp_path, 40, {"DENOISE_REVISIT_FIRST": revisit})
            kept[revisit] = sum(_SIGN_OFF in a.text for a in articles)
            if revisit:
                assert run.stats.get("denoise/store/revised", 0) >= 5
                assert "rewrote the text of" in run.log
                # before the crawl's summary line, which counts them
                assert "rewritten with what the crawl learned" in run.log
    print(f"\n  rows that kept the sign-off line: {kept}")
    assert kept[0] >= 5 and kept[40] == 0


def test_a_crawl_takes_out_at_its_end_the_lines_its_sites_learned_after_storing_them(
    tmp_path: Path,
) -> None:
    """``DENOISE_REFILTER_LINES``: a line on every other post is learned as the site's once
    it is on more than a third of the pages counted, so the posts met before kept it
    (the first pages' revisit and the templates switched off, to see this alone: on half
    the pages, the line's template share is about the 0.5 that removes it, and in some crawl
    orders the templates took it out from the first batch on); the crawl takes it out of
    their rows when it closes. Switched off, the rows keep it."""
    _diary_site(tmp_path / "www", 90, appeal=True)
    kept: dict[bool, int] = {}
    with serve(tmp_path / "www") as base_url:
        for refilter in (True, False):
            settings = {
                "DENOISE_REVISIT_FIRST": 0,
                "DENOISE_TEMPLATES_ENABLED": False,
                "DENOISE_REFILTER_LINES": refilter,
            }
            run, articles = _crawl_diary(base_url, tmp_path, 90, settings)
            kept[refilter] = sum(_APPEAL in a.text for a in articles)
            if refilter:
                assert run.stats.get("denoise/store/revised", 0) >= 10
    print(f"\n  rows that kept the appeal: {kept}")
    assert kept[False] >= 10 and kept[True] == 0
