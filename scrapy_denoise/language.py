"""The page's language and its stop words, for the valid-character method (cevc).

CEVC (cevc-valid-characters.txt, §2.1) calls text "valid" when it lies outside every ``<a>``
and contains at least one stop word *of the page's language*, so extraction needs both the
language and a list. The lists come from the maintained ``stopwordsiso`` package (50+ languages
including Chinese) rather than from a hand-kept copy.

Language evidence is taken in the order a reader's browser would trust it: ``<html lang>``,
the ``content-language`` meta, ``og:locale``, then the script of the body text. A declared
language is only accepted when it agrees with the script the body is actually written in:
CMS templates ship ``lang="en"`` on pages whose text is Chinese, and believing them would
leave a Chinese page without a single valid character.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from functools import lru_cache

import stopwordsiso

from .document import Document

__all__ = [
    "LATIN_VOTE_LANGUAGES",
    "UNSPACED_LANGUAGES",
    "ZH_FUNCTION_CHARS",
    "detect_language",
    "normalise_language",
    "script_of_text",
    "stopword_matcher",
    "stopwords",
]

#: Candidates of the stop-word vote for Latin-script text (the brief's list; the data's
#: languages). Other Latin-script languages are still accepted when a page declares them.
LATIN_VOTE_LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "es", "pt", "it", "nl")

#: Languages written without spaces between words: a stop word "contained in the text" can
#: only be a substring there, since there are no tokens to compare against.
UNSPACED_LANGUAGES = frozenset({"zh", "ja", "th", "lo", "km", "my"})

#: Single-character Chinese function words that occur in almost every sentence of running
#: text. They are what makes the CEVC test work on unsegmented Chinese, so they are added to
#: the package list even where it already has them (it does, as of stopwordsiso 0.6).
ZH_FUNCTION_CHARS = frozenset("的了是在和也就都而及与着或等")

#: How much body text the script statistics look at: the first 20,000 characters decide the
#: script of any real page, and bounding it keeps detection O(1) per page.
_SAMPLE_CHARS = 20_000
#: Fewer letters than this and the script vote is noise; the declared language is then kept.
_MIN_LETTERS = 20

_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_LANG_TAG = re.compile(r"^([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*$")
_SENTENCE_MARK = re.compile(r"[.,;:!?。，、；：！？،؛؟]")

# Script of each language we can name from statistics; used to check declared languages too.
_SCRIPT_OF_LANGUAGE = {
    "zh": "han", "ja": "han", "ko": "hangul", "ru": "cyrillic", "uk": "cyrillic",
    "bg": "cyrillic", "sr": "cyrillic", "mk": "cyrillic", "be": "cyrillic", "kk": "cyrillic",
    "ar": "arabic", "fa": "arabic", "ur": "arabic", "ug": "arabic", "ps": "arabic",
    "ku": "arabic", "el": "greek", "he": "hebrew", "yi": "hebrew", "th": "thai",
    "hi": "devanagari", "mr": "devanagari", "ne": "devanagari", "bn": "bengali",
    "gu": "gujarati", "hy": "armenian", "ka": "georgian",
}
# Language a script most likely means when nothing else is known.
_LANGUAGE_OF_SCRIPT = {
    "cyrillic": "ru", "arabic": "ar", "greek": "el", "hebrew": "he", "thai": "th",
    "devanagari": "hi", "bengali": "bn", "gujarati": "gu", "armenian": "hy",
    "georgian": "ka", "hangul": "ko",
}
# Letters that only some languages of a shared script use.
_UKRAINIAN = frozenset("іїєґІЇЄҐ")
_PERSIAN = frozenset("پچژگ")
_UYGHUR = frozenset("ۆۇېىۈ")


def normalise_language(tag: str | None) -> str | None:
    """Primary subtag of a BCP 47 / POSIX locale tag, lower-cased (``zh-Hans-CN`` -> ``zh``).

    Template placeholders and ``x-default`` style values come back as None.
    """
    if not tag:
        return None
    tag = tag.strip().split(",")[0].strip()
    match = _LANG_TAG.match(tag)
    if not match:
        return None
    primary = match.group(1).lower()
    if primary in ("x", "i", "und", "mul", "zxx"):
        return None
    # Legacy codes still served by old sites.
    return {"iw": "he", "in": "id", "ji": "yi", "jp": "ja", "cn": "zh"}.get(primary, primary)


def _script(ch: str) -> str | None:
    """Script of one letter, by code point block (``unicodedata`` has no script property)."""
    o = ord(ch)
    if o < 0x250:
        return "latin" if ch.isalpha() else None
    if 0x3040 <= o <= 0x30FF or 0x31F0 <= o <= 0x31FF:
        return "kana"
    if 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0xF900 <= o <= 0xFAFF or (
        0x20000 <= o <= 0x3FFFF
    ):
        return "han"
    if 0xAC00 <= o <= 0xD7AF or 0x1100 <= o <= 0x11FF or 0x3130 <= o <= 0x318F:
        return "hangul"
    if 0x0400 <= o <= 0x052F:
        return "cyrillic"
    if 0x0600 <= o <= 0x06FF or 0x0750 <= o <= 0x077F or 0xFB50 <= o <= 0xFEFF:
        return "arabic"
    if 0x0370 <= o <= 0x03FF or 0x1F00 <= o <= 0x1FFF:
        return "greek"
    if 0x0590 <= o <= 0x05FF:
        return "hebrew"
    if 0x0E00 <= o <= 0x0E7F:
        return "thai"
    if 0x0900 <= o <= 0x097F:
        return "devanagari"
    if 0x0980 <= o <= 0x09FF:
        return "bengali"
    if 0x0A80 <= o <= 0x0AFF:
        return "gujarati"
    if 0x0530 <= o <= 0x058F:
        return "armenian"
    if 0x10A0 <= o <= 0x10FF:
        return "georgian"
    if 0x1E00 <= o <= 0x1EFF:
        return "latin"
    return None


def script_of_text(text: str) -> tuple[str | None, Counter[str]]:
    """Dominant script of ``text`` (kana folds Han pages into Japanese) and the letter counts.

    Returns ``(None, counts)`` when there are too few letters to say.
    """
    counts: Counter[str] = Counter()
    for ch in text[:_SAMPLE_CHARS]:
        s = _script(ch)
        if s is not None:
            counts[s] += 1
    total = sum(counts.values())
    if total < _MIN_LETTERS:
        return None, counts
    # Japanese mixes kanji and kana; a tenth of kana is far above any Chinese page's stray kana.
    han_like = counts["han"] + counts["kana"]
    if counts["kana"] and counts["kana"] >= 0.1 * han_like and han_like >= 0.3 * total:
        return "kana", counts
    if han_like >= 0.3 * total and counts["han"] >= counts["latin"] * 0.2:
        # Han at 30 % of the letters is a CJK page even with Latin menus and code around it:
        # one Han character carries a word, a Latin letter a fraction of one.
        return "han", counts
    script, _ = counts.most_common(1)[0]
    return script, counts


def _body_sample(doc: Document) -> str:
    parts: list[str] = []
    size = 0
    for _, text in doc.iter_text(0):
        parts.append(text)
        size += len(text)
        if size >= _SAMPLE_CHARS:
            break
    return "".join(parts)


def _declared(doc: Document) -> list[str]:
    meta = doc.head.meta
    found: list[str] = []
    for raw in (doc.head.lang, meta.get("content-language"), meta.get("og:locale"),
                meta.get("language"), meta.get("dc.language")):
        lang = normalise_language(raw)
        if lang and lang not in found:
            found.append(lang)
    return found


def _agrees(lang: str, script: str | None) -> bool:
    if script is None:
        return True
    if script == "kana":
        return lang == "ja"
    return _SCRIPT_OF_LANGUAGE.get(lang, "latin") == script


def detect_language(doc: Document) -> str | None:
    """ISO 639-1 code of the page's language, or None when the page has no text to tell by.

    The first declared language that matches the body's script wins; otherwise the script
    decides (Han -> zh, kana -> ja, Hangul -> ko, Cyrillic -> ru/uk, Arabic -> ar/fa/ug, ...),
    and Latin script goes to a stop-word vote among :data:`LATIN_VOTE_LANGUAGES`.
    """
    sample = _body_sample(doc)
    script, counts = script_of_text(sample)
    for lang in _declared(doc):
        if _agrees(lang, script):
            return lang
    if script is None:
        return None
    if script == "kana":
        return "ja"
    if script == "han":
        return "zh"
    if script == "latin":
        return _latin_vote(sample) or "en"
    if script == "cyrillic" and any(ch in _UKRAINIAN for ch in sample):
        return "uk"
    if script == "arabic":
        if any(ch in _UYGHUR for ch in sample):
            return "ug"
        if any(ch in _PERSIAN for ch in sample):
            return "fa"
    return _LANGUAGE_OF_SCRIPT.get(script)


def _latin_vote(text: str) -> str | None:
    """Stop-word vote; a word shared by k candidate lists gives each 1/k of a vote.

    Splitting shared words keeps the large lists (English has 1,300 entries, among them
    ``de``, ``la``, ``en``) from winning on words that say nothing about the language.
    """
    lists = {lang: stopwords(lang) for lang in LATIN_VOTE_LANGUAGES}
    owners: dict[str, list[str]] = {}
    votes: Counter[str] = Counter()
    for token in _TOKEN.findall(text.lower()):
        langs = owners.get(token)
        if langs is None:
            langs = [lang for lang, words in lists.items() if token in words]
            owners[token] = langs
        for lang in langs:
            votes[lang] += 1.0 / len(langs)  # type: ignore[assignment]
    if not votes:
        return None
    return votes.most_common(1)[0][0]


@lru_cache(maxsize=128)
def stopwords(lang: str | None) -> frozenset[str]:
    """Stop words of ``lang`` from ``stopwordsiso``, lower-cased; empty when it has no list.

    Entries without a letter (the Chinese list carries ``。`` and ``《``) are dropped: they are
    punctuation, not words, and would make every Chinese sentence "contain a stop word" for a
    reason that has nothing to do with CEVC's definition. Chinese also gets
    :data:`ZH_FUNCTION_CHARS`.
    """
    code = normalise_language(lang)
    if code is None or not stopwordsiso.has_lang(code):
        return frozenset()
    words = {w.strip().lower() for w in stopwordsiso.stopwords(code)}
    words = {w for w in words if any(ch.isalpha() for ch in w)}
    if code == "zh":
        words |= ZH_FUNCTION_CHARS
    return frozenset(words)


@lru_cache(maxsize=128)
def stopword_matcher(lang: str | None) -> Callable[[str], bool]:
    """A test "does this text contain a stop word of ``lang``?" as CEVC needs it.

    Spaced languages compare whole tokens (``"the"`` must not match inside ``"theatre"``).
    Unspaced languages (Chinese, Japanese, Thai) have no tokens, so their words are looked
    for as substrings; single characters with a set lookup, longer words with one regex.

    Fallback when ``lang`` is unknown or has no list: the union of the Latin-script lists
    as tokens, or any sentence punctuation. CEVC's stop-word test stands for "this is a
    sentence, not a label"; without a list, punctuation is the next-best sign of one.
    """
    code = normalise_language(lang)
    words = stopwords(code)
    if not words:
        latin = frozenset().union(*(stopwords(x) for x in LATIN_VOTE_LANGUAGES))
        return _fallback_matcher(latin)
    if code in UNSPACED_LANGUAGES:
        return _substring_matcher(words)
    return _token_matcher(words)


def _token_matcher(words: frozenset[str]) -> Callable[[str], bool]:
    def has_stopword(text: str) -> bool:
        return any(t in words for t in _TOKEN.findall(text.lower()))

    return has_stopword


def _substring_matcher(words: Iterable[str]) -> Callable[[str], bool]:
    chars = frozenset(w for w in words if len(w) == 1)
    longer = sorted((w for w in words if len(w) > 1), key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(w) for w in longer)) if longer else None

    def has_stopword(text: str) -> bool:
        if not chars.isdisjoint(text):
            return True
        return pattern is not None and pattern.search(text.lower()) is not None

    return has_stopword


def _fallback_matcher(latin: frozenset[str]) -> Callable[[str], bool]:
    tokens = _token_matcher(latin)

    def has_stopword(text: str) -> bool:
        return _SENTENCE_MARK.search(text) is not None or tokens(text)

    return has_stopword
