from __future__ import annotations

import codecs

import numpy as np

from scrapy_denoise.encoding import _UTF16_SUSPECT, _suspects, decode, normalise_text


def test_bom_wins_over_header_and_meta() -> None:
    body = codecs.BOM_UTF8 + '<meta charset="gbk"><p>héllo</p>'.encode()
    result = decode(body, {"Content-Type": "text/html; charset=iso-8859-1"})
    assert result.source == "bom"
    assert "héllo" in result.text


def test_header_charset_used_before_meta() -> None:
    body = '<meta charset="utf-8"><p>中文内容</p>'.encode("gb18030")
    result = decode(body, {"content-type": "text/html; charset=GB2312"})
    assert result.encoding == "gb18030"
    assert "中文内容" in result.text


def test_gbk_meta_is_decoded_as_gb18030() -> None:
    # U+20AC EURO SIGN exists in GB18030/GBK but not in GB2312.
    body = '<meta http-equiv="Content-Type" content="text/html; charset=gb2312"><p>价格€</p>'
    result = decode(body.encode("gb18030"))
    assert result.source == "meta"
    assert result.encoding == "gb18030"
    assert "价格€" in result.text


def test_lying_declaration_falls_back_to_detection() -> None:
    text = "这是一个用中文写成的段落，用于测试字符集检测。" * 20
    body = ('<meta charset="utf-8"><p>' + text + "</p>").encode("gb18030")
    result = decode(body)
    assert result.source == "detected"
    assert "中文写成的段落" in result.text


def test_latin1_declaration_means_windows_1252() -> None:
    body = b'<meta charset="iso-8859-1"><p>\x93quoted\x94</p>'
    assert "\u201cquoted\u201d" in decode(body).text


def test_normalise_folds_arabic_presentation_forms_only() -> None:
    # ARABIC LETTER SEEN INITIAL FORM + YEH MEDIAL FORM -> base letters; CJK punctuation stays.
    assert normalise_text("\ufeb3\ufef4，") == "\u0633\u064a，"


def test_normalise_maps_c1_controls_and_drops_nul() -> None:
    assert normalise_text("a\x96b\x00c") == "a–bc"


def test_prescan_tables_match_the_repairs() -> None:
    """The pre-scan finds exactly the characters a repair can change (every BMP code point
    checked, as Latin-1 bytes where it fits and as UTF-16 units), so skipping the repairs
    when it finds nothing changes no text."""
    changed = {c for c in range(0x10000) if normalise_text(f"a{chr(c)}b") != f"a{chr(c)}b"}
    suspect = {c for c in range(0x10000) if _UTF16_SUSPECT[c]}
    assert changed <= suspect
    for c in range(0x10000):
        units = np.array([0x61, c, 0x0A], dtype=np.uint16)
        assert any(_suspects(units)) == (c in suspect), hex(c)
        if c < 0x100:
            assert any(_suspects(units.astype(np.uint8))) == (c in suspect), hex(c)
    # text beyond Latin-1 takes the UTF-16 path: each range is still found there
    for c in (0x01, 0x0B, 0x1F, 0x85, 0xFB50, 0xFE70, 0xFEFF, 0xFFFE):
        assert normalise_text(f"\u2019{chr(c)}") != f"\u2019{chr(c)}"


def test_valid_utf8_beyond_ascii_wins_over_a_legacy_declaration() -> None:
    # A page converted to UTF-8 that kept its template's declaration (151 pages of the
    # extraction datasets): read as declared it is "Kosovoâ€™s", or unreadable Chinese.
    body = '<meta charset="iso-8859-1"><p>Kosovo’s future</p>'.encode()
    result = decode(body, {"Content-Type": "text/html; charset=iso-8859-1"})
    assert (result.encoding, result.source) == ("utf-8", "detected")
    assert "Kosovo’s future" in result.text
    chinese = '<meta charset="gb2312"><p>交通运输部：着力打造京津冀区域综合立体交通网络</p>'
    assert "交通运输部" in decode(chinese.encode()).text
    # ASCII reads alike in every charset, so the declaration stands
    assert decode(b'<meta charset="iso-8859-1"><p>plain</p>').source == "meta"
    # text in the declared legacy charset is no valid UTF-8 and stays as declared
    assert decode('<meta charset="iso-8859-1"><p>café</p>'.encode("cp1252")).source == "meta"
