"""The 18 page features of the noise-page paper (Table 2), from the shared aggregates.

Computed from one :class:`~scrapy_denoise.document.Document`: the rules and the page SVM
read the same vector, so the middleware and the benchmark measure the same thing.

Feature 1, the paper's "raw text length (page source text)", is the length of the page's
*markup*, not of its visible text: visible text is already features 2 + 5 (text outside and
inside links), so counting it again would repeat them, while the source length says how
much structure surrounds the text. It is measured on the cleaned tree (the serialised
``<body>`` without scripts, styles and ``<head>``, in characters) because the raw bytes are
dominated by inlined scripts and CSS, which depend on the site's build tooling rather than
on the kind of page, and the document does not keep them. On the shared data the choice
made no measurable difference to the page SVM (held-out results within noise of the
visible-text variant); it follows the paper and adds no redundant feature.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, fields
from itertools import islice
from urllib.parse import parse_qsl, urlsplit

import lxml.etree as etree

from ..document import Document, text_chars
from ..tracking import is_tracking_key

__all__ = [
    "FEATURE_NAMES",
    "PUNCTUATION",
    "PageFeatures",
    "names_a_page",
    "page_features",
    "url_depth",
]

#: Sentence punctuation of Chinese and Latin-script text; both occur on the pages we crawl.
PUNCTUATION = frozenset("。，、；：？！…“”‘’《》（）,.;:?!\"'()")
_PUNCTUATION_RE = re.compile("[" + re.escape("".join(sorted(PUNCTUATION))) + "]")
#: the marks a Latin-1 string can hold (the Latin ones: the Chinese are above U+00FF)
_LATIN1_PUNCTUATION = "".join(sorted(p for p in PUNCTUATION if ord(p) < 256)).encode("latin-1")
_HEADINGS = ("h1", "h2", "h3", "h4")
_CONTROLS = ("input", "textarea", "select", "option")
_COUNTED_TAGS = frozenset((*_HEADINGS, *_CONTROLS))


@dataclass(frozen=True, slots=True)
class PageFeatures:
    """One page as the paper's feature vector (names follow its Table 2, in its order)."""

    raw_text_len: int  #: characters of cleaned ``<body>`` markup (see module doc)
    text_len: int  #: text outside links (the paper's "main text")
    punctuation: int  #: sentence punctuation marks outside links
    links: int
    link_text_len: int
    images: int
    url_len: int
    url_depth: int
    text_ratio: float  #: text / (text + link text)
    linked_h1: int
    linked_h2: int
    linked_h3: int
    linked_h4: int
    inputs: int
    textareas: int
    selects: int
    options: int
    radios: int

    def vector(self) -> tuple[float, ...]:
        # not dataclasses.astuple, which deep-copies each field: a tenth of classifying
        return tuple(float(getattr(self, name)) for name in FEATURE_NAMES)


FEATURE_NAMES: tuple[str, ...] = tuple(f.name for f in fields(PageFeatures))

#: a path's directory index file (``/index.html``, ``/default.aspx``): the directory itself,
#: for the URL depth and for the URL rules (:mod:`.rules`)
INDEX_FILE = re.compile(r"/(?:index|default)\.\w+$", re.I)


#: a link that opens the page's comment form as a reply (WordPress's ``?replytocom=``,
#: Typecho's ``?replyTo=``), under every comment: the page it is on, whatever it names. A
#: generated Typecho blog's crawl stored its about page as ``/about.html?replyTo=214``
_REPLY_KEY = re.compile(r"reply_?to(?:com)?", re.I)


def names_a_page(query: str) -> bool:
    """Whether a query string picks a page of its own: on a short path, ``/?p=123``
    (WordPress's plain permalinks) and ``/?fArticleId=...`` (Independent Online's news
    sites, 5 of l3s-gn1's 621 articles) are articles, not the home page. Tracking
    parameters and a reply link's (:data:`_REPLY_KEY`) pick the page they are on."""
    return any(
        not is_tracking_key(key) and _REPLY_KEY.fullmatch(key) is None
        for key, _ in parse_qsl(query, keep_blank_values=True)
    )


def url_depth(url: str) -> int:
    """Directory levels of the URL path (``/`` is 0, ``/a/b.html`` is 2), and one more for a
    query that picks a page (:func:`names_a_page`): ``/index.jsp?storyID=331198`` is a story
    one level down, as ``/story/331198`` would be.

    Older news sites address their stories by query (``index.cfm?sid=``, ``?aid=``,
    ``?storyID=``); counted by path alone they looked as shallow as a home page to the page
    SVM. The search, tag and paging queries that would count too are the URL rule's
    (``PageRules.query_keys``), before the SVM reads this.
    """
    parts = urlsplit(url)
    path = INDEX_FILE.sub("/", parts.path)
    depth = len([p for p in path.split("/") if p])
    return depth + 1 if parts.query and names_a_page(parts.query) else depth


def _markup_len(doc: Document) -> int:
    if not doc.nodes:
        return 0
    return len(etree.tostring(doc.body, encoding="unicode", with_tail=False))


