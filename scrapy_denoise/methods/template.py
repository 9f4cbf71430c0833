"""Per-site template library: "common noise" learned in batches of pages, then removed.

The method of template-and-block-svm-denoising.txt (sections 4 and 7), as restated for this
project:

* A page is a list of *units* (the paper's "leaf tags"): a tag name plus its normalised
  text. A unit is a **maximal element whose descendants are all inline** (phrasing)
  elements, so ``<p>Read <a>more</a> here</p>`` is one unit ``("p", "Read more here")``
  and a nav ``<li><a>Home</a></li>`` is the unit ``("li", "Home")``. Counting the literal
  DOM leaves instead would split every paragraph with a link into fragments that recur by
  chance ("here", "more") and would miss the paragraph as a whole. Text directly inside an
  element that also has block children belongs to no unit; it is never a template.
* Batch cache S: each unit of a page is compared with S; same tag and similar text
  increments that entry's frequency F (at most once per page), else the unit is added.
  After N1 = 10 pages the entries with F >= N2 = 3 become templates and S is cleared.
* Similar: edit distance D <= min(len(a), len(b)) / 8, texts of 8 characters or fewer
  only when equal. (The paper's prose says one more edit per 8 characters *beyond* 8, its
  formula says len/8; at length 8 the formula alone would allow one edit, so the
  "8 or fewer must be equal" rule is applied first, then floor(len / 8).)
* Removal: every unit whose tag and text match a template of the site is common noise,
  **if the template is site-wide** (ours, not the paper's): its frequency (the sum of F
  over the batches that promoted it) must be at least ``min_share`` (0.5) of the site's
  most frequent template, which stands for "every page", since some nav or footer unit is
  on all of them.

  Why: N2 = 3 of 10 is a *local* test, and sites publish in series. In path (date) order a
  batch of 10 often holds 3 or more posts of one kind, so their recurring headings and
  sentences became templates and were cut from every article: on flink-blog ("Bug",
  "Improvement", "You can find the binaries on the updated Downloads page.", Maven
  ``<pre>`` blocks, up to 10 of 10 pages of a batch of bugfix releases) and zjuvai-blog
  (the paper-review headings "总结", "相关工作", "论文链接"). Raising N2 does not help, the
  clusters fill whole batches. Site-wide share does separate them (re-crawl, every
  template of N2 = 3 labelled by whether it is a line of some article's ground truth):
  zjuvai-blog, where 0.5 was chosen, has boilerplate at shares 0.76-1.0 and article text
  at 0.10 or less; flink-blog, checked afterwards, boilerplate 0.88-1.0 (the footer, "Edit
  This Page", "On This Page") and article text 0.18 or less. Learning is unchanged (the
  library still holds every promoted template, so shares can rise as a crawl goes on);
  only removal is filtered. See BENCHMARKS.md, "Site learning on whole sites".

  The paper deletes these tags from the tree before the other methods run. We find them
  before and drop their text from the method's output (:func:`template_lines`) instead,
  because the methods judge a block by its share of the *whole page* (the block SVM's
  ratios and reading position, correlativity's context), and that is the page they were
  designed and trained on. With the tags deleted, a post's last paragraph came to sit at
  the very end of the page, where the block SVM expects footers, and was dropped
  (re-crawl, templates only, shingle F1, deleting vs dropping lines vs no templates):
  zjuvai-blog block SVM 0.942 / 0.963 / 0.959, correlativity 0.989 / 0.991 / 0.987;
  flink-blog block SVM 0.989 / 0.986 / 0.984, correlativity 0.973 / 0.981 / 0.980.

Matching stays fast with thousands of entries: an exact (tag, text) dictionary hit first,
then rapidfuzz's cut-off Levenshtein only over entries of the same tag whose length can be
within the allowed distance (entries are bucketed by length).

Nothing here knows about storage: :class:`SiteTemplates` is built from plain entries and
reports what changed, and :mod:`scrapy_denoise.learning` moves that to and from the store.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from lxml import etree
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from ..document import Document
from ..tokens import TOKEN

__all__ = [
    "INLINE_TAGS",
    "SKIPPED_TAGS",
    "Entry",
    "SiteTemplates",
    "TemplateBatch",
    "TemplateIndex",
    "TemplateParams",
    "Unit",
    "extracted_units",
    "page_units",
    "similar",
    "spared_units",
    "template_lines",
]

#: Phrasing elements: a unit may contain these and still be one unit. Anything else
#: (including unknown custom elements) starts a new block.
INLINE_TAGS = frozenset(
    [
        "a",
        "abbr",
        "acronym",
        "b",
        "bdi",
        "bdo",
        "big",
        "br",
        "button",
        "cite",
        "code",
        "data",
        "del",
        "dfn",
        "em",
        "font",
        "i",
        "img",
        "input",
        "ins",
        "kbd",
        "label",
        "mark",
        "nobr",
        "q",
        "rp",
        "rt",
        "ruby",
        "s",
        "samp",
        "select",
        "small",
        "span",
        "strike",
        "strong",
        "sub",
        "sup",
        "textarea",
        "time",
        "tt",
        "u",
        "var",
        "wbr",
    ]
)

#: Never reader-visible; neither units nor part of a unit's text.
SKIPPED_TAGS = frozenset(["head", "script", "style", "noscript", "template"])


@dataclass(frozen=True, slots=True)
class TemplateParams:
    #: N1: pages per batch
    batch_pages: int = 10
    #: N2: frequency within a batch that makes an entry a template
    min_frequency: int = 3
    #: one edit allowed per this many characters of the shorter text ...
    distance_divisor: int = 8
    #: ... but texts this short or shorter must be equal
    exact_up_to: int = 8
    #: units with shorter text are ignored (not learned, not removed)
    min_chars: int = 1
    #: units with longer text are ignored: article paragraphs never recur in N2 of N1
    #: pages, and skipping them keeps S (persisted on every flush) small
    max_chars: int = 2000
    #: a template is removed only when its frequency is at least this share of the site's
    #: most frequent template (site-wide, not a series of posts; see the module docstring);
    #: 0 removes every template, as the paper does
    min_share: float = 0.5
    #: a page adds at most this many units to the batch, its first and last halves (None:
    #: all). Each unit is matched against every entry of the batch of its tag and about its
    #: length, so a batch of pages of thousands of similar units is quadratic: ten pages of
    #: 2,000 distinct paragraphs took 4 s for the tenth. A site's common noise, its header,
    #: menus, sidebar and footer, sits at the two ends of a page's units; the shared sites'
    #: article pages have at most 413 units, 99 % of the datasets' development pages 812.
    max_units: int | None = 600

    def allowed_distance(self, shorter: int) -> int:
        """Edits allowed between two texts whose shorter one has ``shorter`` characters."""
        if shorter <= self.exact_up_to:
            return 0
        return shorter // self.distance_divisor


@dataclass(slots=True)
class Entry:
    """A (tag, text) with a frequency: a batch-cache entry or a learned template."""

    tag: str
    text: str
    frequency: int = 1


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit of a page: the element, its tag name and its normalised text."""

    element: etree._Element
    tag: str
    text: str
    #: set by :meth:`SiteTemplates.matches` on a unit that matched a template by edit
    #: distance only, not word for word (see :func:`spared_units`)
    near: bool = False


