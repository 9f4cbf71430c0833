from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from scrapy_denoise.document import load_document
from scrapy_denoise.metadata import PageMetadata, extract_metadata


def _meta(html: str, url: str = "https://news.example/x") -> PageMetadata:
    return extract_metadata(load_document(html, url))


def test_json_ld_wins() -> None:
    html = """<html><head><title>Other - Site</title><script type="application/ld+json">
    {"@context": "https://schema.org", "@graph": [{"@type": "WebSite", "name": "Site"},
     {"@type": "NewsArticle", "headline": "Real headline", "datePublished":
      "2021-03-04T05:06:07+02:00", "author": [{"@type": "Person", "name": "Ann Lee"},
      {"@type": "Person", "name": "Bo Chen"}]}]}</script></head><body><h1>H1</h1></body></html>"""
    meta = _meta(html)
    assert meta.title == "Real headline"
    assert meta.published == datetime(2021, 3, 4, 5, 6, 7, tzinfo=timezone(timedelta(hours=2)))
    assert meta.author == "Ann Lee, Bo Chen"


@pytest.mark.parametrize(
    "kind", ["LiveBlogPosting", "SocialMediaPosting", "DiscussionForumPosting", "Report"]
)
def test_json_ld_article_subtypes_give_the_headline(kind: str) -> None:
    # schema.org's Article subtypes are named ...Article, ...Posting or Report; a
    # WebPage beside one must not win, nor the <title> with its site suffix
    html = f"""<html><head><title>Live updates: Cosby sentencing - CNN</title>
    <script type="application/ld+json">[{{"@type": "WebPage", "headline": "Section page"}},
    {{"@type": "{kind}", "headline": "Cosby sentencing: Live updates"}}]</script></head>
    <body><p>Text.</p></body></html>"""
    assert _meta(html).title == "Cosby sentencing: Live updates"


def test_a_job_posting_is_not_read_as_the_article() -> None:
    # schema.org's JobPosting is no Article: the page's own object still gives the date
    html = """<html><head><script type="application/ld+json">[{"@type": "JobPosting",
    "title": "Night editor", "datePosted": "2021-01-01"}, {"@type": "WebPage",
    "headline": "Careers", "datePublished": "2021-03-04"}]</script></head>
    <body><p>Text.</p></body></html>"""
    meta = _meta(html)
    assert meta.title == "Careers"
    assert meta.published is not None and meta.published.date().isoformat() == "2021-03-04"


def _ld_page(*blobs: str) -> str:
    scripts = "".join(f'<script type="application/ld+json">{b}</script>' for b in blobs)
    return f"<html><head>{scripts}</head><body><p>Text.</p></body></html>"


def test_json_ld_is_read_once_in_page_order_and_says_what_it_left_unread() -> None:
    from scrapy_denoise.metadata._page import MAX_JSON_LD_OBJECTS, page_json_ld

    doc = load_document(
        _ld_page(
            '[{"@type": "A"}, {"@graph": [{"@type": "B"}, {"@type": "C"}]}]',
            '{"@graph": {"@type": "D"}}',  # JSON-LD 1.1: one object as the graph
        ),
        "https://news.example/x",
    )
    ld = page_json_ld(doc)
    assert [o["@type"] for o in ld.objects if o.get("@type")] == ["A", "B", "C", "D"]
    assert ld.complete and page_json_ld(doc) is ld  # kept with the document
    broken = load_document(_ld_page('{"@type": "A"}', '{"@type": '), "https://news.example/x")
    assert [o["@type"] for o in page_json_ld(broken).objects] == ["A"]
    assert not page_json_ld(broken).complete
    many = "[" + ",".join(['{"@type": "X"}'] * (MAX_JSON_LD_OBJECTS + 1)) + "]"
    capped = page_json_ld(load_document(_ld_page(many), "https://news.example/x"))
    assert len(capped.objects) == MAX_JSON_LD_OBJECTS and not capped.complete


def test_meta_tags_then_markup() -> None:
    html = """<html><head><title>Story title | Daily News</title>
    <meta property="og:site_name" content="Daily News">
    <meta name="author" content="Jane Roe"></head><body>
    <time datetime="2020-01-02">Jan 2</time><p>text</p></body></html>"""
    meta = _meta(html)
    assert meta.title == "Story title"
    assert meta.author == "Jane Roe"
    assert meta.published == datetime(2020, 1, 2, tzinfo=UTC)


def test_title_part_the_page_shows_beats_a_longer_one_it_does_not() -> None:
    # A Hexo theme writing "<post> - undefined" (zjuvai-blog): no h1, the post title in a div.
    html = """<html><head><title>\n  保修期 - undefined\n</title></head><body>
    <div class="post-title">保修期</div><p>本次过来，还在一年保修期以内。</p></body></html>"""
    assert _meta(html).title == "保修期"
    # Nothing of the title shown: the longest part, as before.
    html = "<html><head><title>A long story title - Site</title></head><body><p>x</p></body></html>"
    assert _meta(html).title == "A long story title"


