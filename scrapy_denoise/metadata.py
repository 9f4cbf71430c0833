"""Title, publication date and author from the page's own declarations.

Sources are tried from the most to the least explicit: JSON-LD (what publishers feed search
engines), then meta tags, then visible markup (``<h1>``, ``<time>``, bylines), then the URL,
and for the date last of all a date written for people under the headline or in a post's
meta block (:mod:`.dates`), which many blog themes print and declare nowhere else, then an
element under the headline that holds nothing but a date, as older news templates print it,
then a text anywhere in the story that starts "Posted on" or "Published" and a date.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import cache, partial
from typing import Any

from lxml import etree

from .bylines import MAX_AUTHOR, byline_names, clean_author
from .dates import (
    STANDALONE_MAX,
    compact_date,
    find_written_date,
    parse_date,
    said_published,
    standalone_date,
    url_date,
)
from .document import Document, text_chars

__all__ = ["PageMetadata", "extract_metadata", "parse_date"]

_TITLE_SEPARATORS = re.compile(r"\s+[|\-–—:·•»]\s+|\s*_\s*")
_SEPARATOR_AT_END = re.compile(r"(?:\s+[|\-–—:·•»]|_)\s*$")
_WS = re.compile(r"\s+")
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
_AUTHOR_META = (
    "author",
    "article:author",
    "byl",
    "dc.creator",
    "parsely-author",
    "sailthru.author",
    "og:article:author",
)
#: a link to one author's page; "/authors/" alone is the list of them (a menu entry)
_AUTHOR_HREF = re.compile(r"/authors?/(?:#)?[^/?#\s]+", re.IGNORECASE)
_BYLINE_CLASSES = ("byline", "author", "writer", "posted-by")
#: any of the byline class words, found in one C call per element instead of four
_BYLINE_CLASS = re.compile("|".join(re.escape(c) for c in _BYLINE_CLASSES))


class PageMetadata:
    """Metadata found on a page; every field is ``None`` when not found."""

    __slots__ = ("author", "published", "title")

    def __init__(self, title: str | None, published: datetime | None, author: str | None) -> None:
        self.title = title
        self.published = published
        self.author = author


def _json_ld_objects(blobs: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for blob in blobs:
        try:
            data = json.loads(blob)
        except (ValueError, RecursionError):
            continue
        stack: list[Any] = [data]
        while stack and len(out) < 50:
            item = stack.pop()
            if isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, dict):
                out.append(item)
                graph = item.get("@graph")
                if isinstance(graph, list):
                    stack.extend(graph)
    return out


def _is_article(obj: dict[str, Any]) -> bool:
    kind = obj.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    return any(
        isinstance(k, str) and ("Article" in k or k in ("BlogPosting", "Report")) for k in kinds
    )


def _names(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    names: list[str] = []
    for item in items:
        if isinstance(item, str):
            names.append(item)
        elif isinstance(item, dict) and isinstance(item.get("name"), str):
            names.append(item["name"])
    return [n.strip() for n in names if n and n.strip()]


def _clean_title(
    title: str, site_names: set[str], body_text: str = "", headings: Sequence[str] = ()
) -> str:
    """The article's part of a ``<title>``-like string.

    In order: the whole string when a heading of the page says exactly that (the headline
    itself, separators included: "Community Update - May'20" was cut, and 23 of
    flink-blog's 237 post titles lost a part); with ``body_text``, the longest head or
    tail of it, cut at one separator, that the body shows (a site name sits at one end,
    while a headline may hold separators of its own: "SAGE2 – A New Approach ... -
    undefined"), then the longest part the body shows (a theme that writes "Post -
    undefined" must not title every post "undefined"); else the longest part that is not
    a known site name.
    """
    whole = " ".join(title.split())
    cuts = list(_TITLE_SEPARATORS.finditer(whole))
    if not cuts or whole.casefold() in {h.casefold() for h in headings}:
        return whole
    parts = [p.strip() for p in _TITLE_SEPARATORS.split(whole)]
    candidates = [p for p in parts if p and p.lower() not in site_names]
    if body_text:
        ends = [whole[: m.start()].strip() for m in cuts]
        ends += [whole[m.end() :].strip() for m in cuts]
        shown = [e for e in ends if e and e.lower() not in site_names and e in body_text]
        shown = shown or [p for p in candidates if p in body_text]
        if shown:
            return max(shown, key=len)
    return max(candidates, key=len) if candidates else whole


def _text(el: Any) -> str:
    """Whitespace-collapsed text of ``el``'s subtree.

    lxml's text serialiser walks the subtree in C without making a Python object per node
    (``itertext`` makes one per node): a byline class on each of 2,000 nested elements made
    this quadratic walk take seconds. ``" ".join(s.split())`` equals ``_WS.sub(" ", s).strip()``.
    """
    return " ".join(etree.tostring(el, method="text", encoding="unicode", with_tail=False).split())


def _node_text(doc: Document, i: int) -> str:
    """:func:`_text` of node ``i``: a leaf's own text is all its text, read from the
    document's arrays without serialising the element (most date elements are leaves)."""
    if doc.end[i] == i:
        return " ".join((doc.texts[i] or "").split())
    return _text(doc.nodes[i])


def _headings(doc: Document, h1s: list[tuple[int, str]]) -> list[str]:
    """The page's ``<h1>`` and ``<h2>`` texts (order does not matter to their one user,
    :func:`_clean_title`, which compares against them as a set)."""
    h2s = (_text(h) for h in doc.body.iter("h2"))
    return [text for _, text in h1s if text] + [text for text in h2s if text]


def _h1s(doc: Document) -> list[tuple[int, str]]:
    """Every ``<h1>`` of the page as (node index, whitespace-collapsed text), read once:
    the title, the headline's byline lines and the written date all look at them."""
    nodes = doc.nodes
    return [(i, _text(nodes[i])) for i, tag in enumerate(doc.tags) if tag == "h1"]


def _heading_or_title(
    doc: Document, site_names: set[str], h1s: list[tuple[int, str]]
) -> str | None:
    """The page's ``<h1>`` when it has one; with several, the first the ``<title>``
    contains, and the ``<title>``'s article part when none agrees.

    A single ``<h1>`` is the headline even where the ``<title>`` says something else (SEO
    titles: wcxb's reviewed titles follow the ``<h1>``), unless the ``<title>``'s head part
    is shown above it, whole, in an element outside any link: then the ``<h1>`` is a
    section of the post (zjuvai-blog's "总结" under a post title in a ``<div>``; 6 of its
    457 titles, wcxb development titles 683 -> 688 of 960, held out unchanged). Several
    ``<h1>`` that the ``<title>`` does not contain are a theme's section headings
    ("Summary", an anchor "#" on zjuvai-blog, whose post titles sit in a ``<div>``)."""
    headings = [text for _, text in h1s if text]
    head_title = " ".join((doc.head.title or "").split())
    if headings and not head_title:
        return headings[0]
    if len(headings) == 1:
        body = _text(doc.body)
        shown = _clean_title(head_title, site_names, body, headings)
        at = body.find(shown) if shown and shown != headings[0] else -1
        if (
            at >= 0
            and head_title.startswith(shown)
            and headings[0] not in shown
            and body.find(headings[0], at + len(shown)) >= 0
            and _unlinked_element_says(doc, shown)
        ):
            return shown
        return headings[0]
    # the longest: a logo's <h1> holds the site's name, which the <title> holds too
    agreed = max((h for h in headings if len(h) > 1 and h in head_title), key=len, default=None)
    if agreed:
        return agreed
    cleaned = _clean_title(head_title, site_names, _text(doc.body), headings) if head_title else ""
    return cleaned or (headings[0] if headings else None)


def _declared_title(
    doc: Document,
    articles: list[dict[str, Any]],
    site_names: set[str],
    h1s: list[tuple[int, str]],
) -> str | None:
    """The title the page declares (JSON-LD headline, else Open Graph or Twitter title),
    or the page's ``<h1>`` where the declared one is that heading plus more at a separator.

    Declared titles carry the site's name or an SEO tail that nothing marks ("Gym Workouts
    for Beginners — Strength Training - Gold's Gym" over the ``<h1>`` "Gym Workouts for
    Beginners"), and some are escaped twice (``Houston&#39;s``)."""
    title: str | None = None
    for obj in articles:
        headline = obj.get("headline")
        if isinstance(headline, str) and headline.strip():
            title = " ".join(headline.split())
            break
    if not title:
        meta = doc.head.meta
        title = meta.get("og:title") or meta.get("twitter:title")
        if title:
            title = _clean_title(title, site_names, headings=_headings(doc, h1s))
    if not title:
        return None
    for _ in range(2):  # "And finally&amp;#8230;": escaped twice
        if "&" in title:
            title = html.unescape(title)
    folded = title.casefold()
    for _, heading in h1s:
        if len(heading) < 8 or len(heading) >= len(title):
            continue
        head = heading.casefold()
        if folded.startswith(head) and _TITLE_SEPARATORS.match(title[len(heading) :]):
            return heading
        if folded.endswith(head) and _SEPARATOR_AT_END.search(title[: -len(heading)]):
            return heading
    return title


def _unlinked_element_says(doc: Document, text: str) -> bool:
    """Does an element outside any link hold exactly ``text``? (A post title in a
    ``<div>`` does; a site's name is its logo's link text.)"""
    chars = text_chars(text)
    text_len, in_link = doc.text_len, doc.in_link
    return any(
        text_len[i] == chars and not in_link[i] and _node_text(doc, i) == text
        for i in range(len(text_len))
    )


def extract_metadata(doc: Document) -> PageMetadata:
    """Title, publication date and author of the page, found once per document (kept in
    ``doc.metadata``, which :meth:`Document.refresh` clears)."""
    if doc.metadata is None:
        doc.metadata = _extract_metadata(doc)
    return doc.metadata


def _extract_metadata(doc: Document) -> PageMetadata:
    meta = doc.head.meta
    ld = _json_ld_objects(doc.head.json_ld)
    articles = [o for o in ld if _is_article(o)] or ld
    site_names = {v.lower() for v in (meta.get("og:site_name"), meta.get("application-name")) if v}

    h1s = _h1s(doc)
    title = _declared_title(doc, articles, site_names, h1s)
    if not title:
        title = _heading_or_title(doc, site_names, h1s)

    published: datetime | None = None
    for obj in articles:
        published = parse_date(obj.get("datePublished") or obj.get("dateCreated"))
        if published:
            break
    if published is None:
        for key in _DATE_META:
            published = parse_date(meta.get(key)) or compact_date(meta.get(key))
            if published:
                break
    if published is None:
        for time_el in doc.body.iter("time"):
            published = parse_date(time_el.get("datetime") or _text(time_el))
            if published:
                break
    if published is None and doc.url:
        published = url_date(doc.url)
    headline = cache(partial(_headline_node, doc, h1s, title))
    under_headline = cache(partial(_headline_lines, doc, headline))
    if published is None:
        published = _written_date(doc, under_headline)
    if published is None:
        published = _standalone_date(doc, headline())
    if published is None:
        published = _said_published(doc)
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
    return PageMetadata(
        title=title, published=published, author=_author(doc, articles, under_headline)
    )


def _author(
    doc: Document, articles: list[dict[str, Any]], under_headline: Callable[[], list[str]]
) -> str | None:
    """The first source, most explicit first, that still names someone once cleaned
    (:func:`~.bylines.clean_author`): a marked byline of only a date is no author, and
    the next source gets its turn."""
    for obj in articles:
        names = [n for n in map(clean_author, _names(obj.get("author"))) if n]
        if names:
            return ", ".join(dict.fromkeys(names))
    meta = doc.head.meta
    for key in _AUTHOR_META:
        value = meta.get(key)
        if value and not value.startswith("http") and (author := clean_author(value)):
            return author
    marked, linked = _bylines(doc)
    if marked and (author := clean_author(marked)):
        return author
    for line in under_headline():
        byline = byline_names(line)
        if byline and (author := clean_author(byline)):
            return author
    return clean_author(linked) if linked else None


def _bylines(doc: Document) -> tuple[str | None, str | None]:
    """The first marked byline in reading order, and the first link to an author's page.

    Marked: an element marked ``rel``/``itemprop`` author or one with a byline class,
    outside comment threads (a comment's author carries the same classes: "comment-author",
    "rino19ny says:" above the story's own unmarked byline on a dragnet page). Linked:
    ``/author/NAME``, ``/authors/NAME/``, ``/author/#NAME``, the URL scheme of WordPress,
    Hexo and Hugo themes, which often mark nothing else; it comes last in :func:`_author`
    because sidebars and "related" boxes link their own authors, often above the story's
    byline."""
    linked: str | None = None
    tags = doc.tags
    for i, el in enumerate(doc.nodes):
        if el.get("rel") == "author" or el.get("itemprop") == "author":
            text = _text(el)
            if 0 < len(text) <= MAX_AUTHOR and not _signs_nothing(doc, i):
                return text, linked
        classes = (el.get("class") or "").lower()
        if classes and _BYLINE_CLASS.search(classes):
            text = _text(el)
            if 0 < len(text) <= 60 and not _signs_nothing(doc, i):
                return text, linked
        if linked is None and tags[i] == "a" and _AUTHOR_HREF.search(el.get("href") or ""):
            text = _text(el)
            if 0 < len(text) <= MAX_AUTHOR:
                linked = text
    return None, linked


#: lines under the headline searched for an unmarked byline or a written date
_HEADLINE_LINES = 3
#: longest title (non-blank characters) searched for as the headline's element
_HEADLINE_MAX = 300
#: longest date meta value read as a date written for people
_META_DATE_MAX = 100
#: class words of the elements a theme prints a post's date in. Ids are not read: the
#: second attribute read per element cost 0.1 ms per page (a sixth of all metadata) and
#: dated 3 more of 868 development pages.
_DATE_CLASS = re.compile(r"date|time|publish|posted|meta|byline")
#: class or id words of the regions that date or sign other posts than the page's: a
#: byline there is a commenter's, a date another post's. Bylines skip comments only:
#: skipping "sidebar" and "related" too lost 20 story bylines on development pages to
#: containers named "has-related" and the like, and found 6; skipping ``<nav>`` and
#: ``<aside>`` too changed 13, as many for the worse as for the better.
_COMMENTS = re.compile(r"comment")
#: class or id words of a menu (see :func:`_menu_item`)
_MENU = re.compile(r"\bmenu\b|\bnav\b|navigation|navbar|-menu\b|\bmenu-")
#: "recent" is a list of recent posts ("MoreRecentPostsDate", "recent-blogs")
_OTHER_POSTS = re.compile(r"comment|sidebar|related|recent")
#: longest text piece :func:`_said_published` reads, and how such a piece starts
_SAID_MAX = 200
_SAID_STARTS = frozenset({"publ", "post", "firs"})
#: date-classed elements read before giving up (a page of 100,000 "date" spans took
#: 0.6 s to read whole)
_DATE_CANDIDATES = 50
_ASIDE_TAGS = frozenset({"nav", "aside"})


def _headline_lines(doc: Document, headline: Callable[[], int]) -> list[str]:
    """The few short lines under the headline, where themes print the byline and date
    without marking either ("By Jane Roe", "November 21, 2017 - Stephan Ewen").

    The headline is :func:`_headline_node`'s: the ``<h1>`` that says the page's ``title``
    (a site's logo is often an ``<h1>`` of its own above the story's), else the element
    that says most of the title, else the first ``<h1>``. Looking for the title's element
    on pages without a matching ``<h1>`` (2026-11-24) read 68 more dates and 53 more
    authors on development pages, and lost one date and two slashdot authors.

    The lines are rendered from the headline's nearest ancestor that holds more than the
    headline, so a byline in the header's next sibling is found as well as one in the
    headline's own container; they end at the first long line, the story itself. The
    short line just above the headline comes last ("July 20, 2012" over a WordPress post's
    title). Reading under the title's ``<h1>`` rather than the first found 6 more authors
    on development pages; with the line above, dates moved on 6 of 868 pages, 3 of them to
    trafilatura's date and 3 away from it.
    """
    text_len, parent = doc.text_len, doc.parent
    head = headline()
    if head < 0:
        return []
    scope = parent[head]
    while scope > 0 and text_len[scope] <= text_len[head]:
        scope = parent[scope]
    head_lines = doc.lines(head)
    if not head_lines:
        return []
    lines = doc.lines(scope)
    try:
        at = lines.index(head_lines[-1])
    except ValueError:
        return []
    out: list[str] = []
    for line in lines[at + 1 : at + 1 + _HEADLINE_LINES]:
        if len(line) > 150:
            break
        out.append(line)
    if at > 0 and len(lines[at - 1]) <= 150:
        out.append(lines[at - 1])  # "July 20, 2012" above the headline, last resort
    return out


def _written_date(doc: Document, under_headline: Callable[[], list[str]]) -> datetime | None:
    """A date printed for people: in the lines under the headline, else in the first
    short element classed as a date or post meta ("发布于：2012-03-12" in zjuvai-blog's
    ``div.post-meta``) outside comments, sidebars and lists of other posts."""
    for line in under_headline():
        found = find_written_date(line)
        if found:
            return found
    text_len, tags = doc.text_len, doc.tags
    tried = 0
    for i, el in enumerate(doc.nodes):
        if not 0 < text_len[i] <= 120 or tags[i] == "a":
            continue
        marks = el.get("class")
        if not marks or not _DATE_CLASS.search(marks.lower()):
            continue
        if _inside(doc, i, _OTHER_POSTS, _ASIDE_TAGS):
            continue
        found = find_written_date(_node_text(doc, i))
        if found:
            return found
        tried += 1
        if tried == _DATE_CANDIDATES:
            break
    return None


def _standalone_date(doc: Document, head: int) -> datetime | None:
    """The date of the element nearest the headline whose whole text is a date
    (``<b>Thu, January 10, 2008</b>``, ``<div id=xsmtext>Fri, December 28, 2007</div>``):
    how older news templates date a story, with no class, meta tag or byline to say so.

    Only below the headline, in reading order: above it sits the masthead's "today", the
    day the page was fetched (l3s-gn1's 2008 pages, crawled in mid-January, print
    "Tuesday 15 January 2008" over stories of the 6th and 8th). Elements in comments,
    sidebars, lists of other or recent posts, ``<nav>`` and ``<aside>`` date other things.

    Measured with ``scrapy-denoise bench metadata`` (its table of extraction pages whose URL
    carries a date, dated with no URL), together with :func:`_headline_node` finding
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
        found = standalone_date(_node_text(doc, i))
        if found is None:
            continue
        if not _inside(doc, i, _OTHER_POSTS, _ASIDE_TAGS):
            return found
        tried += 1
        if tried == _DATE_CANDIDATES:
            break
    return None


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
    nodes, parent = doc.nodes, doc.parent
    for i, el in enumerate(nodes):
        for text, owner in ((el.text, i), (el.tail, parent[i])):
            if not text or len(text) > _SAID_MAX:
                continue
            text = text.lstrip()
            if text[:4].lower() not in _SAID_STARTS:
                continue
            found = said_published(text)
            if (
                found is not None
                and owner >= 0
                and not _inside(doc, owner, _OTHER_POSTS, _ASIDE_TAGS)
            ):
                return found
    return None


def _headline_node(doc: Document, h1s: list[tuple[int, str]], title: str | None) -> int:
    """Node index of the story's headline: the ``<h1>`` saying the title, else the first
    element whose whole text is most of the title (old templates set the headline in
    ``<font><b>`` and the title adds a section: "Music- Lavigne lawsuit settled"), else the
    first ``<h1>``; -1 when there is none."""
    if title:
        for i, text in h1s:
            if text == title:
                return i
        # the title's non-blank characters, which text_len counts. A headline is a line
        # of text: without the cap, an 80,000-character title over 800 nested <div>s
        # holding nearly the same text took 0.54 s (every ancestor serialised), 6 ms with
        n = text_chars(title)
        text_len, tags = doc.text_len, doc.tags
        for i in range(len(tags) if n <= _HEADLINE_MAX else 0):
            if (
                10 <= text_len[i] <= n
                and text_len[i] * 5 >= n * 3
                and tags[i] != "title"
                and _node_text(doc, i) in title
            ):
                return i
    return next((i for i, text in h1s if text), -1)


def _signs_nothing(doc: Document, i: int) -> bool:
    return _inside(doc, i, _COMMENTS) or _menu_item(doc, i)


def _menu_item(doc: Document, i: int) -> bool:
    """Is node ``i`` in an item of a menu (a ``<li>`` under ``<nav>`` or a menu class)?

    Menus carry author marks that sign nothing: NPR's "Author Interviews" section
    (``li.author-interviews``), a blog's "About Us" link marked ``rel="author"``, a
    "Front page writers" entry. Ancestors holding more than half the page's text are
    wrappers, not menus (Drupal classes the whole page ``with-navigation``). On the
    extraction pages (dev and held out) this changed 24 authors: 22 to the story's own
    byline, one lost (a sidebar tab that happened to name the author), one wrong to wrong.
    """
    tags, parent, nodes, text_len = doc.tags, doc.parent, doc.nodes, doc.text_len
    j = i
    while j > 0 and tags[j] != "li":
        j = parent[j]
    most = text_len[0] // 2
    while j > 0 and text_len[j] <= most:
        el = nodes[j]
        if tags[j] == "nav" or _MENU.search(
            f"{el.get('class') or ''} {el.get('id') or ''}".lower()
        ):
            return True
        j = parent[j]
    return False


def _inside(
    doc: Document, i: int, marks: re.Pattern[str], tags: frozenset[str] = frozenset()
) -> bool:
    """Is node ``i`` (or an ancestor) one of ``tags`` or classed with ``marks``?"""
    nodes, parent = doc.nodes, doc.parent
    while i > 0:
        el = nodes[i]
        if doc.tags[i] in tags:
            return True
        if marks.search(f"{el.get('class') or ''} {el.get('id') or ''}".lower()):
            return True
        i = parent[i]
    return False
