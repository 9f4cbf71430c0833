"""What extraction returns: the article a user stores."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from .page.verdict import PageVerdict

__all__ = ["Article"]


@dataclass(slots=True)
class Article:
    """One page's main text and metadata; field names follow common article schemas."""

    #: the page URL
    url: str
    #: main text, one paragraph per line; never ``None`` (empty when nothing was found)
    text: str = ""
    #: headline, without the " - Site Name" suffix
    title: str | None = None
    #: publication date, timezone-aware
    published: datetime | None = None
    #: author name(s), comma separated
    author: str | None = None
    #: ISO 639-1 language code
    lang: str | None = None
    #: the site key the page was learned under (scheme + host, or a configured prefix)
    site: str = ""
    #: extraction method that produced ``text``
    method: str = ""
    #: the page filter's verdict on the page
    verdict: PageVerdict | None = None
    #: problems met on the way: ``truncated``, ``binary``, ``empty``, ``undecodable``
    warnings: tuple[str, ...] = ()
    #: lines removed by site learning: text of site templates, then noise lines counted
    #: by line statistics (for reports and stats)
    removed_templates: int = 0
    removed_lines: int = 0
    #: the URL this page's article was met under first, when this page is that article
    #: again under another address (same site, ``<title>`` and text); only with a site
    #: store, which remembers what it met
    duplicate_of: str | None = None
    #: the article's identity on its site (32 hex digits): a hash of the ``<title>`` and the
    #: text extracted before site learning, the same for every URL the article is served
    #: under; ``None`` for noise pages and texts under 100 characters. The store keeps one
    #: row per identity and site (``ArticleRecord.identity``).
    identity: str | None = None
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines()
