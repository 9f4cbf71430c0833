"""Text correlativity with context smoothing (text-correlativity-uyghur.txt, §3.2-3.5).

For every element ``i`` of the body (the paper numbers all DOM nodes and computes CC for
each, Figs. 3-4, so the candidates are all elements, containers included):

* ``TA_i`` = non-link text characters of the subtree (``text_len - link_text_len``, less
  the text of form controls, which "cannot contain main text", §3.2),
  ``LA_i`` = ``<a>`` elements in the subtree (``link_count``; 0 counts as 1), and the text
  correlativity ``CC_i = TA_i / LA_i`` (Definition 1). ``CC_i > C`` (C = 29, §3.4) is text.
* Smoothing (§3.5), for nodes with ``CC_i < C`` (``C >= CC_i`` is noise, so ``CC_i == C``
  is treated alike): the context density ``TD_i = TA(parent_i) / LA_i`` (Definition 2; the
  extracted formula's "if TA(P_i) is 0 set it to 1" can only be about the denominator,
  since a zero numerator divides fine) and the content scale ``CS_i`` = share of the node's
  same-tag siblings, itself included, with ``CC >= C`` (Definition 3). A node with
  ``CS_i > S`` (57 %) and ``TD_i > D`` (63) becomes text with ``CC_i := C``. CS reads the
  unsmoothed CCs of all siblings, so the result does not depend on the order nodes are
  visited in.
* "Off the text's structure" (§3.5: the formulas locate the level of the DOM where the text
  nodes sit; a node with ``CC > C`` that clearly deviates from it, like a copyright node,
  is set to 0). Operationally (``structure="region"``): the text's structure is the deepest
  element holding at least ``structure_share`` of the page's text-node text (non-link text
  inside a text node; a text node counts all of its TA, so the ``<br>``-separated article
  ``div`` counts its loose text, a non-text wrapper only the text nodes below it). Text
  nodes outside that element, and the containers above it, are set to 0: the copyright
  ``<p>`` sits in the footer, outside the element holding the bulk of the text, and the
  wrappers above the article hold the article but are not its structure (keeping them would
  add all their sidebars back). ``structure="none"`` skips the step.

  Measured (shingle F1, mean of dragnet / cleaneval / l3s-gn1, 150 dev pages each, then 150
  held-out pages each): no structure step 0.779 / 0.775; region with share 0.5: 0.863 /
  0.845; 0.6: 0.865 / 0.857; 0.7: 0.852 / 0.847. 0.6 is the default. Below it the region
  tends to descend into a comment thread longer than the article; above it, to stop at a
  wrapper that includes the sidebars.
* Output: parent/child duplicates are removed (a kept node's text is output once, under its
  top-most kept ancestor) and the nodes' text is emitted in document order.

Worked numbers: the paper's Fig. 2 (a Bilik BBS page) gives TA/LA pairs such as 50/0 and
2256/178; they are unit tests of the CC formula (``tests/test_correlativity.py``).
"""

from __future__ import annotations

import itertools
import operator
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

from ..document import Document
from .base import NON_CONTENT_TAGS, Extraction, override_params

__all__ = [
    "CorrelativityMethod",
    "CorrelativityParams",
    "context_density",
    "correlativity",
    "non_link_text",
]


@dataclass(frozen=True, slots=True)
class CorrelativityParams:
    #: text correlativity threshold C (paper §3.4: 29)
    threshold: float = 29.0
    #: content scale threshold S, as a fraction (paper §3.5: 57 %)
    content_scale: float = 0.57
    #: context text density threshold D (paper §3.5: 63)
    context_density: float = 63.0
    #: how "off the text's structure" is decided: ``"region"`` or ``"none"``
    structure: Literal["region", "none"] = "region"
    #: share of the page's text-node text the structure's element must hold (ours, not the
    #: paper's: measured, see the module docstring)
    structure_share: float = 0.6


def non_link_text(doc: Document) -> tuple[list[int], list[bool]]:
    """``TA_i`` for every node, and whether the node is (inside) a form control.

    Text of form controls (:data:`NON_CONTENT_TAGS`) is taken out of TA: the paper filters
    the nodes "that cannot contain main text" before counting (§3.2).
    """
    n = len(doc.nodes)
    ta = [t - lt for t, lt in zip(doc.text_len, doc.link_text_len, strict=True)]
    control = [False] * n
    tags, parent = doc.tags, doc.parent
    for i in range(1, n):
        control[i] = control[parent[i]] or tags[i] in NON_CONTENT_TAGS
    if any(control):
        removed = [0] * n
        for i in range(n - 1, 0, -1):
            if control[i] and not control[parent[i]]:
                removed[i] = ta[i]
            removed[parent[i]] += removed[i]
        ta = [t - r for t, r in zip(ta, removed, strict=True)]
    return ta, control


