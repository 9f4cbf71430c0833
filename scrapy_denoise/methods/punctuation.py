"""Text nodes selected by punctuation ratio (dom-punctuation-and-line-statistics.txt, §1-2.1).

The paper (Li & Jiang) first deletes "noise nodes" from the DOM: ``style``, ``script``,
``img``, comments, ``iframe``, ``object``, ``meta``, ``applet``, ``link`` and the doctype
(§1 step 6). :func:`~scrapy_denoise.document.load_document` already drops all of those that
can hold text, so here the noise-node step is the shared cleaning and nothing more. The
paper also replaces ``<strong>``, ``<font>`` and ``<p>`` tags by the empty string before
parsing (§1 step 3), which merges the text around them into one text node; with
``unit="text_node"`` those tags are the ones that do not split a node.

Then, per text node, ratio = sentence punctuation marks / all (non-space) characters, with
Chinese and English full stops, commas, exclamation marks, brackets "and so on" counted as
punctuation (§2.1). The paper keeps the nodes whose ratio lies in ``[0, p]``, ``p = 0.3``.
Read literally, the closed interval keeps every node without punctuation, i.e. the very
navigation and link nodes the same section says carry none ("另一类是不包含标点符号的文字
节点, 这类节点通常是导航或广告链接节点"); only near-pure punctuation such as ``...`` or
``[1]`` is dropped, and the method returns nearly the whole page. Measured (shingle F1, mean
of dragnet / cleaneval / l3s-gn1, 150 dev pages each, then 150 held-out pages each): the
literal ``[0, p]`` gives 0.717 / 0.712 (dragnet precision 0.39); requiring at least one
mark, ``(0, p]`` (``require_punctuation=True``, the default), gives 0.781 / 0.777. That is
the content filter the paper describes. Repeated boilerplate that does carry punctuation
(copyright lines) is the job of the line statistics that follow in the paper (§2.2,
``methods/linestats``), not of this step.

``max_link_share`` is an addition of ours, not the paper's, and off by default: most of what
the ratio rule lets through wrongly on the dev pages is lists of headline links with a
comma or colon in them. Dropping units whose text is more than half anchor text gives
0.833 / 0.827 on the same pages.

Unit of selection (``unit``): the paper's text node is a TinyXML text node after the tag
replacement above. ``"line"`` (the default) judges each block-level line (a paragraph with
its inline markup, links included), so a paragraph's inline link is not a punctuation-free
node of its own that is dropped from the middle of a sentence. Measured: 0.781 / 0.777 for
lines, 0.775 / 0.773 for the paper's text nodes; lines win on dragnet and cleaneval, text
nodes on l3s-gn1.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass
from typing import Any, Literal

from ..document import Document, text_chars
from .base import (
    NON_CONTENT_TAGS,
    Extraction,
    TextPiece,
    override_params,
    render_pieces,
    text_pieces,
)

__all__ = ["SENTENCE_PUNCTUATION", "PunctuationMethod", "PunctuationParams", "punctuation_ratio"]

#: Chinese and English sentence punctuation (§2.1: full stop, comma, exclamation mark,
#: brackets "等"); the question mark, colon, semicolon, enumeration comma, ellipsis and
#: quotation marks are the rest of the sentence marks of both languages. Separators of
#: menus (``|``, ``»``, ``/``, ``-``) are deliberately not included.
SENTENCE_PUNCTUATION = frozenset(
    "。．，、；：！？…（）【】「」『』《》〈〉“”‘’"  # Chinese (full-width)
    '.,;:!?()[]"'  # English
)


@dataclass(frozen=True, slots=True)
class PunctuationParams:
    #: upper bound p of the punctuation ratio (paper §2.1: 0.3)
    max_ratio: float = 0.3
    #: ``(0, p]`` instead of the literal ``[0, p]``: a node needs at least one mark
    require_punctuation: bool = True
    #: what a "text node" is: a block-level line, or a DOM text node after unwrapping
    #: ``unwrap_tags`` (the paper's TinyXML node)
    unit: Literal["line", "text_node"] = "line"
    #: tags the paper removes before parsing, so they do not split a text node (§1 step 3)
    unwrap_tags: frozenset[str] = frozenset({"strong", "font", "p"})
    punctuation: frozenset[str] = SENTENCE_PUNCTUATION
    #: NOT in the paper, off by default: also drop units whose anchor text exceeds this
    #: share of their characters (headline lists carry commas and colons too)
    max_link_share: float | None = None


def punctuation_ratio(text: str, marks: Container[str] = SENTENCE_PUNCTUATION) -> float:
    """Punctuation marks / non-space characters of ``text`` (0 for an empty text)."""
    total = text_chars(text)
    if total == 0:
        return 0.0
    return sum(1 for ch in text if ch in marks) / total


def _link_share(members: list[TextPiece]) -> float:
    total = sum(text_chars(m.text) for m in members)
    linked = sum(text_chars(m.text) for m in members if m.in_link)
    return linked / total if total else 0.0


class _AllTagsExcept:
    """Tag set "every element splits a text node except these" for :func:`text_pieces`."""

    __slots__ = ("_except",)

    def __init__(self, unwrapped: frozenset[str]) -> None:
        self._except = unwrapped

    def __contains__(self, tag: object) -> bool:
        return tag not in self._except


class PunctuationMethod:
    """Keeps text nodes whose punctuation ratio lies in ``(0, p]`` (see module docstring)."""

    name: str = "punctuation"

    def __init__(self, params: PunctuationParams | None = None, **overrides: Any) -> None:
        self.params = override_params(params or PunctuationParams(), overrides)

    def extract(self, doc: Document) -> Extraction:
        p = self.params
        if p.unit == "text_node":
            pieces = text_pieces(
                doc, breaks=_AllTagsExcept(p.unwrap_tags), exclude=NON_CONTENT_TAGS
            )
        else:
            pieces = text_pieces(doc, exclude=NON_CONTENT_TAGS)
        units: dict[int, list[TextPiece]] = {}
        for piece in pieces:
            units.setdefault(piece.segment, []).append(piece)
        kept_segments: set[int] = set()
        scores: dict[int, float] = {}
        kept_nodes: set[int] = set()
        for segment, members in units.items():
            text = "".join(m.text for m in members)
            if text_chars(text) == 0:
                continue
            ratio = punctuation_ratio(text, p.punctuation)
            owner = members[0].owner
            scores.setdefault(owner, ratio)
            if ratio > p.max_ratio or (p.require_punctuation and ratio == 0.0):
                continue
            if p.max_link_share is not None and _link_share(members) > p.max_link_share:
                continue
            kept_segments.add(segment)
            kept_nodes.update(m.owner for m in members)
        chosen = [piece for piece in pieces if piece.segment in kept_segments]
        return Extraction(lines=render_pieces(chosen), kept=sorted(kept_nodes), scores=scores)