def similar(a: str, b: str, params: TemplateParams) -> bool:
    """The paper's "content is similar" test (tag names are compared by the caller)."""
    allowed = params.allowed_distance(min(len(a), len(b)))
    if abs(len(a) - len(b)) > allowed:
        return False
    return Levenshtein.distance(a, b, score_cutoff=allowed) <= allowed


class TemplateIndex:
    """Entries searchable by exact (tag, text), then by edit distance among the texts of the
    same tag within reach in length."""

    __slots__ = ("_by_tag", "_exact", "_params", "entries")

    def __init__(self, params: TemplateParams, entries: Iterable[Entry] = ()) -> None:
        self._params = params
        self.entries: list[Entry] = []
        self._exact: dict[tuple[str, str], int] = {}
        # tag -> (text lengths, entry indexes, texts), parallel and sorted by length, then
        # index: the candidates of a lookup are one slice, scored by rapidfuzz in one call
        # (one call per length took 440 calls a page, more than the edit distances)
        self._by_tag: dict[str, tuple[list[int], list[int], list[str]]] = {}
        for entry in entries:
            self.add(entry)

    def __len__(self) -> int:
        return len(self.entries)

    def add(self, entry: Entry) -> int:
        index = len(self.entries)
        self.entries.append(entry)
        self._exact.setdefault((entry.tag, entry.text), index)
        lengths, ids, texts = self._by_tag.setdefault(entry.tag, ([], [], []))
        m = len(entry.text)
        at = bisect_right(lengths, m)  # after equal lengths: their indexes are smaller
        lengths.insert(at, m)
        ids.insert(at, index)
        texts.insert(at, entry.text)
        return index

    def find(self, tag: str, text: str) -> int | None:
        """Index of the most similar entry (fewest edits, then earliest), or ``None``."""
        hit = self._exact.get((tag, text))
        if hit is not None:
            return hit
        by_tag = self._by_tag.get(tag)
        if by_tag is None:
            return None
        n = len(text)
        params = self._params
        reach = params.allowed_distance(n)
        if not reach:
            return None  # short texts must be equal, and the exact lookup missed
        lengths, ids, texts = by_tag
        # A longer candidate is bounded by allowed(n), a shorter one by allowed(m) <=
        # allowed(n): lengths outside n +- allowed(n) can never be within distance.
        lo = bisect_left(lengths, n - reach)
        hi = bisect_right(lengths, n + reach, lo)
        if lo == hi:
            return None
        best: int | None = None
        best_distance = reach + 1
        for _, distance, position in process.extract(
            text, texts[lo:hi], scorer=Levenshtein.distance, score_cutoff=reach, limit=None
        ):
            k = lo + position
            if distance > params.allowed_distance(min(n, lengths[k])):
                continue
            index = ids[k]
            if distance < best_distance or (
                distance == best_distance and best is not None and index < best
            ):
                best, best_distance = index, int(distance)
        return best


