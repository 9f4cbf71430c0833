"""Title, publication date and author from the page's own declarations.

Sources are tried from the most to the least explicit: JSON-LD (what publishers feed search
engines), then meta tags, then visible markup (``<h1>``, ``<time>``, bylines), then the URL,
and for the date last of all a date written for people under the headline or in a post's
meta block (:mod:`..dates`), which many blog themes print and declare nowhere else, then an
element under the headline that holds nothing but a date, as older news templates print it,
then a text anywhere in the story that starts "Posted on" or "Published" and a date.

One module per field (:mod:`.title`, :mod:`.published`, :mod:`.author`); what they share,
the headline and the lines under it above all, is in :mod:`._page` and found once per page.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache, partial

from ..dates import parse_date
from ..document import Document
from ._page import h1s, headline_lines, headline_node, is_article, page_json_ld
from .author import declared_site_names, find_author, names_site
from .published import find_published
from .title import declared_title, heading_or_title

__all__ = ["PageMetadata", "extract_metadata", "names_site", "parse_date"]


class PageMetadata:
    """Metadata found on a page; every field is ``None`` when not found."""

    __slots__ = ("author", "published", "title")

    def __init__(self, title: str | None, published: datetime | None, author: str | None) -> None:
        self.title = title
        self.published = published
        self.author = author


def extract_metadata(doc: Document) -> PageMetadata:
    """Title, publication date and author of the page, found once per document (kept in
    ``doc.metadata``, which :meth:`Document.refresh` clears)."""
    if doc.metadata is None:
        doc.metadata = _extract_metadata(doc)
    return doc.metadata


def _extract_metadata(doc: Document) -> PageMetadata:
    ld = list(page_json_ld(doc).objects)
    articles = [o for o in ld if is_article(o)] or ld
    site_names = declared_site_names(doc)
    headings = h1s(doc)
    title = declared_title(doc, articles, site_names, headings)
    if not title:
        title = heading_or_title(doc, site_names, headings)
    headline = cache(partial(headline_node, doc, headings, title))
    under_headline = cache(partial(headline_lines, doc, headline))
    return PageMetadata(
        title=title,
        published=find_published(doc, articles, headline, under_headline),
        author=find_author(doc, articles, under_headline, site_names),
    )
