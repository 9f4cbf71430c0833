"""Dates as pages write them, machine-readable or for people.

:func:`parse_date` reads the machine forms of JSON-LD, meta tags and ``<time datetime>``
(ISO 8601 and its CJK cousin ``2018年5月6日``). :func:`find_written_date` also reads the
forms of a page's visible byline or post header ("November 21, 2017", "9th Aug. 2012",
"发布于：2012-03-12"), where a theme prints the date and declares it nowhere else:
zjuvai-blog's Hexo posts and flink-blog's Hugo posts date themselves only so, and with the
date taken out of their URLs neither gave a date at all.

htmldate, the library made for this, was measured first (2026-11-24, 300 development
pages): 2.7 ms per page in its fast mode, which reparses the page, and 21 ms with its
extensive search, against the whole default chain's 12 ms; the few places a written date
sits are known here already (the lines under the headline, elements classed as dates).
Numeric dates are only read when the order is plain: year first, a day over 12
("23/11/2012"), both parts equal, or a weekday before the date that only one order agrees
with ("Tuesday, 11.06.2012" is November 6th: NHL.com writes the month first even between
dots); "03/10/2023" alone is no date rather than a guess between March and October.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

__all__ = [
    "DATE_PATTERN",
    "MONTH_DAY_PATTERN",
    "NUMERIC_DATE",
    "PUBLISHED_ABROAD_WORDS",
    "PUBLISHED_WORDS",
    "SAID_PUBLISHED_WORDS",
    "WRITTEN_DATE",
    "compact_date",
    "find_written_date",
    "parse_date",
    "said_published",
    "standalone_date",
    "url_date",
]

#: what follows a year and a month given by number: ISO's separators, and the words
#: Chinese, Japanese, Korean and Mongolian write ("2024年5月3日", "2024년 5월 3일", "2024
#: оны 5 сарын 3", Mongolian news sites' date lines)
_AFTER_YEAR = r"(?:[-/.年]|년\s*|\s*оны\s+)"
_AFTER_MONTH = r"(?:[-/.月]|월\s*|\s*сарын\s+)"
_ISO = re.compile(
    rf"((?:19|20)\d{{2}}){_AFTER_YEAR}(\d{{1,2}}){_AFTER_MONTH}(\d{{1,2}})[日일]?"
    r"(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?)?"
)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
#: Month names of German, French, Spanish, Portuguese, Italian, Dutch, Turkish, Polish,
#: Swedish, Danish, Norwegian, Czech, Indonesian, Finnish, Russian and Ukrainian (the
#: language vote's languages but Hungarian and Vietnamese, which write the year or a number
#: first), in the case they take after a day ("15 марта", "15 marca", "15. března", "15.
#: maaliskuuta", "15 березня"), by month. English ones, abbreviations included, are in the
#: pattern below. An article in these languages prints its date so under the headline ("15.
#: März 2024", "15 de marzo de 2024"); before, only its meta tags and URL could date it.
_FOREIGN_MONTHS: tuple[str, ...] = (
    "januar jänner janvier enero gennaio janeiro januari stycznia ocak ledna tammikuuta января"
    " січня",
    "februar février febrero febbraio fevereiro februari lutego şubat února helmikuuta февраля"
    " лютого",
    "märz mars marzo março maart marca mart března marts maret maaliskuuta марта березня",
    "avril abril aprile kwietnia nisan dubna huhtikuuta апреля квітня",
    "mai mayo maggio maio mei maja mayıs května maj toukokuuta мая травня",
    "juni juin junio giugno junho czerwca haziran června kesäkuuta июня червня",
    "juli juillet julio luglio julho lipca temmuz července heinäkuuta июля липня",
    "août agosto augustus sierpnia ağustos srpna augusti agustus elokuuta августа серпня",
    "septembre septiembre setiembre settembre setembro września eylül září syyskuuta сентября"
    " вересня",
    "oktober octobre octubre ottobre outubro października ekim října lokakuuta октября жовтня",
    "novembre noviembre novembro listopada kasım listopadu marraskuuta ноября листопада",
    "dezember décembre diciembre dicembre dezembro grudnia aralık prosince desember "
    "joulukuuta декабря грудня",
)
#: Hindi's and Arabic's (Egypt's and the Gulf's) month names, by month, written after the
#: day as those languages' news sites print them ("12 मार्च 2024", "١٢ مارس ٢٠٢٤")
_MONTHS_HI_AR: tuple[str, ...] = (
    "जनवरी يناير",
    "फ़रवरी फरवरी فبراير",
    "मार्च مارس",
    "अप्रैल أبريل إبريل ابريل",
    "मई مايو",
    "जून يونيو يونيه",
    "जुलाई يوليو يوليه",
    "अगस्त أغسطس",
    "सितंबर सितम्बर سبتمبر",
    "अक्टूबर अक्तूबर أكتوبر اكتوبر",
    "नवंबर नवम्बर نوفمبر",
    "दिसंबर दिसम्बर ديسمبر",
)
#: Greek's, in the genitive a date takes ("3 Μαΐου 2024"), with and without the accents
_MONTHS_EL: tuple[str, ...] = (
    "ιανουαρίου ιανουαριου",
    "φεβρουαρίου φεβρουαριου",
    "μαρτίου μαρτιου",
    "απριλίου απριλιου",
    "μαΐου μαίου μαιου",
    "ιουνίου ιουνιου",
    "ιουλίου ιουλιου",
    "αυγούστου αυγουστου",
    "σεπτεμβρίου σεπτεμβριου",
    "οκτωβρίου οκτωβριου",
    "νοεμβρίου νοεμβριου",
    "δεκεμβρίου δεκεμβριου",
)
#: Urdu's ("17 جولائی 2024", Pakistani news sites' date lines)
_MONTHS_UR: tuple[str, ...] = (
    *("جنوری", "فروری", "مارچ", "اپریل", "مئی", "جون"),
    *("جولائی", "اگست", "ستمبر", "اکتوبر", "نومبر", "دسمبر"),
)
#: Bulgarian's, Serbian's (Cyrillic and Latin), Slovak's and Slovenian's (in the genitive a
#: date takes), Estonian's, Swahili's, Afrikaans' (where they differ from Dutch's) and
#: Welsh's, by month: generated copies of news sites in those languages kept their stories'
#: date lines ("18 ноември 2026, 13:24", "10 Maart 2024, 10:26", "17 Ebrill 2024, 07:55")
_MONTHS_MORE: tuple[str, ...] = (
    "януари јануар januára januarja jaanuar januarie ionawr",
    "февруари фебруар februára februarja veebruar februarie chwefror",
    "март märts machi mawrth",
    "април apríla aprila aprill aprili ebrill",
    "май мај mája maja",
    "юни јун jún júna junija juuni junie mehefin",
    "юли јул júl júla julija juuli julai julie gorffennaf",
    "август avgust avgusta agosti awst",
    "септември септембар septembar septembra septemba medi",
    "октомври октобар oktobar októbra oktobra oktoober oktoba hydref",
    "ноември новембар novembar novembra novemba tachwedd",
    "декември децембар decembar decembra detsember desemba rhagfyr",
)
#: Kazakh's, Armenian's (in the genitive), Georgian's, Marathi's, Uzbek's and Azerbaijani's
#: (where they differ from Hindi's and Turkish's), Punjabi's, Kannada's, Gujarati's and
#: Malayalam's, by month, as those languages' news sites print their date lines ("25 сәуір
#: 2024", "3 մայիսի 2024, 14:20", "7 მაისი 2024, 13:26", "७ एप्रिल, २०२४ १४:१२ IST", "30
#: aprel 2024, 17:20", "12 ਮਾਰਚ 2024 09:45 PM", "1 ಸೆಪ್ಟೆಂಬರ್ 2024, 17:26 IST")
_MONTHS_ASIA: tuple[str, ...] = (
    "қаңтар հունվարի იანვარი जानेवारी yanvar ਜਨਵਰੀ ಜನವರಿ જાન્યુઆરી ജനുവരി",
    "ақпан փետրվարի თებერვალი फेब्रुवारी fevral ਫਰਵਰੀ ਫ਼ਰਵਰੀ ಫೆಬ್ರುವರಿ ಫೆಬ್ರವರಿ ફેબ્રુઆરી ഫെബ്രുവരി",
    "наурыз մարտի მარტი ਮਾਰਚ ಮಾರ್ಚ್ માર્ચ മാർച്ച്",
    "сәуір ապրիլի აპრილი एप्रिल aprel ਅਪ੍ਰੈਲ ਅਪਰੈਲ ಏಪ್ರಿಲ್ એપ્રિલ ഏപ്രിൽ",
    "мамыр մայիսի მაისი मे ਮਈ ಮೇ મે മേയ് മെയ്",
    "маусым հունիսի ივნისი iyun ਜੂਨ ಜೂನ್ જૂન ജൂൺ",
    "шілде հուլիսի ივლისი जुलै iyul ਜੁਲਾਈ ಜುಲೈ જુલાઈ ജൂലൈ",
    "тамыз օգոստոսի აგვისტო ऑगस्ट avqust ਅਗਸਤ ಆಗಸ್ಟ್ ઑગસ્ટ ઓગસ્ટ ഓഗസ്റ്റ്",
    "қыркүйек սեպտեմբերի სექტემბერი सप्टेंबर sentabr sentyabr ਸਤੰਬਰ ಸೆಪ್ಟೆಂಬರ್ સપ્ટેમ્બર സെപ്റ്റംബർ",
    "қазан հոկտեմբերի ოქტომბერი ऑक्टोबर oktabr oktyabr ਅਕਤੂਬਰ ಅಕ್ಟೋಬರ್ ઑક્ટોબર ઓક્ટોબર ഒക്ടോബർ",
    "қараша նոյեմբերի ნოემბერი नोव्हेंबर noyabr ਨਵੰਬਰ ನವೆಂಬರ್ નવેમ્બર നവംബർ",
    "желтоқсан դեկտեմբերի დეკემბერი डिसेंबर dekabr ਦਸੰਬਰ ಡಿಸೆಂಬರ್ ડિસેમ્બર ഡിസംബർ",
)
#: Kyrgyz's (Russian's names in the nominative, after the day and a hyphen: "14-апрель,
#: 2024"), Tajik's (with the izafet's "-и": "12 майи 2024"), Somali's, Lao's, Galician's
#: (where they differ from Spanish's and Portuguese's), Irish's (but September's and
#: October's, two words each) and Luxembourgish's (where they differ from German's), by
#: month: generated copies of news sites in those languages kept their stories' date lines
#: ("19 Juun 2024", "22 ພຶດສະພາ 2024", "24 de xuño de 2024", "14 Bealtaine 2024",
#: "27. Mee 2024")
_MONTHS_2 = (
    "январь январи janaayo jannaayo ມັງກອນ xaneiro eanáir",
    "февраль феврали febraayo feberaayo ກຸມພາ febreiro feabhra",
    "марти maarso ມີນາ márta mäerz",
    "апрель апрели abriil ເມສາ aibreán abrëll",
    "майи maajo ພຶດສະພາ bealtaine mee",
    "июнь июни juun ມິຖຸນາ xuño meitheamh",
    "июль июли luulyo ກໍລະກົດ xullo iúil",
    "августи agoosto ogosto ສິງຫາ lúnasa",
    "сентябрь сентябри sebteembar sebtembar ກັນຍາ",
    "октябрь октябри oktoobar ຕຸລາ",
    "ноябрь ноябри nofeembar nofembar ພະຈິກ samhain",
    "декабрь декабри diseembar desembar ທັນວາ decembro nollaig",
)
_FOREIGN_MONTHS = tuple(
    " ".join(names)
    for names in zip(
        _FOREIGN_MONTHS,
        _MONTHS_HI_AR,
        _MONTHS_EL,
        _MONTHS_UR,
        _MONTHS_MORE,
        _MONTHS_ASIA,
        _MONTHS_2,
        strict=True,
    )
)
#: the months of the Solar Hijri calendar, Iran's and Afghanistan's civil one, in which
#: Persian news sites date their stories ("جمعه ۱۴ اردیبهشت ۱۴۰۳", "۱۴۰۳/۰۲/۱۴"): a
#: generated ISNA-style agency's stories kept those lines over their text, which no
#: Gregorian reading could tie to the page's date
_JALALI_MONTHS = (
    *("فروردین", "اردیبهشت", "خرداد", "تیر", "مرداد", "شهریور"),
    *("مهر", "آبان", "آذر", "دی", "بهمن", "اسفند"),
)
#: Basque's months, by the stem their genitive takes in a date, year first ("2025eko
#: martxoaren 3a": of 2025, of March, the 3rd; a generated Berria-style daily's date lines)
_BASQUE_MONTHS = "urtarril|otsail|martxo|apiril|maiatz|ekain|uztail|abuztu|irail|urri|azaro|abendu"
_BASQUE = re.compile(
    rf"((?:19|20)\d{{2}})e?ko\s+({_BASQUE_MONTHS})aren\s+(\d{{1,2}})(?:e?an|a)?(?!\w)", re.I
)
#: Arabic-Indic, Persian and Devanagari digits as ASCII ones, one for one: the patterns' year
#: starts with an ASCII "19" or "20"
_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹०१२३४५६७८९", "0123456789" * 3)


def _fold(name: str) -> str:
    """``name`` lower-cased with Turkish's dotted and dotless i folded to ``i``: the pattern
    matches case-insensitively, so "KASIM", "NİSAN" and the ASCII "Kasim" all match the
    names "kasım" and "nisan", but their ``lower()`` ("kasim", "ni̇san") is neither."""
    return name.lower().replace("\u0307", "").replace("ı", "i")


_MONTH_OF: dict[str, int] = {
    _fold(name): month for month, names in enumerate(_FOREIGN_MONTHS, 1) for name in names.split()
}
_EN_MONTHS = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
#: an English month: the only ones written before the day ("March 15, 2024")
_EN_MONTH = rf"(?:{_EN_MONTHS})\.?"
#: a month in any of the languages, written after the day. Only ever tried after a day's
#: digits: 150 names tried at every word made a date search five times slower.
_MONTH = (
    rf"(?:{_EN_MONTHS}"
    # longest first, so that "marzo" is not read as "mar" and a stray "zo"
    + "".join(
        f"|{re.escape(n)}"
        for n in sorted(
            {n for names in _FOREIGN_MONTHS for n in names.split()}, key=len, reverse=True
        )
    )
    + r")\.?(?!\w)"
)
_WEEKDAY = r"(?:mon|tue(?:s)?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\.?"
#: after a day's number: an English ordinal, or the dot of "15. März"
_DAY_SUFFIX = r"(?:st|nd|rd|th|er|\.?º|\.)?"
_DAY = rf"\d{{1,2}}{_DAY_SUFFIX}"
#: "15 de marzo de 2024", "15 de março de 2024" (Spanish, Portuguese)
_DE = r"(?:de\s+)?"
_DE_YEAR = r"(?:del?\s+)?"
#: a calendar date as people write it, with an optional weekday before and time after
#: (bylines strip it; :func:`find_written_date` and :func:`standalone_date` read it)
DATE_PATTERN = (
    rf"(?:{_WEEKDAY},?\s+)?"
    rf"(?:{_EN_MONTH}\s+{_DAY},?\s+\d{{4}}|{_DAY}(?:\s+{_DE}|-){_MONTH},?\s+{_DE_YEAR}\d{{4}}"
    rf"|\d{{1,2}}\s+(?:{'|'.join(_JALALI_MONTHS)})\s+\d{{4}}"
    rf"|\d{{4}}{_AFTER_YEAR}\d{{1,2}}{_AFTER_MONTH}\d{{1,2}}[日일]?"
    rf"|\d{{4}}e?ko\s+(?:{_BASQUE_MONTHS})aren\s+\d{{1,2}}(?:e?an|a)?(?!\w)"
    # Czech, Slovak and Slovenian space a numeric date's dots: "18. 11. 2026"
    r"|\d{1,2}(?:[-/]|\.\s?)\d{1,2}(?:[-/]|\.\s?)\d{4})"
    r"(?:,?\s+(?:at\s+)?\d{1,2}[:.]\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?"
    r"(?:\s+[a-z]{2,4}\b(?:/\w+)?)?)?"
)
#: :data:`DATE_PATTERN` compiled, ignoring case (bylines cut it out, line statistics key a
#: dated line by what comes before it)
WRITTEN_DATE = re.compile(DATE_PATTERN, re.IGNORECASE)
#: an English month and day with no year but two digits ("Thu Apr 2", "Sep 01, 03"): no
#: date to read, but a byline's stamp all the same (:mod:`..bylines` cuts it out)
MONTH_DAY_PATTERN = rf"(?:{_WEEKDAY},?\s+)?\b{_EN_MONTH}\s+{_DAY}(?!\w)(?:,?\s+\d{{2}}(?![\w:.]))?"
_MONTH_FIRST = re.compile(rf"\b({_EN_MONTH})\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I)
_DAY_FIRST = re.compile(
    rf"\b(\d{{1,2}}){_DAY_SUFFIX}(?:\s+{_DE}|-)({_MONTH}),?\s+{_DE_YEAR}(\d{{4}})\b", re.I
)
#: a numeric date, day and month in either order (groups: the two numbers and the year);
#: :mod:`~.methods.header_lines` reads it by the page's own date when the order is unclear
NUMERIC_DATE = re.compile(r"\b(\d{1,2})(?:[-/]|\.\s?)(\d{1,2})(?:[-/]|\.\s?)((?:19|20)\d{2})\b")
#: a Solar Hijri date, day first with the month's name or year first in numbers (after
#: :data:`_DIGITS`: "14 اردیبهشت 1403", "1403/02/14"); the years of web pages, 1369 on
_JALALI = re.compile(
    rf"\b(\d{{1,2}})\s+({'|'.join(_JALALI_MONTHS)})\s+(1[34]\d\d)\b"
    r"|\b(1[34]\d\d)[-/.](\d{1,2})[-/.](\d{1,2})\b"
)
#: a weekday named right before a numeric date (searched up to the date's start), or with
#: a separator between them ("By David Richards | Monday | 07/01/2008")
_WEEKDAY_BEFORE = re.compile(rf"\b({_WEEKDAY}),?\s*(?:[|\-–—·•]\s*)?$", re.I)
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
#: "published (on)" in the languages of :data:`_FOREIGN_MONTHS`, which starts a line that
#: dates the page as "Published on" does: "Veröffentlicht am 15. März 2024", "Publié le 15
#: mars 2024", "Opublikowano: 15 marca 2024", "Опубликовано 1 мая 2022"
PUBLISHED_ABROAD_WORDS: tuple[str, ...] = (
    *("veröffentlicht", "erschienen", "publiziert", "publié", "mis en ligne", "publicado"),
    *("publicada", "pubblicato", "pubblicata", "gepubliceerd", "geplaatst", "opublikowano"),
    *("data publikacji", "опубликовано", "дата публикации", "yayınlanma tarihi"),
    *("yayın tarihi", "publicerad", "publicerat", "publiceret", "publisert", "publikováno"),
    *("zveřejněno", "julkaistu", "diterbitkan", "dipublikasikan"),
)
#: the English words that start a text saying when it was published (:func:`said_published`)
SAID_PUBLISHED_WORDS: tuple[str, ...] = ("published", "posted", "first published")


def _words(words: tuple[str, ...]) -> str:
    return "(?:" + "|".join(word.replace(" ", r"\s+") for word in words) + ")"


_PUBLISHED_ABROAD = _words(PUBLISHED_ABROAD_WORDS) + r"(?:\s+(?:am|le|el|em|il|op|den|dne|pada))?"
#: the words allowed before a publication date: they say "published", never "updated"
PUBLISHED_WORDS = (
    r"(?:(?:(?:(?:first\s+)?published|posted|date|dated|released)(?:\s+on)?"
    rf"|{_PUBLISHED_ABROAD})\s*:?\s*)?"
)
#: a whole text that is one publication date and nothing else: "Thu, January 10, 2008",
#: "Published December 6, 2003", "2007-11-24 16:23:08"
_STANDALONE = re.compile(PUBLISHED_WORDS + DATE_PATTERN, re.IGNORECASE)
#: a text that starts by saying when it was published: "Posted on the 15/12/2025 at 19:00
#: by @GuillaumeGomez", "Published: 29 Dec, 2007"
_SAID_PUBLISHED = re.compile(
    rf"(?:{_words(SAID_PUBLISHED_WORDS)}(?:\s+on)?(?:\s+the)?|{_PUBLISHED_ABROAD})"
    rf"\s*:?\s*({DATE_PATTERN})",
    re.I,
)
_URL_DATE = re.compile(r"/((?:19|20)\d{2})[/-](\d{1,2})[/-](\d{1,2})(?:/|[^\d]|$)")
_COMPACT = re.compile(r"((?:19|20)\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])")
_URL_DATE_COMPACT = re.compile(r"/((?:19|20)\d{2})(\d{2})(\d{2})(?:/|[^\d]|$)")
#: longest text read as a standalone date ("Wednesday, September 21, 2011 at 11:45 p.m. EDT")
STANDALONE_MAX = 64


def parse_date(value: object) -> datetime | None:
    """Parse the machine-readable date formats publishers use; naive times are taken as UTC.

    Anything but a string is no date: JSON-LD puts numbers, lists and objects where a date
    belongs (``"datePublished": 20240102`` raised TypeError before).
    """
    if not value or not isinstance(value, str):
        return None
    match = _ISO.search(value)
    if not match:
        return None
    year, month, day, hour, minute, second, zone = match.groups()
    try:
        dt = datetime(
            int(year), int(month), int(day), int(hour or 0), int(minute or 0), int(second or 0)
        )
    except ValueError:
        return None
    if zone and zone != "Z":
        zone = zone.replace(":", "")
        try:
            return datetime.strptime(dt.isoformat() + zone, "%Y-%m-%dT%H:%M:%S%z")
        except ValueError:
            pass
    return dt.replace(tzinfo=UTC)


def compact_date(value: str | None) -> datetime | None:
    """A value that is nothing but ``YYYYMMDD`` (``<meta name="PublicationDate"
    content="20080115">``). Only where a date is declared: in text, eight digits are as
    often an id or a phone number."""
    match = _COMPACT.fullmatch(value.strip()) if value else None
    return _day(match.group(1), int(match.group(2)), match.group(3)) if match else None


def find_written_date(text: str) -> datetime | None:
    """The first date in ``text`` written in any form :data:`DATE_PATTERN` knows, at
    midnight UTC unless given in ISO form with a time; None when there is none, or when
    it is one no web page can have been published on (before 1990 or past next year: a
    photo caption's "August 26, 1972", a template's "November 20, 9999")."""
    found: list[tuple[int, datetime]] = []
    text = text.translate(_DIGITS)
    iso = _ISO.search(text)
    if iso and (dt := parse_date(iso.group())):
        found.append((iso.start(), dt))
    for match in _MONTH_FIRST.finditer(text):
        if dt := _day(match.group(3), _month(match.group(1)), match.group(2)):
            found.append((match.start(), dt))
            break
    for match in _DAY_FIRST.finditer(text):
        if dt := _day(match.group(3), _month(match.group(2)), match.group(1)):
            found.append((match.start(), dt))
            break
    for match in NUMERIC_DATE.finditer(text):
        if dt := _numeric_date(text, match):
            found.append((match.start(), dt))
            break
    for match in _JALALI.finditer(text):
        if dt := _jalali_date(match):
            found.append((match.start(), dt))
            break
    for match in _BASQUE.finditer(text):
        month = _BASQUE_MONTHS.split("|").index(match.group(2).lower()) + 1
        if dt := _day(match.group(1), month, match.group(3)):
            found.append((match.start(), dt))
            break
    if not found:
        return None
    first = min(found, key=lambda item: item[0])[1]
    return first if _plausible(first) else None


def _numeric_date(text: str, match: re.Match[str]) -> datetime | None:
    """The date of a :data:`NUMERIC_DATE` match when its order is plain (module docstring)."""
    first, second, year = int(match.group(1)), int(match.group(2)), match.group(3)
    day_first = _day(year, second, str(first))
    month_first = _day(year, first, str(second))
    if first > 12 or first == second:
        return day_first
    if second > 12:
        return month_first
    weekday = _WEEKDAY_BEFORE.search(text, 0, match.start())
    if weekday is None or day_first is None or month_first is None:
        return None
    wanted = _WEEKDAYS.index(weekday.group(1)[:3].lower())
    agree = [dt for dt in (day_first, month_first) if dt.weekday() == wanted]
    return agree[0] if len(agree) == 1 else None


def _jalali_date(match: re.Match[str]) -> datetime | None:
    """The Gregorian day of a :data:`_JALALI` match."""
    day, name, year, n_year, n_month, n_day = match.groups()
    if name is not None:
        return _gregorian(int(year), _JALALI_MONTHS.index(name) + 1, int(day))
    return _gregorian(int(n_year), int(n_month), int(n_day))


def _gregorian(year: int, month: int, day: int) -> datetime | None:
    """The Gregorian day of a Solar Hijri date, by the calendar's arithmetic 33-year cycle
    of leap years (eight in 33: the years y with (25 y + 11) mod 33 < 8), as software in
    Iran computes it; checked against the New Year days of 1370, 1395, 1400, 1402, 1403
    and 1404 and the leap day of 1399 and 1403. Day 1 of 1403 is 2024-03-20."""
    if not (1 <= month <= 12 and 1 <= day <= (31 if month <= 6 else 30)):
        return None
    if month == 12 and day == 30 and not _jalali_leap(year):
        return None
    # days since 1 Farvardin of year 1 (the leap years before ``year``: (8 y + 29) // 33),
    # then the proleptic Gregorian ordinal of that day
    y = year - 1
    in_year = 31 * (month - 1) if month <= 7 else 186 + 30 * (month - 7)
    days = 365 * y + (8 * y + 29) // 33 + in_year + day - 1
    return datetime.fromordinal(226_895 + days).replace(tzinfo=UTC)


def _jalali_leap(year: int) -> bool:
    return (25 * year + 11) % 33 < 8


def url_date(url: str) -> datetime | None:
    """The date a URL's path carries (``/2014/08/26/slug``, ``/2007-11/24/``, ``/20071124/``)."""
    match = _URL_DATE.search(url) or _URL_DATE_COMPACT.search(url)
    return parse_date("-".join(match.groups())) if match else None