def test_a_headline_the_page_breaks_over_lines_is_shown_beside_the_sites_name() -> None:
    # gne-tests: the <title> has an ideographic space the page does not; the site's name
    # sits in the footer, and must not be taken for the part the page shows
    html = (
        "<html><head><title>关于调整2007\u3000年末国债余额限额的决议"
        "__国务院公报_中国政府网</title></head><body>"
        '<div class="title">关于调整<br>2007年末国债余额限额的决议</div>'
        '<p>会议同意国务院提出的议案。</p><div class="footer">中国政府网</div>'
        "</body></html>"
    )
    assert _meta(html).title == "关于调整2007 年末国债余额限额的决议"


def test_of_two_title_parts_the_page_shows_a_chinese_titles_head_wins() -> None:
    # A college site's <title> is "headline-site name", joined by a bare hyphen, the name
    # one character longer and printed in its header and footer.
    site = "东江理工大学计算机与信息工程学院"
    html = (
        f"<html><head><title>华为云计算夏应龙博士来访实验室-{site}</title></head><body>"
        f"<div class='logo'><span>{site}</span></div>"
        "<div class='content-tit'><h3>华为云计算夏应龙博士来访实验室</h3></div>"
        "<p>12 月 18 日下午，华为云计算部门的负责人来访实验室。</p>"
        f"<div class='footer'>版权所有 {site}</div></body></html>"
    )
    assert _meta(html).title == "华为云计算夏应龙博士来访实验室"
    # joined the Western way, the longest part the body shows, as before
    html = html.replace("实验室-东江", "实验室 | 东江")
    assert _meta(html).title == site


def test_byline_and_url_date() -> None:
    html = "<html><body><h1>Headline</h1><p class='byline'>By Max Mustermann</p></body></html>"
    meta = _meta(html, "https://site.example/2019/07/08/some-story.html")
    assert meta.title == "Headline"
    assert meta.author == "Max Mustermann"
    assert meta.published == datetime(2019, 7, 8, tzinfo=UTC)


def test_nothing_found_is_none() -> None:
    meta = _meta("<html><body><p>plain</p></body></html>", "")
    assert (meta.title, meta.published, meta.author) == (None, None, None)


def test_a_headline_with_separators_is_kept_whole_when_a_heading_shows_it() -> None:
    # flink-blog: og:title is the headline itself; cutting at " - " lost "September'19".
    html = """<html><head><meta property="og:title" content="Community Update - September'19">
    </head><body><h1>Community Update - September'19</h1><p>text</p></body></html>"""
    assert _meta(html).title == "Community Update - September'19"
    # Without such a heading, the longest part, as before.
    html = """<html><head><meta property="og:title" content="Storm hits coast - Daily">
    </head><body><h1>Weather</h1><h1>Storm</h1><p>text</p></body></html>"""
    assert _meta(html).title == "Storm hits coast"


def test_a_title_head_the_body_shows_keeps_its_own_separators() -> None:
    # zjuvai-blog: "<headline> - undefined", the headline holding " – " itself.
    html = """<html><head><title>SAGE2 – A New Approach - undefined</title></head><body>
    <div class="post-title">SAGE2 – A New Approach</div><p>text</p></body></html>"""
    assert _meta(html).title == "SAGE2 – A New Approach"


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        # WordPress themes of the dragnet pages ("<post> « <blog>"); before, the whole
        # <title> was the title, or the blog's name won over a headline shown in an <h2>
        ("Malaria returns to Greece « Healthcare Economist", "Malaria returns to Greece"),
        ("oHERALDo :: CM hints SEZs may be shown the door", "CM hints SEZs may be shown the door"),
        ("法国全国大罢工再次严重影响交通-新华网", "法国全国大罢工再次严重影响交通"),
        ("Plan approved ~ The Daily", "Plan approved"),
        # wp_title("&raquo;") with the site's name left out, and "::" set without a space
        # before it (dragnet pages of one WordPress theme)
        (" &raquo; Not In Production 7:: Néojaponisme &raquo; Blog Archive", "Not In Production 7"),
        ("Car2Go service expands to Toronto |", "Car2Go service expands to Toronto"),
    ],
)
def test_title_separators_of_other_themes(title: str, expected: str) -> None:
    html = f"""<html><head><title>{title}</title></head><body>
    <div class="post"><h2>{expected}</h2><p>text of the story</p></div></body></html>"""
    assert _meta(html).title == expected


def test_a_bare_hyphen_inside_latin_words_is_no_title_separator() -> None:
    html = """<html><head><title>Well-known plan-makers approve it</title></head><body>
    <p>text</p></body></html>"""
    assert _meta(html).title == "Well-known plan-makers approve it"


def test_section_headings_do_not_title_the_post() -> None:
    # Several h1 inside the post, none in the <title>: the <title> is the evidence.
    html = """<html><head><title>Semantic trajectories - undefined</title></head><body>
    <div>Semantic trajectories</div><h1>Background</h1><p>a</p><h1>Summary</h1><p>b</p>
    </body></html>"""
    assert _meta(html).title == "Semantic trajectories"
    # One h1 is the headline even when an SEO <title> says something else.
    html = """<html><head><title>Best cheap earbuds 2026 | Reviews</title></head><body>
    <h1>The Best Cheap Wireless Earbuds</h1><p>text</p></body></html>"""
    assert _meta(html).title == "The Best Cheap Wireless Earbuds"


