"""The lines of the articles a crawl extracted, kept by key to take out what their site
learned as noise after them.

Line statistics remove a line once it is on more than ``int(1 + max(RC, 60) / 3)`` of the
site's pages (:mod:`.methods.linestats`), so the articles extracted before a recurring line
crossed that bound keep it. :mod:`.first_pages` extracts a site's first 40 articles again
at the crawl's end; a line that crosses later, because it is on little more than a third of
the site's pages or because the crawl met its pages late, stays in the articles between.
A re-crawl cleaned them; the crawl's end now does, from the article's stored text, without
its page: each article's kept lines are remembered here as their 4-byte keys (those of the
pages' fingerprints, :func:`~.methods.linestats.short_key`), and at the end the articles
holding a key the site now judges noise are read back and filtered again
(:meth:`~scrapy_denoise.Denoiser.outdated`, :meth:`~scrapy_denoise.Denoiser.refilter`).

Memory: 4 bytes a line, about 160 bytes an article of 40 lines; :data:`MAX_KEYS` bounds it
(32 MB), past which further articles are not remembered (a re-crawl cleans them, as before).
"""

from __future__ import annotations

import logging
from array import array
from collections.abc import Callable, Iterable

from .methods.linestats import SHORT_KEY_BYTES

__all__ = ["MAX_KEYS", "ArticleLines", "key_int"]

logger = logging.getLogger(__name__)

#: line keys remembered at most, in all sites together (4 bytes each)
MAX_KEYS = 8_000_000


def key_int(key: bytes) -> int:
    """A line key's first :data:`~.methods.linestats.SHORT_KEY_BYTES` as an int."""
    return int.from_bytes(key[:SHORT_KEY_BYTES], "big")


class ArticleLines:
    """URL -> (site, the keys of its text's lines), in the order met (module docstring)."""

    __slots__ = ("_articles", "_full", "_keys", "max_keys")

    def __init__(self, max_keys: int = MAX_KEYS) -> None:
        self.max_keys = max_keys
        self._articles: dict[str, tuple[str, array[int]]] = {}
        self._keys = 0
        self._full = False

    def __len__(self) -> int:
        return len(self._articles)

    def keep(self, url: str, site: str, keys: Iterable[bytes]) -> bool:
        """Remember the article at ``url`` by its lines' keys (replacing what a visit before
        left); False when the memory is full."""
        packed = array("I", sorted({key_int(k) for k in keys}))
        self.forget(url)
        if self._keys + len(packed) > self.max_keys:
            if not self._full:
                self._full = True
                logger.info(
                    "remembering the lines of %d articles (%d keys): the articles after "
                    "them keep lines their site learns as noise later, until a re-crawl",
                    len(self._articles),
                    self._keys,
                )
            return False
        self._articles[url] = (site, packed)
        self._keys += len(packed)
        return True

    def forget(self, url: str) -> None:
        old = self._articles.pop(url, None)
        if old is not None:
            self._keys -= len(old[1])

    def holding(self, noise: Callable[[str], frozenset[int]]) -> list[str]:
        """The URLs whose lines hold a key in ``noise(site)``, the keys the site judges
        noise now (asked once per site), in the order met."""
        by_site: dict[str, frozenset[int]] = {}
        found = []
        for url, (site, keys) in self._articles.items():
            judged = by_site.get(site)
            if judged is None:
                judged = by_site[site] = noise(site)
            if judged and not judged.isdisjoint(keys):
                found.append(url)
        return found