class TemplateBatch:
    """The batch cache S of one site (and one learning process)."""

    __slots__ = ("index", "pages", "params")

    def __init__(
        self, params: TemplateParams, pages: int = 0, entries: Iterable[Entry] = ()
    ) -> None:
        self.params = params
        self.pages = pages
        self.index = TemplateIndex(params, entries)

    def learn(self, units: Iterable[Unit]) -> list[Entry]:
        """Count one page; returns the entries promoted when this page closes the batch."""
        touched: set[int] = set()
        index = self.index
        for unit in _ends(list(units), self.params.max_units):
            found = index.find(unit.tag, unit.text)
            if found is None:
                touched.add(index.add(Entry(unit.tag, unit.text, 1)))
            elif found not in touched:
                # A nav repeating "More" five times is one page's evidence, not five.
                touched.add(found)
                index.entries[found].frequency += 1
        self.pages += 1
        if self.pages < self.params.batch_pages:
            return []
        promoted = [e for e in index.entries if e.frequency >= self.params.min_frequency]
        self.pages = 0
        self.index = TemplateIndex(self.params)
        return promoted


def _ends(units: list[Unit], cap: int | None) -> list[Unit]:
    """The first and last ``cap / 2`` units (all of them when there are no more than
    ``cap``): see :attr:`TemplateParams.max_units`."""
    if cap is None or len(units) <= cap:
        return units
    head = cap // 2
    return units[:head] + units[len(units) - (cap - head) :]


class SiteTemplates:
    """One site's template library and batch in memory, plus what changed since saved."""

    __slots__ = ("_max_frequency", "_pending", "batch", "batch_dirty", "library", "params")

    def __init__(
        self,
        params: TemplateParams,
        templates: Iterable[Entry] = (),
        batch_pages: int = 0,
        batch_entries: Iterable[Entry] = (),
    ) -> None:
        self.params = params
        self.library = TemplateIndex(params, templates)
        self.batch = TemplateBatch(params, batch_pages, batch_entries)
        self.batch_dirty = False
        self._pending: dict[tuple[str, str], int] = {}
        self._max_frequency = max((e.frequency for e in self.library.entries), default=0)

    def learn(self, units: Iterable[Unit]) -> int:
        """Add one page (its :func:`page_units`) to the batch; returns how many entries the
        batch promoted when this page closed it (new templates and known ones strengthened;
        0 mid-batch)."""
        promoted = self.batch.learn(units)
        self.batch_dirty = True
        for entry in promoted:
            found = self.library.find(entry.tag, entry.text)
            if found is None:
                template = Entry(entry.tag, entry.text, entry.frequency)
                self.library.add(template)
            else:
                # Already a template (maybe learned by another process): strengthen it
                # rather than store a near-duplicate.
                template = self.library.entries[found]
                template.frequency += entry.frequency
            key = (template.tag, template.text)
            self._max_frequency = max(self._max_frequency, template.frequency)
            self._pending[key] = self._pending.get(key, 0) + entry.frequency
        return len(promoted)

    def is_site_wide(self, template: Entry) -> bool:
        """Whether ``template`` recurs across the site rather than in a series of posts."""
        return template.frequency >= self.params.min_share * self._max_frequency

    def matches(self, units: Iterable[Unit]) -> list[Unit]:
        """The units that match a site-wide template: the page's common noise."""
        if not len(self.library):
            return []
        entries = self.library.entries
        found_units = []
        for unit in units:
            found = self.library.find(unit.tag, unit.text)
            if found is not None and self.is_site_wide(entries[found]):
                exact = entries[found].text == unit.text  # (the index searched this tag only)
                found_units.append(unit if exact else replace(unit, near=True))
        return found_units

    def pending_templates(self) -> list[Entry]:
        """Templates learned since this object was loaded, ``frequency`` being the increment
        (a flush writes them and then drops this object)."""
        return [Entry(tag, text, n) for (tag, text), n in self._pending.items()]

    def batch_entries(self) -> list[Entry]:
        return list(self.batch.index.entries)