@pytest.mark.parametrize(
    "page",
    [
        "https://www.facebook.com/DailyMail",
        "//lasvegassun.com/staff/adam-candee/",  # scheme-relative (utomo-big9-chaos)
        "www.example.com/staff/adam-candee",
    ],
)
def test_an_author_meta_tag_holding_a_page_gives_way_to_the_byline(page: str) -> None:
    html = f"""<html><head><meta property="article:author" content="{page}"></head><body>
    <h1>Headline</h1><p class="byline">By Adam Candee (contact)</p><p>text</p></body></html>"""
    assert _meta(html).author == "Adam Candee"


def test_a_link_to_an_author_page_is_the_byline_when_nothing_is_marked() -> None:
    # zjuvai-blog (Hexo): <a class="tag" href="/blog/author/#admin">admin</a>, nothing else.
    html = """<html><head><title>Post - Lab</title></head><body><div>Post</div>
    <span>2012-04-23</span> <a class="tag" href="/blog/author/#admin">admin</a>
    <p>text</p></body></html>"""
    assert _meta(html).author == "admin"
    html = """<html><body><a href="/authors/">Authors</a>
    <a href="/author/becky/">View all posts by Becky</a><p>text</p></body></html>"""
    assert _meta(html).author == "Becky"  # the menu's list page is no author


def test_a_person_items_name_is_the_author_and_every_person_of_the_byline_counts() -> None:
    # Docusaurus's blog byline (no JSON-LD before 3.5): a column classed authorCol per
    # author, each a schema.org Person with a name, a subtitle and social links
    def author(name: str, role: str) -> str:
        return f"""<div class="col col--6 authorCol_Hf19"><div class="avatar">
        <div class="avatar__intro" itemprop="author" itemscope=""
        itemtype="https://schema.org/Person"><div class="avatar__name"><a href="/a"
        itemprop="url"><span itemprop="name">{name}</span></a></div><small
        itemprop="description">{role}</small></div></div></div>"""

    html = f"""<html><body><article><header><h1>Designing the new search indexer</h1>
    <div class="row">{author("Tomás Ferreira", "Plugin ecosystem")}
    {author("Mira Okonkwo", "Core team")}</div></header><p>Story.</p></article></body></html>"""
    assert _meta(html).author == "Tomás Ferreira, Mira Okonkwo"
    # a plain author item beside a Person is a name of its own
    html = """<html><body><h1>H</h1><p class="byline">By <span itemprop="author">John
    Doe</span> and <span itemprop="author" itemscope><span itemprop="name">Jane Roe</span>
    <small>Editor</small></span></p><p>text</p></body></html>"""
    assert _meta(html).author == "John Doe, Jane Roe"
    # a byline element without Person items is read whole, as before
    html = """<html><body><h1>H</h1><p class="byline">By Todd Bishop</p><p>text</p>
    </body></html>"""
    assert _meta(html).author == "Todd Bishop"


def test_a_marked_byline_beats_an_earlier_author_link_of_a_sidebar() -> None:
    html = """<html><body><aside><a href="/author/frank/">FRANK CATALANO</a></aside>
    <p class="byline">By Todd Bishop</p><p>text</p></body></html>"""
    assert _meta(html).author == "Todd Bishop"


def test_an_unmarked_byline_under_the_headline_names_the_authors() -> None:
    # flink-blog's Hugo theme: the byline is the headline's tail text and twitter links.
    html = """<html><body><article><h1><a href="/p/">Looking Ahead</a></h1>
    November 21, 2017 - Stephan Ewen <a href="https://twitter.com/StephanEwen">(@StephanEwen)</a>
    Mike Winters <a href="https://twitter.com/wints">(@wints)</a>
    <p>The release is on track to happen in the next couple of weeks, and here is what is in
    it for everyone who has not followed the discussion on the mailing list.</p>
    </article></body></html>"""
    assert _meta(html).author == "Stephan Ewen, Mike Winters"
    # The same line in the header's next sibling, not the headline's own container.
    html = """<html><body><header><h1>Storm season</h1></header>
    <div class="meta">By Jane Roe | January 10, 2008</div><p>The storm came.</p></body></html>"""
    assert _meta(html).author == "Jane Roe"


def test_the_author_of_a_chinese_info_line_under_the_headline() -> None:
    # TRS WCM and most Chinese news CMSes: source, author and time in the spans of one
    # line, which renders as "来源：...作者：林涛发布时间：..." with nothing between them
    html = """<html><body><h1 class="title">市文化广电旅游局开展医疗卫生服务专项行动</h1>
    <div class="info"><span>来源：青石县融媒体中心</span><span>作者：林涛</span>
    <span>发布时间：2023-05-11 14:41</span><span>浏览次数：</span></div>
    <div class="TRS_Editor"><p>据了解，今年以来市应急管理局围绕防汛抗旱出台6项具体措施，
    惠及群众8万余人次。
    会议听取了市农业农村局关于医疗卫生服务工作情况的汇报，研究部署了下一阶段重点任务。</p></div>
    </body></html>"""
    assert _meta(html).author == "林涛"


