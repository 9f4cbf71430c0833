"""``scrapy-denoise report``: one page, every block coloured by what the pipeline did with it.

The report is one self-contained HTML file. On the left the page as a reader sees it
(sanitised, in a sandboxed ``<iframe srcdoc>``; see :mod:`.sanitize`), every text block
outlined in the colour of its fate; on the right the block under the pointer (text length,
link density, the method's score, what decided), the extracted article with its metadata and
the page filter's verdict, and a list of all blocks. The only script is the report's own,
in the outer document; the framed page gets none, and the outer document's policy allows
only that script (by hash).

What a "block" is: an element that owns a rendered line of text (the innermost block-level
element around it, as :meth:`Document.lines` breaks lines), plus every unit of the page that
matches a site template. Fates, in the order the pipeline applies its steps:

* ``template``: its text is the site's common noise (a template), dropped from the output;
* ``method``: none of its lines is in the method's output (the chosen extraction method, e.g.
  the block SVM or text correlativity, did not select it, or it is a copyright or stock
  line, or a label ending in a colon left at the end of the text, or the header lines
  (headline, date and author) that ``keep_headline=False`` leaves out);
* ``linestats``: its lines were output by the method, then all removed by line statistics;
* ``kept``: at least one of its lines is in the article.

Everything is found by re-running the public pieces on the same :class:`Document` the
pipeline used (:meth:`Denoiser.extract_document`, then the template match and the method again),
so the report shows what the pipeline does without hooks in the pipeline itself. Lines are
attributed to blocks by matching the method's output lines against the page's lines in
document order, preferring lines inside the method's kept nodes (this also disambiguates a
"Share" line that occurs twice).
"""

from __future__ import annotations

import base64
import bisect
import hashlib
import html
import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

import lxml.etree as etree

from ..document import BLOCK_TAGS, Document, text_chars
from ..methods import create_method
from ..methods.base import text_pieces
from ..methods.header_lines import header_indexes
from ..methods.line_rules import dangling_labels, headline_index, line_rule
from ..methods.linestats import keep_limit, line_key, normalise_line
from ..methods.template import Unit, extracted_units, page_units, spared_units, template_lines
from ..page.features import PageFeatures, page_features
from .sanitize import (
    align_nodes,
    display_tree,
    fallback_tree,
    sanitize_tree,
    serialize_document,
)

if TYPE_CHECKING:
    from ..article import Article
    from ..denoiser import Denoiser
    from ..page.verdict import PageVerdict

__all__ = [
    "FATES",
    "BlockInfo",
    "PageReport",
    "build_page_report",
    "describe_verdict",
    "render_page_report",
    "write_page_report",
]

#: fate -> (legend label, colour, outline style). Colours: ColorBrewer Dark2, which stays
#: distinguishable for the common colour-vision deficiencies; outline styles differ too.
FATES: dict[str, tuple[str, str, str]] = {
    "kept": ("kept (article text)", "#1b9e77", "solid"),
    "template": ("removed by a site template", "#7570b3", "dashed"),
    "method": ("removed by the extraction method", "#d95f02", "solid"),
    "linestats": ("removed by line statistics", "#e7298a", "dashed"),
}

_EXCERPT = 400
_LINE_EXCERPT = 240


@dataclass(slots=True)
class BlockInfo:
    """One outlined block: where it is, what it holds and what decided its fate."""

    id: int
    tag: str
    label: str
    path: str
    fate: str
    text: str
    chars: int
    subtree_chars: int
    link_chars: int
    links: int
    images: int
    score: float | None
    decided_by: str
    lines: list[dict[str, Any]] = field(default_factory=list)

    @property
    def link_density(self) -> float:
        return self.link_chars / self.subtree_chars if self.subtree_chars else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "tag": self.tag,
            "label": self.label,
            "path": self.path,
            "fate": self.fate,
            "text": self.text,
            "chars": self.chars,
            "subtree_chars": self.subtree_chars,
            "link_chars": self.link_chars,
            "links": self.links,
            "images": self.images,
            "link_density": round(self.link_density, 3),
            "score": None if self.score is None else round(self.score, 4),
            "decided_by": self.decided_by,
            "lines": self.lines,
        }


@dataclass(slots=True)
class PageReport:
    """Everything the HTML report shows, computed once (and usable without the HTML)."""

    url: str
    article: Article
    verdict: PageVerdict
    method: str
    features: PageFeatures
    blocks: list[BlockInfo]
    #: the method's output lines and whether line statistics removed each
    method_lines: list[tuple[str, bool]]
    #: the sanitised page as a complete HTML document (for ``srcdoc``)
    framed_html: str
    #: how the page was analysed: store used, learning, reasons fates may be approximate
    notes: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(FATES, 0)
        for block in self.blocks:
            out[block.fate] += 1
        return out


