"""The per-site template library: units, similarity, batches of N1 pages, removal."""

from __future__ import annotations

import random
import string
import time
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import html
from rapidfuzz.distance import Levenshtein

from scrapy_denoise.document import load_document
from scrapy_denoise.methods.template import (
    Entry,
    SiteTemplates,
    TemplateBatch,
    TemplateIndex,
    TemplateParams,
    Unit,
    page_units,
    similar,
    spared_units,
    template_lines,
)

PARAMS = TemplateParams()

NAV = '<ul class="nav"><li><a href="/">Home</a></li><li><a href="/w">World news</a></li></ul>'
FOOTER = "<footer><p>Copyright 2024 Example Daily. All rights reserved.</p></footer>"


STORIES = [
    ("Rain floods the old harbour", "Fishermen moved their boats inland overnight."),
    ("Council approves new library", "The vote passed after a long evening debate."),
    ("Local team wins the cup final", "Supporters celebrated until the early morning."),
    ("Bakery celebrates fifty years", "Three generations of the family still bake bread."),
    ("Bridge repairs delay commuters", "Engineers expect the work to last until spring."),
    ("School garden feeds the canteen", "Pupils planted beans, potatoes and sunflowers."),
    ("Museum returns stolen painting", "Detectives traced the canvas to a private sale."),
    ("Cyclists demand safer junctions", "A petition gathered twelve thousand signatures."),
    ("Storm knocks out power lines", "Crews restored electricity to most homes by noon."),
    ("Orchestra plays in the square", "Hundreds brought blankets and listened for hours."),
    ("Hospital opens a quieter ward", "Patients said the new rooms help them sleep."),
    ("Ferry timetable changes again", "Islanders complained about the shorter season."),
]


def page(i: int, extra: str = "") -> str:
    title, lead = STORIES[i % len(STORIES)]
    return f"""<html><head><title>{title}</title><script>var n = {i};</script></head><body>
{NAV}
<div class="article"><h1>{title}</h1>
<p>{lead}</p>
<p>Witnesses <a href="/x">told us</a>: <b>{title.lower()}</b>, {lead.lower()}</p>
{extra}</div>
{FOOTER}
</body></html>"""


def units_of(markup: str) -> list[tuple[str, str]]:
    return [(u.tag, u.text) for u in page_units(load_document(markup))]


# -- units ----------------------------------------------------------------------------


def test_paragraph_with_inline_children_is_one_unit() -> None:
    units = units_of("<div><p>Read <a>the <b>full</b> story</a>\n  here.</p></div>")
    assert units == [("p", "Read the full story here.")]


def test_units_skip_head_and_script_and_read_br_as_space() -> None:
    markup = (
        "<html><head><title>T</title></head><body><div>"
        "<p>one<br>two<script>x()</script></p><span>loose</span><div>block</div>"
        "</div></body></html>"
    )
    assert units_of(markup) == [("p", "one two"), ("span", "loose"), ("div", "block")]


def test_text_beside_block_children_belongs_to_no_unit() -> None:
    assert units_of("<div>stray text<p>para</p>more stray</div>") == [("p", "para")]


def test_nav_items_are_list_item_units() -> None:
    assert units_of(f"<body>{NAV}</body>") == [("li", "Home"), ("li", "World news")]


# -- similarity -----------------------------------------------------------------------


def test_texts_of_eight_chars_or_fewer_must_be_equal() -> None:
    assert similar("abcdefgh", "abcdefgh", PARAMS)
    assert not similar("abcdefgh", "abcdefgX", PARAMS)
    assert not similar("abcdefgh", "abcdefghi", PARAMS)  # shorter text has 8 chars
    assert not similar("Home", "Homes", PARAMS)


def test_edit_distance_boundary_is_shorter_length_over_eight() -> None:
    nine = "abcdefghi"  # 9 // 8 = 1 edit allowed
    assert similar(nine, "abcdefghX", PARAMS)
    assert not similar(nine, "abcdefgXY", PARAMS)
    sixteen = "abcdefghijklmnop"  # 16 // 8 = 2 edits
    assert similar(sixteen, "abcdefghijklmnXY", PARAMS)
    assert not similar(sixteen, "abcdefghijklmXYZ", PARAMS)
    fifteen = sixteen[:15]  # 15 // 8 = 1 edit
    assert not similar(fifteen, "abcdefghijklmXY", PARAMS)
    # The shorter text sets the bound: 16 vs 18 chars is 2 insertions, allowed by 16 // 8.
    assert similar(sixteen, sixteen + "qr", PARAMS)
    assert not similar(sixteen[:15], sixteen[:15] + "qr", PARAMS)


