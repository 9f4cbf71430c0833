"""Where a site links to a page from (``page/links.py``) and the ``navigation_page`` rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapy_denoise import Denoiser
from scrapy_denoise.document import load_document
from scrapy_denoise.metadata import extract_metadata
from scrapy_denoise.page.links import (
    MAX_PAGE_LINKS,
    MAX_URL_CHARS,
    LinkCount,
    LinkIndex,
    is_site_map,
    normalise_url,
    outgoing_links,
)
from scrapy_denoise.page.rules import PageRules
from scrapy_denoise.store import ArticleRecord, Store

SITE = "https://news.example"
PROSE = (
    "<p>The council met on Tuesday to discuss the budget for the coming year, and the "
    "members agreed that the library should stay open on Sundays, which residents had "
    "asked for in a petition signed by more than two thousand people last spring.</p>"
) * 3


def _page(body: str, head: str = "") -> str:
    return f"<html><head><title>t</title>{head}</head><body>{body}</body></html>"


def _links(html: str, url: str = f"{SITE}/2024/05/01/story") -> tuple[set[str], set[str]]:
    return outgoing_links(load_document(html, url))


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://News.Example:443/about/", "https://news.example/about"),
        ("http://news.example:80/a?b=1#top", "http://news.example/a?b=1"),
        ("http://news.example:8080/a/", "http://news.example:8080/a"),
        ("https://news.example/", "https://news.example"),
        ("mailto:desk@news.example", None),
        ("/relative/path", None),
        ("http://[broken/", None),
    ],
)
def test_normalise_url(url: str, expected: str | None) -> None:
    assert normalise_url(url) == expected


def test_outgoing_links_split_navigation_from_content() -> None:
    html = _page(
        '<header><a href="/">Home</a></header>'
        '<nav><a href="/about/">About</a></nav>'
        '<div role="navigation"><a href="/contact">Contact</a></div>'
        '<ul class="main-menu"><li><a href="/team">Team</a></li></ul>'
        '<div class="article-header"><a href="/authors/jane">Jane</a></div>'
        f'<article>{PROSE}<a href="/2024/04/30/earlier#comments">earlier</a>'
        '<a href="related">related</a></article>'
        '<footer><a href="https://news.example/privacy">Privacy</a></footer>'
    )
    navigation, content = _links(html)
    assert navigation == {
        SITE,
        f"{SITE}/about",
        f"{SITE}/contact",
        f"{SITE}/team",
        f"{SITE}/privacy",
    }
    # "article-header" is no navigation word: the byline's author link is content
    assert content == {
        f"{SITE}/authors/jane",
        f"{SITE}/2024/04/30/earlier",
        f"{SITE}/2024/05/01/related",
    }


def test_a_wrapper_classed_as_navigation_is_no_navigation() -> None:
    # Themes class the body or a page-wide wrapper "navbar-fixed" or "menu-open": its
    # links are the page's, not a menu's. A <nav> stays navigation whatever it holds.
    article = f'<article>{PROSE}<a href="/2024/04/30/earlier">earlier</a></article>'
    html = _page(f'<nav><a href="/about">About</a></nav>{article}').replace(
        "<body>", '<body class="navbar-fixed">'
    )
    assert _links(html) == ({f"{SITE}/about"}, {f"{SITE}/2024/04/30/earlier"})
    html = _page(f'<div id="menu-wrapper"><nav><a href="/about">About</a></nav>{article}</div>')
    assert _links(html) == ({f"{SITE}/about"}, {f"{SITE}/2024/04/30/earlier"})
    short = _page('<nav><a href="/about">About</a> <a href="/team">Our team</a></nav><p>Hi</p>')
    assert _links(short) == ({f"{SITE}/about", f"{SITE}/team"}, set())


def test_cookie_notices_and_dialogs_link_from_navigation() -> None:
    # Every page repeats its cookie notice, whose "Privacy policy" link would otherwise
    # vouch for the policy as an article, linked from content.
    article = f'<article>{PROSE}<a href="/2024/04/30/earlier">earlier</a></article>'
    for notice in (
        '<div role="dialog"><span>We use cookies.</span> <a href="/privacy">Privacy</a></div>',
        '<div id="cookie-notice"><a href="/privacy">Privacy</a></div>',
        '<div class="consent-banner"><p>Your choices</p><a href="/privacy">More</a></div>',
    ):
        assert _links(_page(notice + article)) == (
            {f"{SITE}/privacy"},
            {f"{SITE}/2024/04/30/earlier"},
        )


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (f"{SITE}/sitemap/", True),
        (f"{SITE}/site-map.html", True),
        (f"{SITE}/en/sitemap", True),
        (f"{SITE}/2024/05/01/sitemaps-explained", False),
        (f"{SITE}/sitemap/news/story", False),
        ("http://[broken/sitemap", False),
    ],
)
def test_is_site_map(url: str, expected: bool) -> None:
    assert is_site_map(url) is expected


def test_outgoing_links_leave_out_other_hosts_self_links_and_non_pages() -> None:
    html = _page(
        '<a href="https://other.example/x">other host</a>'
        '<a href="https://news.example.evil/x">lookalike host</a>'
        '<a href="//cdn.example/y">protocol-relative elsewhere</a>'
        '<a href="//news.example/z">protocol-relative here</a>'
        '<a href="/2024/05/01/story/">itself</a><a href="#top">top</a>'
        '<a href="mailto:desk@news.example">mail</a><a href="javascript:void(0)">js</a>'
        '<a href="http://[broken/">broken</a><a>no href</a>'
    )
    navigation, content = _links(html)
    assert navigation == set()
    assert content == {f"{SITE}/z"}


def test_outgoing_links_are_bounded_per_page() -> None:
    html = _page("".join(f'<a href="/t/{i}">t</a>' for i in range(MAX_PAGE_LINKS + 10)))
    navigation, content = _links(html)
    assert not navigation and len(content) == MAX_PAGE_LINKS


def test_outgoing_links_without_url() -> None:
    assert outgoing_links(load_document(_page('<a href="/a">a</a>'), "")) == (set(), set())


def test_link_index_counts_navigation_and_remembers_content() -> None:
    index = LinkIndex()
    index.add(navigation={f"{SITE}/about", f"{SITE}/post"}, content=())
    index.add(navigation={f"{SITE}/about"}, content={f"{SITE}/post"})
    index.add(navigation={f"{SITE}/post"}, content=())
    assert index.get(f"{SITE}/about/") == LinkCount(navigation=2, content=False)
    assert index.get(f"{SITE}/post") == LinkCount(navigation=2, content=True)
    assert index.get(f"{SITE}/never") is None


def test_link_index_keeps_a_home_pages_content_links_apart() -> None:
    index = LinkIndex()
    index.add(navigation={f"{SITE}/about"}, content={f"{SITE}/about", f"{SITE}/post"}, home=True)
    index.add(navigation={f"{SITE}/about"}, content={f"{SITE}/post"})
    assert index.get(f"{SITE}/about") == LinkCount(navigation=2, content=False, home=True)
    assert index.get(f"{SITE}/post") == LinkCount(navigation=0, content=True, home=True)
    index.add(navigation={f"{SITE}/about"}, content=())
    assert index.get(f"{SITE}/about") == LinkCount(navigation=3, content=False, home=True)


def test_link_index_is_bounded() -> None:
    index = LinkIndex(max_urls=2)
    index.add(navigation={f"{SITE}/a", f"{SITE}/b", f"{SITE}/c"}, content={f"{SITE}/d"})
    assert len(index) == 2
    index.add(navigation={f"{SITE}/a"}, content=())
    known = [u for u in ("a", "b", "c", "d") if index.get(f"{SITE}/{u}") is not None]
    assert len(known) == 2


def test_link_index_bounds_the_characters_too() -> None:
    """A count alone let a hostile site fill the index with megabytes-long URLs."""
    index = LinkIndex(max_chars=100)
    long = f"{SITE}/" + "x" * MAX_URL_CHARS
    index.add(navigation={long}, content={long + "y"})
    assert len(index) == 0 and index.get(long) is None
    urls = [f"{SITE}/{k:02d}" for k in range(10)]
    index.add(navigation=set(urls[:5]), content=())
    index.add(navigation=(), content=set(urls[5:]))
    assert len(index) == 100 // len(urls[0]) == 4
    known = [url for url in urls if index.get(url) is not None]
    index.add(navigation=set(known), content=())  # known URLs are still counted
    assert all(index.get(url) == LinkCount(navigation=2, content=False) for url in known)


def _article(n: int) -> str:
    """A dated story whose menu links to /history (a site page whose name the
    ``site_page`` rule does not know, so that this rule judges it) and whose text links to
    the next story (under a URL without a date, which would date the page by itself)."""
    return _page(
        f'<nav><a href="/history">About us</a></nav><article><h1>Story {n}</h1>'
        f'<time datetime="2024-05-0{n}T10:00:00Z">May {n}</time>{PROSE}'
        f'<a href="/stories/{n + 1}">next</a></article>'
    )


_ABOUT = _page(f"<nav><a href='/'>Home</a></nav><main><h1>About us</h1>{PROSE}</main>")


def _crawl(denoiser: Denoiser, stories: int) -> None:
    for n in range(1, stories + 1):
        verdict = denoiser.classify(_article(n), f"{SITE}/stories/{n}")
        assert not verdict.is_noise


@pytest.fixture
def denoiser() -> Denoiser:
    # rules only: the page SVM's verdict on these small synthetic pages is not under test
    return Denoiser(store=None, page_model=None)


def test_navigation_page_fires_on_an_undated_page_linked_from_menus_only(
    denoiser: Denoiser,
) -> None:
    _crawl(denoiser, 3)
    verdict = denoiser.classify(_ABOUT, f"{SITE}/history/")
    assert verdict.is_noise and verdict.reason == "navigation_page"


def test_navigation_page_spares_pages_linked_from_content(denoiser: Denoiser) -> None:
    _crawl(denoiser, 3)
    # /stories/4 is linked from story 3's text (and from no menu); it has no date here
    undated_story = _page(f"<nav><a href='/history'>About</a></nav><h1>Story 4</h1>{PROSE}")
    assert not denoiser.classify(undated_story, f"{SITE}/stories/4").is_noise
    # linked from a menu too, and still spared
    _crawl(denoiser, 1)
    menu = _page(f"<nav><a href='/stories/4'>Story 4</a></nav>{PROSE}")
    denoiser.classify(menu, f"{SITE}/stories/index")
    assert not denoiser.classify(undated_story, f"{SITE}/stories/4").is_noise


def test_navigation_page_spares_dated_or_signed_pages(denoiser: Denoiser) -> None:
    _crawl(denoiser, 3)
    signed = _page(f'<h1>About us</h1><p class="byline">By Jane Roe</p>{PROSE}')
    assert not denoiser.classify(signed, f"{SITE}/history").is_noise
    dated = _page(f'<h1>About us</h1><time datetime="2024-01-01">Jan 1</time>{PROSE}')
    assert not denoiser.classify(dated, f"{SITE}/history").is_noise


def test_navigation_page_waits_for_dated_pages_on_the_site(denoiser: Denoiser) -> None:
    # Two dated pages are not yet evidence that this site's articles carry dates we find:
    # on a site whose dates we miss, every article linked from a menu would look like this.
    _crawl(denoiser, 2)
    assert not denoiser.classify(_ABOUT, f"{SITE}/history").is_noise


def test_site_pages_let_through_before_the_evidence_are_named_at_the_end(
    denoiser: Denoiser,
) -> None:
    # A crawl meets the menus' pages first: the about page passes, as does an undated story
    # that story 1's text links to; the stories after them are the evidence.
    _crawl(denoiser, 1)
    assert not denoiser.classify(_ABOUT, f"{SITE}/history").is_noise
    undated_story = _page(f"<nav><a href='/history'>About</a></nav><h1>Story 2</h1>{PROSE}")
    assert not denoiser.classify(undated_story, f"{SITE}/stories/2").is_noise
    assert denoiser.noise_pages_passed() == []  # one dated page is no evidence yet
    for n in range(3, 6):
        denoiser.classify(_article(n), f"{SITE}/stories/{n}")
    assert denoiser.noise_pages_passed() == [(f"{SITE}/history", "navigation_page")]


def test_a_page_signed_only_by_the_sites_own_name_counts_as_unsigned(
    denoiser: Denoiser,
) -> None:
    # al-folio declares the site's title as every page's author: the people and
    # publications pages are signed by no one for all that
    head = (
        '<meta name="author" content="News Example">'
        '<meta property="og:site_name" content="News Example">'
    )
    about = _page(f"<nav><a href='/'>Home</a></nav><main><h1>People</h1>{PROSE}</main>", head)
    _crawl(denoiser, 1)
    assert extract_metadata(load_document(about, f"{SITE}/history")).author == "News Example"
    assert not denoiser.classify(about, f"{SITE}/history").is_noise
    for n in range(2, 5):
        denoiser.classify(_article(n), f"{SITE}/stories/{n}")
    assert denoiser.noise_pages_passed() == [(f"{SITE}/history", "navigation_page")]


def test_a_page_signed_by_a_group_named_after_the_site_is_judged_unsigned(
    denoiser: Denoiser,
) -> None:
    # MkDocs declares its site_author, "The Tidewater Authors", on every page of a
    # project's docs; a local copy of the site still declares its own URL (og:url)
    head = (
        '<meta name="author" content="The Example Authors">'
        '<meta property="og:url" content="https://example.dev/setup/docker/">'
    )
    docs = _page(f"<nav><a href='/'>Home</a></nav><main><h1>Docker</h1>{PROSE}</main>", head)
    _crawl(denoiser, 4)
    verdict = denoiser.classify(docs, f"{SITE}/history")
    assert verdict.is_noise and verdict.reason == "navigation_page"
    # signed by someone else, the same page is an article
    other = docs.replace("The Example Authors", "Jane Roe")
    assert not denoiser.classify(other, f"{SITE}/history").is_noise


def test_site_pages_are_named_only_with_a_learner_and_the_rule() -> None:
    for denoiser in (
        Denoiser(store=False, page_model=None),
        Denoiser(store=None, page_model=None, rules=PageRules(navigation_min_links=None)),
    ):
        _crawl(denoiser, 1)
        denoiser.classify(_ABOUT, f"{SITE}/history")
        for n in range(2, 5):
            denoiser.classify(_article(n), f"{SITE}/stories/{n}")
        assert denoiser.noise_pages_passed() == []


def test_the_unsigned_pages_remembered_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from scrapy_denoise import learning

    monkeypatch.setattr(learning, "_UNSIGNED_MAX", 2)
    monkeypatch.setattr(learning, "_UNSIGNED_TOTAL_MAX", 3)
    learner = Denoiser(store=None, page_model=None).learner
    assert learner is not None
    for site in ("a", "b"):
        for n in range(3):
            learner.note_unsigned(f"https://{site}.example/{n}", site)
            learner.note_unsigned(f"https://{site}.example/{n}", site)  # once each
    assert learner.unsigned_pages() == [
        ("https://a.example/0", "a"),
        ("https://a.example/1", "a"),
        ("https://b.example/0", "b"),
    ]


def test_a_recrawl_counts_the_dated_articles_already_stored(tmp_path: Path) -> None:
    """A second crawl meets the footer's site pages before any story (Scrapy fetches a
    page's last links first): the stories the first crawl stored are the evidence."""
    db = tmp_path / "denoise.sqlite3"
    home = _page(
        '<main><a href="/stories/1">Story 1</a></main><footer><a href="/history">About</a></footer>'
    )
    with Denoiser(store=db, page_model=None) as first:
        first.classify(home, f"{SITE}/")
        assert not first.classify(_ABOUT, f"{SITE}/history").is_noise  # no evidence yet
        articles = [first.extract(_article(n), f"{SITE}/stories/{n}") for n in (1, 2, 3)]
    with Store.open(db) as store:
        store.upsert_articles([ArticleRecord.from_article(a) for a in articles])
    with Denoiser(store=db, page_model=None) as recrawl:
        recrawl.classify(home, f"{SITE}/")
        verdict = recrawl.classify(_ABOUT, f"{SITE}/history")
    assert verdict.is_noise and verdict.reason == "navigation_page"


