"""The lines of an article's header: its headline and the meta lines that date and sign it.

A crawl stores the title, the publication date and the author in columns of their own
(``DenoiseOptions(keep_headline=False)``, a crawl's default), so the lines that say them
again at the top of the text are the same facts twice. The block methods keep them on
short posts, where the header is a large share of the page's text and sits in the post's
own container: generated copies of four blog themes kept "Wednesday, April 19, 2023",
"Kestrel Engineering", "@kestreleng" (a Next.js starter blog), "by Lucía Ferreira" and
"Posted on Tue 21 May 2024 in Data • Tagged with sqlalchemy, postgres • 1 min read"
(Pelican's Flex theme) over their posts' first paragraph.

A line is a *meta line* when nothing is left of it once the page's own metadata and the
words around them are taken out: the publication date (any written form, with its time
of day), the author's names, social handles, a reading time or word count, the words
"posted", "published", "updated", "by", "on", ... and separators. It must hold the
page's date, one of its authors or a reading time, or be a stamp of its last change
("Updated: 30 Oct, 2023"), so a date or name of something else stays. Where it holds the
page's date, the category and tags that themes print beside it ("in Data", "Tagged with
sqlalchemy, postgres") count as meta too. Only the first
:data:`HEADER_LINES` lines are looked at, and a line of prose (:data:`MAX_META_CHARS`, a
full stop) is never one: a news story's dateline ("WASHINGTON, May 21, 2024 - ...") opens
its first paragraph and stays. The words around the parts are those of English and of the
stop-word vote's first languages and Russian ("Veröffentlicht am ... von", "Publié le ...
par ... et ...", "Publicado el ... por"; the dates are :mod:`~scrapy_denoise.dates`'s, in
those languages too): generated copies of a German TYPO3 site and a French SPIP site kept
their stories' bylines (text F1 0.981 and 0.963). A line that holds both the page's date
and one of its authors may hold :data:`MAX_LOOSE_WORDS` words more, the category that
TYPO3's news template prints between them without a separator ("Veröffentlicht am 3.
August 2023 Kultur #Veranstaltung Von Julia Hoffmann") or a label ("Words by ...").

Chinese themes run an info line's parts together with no separator ("叶舟2021年6月26日
前端Vue小于 1 分钟约 161 字"): such a line counts when it is short, holds no sentence
punctuation and the page's date, and its author or a reading time.

A *summary* line says the text's first words again: CMSs that print the page's
description above the story cut it from the story's own start (PHPCMS and DedeCMS take
its first 200 characters, WordPress themes the excerpt's first 55 words), often in the
middle of a word. Such a line among the first :data:`HEADER_LINES` is dropped when it,
without an ellipsis, begins the lines that follow it (whitespace aside, since Chinese
joins the paragraphs it spans without a space) and is :data:`MIN_SUMMARY_CHARS` long.
A generated PHPCMS portal printed one on 55 of its 92 stories (text F1 0.928 with them).
In the six extraction datasets' truth, 4 of 4,971 pages hold a line that begins the
next ones, three of them a headline, which a crawl drops anyway.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime, timedelta

from ..dates import NUMERIC_DATE, WRITTEN_DATE, find_written_date
from .line_rules import headline_index

__all__ = [
    "HEADER_LINES",
    "MAX_CJK_META_CHARS",
    "MAX_LOOSE_WORDS",
    "MAX_META_CHARS",
    "MIN_SUMMARY_CHARS",
    "header_indexes",
    "is_meta_line",
    "without_header",
]

#: how far down the text header lines are looked for (the headline's own window, with a
#: line more for a byline under a date under a headline)
HEADER_LINES = 6
#: the longest meta line: a date, two or three names, a category and a few tags
MAX_META_CHARS = 160

#: what a theme puts between a meta line's parts, and what it puts between names or tags
#: (and the icons before a view, comment or print count: "👁 33,166💬 11🖨 Хэвлэх")
_SEPARATORS = re.compile(r"\s*(?:[|•·/👁💬🖨]|\s[-–—]\s)\s*")
_COMMA = re.compile(r"\s*,\s*")
_TIME = re.compile(
    # with Scandinavian's "kl." (klockan, o'clock) before it: "kl. 14.20"
    # and French's "17h15"
    r"(?:\bkl\.\s*)?\b\d{1,2}(?:[:.]|h(?=\d\d\b))\d{2}(?::\d{2})?"
    r"(?:\s*(?:[ap]\.?m\.?|[مص](?!\w)))?(?:\s+[A-Z]{2,4}\b)?"
    # a time zone as news sites print it: "(GMT+7)", "(بتوقيت مكة)" (Mecca time)
    r"|\(?(?:GMT|UTC)\s*[+-]\s*\d{1,2}(?::?\d{2})?\)?|\(?بتوقيت\s+\w+\)?",
    re.I,
)
_HANDLE = re.compile(r"\(?(?<![\w.])@\w+\)?")
_READING = re.compile(
    r"\b(?:\d{1,3}|one|two|three|four|five|a)\s*min(?:ute)?s?\.?"
    r"(?:\s+(?:read|de\s+lectura|de\s+leitura|de\s+lecture|di\s+lettura|branja|(?:č|c)ten(?:í|i)"
    r"|(?:č|c)(?:í|i)tania|lugemist|las(?:ī|i)(?:š|s)anai|skaitymo|l(?:æ|ä|e)s(?:n|t)ing"
    r"|leestyd))?(?!\w)"
    r"|\b[\d,.]+\s*(?:words|views|comments?|vistas|visitas|visualiza(?:ç|c)(?:õ|o)es|vues"
    r"|comentarios|coment(?:á|a)rios|commentaires|kommentare|kommentaar|aufrufe|კომენტარები"
    r"|pregleda|прегледа)"
    r"(?!\w)"
    r"|\b(?:no\s+comments|sin\s+comentarios|sem\s+coment(?:á|a)rios|aucun\s+commentaire"
    r"|keine\s+kommentare)\b"
    r"|\bread(?:ing)?\s+time\s*:?"
    # German, French, Spanish, Italian, Dutch, Russian: "Lesezeit: 3 Min.", "3 min de
    # lecture", "lectura de 3 minutos", "5 мин. чтения"
    r"|\b(?:lesezeit|lesedauer|leestijd|leestyd|temps\s+de\s+lecture|tiempo\s+de\s+lectura"
    r"|tempo\s+di\s+lettura|время\s+чтения)\b\s*:?"
    r"|\b\d{1,3}\s*(?:minuten|minutes?|minutos|minuti|мин(?:ут[аы]?)?)\.?"
    r"(?:\s+(?:de\s+lecture|de\s+lectura|di\s+lettura|чтения))?(?!\w)",
    re.I,
)
#: the words a meta line says its parts with, in English and then in the languages of
#: the stop-word vote's first candidates and Russian ("Veröffentlicht am ... von", "Publié
#: le ... par ... et ... mis à jour le", "Publicado el ... por", "Опубликовано ... автор")
_FILLER = re.compile(
    r"\b(?:(?:first\s+)?published|posted|updated|last\s+updated|modified|written|dated"
    r"|on|by|at|and|author|authors|date|time|read|reading"
    r"|ver(?:ö|oe)ffentlicht|aktualisiert|zuletzt|ge(?:ä|ae)ndert|erstellt|geschrieben"
    r"|von|am|um|uhr|und|autor(?:in|en)?|datum|stand"
    r"|publi(?:é|e)e?|mis\s+(?:à|a)\s+jour|mise\s+(?:à|a)\s+jour|modifi(?:é|e)e?|le|par|et|à"
    r"|lecture"
    r"|auteur|(?:é|e)crit|publicado|actualizado|atualizado|por|el|y|em|e|às|a"
    r"|pubblicato|aggiornato|da|il|alle|autore|gepubliceerd|bijgewerkt|door|op|en|om"
    # Afrikaans: "Deur Karla Venter 7 Maart 2024, 11:42 Bygewerk: 7 Maart 2024, 13:53"
    r"|deur|gepubliseer|bygewerk"
    r"|опубликовано|обновлено|автор|от|и"
    # Swedish, Danish and Norwegian: "Publicerad 3 maj 2024 kl. 14.20 Uppdaterad ..."
    r"|publicerad|publicerat|uppdaterad|uppdaterat|publiceret|opdateret|publisert|oppdatert"
    r"|av|af"
    # Czech's and Slovak's, Croatian's and Serbian's, Slovenian's, Bulgarian's, Lithuanian's,
    # Latvian's, Estonian's and Catalan's "published" and "updated" ("18. 11. 2026 07:04
    # Aktualizované 18. 11. 2026 11:58", "2026-11-24 14:23 Atnaujinta 2026-11-24 14:34")
    r"|publikováno|publikované|aktualizováno|aktualizované|objavljeno|ažurirano|azurirano"
    r"|posodobljeno|публикувано|обновено|ажурирано"
    r"|paskelbta|atnaujinta|publicēts|atjaunots|avaldatud|uuendatud|publicat|actualitzat"
    r"|ob|avtor|аутор"
    # Bosnian's, Croatian's and Serbian's "writes", "write" and "at" ("Piše: Lejla
    # Mehmedović 26.11.2024. u 20:37 214 94.452 pregleda", a generated Klix-style portal's)
    r"|pi(?:š|s)e|pi(?:š|s)u|u|пише|пишу"
    # Polish: "Opublikowano: ...", "Aktualizacja: 03.05.2024, 14:20", "Autor: ..."
    r"|opublikowano|aktualizacja|zaktualizowano|autor"
    # Ukrainian weekdays ("Андрій Сидоренко — Пʼятниця, 3 травня 2024, 14:20")
    r"|понеділок|вівторок|середа|четвер|п[ʼ'’]?ятниця|субота|неділя|оновлено"
    # Greek's: "Του/Της ... Παρασκευή, 3 Μαΐου 2024 14:20 Τελευταία ενημέρωση: ..."
    r"|δευτέρα|τρίτη|τετάρτη|πέμπτη|παρασκευή|σάββατο|κυριακή|του|της"
    r"|(?:τελευταία\s+)?ενημέρωση|δημοσίευση"
    # Arabic: "نشر في" (published on), "آخر تحديث" (last update), "بقلم" (by), "م" (p.m.)
    r"|نشر|في|آخر\s+تحديث|تحديث|بقلم|م|ص"
    # the weekday and labels of Indonesian, Vietnamese and Turkish news sites: "Jumat, 03
    # Mei 2024 14:20 WIB", "Thứ sáu, 3/5/2024, 14:20 (GMT+7)", "Giriş Tarihi: 03.05.2024"
    r"|senin|selasa|rabu|kamis|jumat|sabtu|minggu|diperbarui|oleh"
    r"|thứ\s+(?:hai|ba|tư|năm|sáu|bảy)|chủ\s+nhật|cập\s+nhật"
    r"|giriş\s+tarihi|güncelleme\s+tarihi|güncellendi|yazan"
    # Hindi's, Persian's, Hebrew's and Thai's: "लेखक: ...", "प्रकाशित: 03 मई 2024",
    # "अपडेटेड", "خبرنگار: ...", "מאת ...", "פורסם: ...", "โดย ...", "อัปเดตล่าสุด ..."
    r"|लेखक|प्रकाशित|अपडेटेड|अपडेट|द्वारा|خبرنگار|نویسنده|تاریخ\s+انتشار|انتشار"
    r"|מאת|פורסם|עודכן|โดย|อัปเดต(?:ล่าสุด)?|เผยแพร่"
    # Persian's weekdays, before a Solar Hijri date ("جمعه ۱۴ اردیبهشت ۱۴۰۳ - ۱۴:۲۰")
    r"|(?:یک|دو|سه|چهار|پنج)?[\u200c ]?شنبه|جمعه"
    # Urdu's "published" and "updated" ("اسپورٹس ڈیسک | شائع 17 جولائی 2024 09:13pm")
    r"|شائع|اپ\s?ڈیٹ"
    # Georgian's and Uzbek's "author" ("ავტორი: ...", "Muallif: ..."); Welsh's "by",
    # "published", "updated" and weekdays ("Gan ...", "Dydd Gwener, 29 Mawrth 2024, 10:45
    # Diweddarwyd: ..."), Basque's "updated" ("2025eko martxoaren 3a, 17:40 Eguneratua: ..."),
    # Mongolian's "published by" ("Нийтэлсэн: Д.Түвшинбаяр")
    r"|ავტორი|muallif|gan|cyhoeddwyd|diweddarwyd|eguneratua|нийтэлсэн"
    r"|dydd\s+(?:llun|mawrth|mercher|iau|gwener|sadwrn|sul))\b\s*:?|&",
    re.I,
)
#: the words that start a stamp of the page's last change
_UPDATED = re.compile(
    r"(?:last\s+|zuletzt\s+)?(?:updated|modified|edited|revised|aktualisiert|ge(?:ä|ae)ndert"
    r"|stand"
    r"|mis\s+(?:à|a)\s+jour|actualizado|atualizado|aggiornato|bijgewerkt|bygewerk|diweddarwyd|eguneratua"
    r"|обновлено"
    r"|aktualizacja|zaktualizowano"
    r"|آخر\s+تحديث)\b",
    re.I,
)
#: a tag as themes print it beside the date: "#Veranstaltung"
_HASHTAG = re.compile(r"(?<![\w&])#\w[\w-]*")
#: words left over that a line holding both the page's date and its author may still
#: hold: the category a theme prints between them without a separator ("Veröffentlicht
#: am 3. August 2023 Kultur #Veranstaltung Von Julia Hoffmann")
MAX_LOOSE_WORDS = 4
#: a category or tag list beside the date: "in Data", "Tagged with sqlalchemy, postgres"
_TAXONOMY = re.compile(
    r"(?:^|(?<=\s))(?:in|tagged(?:\s+with)?|tags?\s*:|categor(?:y|ies)\s*:|filed\s+under)\s+"
    r"[^.!?]{1,80}$",
    re.I,
)
#: what is left of a meta line once its parts are out (Ananke's "July 20, 2021 - 2 minutes
#: read - 218 words" leaves its dashes between the separators taken)
_PUNCTUATION = " \t:;()[]-–—|•·/"
#: a sentence's end inside the line: "... on May 3. The ..." is prose
_SENTENCE = re.compile(r"[a-z]{2}[.!?](?:\s|$)")


#: a character of a language written without spaces between words
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
#: a Chinese or Japanese sentence's punctuation
_CJK_SENTENCE = re.compile(r"[。！？，；]")
#: a Chinese reading time or word count: "小于 1 分钟", "约 161 字", "阅读时长"
_CJK_READING = re.compile(r"\d+\s*分钟|[约共]\s*[\d,.]+\s*[kK万千]?\s*字|阅读")
#: the labels of a Korean, Japanese or Chinese news story's date stamps: "입력" (entered),
#: "수정" (modified), "更新", "公開", "配信" (Japanese), "发布时间" (published)
_CJK_STAMP_LABELS = re.compile(
    r"(?:기사\s*)?입력|(?:최종\s*)?수정|등록|승인|업데이트|발행|更新(?:日(?:時)?)?|公開(?:日(?:時)?)?"
    r"|配信|掲載|発行|发布(?:时间|日期|于)?|更新时间|时间|日期|[:：]"
)
#: the longest Chinese meta line (a character is a word)
MAX_CJK_META_CHARS = 80
#: the shortest summary line (characters, whitespace aside): a short line beginning the
#: next is a heading or a label
MIN_SUMMARY_CHARS = 40
#: the same with the year's last two digits, which ynet and other Israeli sites print
#: ("פורסם: 06.06.24, 14:01"): a date only where it is the page's own (no reader of dates
#: takes it, since "06.06.24" could as well be a version or a score)
_SHORT_DATE = re.compile(r"(?<![\w.])(\d{1,2})[./-](\d{1,2})[./-](\d\d)(?![\w.])")
#: a cut line's ellipsis
_ELLIPSIS = re.compile(r"\s*(?:\.{3}|…)\s*$")


def is_meta_line(line: str, published: datetime | None, authors: Sequence[str]) -> bool:
    """Is ``line`` nothing but the page's date, authors and reading time (module doc)?"""
    text = " ".join(line.split())
    if not text or len(text) > MAX_META_CHARS:
        return False
    if _CJK.search(text):
        return _is_cjk_meta_line(text, published, authors)
    # "3 Min." ends no sentence, nor does "kl." (Swedish's "o'clock") before a time, nor a
    # month's abbreviation ("21. nov. 2026 kl. 12.50", a Danish paper's)
    if _SENTENCE.search(_TIME.sub(" ", _READING.sub(" ", WRITTEN_DATE.sub(" ", text)))):
        return False
    # an update stamp dates the page too, whatever its date: "Updated: 30 Oct, 2023"
    anchored = _UPDATED.match(text) is not None and WRITTEN_DATE.search(text) is not None
    dated = False
    if published is not None:
        days = _local_days(published)

        def _date(match: re.Match[str]) -> str:
            nonlocal dated
            if days & _written_days(match.group()):
                dated = True
            return " | "

        text = WRITTEN_DATE.sub(_date, text)

        def _short(match: re.Match[str]) -> str:
            nonlocal dated
            a, b, year = (int(part) for part in match.groups())
            if days & _days(2000 + year, a, b):
                dated = True
                return " | "
            return match.group()

        text = _SHORT_DATE.sub(_short, text)
    signed = False
    for name in authors:
        text, found = re.subn(rf"(?<!\w){re.escape(name)}(?!\w)", " | ", text, flags=re.I)
        signed = signed or found > 0
    text, read = _READING.subn(" | ", text)
    anchored = anchored or signed or dated or read > 0
    if not anchored:
        return False
    text = _HANDLE.sub(" | ", _TIME.sub(" | ", text))
    if dated:
        text = _HASHTAG.sub(" | ", text)
    loose = 0
    for part in _SEPARATORS.split(text):
        if dated and _TAXONOMY.fullmatch(part.strip()) is not None:
            continue
        for piece in _COMMA.split(part):
            left = _FILLER.sub(" ", piece).strip(_PUNCTUATION)
            if not left or (dated and left.replace(" ", "").isdigit()):
                # nothing, or a dated line's view and comment counters ("Надежда Петрова 18
                # ноември 2026, 13:24 17390 66", a Bulgarian paper's)
                continue
            # dated and signed, a line may hold a few words more (MAX_LOOSE_WORDS)
            loose += len(left.split())
            if not (dated and signed) or loose > MAX_LOOSE_WORDS:
                return False
    return True


