"""The publication date: declared (JSON-LD, meta tags, ``<time>``), in the URL, or printed
for people (under the headline, in a date-classed element, alone in an element below the
headline, after "Posted on"), or in the ``<title>``, each source only where the ones before
found nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from lxml import etree

from ..dates import (
    PUBLISHED_ABROAD_WORDS,
    SAID_PUBLISHED_WORDS,
    STANDALONE_MAX,
    compact_date,
    find_written_date,
    parse_date,
    said_published,
    standalone_date,
    url_date,
)
from ..document import Document
from ._page import inside, node_text, text_of

__all__ = ["find_published"]

_DATE_META = (
    "article:published_time",
    "og:published_time",
    "datepublished",
    "publishdate",
    "pubdate",
    "date",
    "dc.date",
    "dc.date.issued",
    "dcterms.created",
    "sailthru.date",
    "parsely-pub-date",
    "article.published",
    "publish-date",
    "og:article:published_time",
    "weibo:article:create_at",
    "article:published",
    "og:pubdate",
    "rnews:datepublished",
    "citation_publication_date",
    "citation_date",
    "dc.date.created",
    "dc.created",
    "dcterms.issued",
    "dcterms.date",
    "date_published",
    "published_date",
    "publish_date",
    "publication_date",
    "published_time",
    "original-publish-date",
    "doc_date",
    "creation_date",
    "displaydate",
    # names that say "publication" in other words (htmldate's list has most of them;
    # "PublicationDate" is The Hindu's, "dateofPublication" The Patriot Ledger's)
    "publicationdate",
    "dateofpublication",
    "article:publicationdate",
    "originalpublicationdate",
    "dc.date.publication",
    "article:published_date",
    "article:post_date",
    "og:publish_date",
    "published-date",
    "publish_time",
    "dateposted",
    "article:modified_time",
)
#: longest date meta value read as a date written for people
_META_DATE_MAX = 100
#: class words of the elements a theme prints a post's date in. Ids are not read: the
#: second attribute read per element cost 0.1 ms per page (a sixth of all metadata) and
#: dated 3 more of 868 development pages.
_DATE_CLASS = re.compile(r"date|time|publish|posted|meta|byline")
#: class or id words of the regions that date other posts than the page's: comments,
#: sidebars, related and recent posts ("MoreRecentPostsDate", "recent-blogs"); and the
#: tags of the same
_OTHER_POSTS = re.compile(r"comment|sidebar|related|recent")
_ASIDE_TAGS = frozenset({"nav", "aside"})
#: class or id words of a site's header, where mastheads print today's date
_MASTHEAD = re.compile(r"(?<![\w-])(?:header|site-header|top-?bar|hd)(?![\w-])|\bmast|\bdate-?bar")
_HEADER_TAGS = frozenset({"header"})
_BANNER_ROLES = frozenset({"banner"})
_STORY_TAGS = frozenset({"article", "main"})
#: longest text piece :func:`_said_published` reads, and how such a piece starts
_SAID_MAX = 200
_SAID_STARTS = frozenset(word[:4] for word in (*SAID_PUBLISHED_WORDS, *PUBLISHED_ABROAD_WORDS))
#: longest ``<title>`` read for a date (:func:`_title_date`)
_TITLE_DATE_MAX = 500
#: an itemprop or class word of a date of the page's last change, not of its publication
#: (see :func:`_says_modified`): ``dateModified``, WordPress's ``updated``, MDN's
#: ``article-footer__last-modified``, Docusaurus's ``theme-last-updated`` and
#: ``lastUpdated_JAkA``; whole words or their last parts, so ``modifiedDate`` or
#: ``updatedness`` is no such mark
_MODIFIED_WORD = re.compile(
    r"(?:^|[-_])(?:last[-_]?)?(?:updated|modified|revised)(?:[-_]|$)|^datemodified$", re.I
)
#: a word of the same marks that says publication: WordPress's ``<time class="entry-date
#: published updated">`` of a post never edited, hAtom's ``published updated``,
#: ``itemprop="datePublished dateModified"``
_PUBLISHED_WORD = re.compile(r"^(?:published|datepublished|entry-date)$", re.I)
#: ancestors of a date's element read for :data:`_MODIFIED_WORD` (Docusaurus: ``<div
#: class="lastUpdated_JAkA"><span class="theme-last-updated">... <b><time>``)
_MODIFIED_LEVELS = 3
#: longest text (non-blank characters) of a ``<time>`` without ``datetime`` read for a date:
#: a date and a time, spelled out. An unclosed ``<time>`` wraps the rest of the page, and
#: 1,900 nested ones made every one's text a read of the page's (2.7 s; 30 s with eight
#: paragraphs per level)
_TIME_TEXT_MAX = 100
#: date-classed elements (and ``<time>`` elements) read before giving up (a page of
#: 100,000 "date" spans took 0.6 s to read whole)
_DATE_CANDIDATES = 50


def find_published(
    doc: Document,
    articles: list[dict[str, Any]],
    headline: Callable[[], int],
    under_headline: Callable[[], list[str]],
) -> datetime | None:
    """The first source, most explicit first, that dates the page; ``headline`` and
    ``under_headline`` are the page's (:func:`~._page.headline_node`,
    :func:`~._page.headline_lines`), found at most once for the date and the author."""
    for obj in articles:
        published = parse_date(obj.get("datePublished") or obj.get("dateCreated"))
        if published:
            return published
    meta = doc.head.meta
    for key in _DATE_META:
        published = parse_date(meta.get(key)) or compact_date(meta.get(key))
        if published:
            return published
    for tried, time_el in enumerate(doc.body.iter("time")):
        if tried == _DATE_CANDIDATES:
            break
        if _says_modified(doc, doc.index[time_el]):
            continue
        value = time_el.get("datetime")
        if not value and doc.text_len[doc.index[time_el]] <= _TIME_TEXT_MAX:
            value = text_of(time_el)
        published = parse_date(value)
        if published:
            return published
    published = url_date(doc.url) if doc.url else None
    if published is None:
        published = _written_date(doc, headline, under_headline)
    if published is None:
        published = _standalone_date(doc, headline())
    if published is None:
        published = _said_published(doc)
    if published is None:
        published = _title_date(doc)
    if published is None:
        # a date meta tag written for people ("Sun, 30 Dec 2007 20:29:00 GMT"), last: its
        # value is often when the page was built (tried first, it replaced 31 development
        # dates, ten with a later day than the page's <time>; tried before the dates
        # printed under the headline, it replaced 6 more, 4 with a later day)
        published = next(
            (
                d
                for key in _DATE_META
                if (v := meta.get(key)) and len(v) <= _META_DATE_MAX
                if (d := find_written_date(v))
            ),
            None,
        )
    return published


def _written_date(
    doc: Document, headline: Callable[[], int], under_headline: Callable[[], list[str]]
) -> datetime | None:
    """A date printed for people: in the lines under the headline, else in the first
    short element classed as a date or post meta ("发布于：2012-03-12" in zjuvai-blog's
    ``div.post-meta``) outside comments, sidebars and lists of other posts, and not above
    the headline."""
    for line in under_headline():
        found = find_written_date(line)
        if found:
            return found
    text_len, tags, end = doc.text_len, doc.tags, doc.end
    head: int | None = None
    tried = 0
    for i, el in enumerate(doc.nodes):
        if not 0 < text_len[i] <= 120 or tags[i] == "a":
            continue
        marks = el.get("class")
        if not marks or not _DATE_CLASS.search(marks.lower()):
            continue
        if inside(doc, i, _OTHER_POSTS, _ASIDE_TAGS) or _dates_a_change(doc, i):
            continue
        found = find_written_date(node_text(doc, i))
        if found:
            if head is None:
                head = headline()
            if end[i] >= head or not _in_masthead(doc, i):
                return found
        tried += 1
        if tried == _DATE_CANDIDATES:
            break
    return None


def _says_modified(doc: Document, i: int) -> bool:
    """Does node ``i`` date the page's last change (``itemprop="dateModified"``, WordPress's
    ``<time class="updated">``, Docusaurus's ``theme-last-updated``), by its own marks or
    those of its nearest ancestors?

    Such a date is not when the page was published, and a documentation page's "Last
    updated on May 18, 2024" dated every docs page of a generated Docusaurus site: the
    ``navigation_page`` rule, which spares dated pages, then let 38 of its 40 through a
    crawl as articles.
    Measured 2026-11-29 on the 6,613 pages of the shared data, with
    :func:`_dates_a_change`: 15 dates changed. 14 pages lost theirs: 11 wcxb
    documentation pages (MDN's "This page was last modified on", Ansible's and
    Docusaurus's own "Last updated on"), a service page's (a home page's list of posts,
    each in ``<time class="updated">``), a cleaneval speech's "Last Revised" and one wcxb
    article that prints only when it was updated (Serious Eats). One moved, a wcxb article,
    to the same day without the update's time. None of the 191 pages of the URL-date table
    changed, nor the two sites' dates.

    A mark that says publication wins (:data:`_PUBLISHED_WORD`), on the element or the
    nearest ancestor that has either: a review found the first version of this reading
    the words anywhere in a mark, which undated WordPress's never-edited posts
    (``entry-date published updated``) and moved a google-trends story's
    ``itemprop="datePublished" class="date updated published"`` to another time zone's day.
    """
    nodes, parent = doc.nodes, doc.parent
    for _ in range(_MODIFIED_LEVELS + 1):
        mark = _mark(nodes[i])
        if mark is not None:
            return mark
        if i <= 0:
            return False
        i = parent[i]
    return False


def _mark(el: etree._Element) -> bool | None:
    """True where ``el``'s itemprop or class words mark a date of the page's last change,
    False where they mark its publication, None where they mark neither."""
    words = f"{el.get('itemprop') or ''} {el.get('class') or ''}".split()
    if not words:
        return None
    if any(_PUBLISHED_WORD.match(word) for word in words):
        return False
    if any(_MODIFIED_WORD.search(word) for word in words):
        return True
    return None


def _dates_a_change(doc: Document, i: int) -> bool:
    """Is the short element ``i`` (a line of post meta) or its only marked date that of the
    page's last change: :func:`_says_modified` of it or of an element inside it? A
    Docusaurus docs page's footer row is classed ``meta`` and holds "Edit this page" and
    the ``theme-last-updated`` date. A line that also holds a mark of the publication is
    not such a line."""
    if _says_modified(doc, i):
        return True
    marks = {_mark(doc.nodes[k]) for k in range(i + 1, doc.end[i] + 1)}
    # a line holding the publication's mark too dates the publication: "Posted on <span
    # class=published>...</span> <span class=updated>...</span>"
    return True in marks and False not in marks


def _in_masthead(doc: Document, i: int) -> bool:
    """Is node ``i`` in the page's masthead: a site header (``<header>`` or ``role=banner``,
    or classed as one) with no ``<article>`` or ``<main>`` around it?

    News sites print today's date there, classed as a date, on every page: the day of the
    fetch. Found by :func:`_written_date` first, it dated site pages (about, privacy), which
    then passed the ``navigation_page`` rule, and stories with no other date. Measured
    2026-11-25 on the extraction sets' development pages: 20 of 3,546 dates changed, every
    one a masthead's on reading (l3s-gn1's ``table.DateBar`` in ``table.MastBorder``,
    Yahoo's ``div#hd``, a wcxb ``<header>``'s ``block-date``); 16 pages have no date now and
    4 one printed with the story (livemint's moved to its URL's day). Held out: 4 changed,
    all mastheads. The table of URL-dated pages did not move (dev 97 of 130 on the URL's
    day, held out 40 of 61). Skipping every date-classed element above the headline
    instead lost 97 development dates, most of them the story's own (Blogger's
    ``h2.date-header`` over the post title, CBS's ``div.timeLine`` over the ``<h1>``).
    """
    return inside(doc, i, _MASTHEAD, _HEADER_TAGS, _BANNER_ROLES) and not inside(
        doc, i, None, _STORY_TAGS
    )


def _standalone_date(doc: Document, head: int) -> datetime | None:
    """The date of the element nearest the headline whose whole text is a date
    (``<b>Thu, January 10, 2008</b>``, ``<div id=xsmtext>Fri, December 28, 2007</div>``):
    how older news templates date a story, with no class, meta tag or byline to say so.

    Only below the headline, in reading order: above it sits the masthead's "today", the
    day the page was fetched (l3s-gn1's 2008 pages, crawled in mid-January, print
    "Tuesday 15 January 2008" over stories of the 6th and 8th). Elements in comments,
    sidebars, lists of other or recent posts, ``<nav>`` and ``<aside>`` date other things.

    Measured with ``scrapy-denoise bench metadata`` (its table of extraction pages whose URL
    carries a date, dated with no URL), together with :func:`headline_node` finding
    headlines that are no ``<h1>`` and date meta tags written for people: development pages
    72 → 88 of 130 on the URL's day (77 → 95 within a day; trafilatura 92 and 98), held
    out 34 → 39 of 61 (37 → 44; trafilatura 44 and 48). Australian papers print the day
    after the URL's. On all development pages of the extraction sets, 172 more dates and
    3 lost.

    Scanning above the headline as well dated 9 more development pages, 3 of them with the
    masthead's day, so it is not done.
    """
    text_len, link_len = doc.text_len, doc.link_text_len
    if head < 0:
        return None
    tried = 0
    for i in range(head, len(text_len)):
        # a date is no link (a permalink's date may be any post's); testing the link
        # text also skips menus' <li><a>, most of a page's short elements
        if not 6 <= text_len[i] <= STANDALONE_MAX or link_len[i]:
            continue
        found = standalone_date(node_text(doc, i))
        if found is None:
            continue
        if not inside(doc, i, _OTHER_POSTS, _ASIDE_TAGS) and not _says_modified(doc, i):
            return found
        tried += 1
        if tried == _DATE_CANDIDATES:
            break
    return None


def _title_date(doc: Document) -> datetime | None:
    """A date the ``<title>`` carries ("New Orleans shelters to be evacuated - Aug 31,
    2005", "Blood transfusion ... - 01/18/2001"): news sites of the 2000s wrote the story's
    day there and printed it nowhere else but in the masthead, where it is not read.

    Read after every date printed in the body, it only fills a gap. Measured 2026-11-25 on
    the extraction sets' development pages: 16 pages gained a date, each the title's day
    on reading (CNN's 2005 storm stories, PBS NewsHour interviews, minutes of a meeting),
    none lost or changed; of the 27 development pages that were dated already and whose
    title holds a date, 26 were on that day. Development pages whose URL carries a date
    (URL hidden) 97 -> 99 of 130 on the URL's day; held out, counted once after the choice,
    40 -> 41 of 61.
    """
    title = doc.head.title
    # a "title" of thousands of characters is markup gone wrong, and reading dates in
    # a megabyte of it took 0.3 s
    return find_written_date(title) if title and len(title) <= _TITLE_DATE_MAX else None


def _said_published(doc: Document) -> datetime | None:
    """The date of the first text that starts by saying the page was published or posted
    then ("Posted on November 13, 2012 in Travel", "Published: 29 Dec, 2007"), outside
    comments, sidebars, lists of other posts, ``<nav>`` and ``<aside>``: blog themes print
    it at the story's end or beside the byline (``By STEVE PERSALL<br>Published October 7,
    2004``), where the scans near the headline do not look.

    Read last of the dates printed for people, it dated 42 more extraction pages (dev and
    held out), none of which had another date; on development pages whose URL carries a
    date (URL hidden), 94 -> 97 of 130 on the URL's day, held out unchanged (40 of 61).
    Text pieces (an element's text, a tail after ``<br>``), not elements, are read: such a
    line is seldom an element of its own.
    """
    parent = doc.parent
    for i, is_tail, text in _said_candidates(doc):
        # an element's own text is its own; the text after it (its tail) is its parent's
        owner = parent[i] if is_tail else i
        found = said_published(text.lstrip())
        if found is not None and owner >= 0 and not inside(doc, owner, _OTHER_POSTS, _ASIDE_TAGS):
            return found
    return None


def _said_candidates(doc: Document) -> list[tuple[int, bool, str]]:
    """The text pieces short enough and starting (after whitespace) with the start of a
    word of :data:`_SAID_STARTS`, as (node index, whether the tail, text), in the order
    :func:`_said_published` reads them: node by node, its text, then its tail.

    Tested in one list comprehension per list: a loop over each node's (text, tail) pairs
    took 60 % longer, and this runs over every text piece of pages with no other date.
    """
    found = [
        (i, False, text)
        for i, text in enumerate(doc.texts)
        if text and len(text) <= _SAID_MAX and text.lstrip()[:4].lower() in _SAID_STARTS
    ]
    found += [
        (i, True, text)
        for i, text in enumerate(doc.tails)
        if text and len(text) <= _SAID_MAX and text.lstrip()[:4].lower() in _SAID_STARTS
    ]
    found.sort()  # by node, then text before tail: no two pieces share both
    return found
