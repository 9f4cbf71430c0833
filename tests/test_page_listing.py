"""List pages told by the titles of other articles in their text (``page/listing.py``)."""

from __future__ import annotations

import pytest

from scrapy_denoise import Denoiser
from scrapy_denoise.page import listing
from scrapy_denoise.page.listing import ListingIndex, is_listing

SITE = "https://college.example"
SENTENCE = (
    "The council met on Tuesday to discuss the budget for the coming year, and the members "
    "agreed that the library should stay open on Sundays, which residents had asked for. "
)
TITLES = [f"Library hours extended for term {n} after a petition" for n in range(6)]


def _story(n: int) -> str:
    return (
        f"<html><head><title>{TITLES[n]} - College News</title></head><body>"
        "<nav><a href='/'>Home</a></nav>"
        f"<article><h1>{TITLES[n]}</h1><time datetime='2024-05-0{n + 1}'>May {n + 1}</time>"
        f"<p>{SENTENCE * 3}</p><p>{SENTENCE * 2} <a href='/news/'>More news</a></p></article>"
        "</body></html>"
    )


def _list_page(titles: list[str]) -> str:
    """A news list whose entries carry a teaser and a date, as college sites print them."""
    entries = "".join(
        f"<li><h3><a href='/news/{n}'>{title}</a></h3><p>{SENTENCE}...</p>"
        f"<span>[2024-05-0{n + 1}]</span></li>"
        for n, title in enumerate(titles)
    )
    return (
        "<html><head><title>News - College News</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/news/'>News</a></nav>"
        f"<div class='list'><h2>News</h2><ul>{entries}</ul></div></body></html>"
    )


def test_is_listing_wants_three_titles_a_fifth_of_the_lines_and_the_first_near_the_top() -> None:
    assert is_listing([False, True, False, True, False, True, False])
    assert not is_listing([False, True, False, True, False, False])  # two titles
    # ... unless they are half the page: a month's archive of two posts
    assert is_listing([True, True]) and is_listing([False, True, True, False])
    assert not is_listing([True]) and not is_listing([False, False, False, True, True])
    # a long article's three title lines are too small a share
    assert not is_listing([False] * 20 + [True] * 3)
    # a related-posts list at the end of a short post: the first title comes late
    assert not is_listing([False, False, False, False, False, True, True, True])
    assert not is_listing([])


def test_listing_index_reads_titles_with_a_trailing_date_and_counts_each_once() -> None:
    index = ListingIndex()
    for n, title in enumerate(TITLES[:4]):
        index.add(f"{SITE}/news/{n}", "college", title, [title, SENTENCE])
    lines = ["News", f"{TITLES[0]}[2024-05-01]", TITLES[1], f"{TITLES[2]} 2024/5/3 20:45"]
    index.add(f"{SITE}/news/", "college", "News", lines)
    assert index.listings() == [(f"{SITE}/news/", "college")]
    # the date and time run on from the title (People's Daily's lists)
    lines = ["要闻", f"{TITLES[0]}2024年09月14日06:03", f"{TITLES[1]}2024年08月01日13:50"]
    index.add(f"{SITE}/GB/1001/index2.html", "college", "要闻", [*lines, TITLES[3]])
    assert (f"{SITE}/GB/1001/index2.html", "college") in index.listings()
    # the same title twice is one article: two are too few
    lines = [TITLES[0], TITLES[0], TITLES[1], SENTENCE, SENTENCE]
    index.add(f"{SITE}/notices/", "college", "Notices", lines)
    assert (f"{SITE}/notices/", "college") not in index.listings()


@pytest.mark.parametrize(
    "entry",
    ["2024-05-01·{}", "[2024-05-01] {}", "2024年5月1日 {}", "【05-01】{}", "05-01 {}"],
)
def test_listing_index_reads_titles_under_a_leading_date(entry: str) -> None:
    # PHPCMS and DedeCMS lists print the date first in the source, floated right on screen
    index = ListingIndex()
    for n, title in enumerate(TITLES[:4]):
        index.add(f"{SITE}/news/{n}", "college", title, [title, SENTENCE])
    lines = ["News", *(entry.format(title) for title in TITLES[:3])]
    index.add(f"{SITE}/news/", "college", "News", lines)
    assert index.listings() == [(f"{SITE}/news/", "college")]