def _is_cjk_meta_line(text: str, published: datetime | None, authors: Sequence[str]) -> bool:
    """A Chinese theme's info line runs its parts together ("叶舟2021年6月26日前端Vue小于
    1 分钟约 161 字", vuepress-theme-hope's page info), so they cannot be taken out one by
    one: the line is short, holds no sentence punctuation and the page's own date, and its
    author or a reading time."""
    if published is None or len(text) > MAX_CJK_META_CHARS or _CJK_SENTENCE.search(text):
        return False
    days = _local_days(published)
    if not any(days & _written_days(match.group()) for match in WRITTEN_DATE.finditer(text)):
        return False
    if any(name in text for name in authors) or _CJK_READING.search(text) is not None:
        return True
    # nothing but dates and their labels: "입력 2026.11.29. 14:05 수정 2026.11.29. 16:20"
    rest = _CJK_STAMP_LABELS.sub(" ", _TIME.sub(" ", WRITTEN_DATE.sub(" ", text)))
    return not rest.strip(_PUNCTUATION + ". ")


def _written_days(written: str) -> frozenset[date]:
    """The days a written date may be: the one :func:`~..dates.find_written_date` reads,
    or both readings of a numeric date it leaves ambiguous ("3/5/2024", "03.05.2024": the
    page's own date tells which)."""
    found = find_written_date(written)
    if found is not None:
        return frozenset({found.date()})
    match = NUMERIC_DATE.search(written)
    if match is None:
        return frozenset()
    a, b, year = (int(part) for part in match.groups())
    return _days(year, a, b)


