"""The first article pages of each site, kept to be extracted again once the site is learned.

A site's templates are learned from batches of 10 pages and its recurring lines once they
are on more than int(1 + max(RC, 60)/3) pages (:mod:`.learning`), so the articles a crawl
extracts first keep what every page of the site repeats: a sidebar's "About me" and
"Popular posts", a share line, the post meta line. A re-crawl cleans them. Extracting the
first pages again at the crawl's end, without learning from them twice
(:meth:`~scrapy_denoise.Denoiser.revisit`), cleans them in the crawl that stored them.

Measured 2026-11-29 on the generated Blogger copy (docs/site-copies.md; 84 articles), whose
short posts sit beside a long sidebar: the first crawl's rows scored text F1 0.982, a
second crawl rewrote 21 of them and scored 0.992. flink-blog and zjuvai-blog, whose
single-page extraction leaves little for the site to teach, changed in the third decimal.

:class:`FirstPages` bounds what is kept: a site's first ``per_site`` pages as its learning
counts them (none of a site an earlier crawl taught), and :data:`MAX_BYTES` of bodies in
all, so that a broad crawl of thousands of new sites keeps (and extracts again) a bounded
number of pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .page.verdict import PageVerdict

__all__ = ["CRAWL_REVISIT_FIRST", "MAX_BYTES", "FirstPage", "FirstPages"]

#: bodies kept at most, in all sites together (characters of a ``str`` body)
MAX_BYTES = 64 * 1024 * 1024
#: a crawl's default ``revisit_first`` (``DENOISE_REVISIT_FIRST``): past the 10 pages of a
#: site's first template batch and the 22 a line must be on to go
CRAWL_REVISIT_FIRST = 40


@dataclass(frozen=True, slots=True)
class FirstPage:
    url: str
    body: bytes | str
    headers: Mapping[str, str] | None
    verdict: PageVerdict
    #: hash of the text the page's first extraction gave (Python's own: one process's)
    text_hash: int


class FirstPages:
    """The kept pages, in the order met (see the module docstring)."""

    __slots__ = ("_bytes", "_pages", "_urls", "per_site")

    def __init__(self, per_site: int) -> None:
        self.per_site = per_site
        self._pages: list[FirstPage] = []
        self._urls: set[str] = set()
        self._bytes = 0

    def __len__(self) -> int:
        return len(self._pages)

    def keep(self, page: FirstPage, learned: int) -> bool:
        """Keep ``page`` when its site's learning has counted at most ``per_site`` pages, the
        page itself included (``learned``), and the bodies fit; whether it was kept."""
        if learned > self.per_site or page.url in self._urls:
            return False
        size = len(page.body)
        if self._bytes + size > MAX_BYTES:
            return False
        self._pages.append(page)
        self._urls.add(page.url)
        self._bytes += size
        return True

    def take(self) -> list[FirstPage]:
        """Every kept page, forgotten here."""
        pages, self._pages = self._pages, []
        self._urls.clear()
        self._bytes = 0
        return pages