LEADS = [
    f"Story {n}: the council met on Tuesday to discuss item {n} of the budget, and agreed."
    for n in range(5)
]


@pytest.mark.parametrize(
    "ellipsis",
    [
        "...",
        "…",
        " […]",
        " [...]",
        "。。。",
        "…続きを読む",
        "... Read more »",
        " […] Continue reading →",
    ],
)
def test_listing_index_reads_teasers_cut_from_other_articles_first_lines(ellipsis: str) -> None:
    index = ListingIndex()
    for n, lead in enumerate(LEADS[:4]):
        index.add(f"{SITE}/news/{n}", "college", None, ["May 1, 2024 by Jane", lead, SENTENCE])
    # a channel page whose titles were links: only the teasers are left
    teasers = [lead[: 40 + n] + ellipsis for n, lead in enumerate(LEADS[:4])]
    index.add(f"{SITE}/world/", "college", "World", teasers)
    assert index.listings() == [(f"{SITE}/world/", "college")]


def test_teasers_count_only_cut_with_an_ellipsis_and_from_another_article() -> None:
    index = ListingIndex()
    for n, lead in enumerate(LEADS[:4]):
        index.add(f"{SITE}/news/{n}", "college", None, [lead, SENTENCE])
    # the same starts without an ellipsis: an article quoting others' first lines
    index.add(f"{SITE}/quotes/", "college", None, [lead[:40] + "." for lead in LEADS[:4]])
    # a page's own lead, cut, is no other article's teaser
    index.add(f"{SITE}/news/0", "college", None, [LEADS[0][:40] + "..."] * 4)
    # a teaser too short to name an article
    index.add(f"{SITE}/short/", "college", None, [lead[:20] + "..." for lead in LEADS[:4]])
    # an ellipsis inside a line, with more text after it, ends no teaser
    index.add(f"{SITE}/mid/", "college", None, [lead[:40] + "... and so on" for lead in LEADS[:4]])
    assert index.listings() == []


def test_entries_that_show_another_articles_lead_whole_count_as_its_title() -> None:
    # a section's list of stories, their titles (links) dropped, their leads uncut; its
    # first two, the list's own first lines too, name no single page and count for none
    leads = [f"Lead {n}: the council met on Tuesday about item {n} and agreed." for n in range(8)]
    index = ListingIndex()
    for n, lead in enumerate(leads):
        index.add(f"{SITE}/news/{n}", "college", None, [lead, SENTENCE])
    index.add(f"{SITE}/section/", "college", None, ["Section news", *leads, "Next page"])
    assert index.listings() == [(f"{SITE}/section/", "college")]
    # the same leads under a story's own text (a related box that kept them) come late
    body = [f"{SENTENCE} Paragraph {n}." for n in range(8)]
    index = ListingIndex()
    for n, lead in enumerate(leads):
        index.add(f"{SITE}/news/{n}", "college", None, [lead, SENTENCE])
    index.add(f"{SITE}/news/story", "college", None, [*body, *leads[:4]])
    # and a line that only begins as a lead, without an ellipsis, is a quote
    index.add(f"{SITE}/quotes/", "college", None, [lead[:40] + "." for lead in leads])
    assert index.listings() == []


def test_teasers_under_a_label_and_run_on_from_a_heading_count() -> None:
    # cnblogs lists a blog's posts as "摘要： <the post's text, its first heading run into
    # the paragraph after it>... 阅读全文"
    index = ListingIndex()
    for n, lead in enumerate(LEADS[:4]):
        index.add(f"{SITE}/p/{n}.html", "college", None, ["起因", lead, SENTENCE])
    teasers = [f"摘要： 起因 {lead[:50]}... 阅读全文" for lead in LEADS[:4]]
    index.add(f"{SITE}/blog/", "college", "Blog", teasers)
    index.add(f"{SITE}/summary/", "college", None, [f"Summary: {lead[:50]}…" for lead in LEADS])
    assert index.listings() == [(f"{SITE}/blog/", "college"), (f"{SITE}/summary/", "college")]
    # a label the list of labels does not know is part of the teaser
    index = ListingIndex()
    for n, lead in enumerate(LEADS[:4]):
        index.add(f"{SITE}/p/{n}.html", "college", None, [lead, SENTENCE])
    index.add(f"{SITE}/notes/", "college", None, [f"Note: {lead[:50]}..." for lead in LEADS])
    assert index.listings() == []


