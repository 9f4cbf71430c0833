"""The author: declared (JSON-LD, meta tags), marked in the page (``rel``/``itemprop``,
byline classes), an unmarked byline under the headline, or a link to an author's page."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import lxml.etree as etree

from ..bylines import MAX_AUTHOR, byline_names, clean_author
from ..document import Document
from ._page import inside, text_of

__all__ = ["declared_site_names", "find_author", "names_site"]

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
#: an author meta tag that holds the author's page, not a name: Facebook's
#: ``article:author`` convention, also written scheme-relative ("//lasvegassun.com/staff/...")
_URL = re.compile(r"(?:https?:)?//|www\.", re.IGNORECASE)
_BYLINE_CLASSES = ("byline", "author", "writer", "posted-by")
#: longest text of a byline-classed element read as a byline
_BYLINE_MAX = 60
#: elements with more than this many times a limit of non-blank characters are not read
_READ_FACTOR = 4
#: the most non-blank characters of an element read for any kind of byline
_READ_MAX = _READ_FACTOR * max(MAX_AUTHOR, _BYLINE_MAX)
#: any of the byline class words, found in one C call per element instead of four
_BYLINE_CLASS = re.compile("|".join(re.escape(c) for c in _BYLINE_CLASSES))
#: class or id words of comment threads, where a byline is a commenter's. Bylines skip
#: comments (and menu items) only: skipping "sidebar" and "related" too lost 20 story
#: bylines on development pages to containers named "has-related" and the like, and found
#: 6; skipping ``<nav>`` and ``<aside>`` too changed 13, as many for the worse as for the
#: better.
_COMMENTS = re.compile(r"comment")
#: class or id words of a menu (see :func:`_menu_item`)
_MENU = re.compile(r"\bmenu\b|\bnav\b|navigation|navbar|-menu\b|\bmenu-")


def _names(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    names: list[str] = []
    for item in items:
        if isinstance(item, str):
            names.append(item)
        elif isinstance(item, dict) and isinstance(item.get("name"), str):
            names.append(item["name"])
    return [n.strip() for n in names if n and n.strip()]


def find_author(
    doc: Document,
    articles: list[dict[str, Any]],
    under_headline: Callable[[], list[str]],
    site_names: set[str],
) -> str | None:
    """The first source, most explicit first, that still names someone once cleaned
    (:func:`~..bylines.clean_author`): a marked byline of only a date is no author, and
    the next source gets its turn."""
    for obj in articles:
        names = [n for n in map(clean_author, _names(obj.get("author"))) if n]
        if names:
            return ", ".join(dict.fromkeys(names))
    meta = doc.head.meta
    holder = (meta.get("copyright") or "").casefold()
    site = _site_keys(doc, site_names)
    owner: str | None = None
    for key in _AUTHOR_META:
        value = meta.get(key)
        if value and not _URL.match(value) and (author := clean_author(value)):
            if (not holder or author.casefold() not in holder) and not _is_site(author, site):
                return author
            owner = owner or author
    # An author meta tag that names the copyright holder names the site as often as the
    # writer ("ABC News", "Los Angeles Times" over a reporter's byline; "Justin Simoni" on
    # his own blog), so it is the last resort. On the extraction pages 28 authors moved
    # from the site's name to the page's byline: 21 reporters, 6 agencies or "staff", and
    # one dateline that a byline class holds ("WESTPORT, Wash."). So is one that names the
    # site, by its declared name or its host (msnbc.com's blogs: "World News", "First
    # Read"; "FilmDrunk", "CBSNews.com"; a personal blog's owner is found again last):
    # 23 authors of the 6,499 pages of the shared data changed (2026-11-25), 17 to the
    # story's writer or agency ("Mary Murray, NBC News", "Ashley Burns", "IANS"), 3 for
    # the worse (a commenter, "Write a Review", "Help Net Security Sponsored") and 3 from
    # one name of the site to another ("Southern California Public Radio", "89.3 KPCC").
    marked, linked = _bylines(doc)
    if marked and (author := clean_author(marked)):
        return author
    for line in under_headline():
        byline = byline_names(line)
        if byline and (author := clean_author(byline)):
            return author
    return (clean_author(linked) if linked else None) or owner


def declared_site_names(doc: Document) -> set[str]:
    """The names the page declares for its site (Open Graph, application name), lower-cased."""
    meta = doc.head.meta
    return {v.lower() for v in (meta.get("og:site_name"), meta.get("application-name")) if v}


def names_site(doc: Document, name: str) -> bool:
    """Does ``name`` (an author found on the page) name the site itself, by its declared
    name or its host? Then it signs no article: al-folio declares its site's title as the
    author of every page, posts and the publications and people pages alike, and MkDocs
    its ``site_author``, "The Tidewater Authors", on every page of a project's docs."""
    return _is_site(name, _site_keys(doc, declared_site_names(doc)))