def _days(year: int, a: int, b: int) -> frozenset[date]:
    """The days ``a`` and ``b`` of ``year`` may be, either being the month."""
    days = set()
    for month, day in ((a, b), (b, a)):
        try:
            days.add(date(year, month, day))
        except ValueError:
            continue
    return frozenset(days)


def _local_days(published: datetime) -> frozenset[date]:
    """The days ``published`` falls on somewhere on Earth: a page dated in UTC prints its
    date in its own time zone ("Published February 26, 2023 at 7:00 p.m. EST" on a story
    whose metadata says 2023-02-27T00:00Z, a generated Arc XP paper's)."""
    return frozenset((published + timedelta(hours=hours)).date() for hours in (-12, 0, 14))


def _is_summary(lines: Sequence[str], index: int) -> bool:
    """Does ``lines[index]`` begin the lines after it (module doc, *summary*)?"""
    cut = "".join(_ELLIPSIS.sub("", lines[index]).split())
    if len(cut) < MIN_SUMMARY_CHARS:
        return False
    following = ""
    for line in lines[index + 1 :]:
        following += "".join(line.split())
        if len(following) >= len(cut):
            return following.startswith(cut)
    return False


def _is_handle(line: str) -> bool:
    return _HANDLE.fullmatch(line.strip()) is not None