def test_links_to_dated_urls_show_that_the_site_dates_its_articles(denoiser: Denoiser) -> None:
    # The home page (noise itself) lists stories under dated URLs: the site pages its menu
    # links to are judged from the next page on, before any story was fetched.
    stories = "".join(f'<li><a href="/2024/05/0{n}/story-{n}">Story {n}</a></li>' for n in (1, 2))
    home = _page(f'<nav><a href="/history">About us</a></nav><ul>{stories}</ul>')
    denoiser.classify(home, f"{SITE}/")
    assert not denoiser.classify(_ABOUT, f"{SITE}/history").is_noise  # two dated links
    stories = '<li><a href="/2024/05/03/story-3">Story 3</a></li>'
    denoiser.classify(_page(f'<nav><a href="/history">About us</a></nav><ul>{stories}</ul>'), SITE)
    verdict = denoiser.classify(_ABOUT, f"{SITE}/history")
    assert verdict.is_noise and verdict.reason == "navigation_page"


def test_navigation_page_needs_a_learner_and_can_be_switched_off() -> None:
    single = Denoiser(store=False, page_model=None)
    assert not single.classify(_ABOUT, f"{SITE}/history").is_noise
    off = Denoiser(store=None, page_model=None, rules=PageRules(navigation_min_links=None))
    _crawl(off, 3)
    assert not off.classify(_ABOUT, f"{SITE}/history").is_noise


