"""Dates as pages write them: :mod:`scrapy_denoise.dates`."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from scrapy_denoise.dates import (
    compact_date,
    find_written_date,
    parse_date,
    said_published,
    standalone_date,
    url_date,
)


def test_parse_date_reads_machine_forms_only() -> None:
    assert parse_date("2018年5月6日 12:30") == datetime(2018, 5, 6, 12, 30, tzinfo=UTC)
    assert parse_date("2021-03-04") == datetime(2021, 3, 4, tzinfo=UTC)
    assert parse_date("November 21, 2017") is None
    assert parse_date("not a date") is None
    assert parse_date("2018-13-45") is None
    assert parse_date(20240102) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("November 21, 2017 - Stephan Ewen", (2017, 11, 21)),
        ("Posted on Fri, Jan. 18, 2008", (2008, 1, 18)),
        ("9th August 2012 by Matthew Panzarino", (2012, 8, 9)),
        ("Aug 9th, 2012 at 10:00 am", (2012, 8, 9)),
        ("发布于：2012-03-12 admin", (2012, 3, 12)),
        ("Peter Sayer | Monday, 14 January, 2008", (2008, 1, 14)),
        ("Updated 23/11/2012", (2012, 11, 23)),  # a day over 12: day first
        ("on 11/23/2012", (2012, 11, 23)),  # month first
        ("05/05/2012", (2012, 5, 5)),  # either order
        # the weekday picks the order: November 6th was a Tuesday, June 11th a Monday
        ("Tuesday, 11.06.2012 / 4:54 PM", (2012, 11, 6)),
        ("Mon 11.06.2012", (2012, 6, 11)),
        # with a byline's separator between them (January 7th was a Monday, July 1st not)
        ("By David Richards | Monday | 07/01/2008", (2008, 1, 7)),
        # the first date in the text, whatever its form
        ("Sept 3, 2020, updated 2021-01-05", (2020, 9, 3)),
    ],
)
def test_find_written_date_reads_the_forms_people_read(
    text: str, expected: tuple[int, int, int]
) -> None:
    assert find_written_date(text) == datetime(*expected, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("15. März 2024", (2024, 3, 15)),
        ("Veröffentlicht am 1. Oktober 2023, 10:15 Uhr", (2023, 10, 1)),
        ("Publié le 15 mars 2024 à 10h", (2024, 3, 15)),
        ("15 de marzo de 2024", (2024, 3, 15)),
        ("3 de agosto del 2021", (2021, 8, 3)),
        ("15 de março de 2024", (2024, 3, 15)),
        ("15 marzo 2024", (2024, 3, 15)),  # not "mar" and a stray "zo"
        ("15 maart 2024", (2024, 3, 15)),
        ("1 мая 2022 года", (2022, 5, 1)),
        ("15 marca 2024", (2024, 3, 15)),
        ("29 Ekim 2023 Pazar", (2023, 10, 29)),
        ("15 maj 2024", (2024, 5, 15)),
        ("7. září 2020", (2020, 9, 7)),
        ("17 Agustus 2023", (2023, 8, 17)),
        ("15. joulukuuta 2022", (2022, 12, 15)),
        ("18 ноември 2026, 13:24", (2026, 11, 18)),  # Bulgarian
        ("29. новембар 2026. 14:05", (2026, 11, 29)),  # Serbian, Cyrillic and Latin
        ("29. novembar 2026.", (2026, 11, 29)),
        ("29. novembra 2026", (2026, 11, 29)),  # Slovak, Slovenian
        ("3. märts 2024", (2024, 3, 3)),  # Estonian
        ("29 Novemba 2026", (2026, 11, 29)),  # Swahili
        ("18. 11. 2026 07:04", (2026, 11, 18)),  # Czech and Slovak space the dots
        ("10 Maart 2024, 10:26", (2024, 3, 10)),  # Afrikaans
        ("3 Julie 2024", (2024, 7, 3)),
        ("25 сәуір 2024, 21:40", (2024, 4, 25)),  # Kazakh
        ("3 մայիսի 2024, 14:20", (2024, 5, 3)),  # Armenian
        ("7 მაისი 2024, 13:26", (2024, 5, 7)),  # Georgian
        ("30 aprel 2024, 17:20", (2024, 4, 30)),  # Uzbek
        ("Dydd Mercher, 17 Ebrill 2024, 07:55", (2024, 4, 17)),  # Welsh
        ("2025eko martxoaren 3a, 17:40", (2025, 3, 3)),  # Basque, year first
        ("2024ko maiatzaren 13an", (2024, 5, 13)),
        ("2024 оны 4 сарын 22, 08:36", (2024, 4, 22)),  # Mongolian, by number
        ("७ एप्रिल, २०२४ १४:१२ IST", (2024, 4, 7)),  # Marathi, in Devanagari digits
        ("Updated: 22 ਜਨਵਰੀ 2024 08:01 PM (IST)", (2024, 1, 22)),  # Punjabi
        ("2 avqust 2024, 12:27", (2024, 8, 2)),  # Azerbaijani
        ("Published: 1 ಸೆಪ್ಟೆಂಬರ್ 2024, 17:26 IST", (2024, 9, 1)),  # Kannada
        ("21 ઑગસ્ટ 2022, 11:51 AM IST", (2022, 8, 21)),  # Gujarati
        ("12 മാർച്ച് 2024", (2024, 3, 12)),  # Malayalam
        ("14-апрель, 2024, 15:32", (2024, 4, 14)),  # Kyrgyz: a hyphen after the day
        ("Arbaco, 19 Juun 2024", (2024, 6, 19)),  # Somali
        ("12 майи 2024, 14:05", (2024, 5, 12)),  # Tajik
        ("14 Bealtaine 2024", (2024, 5, 14)),  # Irish
        ("Publizéiert: Méindeg, 27. Mee 2024 um 08:05", (2024, 5, 27)),  # Luxembourgish
        ("ວັນພຸດ, 22 ພຶດສະພາ 2024", (2024, 5, 22)),  # Lao
        ("24 de xuño de 2024 · 19:06", (2024, 6, 24)),  # Galician
    ],
)
def test_find_written_date_reads_month_names_of_other_languages(
    text: str, expected: tuple[int, int, int]
) -> None:
    assert find_written_date(text) == datetime(*expected, tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    [
        "03/10/2023",  # March or October: no guess
        "Opening of the Games in Munich, August 26, 1972.",  # a caption: no page is so old
        "November 20, 9999",  # a template's placeholder
        "Posted: 03.10.2023",  # dots do not say the order (NHL.com writes the month first)
        "Wed, 03/10/2023",  # neither March 10th (a Friday) nor October 3rd (a Tuesday)
        "February 30, 2020",
        "Copyright 2012",
        "Jan 2",
        "",
    ],
)
def test_find_written_date_gives_none_without_a_whole_plain_date(text: str) -> None:
    assert find_written_date(text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Thu, January 10, 2008", (2008, 1, 10)),
        ("Published December 6, 2003", (2003, 12, 6)),
        ("Posted on: 2012年3月12日", (2012, 3, 12)),
        ("Wednesday, September 21, 2011 at 11:45 p.m. EDT", (2011, 9, 21)),
        ("Veröffentlicht am 15. März 2024", (2024, 3, 15)),
        ("Опубликовано: 1 мая 2022", (2022, 5, 1)),
    ],
)
def test_standalone_date_reads_a_text_that_is_only_a_date(
    text: str, expected: tuple[int, int, int]
) -> None:
    assert standalone_date(text) == datetime(*expected, tzinfo=UTC)


def test_standalone_date_keeps_the_time_of_an_iso_date() -> None:
    assert standalone_date("2007-11-24 16:23:08") == datetime(2007, 11, 24, 16, 23, 8, tzinfo=UTC)
    assert standalone_date("2012年3月12日 08:05") == datetime(2012, 3, 12, 8, 5, tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    [
        "Comments closed on May 3, 2012",  # a date of something else, inside a sentence
        "Updated May 3, 2012",  # the date of a change, not of publication
        "November 20, 9999 7:00 PM",  # a template's placeholder
        "03/10/2023",
        "2012",
    ],
)
def test_standalone_date_is_none_for_anything_more_or_less_than_a_date(text: str) -> None:
    assert standalone_date(text) is None


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://flink.example/2014/08/26/apache-flink-0.6-available/", (2014, 8, 26)),
        ("http://news.xinhuanet.com/english/2007-11/24/content_7138034.htm", (2007, 11, 24)),
        ("https://paper.example/news/20071124/story.html", (2007, 11, 24)),
    ],
)
def test_url_date_reads_the_date_a_path_carries(url: str, expected: tuple[int, int, int]) -> None:
    assert url_date(url) == datetime(*expected, tzinfo=UTC)


@pytest.mark.parametrize(
    "url", ["https://news.example/story", "https://news.example/2014/13/40/x", ""]
)
def test_url_date_is_none_without_a_whole_valid_date(url: str) -> None:
    assert url_date(url) is None


def test_compact_date_reads_a_value_of_eight_digits_that_make_a_day() -> None:
    assert compact_date(" 20080115 ") == datetime(2008, 1, 15, tzinfo=UTC)
    assert compact_date("19971212") == datetime(1997, 12, 12, tzinfo=UTC)
    for value in ("20081315", "20080230", "2008011512", "id 20080115", "18080115", "", None):
        assert compact_date(value) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Posted on November 13, 2012 in Travel", (2012, 11, 13)),
        ("Published: 29 Dec, 2007", (2007, 12, 29)),
        ("Posted on the 15/12/2025 at 19:00 by @GuillaumeGomez", (2025, 12, 15)),
        ("Published on Thursday, February 24, 2000 in the New Republic", (2000, 2, 24)),
        ("First published October 7, 2004", (2004, 10, 7)),
        # the other languages whose month names are read
        ("Veröffentlicht am 15. März 2024, 10:15 Uhr", (2024, 3, 15)),
        ("Publié le 15 mars 2024 à 10h12", (2024, 3, 15)),
        ("Publicado el 15 de marzo de 2024", (2024, 3, 15)),
        ("Pubblicato il 15 marzo 2024", (2024, 3, 15)),
        ("Gepubliceerd op 15 maart 2024", (2024, 3, 15)),
        ("Opublikowano: 15 marca 2024", (2024, 3, 15)),
        ("Опубликовано 1 мая 2022", (2022, 5, 1)),
        ("Yayınlanma tarihi: 15 Mart 2024", (2024, 3, 15)),
        ("Publiceret 15. marts 2024", (2024, 3, 15)),
        ("Julkaistu 15. maaliskuuta 2024", (2024, 3, 15)),
    ],
)
def test_said_published_reads_a_text_that_starts_with_its_publication(
    text: str, expected: tuple[int, int, int]
) -> None:
    assert said_published(text) == datetime(*expected, tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    [
        "Updated on November 13, 2012",  # an update is no publication
        "The report was published on November 13, 2012",  # not at the start
        "Posted in Travel on November 13, 2012",
        "Posted on November 20, 9999",  # a placeholder
        "Posted by Jane Roe",
        "Aktualisiert am 15. März 2024",  # "updated", in German
    ],
)
def test_said_published_is_none_unless_the_text_starts_with_it(text: str) -> None:
    assert said_published(text) is None


@pytest.mark.parametrize(
    ("text", "month"),
    [
        ("12 KASIM 2024", 11),
        ("12 ARALIK 2024", 12),
        ("12 EKİM 2024", 10),
        ("Yayınlanma Tarihi: 12 NİSAN 2024 14:30", 4),
        ("12 HAZİRAN 2024", 6),
        ("12 Kasim 2024", 11),  # ASCII spelling, as older Turkish sites write it
        ("12 aralik 2024", 12),
        ("12 Kasım 2024", 11),
    ],
)
def test_find_written_date_reads_turkish_months_in_any_case(text: str, month: int) -> None:
    # a Turkish month in capitals or without its dotless i raised ValueError (the whole
    # page's extraction failed) when its lower case was no known name
    assert find_written_date(text) == datetime(2024, month, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("١٢ مارس ٢٠٢٤", (2024, 3, 12)),
        ("الثلاثاء ١٢ مارس ٢٠٢٤ - ١٠:٣٠ ص", (2024, 3, 12)),
        ("12 मार्च 2024", (2024, 3, 12)),
        ("२ अक्टूबर २०२३", (2023, 10, 2)),
        ("입력 2024년 3월 12일", (2024, 3, 12)),
        ("Пʼятниця, 3 травня 2024, 14:20", (2024, 5, 3)),  # Ukrainian
        ("Παρασκευή, 3 Μαΐου 2024 14:20", (2024, 5, 3)),  # Greek
        ("شائع 17 جولائی 2024 09:13pm", (2024, 7, 17)),  # Urdu
        ("ΔΕΥΤΕΡΑ, 9 ΑΥΓΟΥΣΤΟΥ 2021", (2021, 8, 9)),
        # the day of "1er" / "1º" was no day, and the line's next date was read instead
        ("Publié le 1er mars 2024 à 14h30, mis à jour le 12 mars 2024", (2024, 3, 1)),
        ("1º de março de 2024", (2024, 3, 1)),
        ("1.º de marzo de 2024", (2024, 3, 1)),
    ],
)
def test_find_written_date_reads_arabic_hindi_korean_and_first_days(
    text: str, expected: tuple[int, int, int]
) -> None:
    found = find_written_date(text)
    assert found is not None and found.date() == datetime(*expected).date()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Persian news sites' Solar Hijri dates, by name and in numbers, Persian digits or not
        ("جمعه ۱۴ اردیبهشت ۱۴۰۳ - ۱۴:۲۰", (2024, 5, 3)),
        ("۱۴۰۳/۰۲/۱۴ - ۱۴:۲۰", (2024, 5, 3)),
        ("دوشنبه ۱۴ شهریور ۱۴۰۱", (2022, 9, 5)),
        # New Year's days and leap days of the 33-year cycle
        ("1 فروردین 1403", (2024, 3, 20)),
        ("1 فروردین 1404", (2025, 3, 21)),
        ("30 اسفند 1399", (2021, 3, 20)),
        ("1370/01/01", (1991, 3, 21)),
    ],
)
def test_find_written_date_reads_solar_hijri_dates(
    text: str, expected: tuple[int, int, int]
) -> None:
    found = find_written_date(text)
    assert found is not None and found.date() == datetime(*expected).date()


@pytest.mark.parametrize(
    "text", ["30 اسفند 1402", "1403/13/01", "1403/07/31", "کد خبر: ۱۴۰۳۰۲۱۴۰۷۸۴۵"]
)
def test_find_written_date_gives_none_for_days_the_solar_hijri_calendar_lacks(text: str) -> None:
    assert find_written_date(text) is None