def test_short_lines_between_a_lists_entries_do_not_count() -> None:
    # Habr's lists print each story's hubs, lead, votes, difficulty, reading time and views
    leads = [f"Lead {n}: the council met on Tuesday about item {n} and agreed." for n in range(6)]
    entries = [
        line
        for n, lead in enumerate(leads)
        for line in (f"Hub {n} development*Programming*", lead, "135", "Сложный", "2 мин", "1.5K")
    ]
    index = ListingIndex()
    for n, lead in enumerate(leads):
        index.add(f"{SITE}/ru/articles/{n}/", "habr", None, [lead, SENTENCE])
    index.add(f"{SITE}/ru/hubs/go/articles/", "habr", None, entries)
    assert index.listings() == [(f"{SITE}/ru/hubs/go/articles/", "habr")]
    # a long line between the entries still counts: then they are under a fifth
    index = ListingIndex()
    for n, lead in enumerate(leads):
        index.add(f"{SITE}/ru/articles/{n}/", "habr", None, [lead, SENTENCE])
    spaced = [x for line in entries for x in (line, *([SENTENCE] * 3 if line in leads else ()))]
    index.add(f"{SITE}/ru/hubs/go/articles/", "habr", None, spaced)
    assert index.listings() == []


def test_listing_index_ignores_titles_several_pages_share_and_other_sites() -> None:
    index = ListingIndex()
    # a site's name as the title of many pages names none of them
    for n in range(4):
        index.add(f"{SITE}/news/{n}", "college", "College of Computing News", ["text"])
    index.add(f"{SITE}/a", "college", TITLES[0], ["text"])
    index.add("https://other.example/b", "other", TITLES[1], ["text"])
    lines = ["College of Computing News"] * 4 + [TITLES[0], TITLES[1], "Short", TITLES[0]]
    index.add(f"{SITE}/news/", "college", None, lines)
    assert index.listings() == []


def test_a_title_an_article_shares_with_its_copy_still_names_it() -> None:
    """A print version or a comments' page under another URL, which passed the filter,
    has its article's title and first lines: the pair still names one article, the lists
    that show it are still lists, and a title three pages share names none."""
    index = ListingIndex()
    for n, title in enumerate(TITLES[:4]):
        for copy in ("", "print/", "comments/"[: 10 if n == 3 else 0]):
            index.add(f"{SITE}/news/{n}/{copy}", "college", title, [SENTENCE * 2])
    index.add(f"{SITE}/tag/budget/", "college", None, ["Budget", *TITLES[:3]])
    assert index.listings() == [(f"{SITE}/tag/budget/", "college")]
    three = ListingIndex()
    for n, title in enumerate(TITLES[:4]):
        for copy in ("", "print/", "comments/"):
            three.add(f"{SITE}/news/{n}/{copy}", "college", title, [SENTENCE * 2])
    three.add(f"{SITE}/tag/budget/", "college", None, ["Budget", *TITLES[:3]])
    assert three.listings() == []


def test_listing_index_is_bounded_and_judges_a_page_as_it_leaves_the_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(listing, "WINDOW", 4)
    monkeypatch.setattr(listing, "MAX_TITLES", 4)
    index = ListingIndex()
    index.add(f"{SITE}/news/", "college", None, TITLES[:3])  # the list, met first
    for n in range(3):
        index.add(f"{SITE}/news/{n}", "college", TITLES[n], [TITLES[n], SENTENCE])
    assert index.listings() == [(f"{SITE}/news/", "college")]
    for n in range(3, 6):  # the list leaves the window, judged by the titles known then
        index.add(f"{SITE}/news/{n}", "college", TITLES[n], [TITLES[n], SENTENCE])
    assert index.listings() == [(f"{SITE}/news/", "college")]
    assert len(index._window) == 4 and len(index._titles) == 4
    # a list whose articles' titles were forgotten before it came is no listing
    index.add(f"{SITE}/old/", "college", None, TITLES[:3])
    assert (f"{SITE}/old/", "college") not in index.listings()