def standalone_date(text: str) -> datetime | None:
    """The date when the whole of ``text`` (whitespace collapsed) is one date, with at most
    a weekday, a time and "Published"/"Posted" around it; None otherwise.

    A text that only *contains* a date ("Comments closed on May 3, 2012") is no answer:
    pages are full of dates of other things, and an element that holds nothing but a date
    is how old news templates print the story's (``<b>Thu, January 10, 2008</b>``).
    """
    if len(text) > STANDALONE_MAX or _STANDALONE.fullmatch(text) is None:
        return None
    return find_written_date(text)


def said_published(text: str) -> datetime | None:
    """The date when ``text`` starts with "Published"/"Posted" (on) and a date, whatever
    follows it ("in Travel", "by Jane Roe"); None otherwise, and for years a story cannot
    have (see :func:`standalone_date`)."""
    match = _SAID_PUBLISHED.match(text)
    return find_written_date(match.group(1)) if match else None


def _plausible(found: datetime) -> bool:
    return 1990 <= found.year <= datetime.now(UTC).year + 1


def _month(name: str) -> int:
    """The month a name matched by the patterns says; 0 (no date) for one that says none."""
    key = _fold(name.rstrip("."))
    month = _MONTH_OF.get(key)
    if month:
        return month
    return _MONTHS.index(key[:3]) + 1 if key[:3] in _MONTHS else 0


def _day(year: str, month: int, day: str) -> datetime | None:
    try:
        return datetime(int(year), month, int(day), tzinfo=UTC)
    except ValueError:
        return None