def test_similarity_parameters_are_configurable() -> None:
    loose = TemplateParams(distance_divisor=4, exact_up_to=3)
    assert similar("abcd", "abcX", loose)
    assert not similar("abcd", "abcX", PARAMS)


# -- batches --------------------------------------------------------------------------


def learn_pages(site: SiteTemplates, pages: list[str]) -> list[int]:
    return [site.learn(page_units(load_document(p))) for p in pages]


def template_texts(site: SiteTemplates) -> set[tuple[str, str]]:
    return {(e.tag, e.text) for e in site.library.entries}


def test_ten_pages_sharing_chrome_make_templates_and_nothing_else() -> None:
    site = SiteTemplates(PARAMS)
    pages = [page(i) for i in range(10)]
    # "Sponsored" on two pages only, "Editor's pick" on exactly N2 = 3 pages.
    pages[1] = page(1, "<p>Sponsored content</p>")
    pages[6] = page(6, "<p>Sponsored content</p>")
    for i in (2, 5, 8):
        pages[i] = page(i, "<p>Editor's pick</p>")
    made = learn_pages(site, pages)
    assert made[:9] == [0] * 9
    assert template_texts(site) == {
        ("li", "Home"),
        ("li", "World news"),
        ("p", "Copyright 2024 Example Daily. All rights reserved."),
        ("p", "Editor's pick"),
    }
    assert made[9] == 4
    assert {e.frequency for e in site.library.entries if e.tag == "li"} == {10}
    # S is cleared for the next batch.
    assert site.batch.pages == 0
    assert len(site.batch.index) == 0


def test_nine_pages_make_no_template_yet() -> None:
    site = SiteTemplates(PARAMS)
    learn_pages(site, [page(i) for i in range(9)])
    assert len(site.library) == 0
    assert site.batch.pages == 9
    assert site.batch_dirty


def test_near_duplicate_texts_count_as_the_same_entry() -> None:
    site = SiteTemplates(PARAMS)
    # A footer whose visit counter differs on every page: 1 edit in 40+ chars.
    pages = [page(i, f"<p>This page has been viewed {i} times by readers</p>") for i in range(10)]
    learn_pages(site, pages)
    assert ("p", "This page has been viewed 0 times by readers") in template_texts(site)


def test_a_unit_counts_at_most_once_per_page() -> None:
    batch = TemplateBatch(TemplateParams(batch_pages=3, min_frequency=2))
    repeated = "<body><ul>" + "<li>Share</li>" * 5 + "</ul></body>"
    assert batch.learn(page_units(load_document(repeated))) == []
    assert [(e.text, e.frequency) for e in batch.index.entries] == [("Share", 1)]
    batch.learn(page_units(load_document("<body><p>other</p></body>")))
    assert batch.learn(page_units(load_document("<body><p>else</p></body>"))) == []


def test_a_long_page_adds_only_the_units_at_its_two_ends() -> None:
    """A page of 1,000 paragraphs adds its first and last 300 to the batch (max_units 600):
    the chrome at both ends is learned, the middle of a very long article is not."""
    rng = random.Random(0)
    paragraphs = ["".join(rng.choices(string.ascii_lowercase, k=40)) for _ in range(1000)]
    body = "".join(f"<p>{text}</p>" for text in paragraphs)
    units = page_units(load_document(f"<body>{NAV}{body}{FOOTER}</body>"))
    batch = TemplateBatch(PARAMS)
    batch.learn(units)
    texts = [e.text for e in batch.index.entries]
    assert len(texts) == 600
    assert "Home" in texts and "Copyright 2024 Example Daily. All rights reserved." in texts
    # units: the two menu items, the 1,000 paragraphs, the footer
    assert paragraphs[297] in texts and paragraphs[298] not in texts
    assert paragraphs[700] not in texts and paragraphs[701] in texts
    everything = TemplateBatch(TemplateParams(max_units=None))
    everything.learn(units)
    assert len(everything.index.entries) == len(units) == 1003


def test_same_text_under_another_tag_is_another_entry() -> None:
    batch = TemplateBatch(TemplateParams(batch_pages=3, min_frequency=3))
    for tag in ("p", "li", "p"):
        batch.learn(page_units(load_document(f"<body><{tag}>Subscribe now</{tag}></body>")))
    assert batch.pages == 0  # the batch closed, and with it S
    assert batch.index.entries == []


def test_batch_size_and_threshold_are_configurable() -> None:
    site = SiteTemplates(TemplateParams(batch_pages=2, min_frequency=2))
    made = learn_pages(site, [page(1), page(2)])
    assert made == [0, 3]


