"""A site's first article pages, extracted again once the site is learned (``first_pages``)."""

from __future__ import annotations

import random

import pytest

from scrapy_denoise import DenoiseOptions, Denoiser
from scrapy_denoise import first_pages as first_pages_module
from scrapy_denoise.first_pages import FirstPage, FirstPages
from scrapy_denoise.page.verdict import PageVerdict
from scrapy_denoise.store import ArticleRecord, Store

SITE = "https://garden.example"
#: a line under every post, in the post's own block: only what the site's learning knows
#: tells it from the post (a template from the first batch of 10 pages on)
SIGN_OFF = "Thanks for reading the Thornbank plot diary, and see you at the allotment next week"
_WORDS = [
    "rhubarb",
    "potatoes",
    "beans",
    "shed",
    "compost",
    "frost",
    "courgettes",
    "hedge",
    "manure",
    "onions",
    "leeks",
    "carrots",
    "greenhouse",
    "seedlings",
    "slugs",
    "netting",
    "rain",
    "mulch",
    "wheelbarrow",
    "chutney",
    "neighbour",
    "committee",
]


def _post(n: int) -> str:
    w = random.Random(n).sample(_WORDS, 6)
    own = (
        f"On day {n} the {w[0]} and the {w[1]} needed the {w[2]}, so we moved the {w[3]} "
        f"past the {w[4]} before the {w[5]} came up."
    )
    return (
        f"<html><head><title>Plot diary {n}</title></head><body>"
        f"<div class='post'><h1>Plot diary {n}</h1><p>{own}</p><p>{SIGN_OFF}.</p></div>"
        "</body></html>"
    )


def _crawl(denoiser: Denoiser, pages: int) -> dict[str, str]:
    return {
        url: denoiser.extract(_post(n), url).text
        for n in range(pages)
        if (url := f"{SITE}/2024/{n}.html")
    }


def test_revisit_extracts_the_first_pages_again_with_what_the_site_learned_since() -> None:
    with Denoiser(store=None, page_model=None, revisit_first=30) as denoiser:
        texts = _crawl(denoiser, 80)
        first = f"{SITE}/2024/0.html"
        assert SIGN_OFF in texts[first]  # nothing was learned when the first page came
        assert SIGN_OFF not in texts[f"{SITE}/2024/79.html"]  # the recurring line went
        learned = denoiser.learner.pages_learned(SITE) if denoiser.learner else -1
        revised = denoiser.revisit()
        assert revised and {a.url for a in revised} <= set(texts)
        assert all(SIGN_OFF not in a.text and a.text for a in revised)
        assert first in {a.url for a in revised}
        # the pages were not learned from again, and each is revisited once
        assert denoiser.learner is not None
        assert denoiser.learner.pages_learned(SITE) == learned
        assert denoiser.revisit() == []


def test_only_the_pages_a_young_site_met_are_kept() -> None:
    with Denoiser(store=None, page_model=None, revisit_first=5) as denoiser:
        _crawl(denoiser, 40)
        revised = denoiser.revisit()
        # the pages a site learned from fewer than 5 pages with, and no later one
        assert 0 < len(revised) <= 5
        assert all(int(a.url.rsplit("/", 1)[1].split(".")[0]) < 5 for a in revised)


def test_revisit_keeps_nothing_when_off_or_without_site_learning() -> None:
    with Denoiser(store=None, page_model=None) as denoiser:
        _crawl(denoiser, 40)
        assert denoiser.revisit() == []
    with Denoiser(store=False, page_model=None, revisit_first=30) as denoiser:
        _crawl(denoiser, 40)
        assert denoiser.revisit() == []


def test_revisit_first_is_a_count() -> None:
    with pytest.raises(ValueError, match="revisit_first must be at least 0"):
        DenoiseOptions(revisit_first=-1)
    with pytest.raises(TypeError, match="revisit_first must be an int"):
        DenoiseOptions(revisit_first=True)


def _page(url: str, size: int) -> FirstPage:
    return FirstPage(url, b"x" * size, None, PageVerdict(False, 0.1, "model"), 0)


def test_first_pages_are_bounded_per_site_and_in_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(first_pages_module, "MAX_BYTES", 250)
    pages = FirstPages(per_site=3)
    assert pages.keep(_page("a", 100), learned=1)
    assert not pages.keep(_page("a", 100), learned=2)  # a URL once
    assert not pages.keep(_page("b", 100), learned=4)  # the site has learned enough
    assert pages.keep(_page("c", 100), learned=3)
    assert not pages.keep(_page("d", 100), learned=1)  # over the bytes
    assert [p.url for p in pages.take()] == ["a", "c"]
    assert len(pages) == 0 and pages.keep(_page("d", 100), learned=1)


def test_revise_texts_rewrites_stored_rows_only() -> None:
    store = Store.open(None)
    try:
        store.upsert_articles(
            [
                ArticleRecord(
                    url=f"{SITE}/a/index.html", site=SITE, text="old\nSidebar", title="A"
                ),
                ArticleRecord(url=f"{SITE}/b", site=SITE, text="same", title="B"),
            ]
        )
        revised = store.revise_texts(
            [(f"{SITE}/a/", "old"), (f"{SITE}/b", "same"), (f"{SITE}/never-stored", "new")]
        )
        assert revised == [f"{SITE}/a/"]
        with store.engine.connect() as conn:
            rows: dict[str, str] = dict(
                conn.exec_driver_sql("SELECT url, text FROM articles").fetchall()
            )
        assert rows == {f"{SITE}/a/": "old", f"{SITE}/b": "same"}
        # the rewritten row is unchanged to a later upsert of the same article
        counts = store.upsert_articles(
            [ArticleRecord(url=f"{SITE}/a/", site=SITE, text="old", title="A")]
        )
        assert counts.unchanged == 1
    finally:
        store.close()


def test_a_first_page_is_judged_a_listing_by_the_text_it_is_stored_with() -> None:
    # Every post opens with the popular posts (the titles of three other posts) in its own
    # column, which the site's templates take out once learned: judged by its first text, a
    # first page was a list of the site's articles. (In the post's column, not a sidebar of
    # its own: the block model may drop a sidebar from the first page already.)
    popular = "".join(f"<h4>Plot diary {n}</h4>" for n in (1, 2, 3))

    def post(n: int) -> str:
        return _post(n).replace(
            "<div class='post'>", f"<div class='post'><h3>Popular posts</h3>{popular}"
        )

    with Denoiser(store=None, page_model=None, revisit_first=30) as denoiser:
        texts = {
            url: denoiser.extract(post(n), url).text
            for n in range(80)
            if (url := f"{SITE}/2024/{n}.html")
        }
        first = f"{SITE}/2024/0.html"
        assert "Plot diary 2" in texts[first]
        assert "Plot diary 2" not in texts[f"{SITE}/2024/79.html"]
        assert (first, "listing") in denoiser.noise_pages_passed()
        revised = {a.url: a.text for a in denoiser.revisit()}
        assert "Plot diary 2" not in revised[first]
        assert (first, "listing") not in denoiser.noise_pages_passed()
