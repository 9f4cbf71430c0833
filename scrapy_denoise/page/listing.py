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
article's title (a date before or after it aside, as notice lists print it), those
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

A title counts when it is long enough to name something (:data:`MIN_TITLE_CHARS`, a CJK
character counting three) and at most :data:`MAX_NAMED` pages have it: a site's name,
given as the title of many pages, and "Posts" are nobody's. Two, since an article's
copies under other URLs that the URL rule does not know by name pass the filter with its
title and first lines: with one page per title, generated copies of an mbl.is-style
portal (print versions at ``.../prenta/``, comments at ``.../athugasemdir/``) and a
news.am-style one (``/arm/print/news/ID/``) had 169 and 18 list, tag and archive pages
stored, each list's entries naming two pages; with two, 49 and 7.

A *teaser* counts as a title does: a line that ends in an ellipsis ("...", "…", "[…]"),
or in one and the list's link on to the story ("…続きを読む", "... Read more »"), and
begins as one of another article's first lines does (its first :data:`LEAD_CHARS`
characters). Lists whose titles are links show only their teasers once extraction has
dropped the links: a generated DedeCMS county news portal's channel pages (国际, 国内,
视频: eight teasers cut at 80 characters with "...") and its news channel's first page
were stored, 5 of its 8 stored noise pages, and 4 of them went with teasers counted (视频,
its video channel, stays: its teasers begin as no article's first lines do). CMSs cut
the teaser from the story's first paragraph (WordPress's excerpt, DedeCMS's
description, Ghost's), so its start is the story's.

A teaser may carry a label before it (cnblogs lists its users' posts as "摘要： ...
阅读全文", "summary"; :data:`_TEASER_LABEL`), and an excerpt made from the story's text runs
its first heading into the paragraph after it ("起因 学校的选课系统上线已经..."), so a
short first line's start, joined to the lines after it, is a lead too: a generated cnblogs
blog's home and article list were stored, and went with both (2026-11-30; flink-blog,
zjuvai-blog and nine generated sites stored the same articles with and without).

An entry that shows its story's first paragraph *whole* counts the same way: a line
that is, whole, one of another article's first lines (at least :data:`LEAD_CHARS`
characters; a line that merely begins as one, without an ellipsis, is a quote; a
list's first two entries, its own first lines as well, name no single page). News
CMSs list a section's stories under their titles with their leads uncut, and the
titles, links, go with extraction: a generated Iranian news agency's sub-section pages
(ten stories' leads each) were stored, 10 of the 11 noise pages its crawl stored, and
all went with whole leads counted (a generated Hindi news site's city pages, which cut
their leads short without an ellipsis, stay). On flink-blog, zjuvai-blog, the demo site
and seven other generated sites the crawls stored the same rows with and without it.

The shares leave out lines too short to name anything (:data:`MIN_TITLE_CHARS`): lists
print each entry's votes, reading time, views and type under its lead ("135", "2 мин",
"1.5K": Habr's), which made a generated Habr-style site's hub lists' leads a seventh of
their lines; one of its two went with them left out (its users' and companies' lists
stay: the first stories of a site's lists are the lists' own first lines too, named by
too many pages to count).

A page that declares itself an article with its publication time (Open Graph's
``article:published_time``, :func:`~.classifier.declares_article`) is never judged one,
though its title counts for the pages that list it: a year in review lists the year's
stories under their titles and first lines, and a generated tagDiv Newspaper site's "2023
in review" (100 lines, a share of titles over the threshold) was deleted as a listing.
Publishing platforms write that tag on posts, not on their lists.

:class:`ListingIndex` is this process's memory, bounded whatever the crawl's length: the
last :data:`MAX_TITLES` titles and as many leads (about 3 MB, and twice that for the
leads' starts and whole lines) and the lines' keys of the last :data:`WINDOW` pages
(about 4 MB), a page judged as it leaves the window, by the titles known then.
"""

from __future__ import annotations

import re
from array import array
from collections import OrderedDict
from collections.abc import Sequence

from ..tokens import reading_len

__all__ = [
    "LEAD_CHARS",
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
#: a list's link on to a story, after its teaser's ellipsis
_READ_ON = (
    r"read more|continue reading|weiterlesen|lire la suite|leer más|leia mais|leggi tutto"
    r"|lees verder|czytaj więcej|читать далее|続きを読む|阅读全文|查看全文|더\s?보기"
)
#: characters of an article's first lines that a teaser of it must begin with
LEAD_CHARS = 30
#: an article's first lines of at least :data:`LEAD_CHARS` characters that are remembered
_LEAD_LINES = 2
#: the ellipsis a teaser ends in, with a bracket around it or not
_ELLIPSIS = re.compile(
    r"\s*[\[(（]?\s*(?:\.{3}|…|。。。)\s*[\])）]?\s*"
    # and the link on to the story that lists print after it ("…続きを読む", "... Read
    # more »", "[…] Continue reading →")
    rf"(?:(?:{_READ_ON})\s*[»›→>]*\s*)?$",
    re.IGNORECASE,
)
#: the label some lists print before an entry's teaser: cnblogs's "摘要： ... 阅读全文" (its
#: users' blogs list their posts so), "Summary:", "Excerpt:"
_TEASER_LABEL = re.compile(
    r"^\s*(?:摘要|简介|簡介|概要|导读|導讀|要約|summary|excerpt|abstract)\s*[:：]\s*", re.IGNORECASE
)
#: a short first line (a heading) and the lines after it, joined as an excerpt joins them
_OPENING_LINES = 3
#: pages whose lines are remembered until judged
WINDOW = 5_000
#: URLs one title (or lead) may name and still name an article: the article and one copy
#: of it under another URL, a print version or its comments' page, which pass the filter
#: where the URL rule does not know their names
MAX_NAMED = 2
#: a notice list's date after its entry's title: "关于...的通知[2019-09-20]", "Title (2019-09-20)"
_TRAILING_DATE = re.compile(
    r"\s*[\[【(（]?\s*(?:\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}日?|\d{1,2}[-/.]\d{1,2})"
    # with its time, as Japanese papers' lists print it ("... 2025/2/15 20:45"), and
    # People's Daily's with none between ("...相关工作2024年09月14日06:03")
    r"(?:\s*\d{1,2}:\d{2})?\s*[\]】)）]?$"
)
#: the last characters of a line that may end in such a date
_DATE_ENDS = frozenset("0123456789]】)）")
#: a list's date before its entry's title: "2024-11-19·Title", "[2024-11-19] Title"
_LEADING_DATE = re.compile(
    r"^(?:[\[【(（]\s*(?:\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}日?|\d{1,2}[-/.]\d{1,2})\s*[\]】)）]"
    r"|(?:\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}日?|\d{1,2}[-/.]\d{1,2})(?=\s|[·•|:：]))"
    r"\s*[·•|:：]?\s*"
)
#: the first characters of a line that may begin with such a date
_DATE_STARTS = frozenset("0123456789[【(（")


#: the key of a line too short to name anything (:data:`MIN_TITLE_CHARS`), which the share
#: of a page's lines that are titles leaves out (Python's hash is never -1)
_SHORT = -1


def _key(line: str) -> int:
    """The line's key, 0 for one that cannot be a title (:data:`_SHORT` for a short one).
    Python's own string hash: the index lives in one process's memory (and a blake2b
    digest per line cost a crawl 0.3 ms a page)."""
    if len(line) > _MAX_LINE_CHARS:
        return 0
    text = " ".join(line.split())
    if not text:
        return 0
    if text[-1] in _DATE_ENDS:
        text = _TRAILING_DATE.sub("", text)
    if text and text[0] in _DATE_STARTS:
        text = _LEADING_DATE.sub("", text)
    if not text:
        return 0
    if reading_len(text) < MIN_TITLE_CHARS:
        return _SHORT
    return hash(text.casefold()) or 1


def _lead_key(line: str) -> int:
    """The key of a line's first :data:`LEAD_CHARS` characters, 0 for a shorter line."""
    text = " ".join(line.split())
    if len(text) < LEAD_CHARS:
        return 0
    return hash(text[:LEAD_CHARS].casefold()) or 1


def _teaser_key(line: str) -> int:
    """:func:`_lead_key` of a line that ends in an ellipsis, without it and without a
    label before it (:data:`_TEASER_LABEL`); 0 for any other."""
    if len(line) > _MAX_LINE_CHARS or (
        "…" not in line and "..." not in line and "。。。" not in line
    ):
        return 0
    cut = _ELLIPSIS.sub("", line)
    if cut == line:
        return 0
    return _lead_key(_TEASER_LABEL.sub("", cut, count=1))


def is_listing(other_titles: Sequence[bool | None]) -> bool:
    """The rule (module docstring), given for each of the page's lines whether it is
    another article's title, each title counted once; None for a line too short to be one,
    which the shares leave out (the first third is of all the lines)."""
    hits = [i for i, other in enumerate(other_titles) if other]
    if len(hits) < 2 or hits[0] >= max(len(other_titles) / 3, 1):
        return False
    lines = sum(other is not None for other in other_titles)
    if len(hits) >= MIN_TITLES and len(hits) >= MIN_SHARE * lines:
        return True
    return len(hits) >= TITLES_ONLY_SHARE * lines


class ListingIndex:
    """The titles and line keys of the pages a crawl let through, per site, in bounded
    memory: the last :data:`MAX_TITLES` titles, and the lines of the last :data:`WINDOW`
    pages, each page judged as it leaves the window by the titles known then (a list page
    is fetched a little before the articles it links to, not thousands of pages before)."""

    __slots__ = ("_found", "_leads", "_titles", "_window")

    def __init__(self) -> None:
        # (site, title key) -> the URLs titled so (None: more than MAX_NAMED), oldest first
        self._titles: OrderedDict[tuple[str, int], tuple[str, ...] | None] = OrderedDict()
        # (site, lead key) -> the URLs whose first lines begin so, as the titles
        self._leads: OrderedDict[tuple[str, int], tuple[str, ...] | None] = OrderedDict()
        # (URL, site) -> its lines' keys (0 for a line that cannot be a title) and its
        # teaser lines' keys (None for a page without any), oldest first
        self._window: OrderedDict[tuple[str, str], tuple[array[int], array[int] | None]] = (
            OrderedDict()
        )
        # listings judged as they left the window, in the order met
        self._found: dict[tuple[str, str], None] = {}

    def add(
        self, url: str, site: str, title: str | None, lines: Sequence[str], *, judge: bool = True
    ) -> None:
        """Remember a page that passed the filter: its title and its first lines, and with
        ``judge`` (a page that does not declare itself an article) the keys its judgement
        reads."""
        page = (url, site)
        if page in self._window:
            return
        read = lines[:MAX_LINES]
        teasers = _teaser_keys(read)
        self._window[page] = _judged_keys(read, teasers) if judge else (array("q"), None)
        if title and reading_len(title) >= MIN_TITLE_CHARS and (key := _key(title)):
            _remember(self._titles, (site, key), url, MAX_TITLES)
        leads = 0
        for line, teaser in zip(read, teasers, strict=True):
            if leads == _LEAD_LINES:
                break
            # a teaser is a cut of another page's lead, not the page's own: a list of them
            # would otherwise share the leads it shows, and name no article
            if not teaser and (key := _lead_key(line)):
                # its start (for teasers) and the whole line (for uncut entries)
                _remember(self._leads, (site, key), url, 2 * MAX_TITLES)
                _remember(self._leads, (site, _whole_key(line)), url, 2 * MAX_TITLES)
                leads += 1
        for i, line in enumerate(read[:_LEAD_LINES]):
            # An excerpt made from the story's text runs its first heading into the
            # paragraph after it ("起因 学校的选课系统上线已经7个月了，..."): a short line's
            # start, with the lines after it, is a lead as well.
            if len(line) < LEAD_CHARS and (
                key := _lead_key(" ".join(read[i : i + _OPENING_LINES]))
            ):
                _remember(self._leads, (site, key), url, 2 * MAX_TITLES)
        if len(self._window) > WINDOW:
            # OrderedDict: popping the oldest of a dict scans its deleted slots (0.5 ms)
            oldest, keys = self._window.popitem(last=False)
            if self._judge(oldest, keys):
                self._found[oldest] = None

    def revise(self, url: str, site: str, lines: Sequence[str]) -> None:
        """Judge a page remembered by :meth:`add` by ``lines``, its text extracted again.

        A site's first pages are extracted again at a crawl's end, once the site's
        templates are learned (:mod:`~scrapy_denoise.first_pages`). Their first text can
        hold the sidebar's featured and popular posts, titles and teasers of the site's
        other articles, which the templates then take out: judged by that first text, a
        generated Blogger site's short posts ("Happy New Year from both of us!", two
        paragraphs under four such entries) were deleted as listings in one crawl of
        three. Its title and leads stay as they were; a page judged as it left the window
        is judged again. A page never added, or added with ``judge=False``, is left alone.
        """
        page = (url, site)
        read = lines[:MAX_LINES]
        revised = _judged_keys(read, _teaser_keys(read))
        keys = self._window.get(page)
        if keys is not None:
            if len(keys[0]):  # judged: the declared articles' keys are empty
                self._window[page] = revised
        elif page in self._found and not self._judge(page, revised):
            del self._found[page]

    def listings(self) -> list[tuple[str, str]]:
        """(URL, site) of the remembered pages the rule judges listings, in the order met."""
        found = dict(self._found)
        for page, keys in self._window.items():
            if self._judge(page, keys):
                found[page] = None
        return list(found)

    def _judge(self, page: tuple[str, str], keys: tuple[array[int], array[int] | None]) -> bool:
        url, site = page
        titles = self._titles
        line_keys, teasers = keys
        others = [_names_other(titles.get((site, k)), url) for k in line_keys]
        if teasers is not None:
            leads = self._leads
            for i, k in enumerate(teasers):
                if k and _names_other(leads.get((site, k)), url):
                    others[i] = True
        # Short lines are left out of the count: a list's entries print their votes, reading
        # time, views and type under each lead ("135", "Сложный", "2 мин", "1.5K":
        # Habr's), and no short line is an article's title or lead.
        return is_listing(
            [
                None if key == _SHORT else other
                for other, key in zip(_distinct(line_keys, others), line_keys, strict=True)
            ]
        )


def _teaser_keys(read: Sequence[str]) -> array[int]:
    """:func:`_teaser_key` of each of a page's lines ``read``."""
    return array("q", [_teaser_key(line) for line in read])


def _whole_key(line: str) -> int:
    """The key of a whole line of at least :data:`LEAD_CHARS` characters, 0 for a shorter
    one; apart from :func:`_lead_key`'s keys of the same line's start."""
    text = " ".join(line.split())
    if len(text) < LEAD_CHARS:
        return 0
    return hash(("whole", text.casefold())) or 1


def _entry_keys(read: Sequence[str], teasers: array[int]) -> array[int]:
    """The keys a list's entries can match in the site's leads: a teaser's start, and
    any other line whole (an entry that shows its story's first paragraph uncut)."""
    return array("q", [t or _whole_key(line) for line, t in zip(read, teasers, strict=True)])


def _judged_keys(read: Sequence[str], teasers: array[int]) -> tuple[array[int], array[int] | None]:
    """The keys :meth:`ListingIndex._judge` reads of a page's lines ``read``, given their
    teaser keys: each line's title key, and its entry key (:func:`_entry_keys`)."""
    return array("q", [_key(line) for line in read]), _entry_keys(read, teasers)


def _remember(
    known: OrderedDict[tuple[str, int], tuple[str, ...] | None],
    named: tuple[str, int],
    url: str,
    most: int,
) -> None:
    """Note that ``url`` has the title (or lead) ``named``: None once more than
    :data:`MAX_NAMED` URLs have it."""
    urls = known.get(named, ())
    if urls is None or url in urls:
        return
    urls += (url,)
    known[named] = urls if len(urls) <= MAX_NAMED else None
    if len(known) > most:
        known.popitem(last=False)


def _names_other(urls: tuple[str, ...] | None, url: str) -> bool:
    """Do ``urls``, what a title (or lead) names, name an article other than ``url``?"""
    return urls is not None and url not in urls


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
