"""The public Denoiser API: extraction, classification, learning across instances."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

import pytest
from report_pages import quake_report

from scrapy_denoise import DenoiseOptions, Denoiser, PageRules
from scrapy_denoise.methods.linestats import LineParams
from scrapy_denoise.store import ArticleRecord, Store

ARTICLE = """<html><head><title>Storm hits coast - Daily</title></head><body>
<nav><a href="/">Home</a> <a href="/world/">World</a> <a href="/sport/">Sport</a></nav>
<article><h1>Storm hits coast</h1>
<p>A powerful storm hit the coast on Monday, and officials said thousands of homes were left
without power while rescue teams worked through the night to reach stranded families.</p>
<p>The weather service warned that more rain was expected later in the week, and urged
residents in low-lying areas to prepare for further flooding in the coming days.</p>
</article><footer>Copyright 2024 Daily News. All rights reserved.</footer></body></html>"""


def _index(n: int) -> str:
    links = "".join(
        f'<li><a href="/story/{n}-{i}.html">Story {n}-{i} headline</a></li>' for i in range(40)
    )
    return f"<html><body><ul>{links}</ul></body></html>"


def test_extract_returns_article_text_and_metadata() -> None:
    with Denoiser(store=False) as d:
        art = d.extract(ARTICLE, "https://news.example/2024/05/06/storm.html")
    assert "powerful storm hit the coast" in art.text
    assert "Copyright" not in art.text
    assert art.title == "Storm hits coast"
    assert art.lang == "en"
    assert art.published is not None and art.published.year == 2024


def test_a_page_without_url_is_extracted_and_classified() -> None:
    # Datasets and callers without a URL pass None; the page then belongs to no site.
    with Denoiser() as d:
        art = d.extract(ARTICLE, None)
        verdict = d.classify(ARTICLE, None)
    assert "powerful storm hit the coast" in art.text
    assert not verdict.is_noise


def test_changing_index_page_is_noise_after_repeated_visits() -> None:
    rules = PageRules(
        url_patterns=(), min_text_chars=None, max_link_text_ratio=None, shallow_url_depth=None
    )
    with Denoiser(options=DenoiseOptions(rules=rules, page_model=None)) as d:
        url = "https://news.example/latest/list.html"
        reasons = [_crawl_visit(d, _index(visit), url) for visit in range(7)]
    # The page changes on every visit: once three earlier visits all changed, it is noise,
    # and stays noise while it keeps changing (judged noise, it is still fingerprinted on
    # its extracted text, so each visit's change is counted like the ones before).
    assert reasons[:3] == ["article"] * 3
    assert reasons[3:] == ["changing_content"] * 4


def _crawl_visit(d: Denoiser, html: str, url: str) -> str | None:
    """As the crawl does: classify (fingerprints noise pages), extract article pages."""
    doc = d.load(html, url)
    verdict = d.classify_document(doc, record=True)
    if not verdict.is_noise:
        d.extract_document(doc, verdict=verdict)
    return verdict.reason


def test_an_article_updated_twice_is_held_back_only_while_it_keeps_changing() -> None:
    """Edited on two re-crawls in a row, an article looks like a page that changes on every
    visit; once a visit finds it unchanged, it is an article again (before, the noise
    visit hashed the whole page, counted that as one more change, and it stayed noise)."""
    rules = PageRules(url_patterns=(), shallow_url_depth=None)
    url = "https://news.example/2024/05/06/storm.html"
    edits = [ARTICLE.replace("the night", f"the night{' and the day' * n}") for n in range(3)]
    with Denoiser(options=DenoiseOptions(rules=rules, page_model=None)) as d:
        reasons = [_crawl_visit(d, page, url) for page in (*edits, edits[2], edits[2])]
        assert d.learner is not None
        history = d.learner.page_history(url)
    assert reasons == ["article", "article", "article", "changing_content", "article"]
    assert history is not None and (history.visits, history.changes) == (5, 2)


def test_a_verdict_that_flips_is_not_a_change_of_content(tmp_path: Path) -> None:
    """Judged noise, a page is hashed whole; judged an article, on its extracted text: a
    page that flips between the two has not changed. (Two filters on one store flip it.)"""
    store = f"sqlite:///{tmp_path / 'state.sqlite3'}"
    url = "https://news.example/2024/05/06/storm.html"
    strict = DenoiseOptions(rules=PageRules(min_text_chars=10**6), page_model=None)
    lenient = DenoiseOptions(rules=PageRules(url_patterns=()), page_model=None)
    reasons = []
    for visit in range(4):
        with Denoiser(store=store, options=strict if visit % 2 else lenient) as d:
            reasons.append(_crawl_visit(d, ARTICLE, url))
    with Denoiser(store=store) as d:
        history = d.learner.page_history(url) if d.learner else None
    assert reasons == ["article", "little_text", "article", "little_text"]
    # each flip is a visit that cannot be compared with the one before: not counted
    assert history is not None and (history.visits, history.changes) == (1, 0)


def test_a_new_denoiser_starts_with_what_an_earlier_one_learned(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'state.sqlite3'}"
    boiler = "<div class='promo'>Subscribe to our newsletter for the best stories every day</div>"
    words = [
        "harbour",
        "election",
        "vaccine",
        "orchestra",
        "glacier",
        "railway",
        "festival",
        "satellite",
        "vineyard",
        "marathon",
        "library",
        "volcano",
    ]
    pages = [
        f"<html><body><nav><a href='/'>Home</a></nav><article><h1>{w.title()} story</h1>"
        f"<p>{(w + ' ') * 3}reporters described how the {w} changed life in town {i}.</p>"
        f"<p>Residents said the {w} would matter for years, and {w} experts agreed.</p>"
        f"<p>The council will publish its {w} report next month, after a public meeting in "
        f"the town hall; until then, the mayor said, nothing about the {w} is decided.</p>"
        f"</article>{boiler}</body></html>"
        for i, w in enumerate(words)
    ]
    with Denoiser(store=url) as first:
        for i, page in enumerate(pages):
            first.learn(page, f"https://news.example/2024/05/{i + 1:02d}/story-{i}.html")
    with Denoiser(store=url) as second:
        art = second.extract(pages[0], "https://news.example/2024/05/01/story-0.html", learn=False)
    assert "Subscribe to our newsletter" not in art.text
    assert "reporters described how the harbour changed life" in art.text


def _paper_line_bound(denoiser: Denoiser) -> Denoiser:
    """``denoiser`` with line statistics' bound as in the paper, without the 60-page floor:
    on a one-page site a line is then noise once it is counted twice (LC > int(1 + RC / 3)),
    so a page counted again would lose all its text."""
    assert denoiser.learner is not None
    denoiser.learner.line_params = LineParams(min_pages=0)
    return denoiser


def test_a_page_seen_again_is_not_counted_again(tmp_path: Path) -> None:
    url = "https://news.example/2024/05/06/storm.html"
    store = f"sqlite:///{tmp_path / 'state.sqlite3'}"
    with _paper_line_bound(Denoiser(store=store)) as first:
        first.learn(ARTICLE, url)  # learn() then extract(), as a user may call them
        text = first.extract(ARTICLE, url).text
        assert "powerful storm hit the coast" in text
        assert first.extract(ARTICLE, url).text == text
    with _paper_line_bound(Denoiser(store=store)) as recrawl:  # a re-crawl, same store
        assert recrawl.extract(ARTICLE, url).text == text
        history = recrawl.learner.page_history(url) if recrawl.learner else None
    # Every visit still updates the fingerprint ("content changes between visits").
    assert history is not None and history.visits == 4 and history.changes == 0


def test_an_article_under_a_second_url_is_a_duplicate_and_teaches_nothing() -> None:
    url = "https://news.example/2024/05/06/storm.html"
    with _paper_line_bound(Denoiser()) as d:
        first = d.extract(ARTICLE, url)
        copy = d.extract(ARTICLE, url + "?replytocom=12")
        again = d.extract(ARTICLE, url)
        other = d.extract(ARTICLE.replace("Storm hits coast", "Storm leaves coast"), url + "2")
        assert d.learner is not None
        history = d.learner.page_history(url + "?replytocom=12")
    assert first.duplicate_of is None and again.duplicate_of is None
    assert copy.duplicate_of == url
    assert other.duplicate_of is None  # another <title>: another article
    # the identity the store keeps one row per: the same for the copy, not for another
    assert first.identity is not None and len(first.identity) == 32
    assert copy.identity == again.identity == first.identity != other.identity
    # Not counted again: on a one-page site, with the paper's bound, a line counted twice
    # is noise, and the copy would have lost its whole text to line statistics.
    assert copy.text == first.text and "powerful storm hit the coast" in copy.text
    assert history is not None and history.visits == 1  # its own fingerprint is kept
    # without a site store nothing is remembered, so nothing is a duplicate
    with Denoiser(store=False) as d:
        d.extract(ARTICLE, url)
        assert d.extract(ARTICLE, url + "?replytocom=12").duplicate_of is None


def test_a_copy_that_names_itself_canonical_takes_the_article_over() -> None:
    # Drupal's /node/173 names the story's alias, met later, its canonical URL
    alias = "https://news.example/news/2024/05/storm"
    node = "https://news.example/node/173"

    def page(canonical: str) -> str:
        # the production host, as a crawl of a mirror or a loopback copy sees it
        link = f'<link rel="canonical" href="https://www.news.example{canonical}">'
        return ARTICLE.replace("<head>", "<head>" + link, 1)

    with _paper_line_bound(Denoiser()) as d:
        first = d.extract(page("/news/2024/05/storm"), node)
        own = d.extract(page("/news/2024/05/storm"), alias)
        later = d.extract(page("/news/2024/05/storm"), node + "?page=0")
        again = d.extract(page("/news/2024/05/storm"), alias)
        assert d.learner is not None
        assert d.learner.page_history(alias) is not None  # its fingerprint is kept
    assert (first.duplicate_of, first.replaces) == (None, None)
    assert (own.duplicate_of, own.replaces) == (None, node)
    assert (later.duplicate_of, later.replaces) == (alias, None)
    assert (again.duplicate_of, again.replaces) == (None, None)
    assert own.text == first.text and own.identity == first.identity
    # a first copy that names itself is the article's, whatever a later one says
    with _paper_line_bound(Denoiser()) as d:
        d.extract(page("/news/2024/05/storm"), alias)
        assert d.extract(page("/news/2024/05/storm"), node).duplicate_of == alias
        assert d.extract(page("/node/174"), alias + "?amp").duplicate_of == alias


def test_a_core_caller_stores_one_row_per_article() -> None:
    url = "https://news.example/2024/05/06/storm.html"
    with Denoiser() as first, Denoiser() as later:  # two runs: the second never met the first
        article = first.extract(ARTICLE, url)
        copy = later.extract(ARTICLE, url + "?replytocom=3")
    assert copy.duplicate_of is None  # this run's memory does not know it; the store does
    with Store.open(None) as store:
        assert store.upsert_articles([ArticleRecord.from_article(article)]).inserted == 1
        assert store.upsert_articles([ArticleRecord.from_article(copy)]).duplicates == 1
        summary = store.site_summary("https://news.example")
        assert summary is not None and summary.articles == 1
    with Denoiser(store=False) as plain:
        unkeyed = plain.extract(ARTICLE, url)
    with pytest.raises(ValueError, match="pass site="):
        ArticleRecord.from_article(unkeyed)
    assert ArticleRecord.from_article(unkeyed, site="https://news.example").site == (
        "https://news.example"
    )


def test_a_short_or_noise_page_under_a_second_url_is_no_duplicate() -> None:
    short = (
        "<html><head><title>Gallery</title></head><body><p>Photos of the storm.</p></body></html>"
    )
    with Denoiser(options=DenoiseOptions(rules=PageRules(min_text_chars=None))) as d:
        d.extract(short, "https://news.example/gallery/1")
        assert d.extract(short, "https://news.example/gallery/2").duplicate_of is None
        d.extract(_index(1), "https://news.example/tag/storm/")
        noise = d.extract(_index(1), "https://news.example/tag/storm/page/1/")
        assert noise.duplicate_of is None and noise.identity is None
        assert d.extract(short, "https://news.example/gallery/3").identity is None


def _sectioned_story(i: int, own_heading: str = "") -> str:
    """A story of a site whose footer heads its links "Sections" (an ``<h4>``)."""
    body = "".join(
        f"<p>Story {i}, part {k}: the harbour board met on Monday to discuss the plans for "
        f"berth {k + i}, and the vote on the dredging contract was put off again.</p>"
        for k in range(6)
    )
    return (
        f"<html><head><title>Story {i} - Daily</title></head><body>"
        '<nav><a href="/">Home</a> <a href="/world/">World</a></nav>'
        f"<article><h1>Harbour story number {i}</h1>{body}{own_heading}"
        "<p>The board meets again in a month; the minutes are published on its site.</p>"
        "</article><footer><h4>Sections</h4><ul><li><a href='/world/'>World</a></li>"
        "<li><a href='/sport/'>Sport</a></li></ul><p>© Daily Example Ltd.</p></footer>"
        "</body></html>"
    )


def test_a_template_the_method_left_out_does_not_take_a_line_of_the_story() -> None:
    """Template lines are matched by text: the footer's "Sections", gone with the footer,
    removed the story's own "Sections" heading instead."""
    site = "https://harbour.example"
    with Denoiser() as d:
        for i in range(12):  # a template batch: the footer's units become the site's
            d.learn(_sectioned_story(i), f"{site}/2024/05/{i:02d}/story.html")
        story = _sectioned_story(99, own_heading="<h3>Sections</h3>")
        article = d.extract(story, f"{site}/2024/06/01/story.html", learn=False)
    assert article.text.splitlines().count("Sections") == 1  # the story's, the footer's gone
    assert "© Daily Example Ltd." not in article.text