#: a group named after the site: "The Kubernetes Authors", "Flink Team", "Django Project",
#: "Ghost Contributors"
_GROUP = re.compile(
    r"(?:the\s+)?(.+?)\s+(?:authors|team|contributors|developers|maintainers|project"
    r"|community|staff|editors|editorial\s+team)",
    re.IGNORECASE,
)


def _is_site(name: str, keys: set[str]) -> bool:
    if _key(name) in keys:
        return True
    group = _GROUP.fullmatch(name.strip())
    return group is not None and _key(group.group(1)) in keys


def _key(name: str) -> str:
    return "".join(ch for ch in name.casefold() if ch.isalnum())


def _site_keys(doc: Document, site_names: set[str]) -> set[str]:
    """The names a site goes by, letters and digits only: its declared names and its host
    ("cbsnews.com", "cbsnews"), the page's URL's and the one it declares its own (``og:url``:
    a copy served elsewhere, a mirror or a crawl of a local build, still says it)."""
    keys = {_key(name) for name in site_names}
    for url in (doc.url, doc.head.meta.get("og:url")):
        try:
            host = (urlsplit(url).hostname or "").removeprefix("www.") if url else ""
        except ValueError:  # a declared URL is whatever the page wrote: "http://[bad"
            continue
        if host:
            keys.add(_key(host))
            keys.update(_key(label) for label in host.split("."))
    keys.discard("")
    return keys


def _bylines(doc: Document) -> tuple[str | None, str | None]:
    """The first marked byline in reading order, and the first link to an author's page.

    Marked: an element marked ``rel``/``itemprop`` author or one with a byline class,
    outside comment threads (a comment's author carries the same classes: "comment-author",
    "rino19ny says:" above the story's own unmarked byline on a dragnet page). Linked:
    ``/author/NAME``, ``/authors/NAME/``, ``/author/#NAME``, the URL scheme of WordPress,
    Hexo and Hugo themes, which often mark nothing else; it comes last in :func:`find_author`
    because sidebars and "related" boxes link their own authors, often above the story's
    byline."""
    linked: str | None = None
    # An element whose text is far over the limit is passed over without reading it:
    # unclosed byline-classed elements, each wrapping the rest of the page, were read whole
    # one by one (41 s for 1,900 nested ones). "Far": ``text_len`` counts characters that
    # whitespace collapsing can fold (runs of ``&nbsp;``), so it may exceed the text's length.
    #
    # So every kind of byline is an element with 1 to _READ_MAX non-blank characters, and
    # the others are passed over without reading their attributes (a third of a page's
    # elements, most of them empty, and reading three attributes of each was most of the
    # author's cost). Without comment nodes ``text_len`` counts all the text that
    # ``text_of`` reads, so one of none reads as ""; with them (never a loaded page) it
    # may miss a comment's tail.
    tags, text_len = doc.tags, doc.text_len
    least = 1 if doc.elements_only else 0
    for i, el in enumerate(doc.nodes):
        if not least <= text_len[i] <= _READ_MAX:
            continue
        if el.get("rel") == "author" or el.get("itemprop") == "author":
            text = _byline_text(doc, i) if text_len[i] <= _READ_FACTOR * MAX_AUTHOR else ""
            if 0 < len(text) <= MAX_AUTHOR and not _signs_nothing(doc, i):
                return _person_names(doc, i) or text, linked
        classes = (el.get("class") or "").lower()
        if classes and _BYLINE_CLASS.search(classes):
            text = _byline_text(doc, i) if text_len[i] <= _READ_FACTOR * _BYLINE_MAX else ""
            if 0 < len(text) <= _BYLINE_MAX and not _signs_nothing(doc, i):
                return _person_names(doc, i) or text, linked
        if linked is None and tags[i] == "a" and _AUTHOR_HREF.search(el.get("href") or ""):
            text = text_of(el) if text_len[i] <= _READ_FACTOR * MAX_AUTHOR else ""
            if 0 < len(text) <= MAX_AUTHOR:
                linked = text
    return None, linked


