from __future__ import annotations

import pytest

from scrapy_denoise.document import Document, load_document, text_chars
from scrapy_denoise.methods import create_method
from scrapy_denoise.methods.base import text_pieces
from scrapy_denoise.methods.cevc import CevcMethod, CevcParams, count_valid, locate_block

ARTICLE = b"""<html lang="en"><body>
<ul id="nav"><li><a href="/">Home</a></li><li><a href="/news">News of the day</a></li></ul>
<div id="side">
  <a href="/1">The best of the week in one place</a>
  <a href="/2">Why the market is down and what it means for you</a>
  <a href="/3">How to cook the perfect egg in a minute</a>
</div>
<div id="article">
  <h1>Storm hits the coast</h1>
  <p>The storm reached the coast on Monday and cut power to thousands of homes.</p>
  <p>Officials said that repairs would take <a href="/x">several days</a> to finish.</p>
  <p>Schools in the region will stay closed until the roads are cleared.</p>
</div>
<div id="footer">Copyright 2024 Example News</div>
</body></html>"""


def _node(doc: Document, css_id: str) -> int:
    return doc.index[doc.root.find(f".//*[@id='{css_id}']")]


def test_content_block_is_the_article_not_the_link_heavy_sidebar() -> None:
    doc = load_document(ARTICLE)
    result = CevcMethod().extract(doc)
    assert result.kept == [_node(doc, "article")]
    assert result.lines[0] == "Storm hits the coast"
    assert "Officials said that repairs would take several days to finish." in result.lines
    assert not any(
        "Home" in line or "market" in line or "Copyright" in line for line in result.lines
    )


def test_anchor_text_is_never_valid_even_with_stop_words() -> None:
    doc = load_document(ARTICLE)
    pieces = text_pieces(doc)
    valid = [not p.in_link and "the" in p.text.split() for p in pieces]
    vc, _ = count_valid(doc, pieces, valid)
    assert vc[_node(doc, "side")] == 0
    assert vc[_node(doc, "nav")] == 0


def test_count_valid_sums_non_space_lengths_bottom_up() -> None:
    doc = load_document(b"<div><p>in the box</p><p>xyz</p><span>of a b</span></div>")
    pieces = text_pieces(doc)
    method = CevcMethod()
    valid = [p.text in ("in the box", "of a b") for p in pieces]
    vc, own = count_valid(doc, pieces, valid)
    div = doc.index[doc.root.find(".//div")]
    assert vc[div] == text_chars("in the box") + text_chars("of a b") == 12
    assert own[div] == 0 and vc[0] == 12
    assert method.params.alpha == 0.5


def test_literal_output_drops_anchor_text_lines_output_keeps_the_paragraph() -> None:
    doc = load_document(ARTICLE)
    lines = CevcMethod().extract(doc).lines
    valid_only = CevcMethod(output="valid").extract(doc).lines
    assert "Officials said that repairs would take several days to finish." in lines
    assert "Officials said that repairs would take to finish." in valid_only


def test_block_stops_where_no_child_holds_alpha_of_the_valid_characters() -> None:
    page = b"""<body><div id="all">
      <div id="a"><p>It was the first of the three stories of the day.</p></div>
      <div id="b"><p>It was the other of the three stories of the day.</p></div>
      <div id="c"><p>It was the third of the three stories of the day.</p></div>
    </div><ul><li><a href="/">Home</a></li></ul></body>"""
    doc = load_document(page)
    # Each story holds a third of the valid characters: under alpha = 0.5, stop at the parent.
    assert CevcMethod().extract(doc).kept == [_node(doc, "all")]
    # A third is >= 0.3: descend into the first of the equal children (strict ">" in the max).
    assert CevcMethod(alpha=0.3).extract(doc).kept[0] in range(_node(doc, "a"), _node(doc, "b"))


