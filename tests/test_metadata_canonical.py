"""Does a page name itself its canonical URL (``metadata/canonical.py``)?"""

from __future__ import annotations

import pytest

from scrapy_denoise.document import load_document
from scrapy_denoise.metadata.canonical import names_itself


def _doc(head: str, url: str = "http://127.0.0.1:8000/news/2024/05/storm/") -> bool:
    return names_itself(
        load_document(f"<html><head>{head}</head><body><p>x</p></body></html>", url)
    )


@pytest.mark.parametrize(
    "href",
    [
        "https://www.news.example/news/2024/05/storm",  # the production host, no slash
        "/news/2024/05/storm/index.html",
        "/news/2024/05/storm/?utm_source=feed",
        "/news/2024/05/st%6Frm/",
    ],
)
def test_a_canonical_link_to_the_page_itself_names_it(href: str) -> None:
    assert _doc(f'<link rel="canonical" href="{href}">')
    assert _doc(f'<link href="{href}" rel="Canonical shortlink">')


@pytest.mark.parametrize(
    "head",
    [
        '<link rel="canonical" href="/node/173">',
        '<link rel="canonical" href="/news/2024/05/storm/?page=2">',
        '<link rel="alternate" href="/news/2024/05/storm/">',
        '<link rel="canonical" href="">',
        '<link rel="canonical" href="http://[">',
        "",
    ],
)
def test_another_or_no_canonical_link_names_nothing(head: str) -> None:
    assert not _doc(head)


def test_the_first_canonical_link_counts_and_a_page_without_url_names_nothing() -> None:
    two = '<link rel="canonical" href="/node/173"><link rel="canonical" href="/news/2024/05/storm">'
    assert not _doc(two)
    assert not _doc('<link rel="canonical" href="/news/2024/05/storm/">', url="")
