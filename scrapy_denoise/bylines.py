"""Author names out of visible byline text.

Two jobs, both on plain strings (the DOM side is :mod:`.metadata`'s):

* :func:`clean_author` tidies whatever a source gave as the author. Marked bylines carry
  their surroundings: "Posted by Karl Fisch", "Josh Lowensohn July 24, 2012 4:00 AM PDT
  Follow @Josh", "Lara Webster | November 9, 2012" (all seen on dragnet development pages).
  What is left after the prefix, the date and the social handles is the name; a value that
  was only a date ("Dec 16, 2007 18:22 | Updated ...") is no author at all.
* :func:`byline_names` reads an *unmarked* byline, the short line a theme prints under the
  headline with no class to find it by: "By Stephen Shankland", "November 21, 2017 -
  Stephan Ewen (@StephanEwen) Aljoscha Krettek (@aljoscha)" (flink-blog's Hugo theme, whose
  171 authored posts had no author before), "Malcolm Conn | January 10, 2008". A line only
  counts when it says so: a leading "by", or a date joined to the names by a separator. Bare
  capitalised words under a headline are as often a section, a standfirst or a place.
"""

from __future__ import annotations

import html
import re

from .dates import DATE_PATTERN, MONTH_DAY_PATTERN, PUBLISHED_WORDS, WRITTEN_DATE

__all__ = ["MAX_AUTHOR", "byline_names", "clean_author"]

#: longer "authors" are sentences or whole blocks that happened to carry a byline class
MAX_AUTHOR = 100

