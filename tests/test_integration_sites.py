"""End to end on the two real websites of the shared data: crawl, store, score.

Each site's ``www/`` is unpacked to a temporary folder and served on 127.0.0.1; the example
project's ``news`` spider crawls it from the start URL the data README gives, with the
add-on, into SQLite. The tests then read the ``articles`` table back and measure, against
``pages.jsonl`` and ``truth/``:

* precision: the share of stored rows that are true articles (noise pages kept out);
* recall: the share of the articles the crawl reached that were stored;
* text F1: the benchmark's shingle metric between stored text and the truth (and character
  LCS F1, the customary score for Chinese).

Each site is crawled twice: with the shipped page model, which was trained on both sites'
pages (what a user of these sites runs), and with one trained here by ``train pages
--without SITE``, which never saw the site (what a user's own site meets; the block
model never saw either site).

The numbers are printed (``pytest -s``); the asserted bounds sit below what was measured
(see ``_SITES``) with a margin for crawl order, which changes what the site learner has
seen when a page is extracted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from integration_support import TruthPage, read_articles, run_crawl, score, serve

from scrapy_denoise.evaluation.datasets import iter_site_pages, www_tempdir
from scrapy_denoise.models.train_pages import train_pages

pytestmark = [pytest.mark.slow, pytest.mark.data]


@dataclass(frozen=True)
class Site:
    name: str
    start_path: str
    min_precision: float
    min_recall: float
    min_text_f1: float
    min_lcs_f1: float


#: Measured (SQLite, default settings) on two versions of the core during development:
#: flink-blog precision 0.820-0.837 before the ``navigation_page`` rule (docs and info pages,
#: "other" noise in the truth, passed the page filter) and 0.937-0.967 with it in Scrapy's
#: default order, the one this test crawls in (2026-11-24, while the rule was refined;
#: 0.967 in the last four crawls, breadth-first 0.963),
#: recall 0.996-1.000, text F1 0.901-0.932, LCS F1 0.901-0.929;
#: zjuvai-blog precision 0.998-1.000, recall 0.974-0.989 (1.000 of the articles whose truth
#: has at least DENOISE_MIN_TEXT_CHARS characters: image-only posts are dropped on purpose),
#: text F1 0.954-0.988, LCS F1 0.937-0.985. Since duplicates are dropped (2026-11-25),
#: zjuvai-blog recall 0.987 (449 of its 450 posts with text: it publishes one post under
#: two URLs, ``2019-06-27-VizML ...`` and ``2019-07-08-VizML-...``, stored once).
#: 2026-11-27 (this version): flink-blog precision 0.967, recall 1.000, text F1 0.987, LCS F1
#: 0.987; zjuvai-blog 1.000, 0.987, 0.984, 0.975. 2026-11-28, a CJK character counting three
#: against DENOISE_MIN_TEXT_CHARS: zjuvai-blog 0.998, 0.993, 0.983, 0.973 (455 articles, 3
#: short posts more, and its textbook page, 68 characters of book details, stored too).
#: 2026-11-29, with a page model trained without the crawled site (``train pages --without``):
#: flink-blog 0.963 (one list page more, ``/posts/``), 1.000, 0.987, 0.987; zjuvai-blog 0.998,
#: 0.993, 0.982, 0.973 (the shipped model's crawls: 0.967 and 0.998, the rest as above).
#: 2026-11-29, later (list pages judged by the titles of the site's other articles and
#: deleted at the crawl's end, dated meta lines counted by their frame, and the crawl's
#: text leaving the headline to the title column): flink-blog 0.967, 1.000, 0.990 to 0.995,
#: 0.990 to 0.995 with either page model (its ``/posts/`` page, stored with the page model
#: trained without the site, is deleted at the end); zjuvai-blog 0.998, 0.991, 0.994,
#: 0.990 (its truth has no headline: text F1 was 0.982 with it).
#: 2026-11-29, last (the first pages of a site extracted again at the crawl's end, bylines
#: framed by their form), shipped page model: flink-blog 0.967, 1.000, 0.995, 0.995;
#: zjuvai-blog 0.998, 0.993, 0.994, 0.990.
#: 2026-11-30 (a home page's content links kept apart, and counted as navigation at the
#: crawl's end): flink-blog 1.000, 1.000, 0.995, 0.995 with either page model (its eight
#: "what is Flink" pages, which its home page's tiles link to, deleted at the end);
#: zjuvai-blog as before.
#: The bounds below sit 2 to 4 points under
#: those (they were 5 to 14 points under, and a regression of several points passed).
_SITES = [
    Site("flink-blog", "/", 0.97, 0.99, 0.96, 0.96),
    Site("zjuvai-blog", "/blog/", 0.98, 0.97, 0.95, 0.94),
]


@pytest.fixture(scope="module")
def page_model_without(
    shared_data: Path, tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str], Path]:
    """The page model file trained as the shipped one is, less one site (16 s each)."""
    made: dict[str, Path] = {}

    def model(site: str) -> Path:
        if site not in made:
            out = tmp_path_factory.mktemp("models") / f"pages-without-{site}.json"
            train_pages(shared_data, out, without=site, progress=lambda _: None)
            made[site] = out
        return made[site]

    return model


@pytest.mark.parametrize("page_model", ["shipped", "site held out"])
@pytest.mark.parametrize("site", _SITES, ids=[s.name for s in _SITES])
def test_site_crawl_stores_articles(
    site: Site,
    page_model: str,
    shared_data: Path,
    tmp_path: Path,
    page_model_without: Callable[[str], Path],
) -> None:
    archive = shared_data / "sites" / f"{site.name}.zip"
    truth = {
        page.path: TruthPage(page.kind, page.truth)
        for page in iter_site_pages(archive, with_html=False)
    }
    db_url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    settings = {"DENOISE_DATABASE_URL": db_url}
    if page_model != "shipped":
        settings["DENOISE_PAGE_MODEL"] = str(page_model_without(site.name))
    with www_tempdir(archive) as root, serve(root) as base_url:
        run = run_crawl(base_url + site.start_path, tmp_path, settings)
    articles = read_articles(db_url)
    scores = score(articles, truth, run.html_paths())
    noise = {
        k.removeprefix("denoise/pages/noise/"): v
        for k, v in run.stats.items()
        if k.startswith("denoise/pages/noise/")
    }
    print(
        f"\n[{page_model} page model, {run.seconds:.1f}s, "
        f"{run.stats['response_received_count']} responses] "
        f"{scores.summary(site.name)}"
    )
    print(f"  noise pages by rule: {noise}")
    print(
        f"  stored non-articles ({len(scores.false_positives)}): "
        f"{sorted(scores.false_positives)[:12]}"
    )

    run.check_finished()
    # rows the crawl's last look judged noise pages went (denoise/store/withdrawn)
    withdrawn = run.stats.get("denoise/store/withdrawn", 0)
    assert len(articles) == run.stats["denoise/store/inserted"] - withdrawn
    assert scores.reachable_articles >= 0.95 * scores.all_articles
    assert scores.precision >= site.min_precision
    assert scores.recall >= site.min_recall
    assert scores.text.f1 is not None and scores.text.f1 >= site.min_text_f1
    assert scores.lcs.f1 is not None and scores.lcs.f1 >= site.min_lcs_f1
