"""Lines learned as noise after an article was extracted, taken out at the crawl's end
(``article_lines``, ``Denoiser.outdated``, ``Denoiser.refilter``)."""

from __future__ import annotations

import random

import pytest

from scrapy_denoise import DenoiseOptions, Denoiser
from scrapy_denoise import article_lines as article_lines_module
from scrapy_denoise.article_lines import ArticleLines, key_int
from scrapy_denoise.methods.linestats import line_key
from scrapy_denoise.store import ArticleRecord, Store

SITE = "https://garden.example"
#: on every other post: it crosses line statistics' bound (on more than a third of the
#: site's pages, and on more than 21) once about 44 posts are in, after 22 posts kept it
APPEAL = "Keep the Thornbank plot diary going: become a friend of the allotment society today"
_WORDS = [
    *("rhubarb", "potatoes", "beans", "shed", "compost", "frost", "courgettes", "hedge"),
    *("manure", "onions", "leeks", "carrots", "greenhouse", "seedlings", "slugs", "netting"),
]


def _post(n: int) -> str:
    rng = random.Random(n)
    paragraphs = [
        "<p>" + " ".join(rng.choice(_WORDS) for _ in range(30)).capitalize() + ".</p>"
        for _ in range(3)
    ]
    if n % 2 == 0:
        paragraphs.insert(2, f"<p>{APPEAL}.</p>")
    return (
        f"<html><head><title>Plot diary {n}</title></head><body>"
        f"<div class='post'><h1>Plot diary {n}</h1>{''.join(paragraphs)}</div></body></html>"
    )


def _crawl(denoiser: Denoiser, pages: int) -> dict[str, str]:
    return {
        url: denoiser.extract(_post(n), url).text
        for n in range(pages)
        if (url := f"{SITE}/2024/{n}.html")
    }


def _denoiser(**options: object) -> Denoiser:
    # line statistics alone: the templates would learn the appeal as the site's from its
    # first batch on, and this is line statistics' lag
    return Denoiser(store=None, page_model=None, **{"templates": False, **options})  # type: ignore[arg-type]


def test_the_articles_met_before_a_line_was_learned_lose_it_at_the_end() -> None:
    with _denoiser(refilter_lines=True) as denoiser:
        texts = _crawl(denoiser, 100)
        holding = [url for url, text in texts.items() if APPEAL in text]
        assert len(holding) >= 15  # the case this is for: the early posts kept it
        assert APPEAL not in texts[f"{SITE}/2024/98.html"]  # the late ones did not
        outdated = denoiser.outdated()
        assert outdated == holding
        for url in outdated:
            cleaned = denoiser.refilter(url, texts[url])
            assert APPEAL not in cleaned
            assert cleaned == "\n".join(
                line for line in texts[url].split("\n") if APPEAL not in line
            )
        assert denoiser.outdated() == []  # each is named once


def test_refilter_learns_nothing_and_keeps_a_clean_text_as_it_is() -> None:
    with _denoiser(refilter_lines=True) as denoiser:
        texts = _crawl(denoiser, 100)
        assert denoiser.learner is not None
        learned = denoiser.learner.pages_learned(SITE)
        clean = texts[f"{SITE}/2024/1.html"]
        assert denoiser.refilter(f"{SITE}/2024/1.html", clean) is clean
        assert denoiser.refilter(f"{SITE}/2024/0.html", "") == ""
        assert denoiser.learner.pages_learned(SITE) == learned


def test_revisited_pages_are_not_named_again() -> None:
    with _denoiser(refilter_lines=True, revisit_first=40) as denoiser:
        _crawl(denoiser, 100)
        revised = {a.url for a in denoiser.revisit()}
        assert revised
        assert revised.isdisjoint(denoiser.outdated())


def test_nothing_is_remembered_when_off_or_without_line_statistics() -> None:
    with _denoiser() as denoiser:
        _crawl(denoiser, 100)
        assert denoiser.outdated() == []
    with Denoiser(store=False, page_model=None, refilter_lines=True) as denoiser:
        _crawl(denoiser, 20)
        assert denoiser.outdated() == []
        assert denoiser.refilter(f"{SITE}/2024/0.html", APPEAL) == APPEAL
    with _denoiser(refilter_lines=True, line_stats=False, templates=True) as denoiser:
        _crawl(denoiser, 20)
        assert denoiser.outdated() == []


def test_refilter_lines_is_a_bool() -> None:
    with pytest.raises(TypeError, match="refilter_lines must be True or False"):
        DenoiseOptions(refilter_lines=1)  # type: ignore[arg-type]


def test_article_lines_name_the_articles_holding_a_noise_key() -> None:
    a, b, c = (line_key(text) for text in ("share this", "first paragraph", "second"))
    memory = ArticleLines()
    assert memory.keep("u1", "s1", [a, b])
    assert memory.keep("u2", "s1", [b, c])
    assert memory.keep("u3", "s2", [a])
    asked = []

    def noise(site: str) -> frozenset[int]:
        asked.append(site)
        return frozenset({key_int(a)}) if site == "s1" else frozenset()

    assert memory.holding(noise) == ["u1"]
    assert asked == ["s1", "s2"]  # once per site
    memory.forget("u1")
    assert memory.holding(noise) == [] and len(memory) == 2


def test_article_lines_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    keys = [line_key(str(n)) for n in range(4)]
    memory = ArticleLines(max_keys=5)
    assert memory.keep("u1", "s", keys[:3])
    assert not memory.keep("u2", "s", keys)  # 3 + 4 keys: over
    assert memory.keep("u1", "s", keys[:2])  # a visit again replaces its keys
    assert memory.keep("u2", "s", keys[:3])
    assert len(memory) == 2
    assert article_lines_module.MAX_KEYS * 4 <= 32 * 1024 * 1024


def test_article_texts_reads_the_stored_rows() -> None:
    store = Store.open(None)
    try:
        store.upsert_articles(
            [ArticleRecord(url=f"{SITE}/a/index.html", site=SITE, text="one\ntwo", title="A")]
        )
        assert store.article_texts([f"{SITE}/a/", f"{SITE}/none"]) == {
            f"{SITE}/a/": ("A", "one\ntwo")
        }
        assert store.article_texts([]) == {}
    finally:
        store.close()