def page_units(doc: Document, params: TemplateParams | None = None) -> list[Unit]:
    """The page's units in document order (see the module docstring for the definition).

    Read from the Document's index arrays (tags, texts, tails, subtree ends), not the lxml
    tree: every element is visited twice, and lxml builds a new string on each ``.tag`` or
    ``.text`` access, which made this walk cost as much as the block classifier.
    """
    params = params or TemplateParams()
    tags, parent, end, texts = doc.tags, doc.parent, doc.end, doc.texts
    n = len(tags)
    # Reverse document order visits children before parents: a bottom-up pass, no recursion.
    inline_only = [True] * n
    for i in range(n - 1, 0, -1):
        tag = tags[i]
        if tag in SKIPPED_TAGS:
            continue
        if tag not in INLINE_TAGS or not inline_only[i]:
            inline_only[parent[i]] = False
    units: list[Unit] = []
    i = 0
    while i < n:
        tag = tags[i]
        if tag in SKIPPED_TAGS:
            i = end[i] + 1
        elif inline_only[i]:
            # most units are leaves (a link, a span): their text is the node's own
            raw = (texts[i] or "") if end[i] == i else _unit_text(doc, i)
            text = " ".join(raw.split())
            if params.min_chars <= len(text) <= params.max_chars:
                units.append(Unit(doc.nodes[i], tag, text))
            i = end[i] + 1
        else:
            i += 1
    return units


def _unit_text(doc: Document, i: int) -> str:
    """Reader-visible text of node ``i``'s subtree: script/style skipped (their tails kept),
    ``<br>`` read as a space."""
    tags, texts, tails, end = doc.tags, doc.texts, doc.tails, doc.end
    parts: list[str] = [texts[i] or ""]
    open_: list[int] = []  # descendants whose subtree is not finished: their tail comes after
    j = i + 1
    stop = end[i]
    while j <= stop:
        while open_ and end[open_[-1]] < j:
            tail = tails[open_.pop()]
            if tail:
                parts.append(tail)
        tag = tags[j]
        if tag in SKIPPED_TAGS:
            tail = tails[j]
            if tail:
                parts.append(tail)
            j = end[j] + 1
            continue
        if tag == "br":
            parts.append(" ")
        text = texts[j]
        if text:
            parts.append(text)
        open_.append(j)
        j += 1
    while open_:
        tail = tails[open_.pop()]
        if tail:
            parts.append(tail)
    return "".join(parts)


def extracted_units(doc: Document, units: Sequence[Unit], kept: Iterable[int]) -> list[Unit]:
    """The ``units`` whose text an extraction that kept the nodes ``kept`` can hold: those
    inside a kept node's subtree or holding a kept node (block methods keep blocks, the
    others subtrees or text owners).

    :func:`template_lines` matches by text, so a template unit the method had already left
    out took the first output line with its text: a footer's ``<h4>Sections</h4>``, gone
    with the footer, removed the story's own ``<h3>Sections</h3>``. Only units the
    extraction can contain are matched.
    """
    if not units:
        return []
    end, index = doc.end, doc.index
    starts = sorted(set(kept))
    # covered[i]: node i lies in a kept node's subtree (a running count of the subtree
    # ranges open at i: +1 where one starts, -1 after it ends)
    opens = [0] * (len(end) + 1)
    for k in starts:
        opens[k] += 1
        opens[end[k] + 1] -= 1
    covered = list(itertools.accumulate(opens))
    found = []
    for unit in units:
        i = index.get(unit.element)
        if i is None:
            continue
        # in a kept subtree, or a kept node in this unit's subtree
        if covered[i] > 0 or bisect_right(starts, end[i]) > bisect_left(starts, i):
            found.append(unit)
    return found


#: near copies of templates that read as prose are kept on a page where they hold at least
#: this share of the tokens that the other templates leave (:func:`spared_units`)
NEAR_SPARE_SHARE = 0.5
#: a near copy reads as prose with this many tokens or more and a sentence's end
_PROSE_MIN_TOKENS = 8
_SENTENCE_END = re.compile(r"[.!?\u3002\uff01\uff1f\u2026][\"'\u201d\u2019)\]\u300d\u300f]*$")