def test_a_site_pages_prose_links_count_as_navigation(denoiser: Denoiser) -> None:
    """Documentation pages link each other in their text; once one is judged a site page,
    its links are the site's structure, not an article's content links."""
    _crawl(denoiser, 3)
    about = _page(f"<main><h1>About us</h1>{PROSE}<a href='/history/team'>our team</a></main>")
    assert denoiser.classify(about, f"{SITE}/history").reason == "navigation_page"
    team = _page(f"<main><h1>Our team</h1>{PROSE}</main>")
    assert denoiser.classify(team, f"{SITE}/history/team").reason == "navigation_page"


def test_an_undated_unsigned_pages_prose_links_count_as_navigation(denoiser: Denoiser) -> None:
    """A site page that passed before the rule could judge it (the site had not shown dated
    articles yet) must not make the pages its prose links to "linked from content"."""
    guide = _page(f"<main><h1>Guide</h1>{PROSE}<a href='/guide/part-2'>part 2</a></main>")
    assert not denoiser.classify(guide, f"{SITE}/guide").is_noise  # no dated page yet
    _crawl(denoiser, 3)
    menu = _page(
        f"<nav><a href='/guide/part-2'>Part 2</a><a href='/guide/part-3'>Part 3</a></nav>{PROSE}"
    )
    denoiser.classify(menu, f"{SITE}/stories/index")
    part_2 = _page(f"<main><h1>Guide, part 2</h1>{PROSE}</main>")
    assert denoiser.classify(part_2, f"{SITE}/guide/part-2").reason == "navigation_page"
    # a dated page's prose links are content: part 3, in the menu too, is spared
    dated = _article(4).replace("/stories/5", "/guide/part-3")
    denoiser.classify(dated, f"{SITE}/stories/4")
    part_3 = _page(f"<main><h1>Guide, part 3</h1>{PROSE}</main>")
    assert not denoiser.classify(part_3, f"{SITE}/guide/part-3").is_noise


