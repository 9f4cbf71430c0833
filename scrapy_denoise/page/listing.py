"""Listing pages told by their text: lines that are the titles of the site's other articles.

A list page whose entries carry a teaser (title, two lines of the story, a date) reads like
prose: its text is long, punctuated, and links only from the titles. The page filter's
features and rules cannot tell it from an article, and a crawl stored it: a generated
Chinese college site's news lists (five pages of "学院新闻", the first pages of "通知公告"
and "学术活动", whose entries read "关于...的通知[2019-09-20]") and a Hugo PaperMod blog's
``/posts/`` and series pages, 11 of the 12 noise pages the two crawls stored. What gives
such a page away is the crawl's own rows: its lines are the titles of the site's other
stored articles, one after another from its top.

The rule, judged at the crawl's end, when the articles' titles are in: a page that passed
the filter is a *listing* when at least :data:`MIN_TITLES` of its lines are each another
article's title (a trailing date in brackets aside, as notice lists print it), those
lines are at least :data:`MIN_SHARE` of its lines, and the first of them comes in its
first third; or when two such lines, the first in the first third, are half its lines or
more (:data:`TITLES_ONLY_SHARE`): a generated Jekyll minima blog's month archives of two
posts, whose text is their titles and nothing else, were stored. An article's
related-posts list, when it survives extraction, comes at its end, and a long article's
few title lines are a small share. Measured on single-page extraction of every page the
filter passes (titles of the other passed pages): on the generated college site and
PaperMod blog, the 14 list pages above held 4 to 11 titles (share 0.33 to 0.60, the first
in the first four lines); on flink-blog's 313 and zjuvai-blog's 455 passed pages, a
generated Hexo NexT blog's 86 and an al-folio lab site's 100, no page held more than two,
and none of them an article (flink-blog's contribution guide holds two among 52 lines).
al-folio's news page, three titles among 31 lines, stays (below the share).

A title counts when one page alone has it and it is long enough to name something
(:data:`MIN_TITLE_CHARS`, a CJK character counting three): a site's name, given as the
title of many pages, and "Posts" are nobody's.

:class:`ListingIndex` is this process's memory, bounded whatever the crawl's length: the
last :data:`MAX_TITLES` titles (about 3 MB) and the lines of the last :data:`WINDOW` pages
(about 2 MB), a page judged as it leaves the window, by the titles known then.
"""

from __future__ import annotations

import re
from array import array
from collections import OrderedDict
from collections.abc import Sequence

from ..tokens import reading_len

__all__ = [
    "MAX_TITLES",
    "MIN_SHARE",
    "MIN_TITLES",
    "MIN_TITLE_CHARS",
    "TITLES_ONLY_SHARE",
    "WINDOW",
    "ListingIndex",
    "is_listing",
]

#: other articles' titles a listing's lines hold at the least
MIN_TITLES = 3
#: share of the page's lines they make up at the least
MIN_SHARE = 0.2
#: two titles make a listing when they are this share of its lines or more
TITLES_ONLY_SHARE = 0.5
#: a title shorter than this (:func:`~scrapy_denoise.tokens.reading_len`) names nothing
MIN_TITLE_CHARS = 10
#: lines of a page read (a listing shows its entries from the top)
MAX_LINES = 200
#: longest line read as a possible title with its date
_MAX_LINE_CHARS = 300
#: titles remembered, in all sites together (oldest forgotten first)
MAX_TITLES = 20_000
#: pages whose lines are remembered until judged
WINDOW = 5_000
#: a notice list's date after its entry's title: "关于...的通知[2019-09-20]", "Title (2019-09-20)"
_TRAILING_DATE = re.compile(
    r"\s*[\[【(（]?\s*(?:\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}日?|\d{1,2}[-/.]\d{1,2})\s*[\]】)）]?$"
)
#: the last characters of a line that may end in such a date
_DATE_ENDS = frozenset("0123456789]】)）")


def _key(line: str) -> int:
    """The line's key, 0 for one that cannot be a title. Python's own string hash: the
    index lives in one process's memory (and a blake2b digest per line cost a crawl 0.3
    ms a page)."""
    if len(line) > _MAX_LINE_CHARS:
        return 0
    text = " ".join(line.split())
    if not text:
        return 0
    if text[-1] in _DATE_ENDS:
        text = _TRAILING_DATE.sub("", text)
    return hash(text.casefold()) or 1


def is_listing(other_titles: Sequence[bool]) -> bool:
    """The rule (module docstring), given for each of the page's lines whether it is
    another article's title, each title counted once."""
    hits = [i for i, other in enumerate(other_titles) if other]
    lines = len(other_titles)
    if len(hits) < 2 or hits[0] >= max(lines / 3, 1):
        return False
    if len(hits) >= MIN_TITLES and len(hits) >= MIN_SHARE * lines:
        return True
    return len(hits) >= TITLES_ONLY_SHARE * lines


class ListingIndex:
    """The titles and line keys of the pages a crawl let through, per site, in bounded
    memory: the last :data:`MAX_TITLES` titles, and the lines of the last :data:`WINDOW`
    pages, each page judged as it leaves the window by the titles known then (a list page
    is fetched a little before the articles it links to, not thousands of pages before)."""

    __slots__ = ("_found", "_titles", "_window")

    def __init__(self) -> None:
        # (site, title key) -> the one URL titled so (None: several are), oldest first
        self._titles: OrderedDict[tuple[str, int], str | None] = OrderedDict()
        # (URL, site) -> its lines' keys (0 for a line that cannot be a title), oldest first
        self._window: OrderedDict[tuple[str, str], array[int]] = OrderedDict()
        # listings judged as they left the window, in the order met
        self._found: dict[tuple[str, str], None] = {}

    def add(self, url: str, site: str, title: str | None, lines: Sequence[str]) -> None:
        """Remember a page that passed the filter: its title and its first lines."""
        page = (url, site)
        if page in self._window:
            return
        self._window[page] = array("q", [_key(line) for line in lines[:MAX_LINES]])
        if title and reading_len(title) >= MIN_TITLE_CHARS and (key := _key(title)):
            titles = self._titles
            named = (site, key)
            titles[named] = url if titles.get(named, url) == url else None
            if len(titles) > MAX_TITLES:
                titles.popitem(last=False)
        if len(self._window) > WINDOW:
            # OrderedDict: popping the oldest of a dict scans its deleted slots (0.5 ms)
            oldest, keys = self._window.popitem(last=False)
            if self._judge(oldest, keys):
                self._found[oldest] = None

    def listings(self) -> list[tuple[str, str]]:
        """(URL, site) of the remembered pages the rule judges listings, in the order met."""
        found = dict(self._found)
        for page, keys in self._window.items():
            if self._judge(page, keys):
                found[page] = None
        return list(found)

    def _judge(self, page: tuple[str, str], keys: array[int]) -> bool:
        url, site = page
        titles = self._titles
        others = [titles.get((site, k)) not in (None, url) for k in keys]
        return is_listing(_distinct(keys, others))


def _distinct(keys: Sequence[int], others: list[bool]) -> list[bool]:
    """``others`` with a title counted once: a list printing an entry's title twice (as
    its image's caption and its heading) shows one article."""
    seen: set[int] = set()
    out = []
    for key, other in zip(keys, others, strict=True):
        out.append(other and key not in seen)
        if other:
            seen.add(key)
    return out
