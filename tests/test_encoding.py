from __future__ import annotations

import codecs

import numpy as np
import pytest

from scrapy_denoise.document import load_document
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


_WESTERN = (
    "<p>The café on Main Street — known for its crème brûlée — has served the town for "
    "decades. Officials said the decision followed months of public hearings.</p>"
)


def test_western_text_under_a_false_utf8_declaration_reads_as_windows_1252() -> None:
    """charset_normalizer ranks windows-1250 first on this page ("crčme brűlée"): the
    two give letters for the same bytes, and only the words tell them apart."""
    body = ('<meta charset="utf-8"><title>Café</title>' + _WESTERN * 4).encode("cp1252")
    decoded = decode(body)
    assert (decoded.encoding, decoded.source) == ("cp1252", "detected")
    assert "crème brûlée" in decoded.text


@pytest.mark.parametrize(
    ("text", "codec"),
    [
        (
            "Wczoraj w Łodzi odbyło się spotkanie mieszkańców, którzy sprzeciwiają się "
            "budowie drogi. Prezydent miasta powiedział, że decyzja zapadnie w przyszłym "
            "tygodniu.",
            "cp1250",
        ),
        (
            "Vláda včera schválila nový zákon o daních, který začne platit od ledna "
            "příštího roku. Ministr řekl, že změny přinesou více peněz obcím.",
            "cp1250",
        ),
        (
            "A kormány tegnap elfogadta az új törvényt, amely jövő januártól lép életbe. A "
            "miniszter szerint a változások több pénzt hoznak az önkormányzatoknak.",
            "cp1250",
        ),
        (
            "Hükümet dün yeni vergi yasasını kabul etti, bu yasa gelecek yılın ocak ayında "
            "yürürlüğe girecek. Bakan değişikliklerin belediyelere daha fazla para "
            "getireceğini söyledi.",
            "cp1254",
        ),
        (
            "Vyriausybė vakar patvirtino naują mokesčių įstatymą, kuris įsigalios nuo kitų "
            "metų sausio. Ministras sakė, kad pakeitimai atneš daugiau pinigų.",
            "cp1257",
        ),
    ],
    ids=["pl", "cs", "hu", "tr", "lt"],
)
def test_latin_text_keeps_its_windows_code_page(text: str, codec: str) -> None:
    """Detection ranks windows-1250, -1252 and -1257 alike on such text, and did not rank
    windows-1254 at all: Turkish came out as windows-1250."""
    body = ("<title>x</title>" + f"<p>{text}</p>" * 4).encode(codec)
    decoded = decode(body)
    assert decoded.encoding == codec
    assert text in decoded.text


def test_windows_1252_bytes_in_a_utf8_page_are_read_not_replaced() -> None:
    body = ('<meta charset="utf-8"><p>' + "Ein schöner Tag am Fluss. " * 40).encode()
    body += "<p>crème brûlée</p>".encode("cp1252")
    decoded = decode(body)
    assert (decoded.encoding, decoded.source) == ("utf-8", "meta")
    assert decoded.text.endswith("<p>crème brûlée</p>")
    assert "schöner" in decoded.text
    assert decoded.error_rate > 0  # still reported: the declaration was not all true


def test_a_utf8_page_declared_so_and_cut_mid_character_ends_cleanly() -> None:
    body = ('<meta charset="utf-8"><p>' + "Ein schöner Tag am Fluss. " * 40).encode()
    cut = body[: body.rindex("ö".encode()) + 1]
    assert decode(cut).text == cut[:-1].decode("utf-8")


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


_RUSSIAN = (
    "<html><head><title>Новости дня</title></head><body><p>"
    + "Совет директоров утвердил план. " * 40
    + "</p></body></html>"
)