def test_metadata_is_found_once_per_document() -> None:
    doc = load_document(_article(1), f"{SITE}/2024/05/01/story")
    first = extract_metadata(doc)
    assert extract_metadata(doc) is first
    doc.refresh()  # the tree may have changed: found again
    assert extract_metadata(doc) is not first


def test_a_site_maps_links_count_as_navigation(denoiser: Denoiser) -> None:
    """An HTML site map lists the about and policy pages in its body; read as content
    links, they would spare those pages whenever the map is fetched first."""
    _crawl(denoiser, 3)
    site_map = _page("<main><h1>Site map</h1><ul><li><a href='/history'>About</a></li></ul></main>")
    assert denoiser.classify(site_map, f"{SITE}/sitemap/").is_noise
    assert denoiser.classify(_ABOUT, f"{SITE}/history").reason == "navigation_page"
    # the same list on a page that is no site map is a content link
    other = Denoiser(store=None, page_model=None)
    _crawl(other, 3)
    other.classify(site_map, f"{SITE}/directory/")
    assert not other.classify(_ABOUT, f"{SITE}/history").is_noise


def test_a_page_the_home_page_alone_links_from_content_is_a_site_page_at_the_end(
    denoiser: Denoiser,
) -> None:
    """A project's home page leads to its own pages from tiles in its body ("Learn more
    about the architecture"): flink-blog's eight "what is Flink" pages, stored by every
    crawl before. While the crawl runs such a link still spares the page (the home page's
    stories are fetched before the section pages that list them); at its end the page is
    named, but not one a section page links to from its content too."""
    home = _page(
        "<main><h1>The project</h1><a href='/history'>Learn more</a>"
        "<a href='/stories/9'>Latest story</a></main>"
    )
    denoiser.classify(home, f"{SITE}/")
    _crawl(denoiser, 3)
    assert not denoiser.classify(_ABOUT, f"{SITE}/history").is_noise
    undated_story = _page(f"<nav><a href='/history'>About</a></nav><h1>Story 9</h1>{PROSE}")
    assert not denoiser.classify(undated_story, f"{SITE}/stories/9").is_noise
    section = _page("<main><h1>Stories</h1><a href='/stories/9'>Story 9</a></main>")
    denoiser.classify(section, f"{SITE}/stories/")
    assert denoiser.noise_pages_passed() == [(f"{SITE}/history", "navigation_page")]
    # the same tile on a page that is no home page is a content link
    other = Denoiser(store=None, page_model=None)
    other.classify(home, f"{SITE}/welcome")
    _crawl(other, 3)
    assert not other.classify(_ABOUT, f"{SITE}/history").is_noise
    assert other.noise_pages_passed() == []