def test_promoted_entry_similar_to_a_template_strengthens_it() -> None:
    site = SiteTemplates(
        TemplateParams(batch_pages=3, min_frequency=3),
        templates=[Entry("p", "Copyright 2024 Example Daily. All rights reserved.", 5)],
    )
    learn_pages(site, [page(i) for i in range(3)])
    copyright_ = [e for e in site.library.entries if e.text.startswith("Copyright")]
    assert [e.frequency for e in copyright_] == [8]
    pending = {(e.tag, e.text): e.frequency for e in site.pending_templates()}
    assert pending[("p", "Copyright 2024 Example Daily. All rights reserved.")] == 3


# -- removal --------------------------------------------------------------------------


def matched(site: SiteTemplates, markup: str) -> list[tuple[str, str]]:
    return [(u.tag, u.text) for u in site.matches(page_units(load_document(markup)))]


def test_after_a_batch_the_common_units_match_and_the_article_does_not() -> None:
    site = SiteTemplates(PARAMS)
    learn_pages(site, [page(i) for i in range(10)])
    assert matched(
        site, page(11, "<div><span>Share</span> tail kept <p>Last words.</p></div>")
    ) == [
        ("li", "Home"),
        ("li", "World news"),
        ("p", "Copyright 2024 Example Daily. All rights reserved."),
    ]


def test_a_unit_is_matched_whole_not_by_its_inline_parts() -> None:
    site = SiteTemplates(PARAMS, templates=[Entry("span", "Advertisement")])
    assert matched(site, "<div><p><span>Advertisement</span>Body text</p></div>") == []
    assert matched(site, "<div><span>Advertisement</span>Body text<p>x</p></div>") == [
        ("span", "Advertisement")
    ]


def test_matching_allows_similar_text_but_not_another_tag() -> None:
    site = SiteTemplates(PARAMS, templates=[Entry("p", "Follow us on all the social networks")])
    assert matched(
        site,
        "<div><p>Follow us on all the social networks!</p><li>Follow us on all the social"
        " networks</li></div>",
    ) == [("p", "Follow us on all the social networks!")]


def test_a_unit_matched_by_edit_distance_only_is_marked_near() -> None:
    site = SiteTemplates(
        PARAMS,
        templates=[Entry("li", "Home", 40), Entry("p", "Updated at 10:42 on March 3, 2024", 40)],
    )
    units = site.matches(
        page_units(load_document("<body><li>Home</li><p>Updated at 11:07 on March 3, 2024</p>"))
    )
    assert [(u.text, u.near) for u in units] == [
        ("Home", False),
        ("Updated at 11:07 on March 3, 2024", True),
    ]


def test_a_series_template_is_not_site_wide_and_does_not_match() -> None:
    site = SiteTemplates(PARAMS, templates=[Entry("li", "Home", 40), Entry("h2", "Bug fixes", 6)])
    assert matched(site, "<body><ul><li>Home</li></ul><h2>Bug fixes</h2></body>") == [
        ("li", "Home")
    ]


def _unit(tag: str, text: str) -> Unit:
    return Unit(html.fromstring(f"<{tag}>{text}</{tag}>"), tag, text)


def test_template_lines_drop_each_template_once_by_normalised_text() -> None:
    lines = ["Home", "Storm hits  the coast", "Home", "Share this"]
    units = [_unit("li", "Home"), _unit("span", "Share this")]
    assert template_lines(lines, units) == [True, False, False, True]


def test_template_lines_keep_a_line_that_only_contains_a_template() -> None:
    assert template_lines(["Home of the brave"], [_unit("li", "Home")]) == [False]


def test_template_lines_take_a_run_for_a_unit_broken_by_br() -> None:
    # <p>Example Ltd<br>1 Main Street</p> is one unit "Example Ltd 1 Main Street" but renders
    # as two lines.
    lines = ["Story text.", "Example Ltd", "1 Main Street", "More story."]
    units = [_unit("p", "Example Ltd 1 Main Street")]
    assert template_lines(lines, units) == [False, True, True, False]


def test_template_lines_take_each_run_once_from_lines_that_start_like_it() -> None:
    # "Example" opens three lines; the first reads no run, the other two are the same
    # footer twice, and a single unit takes only the first of them.
    lines = ["Example of a story.", "Example Ltd", "1 Main Street", "Example Ltd", "1 Main Street"]
    units = [_unit("p", "Example Ltd 1 Main Street")]
    assert template_lines(lines, units) == [False, True, True, False, False]
    twice = [*units, _unit("p", "Example Ltd 1 Main Street")]
    assert template_lines(lines, twice) == [False, True, True, True, True]