# -- analysis -------------------------------------------------------------------------------


def build_page_report(
    body: bytes | str,
    url: str = "",
    headers: dict[str, str] | None = None,
    *,
    denoiser: Denoiser,
    learn: bool = False,
) -> PageReport:
    """Run ``denoiser`` on one page the way the pipeline does and record each block's fate.

    ``learn=False`` (the default) leaves the site's learned state untouched: the report
    shows what the store's current templates and line counts do to this page.
    """
    notes: list[str] = []
    doc = denoiser.load(body, url, headers)
    features = page_features(doc)
    root = display_tree(body, headers, doc, max_bytes=denoiser.options.max_bytes)
    shown = align_nodes(root, doc) if root is not None else None
    if shown is None or root is None:
        if root is not None:
            notes.append("shown without the page's inline CSS (its tree could not be aligned)")
        root = fallback_tree(doc)
        shown = align_nodes(root, doc)
    assert shown is not None  # the copy of doc.root aligns by construction

    # counted only when learning: a report must not add to the crawl's verdict counts
    verdict = denoiser.classify_document(doc, count=learn)
    article = denoiser.extract_document(doc, learn=learn, verdict=verdict)
    opts = denoiser.options
    learner = denoiser.learner
    if learner is None:
        notes.append("no store: site templates and line statistics were not applied")
    elif not article.site:
        notes.append("no absolute URL: site templates and line statistics need the page's site")
    if verdict.is_noise:
        notes.append(
            "the page filter judged this a noise page: the crawl would not store it; "
            "the extraction is shown for diagnosis"
        )

    # Template units, matched as extract_document matched them (the tree is unchanged).
    units: list[Unit] = []
    if learner is not None and article.site and opts.templates:
        units = learner.match_templates(article.site, page_units(doc, learner.template_params))

    # The method again on the same tree: the same output as inside extract_document; then
    # the template lines, then line statistics (the lines missing from the article).
    extraction = create_method(opts.method, opts.method_params, warn_ignored=False).extract(doc)
    method_lines = extraction.lines
    extracted = extracted_units(doc, units, extraction.kept)
    is_template = template_lines(method_lines, extracted)
    # near copies the page keeps as its text are no template's blocks here either
    spared = {id(unit) for unit in spared_units(method_lines, extracted)}
    index_of = {el: i for i, el in enumerate(doc.nodes)}
    template_tops = sorted(
        index_of[u.element] for u in units if u.element in index_of and id(u) not in spared
    )
    template_set = set(template_tops)
    ruled = [
        None if t else line_rule(line) for line, t in zip(method_lines, is_template, strict=True)
    ]
    passed = [
        k for k, (t, rule) in enumerate(zip(is_template, ruled, strict=True)) if not (t or rule)
    ]
    for k in passed[len(passed) - dangling_labels([method_lines[k] for k in passed]) :]:
        ruled[k] = "label"
    out_lines = [
        line
        for line, t, rule in zip(method_lines, is_template, ruled, strict=True)
        if not (t or rule)
    ]
    final_lines = article.text.split("\n") if article.text else []
    removed_by_stats = _subsequence_gaps(out_lines, final_lines)
    if removed_by_stats is None:
        notes.append(
            "the method's output could not be matched with the article; fates are approximate"
        )
        removed_by_stats = [False] * len(out_lines)
    header = {} if opts.keep_headline else _dropped_header(out_lines, removed_by_stats, article)
    line_status: list[str] = []
    out_index = 0
    for t, rule in zip(is_template, ruled, strict=True):
        if t or rule:
            line_status.append("template" if t else (rule or ""))
            continue
        if out_index in header:
            line_status.append(header[out_index])
        else:
            line_status.append("linestats" if removed_by_stats[out_index] else "kept")
        out_index += 1

    # Rendered lines of the page, each owned by its innermost block element.
    n = len(doc.nodes)
    block_of = list(range(n))
    for i in range(1, n):
        if doc.nodes[i].tag not in BLOCK_TAGS:
            block_of[i] = block_of[doc.parent[i]]
    page_lines, owners = _page_lines(doc, block_of)
    in_kept = _inside(doc, extraction.kept)
    attributed = _attribute(page_lines, [in_kept[o] for o in owners], method_lines)

    # Per block: its lines and what happened to each.
    status: dict[int, str] = {}
    for j, hits in enumerate(attributed):
        for p in hits:
            status[p] = line_status[j]
    lines_of: dict[int, list[int]] = defaultdict(list)
    for p, owner in enumerate(owners):
        lines_of[owner].append(p)

    counts, rc, limit = _line_counts(denoiser, article.site, page_lines, status)
    method = denoiser.method
    kept_nodes = sorted(extraction.kept)
    blocks: list[tuple[int, BlockInfo]] = []
    for i in template_tops:
        el = doc.nodes[i]
        text = " ".join("".join(el.itertext()).split())
        blocks.append(
            (
                i,
                BlockInfo(
                    id=0,
                    tag=str(el.tag),
                    label=_label(el),
                    path=_path(doc.nodes, doc.parent, i),
                    fate="template",
                    text=text[:_EXCERPT],
                    chars=text_chars(text),
                    subtree_chars=doc.text_len[i],
                    link_chars=doc.link_text_len[i],
                    links=doc.link_count[i],
                    images=doc.image_count[i],
                    score=None,
                    decided_by=_TEMPLATE_DECIDER.format(tag=el.tag, site=article.site),
                ),
            )
        )
    for owner, positions in lines_of.items():
        if owner in template_set:
            continue
        el = doc.nodes[owner]
        states = [status.get(p, "dropped") for p in positions]
        if "kept" in states:
            fate = "kept"
        elif "linestats" in states:
            fate = "linestats"
        elif "template" in states:
            fate = "template"
        else:
            fate = "method"
        line_rows = []
        for p, state in zip(positions, states, strict=True):
            row: dict[str, Any] = {"text": page_lines[p][:_LINE_EXCERPT], "status": state}
            if state in ("kept", "linestats") and counts is not None:
                row["count"] = counts.get(page_lines[p], 0)
            line_rows.append(row)
        text = "\n".join(page_lines[p] for p in positions)
        if fate == "template":
            decider = _TEMPLATE_DECIDER.format(tag=el.tag, site=article.site)
        elif fate == "method" and "copyright" in states:
            decider = "a copyright line: dropped from every method's output"
        elif fate == "method" and "stock" in states:
            decider = "a stock line (such as Advertisement): dropped from every method's output"
        elif fate == "method" and "label" in states:
            decider = "a label ending in a colon left at the end of the text, its list gone"
        elif fate == "method" and "headline" in states:
            decider = "the headline, left out of the text (keep_headline=False)"
        elif fate == "method" and "header" in states:
            decider = (
                "a line of the article's date or author (the published and author fields "
                "hold them), left out of the text (keep_headline=False)"
            )
        else:
            decider = _decider(
                fate, owner, doc, kept_nodes, extraction.scores, method, rc, limit, states
            )
        blocks.append(
            (
                owner,
                BlockInfo(
                    id=0,
                    tag=str(el.tag),
                    label=_label(el),
                    path=_path(doc.nodes, doc.parent, owner),
                    fate=fate,
                    text=text[:_EXCERPT],
                    chars=sum(text_chars(page_lines[p]) for p in positions),
                    subtree_chars=doc.text_len[owner],
                    link_chars=doc.link_text_len[owner],
                    links=doc.link_count[owner],
                    images=doc.image_count[owner],
                    score=extraction.scores.get(owner),
                    decided_by=decider,
                    lines=line_rows,
                ),
            )
        )
    blocks.sort(key=lambda item: item[0])
    # Sanitising first removes any data-denoise-* attributes the page brought along.
    sanitize_tree(root)
    infos = []
    for k, (i0, info) in enumerate(blocks):
        info.id = k
        _annotate(shown[i0], info)
        infos.append(info)
    framed = serialize_document(root, _frame_css())
    if rc is not None:
        notes.insert(0, f"site {article.site}: line statistics learned from {rc} pages")
    return PageReport(
        url=doc.url,
        article=article,
        verdict=verdict,
        method=method,
        features=features,
        blocks=infos,
        method_lines=list(zip(out_lines, removed_by_stats, strict=True)),
        framed_html=framed,
        notes=notes,
    )