def correlativity(doc: Document, ta: list[int] | None = None) -> list[float]:
    """``CC_i = TA_i / max(LA_i, 1)`` for every node (Definition 1)."""
    if ta is None:
        ta = non_link_text(doc)[0]
    # (links or 1) is max(links, 1) for the non-negative counts, without a call per node
    return [t / (links or 1) for t, links in zip(ta, doc.link_count, strict=True)]


def context_density(doc: Document, i: int, ta: list[int]) -> float:
    """``TD_i = TA(parent_i) / max(LA_i, 1)`` (Definition 2); the body is its own context."""
    p = doc.parent[i] if i > 0 else 0
    return ta[p] / max(doc.link_count[i], 1)


def _content_scales(doc: Document, cc: list[float], threshold: float) -> list[float]:
    """``CS_i``: share of same-tag siblings (self included) with ``CC >= C`` (Definition 3).

    Siblings of one tag are the nodes sharing a ``(parent, tag)`` key; both counts are
    taken over the keys in C (``Counter``, ``map``) rather than by walking every parent's
    children, which was most of this method's time. The body's key is its own, so its CS is
    1 or 0 by the same formula.
    """
    keys = list(zip(doc.parent, doc.tags, strict=True))
    total = Counter(keys)
    high = Counter(itertools.compress(keys, [c >= threshold for c in cc]))
    return list(
        map(operator.truediv, map(high.get, keys, itertools.repeat(0)), map(total.get, keys))
    )


def _structure_region(doc: Document, ta: list[int], text: list[bool], share: float) -> int | None:
    """Deepest element holding >= ``share`` of the text-node text of the page.

    ``covered[i]`` is the non-link text of ``i``'s subtree that lies inside a text node
    within the subtree: all of ``TA_i`` when ``i`` is a text node, else the sum over its
    children. A text container thereby counts its own loose text (the ``<br>``-separated
    article), while a non-text wrapper counts only the text nodes below it.
    """
    n = len(doc.nodes)
    parent = doc.parent
    below = [0] * n
    covered = [0] * n
    for i in range(n - 1, -1, -1):
        covered[i] = ta[i] if text[i] else below[i]
        if i:
            below[parent[i]] += covered[i]
    total = covered[0]
    if total <= 0:
        return None
    node = 0
    while True:
        best = max(doc.children(node), key=lambda c: covered[c], default=-1)
        if best < 0 or covered[best] < share * total:
            return node
        node = best


class CorrelativityMethod:
    """Nodes with high non-link text per link, smoothed by context; see the module docstring."""

    name: str = "correlativity"

    def __init__(self, params: CorrelativityParams | None = None, **overrides: Any) -> None:
        self.params = override_params(params or CorrelativityParams(), overrides)

    def extract(self, doc: Document) -> Extraction:
        p = self.params
        n = len(doc.nodes)
        ta, control = non_link_text(doc)
        cc = correlativity(doc, ta)
        scales = _content_scales(doc, cc, p.threshold)
        score = cc.copy()
        text = [False] * n
        for i in range(n):
            if control[i]:
                continue
            if cc[i] > p.threshold:
                text[i] = True
            elif (
                ta[i] > 0
                and scales[i] > p.content_scale
                and context_density(doc, i, ta) > p.context_density
            ):
                text[i] = True
                score[i] = p.threshold
        if p.structure == "region":
            region = _structure_region(doc, ta, text, p.structure_share)
            if region is not None:
                first, last = region, doc.end[region]
                for i in range(n):
                    if text[i] and not first <= i <= last:
                        text[i] = False
                        score[i] = 0.0
        kept: list[int] = []
        lines: list[str] = []
        i = 0
        while i < n:
            if text[i]:
                # Top-most kept node: its subtree covers every kept descendant (dedup).
                kept.append(i)
                skip = {j for j in range(i, doc.end[i] + 1) if control[j]}
                lines.extend(doc.lines(i, skip=skip))
                i = doc.end[i] + 1
            else:
                i += 1
        scores = {i: s for i, s in enumerate(score) if doc.text_len[i]}
        return Extraction(lines=lines, kept=kept, scores=scores)
