"""Where a site links to a page from: its navigation only, or also its content.

A site's own pages (about, contact, policies, a project's documentation and "how to
contribute") are linked from the menus, header and footer that every page repeats, and
seldom from anything a reader reads. Articles are linked from content: the home page's
stories, list and tag pages, related links. Page by page such site pages look like
articles (long, well-written prose under a heading), so the page filter's features cannot
tell them apart; where the site links to them can. On flink-blog they were 48 of the 285
rows a crawl stored.

Navigation alone is not enough, though: blogs list every post in a side menu (flink-blog's
posts sit in a ``<nav>`` on 24 pages), and news sites feature stories in their mega-menus.
So the rule that reads this (``navigation_page`` in :mod:`.rules`) also requires the page
to have no publication date, which articles have and site pages do not.

:class:`LinkIndex` is what a crawl has seen so far: for each linked URL, how many pages
linked to it from navigation, or that some page linked to it from content. It lives in the
process's memory (see :class:`~scrapy_denoise.learning.SiteLearner`), so in a distributed
crawl each process judges by the pages it fetched itself; navigation is on every page, so
each process sees it on its first pages.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit, urlunsplit

from lxml import etree

from ..document import Document, aria_role, url_path

__all__ = [
    "MAX_PAGE_LINKS",
    "MIN_DATED",
    "LinkCount",
    "LinkIndex",
    "is_site_map",
    "normalise_url",
    "outgoing_links",
]

#: HTML5's navigation landmarks: menus, the page header and footer
_NAVIGATION_TAGS = frozenset({"nav", "header", "footer"})
#: ARIA roles of the same landmarks, and of the dialogs every page repeats (a cookie
#: notice's "Privacy policy" is the site's chrome, not a link a story makes)
_NAVIGATION_ROLES = frozenset(
    {"navigation", "banner", "contentinfo", "menu", "menubar", "dialog", "alertdialog"}
)
#: class and id words of the same, for templates without HTML5 landmarks (whole words:
#: ``navigation-page-header`` counts by ``navigation``, ``article-header`` does not count)
_NAVIGATION_WORDS = frozenset(
    {
        "nav", "navbar", "navigation", "menu", "menubar", "footer", "breadcrumb",
        "breadcrumbs", "cookie", "cookies", "consent", "gdpr",
    }
)  # fmt: skip
_WORD_SPLIT = re.compile(r"[^a-z0-9]+")
#: the path of an HTML site map (``/sitemap/``, ``/site-map.html``)
_SITE_MAP = re.compile(r"(?:^|/)site-?maps?(?:[._-]?index)?(?:\.[a-z]+)?/?$", re.I)
_DEFAULT_PORTS = {"http": ":80", "https": ":443"}
#: hrefs that lead to no page
_NOT_PAGES = ("javascript:", "mailto:", "tel:", "data:", "#")
#: evidence that a site's articles carry dates (pages that passed the page filter with a
#: date, links from content to URLs with a date, stored articles with a date) before the
#: ``navigation_page`` rule judges its pages (see ``Denoiser.classify_document``)
MIN_DATED = 3
#: links read per page at most: no real page of the shared data has over 2,000 (the page
#: filter's ``many_links`` bound), and a hostile page of 100,000 distinct links would
#: otherwise fill half of a crawl's :class:`LinkIndex` by itself
MAX_PAGE_LINKS = 5_000
#: the longest URL :class:`LinkIndex` keeps: Scrapy's default ``URLLENGTH_LIMIT``, past which
#: a crawl never fetches the page, so its links would never be read
MAX_URL_CHARS = 2083


def normalise_url(url: str) -> str | None:
    """``url`` as the index keys it: no fragment, lower-case scheme and host, no default
    port, no trailing ``/`` (a link to ``/about`` and a fetch of ``/about/`` after the
    server's redirect are one page); ``None`` for what is no http(s) URL."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:  # a malformed IPv6 host, for one
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.netloc:
        return None
    netloc = parts.netloc.lower()
    if netloc.endswith(_DEFAULT_PORTS[scheme]):
        netloc = netloc[: -len(_DEFAULT_PORTS[scheme])]
    path = parts.path.rstrip("/")
    return urlunsplit((scheme, netloc, path, parts.query, ""))


def is_site_map(url: str) -> bool:
    """Is ``url`` a site map, a page whose every link is the site's structure? It lists
    the about and policy pages beside the sections, and read as content it would vouch
    for them as articles."""
    path = url_path(url)
    return path is not None and _SITE_MAP.search(path) is not None


def outgoing_links(doc: Document) -> tuple[set[str], set[str]]:
    """The page's links to other pages of its own host: (from navigation, from content),
    normalised (:func:`normalise_url`), the first :data:`MAX_PAGE_LINKS` of them. A URL
    linked from both is in both sets."""
    own = normalise_url(doc.url) if doc.url else None
    if own is None:
        return set(), set()
    parts = urlsplit(own)
    origin = f"{parts.scheme}://{parts.netloc}"
    navigation: set[str] = set()
    content: set[str] = set()
    nodes, tags = doc.nodes, doc.tags
    # the body (node 0) is never navigation, whatever its classes say
    in_nav: dict[int, bool] = {-1: False, 0: False}
    # nor an element classed as navigation that holds most of the page's text
    most = doc.text_len[0] // 2 if nodes else 0
    for i, tag in enumerate(tags):
        if tag != "a":
            continue
        href = nodes[i].get("href")
        if not href:
            continue
        target = _same_host_target(href.strip(), origin, doc.url)
        if target is None or target == own:
            continue
        in_navigation = _in_navigation(i, doc, in_nav, most)
        (navigation if in_navigation else content).add(target)
        if len(navigation) + len(content) >= MAX_PAGE_LINKS:
            break
    return navigation, content


def _same_host_target(href: str, origin: str, base: str) -> str | None:
    """``href`` resolved against ``base`` and normalised, or None when it leaves ``origin``
    (``scheme://host``) or leads to no page.

    A page has a hundred links or so, most of them absolute or root-relative, and
    ``urljoin`` on each cost a millisecond per page; those two forms are resolved by hand
    (offsite links are refused by a prefix test, unparsed) and only relative ones go
    through ``urljoin``.
    """
    if not href or href.startswith(_NOT_PAGES):
        return None
    if href.startswith("//"):
        href = origin[: origin.index(":") + 1] + href
    if href[:8].lower().startswith(("http://", "https://")):
        cut = len(origin)
        if href[:cut].lower() != origin or href[cut : cut + 1] not in ("", "/", "?", "#"):
            return None
        rest = href[cut:]
    elif href.startswith("/"):
        rest = href
    else:
        try:
            target = normalise_url(urljoin(base, href))
        except ValueError:
            return None
        if target is None or target[len(origin) : len(origin) + 1] not in ("", "/", "?"):
            return None
        return target if target.startswith(origin) else None
    rest = rest.partition("#")[0]
    path, mark, query = rest.partition("?")
    return origin + path.rstrip("/") + mark + query


def _in_navigation(i: int, doc: Document, memo: dict[int, bool], most: int) -> bool:
    """Is node ``i`` inside a navigation landmark? Ancestors are looked at once per page
    (``memo``), so a menu of a hundred links costs one walk up.

    An element *classed* as navigation that holds more than ``most`` characters (half the
    page's text) is a wrapper, not a menu: themes class a whole page ``navbar-fixed`` or
    ``menu-open``, and read as navigation, every link in it would be, and every undated
    page it links to a site page. (``<nav>`` and the ARIA roles say what they are; a short
    page's menu can hold most of its text.)
    """
    nodes, tags, parent, text_len = doc.nodes, doc.tags, doc.parent, doc.text_len
    path: list[int] = []
    j = i
    while j not in memo:
        path.append(j)
        j = parent[j]
    found = memo[j]
    for k in reversed(path):
        if not found:
            found = _is_navigation(nodes[k], tags[k], text_len[k] <= most)
        memo[k] = found
    return found


def _is_navigation(el: etree._Element, tag: str, small: bool) -> bool:
    if tag in _NAVIGATION_TAGS:
        return True
    if aria_role(el) in _NAVIGATION_ROLES:
        return True
    get = el.get
    if not small:
        return False
    names = " ".join(filter(None, (get("class"), get("id"))))
    return bool(names) and not _NAVIGATION_WORDS.isdisjoint(_WORD_SPLIT.split(names.lower()))


@dataclass(frozen=True, slots=True)
class LinkCount:
    """How a URL was linked on the pages seen so far."""

    #: pages that linked to it from navigation (capped at :data:`LinkIndex.CAP`)
    navigation: int
    #: whether any page but a home page linked to it from content
    content: bool
    #: whether a home page linked to it from content (see :meth:`LinkIndex.add`)
    home: bool = False


class LinkIndex:
    """For each URL: pages that linked to it from navigation, and whether a home page or
    another page linked to it from content.

    One small int per URL (the count in its low byte, the two flags above it), at most
    ``max_urls`` URLs of at most ``max_chars`` characters in all: past either, URLs not
    seen yet are not added, so a huge crawl keeps a bounded index (some 30 MB at the
    defaults, under 60 MB of the longest URLs) and unknown URLs are never judged by it.
    The characters are bounded too because a count alone was no bound: 40 hostile pages
    of 2,000 links of 2 kB each held 196 MB. URLs longer than :data:`MAX_URL_CHARS` are
    never added.
    """

    CAP = 255
    #: the navigation count's bits, and the two flags above them
    _COUNT = 0xFF
    _HOME = 1 << 8
    _CONTENT = 1 << 9

    def __init__(self, max_urls: int = 200_000, max_chars: int = 20_000_000) -> None:
        self.max_urls = max_urls
        self.max_chars = max_chars
        self._links: dict[str, int] = {}
        self._chars = 0

    def __len__(self) -> int:
        return len(self._links)

    def add(self, navigation: Iterable[str], content: Iterable[str], *, home: bool = False) -> None:
        """Count one page's links (:func:`outgoing_links`); ``home``: the page is a home
        page, whose content links are kept apart. A project's or a company's home page
        links its own pages from tiles in its body ("Learn more about the architecture"),
        so a site page linked from content by it alone is still a site page once the
        crawl has seen every list and tag page that would link to an article."""
        links = self._links
        flag = self._HOME if home else self._CONTENT
        for url in content:
            seen = links.get(url)
            if seen is not None:
                links[url] = seen | flag
            elif self._admit(url):
                links[url] = flag
        for url in navigation:
            seen = links.get(url)
            if seen is None:
                if self._admit(url):
                    links[url] = 1
            elif seen & self._COUNT < self.CAP:
                links[url] = seen + 1

    def _admit(self, url: str) -> bool:
        """Counts a URL not indexed yet into the bounds and says yes when there is room for
        it; the caller then stores it."""
        if len(self._links) >= self.max_urls or len(url) > MAX_URL_CHARS:
            return False
        if self._chars + len(url) > self.max_chars:
            return False
        self._chars += len(url)
        return True

    def get(self, url: str) -> LinkCount | None:
        """How ``url`` (any form :func:`normalise_url` accepts) was linked; ``None`` when
        no page seen so far links to it."""
        key = normalise_url(url)
        seen = self._links.get(key) if key is not None else None
        if seen is None:
            return None
        return LinkCount(
            navigation=seen & self._COUNT,
            content=bool(seen & self._CONTENT),
            home=bool(seen & self._HOME),
        )