#: Children that end a run of loose text (``<br>`` too: it ends a line).
_RUN_BREAKS = BLOCK_TAGS
#: What a line's status means for the run of text that shows it.
_STATUS_FATE = {
    "kept": "kept",
    "linestats": "linestats",
    "template": "template",
    "copyright": "method",
    "stock": "method",
    "label": "method",
    "headline": "method",
    "header": "method",
    "dropped": "method",
}
_TEMPLATE_DECIDER = (
    "template library of {site}: the unit <{tag}> matches a template learned from this site's pages"
)


def _annotate(el: etree._Element, info: BlockInfo) -> None:
    """Mark a block in the shown page: the element itself, or for a container that mixes
    its own loose text with block children, each run of that text.

    Tinting the whole container would paint its children (judged separately) in the
    container's colour too: a ``<div>`` whose one loose line was removed by line statistics
    would make the kept paragraphs inside it look removed.
    """
    el.set("data-denoise-id", str(info.id))
    if info.fate == "template" or not any(
        isinstance(c.tag, str) and c.tag in _RUN_BREAKS and c.tag != "br" for c in el
    ):
        el.set("data-denoise-fate", info.fate)
        return
    status = {row["text"]: row["status"] for row in info.lines}
    for span in _wrap_runs(el):
        text = " ".join("".join(_visible_text(span)).split())
        state = status.get(text)
        if state is None:
            state = next(
                (st for line, st in status.items() if line and (line in text or text in line)),
                None,
            )
        span.set("data-denoise-id", str(info.id))
        span.set("data-denoise-fate", _STATUS_FATE[state] if state else info.fate)


