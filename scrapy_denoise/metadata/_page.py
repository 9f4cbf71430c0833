"""What the title, date and author finders share: element text, ancestry, JSON-LD
objects, and the story's headline with the few lines under it."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from typing import Any

from lxml import etree

from ..document import Document, aria_role, text_chars

#: lines under the headline searched for an unmarked byline or a written date
_HEADLINE_LINES = 3
#: longest title (non-blank characters) searched for as the headline's element
_HEADLINE_MAX = 300
_BLANK_LINE = re.compile(r"\n[ \t\r]*\n\s*")
_SEPARATORS = "-|·•–—:"


#: JSON-LD objects read at most per page: a list page's ``ItemList`` of many ``ListItem``
#: members counts one (members' members are not walked)
MAX_JSON_LD_OBJECTS = 200


@dataclass(frozen=True, slots=True)
class JsonLd:
    """The page's JSON-LD objects: each blob's top-level objects and ``@graph`` members (a
    list, or one object as JSON-LD 1.1 allows), in page order, at most
    :data:`MAX_JSON_LD_OBJECTS`."""

    objects: tuple[dict[str, Any], ...]
    #: every blob parsed and no object left unread: what a conclusion from an absence
    #: needs (the page filter's "declares no article")
    complete: bool


def page_json_ld(doc: Document) -> JsonLd:
    """The page's :class:`JsonLd`, read once per document (kept in ``doc.json_ld``): the
    page filter reads it, and the metadata of the pages it lets through read it again."""
    if doc.json_ld is None:
        doc.json_ld = _read_json_ld(doc.head.json_ld)
    return doc.json_ld


def _read_json_ld(blobs: list[str]) -> JsonLd:
    out: list[dict[str, Any]] = []
    complete = True
    for blob in blobs:
        try:
            # strict: a blob with raw control characters (the newlines some CMSs leave in
            # an articleBody) is left out, as it always was for the metadata; read with
            # strict=False, 8 of 5,070 pages' title, date or author changed, one to a
            # byline's HTML ("<a data-track-gtm=...")
            data = json.loads(blob)
        except (ValueError, RecursionError):
            complete = False
            continue
        stack: list[Any] = [data]
        while stack:
            item = stack.pop()
            if isinstance(item, list):
                stack.extend(reversed(item))
            elif isinstance(item, dict):
                if len(out) == MAX_JSON_LD_OBJECTS:
                    return JsonLd(tuple(out), complete=False)
                out.append(item)
                graph = item.get("@graph")
                if isinstance(graph, list | dict):
                    stack.append(graph)
    return JsonLd(tuple(out), complete)


#: schema.org's Article subtypes not named ``...Article``: its postings (a ``JobPosting``
#: is not one) and ``Report``
_ARTICLE_TYPES = frozenset(
    {"BlogPosting", "LiveBlogPosting", "SocialMediaPosting", "DiscussionForumPosting", "Report"}
)


def is_article(obj: dict[str, Any]) -> bool:
    """Is this JSON-LD object one of schema.org's Article types?

    Besides the ``...Article`` types (``NewsArticle``, ``ScholarlyArticle``), those are its
    postings and ``Report`` (:data:`_ARTICLE_TYPES`). A live blog's ``LiveBlogPosting``
    carries the story's own headline ("Bill Cosby sentencing: Live updates" where the
    ``<title>`` says "Live updates: Bill Cosby sentencing - CNN"); of the shared data's
    5,070 pages with truth, that was the one whose metadata changed when the postings
    other than ``BlogPosting`` joined (2026-11-28).
    """
    return any("Article" in k or k in _ARTICLE_TYPES for k in ld_types(obj))


def ld_types(obj: dict[str, Any]) -> list[str]:
    """The object's ``@type`` names: one name or a list of them; what is not a string is
    no type."""
    kind = obj.get("@type")
    return [k for k in (kind if isinstance(kind, list) else [kind]) if isinstance(k, str)]


def raw_text(el: Any) -> str:
    """The text of ``el``'s subtree as the page has it (whitespace and all).

    lxml's text serialiser walks the subtree in C without making a Python object per node
    (``itertext`` makes one per node): a byline class on each of 2,000 nested elements made
    this quadratic walk take seconds.
    """
    return etree.tostring(el, method="text", encoding="unicode", with_tail=False)


def text_of(el: Any) -> str:
    """Whitespace-collapsed text of ``el``'s subtree (:func:`raw_text`). (``" ".join(s.split())``
    equals the regex substitution of every whitespace run by one space, stripped.)"""
    return " ".join(raw_text(el).split())


def node_text(doc: Document, i: int) -> str:
    """:func:`text_of` of node ``i``: a leaf's own text is all its text, read from the
    document's arrays without serialising the element (most date elements are leaves)."""
    if doc.end[i] == i:
        return " ".join((doc.texts[i] or "").split())
    return text_of(doc.nodes[i])


