"""The page's title: declared (JSON-LD, Open Graph) or shown (``<h1>``, ``<title>``)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from functools import cached_property, partial
from typing import Any

from ..document import Document, text_chars, url_path
from ..page.rules import is_root_path
from ._page import node_text, raw_text, text_of

__all__ = ["declared_title", "heading_or_title"]

#: the marks between a headline and a site name when spaces surround them (« and » apart:
#: a title may start with « and end with », French quotation marks set with spaces)
_MARK_CHARS = r"|\-–—:·•~"
#: the bare hyphens a Chinese ``<title>`` joins its parts with, headline first
_CJK_HYPHENS = "-－"
_SEPARATOR_MARKS = rf"(?:[{_MARK_CHARS}»«]|::)"
_TITLE_SEPARATORS = re.compile(
    rf"\s+{_SEPARATOR_MARKS}\s+|\s*_\s*"
    # "Not In Production 7:: Néojaponisme"
    r"|(?<=\w)::\s+"
    # Chinese sites join the site name with a bare hyphen: "市议会批准建房计划-新华网"
    rf"|(?<=[\u4e00-\u9fff])[{_CJK_HYPHENS}](?=[\u4e00-\u9fff])"
)
_MARKDOWN_HEADING = re.compile(r"^#{1,6}\s+")
#: a separator with nothing beyond it at an end of a ``<title>``: WordPress themes write
#: ``wp_title("&raquo;")`` as "» Post" when they leave the site's name out
_SEPARATOR_AT_EDGE = re.compile(rf"^(?:[{_MARK_CHARS}»]|::)\s+|\s+(?:[{_MARK_CHARS}«]|::)$")
_SEPARATOR_AT_END = re.compile(rf"(?:\s+{_SEPARATOR_MARKS}|_)\s*$")
#: separators at each end of a ``<title>`` whose head and tail are tried as the headline:
#: a site name sits within a few of an end, and a broken page whose ``<title>`` swallowed
#: 700 separators made every head and tail a body search (0.35 s for one page)
_END_CUTS = 8


class _BodyText:
    """The text of the page's body, serialised on first need (most titles are decided
    without it) and at most once."""

    def __init__(self, doc: Document) -> None:
        self._body = doc.body

    @cached_property
    def raw(self) -> str:
        return raw_text(self._body)

    @cached_property
    def collapsed(self) -> str:
        """Whitespace collapsed, as :func:`~._page.text_of` reads it."""
        return " ".join(self.raw.split())

    @cached_property
    def chars(self) -> str:
        """Without whitespace, as :func:`_shown` compares."""
        return "".join(self.raw.split())


def _clean_title(
    title: str,
    site_names: set[str],
    body: _BodyText | None = None,
    headings: Callable[[], Sequence[str]] = tuple,
) -> str:
    """The article's part of a ``<title>``-like string.

    In order: the whole string when a heading of the page says exactly that (the headline
    itself, separators included: "Community Update - May'20" was cut, and 23 of
    flink-blog's 237 post titles lost a part); with the ``body``, the longest head or
    tail of it, cut at one separator, that the body shows (a site name sits at one end,
    while a headline may hold separators of its own: "SAGE2 – A New Approach ... -
    undefined"), then the longest part the body shows (a theme that writes "Post -
    undefined" must not title every post "undefined"); else the longest part that is not
    a known site name. Of several heads and tails the body shows, a head comes first where
    the parts are joined Chinese-style by a bare hyphen, headline first: a college site's
    "华为云计算夏应龙博士来访实验室-东江理工大学计算机与信息工程学院" was titled with its name, one
    character longer and printed in its header and footer (no title of the extraction
    datasets changes; preferring a part a heading element says, or the part the body
    shows fewest times, changed 5 and 55 of them, nearly all for the worse: site and
    section names are headings and headlines recur in the body).

    The body's text and ``headings`` are read only when the string has a separator:
    serialising the body's text, and every ``<h2>``'s, was most of finding a title, and
    most titles are decided without them.
    """
    whole = _SEPARATOR_AT_EDGE.sub("", " ".join(title.split()))
    cuts = list(_TITLE_SEPARATORS.finditer(whole))
    if not cuts or whole.casefold() in {h.casefold() for h in headings()}:
        return whole
    parts = [p.strip() for p in _TITLE_SEPARATORS.split(whole)]
    candidates = [p for p in parts if p and p.lower() not in site_names]
    squeezed = body.chars if body is not None else ""
    if squeezed:
        # compared without whitespace: a headline broken over lines or set with an
        # ideographic space ("2007\u3000年末" in a Chinese <title>, "2007年末" on the page)
        # is still shown, and a site name in the footer must not win over it
        if len(cuts) > 2 * _END_CUTS:
            cuts = cuts[:_END_CUTS] + cuts[-_END_CUTS:]
        ends = [whole[: m.start()].strip() for m in cuts]
        ends += [whole[m.end() :].strip() for m in cuts]
        shown = [e for e in ends if e and e.lower() not in site_names and _shown(e, squeezed)]
        shown = shown or [p for p in candidates if _shown(p, squeezed)]
        if len(shown) > 1 and cuts[0].group() in _CJK_HYPHENS:
            heads = [whole[: m.start()].strip() for m in cuts]
            shown = [e for e in shown if e in heads] or shown
        if shown:
            return max(shown, key=len)
    return max(candidates, key=len) if candidates else whole


def _shown(text: str, squeezed_body: str) -> bool:
    return "".join(text.split()) in squeezed_body


def _headings(doc: Document, h1s: list[tuple[int, str]]) -> list[str]:
    """The page's ``<h1>`` and ``<h2>`` texts (order does not matter to their one user,
    :func:`_clean_title`, which compares against them as a set)."""
    h2s = (text_of(h) for h in doc.body.iter("h2"))
    return [text for _, text in h1s if text] + [text for text in h2s if text]


def heading_or_title(doc: Document, site_names: set[str], h1s: list[tuple[int, str]]) -> str | None:
    """The page's ``<h1>`` when it has one; with several, the first the ``<title>``
    contains, and the ``<title>``'s article part when none agrees.

    A single ``<h1>`` is the headline even where the ``<title>`` says something else (SEO
    titles: wcxb's reviewed titles follow the ``<h1>``), unless the ``<title>``'s head part
    is shown above it, whole, in an element outside any link: then the ``<h1>`` is a
    section of the post (zjuvai-blog's "总结" under a post title in a ``<div>``; 6 of its
    457 titles, wcxb development titles 683 -> 688 of 960, held out unchanged). Several
    ``<h1>`` that the ``<title>`` does not contain are a theme's section headings
    ("Summary", an anchor "#" on zjuvai-blog, whose post titles sit in a ``<div>``).

    Of several ``<h1>`` that the ``<title>`` holds, a logo linking to the home page is
    passed over: Broadcasting & Cable's name is longer than its headlines (2026-11-25:
    one development page changed, to its headline; held out and on the sites' and wcxb's
    title tables, nothing). And the one they agree on gives way to the ``<title>``'s head
    part when it only begins that part and the page shows the part whole, outside a link:
    it is a section heading named like the post ("ATOM" over "ATOM: A Grammar for Unit
    Visualizations"; one zjuvai-blog title, wcxb's 1,358 unchanged)."""
    headings = [text for _, text in h1s if text]
    head_title = " ".join((doc.head.title or "").split())
    if headings and not head_title:
        return headings[0]
    body_text = _BodyText(doc)
    if len(headings) == 1:
        shown = _clean_title(head_title, site_names, body_text, lambda: headings)
        body = body_text.collapsed if shown and shown != headings[0] else ""
        at = body.find(shown) if body else -1
        if (
            at >= 0
            and head_title.startswith(shown)
            and headings[0] not in shown
            and body.find(headings[0], at + len(shown)) >= 0
            and _unlinked_element_says(doc, shown)
        ):
            return shown
        return headings[0]
    # the longest, for a logo's <h1> holds the site's name, which the <title> holds too;
    # unless the name is the longer: then the logo is known by its link to the home page
    in_title = [(i, h) for i, h in h1s if len(h) > 1 and h in head_title]
    stories = [h for i, h in in_title if not _home_link(doc, i)]
    agreed = max(stories or [h for _, h in in_title], key=len, default=None)
    if agreed:
        # a section heading the title only begins with ("ATOM" in "ATOM: A Grammar for
        # Unit Visualizations - Lab"): the title's head part, when the page shows it whole
        shown = _clean_title(head_title, site_names, body_text, lambda: headings)
        if (
            shown
            and shown != agreed
            and shown.startswith(agreed)
            and head_title.startswith(shown)
            and _unlinked_element_says(doc, shown)
        ):
            return shown
        return agreed
    cleaned = (
        _clean_title(head_title, site_names, body_text, lambda: headings) if head_title else ""
    )
    return cleaned or (headings[0] if headings else None)


def declared_title(
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
            title = _clean_title(title, site_names, headings=partial(_headings, doc, h1s))
    if not title:
        return None
    # Markdown heading marks a CMS left in ("## Hyper-Local ..." in JSON-LD and og:title)
    title = _MARKDOWN_HEADING.sub("", title) or title
    for _ in range(2):  # "And finally&amp;#8230;": escaped twice
        if "&" in title:
            title = html.unescape(title)
    folded = title.casefold()
    for _, heading in h1s:
        if heading[len(title) :].lstrip().startswith('"') and heading.casefold().startswith(folded):
            # the page's own quote ended the attribute: content="Boy writes "SOS" note"
            return heading
        if len(heading) < 8 or len(heading) >= len(title):
            continue
        head = heading.casefold()
        if folded.startswith(head) and _TITLE_SEPARATORS.match(title[len(heading) :]):
            return heading
        if folded.endswith(head) and _SEPARATOR_AT_END.search(title[: -len(heading)]):
            return heading
    return title


def _home_link(doc: Document, i: int) -> bool:
    """Is ``<h1>`` node ``i`` a logo: all its text a link to the site's home page?"""
    h1 = doc.nodes[i]
    links = [a for a in h1.iter("a") if a.get("href")]
    if len(links) != 1 or doc.link_text_len[i] < doc.text_len[i]:
        return False
    href = links[0].get("href", "").strip()
    # "#..." is this page, not the home page
    path = None if href.startswith("#") else url_path(href)
    return path is not None and is_root_path(path)


def _unlinked_element_says(doc: Document, text: str) -> bool:
    """Does an element outside any link hold exactly ``text``? (A post title in a
    ``<div>`` does; a site's name is its logo's link text.)"""
    chars = text_chars(text)
    text_len, in_link = doc.text_len, doc.in_link
    return any(
        text_len[i] == chars and not in_link[i] and node_text(doc, i) == text
        for i in range(len(text_len))
    )