def test_an_author_label_alone_under_the_headline_is_not_the_post_author() -> None:
    # zjuvai-blog's paper reviews: the post's byline, then the reviewed paper's authors
    html = """<html><body><h1>是什么特质让Hamlet如此Hamlet？</h1>
    <p>论文：Explainers: Expert Explorations With Crafted Projections</p>
    <p>作者：Michael Gleicher</p>
    <p>这篇论文提出了一种新的投影方法，用户可以用一些标注过的样例来构造可解释的投影轴，
    并在此基础上对高维数据进行探索和分析，文章中给出了多个实际的应用案例加以说明。</p>
    </body></html>"""
    assert _meta(html).author is None


def test_a_byline_below_the_first_paragraph_is_not_searched() -> None:
    html = """<html><body><h1>Storm season</h1><p>The first paragraph of the story is long
    enough to be the story itself, not a byline, and it goes on for a while to say so, well
    past the length of any byline that a theme would print under a headline.</p>
    <p>By Jane Roe</p></body></html>"""
    assert _meta(html).author is None


def test_a_comment_authors_byline_class_is_not_the_story_byline() -> None:
    html = """<html><body><h1>Headline</h1><p>November 8, 2012 — By Long Zheng</p>
    <p>Story text.</p><ol id="comments"><li><span class="comment-author">rino19ny</span>
    says: nice</li></ol></body></html>"""
    assert _meta(html).author == "Long Zheng"


def test_a_marked_byline_holding_only_a_date_gives_way_to_the_next_source() -> None:
    html = """<html><body><h1>Headline</h1><div class="author">Dec 16, 2007 18:22</div>
    <p>By HERB KEINON AND AP</p><p>Story text.</p></body></html>"""
    assert _meta(html).author == "HERB KEINON, AP"


def test_a_date_printed_only_for_people_is_the_publication_date() -> None:
    # flink-blog: the date starts the line under the headline, and the URL has none.
    html = """<html><body><h1>Looking Ahead</h1>November 21, 2017 - Stephan Ewen
    <p>The release is on track.</p></body></html>"""
    assert _meta(html, "https://flink.example/post/x/").published == datetime(
        2017, 11, 21, tzinfo=UTC
    )
    # zjuvai-blog: no h1; the date sits in the theme's post-meta block.
    html = """<html><body><div class="post-title">保修期</div>
    <div class="post-meta"><span>发布于：<span>2012-03-12</span></span></div>
    <p>本次过来，还在一年保修期以内。</p></body></html>"""
    assert _meta(html, "https://zj.example/p/").published == datetime(2012, 3, 12, tzinfo=UTC)


def test_dates_of_comments_and_sidebars_are_not_the_pages() -> None:
    html = """<html><body><aside><span class="date">May 1, 2019</span></aside>
    <h2>Headline</h2><p>Story text.</p>
    <ol class="comment-list"><li><span class="comment-date">June 2, 2019</span></li></ol>
    </body></html>"""
    assert _meta(html, "https://news.example/story").published is None
    # A date in the URL wins over one printed on the page.
    html = """<html><body><h1>H</h1><p>May 1, 2019</p><p>Story.</p></body></html>"""
    assert _meta(html, "https://news.example/2020/01/02/story").published == datetime(
        2020, 1, 2, tzinfo=UTC
    )


def test_the_date_of_a_pages_last_change_is_not_its_publication_date() -> None:
    # a Docusaurus docs page's footer (docusaurus.io/docs in wcxb has it word for word): a
    # meta-classed row holding "Last updated on <time itemprop=dateModified>"
    html = """<html><body><article><h1>Plugin API</h1><p>Plugins add features to a site,
    each a function that returns an object with lifecycle methods, which the build calls
    in order: load the content, contribute routes, and post-process the files it wrote.</p>
    <footer class="theme-doc-footer"><div class="theme-doc-footer-edit-meta-row row">
    <div class="col"><a href="/edit">Edit this page</a></div>
    <div class="col lastUpdated_JAkA"><span class="theme-last-updated">Last updated on
    <b><time datetime="2024-04-12T09:12:00.000Z" itemprop="dateModified">Apr 12, 2024</time>
    </b> by <b>Priya Raman</b></span></div></div></footer></article></body></html>"""
    assert _meta(html, "https://quill.example/docs/api/plugin-api").published is None
    # WordPress prints the publication's <time> and the update's: the first is the date,
    # even where the update's comes first
    html = """<html><body><h1>Storm season</h1><div class="entry-meta">
    <time class="updated" datetime="2021-03-04T10:00:00+00:00">March 4, 2021</time>
    <time class="entry-date published" datetime="2021-02-01T08:00:00+00:00">February 1,
    2021</time></div><p>The storm came.</p></body></html>"""
    assert _meta(html).published == datetime(2021, 2, 1, 8, tzinfo=UTC)
    # a mark that says publication wins: WordPress's never-edited post, hAtom, microdata
    for time in (
        '<time class="entry-date published updated" datetime="2021-02-01T08:00:00+00:00">',
        '<time itemprop="datePublished dateModified" datetime="2021-02-01T08:00:00+00:00">',
        '<time itemprop="datePublished" class="date updated published" '
        'datetime="2021-02-01T08:00:00+00:00">',
    ):
        html = f"""<html><body><h1>Storm season</h1><div class="entry-meta">{time}
        3 days ago</time></div><p>The storm came.</p></body></html>"""
        assert _meta(html).published == datetime(2021, 2, 1, 8, tzinfo=UTC), time
    # a line of post meta that holds the publication's mark beside the update's
    html = """<html><body><h1>Storm season</h1><p>Posted on <span class="published">February
    1, 2021</span> <span class="updated">March 4, 2021</span></p><p>The storm came.</p>
    </body></html>"""
    assert _meta(html).published == datetime(2021, 2, 1, tzinfo=UTC)
    # a word that merely contains "modified" or "updated" marks nothing
    html = """<html><body><h1>Storm season</h1><time class="modifiedDate"
    datetime="2021-02-01T08:00:00+00:00">Feb 1</time><p>The storm came.</p></body></html>"""
    assert _meta(html).published == datetime(2021, 2, 1, 8, tzinfo=UTC)
    # a speech dated by its page's revision alone (cleaneval's surgeongeneral.gov page) is
    # left undated rather than dated by it
    speech = "Alcohol remains one of the most serious public health problems we face. " * 3
    html = f"""<html><body><h1>Remarks on underage drinking</h1><p>{speech}</p>
    <p class="lastupdated">Last Revised: April 27, 2004</p></body></html>"""
    assert _meta(html).published is None