def _visible_text(el: etree._Element) -> list[str]:
    parts = [el.text or ""]
    for child in el.iterdescendants():
        if child.tag != "style":
            parts.append(child.text or "")
        parts.append(child.tail or "")
    return parts


def _wrap_runs(el: etree._Element) -> list[etree._Element]:
    """Wrap each run of loose text and inline children between ``el``'s block children in a
    ``<span>`` (runs without visible text are left alone); returns the spans."""
    spans: list[etree._Element] = []
    after: etree._Element | None = None  # the block child the current run follows
    text: str | None = el.text
    el.text = None
    members: list[etree._Element] = []

    def close() -> None:
        visible = (text or "").strip() or any(
            (m.tail or "").strip() or (m.tag != "style" and "".join(_visible_text(m)).strip())
            for m in members
        )
        if not visible:
            if after is None:
                el.text = text
            else:
                after.tail = text
            return
        span = etree.Element("span")
        span.text = text
        el.insert(el.index(after) + 1 if after is not None else 0, span)
        for member in members:
            span.append(member)  # moves the member with its tail
        spans.append(span)

    for child in list(el):
        if isinstance(child.tag, str) and child.tag in _RUN_BREAKS:
            close()
            after, text, members = child, child.tail, []
            child.tail = None
        else:
            members.append(child)
    close()
    return spans


def _subsequence_gaps(full: list[str], kept: list[str]) -> list[bool] | None:
    """For each line of ``full``, whether it is missing from ``kept`` (a subsequence of it);
    ``None`` when ``kept`` is not a subsequence (the re-run diverged)."""
    gaps = [True] * len(full)
    k = 0
    for j, line in enumerate(full):
        if k < len(kept) and kept[k] == line:
            gaps[j] = False
            k += 1
    return gaps if k == len(kept) else None


def _page_lines(doc: Document, block_of: list[int]) -> tuple[list[str], list[int]]:
    """Every rendered line of the page (as :meth:`Document.lines` renders it) and the block
    element that owns it."""
    lines: list[str] = []
    owners: list[int] = []
    current = -1
    buf: list[str] = []
    owner = 0

    def flush() -> None:
        if buf:
            line = " ".join("".join(buf).split())
            if line:
                lines.append(line)
                owners.append(owner)
            buf.clear()

    for piece in text_pieces(doc, 0):
        if piece.line != current:
            flush()
            current = piece.line
            owner = block_of[piece.owner]
        buf.append(piece.text)
    flush()
    return lines, owners


def _inside(doc: Document, kept: list[int]) -> list[bool]:
    """Whether each node lies in the subtree of a node the method kept."""
    n = len(doc.nodes)
    delta = [0] * (n + 1)
    for k in kept:
        if 0 <= k < n:
            delta[k] += 1
            delta[doc.end[k] + 1] -= 1
    out = [False] * n
    running = 0
    for i in range(n):
        running += delta[i]
        out[i] = running > 0
    return out