def test_generated_reports_keep_their_text_and_lose_their_shared_lines() -> None:
    """Reports generated from one text differ by numbers and names, within the template
    method's edit distance: their paragraphs became site-wide templates after the first
    batch, and every later report kept only its headline."""
    site = "https://quakes.example"
    with Denoiser() as d:
        texts = [d.extract(quake_report(i), f"{site}/2024/03/q{i}.html").text for i in range(40)]
    assert all("earthquake struck" in text and "The quake had a depth" in text for text in texts)
    # the word-for-word sentence and the near "Updated" line are the site's: gone once learned
    assert not any("generated automatically" in text for text in texts[20:])
    assert not any("Updated at" in text for text in texts[20:])
    assert all("Updated at" in text for text in texts[:9])  # before the first batch closed


def test_a_recrawl_learns_a_line_the_site_added_to_its_old_pages(tmp_path: Path) -> None:
    """Only a URL's first visit counts its page; a later one counts the lines it gained.
    Counting first visits alone, an appeal added under every old story stayed in the text
    of every re-crawled story until the site had more new pages than it took."""
    site, store = "https://harbour.example", f"sqlite:///{tmp_path / 'state.sqlite3'}"
    appeal = "<p>Become a member today and support the local journalism you read here.</p>"
    urls = [f"{site}/2024/05/{i:02d}/story.html" for i in range(9)]

    def crawl(html: str = "") -> list[str]:
        with _paper_line_bound(Denoiser(store=store)) as d:
            return [d.extract(_sectioned_story(i, html), url).text for i, url in enumerate(urls)]

    first = crawl()
    appealed = crawl(appeal)  # RC 9: a line goes once it is on more than 1 + 9 // 3 pages
    assert ["Become a member" in text for text in appealed] == [True] * 4 + [False] * 5
    again = crawl(appeal)
    assert not any("Become a member" in text for text in again)
    for i, texts in enumerate(zip(first, appealed, again, strict=True)):
        assert all(f"Story {i}, part 5: the harbour board" in text for text in texts)