_LEADING_DATE = re.compile(rf"^{PUBLISHED_WORDS}{DATE_PATTERN}\s*", re.I)
#: the words that introduce a byline's names: "by" in English, German, French, Spanish,
#: Italian, Dutch, Swedish and Norwegian, Danish and Indonesian, and "author:" in English,
#: Polish, Czech, Italian, French, Russian, Turkish and Danish ("Author's note" is no byline)
_BY_WORDS = (
    r"(?:(?:view\s+)?(?:all\s+)?(?:posts|articles|stories)\s+by"
    r"|(?:posted|written|words|story|reported|text)\s+by|by|von|par|por|di|door|av|af|oleh"
    r"|author(?![\w'’])|autor|autore|auteur|автор|yazar|forfatter"
    # Arabic's "by the pen of", Hindi's "author", Indonesian's and Vietnamese's "writer"
    r"|بقلم|लेखक|penulis|tác\s+giả)"
)
_BY = re.compile(rf"^{_BY_WORDS}\b[\s:]*", re.I)
#: "ByAmy Roeder", "Written byDan Pantelo": a "by" run into the name when a template puts
#: them in two elements. Only an English "by" in lower case then a capital: a name that
#: merely starts like a by-word ("Byron", "Parker", "Dick", "AFP") keeps its letters.
_RUN_ON = r"(?-i:(?<=y)(?=[A-Z]))"
_PREFIX = re.compile(
    rf"^\s*[\[【]?\s*(?:{_BY_WORDS}(?:\b|{_RUN_ON})|about\s+(?:the\s+)?author\b|作者[:：]?|撰(?:文|稿)[:：]?|文[/／]|记者[:：]?|記者[:：]?|(?:责任)?编辑[:：]|责编[:：]"
    r"|(?:copyright|©)(?:\s*©)?\s*(?:(?:19|20)\d\d(?:\s*[-–]\s*(?:19|20)\d\d)?)?)\s*",
    re.I,
)
#: "(@handle)", "@handle", "Follow @handle": a social account beside a name
_HANDLE = re.compile(r"(?:\bfollow\s+)?\(?(?<![\w.])@\w+\)?", re.I)
_EMAIL = re.compile(r"\(?[\w.+-]+@[\w-]+(?:\.[\w-]+)+\)?")
#: a date (or a month and day: "Thu Apr 2, 1:08 am ET"), a time of day (also run into the
#: year: NPR's "March 29, 20179:51 AM ET"), a comment count, "6h ago", "7 min read", a
#: Q&A site's reputation and badges ("Vader 6,7968 gold badges34 silver badges47 bronze
#: badges"), an editor's label: what follows a name
_STAMP = re.compile(
    rf"{DATE_PATTERN}|{MONTH_DAY_PATTERN}"
    r"|(?:\b|(?<=(?:19|20)\d\d))\d{1,2}[:.]\d{2}\s*(?:[ap]\.?m\.?)?"
    r"(?:\s+[A-Z]{2,4}\b)?|\b\d+\s+comments?\b"
    r"|\b\d{1,2}/\d{1,2}/\d{2}\b"
    # the editor's label ends the author's name ("Author: Eric Reynolds Editor: Angela Bowey")
    r"|\beditor\s*:"
    r"|\b\d+\s*(?:h|hrs?|hours?|m|mins?|minutes?|d|days?)\s+ago\b|\d+\s*min\s+read\b"
    r"|[\d.,]*k?\d*\s*(?:gold|silver|bronze)\s+badges?(?![^\W\d])"
    # Chinese bylines run the name into the labels after it: "IT之家发布时间：09-30 22:46",
    # "股市行情 总篇数919篇"; the editor's label ends an author's name too
    r"|(?:发布(?:时间|日期|于)|发表于|更新时间|时间|日期|来源|浏览|阅读|点击|总篇数"
    r"|(?:责任)?编辑|责编|通讯员|摄影|出处|字号|转载)\s*[:：]?|【",
    re.I,
)
#: an author's label in the info line Chinese news templates print under the headline, run
#: together with the source's and the time's: "来源：青石县融媒体中心作者：林涛发布时间：
#: 2023-05-11 14:41" (TRS WCM, the CMS of most Chinese government and newspaper sites,
#: writes each in a ``<span>`` of one ``<div class="info">``). Only with a colon: "记者从
#: 市应急管理局获悉" ("the reporter learned from ...") starts a sentence.
_CJK_AUTHOR_LABEL = re.compile(r"(?:作者|记者|記者|撰文|撰稿)\s*[:：]")
#: what else such an info line holds. A label alone on its line names someone else as
#: often: zjuvai-blog's paper reviews list the reviewed paper's "作者：Michael Gleicher"
#: under the post's own byline ("发布于：2013-10-16 马晓红 / 论文评述"), 183 of its 458 posts.
_CJK_INFO_LABEL = re.compile(r"来源|出处|发布|时间|日期|浏览|阅读|点击|编辑")
#: separators between a byline's pieces; a spaced "?" is one that lost its character to a
#: wrong decoding ("John Leyden ? More by this author")
_PIECES = re.compile(r"\s*(?:\||\s[•·–—?-]\s|•|·)\s*")
#: a link's words to the reader where a byline's name would be ("View blog authority",
#: "Follow the author", "Write a review", "More by this author", "From the Author")
_TO_THE_READER = re.compile(
    r"(?:view|follow|write|read|enter|subscribe|click|more\s+by|from\s+the)\b", re.I
)
#: a photo agency after a slash: "Justin Sullivan/Getty Images" credits a picture, and a
#: byline-classed caption is no author
_PHOTO_CREDIT = re.compile(
    r"/\s*(?:getty|ap\b|afp\b|reuters|epa\b|filmmagic|wireimage|shutterstock|istock|alamy"
    r"|anadolu|nurphoto|sipa\b|zuma\b)",
    re.I,
)
#: a job title after the names, set off by a comma: "Peter May, Globe Staff", "Charles
#: Burress, Chronicle Staff Writer", "Sean Silverthorne, Editor, HBS Working Knowledge"
_ROLE = re.compile(
    r",\s*[^,]*\b(?:staff|writer|editor|reporter|correspondent|columnist|contributor"
    r"|bureau|photographer)s?\b.*$",
    re.I,
)
#: the outlet a byline's names wrote for: "By Heidi Parker For Dailymail.com", "by Sandip
#: Roy, special to SF Gate". Only after a "by": without one, "for" is as likely inside a
#: name ("Center for Drug Evaluation and Research" in an author meta tag).
_WRITING_FOR = re.compile(r"[\s,]+(?:for|special\s+to)\s+\S.*$", re.I)
#: words bylines put after a name: before a date, the names of its share links
#: ("Domenico Montanaro Twitter", "Ari Shapiro Facebook Twitter Tumblr Instagram"), a
#: follow button ("关注"), a staff code ("韩保林 PK155") or a bracketed link ("[link]",
#: "Adam Candee (contact)"; other words in parentheses stay: "Yumin Zhou (Brian)")
_TRAILING = re.compile(
    r"(?:(?:^|[\s,]+)(?:last|updated|published|posted|on|at|\d+[a-z]?|twitter|facebook"
    r"|instagram|tumblr|linkedin|email|e-mail|rss(?: feed)?|google(?: plus|\+)|view profile"
    r"|share|tweet|print|(?:view\s+)?comments|follow(?:\s+\w+)?|关注|[A-Z]{1,3}\d{2,}[\]】]?"
    r"|\[[^\]]*\]|\((?:contact|e-?mail)\)))+$",
    re.I,
)
#: the title Korean and Japanese bylines put after the name ("김민수 기자", "山田太郎記者",
#: "홍길동 특파원"): the reporter's, not part of the name
_TITLE_AFTER = re.compile(r"\s*(?:기자|특파원|記者|特派員|编辑)$")
#: what is left around a name piece once the stamps are cut out
_PUNCTUATION = " ,;:|-–—·•/@?，；："
_BY_ANYWHERE = re.compile(r"(?<![^\W\d_])by\b\s*:?\s*", re.I)
_COMMENTER = re.compile(r"\b(?:says|said|wrote)\s*(?::|\.\.\.|…)?\s*$", re.I)
_SEPARATOR = re.compile(r"^\s*[-|·•–—/,:]\s*")
_TRAILER = re.compile(r"\s+(?:on|at|in|published|updated|posted)\b.*$|\s*[-|·•–—/]\s.*$", re.I)
_JOINERS = frozenset({",", "and", "&", "und", "et", "y"})
_PARTICLES = frozenset(
    {"van", "von", "der", "den", "de", "del", "della", "da", "di", "du", "la", "le", "bin", "al"}
)
#: words that end a run of names; a month or weekday does only where a date starts
#: ("Jincheng Sun", "Jun Qin" are names)
_NOT_NAMES = re.compile(r"^(?:updated|posted|published|comments?)[:.,]*$", re.I)
_TOKEN = re.compile(r",|&|[^\s,&]+")
_LEADING_JOINERS = re.compile(r"^(?:\s*(?:,|&|and\b))*\s*", re.I)