def test_an_element_holding_only_a_date_under_the_headline_dates_the_story() -> None:
    # l3s-gn1 (2008 news templates): the date is a bare <b> under the headline, and the
    # masthead above it prints the day of the crawl.
    html = """<html><head><title>Lavigne lawsuit settled | Sun</title></head><body>
    <div id="masthead"><b>Tuesday, January 15, 2008</b></div>
    <table><tr><td><font size="4"><b>Lavigne lawsuit settled</b></font>
    <div align="right"><b>Thu, January 10, 2008</b></div>
    <p>The suit was settled out of court, both sides said on Wednesday.</p>
    </td></tr></table></body></html>"""
    assert _meta(html, "https://sun.example/story").published == datetime(2008, 1, 10, tzinfo=UTC)
    # Only the masthead's date: no date rather than the crawl's day.
    html = html.replace("<b>Thu, January 10, 2008</b>", "")
    assert _meta(html, "https://sun.example/story").published is None
    # A list of other posts under the story dates those posts.
    story = "Colaiacovo will miss at least seven to ten days with a knee injury. " * 3
    html = f"""<html><body><h1>Leafs notebook</h1><p>{story}</p>
    <table class="MoreRecentPosts"><tr><td>January 14, 2008, 6:40 PM</td></tr></table>
    </body></html>"""
    assert _meta(html, "https://blog.example/leafs").published is None


def test_the_mastheads_date_above_the_headline_dates_nothing() -> None:
    # A news site's header prints today's date, classed as a date, on every page: the day
    # of the fetch, not of the story (l3s-gn1's "DateBar" in a "MastBorder" table,
    # wcxb's "block-date" in a <header>, the demo site's "top-bar-date").
    story = "<p>The council met on Tuesday to discuss the budget for the coming year.</p>"
    for masthead in (
        '<div class="top-bar"><span class="top-bar-date">Friday, 28 June 2024</span></div>',
        '<header><div class="block-date">Friday, December 19, 2025</div></header>',
        '<table class="MastBorder"><tr><td><table class="DateBar"><tr><td>'
        "Monday, 21 January 2008</td></tr></table></td></tr></table>",
        '<div id="hd"><div id="date"><span class="date">Saturday, March 21, 2009</span>'
        "</div></div>",
    ):
        html = f"<html><body>{masthead}<main><h1>About us</h1>{story}</main></body></html>"
        assert _meta(html).published is None, masthead
    # A date-classed element above the headline but in the story is the story's date:
    # over a CBS headline (in no header), or in the <header> of an <article>.
    for dated in (
        '<div class="heading"><div class="timeLine">July 24, 2012 12:11 AM</div>'
        "<h1>About us</h1></div>",
        '<article><header><span class="date">July 24, 2012</span><h1>About us</h1></header>',
    ):
        html = f"<html><body><div>{dated}{story}</div></body></html>"
        assert _meta(html).published == datetime(2012, 7, 24, tzinfo=UTC), dated


def test_without_an_h1_the_headline_is_the_element_saying_the_title() -> None:
    # cleaneval (sptimes.com, 2003): the headline is a <font><b>, the title adds the
    # section, and the byline sits under the headline.
    html = """<html><head><title>Tampa Bay: Flu vaccine has run out</title></head><body>
    <table><tr><td><font size="5"><b>Flu vaccine has run out</b></font><br>
    By TOM ZUCCO<br><p>Local doctors say their doses are gone for the season.</p>
    </td></tr></table></body></html>"""
    assert _meta(html).author == "TOM ZUCCO"


def test_a_date_meta_tag_written_for_people_is_read_when_nothing_else_dates_the_page() -> None:
    # l3s-gn1: EPiServer's creation_date is RFC 822, which the machine-form pass skips.
    head = '<head><meta name="creation_date" content="Sun, 30 Dec 2007 20:29:00 GMT"></head>'
    html = f"<html>{head}<body><h1>Redknapp on Portsmouth</h1><p>Story.</p></body></html>"
    assert _meta(html).published == datetime(2007, 12, 30, tzinfo=UTC)
    # A date the page prints under its headline comes first: the tag is often build time.
    html = html.replace("<p>Story.</p>", "<p>December 29, 2007</p><p>Story.</p>")
    assert _meta(html).published == datetime(2007, 12, 29, tzinfo=UTC)