def _attribute(
    page_lines: list[str], preferred: list[bool], out_lines: list[str]
) -> list[list[int]]:
    """Page line positions each output line came from, matched in document order.

    Exact text first (in a kept subtree if possible, then anywhere after the last match,
    then anywhere), then a page line containing the output line (methods that keep part of
    a line), then consecutive page lines contained in it (methods that join lines).
    """
    where: dict[str, list[int]] = defaultdict(list)
    for p, line in enumerate(page_lines):
        where[line].append(p)
    used: set[int] = set()
    pointer = 0
    out: list[list[int]] = []
    for line in out_lines:
        hit = _exact(where.get(line, []), pointer, preferred, used)
        hits = [hit] if hit is not None else _partial(page_lines, line, pointer, used)
        if hits:
            used.update(hits)
            pointer = hits[-1] + 1
        out.append(hits)
    return out


def _exact(positions: list[int], pointer: int, preferred: list[bool], used: set[int]) -> int | None:
    if not positions:
        return None
    start = bisect.bisect_left(positions, pointer)
    after = [p for p in positions[start:] if p not in used]
    for p in after:
        if preferred[p]:
            return p
    if after:
        return after[0]
    free = [p for p in positions if p not in used]
    for p in free:
        if preferred[p]:
            return p
    return free[0] if free else None


def _partial(page_lines: list[str], line: str, pointer: int, used: set[int]) -> list[int]:
    order = list(range(pointer, len(page_lines))) + list(range(pointer))
    for p in order:
        if p not in used and line in page_lines[p]:
            return [p]
    for p in order:
        if p in used or page_lines[p] not in line:
            continue
        run = [p]
        q = p + 1
        while q < len(page_lines) and q not in used and page_lines[q] in line:
            run.append(q)
            q += 1
        return run
    return []


def _line_counts(
    denoiser: Denoiser, site: str, page_lines: list[str], status: dict[int, str]
) -> tuple[dict[str, int] | None, int | None, int | None]:
    """LC of the page's output lines, RC and the keep limit, from the store (read only)."""
    learner = denoiser.learner
    if learner is None or not site:
        return None, None, None
    # Unflushed learning of this process would be missing from the snapshot.
    denoiser.flush()
    snapshot = learner.store.load_site(site)
    rc = snapshot.pages_processed
    wanted = {page_lines[p] for p in status}
    counts = {line: snapshot.line_counts.get(line_key(normalise_line(line)), 0) for line in wanted}
    return counts, rc, keep_limit(rc, learner.line_params)


def _dropped_header(out_lines: list[str], gaps: list[bool], article: Article) -> dict[int, str]:
    """Which of the lines missing from the article are its header, which
    ``keep_headline=False`` left out (the rest went to line statistics), each as
    ``"headline"`` or ``"header"`` (a line of its date or author): the lines
    :func:`~..methods.header_lines.without_header` picks among those line statistics
    passed, taken as every line in the article and every missing line it would pick."""
    title, published, author = article.title, article.published, article.author
    passed = [
        k
        for k, (line, gone) in enumerate(zip(out_lines, gaps, strict=True))
        if not gone or header_indexes([line], title, published, author)
    ]
    lines = [out_lines[k] for k in passed]
    headline = headline_index(lines, title)
    return {
        passed[i]: "headline" if i == headline else "header"
        for i in header_indexes(lines, title, published, author)
        if gaps[passed[i]]
    }


def _decider(
    fate: str,
    owner: int,
    doc: Document,
    kept_nodes: list[int],
    scores: dict[int, float],
    method: str,
    rc: int | None,
    limit: int | None,
    states: list[str],
) -> str:
    container = _kept_container(doc, kept_nodes, owner)
    if fate == "linestats":
        where = f" of {rc} learned pages" if rc is not None else ""
        bound = f" (more than {limit} is noise)" if limit is not None else ""
        return f"line statistics: each line recurs on too many pages{where}{bound}"
    if fate == "kept":
        text = f"{method} kept it"
        if container is not None:
            el = doc.nodes[container]
            score = scores.get(container)
            text += f" as part of {_label(el)}"
            if score is not None:
                text += f" (score {score:.4g})"
        if "linestats" in states:
            text += "; some of its lines were removed by line statistics"
        return text
    if container is not None:
        return f"{method} kept {_label(doc.nodes[container])} around it but not this text"
    return f"{method} did not select it"


def _kept_container(doc: Document, kept_nodes: list[int], i: int) -> int | None:
    """The kept node whose subtree holds node ``i`` (kept nodes are disjoint subtrees or
    nested; the innermost one is the most specific decision)."""
    pos = bisect.bisect_right(kept_nodes, i)
    for k in reversed(kept_nodes[:pos]):
        if i <= doc.end[k]:
            return k
    return None