def _near(tag: str, text: str) -> Unit:
    return replace(_unit(tag, text), near=True)


def test_template_lines_drop_near_copies_beside_the_article() -> None:
    lines = [
        "Storm hits the coast",
        "Updated at 11:07 on March 3, 2024",
        "The storm reached the coast at dawn and cut power to thousands of homes.",
        "Copyright 2024 Example Daily",
    ]
    units = [_near("p", lines[1]), _unit("p", lines[3])]
    assert template_lines(lines, units) == [False, True, False, True]


def test_template_lines_keep_near_copies_that_are_most_of_the_text() -> None:
    # A generated report: its paragraphs differ from every other report's by numbers and
    # names only, so they match templates by edit distance; its word-for-word footer goes.
    lines = [
        "Magnitude 4.1 quake near Anza",
        "A magnitude 4.1 earthquake struck 12 kilometres north of Anza at 14:30.",
        "The quake had a depth of 8.2 kilometres. No damage was reported.",
        "This story was generated automatically.",
    ]
    units = [_near("p", lines[1]), _near("p", lines[2]), _unit("p", lines[3])]
    assert template_lines(lines, units) == [False, False, False, True]
    # the same near copies beside a story three times their length are boilerplate
    story = "The agency's director said the network of sensors would be extended. " * 3
    assert template_lines([*lines[:3], story], units[:2]) == [False, True, True, False]


def test_template_lines_keep_only_the_near_copies_that_read_as_sentences() -> None:
    lines = [
        "Updated at 14:30 UTC on March 3 | 2 min read",
        "A magnitude 4.1 earthquake struck 12 kilometres north of Anza at 14:30.",
        "The quake had a depth of 8.2 kilometres. No damage was reported.",
    ]
    units = [_near("p", line) for line in lines]
    assert template_lines(lines, units) == [True, False, False]
    assert [u.text for u in spared_units(lines, units)] == lines[1:]


def test_template_lines_weigh_near_copies_by_tokens_not_letters() -> None:
    # a Chinese brief of 51 characters (48 tokens) and an English sentence of 76 (14
    # tokens) that matched a template by edit distance: by letters the sentence would be
    # most of the page, by tokens it is a note beside the brief
    brief = (
        "市气象台今天发布暴雨蓝色预警信号，预计未来六小时内"
        "全市大部分地区将出现暴雨，请市民注意防范并减少外出。"
    )
    note = "This page was updated automatically from the weather office's data at 14:30."
    assert template_lines([brief, note], [_near("p", note)]) == [False, True]


# -- index ----------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    entries=st.lists(
        st.tuples(st.sampled_from(["p", "li"]), st.text(alphabet="abc", min_size=0, max_size=24)),
        max_size=40,
    ),
    query=st.tuples(st.sampled_from(["p", "li"]), st.text(alphabet="abc", max_size=24)),
)
def test_index_finds_exactly_what_a_full_scan_finds(
    entries: list[tuple[str, str]], query: tuple[str, str]
) -> None:
    index = TemplateIndex(PARAMS, [Entry(tag, text) for tag, text in entries])
    tag, text = query
    matches = [
        (0 if (t, x) == (tag, text) else Levenshtein.distance(x, text), i)
        for i, (t, x) in enumerate(entries)
        if t == tag and similar(x, text, PARAMS)
    ]
    found = index.find(tag, text)
    if not matches:
        assert found is None
    else:
        assert found is not None
        exact = [i for i, e in enumerate(entries) if e == (tag, text)]
        assert found == (exact[0] if exact else min(matches)[1])


def test_matching_stays_fast_with_thousands_of_templates() -> None:
    rng = random.Random(7)

    def words(n: int) -> str:
        return " ".join(
            "".join(rng.choices(string.ascii_lowercase, k=rng.randint(2, 9))) for _ in range(n)
        )

    templates = [
        Entry(rng.choice(["p", "li", "div", "span"]), words(rng.randint(1, 12)))
        for _ in range(5000)
    ]
    index = TemplateIndex(PARAMS, templates)
    queries = [(e.tag, e.text[:-1] + "#") for e in rng.sample(templates, 1000)]
    queries += [(rng.choice(["p", "li"]), words(rng.randint(1, 12))) for _ in range(1000)]
    start = time.perf_counter()
    hits = sum(index.find(tag, text) is not None for tag, text in queries)
    elapsed = time.perf_counter() - start
    assert hits >= 800  # the edited copies of long-enough templates
    assert elapsed < 1.0, f"2000 lookups against 5000 templates took {elapsed:.2f}s"