def test_a_declared_title_that_is_the_headline_plus_a_tail_gives_the_headline() -> None:
    # wcxb: JSON-LD and og:title add the site's name or an SEO tail that nothing marks.
    html = """<html><head><meta property="og:title"
    content="Is it really always the DNS? | APNIC Blog"></head>
    <body><h1>Is it really always the DNS?</h1><p>text</p></body></html>"""
    assert _meta(html).title == "Is it really always the DNS?"
    html = """<html><head><script type="application/ld+json">{"@type": "Article",
    "headline": "Healthy Eating Plate \u2022 The Nutrition Source"}</script></head>
    <body><h1>Healthy Eating Plate</h1><p>text</p></body></html>"""
    assert _meta(html).title == "Healthy Eating Plate"
    # A heading that is not a whole part of the declared title changes nothing.
    html = """<html><head><meta property="og:title" content="Storm hits the coast"></head>
    <body><h1>Storm hits</h1><p>text</p></body></html>"""
    assert _meta(html).title == "Storm hits the coast"


def test_a_declared_title_cut_by_the_pages_own_quote_gives_the_headline() -> None:
    # gne-tests (163.com): content="...写"救命啊"纸团..." ends at the headline's first quote.
    html = """<html><head><meta property="og:title" content="Boy writes "SOS" note"></head>
    <body><h1>Boy writes "SOS" note and police come</h1><p>text</p></body></html>"""
    assert _meta(html).title == 'Boy writes "SOS" note and police come'
    # A headline that only goes on after the declared title is no sign of a cut.
    html = """<html><head><meta property="og:title" content="Storm hits coast"></head>
    <body><h1>Storm hits coast: thousands without power</h1><p>text</p></body></html>"""
    assert _meta(html).title == "Storm hits coast"


def test_a_declared_title_escaped_twice_is_unescaped() -> None:
    html = """<html><head><meta property="og:title" content="Houston&amp;#39;s Best &amp;amp;
    Worst"></head><body><p>text</p></body></html>"""
    assert _meta(html).title == "Houston's Best & Worst"


def test_a_single_h1_below_the_shown_title_is_a_section_not_the_headline() -> None:
    # zjuvai-blog: the post title in a div, the post's only h1 a section heading.
    html = """<html><head><title>Survey of Federated Learning - undefined</title></head>
    <body><div class="post-title">Survey of Federated Learning</div>
    <p>Intro.</p><h1>报告</h1><p>Body.</p></body></html>"""
    assert _meta(html).title == "Survey of Federated Learning"
    # The site's name shown as its logo link is no title: the h1 stays the headline.
    html = """<html><head><title>Daily Planet - News</title></head>
    <body><a href="/">Daily Planet</a><h1>Storm hits coast</h1><p>Body.</p></body></html>"""
    assert _meta(html).title == "Storm hits coast"


def test_the_byline_is_read_under_the_story_headline_not_under_a_logo_h1() -> None:
    html = """<html><head><title>Storm season arrives early - Daily Planet</title></head>
    <body><h1 class="logo">Daily Planet</h1><p>News</p><p>By Clark Kent</p>
    <main><h1>Storm season arrives early</h1><p>By Lois Lane</p>
    <p>The storm came early this year.</p></main></body></html>"""
    meta = _meta(html)
    assert meta.title == "Storm season arrives early"
    assert meta.author == "Lois Lane"


def test_publication_date_meta_names_and_their_compact_form_date_the_page() -> None:
    # l3s-gn1 (The Hindu, 2008): the date is a PublicationDate meta tag, eight digits.
    head = '<head><meta name="PublicationDate" content="20080115"></head>'
    html = f"<html>{head}<body><h1>BSNL tariffs</h1><p>Story.</p></body></html>"
    assert _meta(html).published == datetime(2008, 1, 15, tzinfo=UTC)
    # BBC News: OriginalPublicationDate, with a time.
    head = '<head><meta name="OriginalPublicationDate" content="2005/05/02 10:09:45"></head>'
    html = f"<html>{head}<body><h1>Talking point</h1><p>Story.</p></body></html>"
    assert _meta(html).published == datetime(2005, 5, 2, 10, 9, 45, tzinfo=UTC)
    # Eight digits that are no calendar day date nothing.
    head = '<head><meta name="PublicationDate" content="20081315"></head>'
    html = f"<html>{head}<body><h1>BSNL tariffs</h1><p>Story.</p></body></html>"
    assert _meta(html).published is None