def test_learn_skips_an_article_met_under_another_url() -> None:
    url = "https://news.example/2024/05/06/storm.html"
    with Denoiser() as d:
        d.learn(ARTICLE, url)
        d.learn(ARTICLE, url + "?utm_source=feed")
        # had the copy been counted, every line would be on 2 of 2 pages: noise
        assert "powerful storm hit the coast" in d.extract(ARTICLE, url, learn=False).text


def test_every_verdict_is_counted_once_per_site_in_the_store(tmp_path: Path) -> None:
    from scrapy_denoise.store import Store, VerdictCount, score_bucket

    url = f"sqlite:///{tmp_path / 'state.sqlite3'}"
    article_url = "https://news.example/2024/05/06/storm.html"
    with Denoiser(store=url) as d:
        verdict = d.classify(ARTICLE, article_url)
        d.extract_document(d.load(ARTICLE, article_url), verdict=verdict)  # judged already
        tag = d.classify(_index(1), "https://news.example/tag/storm/")
        d.extract(_index(2), "https://news.example/tag/storm/")  # judged inside extract
        d.learn(ARTICLE, "https://other.example/2024/05/06/storm.html")
        d.classify(ARTICLE, "")  # no URL, no site to count it for
        with Store.open(url) as reader:
            assert reader.verdict_counts() == []  # nothing written before a flush
    assert not verdict.is_noise and tag.is_noise and tag.reason == "url_pattern"
    with Store.open(url) as reader:
        counts = reader.verdict_counts()
    assert counts == [
        VerdictCount("https://news.example", False, verdict.reason, score_bucket(verdict.score), 1),
        VerdictCount("https://news.example", True, "url_pattern", score_bucket(1.0), 2),
        VerdictCount(
            "https://other.example", False, verdict.reason, score_bucket(verdict.score), 1
        ),
    ]


