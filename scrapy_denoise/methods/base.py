"""What every extraction method returns, and the text-node view two of them select from.

The punctuation method (dom-punctuation-and-line-statistics.txt, §2.1) and CEVC
(cevc-valid-characters.txt, §2.1) decide per DOM *text node*, not per element: a paragraph
with an inline link is three text nodes, and the link's text can be judged apart from the
sentence around it. :func:`text_pieces` lists those text nodes once, in reading order, each
tagged with the block-level line it renders on, so a method keeps or drops single pieces and
:func:`render_pieces` turns the kept ones back into one paragraph per line, exactly as
:meth:`Document.lines` renders a whole subtree (a test holds the two to the same output).
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from dataclasses import dataclass, field, fields, replace
from typing import Any, Protocol, TypeVar

import lxml.etree as etree

from ..document import BLOCK_TAGS, Document, flush_line

__all__ = [
    "NON_CONTENT_TAGS",
    "Extraction",
    "Method",
    "TextPiece",
    "check_param_type",
    "override_params",
    "render_pieces",
    "text_pieces",
]

#: Elements whose text is never main text: form controls. The correlativity paper filters
#: "<script>, <remark>, <style> and the like, which cannot contain main text" (§3.2); the
#: shared document keeps form controls (the page filter counts them), and a ``<select>`` of
#: country names, with no link in it, was all that correlativity (CC = TA / LA) extracted
#: from 4 of the 150 dragnet dev pages.
NON_CONTENT_TAGS = frozenset({"select", "option", "optgroup", "datalist", "textarea", "button"})


@dataclass(slots=True)
class Extraction:
    """Main text of one page as a method saw it."""

    #: main text, one paragraph per line
    lines: list[str] = field(default_factory=list)
    #: indices into ``doc.nodes`` of the nodes the method kept (for reports)
    kept: list[int] = field(default_factory=list)
    #: optional per-node score for reports (CC, valid characters, punctuation ratio)
    scores: dict[int, float] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


class Method(Protocol):
    """An extraction method: one page in, its main text out. Must not mutate ``doc``."""

    name: str

    def extract(self, doc: Document) -> Extraction: ...


_Params = TypeVar("_Params")


def override_params(params: _Params, overrides: dict[str, Any]) -> _Params:
    """``params`` with fields replaced by ``overrides`` (from settings, e.g. ``{"alpha": 0.6}``).

    Unknown names raise :class:`TypeError` naming the valid ones, so that a typo in a
    setting fails at start-up instead of silently running the paper's default; so do
    values of the wrong type (:func:`check_param_type`), which would otherwise fail on the
    first page, deep inside the method.
    """
    if not overrides:
        return params
    valid = {f.name for f in fields(params)}  # type: ignore[arg-type]
    unknown = sorted(set(overrides) - valid)
    if unknown:
        raise TypeError(
            f"unknown parameter(s) {', '.join(unknown)} for {type(params).__name__}; "
            f"valid: {', '.join(sorted(valid))}"
        )
    for name, value in overrides.items():
        check_param_type(name, getattr(params, name), value)
    return replace(params, **overrides)  # type: ignore[type-var]


def check_param_type(name: str, default: object, value: object) -> None:
    """Raise :class:`TypeError` naming the parameter unless ``value`` has the type of its
    ``default``: ``{"alpha": "0.6"}`` from a settings file failed only on the first page,
    as ``'<' not supported`` deep inside the method.

    Only scalar defaults are checked (a number also takes an ``int``, as JSON writes
    ``1.0`` as ``1``); a ``None`` default says nothing about the type, and collections
    arrive as JSON lists where the method keeps a ``frozenset``.
    """
    if isinstance(default, bool):
        ok, expected = isinstance(value, bool), "true or false"
    elif isinstance(default, int):
        ok, expected = isinstance(value, int) and not isinstance(value, bool), "an integer"
    elif isinstance(default, float):
        ok, expected = isinstance(value, int | float) and not isinstance(value, bool), "a number"
    elif isinstance(default, str):
        ok, expected = isinstance(value, str), "a string"
    else:
        return
    if not ok:
        raise TypeError(
            f"parameter {name!r} must be {expected}, got {type(value).__name__} {value!r}"
        )


@dataclass(slots=True, frozen=True)
class TextPiece:
    """One DOM text node: an element's ``text`` or a child's ``tail``.

    ``owner`` is the element the text belongs to in the DOM (for a tail, the parent), which
    is the node whose aggregates include it. ``line`` numbers the block-level line it renders
    on; ``segment`` numbers runs of text not separated by an element boundary in the
    ``breaks`` set given to :func:`text_pieces` (equal to ``line`` by default).
    """

    owner: int
    text: str
    line: int
    segment: int
    #: whether the text is inside an ``<a>`` (a tail of an ``<a>`` is not)
    in_link: bool


class _Tail:
    """Stand-in for a non-element child (entity, leftover PI) whose tail is still text."""

    __slots__ = ("tail",)

    def __init__(self, tail: str) -> None:
        self.tail = tail


def text_pieces(
    doc: Document,
    i: int = 0,
    *,
    breaks: Container[str] = BLOCK_TAGS,
    exclude: Container[str] = (),
) -> list[TextPiece]:
    """Text nodes of the subtree of node ``i`` in reading order (iterative walk).

    A new line starts at the opening and the closing of every block-level element
    (:data:`BLOCK_TAGS`), as in :meth:`Document.lines`; a new segment starts at those of
    every element whose tag is in ``breaks``. Elements whose tag is in ``exclude`` contribute
    only their tail (which belongs to the parent). The tail of node ``i`` itself is outside
    the subtree and is not listed.
    """
    nodes, index, in_link = doc.nodes, doc.index, doc.in_link
    out: list[TextPiece] = []
    line = 0
    segment = 0
    top = nodes[i]
    # (element or tail stand-in, owner index of its tail, closing?)
    stack: list[tuple[etree._Element | _Tail, int, bool]] = [(top, -1, False)]
    while stack:
        el, tail_owner, closing = stack.pop()
        if isinstance(el, _Tail):
            out.append(TextPiece(tail_owner, el.tail, line, segment, in_link[tail_owner]))
            continue
        tag = el.tag
        if tag in BLOCK_TAGS:
            line += 1
        if tag in breaks:
            segment += 1
        if closing:
            if el is not top and el.tail:
                out.append(TextPiece(tail_owner, el.tail, line, segment, in_link[tail_owner]))
            continue
        if tag in exclude and el is not top:
            # Skipped like Document.lines skips: the element still breaks the line.
            stack.append((el, tail_owner, True))
            continue
        me = index[el]
        if el.text:
            out.append(TextPiece(me, el.text, line, segment, in_link[me]))
        stack.append((el, tail_owner, True))
        for child in reversed(el):
            if isinstance(child.tag, str):
                stack.append((child, me, False))
            elif child.tail:
                stack.append((_Tail(child.tail), me, True))
    return out


def render_pieces(pieces: Iterable[TextPiece]) -> list[str]:
    """Join pieces into one paragraph per line, collapsing whitespace and dropping empties."""
    out: list[str] = []
    buf: list[str] = []
    current = None
    for piece in pieces:
        if piece.line != current:
            flush_line(buf, out)
            current = piece.line
        buf.append(piece.text)
    flush_line(buf, out)
    return out
