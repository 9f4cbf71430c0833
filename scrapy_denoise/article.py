"""What extraction returns: the article a user stores."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from .document import text_chars
from .page.verdict import PageVerdict
from .tokens import reading_len

__all__ = ["Article", "short_text", "too_short"]


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
    #: language code, lower case: the first language the page declares (``<html lang>``,
    #: ``content-language``, ``og:locale``, ...) whose script agrees with the text, cut to
    #: its primary subtag (``en-GB`` -> ``en``), as ISO 639-1 where the language has a
    #: two-letter code (``eng`` -> ``en``) and as declared where not (``fil``, ``yue``);
    #: without one, or when the text's stop words clearly contradict a declared common
    #: Latin-script language, the ISO 639-1 code detected from the text. ``None`` when the
    #: page declares none and has no text to tell by
    lang: str | None = None
    #: the site key the page was learned under (scheme + host, or a configured prefix)
    site: str = ""
    #: extraction method that produced ``text``
    method: str = ""
    #: the page filter's verdict on the page
    verdict: PageVerdict | None = None
    #: problems met loading the page (as ``Document.warnings``): ``truncated`` (more than
    #: ``max_bytes``, which counts bytes of a ``bytes`` body and characters of a ``str``
    #: body, or too many elements; the rest was cut), ``binary``, ``empty``,
    #: ``undecodable``, ``deep_nesting``, ``unclosed_title``, ``repeated_copy`` (a second
    #: copy of the page after ``</body>``, left out), ``not_html`` (the body is JSON, read
    #: as no page), ``invalid_url`` (the URL was unusable and the page was read without one)
    warnings: tuple[str, ...] = ()
    #: lines removed by site learning: text of site templates, then noise lines counted
    #: by line statistics (for reports and stats)
    removed_templates: int = 0
    removed_lines: int = 0
    #: the URL this page's article was met under first, when this page is that article
    #: again under another address (same site, ``<title>`` and text); only with a site
    #: store, which remembers what it met
    duplicate_of: str | None = None
    #: the URL this page's article was met under first, when that page did not name
    #: itself its canonical URL and this one does: the crawl moves the article's row here
    #: (:meth:`~scrapy_denoise.Denoiser.extract_document`); only with a site store
    replaces: str | None = None
    #: the article's identity on its site (32 hex digits): a hash of the ``<title>`` and the
    #: text extracted before site learning, the same for every URL the article is served
    #: under; ``None`` for noise pages and texts under 100 characters. The store keeps one
    #: row per identity and site (``ArticleRecord.identity``).
    identity: str | None = None
    #: the caller's own values; copied as they are by :meth:`as_dict`
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    def as_dict(self) -> dict[str, object]:
        """Every field, ready for ``json.dumps``: ``published`` as an ISO 8601 string, the
        verdict as :meth:`PageVerdict.as_dict`, tuples as lists.

        ``dataclasses.asdict`` keeps the ``datetime``, which ``json.dumps`` refuses; the
        CLI's ``extract --json`` prints (a selection of) this, so there is one layout.
        """
        return {
            "url": self.url,
            "text": self.text,
            "title": self.title,
            "published": self.published.isoformat() if self.published else None,
            "author": self.author,
            "lang": self.lang,
            "site": self.site,
            "method": self.method,
            "verdict": self.verdict.as_dict() if self.verdict else None,
            "warnings": list(self.warnings),
            "removed_templates": self.removed_templates,
            "removed_lines": self.removed_lines,
            "duplicate_of": self.duplicate_of,
            "replaces": self.replaces,
            "identity": self.identity,
            "extra": dict(self.extra),
        }


def too_short(article: Article, minimum: int, *, keep_headline: bool) -> bool:
    """Is the article under ``minimum`` (``DENOISE_MIN_TEXT_CHARS``) non-whitespace
    characters, a CJK character counting three? The headline counts whether or not the
    text keeps it (``keep_headline``): a short post is as long either way.

    CJK characters weigh three because a Chinese character is a word or half of one, an
    English word five or six characters with its space. Counted plainly, short Chinese
    posts fell under the 100 of DENOISE_MIN_TEXT_CHARS that their English equivalents
    pass: on zjuvai-blog a poem (47 characters) and a notice (53) were dropped; weighted
    they count 129 and 149, while the image-only posts, whose text is their title alone (10
    and 25 characters, 30 and 61 weighted), are still dropped. Chosen on that site; no
    held-out site has short Chinese posts to check it on.
    """
    return short_text(article.text, article.title, minimum, keep_headline=keep_headline)


def short_text(text: str, title: str | None, minimum: int, *, keep_headline: bool) -> bool:
    """:func:`too_short` for an article's text and title, as a stored row has them."""
    if not keep_headline and title:
        text = f"{title}\n{text}"
    chars = text_chars(text)
    if chars >= minimum or not text or text.isascii():
        return chars < minimum
    # the CJK characters' extra weight, as reading_len counts it
    return chars + reading_len(text) - len(text) < minimum