def test_author_marks_in_a_menu_sign_nothing() -> None:
    # NPR: the section menu's "Author Interviews" item is classed "author-interviews".
    html = """<html><head><title>SpaceX reuses a rocket</title></head><body>
    <nav><ul><li class="author-interviews"><a href="/sections/author-interviews/">Author
    Interviews</a></li></ul></nav>
    <h1>SpaceX reuses a rocket</h1><p class="byline">By Geoff Brumfiel</p>
    <p>The launch went as planned.</p></body></html>"""
    assert _meta(html).author == "Geoff Brumfiel"
    # A blog menu's "About Us" link marked rel="author", in a ul classed as a menu.
    html = """<html><head><title>Squash soup</title></head><body><div id="header">
    <ul class="menu"><li><a rel="author" href="/about/">About Us</a></li></ul></div>
    <h1>Squash soup</h1><p>Posted by <span class="author">Todd Porter</span></p>
    <p>A soup for autumn.</p></body></html>"""
    assert _meta(html).author == "Todd Porter"
    # A wrapper classed as navigation that holds the whole page is no menu.
    story = "<p>" + "The council met on Tuesday to discuss the budget. " * 20 + "</p>"
    html = f"""<html><head><title>Budget</title></head><body><div class="with-navigation">
    <ul><li><span class="byline">Gregory Parks</span></li></ul>{story}</div></body></html>"""
    assert _meta(html).author == "Gregory Parks"


def test_a_text_saying_when_the_story_was_posted_dates_it_last() -> None:
    # dragnet (a Typepad blog): the date is in the post's footer line, after the story.
    html = """<html><head><title>A trip</title></head><body><h1>A trip</h1>
    <p>We went to the mountains and it rained every single day of the week, so we read
    books by the fire, played cards with the other guests and walked in the wet woods.</p>
    <p>Posted on November 13, 2012 in <a href="/travel/">Travel</a></p>
    <div id="comments"><p>Posted on November 20, 2012 by a reader</p></div>
    </body></html>"""
    assert _meta(html).published == datetime(2012, 11, 13, tzinfo=UTC)
    # in the comments only, it dates nothing
    html = html.replace("Posted on November 13, 2012 in", "Filed in")
    assert _meta(html).published is None


def test_a_text_saying_when_the_story_was_published_dates_it_in_other_languages() -> None:
    html = """<html><head><title>Eine Reise</title></head><body><h1>Eine Reise</h1>
    <p>Wir fuhren in die Berge, und es regnete die ganze Woche, also lasen wir am Feuer,
    spielten Karten mit den anderen Gästen und gingen im nassen Wald spazieren.</p>
    <p>Veröffentlicht am 15. März 2024 in <a href="/reisen/">Reisen</a></p></body></html>"""
    assert _meta(html).published == datetime(2024, 3, 15, tzinfo=UTC)


def test_a_date_in_the_title_dates_the_page_only_when_the_body_does_not() -> None:
    # utomo-big9-chaos: CNN's 2005 stories print their day only in the <title> and masthead.
    html = """<html><head><title>CNN.com - Rita growing weaker, slower - Sep 25, 2005</title>
    </head><body><h1>Rita growing weaker, slower</h1><p>The storm weakened overnight as it
    moved inland over Texas and Louisiana, forecasters said on Sunday.</p></body></html>"""
    assert _meta(html).published == datetime(2005, 9, 25, tzinfo=UTC)
    # a date the story prints comes first
    html = html.replace("<p>The storm", "<p>September 24, 2005</p><p>The storm")
    assert _meta(html).published == datetime(2005, 9, 24, tzinfo=UTC)
    # a title with a year alone dates nothing
    html = html.replace("Sep 25, 2005", "2005").replace("<p>September 24, 2005</p>", "")
    assert _meta(html).published is None
    # nor does a "title" of thousands of characters (markup gone wrong)
    html = html.replace("- 2005</title>", "- " + "word " * 200 + "Sep 25, 2005</title>")
    assert _meta(html).published is None


def test_a_logo_h1_linking_home_is_not_the_headline_though_longer() -> None:
    # l3s-gn1: the site's name, in an <h1> logo, is longer than the story's headline and
    # both are in the <title>.
    html = """<html><head><title>The Final Chapter? - 1/21/2008 - Broadcasting & Cable</title>
    </head><body><div id="logo"><h1><a href="/">Broadcasting &amp; Cable</a></h1></div>
    <h1>The Final Chapter?</h1><p>If you want to know when the strike ends, look at the
    talks.</p><h1>ALSO BY THIS AUTHOR...</h1></body></html>"""
    assert _meta(html).title == "The Final Chapter?"
    # a headline that links to its own post (a permalink) is no logo, and a logo may
    # link to the home page by its full URL
    html = html.replace(
        "<h1>The Final Chapter?</h1>", '<h1><a href="/2008/01/final">The Final Chapter?</a></h1>'
    ).replace('<a href="/">', '<a href="https://www.broadcastingcable.com">')
    assert _meta(html).title == "The Final Chapter?"


def test_names_on_source_lines_of_their_own_are_several_authors() -> None:
    # flink-blog's Hugo theme loops over a post's authors, one per source line: rendered,
    # "May 11, 2022 - Jingsong Lee Jiangjie (Becket) Qin" reads as nobody's byline.
    html = """<html><head><title>Table Store 0.1.0</title></head><body><article>
    <h1>Table Store 0.1.0</h1>

  May 11, 2022 -



  Jingsong Lee


  Jiangjie (Becket) Qin




    <p>The Apache Flink community is pleased to announce the preview release of the Table
    Store, a storage for dynamic tables that supports streaming and batch reads.</p>
    </article></body></html>"""
    assert _meta(html).author == "Jingsong Lee, Jiangjie (Becket) Qin"
    # one author alone, as before
    one = html.replace("\n  Jiangjie (Becket) Qin\n", "")
    assert _meta(one).author == "Jingsong Lee"