#: what templates print where no author was filled in (zjuvai-blog's author meta tag says
#: "undefined", a JavaScript value written out; wcxb pages say "author")
_PLACEHOLDERS = frozenset(
    {
        "undefined", "null", "none", "nan", "n/a", "author", "authors", "name", "unknown",
        "未知", "佚名", "匿名", "本站", "网络", "网络整理",
    }
)  # fmt: skip
#: a breadcrumb ("当前位置 : 上海新闻网 > 新闻资讯 > ...") is where the page is, not who wrote it
_BREADCRUMB = re.compile(r"当前位置|您的位置|\s>\s.*\s>\s")


def clean_author(value: str) -> str | None:
    """The name part of an author value from any source, or None when nothing is left.

    Emails and handles go first; then, where the value says "by", what follows it ("Sci-Tech
    by Eric Mack", "Oct 21, 2017 at 08:15 UTC by Alyssa Hertig"); then the first piece
    between dates, times and separators, without the words bylines put before a date
    ("John on July 21, 2012", "Craig McCarthy Last updated on 17 December 2025"), a job
    title after a comma and an outlet after a slash. A commenter ("Hungry says:") and a
    photo's credit are nobody's byline. The titles, outlets and credits changed 52 authors
    of the 6,499 pages of the shared data (2026-11-25): 42 lost a title, an outlet or a
    stray "@", 8 pages credited to a photographer went to their writer instead (their
    byline comes next), and one value that was no name is still no name ("billed annually,
    or $50"). English's "Author:", a month and day with no year, the outlet after "By ...
    for" and "(contact)", with author meta tags that hold a page's address, changed 34
    more (2026-11-25, the same pages): 28 lost a label, a stamp or an outlet ("Author:Mary
    Boone", "Heidi Parker For Dailymail.com", "Laurie Taylor Sep"), 3 gained their writer
    ("Author: Clark Hoyt" had been read as no one; "//lasvegassun.com/staff/adam-candee/"),
    2 that were no name became none ("Authors", "Thu Apr"), and one is no name either way.
    The sites' authors, which have truth, did not change. A link's words to the reader
    ("View blog authority", "Follow the author") and a separator lost to a wrong decoding
    ("By John Leyden ? More by this author", "???Jane Fonda") changed 14 more, none for the
    worse: 9 junk values to none or to the next source's name, 4 to the name alone, and
    "About author admin" to "admin".
    """
    value = value[: 10 * MAX_AUTHOR]  # a megabyte "author" costs no more than a long one
    if "&" in value:
        value = html.unescape(value)
    text = " ".join(_HANDLE.sub(" ", _EMAIL.sub(" ", value)).split())
    if _COMMENTER.search(text) or _BREADCRUMB.search(text) or _PHOTO_CREDIT.search(text):
        return None
    by = _BY_ANYWHERE.search(text)
    text = text[by.end() :] if by else _PREFIX.sub("", text)
    for piece in _PIECES.split(_STAMP.sub("|", text)):
        piece = _TRAILING.sub("", piece.strip(_PUNCTUATION)).strip(_PUNCTUATION)
        piece = _ROLE.sub("", piece)
        piece = _TITLE_AFTER.sub("", piece)
        if by:
            piece = _WRITING_FOR.sub("", piece)
        name, slash, _ = piece.partition("/")
        if slash and (" " in name.strip() or name.endswith(" ")):
            # a name and its outlet ("Eliot Caroom/The Star-Ledger", "Juan Cole / Informed
            # Comment"), not one word's parts ("RFE/RL") or a URL
            piece = name.strip(_PUNCTUATION)
        if any(ch.isalpha() for ch in piece) and not _TO_THE_READER.match(piece):
            return None if piece.lower() in _PLACEHOLDERS else piece[:MAX_AUTHOR]
    return None