def _punctuation(doc: Document) -> int:
    """Punctuation marks outside links: all of the body's minus those inside top-most ``<a>``.

    Counting character by character made this feature the most expensive part of
    classifying a page, so the text is gathered in C-speed pieces and scanned with one
    regex. On a loaded document (no comments or PIs left) the pieces are those of
    :meth:`Document.iter_text`, read from the index arrays: the text of every node outside
    links and the tail of every node whose parent is outside one (counting does not care
    about their order). Other trees take lxml's text serialiser, the body's minus each
    top-most link's. (An XPath ``.//a//text()`` would be one call, but libxml2 merges its
    node sets in quadratic time: 10 s on a page of 100,000 links.) The arrays took it from
    0.31 to 0.14 ms per holdout page.
    """
    if not doc.nodes:
        return 0
    index, parent, in_link, link_text = doc.index, doc.parent, doc.in_link, doc.link_text_len
    if doc.elements_only:
        outside = [
            text for text, linked in zip(doc.texts, in_link, strict=True) if text and not linked
        ]
        # node 0's tail is the body's, outside the body
        outside += [
            tail
            for tail, p in zip(islice(doc.tails, 1, None), islice(parent, 1, None), strict=True)
            if tail and not in_link[p]
        ]
        return _count_punctuation("".join(outside))
    total = _count_punctuation(_text_of(doc.body))
    if not link_text[0]:
        return total  # punctuation is never blank, so links without text have none
    inside: list[str] = []
    for a in doc.body.iter("a"):
        i = index[a]
        if link_text[i] and (i == 0 or not in_link[parent[i]]):
            # with_tail=False: the link's tail is its parent's text, outside the link.
            inside.append(_text_of(a))
    return total - _count_punctuation("".join(inside))


def _count_punctuation(text: str) -> int:
    """Punctuation marks in ``text``.

    Text that is all Latin-1 (about a third of the held-out pages' text, English pages
    without curly quotes) is counted as bytes, by deleting the marks with
    ``bytes.translate`` four times as fast as the regex finds them; the encoding fails
    early on other text, which the regex counts.
    """
    try:
        raw = text.encode("latin-1")
    except UnicodeEncodeError:
        return len(_PUNCTUATION_RE.findall(text))
    return len(raw) - len(raw.translate(None, _LATIN1_PUNCTUATION))


def _text_of(el: etree._Element) -> str:
    return etree.tostring(el, method="text", encoding="unicode", with_tail=False)


def _control_text(doc: Document) -> tuple[int, int, int]:
    """Characters, punctuation marks and serialised length of the form controls' text that
    loading took out of the tree (:attr:`Document.control_text`): the paper's features, and
    the shipped model, count it as page text and markup."""
    if not doc.control_text:
        return 0, 0, 0
    joined = "".join(doc.control_text)
    # etree.tostring writes & < > and CR in text as &amp; &lt; &gt; &#13;
    markup = len(joined) + 4 * joined.count("&") + 3 * joined.count("<")
    markup += 3 * joined.count(">") + 4 * joined.count("\r")
    return text_chars(joined), _count_punctuation(joined), markup


def _tag_counts(doc: Document) -> dict[str, int]:
    """Controls, radio buttons and linked headings (headings with an ``<a>`` inside).

    Read from the document's tag list rather than by walking the tree: a count of the
    tags in question, filtered and counted at C speed, says which of these elements exist,
    and ``list.index`` finds the few that need a second look (a heading's links, an
    input's type), so no lxml element is touched unless it is one of them. Walking the
    tree with lxml's tag filter cost more than twice as much.
    """
    tags = doc.tags
    present = Counter(filter(_COUNTED_TAGS.__contains__, tags))
    counts = {tag: present[tag] for tag in _CONTROLS}
    counts["radio"] = 0
    if counts["input"]:
        nodes, i = doc.nodes, -1
        for _ in range(counts["input"]):
            i = tags.index("input", i + 1)
            if (nodes[i].get("type") or "").lower() == "radio":
                counts["radio"] += 1
    link_count = doc.link_count
    for tag in _HEADINGS:
        counts[tag], i = 0, -1
        for _ in range(present[tag]):
            i = tags.index(tag, i + 1)
            if link_count[i]:
                counts[tag] += 1
    return counts


def page_features(doc: Document) -> PageFeatures:
    control_chars, control_punct, control_markup = _control_text(doc)
    body_text = doc.text_len[0] if doc.nodes else 0
    link_text = doc.link_text_len[0] if doc.nodes else 0
    text = body_text - link_text + control_chars
    punct = _punctuation(doc) + control_punct
    counts = _tag_counts(doc)
    total = text + link_text
    return PageFeatures(
        raw_text_len=_markup_len(doc) + control_markup,
        text_len=text,
        punctuation=punct,
        links=doc.link_count[0] if doc.nodes else 0,
        link_text_len=link_text,
        images=doc.image_count[0] if doc.nodes else 0,
        url_len=len(doc.url),
        url_depth=url_depth(doc.url),
        text_ratio=text / total if total else 0.0,
        linked_h1=counts["h1"],
        linked_h2=counts["h2"],
        linked_h3=counts["h3"],
        linked_h4=counts["h4"],
        inputs=counts["input"],
        textareas=counts["textarea"],
        selects=counts["select"],
        options=counts["option"],
        radios=counts["radio"],
    )