def test_an_author_tag_naming_the_copyright_holder_gives_way_to_a_byline() -> None:
    # utomo-big9-chaos: the Los Angeles Times tags every story with its own name
    head = """<html><head><meta name="author" content="Los Angeles Times">
    <meta name="copyright" content="Copyright 2013 Los Angeles Times"></head><body>
    <h1>Storm hits coast</h1>"""
    html = head + """<p class="byline">By Lisa Girion</p><p>Story.</p></body></html>"""
    assert _meta(html).author == "Lisa Girion"
    # without a byline the holder stays (a personal blog's author owns its copyright)
    assert _meta(head + "<p>Story.</p></body></html>").author == "Los Angeles Times"


@pytest.mark.parametrize(
    ("tag", "url"),
    [
        # msnbc.com's blogs name the blog in the author tag, as og:site_name does
        ('<meta property="og:site_name" content="World News">', "https://worldnews.example/a"),
        ("", "https://www.cbsnews.com/stories/a.html"),  # "CBSNews.com", the host
        ("", "https://cbsnews.com/stories/a.html"),
    ],
)
def test_an_author_tag_naming_the_site_gives_way_to_a_byline(tag: str, url: str) -> None:
    name = "World News" if tag else "CBSNews.com"
    head = f"""<html><head><meta name="author" content="{name}">{tag}</head><body>
    <h1>Storm hits coast</h1>"""
    html = head + """<p class="byline">By Mary Murray</p><p>Story.</p></body></html>"""
    assert _meta(html, url).author == "Mary Murray"
    # without a byline the site is all there is (a personal blog named after its owner)
    assert _meta(head + "<p>Story.</p></body></html>", url).author == name


@pytest.mark.parametrize(
    "name", ["The Tidewater Authors", "Tidewater Team", "tidewater contributors", "Tidewater"]
)
def test_an_author_tag_naming_a_group_after_the_site_gives_way_to_a_byline(name: str) -> None:
    # MkDocs' site_author on every page; the copy is served on loopback, its og:url says
    # whose it is
    head = f"""<html><head><meta name="author" content="{name}">
    <meta property="og:url" content="https://tidewater.dev/blog/storm/"></head><body>
    <h1>Storm hits coast</h1>"""
    html = head + """<p class="byline">By Mary Murray</p><p>Story.</p></body></html>"""
    assert _meta(html, "http://127.0.0.1:8000/blog/storm/").author == "Mary Murray"
    # a group named after something else is whoever signed
    other = html.replace(name, "The Harbour Authors")
    assert _meta(other, "http://127.0.0.1:8000/blog/storm/").author == "The Harbour Authors"


def test_markdown_heading_marks_are_no_part_of_a_declared_title() -> None:
    # wcxb: a CMS put the post's Markdown source line into JSON-LD and og:title
    html = """<html><head><meta property="og:title" content="## Martian Concrete">
    </head><body><p>text</p></body></html>"""
    assert _meta(html).title == "Martian Concrete"
    html = html.replace("## Martian Concrete", "#1 Martian Concrete")  # no heading mark
    assert _meta(html).title == "#1 Martian Concrete"


def test_a_section_heading_the_title_only_begins_with_is_not_the_title() -> None:
    """Several <h1> section headings, one of them the first word of the <title> ("ATOM"
    in "ATOM: A Grammar for Unit Visualizations"), and the post title shown in a <div>."""
    html = """<html><head><title>Spark: Fast Cluster Computing - Lab Blog</title></head><body>
    <div class="post-title">Spark: Fast Cluster Computing</div>
    <h1>Background</h1><p>Why clusters needed a faster engine, in a paragraph of prose.</p>
    <h1>Spark</h1><p>What the system does, in another paragraph of prose.</p></body></html>"""
    assert _meta(html, "https://lab.example/2020/spark/").title == "Spark: Fast Cluster Computing"


def test_a_malformed_declared_url_names_no_site() -> None:
    html = """<html><head><meta name="author" content="Jane Roe">
    <meta property="og:url" content="http://[bad"></head><body><p>Story.</p></body></html>"""
    assert _meta(html, "https://news.example/a").author == "Jane Roe"


@pytest.mark.parametrize(
    ("byline", "author"),
    [
        # MkDocs Material's blog post profile: the name, a line break, the role
        (
            '<div class="md-post__authors"><span class="md-author"><img alt="Marta Reyes">'
            '</span><span><strong><a href="/m">Marta Reyes</a></strong><br>Maintainer</span>'
            "</div>",
            "Marta Reyes",
        ),
        ('<p class="byline">Ramona Pringle<br/>Technology Columnist</p>', "Ramona Pringle"),
        ('<p class="byline">By<br>Jane Roe</p>', "Jane Roe"),
        # without a line break the byline is read whole, as before
        ('<p class="byline">By <b>Jane Roe</b> and <b>John Doe</b></p>', "Jane Roe and John Doe"),
    ],
)
def test_a_line_break_in_a_byline_ends_the_name(byline: str, author: str) -> None:
    html = f"<html><head></head><body><h1>Storm</h1>{byline}<p>Story.</p></body></html>"
    assert _meta(html).author == author
