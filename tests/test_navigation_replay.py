"""The ``navigation_page`` rule over a whole real site, replayed through the core.

flink-blog's pages are classified in crawl order (depth-first, Scrapy's default, and
breadth-first), following the same-host links each page has, with one in-memory learner,
as a crawl's page filter does. Its docs and project pages are noise in the truth ("other")
and look like articles page by page; its posts carry dates, and its post lists sit in a
``<nav>``, so a post whose date and author are not found is linked from navigation only:
the rule's cost where dates are missed, measured here by hiding the metadata of a tenth of
the posts (``pytest -s`` prints the counts; 2026-11-24: 30 posts hidden, none dropped
depth-first, 28 breadth-first, where the post lists are fetched before the posts).
"""

from __future__ import annotations

import hashlib
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from scrapy_denoise import Denoiser, metadata
from scrapy_denoise.document import Document, load_document
from scrapy_denoise.evaluation.datasets import SitePage, iter_site_pages
from scrapy_denoise.page.links import normalise_url, outgoing_links

ORIGIN = "http://flink-blog.example"


@dataclass
class Replay:
    fetched: int = 0
    #: article paths the rule dropped
    dropped: list[str] = field(default_factory=list)
    #: noise paths that passed the whole filter
    passed: list[str] = field(default_factory=list)


def _replay(pages: dict[str, SitePage], depth_first: bool) -> Replay:
    denoiser = Denoiser(store=None)
    start = normalise_url(ORIGIN + "/")
    assert start is not None
    queue, seen, out = deque([start]), {start}, Replay()
    while queue:
        page = pages.get(queue.pop() if depth_first else queue.popleft())
        if page is None or not page.html:
            continue
        out.fetched += 1
        url = ORIGIN + page.path
        verdict = denoiser.classify(page.html, url)
        if page.kind == "article" and verdict.reason == "navigation_page":
            out.dropped.append(page.path)
        if page.kind == "noise" and not verdict.is_noise:
            out.passed.append(page.path)
        navigation, content = outgoing_links(load_document(page.html, url))
        for target in sorted(navigation | content):
            if target not in seen:
                seen.add(target)
                queue.append(target)
    return out


@pytest.fixture(scope="module")
def pages(shared_data: Path) -> dict[str, SitePage]:
    by_url = {}
    for page in iter_site_pages(shared_data / "sites" / "flink-blog.zip"):
        key = normalise_url(ORIGIN + page.path)
        if key is not None:
            by_url[key] = page
    return by_url


def _hide_metadata(monkeypatch: pytest.MonkeyPatch, urls: set[str]) -> None:
    """Pages at ``urls`` have neither date nor author (nor a date in their URL)."""
    found = metadata._extract_metadata

    def without(doc: Document) -> metadata.PageMetadata:
        meta = found(doc)
        if normalise_url(doc.url) in urls:
            return metadata.PageMetadata(title=meta.title, published=None, author=None)
        return meta

    monkeypatch.setattr(metadata, "_extract_metadata", without)


@pytest.mark.parametrize("depth_first", [True, False], ids=["depth-first", "breadth-first"])
def test_navigation_page_drops_site_pages_and_no_post(
    pages: dict[str, SitePage], depth_first: bool
) -> None:
    run = _replay(pages, depth_first)
    noise = sum(p.kind == "noise" for p in pages.values())
    print(f"\n{run.fetched} pages fetched; noise pages passed {len(run.passed)} of {noise}")
    assert run.dropped == []
    # measured 2026-11-25: 8 either way (10 breadth-first on 2026-11-24), all docs pages
    assert len(run.passed) <= 20


@pytest.mark.parametrize("depth_first", [True, False], ids=["depth-first", "breadth-first"])
def test_navigation_page_drops_only_posts_whose_metadata_is_missed(
    pages: dict[str, SitePage], depth_first: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    posts = [url for url, p in pages.items() if p.kind == "article"]
    hidden = {url for url in posts if int(hashlib.md5(url.encode()).hexdigest(), 16) % 10 == 0}
    _hide_metadata(monkeypatch, hidden)
    run = _replay(pages, depth_first)
    print(f"\n{len(hidden)} of {len(posts)} posts undated and unsigned: {len(run.dropped)} dropped")
    assert {normalise_url(ORIGIN + path) for path in run.dropped} <= hidden