def _label(el: etree._Element) -> str:
    """``<tag#id.class1.class2>``, cut to a readable length."""
    label = str(el.tag)
    ident = (el.get("id") or "").strip()
    if ident:
        label += "#" + ident.split()[0][:40]
    classes = (el.get("class") or "").split()[:3]
    for cls in classes:
        label += "." + cls[:30]
    return f"<{label}>"


def _path(nodes: list[etree._Element], parent: list[int], i: int, depth: int = 5) -> str:
    parts: list[str] = []
    j = i
    while j >= 0 and len(parts) < depth:
        parts.append(_label(nodes[j]).strip("<>"))
        j = parent[j] if j > 0 else -1
    if j >= 0:
        parts.append("…")
    return " > ".join(reversed(parts))


# -- HTML -----------------------------------------------------------------------------------


def _frame_css() -> str:
    """Outlines and tints by fate inside the framed page (its only addition to the page)."""
    rules = []
    for fate, (_, colour, style) in FATES.items():
        r, g, b = (int(colour[k : k + 2], 16) for k in (1, 3, 5))
        rules.append(
            f'[data-denoise-fate="{fate}"]{{outline:2px {style} {colour} !important;'
            "outline-offset:-1px !important}"
            f'[data-denoise-fate="{fate}"]:not(body){{'
            f"background-color:rgba({r},{g},{b},.13) !important}}"
        )
    rules.append(
        "[data-denoise-selected]{outline-width:4px !important;"
        "box-shadow:0 0 0 3px #ffd400 !important}"
        "[data-denoise-fate]{cursor:pointer}"
    )
    return "".join(rules)


_OUTER_CSS = """
*{box-sizing:border-box}
html,body{margin:0;height:100%}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC",
 sans-serif;color:#1d1d1f;background:#f4f4f6;display:flex;flex-direction:column}
header{padding:8px 14px;background:#fff;border-bottom:1px solid #d9d9de}
header h1{font-size:16px;margin:0 0 2px}
.url{font:12px ui-monospace,monospace;color:#555;word-break:break-all}
.legend{display:flex;flex-wrap:wrap;gap:6px 16px;margin:6px 0 0;padding:0;list-style:none}
.legend li{display:flex;align-items:center;gap:6px}
.chip{display:inline-block;width:14px;height:14px;border-radius:3px;flex:none}
.banner{background:#b00020;color:#fff;padding:6px 14px;font-weight:600}
.banner.ok{background:#1b6e3c}
main{flex:1;display:flex;min-height:0}
.page{flex:1;min-width:0;display:flex;padding:8px}
.page iframe{flex:1;border:1px solid #c8c8ce;background:#fff;width:100%;height:100%}
aside{width:440px;flex:none;overflow:auto;background:#fff;border-left:1px solid #d9d9de;
 padding:6px 12px 24px}
aside h2{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:#555;
 margin:14px 0 6px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 10px;margin:0}
dt{color:#666}
dd{margin:0;word-break:break-word}
.hint{color:#777;margin:0}
#block-panel{position:sticky;top:-6px;z-index:1;background:#fff;max-height:48vh;overflow:auto;
 margin:0 -12px;padding:1px 12px 8px;border-bottom:1px solid #e3e3e8}
.fate{font-weight:600}
.text p{margin:0 0 6px}
.text del{color:#e7298a}
.lines{margin:6px 0 0;padding-left:18px}
.lines li{margin-bottom:3px;word-break:break-word}
#block-list{list-style:none;padding:0;margin:0}
#block-list button{display:block;width:100%;text-align:left;border:0;border-left:5px solid;
 background:none;padding:2px 6px;margin:1px 0;font:inherit;font-size:12px;cursor:pointer;
 white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
#block-list button:hover,#block-list button.sel{background:#fff3b0}
.notes{margin:0;padding-left:18px;color:#555}
details summary{cursor:pointer;color:#555}
"""

