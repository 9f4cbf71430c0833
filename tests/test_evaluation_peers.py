"""Peer adapters: default configuration, paragraph-per-line text, a clear error when absent."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable

import pytest

from scrapy_denoise.evaluation.peers import (
    TRAFILATURA_ROW,
    MissingPeerError,
    html_to_text,
    installed_peers,
    readability_extractor,
    trafilatura_extractor,
    trafilatura_row_extractor,
)
from scrapy_denoise.evaluation.runner import Extractor
from scrapy_denoise.extras import install_hint

PARAGRAPHS = [
    "The city council voted on Tuesday to expand the harbour, a project debated for ten years.",
    "Supporters said the expansion would bring hundreds of jobs to the waterfront district.",
    "Opponents warned that the cost estimates had already doubled since the first proposal.",
    "A final decision on financing is expected before the end of the year, officials said.",
]
ARTICLE = (
    "<html><head><title>Harbour vote</title></head><body>"
    "<nav><a href='/'>Home</a> <a href='/news'>News</a> <a href='/sport'>Sport</a></nav>"
    "<article><h1>Council approves harbour expansion</h1>"
    + "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    + "</article><footer>Copyright 2024 Example Media. All rights reserved.</footer>"
    "</body></html>"
)


def test_html_to_text_puts_block_elements_on_their_own_lines() -> None:
    fragment = (
        "<div><h2>Title</h2><p>one<!-- c -->two <b>bold</b>\n tail</p>"
        "<script>var x;</script><ul><li>a</li><li>b</li></ul>x<br>y</div>"
    )
    assert html_to_text(fragment) == "Title\nonetwo bold tail\na\nb\nx\ny"
    assert html_to_text("  ") == ""


@pytest.mark.parametrize(
    "factory", [trafilatura_extractor, trafilatura_row_extractor, readability_extractor]
)
def test_peer_returns_article_paragraphs_one_per_line(factory: Callable[[], Extractor]) -> None:
    pytest.importorskip("trafilatura")
    pytest.importorskip("readability")
    extract = factory()
    text = extract(ARTICLE, "https://example.com/harbour")
    lines = text.splitlines()
    for paragraph in PARAGRAPHS:
        assert paragraph in lines
    assert "Copyright" not in text


@pytest.mark.parametrize(
    ("factory", "module"),
    [
        (trafilatura_extractor, "trafilatura"),
        (trafilatura_row_extractor, "trafilatura"),
        (readability_extractor, "readability"),
    ],
)
def test_missing_peer_names_the_extra_to_install(
    factory: Callable[[], Extractor], module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(MissingPeerError, match=re.escape(install_hint("compare"))):
        factory()


def test_trafilatura_with_its_metadata_gives_the_text_of_trafilatura_alone() -> None:
    """The row peer is there to time the metadata; its text must be trafilatura's own, or
    the table would compare two texts as well as two costs."""
    pytest.importorskip("trafilatura")
    url = "https://example.com/harbour"
    assert trafilatura_row_extractor()(ARTICLE, url) == trafilatura_extractor()(ARTICLE, url)


def test_installed_peers_are_both_or_none(monkeypatch: pytest.MonkeyPatch) -> None:
    """Benchmark tables show the peers when the compare extra is there, and still print
    without it."""
    assert set(installed_peers()) == {"trafilatura", "readability"}
    assert set(installed_peers(metadata=True)) == {"trafilatura", "readability", TRAFILATURA_ROW}
    monkeypatch.setitem(sys.modules, "readability", None)
    assert installed_peers() == {}
    assert installed_peers(metadata=True) == {}