def test_a_page_extracted_again_is_judged_by_its_new_text(monkeypatch: pytest.MonkeyPatch) -> None:
    # a short post first extracted with the sidebar's popular posts, then without them
    post = f"{SITE}/news/happy-new-year"
    first = [SENTENCE, *TITLES[:3]]
    index = ListingIndex()
    index.add(post, "college", "Happy new year from both of us", first)
    for n in range(3):
        index.add(f"{SITE}/news/{n}", "college", TITLES[n], [TITLES[n], SENTENCE])
    assert index.listings() == [(post, "college")]
    index.revise(post, "college", [SENTENCE])
    assert index.listings() == []
    # ... also once judged as it left the window
    monkeypatch.setattr(listing, "WINDOW", 3)
    index = ListingIndex()
    for n in range(3):
        index.add(f"{SITE}/news/{n}", "college", TITLES[n], [TITLES[n], SENTENCE])
    index.add(post, "college", "Happy new year from both of us", first)
    for n in range(3, 6):
        index.add(f"{SITE}/news/{n}", "college", TITLES[n], [TITLES[n], SENTENCE])
    assert post not in index._window and index.listings() == [(post, "college")]
    index.revise(post, "college", [SENTENCE])
    assert index.listings() == []
    # a revised page that still lists them stays a listing; one never judged stays unjudged
    index.add(f"{SITE}/list/", "college", None, TITLES[3:6])
    index.revise(f"{SITE}/list/", "college", ["News", *TITLES[3:6]])
    index.add(f"{SITE}/review/", "college", None, TITLES[3:6], judge=False)
    index.revise(f"{SITE}/review/", "college", TITLES[3:6])
    assert index.listings() == [(f"{SITE}/list/", "college")]


def test_a_list_page_with_teasers_extracted_before_its_articles_is_named_at_the_end() -> None:
    with Denoiser(store=None, page_model=None) as denoiser:
        page = denoiser.extract(_list_page(TITLES[:5]), f"{SITE}/news/")
        # the rules let the list through: its entries read like prose
        assert page.verdict is not None and not page.verdict.is_noise
        assert TITLES[0] in page.text
        assert denoiser.noise_pages_passed() == []  # no article's title is known yet
        for n in range(5):
            verdict = denoiser.extract(_story(n), f"{SITE}/news/{n}").verdict
            assert verdict is not None and not verdict.is_noise
        assert denoiser.noise_pages_passed() == [(f"{SITE}/news/", "listing")]


def test_a_page_declaring_itself_an_article_is_no_listing_but_its_title_counts() -> None:
    # a year in review lists the year's stories under their titles; it says it is a post
    review = (
        _list_page(TITLES[:5])
        .replace(
            "<head>",
            "<head><meta property='article:published_time' content='2024-12-30T09:00:00Z'>",
        )
        .replace("<ul>", f"<p>Here are the stories of the year. {SENTENCE}</p><ul>")
    )
    with Denoiser(store=None, page_model=None) as denoiser:
        denoiser.extract(review, f"{SITE}/2024/12/30/year-in-review/")
        for n in range(5):
            denoiser.extract(_story(n), f"{SITE}/news/{n}")
        denoiser.extract(_list_page(TITLES[:5]), f"{SITE}/news/")
        assert denoiser.noise_pages_passed() == [(f"{SITE}/news/", "listing")]
    index = ListingIndex()
    index.add(f"{SITE}/news/0", "college", TITLES[0], [TITLES[0]], judge=False)
    index.add(f"{SITE}/news/1", "college", TITLES[1], [TITLES[1]])
    index.add(f"{SITE}/both/", "college", "Both", [TITLES[0], TITLES[1]])
    assert index.listings() == [(f"{SITE}/both/", "college")]


def test_noise_pages_need_a_learner() -> None:
    denoiser = Denoiser(store=False, page_model=None)
    denoiser.extract(_list_page(TITLES[:5]), f"{SITE}/news/")
    for n in range(5):
        denoiser.extract(_story(n), f"{SITE}/news/{n}")
    assert denoiser.noise_pages_passed() == []