def _author_names(author: str | None) -> list[str]:
    if not author:
        return []
    return [
        name.strip()
        for name in re.split(r",|&|\b(?:and|und|et|y|e|en|и)\b", author)
        if name.strip()
    ]


def without_header(
    lines: Sequence[str],
    title: str | None,
    published: datetime | None,
    author: str | None,
) -> list[str]:
    """``lines`` without the headline (:func:`~.line_rules.headline_index`) and the meta
    lines among the first :data:`HEADER_LINES`, for ``keep_headline=False``."""
    drop = header_indexes(lines, title, published, author)
    return [line for i, line in enumerate(lines) if i not in drop] if drop else list(lines)


def header_indexes(
    lines: Sequence[str],
    title: str | None,
    published: datetime | None,
    author: str | None,
) -> set[int]:
    """Where in ``lines`` the lines :func:`without_header` leaves out are."""
    drop: set[int] = set()
    headline = headline_index(lines, title)
    if headline is not None:
        drop.add(headline)
    drop.update(i for i in range(min(HEADER_LINES, len(lines))) if _is_summary(lines, i))
    if published is None and not author:
        return drop
    names = _author_names(author)
    for i, line in enumerate(lines[:HEADER_LINES]):
        if i == headline:
            continue
        # a social handle alone signs nothing by itself, but under a byline it is the
        # byline's ("Kestrel Engineering" / "@kestreleng")
        if is_meta_line(line, published, names) or (i - 1 in drop and _is_handle(line)):
            drop.add(i)
    return drop
