"""A generic news spider: start at one URL, follow every link within that site, hand every
HTML page to scrapy-denoise.

The spider knows nothing about the site's layout, and that is the point: it yields
``page_item(response)`` for every page, the page filter tells article pages from home,
list, tag and archive pages (whose links it still follows), and the pipeline extracts and
stores the articles. Run it with ``scrapy crawl news -a start_url=https://example.com/news/``.

Scope: same host and port as ``start_url`` and, when the start URL has a path, only URLs
under that path's directory (``/blog/`` keeps the crawl inside the blog of a larger site).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import urlsplit

from scrapy import Request, Spider
from scrapy.http import HtmlResponse, Response
from scrapy.linkextractors import LinkExtractor

from scrapy_denoise.integration import page_item


def _scope_prefix(path: str) -> str:
    """The directory part of a start path: ``/blog/`` for ``/blog/`` and ``/blog/index.html``."""
    return path[: path.rfind("/") + 1] or "/"


class NewsSpider(Spider):
    name = "news"

    def __init__(self, start_url: str | None = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not start_url:
            raise ValueError("give the site to crawl: scrapy crawl news -a start_url=URL")
        parts = urlsplit(start_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"start_url must be an http(s) URL, got {start_url!r}")
        self.start_url = start_url
        self.allowed_domains = [parts.hostname]
        self._netloc = parts.netloc.lower()
        self._prefix = _scope_prefix(parts.path or "/")
        self._links = LinkExtractor(unique=True)

    async def start(self) -> AsyncIterator[Request]:
        yield Request(self.start_url, callback=self.parse)

    def in_scope(self, url: str) -> bool:
        parts = urlsplit(url)
        return parts.netloc.lower() == self._netloc and (parts.path or "/").startswith(self._prefix)

    def parse(self, response: Response, **kwargs: Any) -> Iterator[Any]:
        if not isinstance(response, HtmlResponse):
            return
        yield page_item(response)
        for link in self._links.extract_links(response):
            if self.in_scope(link.url):
                yield response.follow(link.url, callback=self.parse)
