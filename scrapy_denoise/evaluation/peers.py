"""Other extractors, run the way their users run them, to put our numbers in context.

Each peer is used in its documented default configuration for main-text extraction; the only
setting we choose is the one the task defines (main text, so trafilatura's comment extraction
is off). Nothing here is tuned against the evaluation data, and every extractor gets the
same decoded ``str`` from the runner, so differences come from the extractors alone.

The peers are optional dependencies (the ``compare`` extra); importing this
module never requires them, a factory only does when called.
"""

from __future__ import annotations

import re
import warnings
from typing import Any

from lxml import etree
from lxml import html as lxml_html

from scrapy_denoise.evaluation.runner import Extractor

from ..extras import install_hint

__all__ = [
    "TRAFILATURA_ROW",
    "Extractor",
    "MissingPeerError",
    "html_to_text",
    "installed_peers",
    "peers",
    "readability_extractor",
    "trafilatura_extractor",
    "trafilatura_row_extractor",
]

#: The name tables give :func:`trafilatura_row_extractor`.
TRAFILATURA_ROW = "trafilatura+metadata"

# Elements whose boundaries a reader sees as paragraph breaks.
_BLOCK_TAGS = frozenset(
    {
        "address", "article", "aside", "blockquote", "br", "caption", "dd", "div", "dl",
        "dt", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
        "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "tbody",
        "td", "tfoot", "th", "thead", "tr", "ul",
    }
)  # fmt: skip
_SKIP_TAGS = frozenset({"script", "style", "noscript", "template"})
_NEWLINES = re.compile(r"[\r\n]+")
_SPACES = re.compile(r"[ \t\r\f\v\u00a0\u2000-\u200b\u3000]+")


class MissingPeerError(ImportError):
    """A comparison extractor is not installed; the message says how to install it."""


def _missing(package: str, error: ImportError) -> MissingPeerError:
    return MissingPeerError(
        f"{package} is needed to compare against it: {install_hint('compare')} ({error})"
    )


def trafilatura_extractor() -> Extractor:
    """trafilatura's ``extract`` with default settings, comments off, plain-text output."""
    try:
        import trafilatura
    except ImportError as error:
        raise _missing("trafilatura", error) from error

    def extract(html: str, url: str | None = None) -> str:
        result = trafilatura.extract(html, url=url, include_comments=False, output_format="txt")
        return result or ""

    return extract


def trafilatura_row_extractor() -> Extractor:
    """trafilatura producing what one of our stored rows holds: ``bare_extraction`` with
    ``with_metadata=True`` (title, date, author, site name besides the text), comments off.

    Our chain always reads a page's title, date, author and language and judges the page,
    while :func:`trafilatura_extractor` asks for the text alone; this is the same row from
    trafilatura, the call its metadata table already scores (:mod:`.metadata_bench`), so
    the CPU of a stored row can be compared like for like. The text is the same
    ``xmltotxt`` rendering of the same body, so its F1 is trafilatura's.
    """
    try:
        import trafilatura
    except ImportError as error:
        raise _missing("trafilatura", error) from error

    def extract(html: str, url: str | None = None) -> str:
        # its date parser warns of every time zone abbreviation it cannot place (EST, EDT)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            document = trafilatura.bare_extraction(
                html, url=url, with_metadata=True, include_comments=False
            )
        text = getattr(document, "text", None)
        return text if isinstance(text, str) else ""

    return extract


def _text_parts(root: Any) -> list[str]:
    """Text and tails in document order, a newline at each block boundary.

    Source line breaks are only whitespace in HTML, so they become spaces here; the only
    newlines left are the block boundaries.
    """
    # iterwalk does not visit comments, so fold them away first, keeping their tails.
    etree.strip_tags(root, etree.Comment, etree.ProcessingInstruction)
    parts: list[str] = []
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, node in walker:
        tag = node.tag if isinstance(node.tag, str) else ""
        if event == "start":
            if tag in _SKIP_TAGS:
                walker.skip_subtree()
                continue
            if tag in _BLOCK_TAGS:
                parts.append("\n")
            if node.text:
                parts.append(_NEWLINES.sub(" ", node.text))
        else:
            if tag in _BLOCK_TAGS:
                parts.append("\n")
            if node.tail and node is not root:
                parts.append(_NEWLINES.sub(" ", node.tail))
    return parts


def html_to_text(fragment: str) -> str:
    """Visible text of an HTML fragment, one block element (paragraph, heading, item) a line.

    Flattening without the breaks would fuse the last word of one paragraph with the first
    of the next into a single token, charging readability for our rendering, not its choice.
    """
    if not fragment.strip():
        return ""
    root = lxml_html.fromstring(fragment)
    lines = (_SPACES.sub(" ", line).strip() for line in "".join(_text_parts(root)).split("\n"))
    return "\n".join(line for line in lines if line)


def readability_extractor() -> Extractor:
    """readability-lxml's ``Document(html).summary()``, rendered to text by block elements."""
    try:
        from readability import Document
    except ImportError as error:
        raise _missing("readability-lxml", error) from error

    def extract(html: str, url: str | None = None) -> str:
        return html_to_text(Document(html).summary())

    return extract


def peers(*, metadata: bool = False) -> dict[str, Extractor]:
    """Both peers by the names tables use, and with ``metadata`` also
    :data:`TRAFILATURA_ROW` (for CPU tables; its F1 is trafilatura's); raises
    MissingPeerError if either library is absent."""
    found = {"trafilatura": trafilatura_extractor(), "readability": readability_extractor()}
    if metadata:
        found[TRAFILATURA_ROW] = trafilatura_row_extractor()
    return found


def installed_peers(*, metadata: bool = False) -> dict[str, Extractor]:
    """:func:`peers`, or none without the ``compare`` extra: for tables that show the peers
    when they can and are still worth printing without them."""
    try:
        return peers(metadata=metadata)
    except MissingPeerError:
        return {}