@pytest.mark.parametrize(
    "bom", [codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE]
)
def test_a_wide_bom_before_an_8_bit_page_is_a_stray_mark(bom: bytes) -> None:
    """Four bytes of a UTF-32 mark before a UTF-8 page gave 592 replacement characters; a
    UTF-16 mark gave CJK nonsense without a single decoding error."""
    decoded = decode(bom + _RUSSIAN.encode("utf-8"))
    assert decoded.text == _RUSSIAN
    assert decoded.encoding == "utf-8" and decoded.error_rate == 0.0


def test_a_utf8_page_cut_mid_character_is_still_utf8() -> None:
    """Cut at DENOISE_MAX_BYTES or by a dropped connection, the last character is half
    there: the page is still valid UTF-8 up to it, whatever its markup declares."""
    body = _RUSSIAN.replace("<head>", '<head><meta charset="windows-1251">').encode()
    cut = body[: body.index("утвердил".encode()) + 1]  # inside the "у"
    decoded = decode(cut)
    assert decoded.encoding == "utf-8"
    assert decoded.text == cut[:-1].decode("utf-8")


def test_utf16_in_the_http_header_is_followed_when_the_body_can_be_utf16() -> None:
    """The standard ignores UTF-16 in a <meta>, not in the header; "utf-16" there is
    little-endian. A UTF-8 body under the same header is still read as UTF-8."""
    header = {"Content-Type": "text/html; charset=utf-16"}
    decoded = decode(_RUSSIAN.encode("utf-16-le"), header)
    assert (decoded.text, decoded.encoding, decoded.source) == (_RUSSIAN, "utf-16-le", "header")
    assert decode(_RUSSIAN.encode("utf-8"), header).text == _RUSSIAN
    meta = _RUSSIAN.replace("<head>", '<head><meta charset="utf-16">').encode("utf-8")
    assert decode(meta).encoding == "utf-8"


def test_a_utf16_page_declared_by_its_header_is_text_not_binary() -> None:
    body = _RUSSIAN.encode("utf-16-le")
    header = {"Content-Type": "text/html; charset=utf-16le"}
    doc = load_document(body, "https://news.example/a.html", header)
    assert "binary" not in doc.warnings and doc.head.title == "Новости дня"
    assert "binary" in load_document(body, "https://news.example/a.html").warnings


def test_a_stray_nul_does_not_make_an_8_bit_page_utf16() -> None:
    """One NUL in a UTF-8 page under a lying UTF-16 header gave CJK nonsense; NUL padding
    falls on both byte parities, ASCII markup in UTF-16 on one."""
    header = {"Content-Type": "text/html; charset=utf-16"}
    one_nul = _RUSSIAN.replace("<body>", "<body>\x00").encode("utf-8")
    assert decode(one_nul, header).text.startswith("<html><head><title>Новости")
    padded = _RUSSIAN.encode("utf-8") + b"\x00" * 64
    assert decode(padded, header).encoding == "utf-8"


def test_a_file_signature_under_a_utf16_header_is_still_binary() -> None:
    header = {"Content-Type": "text/html; charset=utf-16"}
    pdf = b"%PDF-1.7\n" + "<html> text </html>".encode("utf-16-le") * 50
    assert "binary" in load_document(pdf, "https://news.example/a.html", header).warnings


@pytest.mark.parametrize(
    "label", ["base64", "rot13", "zlib", "hex", "undefined", "idna", "punycode", "utf-7"]
)
def test_a_python_codec_no_browser_knows_is_no_declaration(label: str) -> None:
    """``codecs.lookup`` knows bytes-to-bytes codecs and Python's own: as a declaration they
    made decoding raise (base64, undefined, idna) or emptied the page (punycode)."""
    page = f'<meta charset="{label}"><p>caf\u00e9 cr\u00e8me</p>'.encode()
    assert decode(page).text.endswith("<p>caf\u00e9 cr\u00e8me</p>")
    header = {"Content-Type": f"text/html; charset={label}"}
    assert decode("<p>caf\u00e9</p>".encode(), header).encoding == "utf-8"