_OUTER_JS = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("denoise-data").textContent);
  var blocks = data.blocks, labels = data.fates;
  var frame = document.getElementById("denoise-frame");
  var details = document.getElementById("block-details");
  var list = document.getElementById("block-list");
  var fdoc = null, pinned = null, selected = null;
  function add(dl, key, value) {
    if (value === null || value === undefined || value === "") { return; }
    var dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = key; dd.textContent = String(value);
    dl.appendChild(dt); dl.appendChild(dd);
  }
  function inFrame(id) {
    return fdoc ? fdoc.querySelector('[data-denoise-id="' + id + '"]') : null;
  }
  function show(id, scroll) {
    var b = blocks[id];
    if (!b) { return; }
    if (selected !== null) {
      var old = inFrame(selected);
      if (old) { old.removeAttribute("data-denoise-selected"); }
      var oldBtn = list.querySelector('[data-id="' + selected + '"]');
      if (oldBtn) { oldBtn.classList.remove("sel"); }
    }
    selected = id;
    var el = inFrame(id);
    if (el) {
      el.setAttribute("data-denoise-selected", "");
      if (scroll) { el.scrollIntoView({block: "center"}); }
    }
    var btn = list.querySelector('[data-id="' + id + '"]');
    if (btn) {
      btn.classList.add("sel");
      if (!scroll) { btn.scrollIntoView({block: "nearest"}); }
    }
    details.textContent = "";
    var dl = document.createElement("dl");
    var fate = document.createElement("dd"), fateKey = document.createElement("dt");
    fateKey.textContent = "fate"; fate.textContent = labels[b.fate][0];
    fate.className = "fate"; fate.style.color = labels[b.fate][1];
    dl.appendChild(fateKey); dl.appendChild(fate);
    add(dl, "decided by", b.decided_by);
    add(dl, "element", b.label);
    add(dl, "path", b.path);
    add(dl, "own text", b.chars + " chars");
    add(dl, "subtree text", b.subtree_chars + " chars, " + b.link_chars + " in links");
    add(dl, "link density", b.link_density);
    add(dl, "links / images", b.links + " / " + b.images);
    add(dl, "method score", b.score);
    details.appendChild(dl);
    if (b.lines.length) {
      var ol = document.createElement("ol");
      ol.className = "lines";
      b.lines.forEach(function (line) {
        var li = document.createElement("li");
        var extra = line.count !== undefined ? " (on " + line.count + " pages)" : "";
        li.textContent = "[" + line.status + extra + "] " + line.text;
        ol.appendChild(li);
      });
      details.appendChild(ol);
    } else {
      var p = document.createElement("p");
      p.textContent = b.text;
      details.appendChild(p);
    }
  }
  list.addEventListener("click", function (e) {
    var t = e.target.closest("[data-id]");
    if (t) { pinned = +t.getAttribute("data-id"); show(pinned, true); }
  });
  list.addEventListener("mouseover", function (e) {
    var t = e.target.closest("[data-id]");
    if (t && pinned === null) { show(+t.getAttribute("data-id"), false); }
  });
  function owner(target) {
    return target && target.closest ? target.closest("[data-denoise-id]") : null;
  }
  function hook() {
    var d = null;
    try { d = frame.contentDocument; } catch (err) { d = null; }
    if (!d || d === fdoc || !d.body || d.URL !== "about:srcdoc") { return; }
    fdoc = d;
    d.addEventListener("mouseover", function (e) {
      var el = owner(e.target);
      if (el && pinned === null) { show(+el.getAttribute("data-denoise-id"), false); }
    });
    d.addEventListener("click", function (e) {
      e.preventDefault();
      var el = owner(e.target);
      pinned = el ? +el.getAttribute("data-denoise-id") : null;
      if (el) { show(pinned, false); }
    }, true);
    // The article is what the report is about: start there rather than at the masthead
    // (centred: a page's sticky header would cover a block scrolled to the top).
    var first = d.querySelector('[data-denoise-fate="kept"]');
    if (first && first !== d.body) { first.scrollIntoView({block: "center"}); }
    var root = document.documentElement;
    var ids = {};
    Array.prototype.forEach.call(d.querySelectorAll("[data-denoise-id]"), function (el) {
      ids[el.getAttribute("data-denoise-id")] = true;
    });
    root.setAttribute("data-frame-blocks", Object.keys(ids).length);
    root.setAttribute("data-frame-scripts", d.querySelectorAll("script").length);
    root.setAttribute("data-frame-title", d.title);
    root.setAttribute("data-frame-body", d.body.childElementCount);
  }
  frame.addEventListener("load", hook);
  hook();
  document.documentElement.setAttribute("data-report-ready", "1");
})();
"""


def describe_verdict(verdict: PageVerdict) -> str:
    """The page filter's verdict in words: which stage decided, and how sure it was."""
    kind = "noise" if verdict.is_noise else "article"
    if verdict.reason == "article":
        return "article (no rule fired, no page model)"
    if verdict.reason == "model":
        return f"{kind} (page model, noise probability {verdict.score:.2f})"
    if verdict.reason == "declared_article":
        return (
            f"article (declared with a publication time; the page model's noise "
            f"probability {verdict.score:.2f} overruled)"
        )
    return f"{kind} (rule {verdict.reason})"