def test_a_verdict_marked_counted_is_not_counted_again() -> None:
    with Denoiser() as d:
        d.classify_document(d.load(_index(1), "https://news.example/tag/x/"), count=False)
        # extracting without learning only reads the store (the CLI's extract and report)
        d.extract(_index(2), "https://news.example/tag/y/", learn=False)
        d.extract(ARTICLE, "https://news.example/2024/05/06/storm.html", learn=False)
        learner = d.learner
        assert learner is not None
        learner.flush()
        assert learner.store.verdict_counts() == []


def test_models_load_on_first_use_or_on_preload() -> None:
    # Constructing is cheap and cannot fail on a model file; preload reads every model the
    # chain uses, so a crawl can refuse a wrong path when it opens.
    denoiser = Denoiser(store=False, page_model="/nowhere/pages.json")
    with pytest.raises(FileNotFoundError, match=r"/nowhere/pages\.json"):
        denoiser.preload()
    blocks = {"block_ensemble": {"model_path": "/nowhere/blocks.json"}}
    with pytest.raises(FileNotFoundError, match=r"/nowhere/blocks\.json"):
        Denoiser(store=False, method_params=blocks).preload()
    Denoiser(store=False).preload()


def test_one_denoiser_can_serve_several_threads(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    pages = [
        (ARTICLE.replace("Storm hits coast", f"Storm {i} hits coast"), f"https://news.example/{i}")
        for i in range(24)
    ] + [(_index(i), f"https://news.example/tag/{i}/") for i in range(24)]
    with Denoiser(store=f"sqlite:///{tmp_path / 'shared.sqlite3'}") as d:
        alone = [d.extract(body, url, learn=False).text for body, url in pages]
        with ThreadPoolExecutor(6) as pool:
            together = list(pool.map(lambda page: d.extract(*page, learn=False).text, pages))
            learned = list(pool.map(lambda page: d.learn(*page).is_noise, pages))
    assert together == alone
    assert learned == [False] * 24 + [True] * 24


def test_a_path_is_a_sqlite_file_and_other_store_values_are_refused(tmp_path: Path) -> None:
    """Path("x.db"), 0 or a list used to give an in-memory store in silence: what a crawl
    learned was lost at exit."""
    path = tmp_path / "state.sqlite3"
    url = "https://news.example/2024/05/06/storm.html"
    with Denoiser(store=path) as d:
        d.extract(ARTICLE, url)
    assert path.exists()
    with Denoiser(store=f"sqlite:///{path}") as d:
        assert d.learner is not None and d.learner.page_history(url) is not None
    for wrong in (0, 1, ["x"]):
        with pytest.raises(TypeError, match="store must be a database URL"):
            Denoiser(store=wrong)  # type: ignore[arg-type]


def test_a_denoiser_with_a_store_refuses_to_work_after_close(tmp_path: Path) -> None:
    d = Denoiser(store=f"sqlite:///{tmp_path / 'state.sqlite3'}")
    d.close()
    d.close()  # twice is harmless
    for call in (
        lambda: d.extract(ARTICLE, "https://news.example/a.html"),
        lambda: d.classify(ARTICLE, "https://news.example/a.html"),
        lambda: d.learn(ARTICLE, "https://news.example/a.html"),
        d.flush,
    ):
        with pytest.raises(RuntimeError, match="closed"):
            call()
    with Denoiser(store=False) as single:  # nothing to lose without a store
        pass
    assert "powerful storm" in single.extract(ARTICLE, None).text


def test_repr_names_the_method_and_the_store() -> None:
    assert repr(Denoiser(store=False)) == "Denoiser(method='block_ensemble', store=False)"
    in_memory = Denoiser(method="correlativity")
    assert repr(in_memory) == "Denoiser(method='correlativity', store=Store('sqlite://'))"
    in_memory.close()
    assert repr(in_memory) == "Denoiser(method='correlativity', closed)"
    store = Store.open(None)  # Store's repr is the one that leaves the password out
    assert repr(Denoiser(store=store)) == f"Denoiser(method='block_ensemble', store={store!r})"
    store.close()


@pytest.mark.parametrize("url", [None, "", "story.html", "/2024/05/06/storm.html", "javascript:"])
def test_a_page_without_an_absolute_url_belongs_to_no_site(url: str | None) -> None:
    """Such pages all shared the site "://" before and taught one another's templates."""
    with Denoiser() as d:
        art = d.extract(ARTICLE, url)
        d.learn(ARTICLE, url)
        assert d.learner is not None
        assert d.learner.store.site_summaries() == []
    assert art.site == "" and "powerful storm" in art.text


def test_learn_reads_an_invalid_url_as_extract_does() -> None:
    """``learn`` raised ValueError on "http://[::1" where extract warns invalid_url."""
    with Denoiser() as d:
        verdict = d.learn(ARTICLE, "http://[::1")
        art = d.extract(ARTICLE, "http://[::1")
    assert not verdict.is_noise and "invalid_url" in art.warnings


def test_wrong_argument_types_are_named_and_any_header_mapping_works() -> None:
    with Denoiser(store=False) as d:
        for body in (None, 123, ["<p>"]):
            with pytest.raises(TypeError, match="body must be bytes or str"):
                d.extract(body)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="url must be a str or None, not bytes"):
            d.extract(ARTICLE, b"https://news.example/a.html")  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="headers must be a mapping, not list"):
            d.extract(ARTICLE, None, [("Content-Type", "text/html")])  # type: ignore[arg-type]
        # any mapping, bytes values as HTTP sends them: the header charset is read
        latin = ARTICLE.replace("powerful", "pöwerful").encode("latin-1")
        for headers in (
            {"content-type": "text/html; charset=iso-8859-1"},
            {"Content-Type": b"text/html; charset=iso-8859-1"},
            MappingProxyType({"CONTENT-TYPE": "text/html; charset=iso-8859-1"}),
        ):
            art = d.extract(latin, None, headers)  # type: ignore[arg-type]
            assert "pöwerful storm" in art.text


def test_headers_with_bytes_names_and_scrapy_headers_are_read() -> None:
    """str(b"Content-Type") was "b'Content-Type'" and a Headers list "[b'...']": the
    charset was lost without a word."""
    from scrapy.http import Headers

    body = ARTICLE.replace("powerful", "мощный").encode("koi8-r")
    value = b"text/html; charset=koi8-r"
    with Denoiser(store=False) as d:
        for headers in ({b"Content-Type": value}, Headers({"Content-Type": value})):
            assert "мощный storm" in d.extract(body, None, headers).text  # type: ignore[arg-type]


def test_an_empty_store_url_is_refused() -> None:
    """What an unset environment variable gives; it meant a store in memory, learning lost."""
    with pytest.raises(ValueError, match="empty URL"):
        Denoiser(store="")