def h1s(doc: Document) -> list[tuple[int, str]]:
    """Every ``<h1>`` of the page as (node index, whitespace-collapsed text), read once:
    the title, the headline's byline lines and the written date all look at them."""
    nodes = doc.nodes
    return [(i, text_of(nodes[i])) for i, tag in enumerate(doc.tags) if tag == "h1"]


def headline_node(doc: Document, h1s: list[tuple[int, str]], title: str | None) -> int:
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
                and node_text(doc, i) in title
            ):
                return i
    return next((i for i, text in h1s if text), -1)


def headline_lines(doc: Document, headline: Callable[[], int]) -> list[str]:
    """The few short lines under the headline, where themes print the byline and date
    without marking either ("By Jane Roe", "November 21, 2017 - Stephan Ewen").

    The headline is :func:`headline_node`'s: the ``<h1>`` that says the page's ``title``
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
    # the scope's lines up to the headline's last line (its first copy) and the few after
    lines = doc.iter_lines(scope)
    above: str | None = None
    for line in lines:
        if line == head_lines[-1]:
            break
        above = line
    else:
        return []
    out: list[str] = []
    for line in islice(lines, _HEADLINE_LINES):
        if len(line) > 150:
            break
        out.append(line)
    if above is not None and len(above) <= 150:
        out.append(above)  # "July 20, 2012" above the headline, last resort
    return _with_source_breaks(doc, scope, out)


def _with_source_breaks(doc: Document, scope: int, lines: list[str]) -> list[str]:
    """``lines`` with the blank lines of their source text read as commas.

    A template that loops over a post's authors writes one per source line ("May 11, 2022
    -⏎⏎  Jingsong Lee⏎⏎  Jiangjie (Becket) Qin", flink-blog's Hugo theme); rendered, the
    names run together and no byline reads them. Only short text pieces of the
    headline's container are looked at.
    """
    if not lines:
        return lines
    texts, tails, end = doc.texts, doc.tails, doc.end
    pieces: dict[str, str] = {}
    for k in range(scope, end[scope] + 1):
        for raw in (texts[k], tails[k] if k != scope else None):
            if raw and "\n" in raw and len(raw) <= 600 and _BLANK_LINE.search(raw):
                parts = [" ".join(p.split()) for p in _BLANK_LINE.split(raw)]
                parts = [p for p in parts if p]
                if len(parts) > 1:
                    joined = parts[0]
                    for part in parts[1:]:
                        joined += (" " if joined[-1] in _SEPARATORS else ", ") + part
                    pieces[" ".join(parts)] = joined
    if not pieces:
        return lines
    out = []
    for line in lines:
        for flat, joined in pieces.items():
            if flat in line:
                line = line.replace(flat, joined)
        out.append(line)
    return out


def inside(
    doc: Document,
    i: int,
    marks: re.Pattern[str] | None,
    tags: frozenset[str] = frozenset(),
    roles: frozenset[str] = frozenset(),
) -> bool:
    """Is node ``i`` (or an ancestor) one of ``tags``, classed with ``marks`` or in one of
    the ARIA ``roles``?"""
    nodes, parent = doc.nodes, doc.parent
    while i > 0:
        el = nodes[i]
        if doc.tags[i] in tags:
            return True
        if marks is not None and marks.search(
            f"{el.get('class') or ''} {el.get('id') or ''}".lower()
        ):
            return True
        if roles and aria_role(el) in roles:
            return True
        i = parent[i]
    return False
