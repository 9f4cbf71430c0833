"""Does a page name itself its canonical URL (``<link rel="canonical">``)?

A site that serves one article under several addresses names one of them in every copy's
``<link rel="canonical">``: Drupal's ``/node/173`` names the story's alias, SPIP's
``spip.php?article14`` names ``/Fermeture-de-classe``. The crawl keeps one row per article
(:meth:`~scrapy_denoise.Denoiser.extract_document`), under the address of the copy that
names itself, whichever it met first.

The host is not compared: a site names its production host in its canonical links, and a
crawl of a mirror, a staging host or a copy served on 127.0.0.1 must read them the same.
Nor are what servers read as the same page: a directory's index file, a trailing slash,
percent-escapes and tracking parameters (:mod:`~scrapy_denoise.tracking`).
"""

from __future__ import annotations

from urllib.parse import unquote, urljoin, urlsplit

from ..document import Document
from ..tracking import DIRECTORY_INDEX, without_tracking

__all__ = ["names_itself"]


def names_itself(doc: Document) -> bool:
    """Is the page's canonical link its own address (host aside, module doc)? False
    without one, or without a URL."""
    href = doc.head.canonical
    if not href or not doc.url:
        return False
    try:
        return _address(urljoin(doc.url, href)) == _address(doc.url)
    except ValueError:  # an href no URL can be made of ("http://[")
        return False


def _address(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    path = DIRECTORY_INDEX.sub("/", unquote(parts.path)).rstrip("/") or "/"
    return path, without_tracking(parts.query)
