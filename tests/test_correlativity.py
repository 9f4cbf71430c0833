from __future__ import annotations

import pytest

from scrapy_denoise.document import Document, load_document
from scrapy_denoise.methods import create_method
from scrapy_denoise.methods.correlativity import (
    CorrelativityMethod,
    CorrelativityParams,
    context_density,
    correlativity,
    non_link_text,
)

POST = (
    "This is a long and friendly reply number {n} that adds real content to the thread, "
    "long enough that its post has more than 29 characters of text per link in it."
)
SHORT = "Thanks, me too."
COPYRIGHT = "Copyright 2012 Bilik Forum. All rights reserved by the owners."


def _forum() -> bytes:
    """A thread in the shape of the paper's Bilik BBS page (Fig. 2): posts with 4 links each,
    one short reply, a pagination bar, a navigation list and a copyright footer."""
    tools = "".join(f'<a href="/{k}">{k}</a>' for k in ("quote", "reply", "user", "report"))
    posts = "".join(
        f'<div class="post">{tools}<p>{POST.format(n=n)}</p></div>' for n in range(1, 5)
    )
    short = f'<div class="post" id="short">{tools}<p>{SHORT}</p></div>'
    pages = "".join(f'<li><a href="/p{k}">{k}</a></li>' for k in range(1, 11))
    nav = "".join(f'<li><a href="/s{k}">Section {k}</a></li>' for k in range(1, 6))
    return (
        f'<html><body><ul id="nav">{nav}</ul><div id="thread">{posts}{short}'
        f'<ul class="pages">{pages}</ul></div><div id="footer"><a href="/about">About</a>'
        f'<a href="/contact">Contact</a><p id="copy">{COPYRIGHT}</p></div></body></html>'
    ).encode()


def _node(doc: Document, css_id: str) -> int:
    return doc.index[doc.root.find(f".//*[@id='{css_id}']")]


@pytest.mark.parametrize(
    ("ta", "la", "cc"),
    # TA/LA pairs printed in the paper's Fig. 2; LA = 0 counts as 1.
    [(36, 3, 12.0), (50, 0, 50.0), (117, 10, 11.7), (138, 12, 11.5), (2256, 178, 2256 / 178)],
)
def test_cc_is_non_link_chars_per_link_with_figure_2_numbers(ta: int, la: int, cc: float) -> None:
    page = "<body><div>" + "x" * ta + '<a href="#"></a>' * la + "</div>"
    doc = load_document(page + "</body>")
    div = doc.index[doc.root.find(".//div")]
    assert correlativity(doc)[div] == pytest.approx(cc)


def test_link_text_is_not_counted_in_ta() -> None:
    doc = load_document(b'<body><div>abc <a href="/">defgh</a> ij</div></body>')
    div = doc.index[doc.root.find(".//div")]
    assert non_link_text(doc)[0][div] == 5
    assert correlativity(doc)[div] == 5.0


def test_context_density_is_parent_text_over_own_links() -> None:
    doc = load_document(_forum())
    short, thread = _node(doc, "short"), _node(doc, "thread")
    ta, _ = non_link_text(doc)
    assert context_density(doc, short, ta) == pytest.approx(ta[thread] / 4)


def test_short_reply_is_smoothed_into_the_text() -> None:
    doc = load_document(_forum())
    short = _node(doc, "short")
    assert correlativity(doc)[short] < 29
    result = CorrelativityMethod().extract(doc)
    assert SHORT in result.lines
    assert result.scores[short] == 29.0
    assert all(POST.format(n=n) in result.lines for n in range(1, 5))
    # Content scale S above 100 % switches the smoothing off: the short reply is lost.
    unsmoothed = CorrelativityMethod(content_scale=1.0).extract(doc)
    assert SHORT not in unsmoothed.lines


def test_copyright_node_off_the_text_structure_is_set_to_zero() -> None:
    doc = load_document(_forum())
    copy = _node(doc, "copy")
    assert correlativity(doc)[copy] > 29
    result = CorrelativityMethod().extract(doc)
    assert COPYRIGHT not in result.lines
    assert result.scores[copy] == 0.0
    assert COPYRIGHT in CorrelativityMethod(structure="none").extract(doc).lines


def test_navigation_and_pagination_are_noise() -> None:
    lines = CorrelativityMethod().extract(load_document(_forum())).lines
    assert not any(line.startswith("Section") for line in lines)
    assert not {str(k) for k in range(1, 11)} & set(lines)


def test_parent_and_child_text_is_output_once_in_document_order() -> None:
    intro = "An introduction long enough to be text on its own right here."
    para = "A paragraph inside that is long enough to be text by itself."
    doc = load_document(f"<body><div>{intro}<p>{para}</p>After it, more text.</div></body>")
    result = CorrelativityMethod().extract(doc)
    assert result.lines == [intro, para, "After it, more text."]
    # The body (CC > C as well) is a container above the text's structure: set to 0.
    assert result.kept == [doc.index[doc.root.find(".//div")]]


def test_form_controls_cannot_be_text() -> None:
    options = "".join(f"<option>Country number {k}</option>" for k in range(50))
    text = "The only real paragraph of this page, with enough text in it."
    doc = load_document(f'<body><select>{options}</select><p>{text}</p><a href="/">x</a></body>')
    result = CorrelativityMethod().extract(doc)
    assert result.lines == [text]


def test_deeply_nested_page_does_not_recurse() -> None:
    depth = 1500
    text = "This is the text at the bottom of a very deep page."
    doc = load_document("<body>" + "<div>" * depth + f"<p>{text}</p>" + "</div>" * depth)
    assert CorrelativityMethod().extract(doc).lines == [text]


def test_empty_page_gives_empty_extraction() -> None:
    result = CorrelativityMethod().extract(load_document(b""))
    assert result.lines == [] and result.kept == []


def test_parameters_come_from_settings_by_name() -> None:
    method = create_method("correlativity", {"correlativity": {"threshold": 40}})
    assert isinstance(method, CorrelativityMethod)
    assert method.params == CorrelativityParams(threshold=40)


def test_cc_equal_to_the_threshold_is_noise() -> None:
    # §3.4: C >= CC is noise, C < CC is text (29 characters without links: CC = 29).
    assert CorrelativityMethod().extract(load_document("<body><div>" + "x" * 29)).lines == []
    assert CorrelativityMethod().extract(load_document("<body><div>" + "x" * 30)).lines == [
        "x" * 30
    ]
