"""The header lines ``keep_headline=False`` leaves out: the headline and the lines that only
say the article's date, author and reading time (:mod:`scrapy_denoise.methods.header_lines`)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from scrapy_denoise import Denoiser
from scrapy_denoise.methods.header_lines import HEADER_LINES, is_meta_line, without_header

PUBLISHED = datetime(2024, 5, 21, 15, 15, tzinfo=UTC)


@pytest.mark.parametrize(
    ("line", "authors"),
    [
        # Pelican's Flex theme, a generated copy's short posts kept both
        ("Posted on Tue 21 May 2024 in Data • Tagged with sqlalchemy, postgres • 1 min read", []),
        ("by Lucía Ferreira", ["Lucía Ferreira"]),
        # the Next.js starter blog's header, one line each
        ("Tuesday, May 21, 2024", []),
        ("Kestrel Engineering", ["Kestrel Engineering"]),
        ("Lucía Ferreira · May 21, 2024 · 6 min read", ["Lucía Ferreira"]),
        ("Posted on 21 May 2024, by Jane Roe, John Doe", ["Jane Roe", "John Doe"]),
        ("May 21, 2024 at 3:15 PM", []),
        # Chinese themes run the parts together (vuepress-theme-hope's page info)
        ("叶舟2024年5月21日前端Vue Vue小于 1 分钟约 161 字...", ["叶舟"]),
        ("发表于 2024-05-21 | 分类于 前端 | 阅读次数: 12", []),
        # Hugo's Ananke theme: the dashes stay between the parts taken out
        ("May 21, 2024 - 2 minutes read - 218 words", []),
        ("May 21, 2024 - One minute read - 48 words", []),
        ("6 min read", []),
        # the page's last change, whatever its date (AstroPaper's header)
        ("Updated: 30 Oct, 2023 at 10:15 AM", []),
        # other languages' words around the date and names (TYPO3's news extension, SPIP,
        # 1C-Bitrix, a Spanish theme)
        ("Veröffentlicht am 21. Mai 2024 von Anna Schneider", ["Anna Schneider"]),
        ("Publié le 21 mai 2024, par Jean-Pierre Cabrol et Odile Faure", ["Jean-Pierre Cabrol"]),
        ("21 мая 2024, 15:15", []),
        ("Publicado el 21 de mayo de 2024 por Ana López · 5 minutos de lectura", ["Ana López"]),
        ("Lesezeit: 3 Min.", []),
        ("Publié le 21 mai 2024 à 17h15, modifié le 22 mai 2024 à 08h16 Lecture 2 min.", []),
        ("Stand: 20.04.2023 10:28 Uhr", []),  # German's "as of": the page's last change
        # Arabic, Vietnamese, Turkish and Indonesian news sites' date lines; a numeric date
        # that could be either day first or month first is read by the page's date
        ("نشر في 21/5/2024", []),
        ("آخر تحديث: 21/5/2024 03:15 م (بتوقيت مكة)", []),
        ("Thứ ba, 21/5/2024, 22:15 (GMT+7)", []),
        ("Giriş Tarihi: 21.05.2024 18:15", []),
        ("Selasa, 21 Mei 2024 22:15 WIB", []),
        ("5/21/2024", []),
        # Hindi's and Thai's bylines and date labels
        ("लेखक: नेहा त्रिपाठी", ["नेहा त्रिपाठी"]),
        ("Aktualizacja: 21.05.2024, 17:37", []),  # Polish: the page's last change
        ("Publicado a 21 mai 2024, 16:15 · Atualizado 22 mai 2024, 10:02", []),  # Portugal's
        ("Publicerad 21 maj 2024 kl. 17.27 Uppdaterad 22 maj 2024 kl. 00.41", []),  # Swedish
        ("Андрій Сидоренко — Вівторок, 21 травня 2024, 18:15", ["Андрій Сидоренко"]),
        ("سه‌شنبه ۱ خرداد ۱۴۰۳ - ۱۸:۴۵", []),  # Persian, in the Solar Hijri calendar
        ("اسپورٹس ڈیسک | شائع 21 مئی 2024 08:15pm", ["اسپورٹس ڈیسک"]),  # Urdu
        ("تاریخ انتشار: ۱۴۰۳/۰۳/۰۱ - ۱۸:۴۵", []),
        ("פורסם: 21.05.24, 18:15 עודכן: 21.05.24, 22:32", []),  # ynet's, the year cut
        ("प्रकाशित: 21 मई 2024, 03:15 PM", []),
        ("โดย สมชาย ใจดี", ["สมชาย ใจดี"]),
        # WordPress's Soledad theme, in Spanish: counts of comments and views beside
        (
            "por Ana López 21 de mayo de 2024 Sin comentarios 1 min de lectura 6.928 vistas",
            ["Ana López"],
        ),
        # the page's date in its own time zone: 15:15 UTC is the next day east of UTC+9
        ("Published May 22, 2024 at 12:15 a.m. JST", []),
        # dated and signed, a few words more: the category and tags TYPO3 prints between
        (
            "Veröffentlicht am 21. Mai 2024 Kultur #Veranstaltung Von Julia Hoffmann",
            ["Julia Hoffmann"],
        ),
        # Danish (a month's abbreviation is no sentence's end), Slovak (spaced dots),
        # Lithuanian (and a comment count), Catalan, Slovenian
        ("Af Mette Holm Kristensen", ["Mette Holm Kristensen"]),
        ("21. maj 2024 kl. 17.50 Opdateret 21. maj 2024 kl. 19.21", []),
        ("21. 5. 2024 17:04 Aktualizované 21. 5. 2024 19:58", []),
        ("2024-05-21 17:23 Atnaujinta 2024-05-21 19:34 68", []),
        ("21/05/2024 17:48 Actualitzat 21/05/2024 19:12", []),
        ("21. 5. 2024 ob 17.22 1 min branja", []),
        ("Avtor: Nina Zupančič", ["Nina Zupančič"]),
        # Bulgarian's month, with the story's view and comment counts
        ("Надежда Петрова 21 май 2024, 17:24 17390 66", ["Надежда Петрова"]),
        # a Korean paper's stamps: entered and modified
        ("입력 2024.05.21. 17:35 수정 2024.05.21. 19:31", []),
        # Afrikaans: the writer's town between name and date, reading time, comments
        (
            "Deur Koos Ferreira, Middelburg 21 Mei 2024, 10:26 1 min. leestyd 0 kommentaar",
            ["Koos Ferreira"],
        ),
        ("Deur Karla Venter 21 Mei 2024, 11:42 Bygewerk: 21 Mei 2024, 13:53", ["Karla Venter"]),
        ("21 мамыр 2024, 21:407 8887", []),  # Kazakh, time and counters run together
        ("Muallif: Dilnoza Karimova | 21 may 2024, 17:20", ["Dilnoza Karimova"]),  # Uzbek
        ("Dydd Mawrth, 21 Mai 2024, 10:45 Diweddarwyd: 21 Mai 2024, 13:17", []),  # Welsh
        ("Gan Catrin Rhys", ["Catrin Rhys"]),
        # Bosnian: "writes", the date's closing dot, "at", comments and views
        ("Piše: Lejla Mehmedović 21.5.2024. u 17:37 214 94.452 pregleda", ["Lejla Mehmedović"]),
        ("Edited By ਮਨਦੀਪ ਕੌਰ, Updated: 21 ਮਈ 2024 08:01 PM (IST)", ["ਮਨਦੀਪ ਕੌਰ"]),  # Punjabi
        ("2024ko maiatzaren 21a, 17:40 Eguneratua: 18:40", []),  # Basque
        # Mongolian, by number, its category glued on, with view, comment and print icons
        (
            "Улс төр2024 оны 5 сарын 21, 17:40 Нийтэлсэн: Д.Түвшинбаяр👁 33,166💬 11🖨 Хэвлэх",
            ["Д.Түвшинбаяр"],
        ),
        # Georgian: author, views after an eye, comments
        ("21 მაისი 2024, 18:19 ავტორი: მარიამ ტუღუში 👁 15 370 კომენტარები: 0", ["მარიამ ტუღუში"]),
    ],
)
def test_a_line_of_the_pages_own_date_author_and_reading_time_is_meta(
    line: str, authors: list[str]
) -> None:
    assert is_meta_line(line, PUBLISHED, authors)


@pytest.mark.parametrize(
    ("line", "authors"),
    [
        # a dateline opens the first paragraph: prose
        ("WASHINGTON, May 21, 2024 - The senate voted on Tuesday.", []),
        # another day's date, a name that is not the author's, a section name
        ("May 24, 2024", []),
        ("3/5/2024", []),  # neither reading is the page's date
        ("פורסם: 22.06.24, 18:15", []),  # nor this one's, the year cut
        ("Version 21.05.24", []),  # a version, not the date a page prints
        ("Updated on our plans", []),
        ("Jane Roe", ["John Doe"]),
        ("Data", []),
        # the author named in a sentence
        ("In 2024, Lucía Ferreira joined the team", ["Lucía Ferreira"]),
        # a category beside no date of the page
        ("in Data", []),
        ("A minute of silence", []),
        # a Chinese sentence, and a date with neither author nor reading time
        ("2024年5月21日，我们去了海边。", ["叶舟"]),
        ("2024年5月21日 游记", []),
        ("", []),
        # dated but not signed, or more than a few words more: a headline, not a byline
        ("21. Mai 2024 Kultur #Veranstaltung", []),
        ("May 21, 2024: John Doe wins the Ohio primary race in a landslide", ["John Doe"]),
        # a date opening a sentence, and a number that is a sentence's
        ("On 21 May 2024 the council met. It voted.", []),
        ("21 May 2024 1234 people came", []),
        ("2024년 5월 21일 서울 시내에서 열린 행사", []),
    ],
)
def test_other_lines_are_not_meta(line: str, authors: list[str]) -> None:
    assert not is_meta_line(line, PUBLISHED, authors)


def test_a_months_abbreviation_ends_no_sentence() -> None:
    """A Danish paper's "21. nov. 2026 kl. 12.50": the "ov." is no sentence's end."""
    published = datetime(2026, 11, 21, 11, 50, tzinfo=UTC)
    assert is_meta_line("21. nov. 2026 kl. 12.50 Opdateret 21. nov. 2026 kl. 15.21", published, [])
    assert not is_meta_line("21. nov. 2026 kl. 12.50 Regeringen gik af.", published, [])


def test_the_header_goes_and_the_body_stays() -> None:
    lines = [
        "Announcing our region",
        "Tuesday, May 21, 2024",
        "Kestrel Engineering",
        "@kestreleng",  # a handle under the byline is the byline's
        "We opened a region. It is fast.",
        "May 21, 2024",  # further down than a header goes: the story's own
    ]
    lines[5:5] = ["More text."] * (HEADER_LINES - 5)
    kept = without_header(lines, "Announcing our region", PUBLISHED, "Kestrel Engineering")
    assert kept == lines[4:]


def test_a_handle_alone_stays() -> None:
    lines = ["@kestreleng", "We opened a region."]
    assert without_header(lines, None, PUBLISHED, "Kestrel Engineering") == lines


def test_without_date_or_author_only_the_headline_goes() -> None:
    lines = ["Title", "May 21, 2024", "Body."]
    assert without_header(lines, "Title", None, None) == ["May 21, 2024", "Body."]


def test_a_crawls_text_leaves_a_short_posts_byline_to_its_columns() -> None:
    paragraph = "We opened a new region in the east this spring, and customers moved in fast. "
    html = f"""<html><head><title>Announcing our region</title>
    <meta property="article:published_time" content="2024-05-21T15:15:00Z">
    <meta name="author" content="Lucía Ferreira"></head>
    <body><article><h1>Announcing our region</h1>
    <p class="meta">Posted on Tue 21 May 2024 in News • 1 min read</p>
    <p class="byline">by Lucía Ferreira</p><p>{paragraph * 2}</p></article></body></html>"""
    url = "https://blog.example/announcing-our-region.html"
    with Denoiser(store=False) as keeping, Denoiser(store=False, keep_headline=False) as dropping:
        kept, dropped = keeping.extract(html, url), dropping.extract(html, url)
    assert "by Lucía Ferreira" in kept.text.split("\n")
    assert dropped.text == (paragraph * 2).strip()
    assert (dropped.author, dropped.published) == ("Lucía Ferreira", PUBLISHED)


def test_a_summary_cut_from_the_storys_start_goes() -> None:
    # PHPCMS prints the description, the story's first 200 characters cut mid-word, above
    # the story; the paragraphs it spans are joined without a space in Chinese
    first = "近年来，本市预拌混凝土行业深入贯彻新发展理念，把智能制造作为推动行业转型升级的抓手。"
    second = "以北京德润干混砂浆有限公司为例，该公司投资建设了智能生产管控平台。"
    summary = (first + second)[:60]
    lines = ["智能制造：预拌混凝土企业在行动", summary, first, second]
    kept = without_header(lines, "智能制造：预拌混凝土企业在行动", None, None)
    assert kept == [first, second]
    # an English excerpt with its ellipsis, over two paragraphs
    body = ["We opened a new region in the east this spring.", "Customers moved in fast."]
    excerpt = "We opened a new region in the east this spring. Customers moved…"
    assert without_header([excerpt, *body], None, None, None) == body


def test_a_line_that_does_not_begin_the_text_after_it_stays() -> None:
    lines = [
        "A standfirst its editor wrote, which says what the story is about.",
        "We opened a new region in the east this spring.",
        "Customers moved in fast.",
    ]
    assert without_header(lines, None, None, None) == lines
    # a short line beginning the next is a heading or a label
    short = ["Results", "Results of the spring survey are in, and they are good news."]
    assert without_header(short, None, None, None) == short