def test_own_text_nodes_compete_with_element_children() -> None:
    # The div's own sentences (its text nodes) outweigh its one child: the div is the block.
    page = b"""<body><div id="post">It was a long day at the office and we were all tired.<br>
      Then the rain came and it did not stop until the night was over.<br>
      <span>and so on</span></div></body>"""
    doc = load_document(page)
    assert CevcMethod().extract(doc).kept == [_node(doc, "post")]
    # Own text node with 40 of 100 valid characters beats the span's 35, even though 35 %
    # is above alpha = 0.3: the paper recurses into the text node and returns its parent.
    post, span = _node(doc, "post"), doc.index[doc.root.find(".//span")]
    vc = [0] * len(doc.nodes)
    vc[0] = vc[post] = 100
    vc[span] = 35
    assert locate_block(doc, vc, {post: [40, 25]}, 0.3) == post
    assert locate_block(doc, vc, {post: [30, 35]}, 0.3) == span


def test_page_without_valid_characters_yields_nothing() -> None:
    doc = load_document(b"<body><ul><li><a href='/'>the home of the news</a></li></ul></body>")
    result = CevcMethod().extract(doc)
    assert result.lines == [] and result.kept == []


def test_chinese_function_characters_make_unsegmented_text_valid() -> None:
    page = """<html><body>
    <div id="nav"><a href="/">首页</a> <a href="/a">新闻中心</a> <a href="/b">体育</a></div>
    <div id="text"><p>昨天下午，市政府召开了新闻发布会。</p>
    <p>会议介绍了今年的经济形势和主要工作。</p><p>记者在现场看到，会场座无虚席。</p></div>
    <div id="foot">联系电话 010-12345678</div></body></html>""".encode()
    doc = load_document(page)
    result = CevcMethod().extract(doc)
    assert result.kept == [_node(doc, "text")]
    assert result.lines == [
        "昨天下午，市政府召开了新闻发布会。",
        "会议介绍了今年的经济形势和主要工作。",
        "记者在现场看到，会场座无虚席。",
    ]


def test_one_paragraph_holding_most_valid_text_becomes_the_block() -> None:
    # Algorithm 2 as published descends into any child with >= alpha of the characters,
    # paragraphs included: a two-paragraph article loses its shorter paragraph.
    page = b"""<body><div id="text"><p>A short first one.</p>
    <p id="long">And then a much longer second paragraph that has most of the text.</p>
    </div></body>"""
    doc = load_document(page)
    assert CevcMethod().extract(doc).kept == [_node(doc, "long")]


def test_language_override_changes_the_stop_word_list() -> None:
    page = b"<body><div><p>Der Hund und die Katze sind im Garten.</p></div></body>"
    doc = load_document(page)
    assert CevcMethod(language="de").extract(doc).lines == [
        "Der Hund und die Katze sind im Garten."
    ]
    assert CevcMethod(language="zh").extract(doc).lines == []


def test_deeply_nested_page_does_not_recurse() -> None:
    # libxml2 keeps about 2,000 levels; 1,500 is as deep as a parsed page gets.
    depth = 1500
    page = "<body>" + "<div>" * depth + "<p>This is the text at the bottom.</p>" + "</div>" * depth
    doc = load_document(page + "</body>")
    assert CevcMethod().extract(doc).lines == ["This is the text at the bottom."]


def test_parameters_come_from_settings_by_name() -> None:
    method = create_method("cevc", {"cevc": {"alpha": 0.6}})
    assert isinstance(method, CevcMethod)
    assert method.params == CevcParams(alpha=0.6)
    with pytest.raises(TypeError, match="alpha"):
        CevcMethod(alhpa=0.6)


def test_share_exactly_alpha_descends() -> None:
    # Algorithm 2 returns N only when maxVC / totalVC < alpha; two equal halves descend into
    # the first (the max is taken with a strict ">").
    page = b"""<body><div id="both">
      <div id="a"><p>It was the first of the two stories of the day.</p></div>
      <div id="b"><p>It was the other of the two stories of the day.</p></div>
    </div></body>"""
    doc = load_document(page)
    assert CevcMethod().extract(doc).kept[0] in range(_node(doc, "a"), _node(doc, "b"))
    assert CevcMethod(alpha=0.51).extract(doc).kept == [_node(doc, "both")]