def _byline_text(doc: Document, i: int) -> str:
    """:func:`text_of` the byline element ``i``, a line break in it read as a separator:
    what a theme puts on the next line is the name's role, date or outlet, not more of the
    name (MkDocs Material's ``<strong>Marta Reyes</strong><br>Maintainer`` read "Marta
    Reyes Maintainer"), and :func:`~..bylines.clean_author` keeps the first piece. On the
    5,070 pages of the extraction datasets (2026-11-29) 5 authors changed, each to the name
    without its outlet or role ("TOM CANAVAN ASSOCIATED PRESS", "Ramona Pringle Technology
    Columnist"); the metadata table (BENCHMARKS.md) did not change."""
    end = doc.end[i]
    if "br" not in doc.tags[i + 1 : end + 1]:
        return text_of(doc.nodes[i])
    root = doc.nodes[i]
    pieces: list[str] = []
    for event, node in etree.iterwalk(root, events=("start", "end")):
        if event == "start":
            if node.tag == "br":
                pieces.append(" | ")
            elif isinstance(node.tag, str) and node.text:
                pieces.append(node.text)
        elif node is not root and node.tail:
            pieces.append(node.tail)
    return " ".join("".join(pieces).split()).strip(" |")


def _person_names(doc: Document, i: int) -> str | None:
    """The ``itemprop="name"`` of each schema.org Person of the byline that the marked
    element ``i`` is in, or None where it marks no name.

    A Person item holds more than its name: Docusaurus's blog byline is ``<div
    itemprop="author" itemscope itemtype="https://schema.org/Person">`` around the name
    and a subtitle ("Jonas LindqvistRelease manager" read as one text), one such item per
    author, each in a column of its own (classed ``authorCol``, found first). The byline
    is the largest ancestor of ``i`` no longer than a byline is read (:data:`_READ_MAX`);
    every author item in it counts, as in the Telegraph's list of five. Measured
    2026-11-29 on the 6,613 pages of the shared data: 33 authors changed, 31 to the
    names alone, without a role, a place or a forum's badges ("Mike Whalley BBC Sport",
    "Tom Kington in Rome", "Lutfij Titan Moderator", "Nick Allen, Washington" to all five
    of that story's authors), one forum user to none ("Ejp55230 E") and one to a name
    with a word too many ("Jeff Weissman Electric", was "... Member Location Park City,
    Utah"). The generated Docusaurus blog's 35 posts without their JSON-LD: 35 authors
    right, 0 before.
    """
    text_len, parent, nodes, end = doc.text_len, doc.parent, doc.nodes, doc.end
    region = i
    while region > 0 and text_len[parent[region]] <= _READ_MAX:
        region = parent[region]
    names: list[str] = []
    persons = 0
    for k in range(region, end[region] + 1):
        if nodes[k].get("itemprop") != "author":
            continue
        # the item's name: its itemprop=name's text (a <meta itemprop=name> is not in the
        # loaded tree); an author item without one is a name itself ("By <span
        # itemprop=author>John Doe</span> and" a Person)
        named = next(
            (j for j in range(k + 1, end[k] + 1) if nodes[j].get("itemprop") == "name"), None
        )
        persons += named is not None
        name = text_of(nodes[k if named is None else named]).strip(" ,;")  # "Nick Allen,"
        if name and name not in names and len(", ".join([*names, name])) <= MAX_AUTHOR:
            names.append(name)
    return ", ".join(names) if persons and names else None


def _signs_nothing(doc: Document, i: int) -> bool:
    return inside(doc, i, _COMMENTS) or _menu_item(doc, i)


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
