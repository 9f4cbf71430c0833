"""The end-to-end demo: generate a news site, serve it on loopback, crawl it, show the result.

Run ``python -m demo`` from ``example_project/`` (``make demo`` does). It needs no network
beyond 127.0.0.1:

1. writes "Demo Daily" (a generated bilingual news site with ground truth, see
   :mod:`demosite.generate`) to ``demo_site/``;
2. serves it on 127.0.0.1 on a free port;
3. crawls it with this project's generic ``news`` spider and the scrapy-denoise add-on into
   ``demo.sqlite3`` (started fresh on every run so the numbers describe one crawl);
4. prints what the crawl did (pages, noise pages by the rule that caught them), what the
   database holds (articles, one of them), and how that compares with the site's ground
   truth: precision and recall of stored pages being articles, and text F1.

The crawl runs in this process (``CrawlerProcess``) so that its stats, which say why each
noise page was filtered, can be printed next to what is read back from the database.
"""

from __future__ import annotations

import argparse
import logging
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True, slots=True)
class StoredArticle:
    url: str
    title: str | None
    text: str
    published: Any
    author: str | None
    lang: str | None


def read_articles(database_url: str) -> list[StoredArticle]:
    """Every row of the ``articles`` table, in URL order."""
    from sqlalchemy import create_engine, select

    from scrapy_denoise.store.schema import Base

    table = Base.metadata.tables["articles"]  # typed columns: dates come back as datetimes
    columns = [table.c[name] for name in ("url", "title", "text", "published", "author", "lang")]
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(*columns).order_by(table.c.url)).all()
    finally:
        engine.dispose()
    return [StoredArticle(*row) for row in rows]


def crawl(start_url: str, database_url: str, *, verbose: bool = False) -> dict[str, Any]:
    """Crawl with the project's settings into ``database_url``; return the crawl's stats."""
    from news.spiders.news import NewsSpider
    from scrapy.crawler import CrawlerProcess
    from scrapy.utils.project import get_project_settings

    settings = get_project_settings()
    settings.setdict(
        {
            "DENOISE_DATABASE_URL": database_url,
            # a local server needs no politeness; the whole demo runs in seconds
            "ROBOTSTXT_OBEY": False,
            "AUTOTHROTTLE_ENABLED": False,
            "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
            "TELNETCONSOLE_ENABLED": False,
            "LOG_LEVEL": "INFO" if verbose else "WARNING",
        },
        priority="cmdline",
    )
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(NewsSpider)
    process.crawl(crawler, start_url=start_url)
    process.start()
    assert crawler.stats is not None
    return dict(crawler.stats.get_stats())


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} = {part / whole:.1%}" if whole else f"{part}/0"


def report(stats: dict[str, Any], articles: Sequence[StoredArticle], manifest: Any) -> str:
    """The demo's summary: crawl, database, and a comparison with the ground truth."""
    from scrapy_denoise.evaluation.metrics import Aggregate, page_counts

    by_path = manifest.by_path()
    true_articles = {p.path for p in manifest.articles}
    noise = {
        k.removeprefix("denoise/pages/noise/"): v
        for k, v in stats.items()
        if k.startswith("denoise/pages/noise/")
    }
    lines = [
        "Crawl",
        f"  pages crawled:          {stats.get('response_received_count', 0)}",
        f"  judged article pages:   {stats.get('denoise/pages/article', 0)}",
        f"  judged noise pages:     {sum(noise.values())}",
    ]
    for reason, count in sorted(noise.items(), key=lambda kv: -kv[1]):
        lines.append(f"    {reason:<22}{count}")
    dropped = stats.get("denoise/items/dropped_short_text", 0)
    lines += [
        f"  dropped (text too short): {dropped}",
        f"  finish reason:          {stats.get('finish_reason')}",
        "",
        "Database",
        f"  articles stored:        {len(articles)}",
    ]
    scores = Aggregate()
    hits = 0
    for article in articles:
        page = by_path.get(unquote(urlsplit(article.url).path))
        if page is not None and page.kind == "article":
            hits += 1
            scores.add(page_counts(page.text, article.text))
    sample = next((a for a in articles if a.lang == "en"), articles[0] if articles else None)
    if sample is not None:
        first = [line for line in sample.text.splitlines() if line.strip()][:3]
        lines += [
            "",
            f"  one of them: {sample.url}",
            f"    title:     {sample.title}",
            f"    published: {sample.published}   author: {sample.author}   lang: {sample.lang}",
            "    text:",
            *(
                textwrap.shorten(line, 96, placeholder=" ...").join(("      ", ""))
                for line in first
            ),
        ]
    f1 = scores.f1
    lines += [
        "",
        "Against the ground truth (manifest.json)",
        f"  precision (stored pages that are articles): {_pct(hits, len(articles))}",
        f"  recall (site's articles that were stored):  {_pct(hits, len(true_articles))}",
        f"  text F1 of stored articles (shingle metric): "
        f"{'n/a' if f1 is None else format(f1, '.3f')}",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m demo", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=HERE / "demo_site", help="site directory")
    parser.add_argument(
        "--database",
        default=None,
        help="SQLAlchemy URL (default: a fresh demo.sqlite3 in example_project/)",
    )
    parser.add_argument("--seed", type=int, default=7, help="site generator seed")
    parser.add_argument("-v", "--verbose", action="store_true", help="show Scrapy's log")
    args = parser.parse_args(argv)

    sys.path.insert(0, str(HERE))  # news.* and demosite.* when run from elsewhere
    from demosite.generate import generate
    from demosite.serve import serve

    database_url = args.database
    if database_url is None:
        db_file = HERE / "demo.sqlite3"
        for stale in (db_file, *db_file.parent.glob(db_file.name + "-*")):
            stale.unlink(missing_ok=True)
        database_url = f"sqlite:///{db_file}"

    manifest = generate(args.out, seed=args.seed)
    print(
        f"Generated {len(manifest.pages)} pages ({len(manifest.articles)} articles) in {args.out}"
    )
    with serve(args.out) as base_url:
        print(f"Serving it at {base_url}/ and crawling it ...", flush=True)
        stats = crawl(base_url + "/", database_url, verbose=args.verbose)
    articles = read_articles(database_url)
    print()
    print(report(stats, articles, manifest))
    return 0 if stats.get("finish_reason") == "finished" else 1


if __name__ == "__main__":
    logging.getLogger("alembic").setLevel(logging.WARNING)
    raise SystemExit(main())