def byline_names(line: str) -> str | None:
    """The names of an unmarked byline ``line``, or None when the line is not one.

    Accepted shapes: "[date sep] by NAMES [trailer]", "date sep NAMES" and "NAMES sep date",
    where a trailer is what bylines add after the names (" on Thursday, ...", " in Sydney",
    " | 3 comments"). Without "by", every name must look like a person's: two to four
    capitalised words, unless a social handle follows them ("June 14, 2024 - Hong
    (@hlteoh2)"), which no section name or standfirst has.

    A Chinese info line is a byline where an author's label stands among the source's or
    the time's ("来源：...作者：林涛发布时间：2023-05-11 14:41"). On the 6,613 pages of the
    shared data (2026-11-29) this changed two gne-tests authors: the site's name
    "证券时报网" to the reporter "李在山", and none to a party branch, "医技药剂党支部".
    On a generated TRS WCM news site it found 41 of 41 authors, 21 from meta tags before.
    """
    social = _HANDLE.search(line) is not None
    text = " ".join(_HANDLE.sub(",", line).split())
    if not text or len(text) > 150 or text.endswith(":"):
        return None  # "Browse by subject:" labels what follows; a byline ends in a name
    label = _CJK_AUTHOR_LABEL.search(text)
    if label:
        labelled = text[label.start() :]
        info = _CJK_INFO_LABEL.search(text) or WRITTEN_DATE.search(text)
        # a sentence's full stop: a guest's introduction ("作者：罗月童老师，...副教授，主要
        # 从事...研究。2012.7.1-2012.8.28 期间在 VAG 小组交流学习。"), not an info line
        return clean_author(labelled) if info and "。" not in labelled else None
    dated = False
    match = _LEADING_DATE.match(text)
    if match:
        dated = True
        text = text[match.end() :]
        separator = _SEPARATOR.match(text)
        if separator:
            text = text[separator.end() :]
        elif not _BY.match(text):
            return None
    by = _BY.match(text)
    if by:
        text = text[by.end() :]
        names, rest = _take_names(text)
        if not names or (rest and not (_TRAILER.match(" " + rest) or WRITTEN_DATE.match(rest))):
            return None
        if len(names) == 1 and len(names[0].split()) == 1 and not names[0][0].isupper():
            # "by alysha": a user name, lower case, is still a byline after "by"
            return names[0]
        return ", ".join(names) if _plausible(names, loose=True) else None
    names, rest = _take_names(text)
    if not names or not _plausible(names, loose=social):
        return None
    if dated:
        return ", ".join(names) if not rest or _TRAILER.match(" " + rest) else None
    separator = _SEPARATOR.match(rest)
    if separator and WRITTEN_DATE.match(rest[separator.end() :]):
        return ", ".join(names)
    return None


def _take_names(text: str) -> tuple[list[str], str]:
    """Leading run of names (capitalised words, particles, joiners) and the text after it."""
    names: list[str] = []
    current: list[str] = []
    end = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        low = token.lower()
        if token in _JOINERS or low in _JOINERS:
            if current:
                names.append(" ".join(current))
                current = []
            continue
        if _NOT_NAMES.match(token) or WRITTEN_DATE.match(text, match.start()):
            break
        if (
            token.lstrip("(")[:1].isupper()
            or (current and low in _PARTICLES)
            or (not names and not current and token[0].isalpha())
        ):
            current.append(token)
            end = match.end()
            continue
        break
    if current:
        names.append(" ".join(current))
    return names, _LEADING_JOINERS.sub("", text[end:])


def _plausible(names: list[str], *, loose: bool) -> bool:
    """Person-like names: each of one (``loose``) or two to four words, short overall."""
    if sum(len(n) for n in names) > 60:
        return False
    for name in names:
        words = name.split()
        if not words[0][0].isupper() or not any(ch.isalpha() for ch in name):
            return False
        if not (1 if loose else 2) <= len(words) <= (6 if loose else 4):
            return False
    return True