def _json_for_script(value: Any) -> str:
    """JSON safe inside ``<script type="application/json">`` (no ``</script>``, no ``<!--``)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _script_hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "sha256-" + base64.b64encode(digest).decode("ascii")


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def render_page_report(report: PageReport) -> str:
    """The report as one self-contained HTML document (see the module docstring)."""
    art = report.article
    verdict = report.verdict
    counts = report.counts()
    fate_table = {
        fate: [label if fate != "method" else f"removed by the method ({report.method})", colour]
        for fate, (label, colour, _) in FATES.items()
    }
    data = {
        "fates": fate_table,
        "blocks": [b.as_dict() for b in report.blocks],
    }
    legend = "".join(
        f'<li><span class="chip" style="background:{colour}"></span>'
        f"{_e(fate_table[fate][0])} <b>{counts[fate]}</b></li>"
        for fate, (_, colour, _) in FATES.items()
    )
    if verdict.is_noise:
        banner = (
            f'<div class="banner" role="alert">Page judged noise by the page filter: '
            f"{_e(describe_verdict(verdict))}. The crawl would not store it; the extraction "
            "is shown for diagnosis.</div>"
        )
    else:
        banner = ""
    meta_rows = [
        ("title", art.title),
        ("published", art.published.isoformat() if art.published else None),
        ("author", art.author),
        ("lang", art.lang),
        ("site", art.site),
        ("method", art.method),
        ("verdict", describe_verdict(verdict)),
        ("removed", f"{art.removed_templates} template lines, {art.removed_lines} noise lines"),
        ("warnings", ", ".join(art.warnings)),
    ]
    meta = "".join(
        f"<dt>{_e(k)}</dt><dd>{_e(v) if v else '<i>none</i>'}</dd>" for k, v in meta_rows
    )
    text_parts: list[str] = []
    for line, removed in report.method_lines:
        if removed:
            text_parts.append(f'<p><del title="removed by line statistics">{_e(line)}</del></p>')
        else:
            text_parts.append(f"<p>{_e(line)}</p>")
    text_html = "".join(text_parts) or "<p><i>no text extracted</i></p>"
    features = "".join(
        f"<dt>{_e(name)}</dt><dd>{_e(round(value, 3) if isinstance(value, float) else value)}</dd>"
        for name, value in zip(
            report.features.__dataclass_fields__, report.features.vector(), strict=True
        )
    )
    block_items = "".join(
        f'<li><button type="button" data-id="{b.id}" style="border-color:{FATES[b.fate][1]}" '
        f'title="{_e(fate_table[b.fate][0])}">{_e(b.label)} {_e(b.text[:90])}</button></li>'
        for b in report.blocks
    )
    notes = "".join(f"<li>{_e(note)}</li>" for note in report.notes)
    script = _OUTER_JS
    csp = (
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
        f"script-src '{_script_hash(script)}'; frame-src 'self'; base-uri 'none'; "
        "form-action 'none'"
    )
    page_title = art.title or report.url or "page"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{_e(csp)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Denoise report: {_e(page_title[:120])}</title>
<style>{_OUTER_CSS}</style>
</head>
<body>
<header>
<h1>What scrapy-denoise decided</h1>
<div class="url" title="{_e(report.url)}">{_e(unquote(report.url)) or "<i>no URL</i>"}</div>
<ul class="legend" id="legend">{legend}</ul>
</header>
{banner}
<main>
<section class="page">
<iframe id="denoise-frame" title="the page as a reader sees it, blocks coloured by fate"
 sandbox="allow-same-origin" referrerpolicy="no-referrer"
 srcdoc="{_e(report.framed_html)}"></iframe>
</section>
<aside>
<div id="block-panel">
<h2>Block</h2>
<div id="block-details"><p class="hint">Point at a block in the page (click to pin it, click
outside blocks to unpin) or pick one from the list below.</p></div>
</div>
<h2>Article</h2>
<dl>{meta}</dl>
<h2>Extracted text</h2>
<div class="text">{text_html}</div>
<details><summary>page filter features</summary><dl>{features}</dl></details>
<h2>Notes</h2>
<ul class="notes">{notes or "<li>none</li>"}</ul>
<h2>Blocks ({len(report.blocks)})</h2>
<ol id="block-list">{block_items}</ol>
</aside>
</main>
<script type="application/json" id="denoise-data">{_json_for_script(data)}</script>
<script>{script}</script>
</body>
</html>
"""


def write_page_report(report: PageReport, path: str | Path) -> Path:
    out = Path(path)
    out.write_text(render_page_report(report), encoding="utf-8")
    return out