def template_lines(lines: Sequence[str], units: Iterable[Unit]) -> list[bool]:
    """Which of an extraction's output ``lines`` are the text of template ``units``, the
    :func:`spared_units` apart.

    Matching is by whitespace-normalised text, each unit taking at most one line (or one
    run of consecutive lines, for a unit whose ``<br>`` breaks its text into several), the
    first not yet taken; a line that merely contains a template's text is kept.
    """
    units = list(units)
    spared = {id(unit) for unit in spared_units(lines, units)}
    taken = [False] * len(lines)
    _take(_normalised(lines), taken, [unit.text for unit in units if id(unit) not in spared])
    return taken


def spared_units(lines: Sequence[str], units: Iterable[Unit]) -> list[Unit]:
    """The template units whose lines :func:`template_lines` keeps: the near copies
    (:attr:`Unit.near`) that read as prose (:data:`_PROSE_MIN_TOKENS` tokens or more, ending
    a sentence), where their lines hold :data:`NEAR_SPARE_SHARE` or more of the tokens the
    other template units leave.

    Such a page is one of a series written from one text, not a page of boilerplate:
    automated earthquake, weather, market or sports reports differ from one another by
    their numbers and names, within the paper's one edit in eight characters, so their
    paragraphs became site-wide templates after the first batch and every later report
    kept only its headline (a generated site of 60 quake reports: 51 of 60 texts under
    100 characters). Boilerplate that varies is a line or two beside the article, and
    seldom a sentence: a date, "Updated 11:07 | 4 min read | By Staff", which go as before
    even on such a page. On the article pages of flink-blog, zjuvai-blog and the demo site,
    after learning every page, near matches took no character of the kept text but the
    headline's, so what the sites measure is unchanged. Tokens, not characters, weigh the
    share, so that a Chinese brief is not outweighed by an English line of as many letters.
    """
    units = list(units)
    prose = [unit for unit in units if unit.near and _reads_as_prose(unit.text)]
    if not prose:
        return []
    norm = _normalised(lines)
    taken = [False] * len(lines)
    chosen = {id(unit) for unit in prose}
    _take(norm, taken, [unit.text for unit in units if id(unit) not in chosen])
    with_prose = taken.copy()
    _take(norm, with_prose, [unit.text for unit in prose])
    prose_tokens = left_tokens = 0
    for line, was, now in zip(norm, taken, with_prose, strict=True):
        if not was:
            count = len(TOKEN.findall(line))
            left_tokens += count
            prose_tokens += count if now else 0
    if prose_tokens and prose_tokens >= NEAR_SPARE_SHARE * left_tokens:
        return prose
    return []


def _reads_as_prose(text: str) -> bool:
    if _SENTENCE_END.search(text) is None:
        return False
    return len(TOKEN.findall(text)) >= _PROSE_MIN_TOKENS


def _normalised(lines: Sequence[str]) -> list[str]:
    return [" ".join(line.split()) for line in lines]


def _take(norm: Sequence[str], taken: list[bool], texts: list[str]) -> None:
    """Mark in ``taken`` the lines of ``norm`` that read ``texts`` (see
    :func:`template_lines`), each text once, the first untaken line or run."""
    wanted = Counter(texts)
    if not wanted:
        return
    for i, line in enumerate(norm):
        if not taken[i] and wanted.get(line, 0) > 0:
            wanted[line] -= 1
            taken[i] = True
    # A run reads ``text`` only from a line whose first word is the text's first word
    # (the line is a prefix of the text up to a space): only those lines are tried, not
    # every line for every template the extraction had already left out.
    starts: dict[str, list[int]] = {}
    for i, line in enumerate(norm):
        if line and not taken[i]:
            starts.setdefault(line.split(" ", 1)[0], []).append(i)
    for text, left in wanted.items():
        candidates = starts.get(text.split(" ", 1)[0], [])
        for _ in range(left if candidates else 0):
            run = _line_run(norm, taken, text, candidates)
            if run is None:
                break
            for i in run:
                taken[i] = True


def _line_run(
    norm: Sequence[str], taken: Sequence[bool], text: str, starts: list[int]
) -> range | None:
    """The first run of untaken lines, beginning at one of ``starts`` (in order), that
    joined with spaces reads ``text``."""
    for start in starts:
        line = norm[start]
        if taken[start] or not text.startswith(line + " "):
            continue
        joined = line
        for end in range(start + 1, len(norm)):
            if taken[end] or not norm[end]:
                break
            joined = f"{joined} {norm[end]}"
            if joined == text:
                return range(start, end + 1)
            if not text.startswith(joined + " "):
                break
    return None
