from __future__ import annotations

import pytest

from scrapy_denoise.document import load_document
from scrapy_denoise.methods import create_method
from scrapy_denoise.methods.punctuation import (
    PunctuationMethod,
    PunctuationParams,
    punctuation_ratio,
)

PAGE = """<html><body>
<ul><li><a href="/">首页</a></li><li><a href="/n">新闻</a></li><li><a href="/s">体育</a></li></ul>
<div id="text">
<p>昨天下午，市政府召开新闻发布会，介绍了今年的经济形势。</p>
<p>The council met on <a href="/m">Monday</a>, and the vote was close.</p>
</div>
<div>[1] [2] [3] ...</div>
<div>Home | News | Sport</div>
</body></html>""".encode()


def test_ratio_counts_chinese_and_english_sentence_marks_over_non_space_chars() -> None:
    assert punctuation_ratio("你好，世界。") == pytest.approx(2 / 6)
    assert punctuation_ratio("Hello, world!") == pytest.approx(2 / 12)
    assert punctuation_ratio("Home | News") == 0.0
    assert punctuation_ratio("   ") == 0.0


def test_sentences_are_kept_navigation_and_pure_punctuation_are_not() -> None:
    lines = PunctuationMethod().extract(load_document(PAGE)).lines
    assert lines == [
        "昨天下午，市政府召开新闻发布会，介绍了今年的经济形势。",
        "The council met on Monday, and the vote was close.",
    ]


def test_literal_closed_interval_keeps_nodes_without_punctuation() -> None:
    # [0, p] read literally: the navigation (ratio 0) comes back, only "[1] [2] [3] ..."
    # (ratio 9/12 > 0.3) is dropped.
    lines = PunctuationMethod(require_punctuation=False).extract(load_document(PAGE)).lines
    assert "首页" in lines and "Home | News | Sport" in lines
    assert "[1] [2] [3] ..." not in lines


def test_ratio_above_p_is_dropped_and_p_is_inclusive() -> None:
    doc = load_document(b"<body><p>a, b.</p><p>ab, cd.</p></body>")
    # "a,b." has 2 marks in 4 chars (0.5 > 0.3); "ab,cd." has 2 in 6 (1/3 > 0.3).
    assert PunctuationMethod().extract(doc).lines == []
    assert PunctuationMethod(max_ratio=1 / 3).extract(doc).lines == ["ab, cd."]


def test_paper_noise_example_survives_this_step() -> None:
    # §2.1: Tencent's "如果你对新闻频道有任何意见或建议,请到交流平台反馈。" has punctuation
    # and passes the ratio test; the paper removes it with line statistics (§2.2), not here.
    text = "如果你对新闻频道有任何意见或建议，请到交流平台反馈。"
    doc = load_document(f"<body><div>{text}</div></body>")
    assert PunctuationMethod().extract(doc).lines == [text]


def test_text_node_unit_splits_at_links_but_not_at_strong_font_p() -> None:
    page = b"""<body><div>Read <strong>this</strong>, then <a href="/x">the next story</a>
    and <font>more</font>.</div></body>"""
    doc = load_document(page)
    by_node = PunctuationMethod(unit="text_node").extract(doc)
    # "Read this, then" is one node across <strong>; the link text has no punctuation;
    # "and more." is one node across <font>.
    assert by_node.lines == ["Read this, then and more."]
    by_line = PunctuationMethod().extract(doc)
    assert by_line.lines == ["Read this, then the next story and more."]


def test_scores_report_the_ratio_per_unit() -> None:
    doc = load_document(b"<body><p>One, two.</p></body>")
    result = PunctuationMethod().extract(doc)
    p = doc.index[doc.root.find(".//p")]
    assert result.kept == [p]
    assert result.scores[p] == pytest.approx(2 / 8)


def test_form_controls_are_not_text() -> None:
    page = b"<body><select><option>Yes, please.</option></select><p>It rained, again.</p></body>"
    assert PunctuationMethod().extract(load_document(page)).lines == ["It rained, again."]


def test_parameters_come_from_settings_by_name() -> None:
    method = create_method("punctuation", {"punctuation": {"max_ratio": 0.2}})
    assert isinstance(method, PunctuationMethod)
    assert method.params == PunctuationParams(max_ratio=0.2)
