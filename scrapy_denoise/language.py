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
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import lru_cache

import stopwordsiso

from .document import Document

__all__ = [
    "BRIEF_LANGUAGES",
    "LATIN_VOTE_LANGUAGES",
    "UNSPACED_LANGUAGES",
    "ZH_FUNCTION_CHARS",
    "detect_language",
    "normalise_language",
    "script_of_text",
    "stopword_matcher",
    "stopwords",
]

#: The brief's languages (the data's): the stop-word vote's first candidates, and the lists
#: whose union is the fallback of :func:`stopword_matcher`.
BRIEF_LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "es", "pt", "it", "nl")

#: Candidates of the stop-word vote for Latin-script text: the brief's list, then ten more
#: common Latin-script languages. Without them an undeclared Turkish, Polish, Swedish,
#: Indonesian, Vietnamese, Czech, Hungarian, Danish, Finnish or Norwegian page was read as
#: English (or Spanish, Portuguese), its ``lang`` wrong and its CEVC stop words useless.
#: Measured 2026-11-25 on the 5,070 pages of the extraction sets: one page changed (a wcxb
#: Indonesian page, now ``id`` as labelled; its text did not change) and no English page
#: was taken for another language; the 1,543 pages of the two sites kept theirs. Romanian
#: and Slovenian were left out: with them two English pages were. Other Latin-script
#: languages are still accepted when a page declares them.
LATIN_VOTE_LANGUAGES: tuple[str, ...] = (
    *BRIEF_LANGUAGES,
    "tr",
    "pl",
    "sv",
    "id",
    "vi",
    "cs",
    "hu",
    "da",
    "fi",
    "no",
)

#: Languages written without spaces between words: a stop word "contained in the text" can
#: only be a substring there, since there are no tokens to compare against.
UNSPACED_LANGUAGES = frozenset({"zh", "ja", "th", "lo", "km", "my"})

#: Single-character Chinese function words that occur in almost every sentence of running
#: text. They are what makes the CEVC test work on unsegmented Chinese, so they are added to
#: the package list even where it already has them (it does, as of stopwordsiso 0.6).
ZH_FUNCTION_CHARS = frozenset("的了是在和也就都而及与着或等")

#: How much body text the script statistics and the vote look at; bounding it keeps
#: detection O(1). Measured 2026-11-25 against the 10,000 used before, on the 5,070 pages of
#: the extraction sets (dev and held out): 3,000 changed no page's language and halved the
#: cost of detection (0.45 -> 0.25 ms per page, 2 to 3 % of the default chain); 1,500
#: changed one (English read as Russian), 1,000 three.
_SAMPLE_CHARS = 3_000
#: Fewer letters than this and the script vote is noise; the declared language is then kept.
_MIN_LETTERS = 20
#: A Latin-script declaration is overruled when another language has this many times its
#: stop-word votes (and at least :data:`_MIN_VOTES`): a clear majority, not a close call.
_OVERRULE = 2.0
_MIN_VOTES = 10.0

_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_LANG_TAG = re.compile(r"^([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*$")
_SENTENCE_MARK = re.compile(r"[.,;:!?。，、；：！？،؛؟]")

# Script of each language we can name from statistics; used to check declared languages too.
_SCRIPT_OF_LANGUAGE = {
    "zh": "han",
    "ja": "han",
    "ko": "hangul",
    "ru": "cyrillic",
    "uk": "cyrillic",
    "bg": "cyrillic",
    "sr": "cyrillic",
    "mk": "cyrillic",
    "be": "cyrillic",
    "kk": "cyrillic",
    "ar": "arabic",
    "fa": "arabic",
    "ur": "arabic",
    "ug": "arabic",
    "ps": "arabic",
    "ku": "arabic",
    "el": "greek",
    "he": "hebrew",
    "yi": "hebrew",
    "th": "thai",
    "hi": "devanagari",
    "mr": "devanagari",
    "ne": "devanagari",
    "bn": "bengali",
    "gu": "gujarati",
    "hy": "armenian",
    "ka": "georgian",
}
# Language a script most likely means when nothing else is known.
_LANGUAGE_OF_SCRIPT = {
    "cyrillic": "ru",
    "arabic": "ar",
    "greek": "el",
    "hebrew": "he",
    "thai": "th",
    "devanagari": "hi",
    "bengali": "bn",
    "gujarati": "gu",
    "armenian": "hy",
    "georgian": "ka",
    "hangul": "ko",
}
# Letters that only some languages of a shared script use (see _cyrillic_language).
_BELARUSIAN = frozenset("ўЎ")
_KAZAKH = frozenset("әғқұһӘҒҚҰҺ")
_MACEDONIAN = frozenset("ѓќѕЃЌЅ")
_SERBIAN = frozenset("ђћјљњџЂЋЈЉЊЏ")
_UKRAINIAN = frozenset("іїєґІЇЄҐ")
_UKRAINIAN_ONLY = frozenset("їєґЇЄҐ")
#: written in Russian and Belarusian, never in Ukrainian or Bulgarian
_YERY_AND_E = frozenset("ыэЫЭ")
#: Bulgarian has no letter of its own, but it writes neither ы nor э, which a Russian text
#: of this many letters all but surely holds, and its ъ is a vowel (2 to 3 % of letters;
#: Russian's hard sign is under 0.1 %)
_BULGARIAN_MIN_LETTERS = 100
_BULGARIAN_MIN_HARD_SIGNS = 0.005
_PERSIAN = frozenset("پچژگ")
# Not alef maksura (ى): Uyghur writes it, but so does every Arabic text ("على", "إلى").
_UYGHUR = frozenset("ۆۇېۈ")


def normalise_language(tag: str | None) -> str | None:
    """Primary subtag of a BCP 47 / POSIX locale tag, lower-cased (``zh-Hans-CN`` -> ``zh``),
    as its ISO 639-1 code where the language has one (``eng`` -> ``en``).

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
    # Legacy codes still served by old sites, and three-letter codes of languages that have
    # a two-letter one (BCP 47 wants the shortest; <html lang="eng"> is still served).
    return _LEGACY_CODES.get(primary, primary)


# ISO 639-2/T and /B codes of the languages of the web's top sites, to their ISO 639-1 code;
# a three-letter code without one (fil, haw, yue) is kept as it is
_THREE_LETTER = (
    "ara:ar bel:be ben:bn bul:bg cat:ca ces:cs cze:cs chi:zh zho:zh dan:da deu:de ger:de "
    "ell:el gre:el eng:en est:et eus:eu baq:eu fas:fa per:fa fin:fi fra:fr fre:fr gle:ga "
    "glg:gl guj:gu heb:he hin:hi hrv:hr hun:hu hye:hy arm:hy ind:id isl:is ice:is ita:it "
    "jpn:ja kat:ka geo:ka kaz:kk kor:ko lav:lv lit:lt mal:ml mar:mr msa:ms may:ms nld:nl "
    "dut:nl nor:no nob:nb nno:nn pan:pa pol:pl por:pt ron:ro rum:ro rus:ru slk:sk slo:sk "
    "slv:sl spa:es sqi:sq alb:sq srp:sr swa:sw swe:sv tam:ta tel:te tha:th tur:tr ukr:uk "
    "urd:ur uzb:uz vie:vi cym:cy wel:cy"
)
_LEGACY_CODES: dict[str, str] = {
    "iw": "he",
    "in": "id",
    "ji": "yi",
    "jp": "ja",
    "cn": "zh",
    **dict(pair.split(":") for pair in _THREE_LETTER.split()),
}


# Letters of each script, by code point block (``unicodedata`` has no script property).
# Counted with one regex per script so that detection costs C-speed scans, not a Python loop.
_SCRIPT_RANGES: dict[str, str] = {
    "latin": "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff",
    "kana": "\u3040-\u30ff\u31f0-\u31ff",
    "han": "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff",
    "hangul": "\uac00-\ud7af\u1100-\u11ff\u3130-\u318f",
    "cyrillic": "\u0400-\u052f",
    "arabic": "\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff",
    "greek": "\u0370-\u03ff\u1f00-\u1fff",
    "hebrew": "\u0590-\u05ff",
    "thai": "\u0e00-\u0e7f",
    "devanagari": "\u0900-\u097f",
    "bengali": "\u0980-\u09ff",
    "gujarati": "\u0a80-\u0aff",
    "armenian": "\u0530-\u058f",
    "georgian": "\u10a0-\u10ff",
}
_SCRIPT_RES = {name: re.compile(f"[{chars}]") for name, chars in _SCRIPT_RANGES.items()}
_ASCII_RUN = re.compile(r"[\x00-\x7f]+")
_ASCII_NON_LETTERS = bytes(b for b in range(128) if not chr(b).isalpha())


def script_of_text(text: str) -> tuple[str | None, Counter[str]]:
    """Dominant script of ``text`` (kana folds Han pages into Japanese) and the letter counts.

    Returns ``(None, counts)`` when there are too few letters to say.
    """
    sample = text[:_SAMPLE_CHARS]
    counts: Counter[str] = Counter()
    # ASCII letters counted on bytes, the rest by regex on the (usually short) non-ASCII part.
    ascii_letters = len(sample.encode("ascii", "ignore").translate(None, _ASCII_NON_LETTERS))
    if ascii_letters:
        counts["latin"] = ascii_letters
    rest = _ASCII_RUN.sub("", sample)
    if rest:
        for name, regex in _SCRIPT_RES.items():
            found = len(regex.findall(rest))
            if found:
                counts[name] += found
    total = sum(counts.values())
    if total < _MIN_LETTERS:
        return None, counts
    # Japanese mixes kanji and kana; a tenth of kana is far above any Chinese page's stray kana.
    han_like = counts["han"] + counts["kana"]
    if counts["kana"] and counts["kana"] >= 0.1 * han_like and han_like >= 0.3 * total:
        return "kana", counts
    if han_like >= 0.3 * total:
        # Han at 30 % of the letters is a CJK page even with Latin menus and code around it:
        # one Han character carries a word, a Latin letter a fraction of one.
        return "han", counts
    script, _ = counts.most_common(1)[0]
    return script, counts


def _body_sample(doc: Document) -> str:
    """The first :data:`_SAMPLE_CHARS` of body text, whitespace runs collapsed.

    Collapsing matters: pages indented with tabs can spend their first 20,000 characters
    on whitespace alone, so up to twice the sample's length of text is read. The walk
    stops as soon as the text read so far collapses to a whole sample: the collapsed text
    of more pieces only adds to its end, so the sample is the same, and on most long
    pages it is full at little more than :data:`_SAMPLE_CHARS` characters read (walking
    the nodes past that point was over a quarter of the sample's cost).
    """
    parts: list[str] = []
    size = 0
    check = _SAMPLE_CHARS  # the sample cannot be full with fewer characters read
    for text in _text_pieces(doc):
        parts.append(text)
        size += len(text)
        if size >= check:
            sample = _collapse_spaces("".join(parts))
            if len(sample) >= _SAMPLE_CHARS or size >= 2 * _SAMPLE_CHARS:
                return sample[:_SAMPLE_CHARS]
            check = min(size + _SAMPLE_CHARS // 3, 2 * _SAMPLE_CHARS)
    return _collapse_spaces("".join(parts))[:_SAMPLE_CHARS]


def _text_pieces(doc: Document) -> Iterator[str]:
    """The body's text pieces that are not all whitespace, in reading order: those of
    :meth:`Document.iter_text`, walked here over the document's arrays without its
    owners (this runs on every page)."""
    texts, tails, parent, end = doc.texts, doc.tails, doc.parent, doc.end
    for j, text in enumerate(texts):
        if text and not text.isspace():
            yield text
        if end[j] == j:
            # Subtrees that close with this leaf: their tails, innermost first.
            k = j
            while k and end[k] == j:
                tail = tails[k]
                if tail and not tail.isspace():
                    yield tail
                k = parent[k]


def _collapse_spaces(text: str) -> str:
    r"""``re.sub(r"\s+", " ", text)``: ``str.split`` and ``\s`` agree on every code point,
    and splitting is a third of the regex's cost, which was a quarter of detecting a page's
    language. The split drops the outer whitespace that the substitution keeps as one space.
    """
    core = " ".join(text.split())
    if not core:
        return " " if text else ""
    return (" " if text[0].isspace() else "") + core + (" " if text[-1].isspace() else "")


def _declared(doc: Document) -> list[str]:
    meta = doc.head.meta
    found: list[str] = []
    for raw in (
        doc.head.lang,
        meta.get("content-language"),
        meta.get("og:locale"),
        meta.get("language"),
        meta.get("dc.language"),
    ):
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
    decides (Han -> zh, kana -> ja, Hangul -> ko, Cyrillic -> ru, uk, bg, sr, mk, be or kk
    by :func:`_cyrillic_language`, Arabic -> ar/fa/ug, ...), and Latin script goes to a
    stop-word vote among :data:`LATIN_VOTE_LANGUAGES`. A declared Latin-script language
    that the vote contradicts by :data:`_OVERRULE` to one is overruled: a German news portal
    (``lang="de"``) serving an English press release, among the l3s-gn1 dev pages, would
    otherwise be read with German stop words.
    """
    sample = _body_sample(doc)
    script, counts = script_of_text(sample)
    for lang in _declared(doc):
        if _agrees(lang, script):
            if script == "latin" and lang in LATIN_VOTE_LANGUAGES:
                votes = _latin_votes(sample)
                best = max(votes, key=votes.__getitem__, default=lang)
                # Languages without a vote are absent from ``votes``: a page declaring
                # "en" whose text has no stop word at all raised KeyError here.
                top = votes.get(best, 0.0)
                if top >= _MIN_VOTES and top >= _OVERRULE * votes.get(lang, 0.0):
                    return best
            return lang
    if script is None:
        return None
    if script == "kana":
        return "ja"
    if script == "han":
        return "zh"
    if script == "latin":
        votes = _latin_votes(sample)
        return max(votes, key=votes.__getitem__) if votes else "en"
    if script == "cyrillic":
        return _cyrillic_language(sample, counts["cyrillic"])
    if script == "arabic":
        if any(ch in _UYGHUR for ch in sample):
            return "ug"
        if any(ch in _PERSIAN for ch in sample):
            return "fa"
    return _LANGUAGE_OF_SCRIPT.get(script)


def _cyrillic_language(sample: str, letters: int) -> str:
    """The language of an undeclared Cyrillic text: Russian unless letters say otherwise.

    Belarusian and Kazakh write Ukrainian's і, so they are told first (Belarusian by its ў,
    or by an і beside ы or э, which Ukrainian does not write), then Macedonian, Serbian and
    Ukrainian by their own letters, and Bulgarian by what it lacks. Before (2026-11-25),
    Bulgarian, Serbian and Macedonian pages were read as Russian and Belarusian and Kazakh
    ones as Ukrainian, each then matched against that language's stop words.
    """
    chars = set(sample)
    if not chars.isdisjoint(_BELARUSIAN):
        return "be"
    if not chars.isdisjoint(_KAZAKH):
        return "kk"
    if not chars.isdisjoint(_MACEDONIAN):
        return "mk"
    if not chars.isdisjoint(_SERBIAN):
        return "sr"
    if not chars.isdisjoint(_UKRAINIAN):
        only_i = chars.isdisjoint(_UKRAINIAN_ONLY)
        return "be" if only_i and not chars.isdisjoint(_YERY_AND_E) else "uk"
    if (
        letters >= _BULGARIAN_MIN_LETTERS
        and chars.isdisjoint(_YERY_AND_E)
        and sample.count("ъ") >= _BULGARIAN_MIN_HARD_SIGNS * letters
    ):
        return "bg"
    return "ru"


def _latin_votes(text: str) -> dict[str, float]:
    """Stop-word vote of the :data:`LATIN_VOTE_LANGUAGES` over ``text``."""
    owners = stop_word_owners(LATIN_VOTE_LANGUAGES)
    # Non-stop-words are dropped in C before counting; the Counter keeps first-occurrence
    # order, so the float sums add up in the same order as over all tokens.
    stop = Counter(filter(owners.__contains__, _tokens(text.lower())))
    return stop_word_votes(stop, LATIN_VOTE_LANGUAGES)


def stop_word_votes(counts: Mapping[str, int], langs: tuple[str, ...]) -> dict[str, float]:
    """The votes of the stop words ``counts`` (each a word of :func:`stop_word_owners`
    of ``langs``) for ``langs``, those with any in ``langs``' order; a word listed by k of
    them gives each 1/k of a vote.

    Splitting shared words keeps the large lists (English has 1,300 entries, among them
    ``de``, ``la``, ``en``) from winning on words that say nothing about the language.
    """
    owners = stop_word_owners(langs)
    votes = dict.fromkeys(langs, 0.0)
    for token, count in counts.items():
        owned = owners[token]
        share = count / len(owned)
        for lang in owned:
            votes[lang] += share
    return {lang: v for lang, v in votes.items() if v > 0}


#: Characters that can end a whitespace-separated chunk but never a :data:`_TOKEN` (which
#: starts and ends with a letter): stripped before testing the chunk with ``str.isalpha``.
_EDGES = ".,;:!?\"()[]{}'’‘“”«»-–—/*&#%+=<>|0123456789_"


def _tokens(text: str) -> list[str]:
    """``_TOKEN.findall(text)``, a quarter faster on running text.

    A token never spans whitespace, so the text is split there first; a chunk that is all
    letters once its edges are stripped is one token, and only the rest (digits, inner
    punctuation, apostrophes inside) go through the regex. The regex alone cost 40 ns per
    character, most of the stop-word vote that every Latin-script page pays.
    """
    out: list[str] = []
    append = out.append
    for chunk in text.split():
        if not chunk.isalpha():
            chunk = chunk.strip(_EDGES)
            if not chunk.isalpha():
                if chunk:
                    out += _TOKEN.findall(chunk)
                continue
        append(chunk)
    return out


@lru_cache(maxsize=4)
def stop_word_owners(langs: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Each stop word of ``langs`` with the languages that list it, for
    :func:`stop_word_votes` (the charset detection votes with other languages)."""
    owners: dict[str, list[str]] = {}
    for lang in langs:
        for word in stopwords(lang):
            owners.setdefault(word, []).append(lang)
    return {word: tuple(langs) for word, langs in owners.items()}


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

    Fallback when ``lang`` is unknown or has no list: the union of the brief's lists
    as tokens, or any sentence punctuation. CEVC's stop-word test stands for "this is a
    sentence, not a label"; without a list, punctuation is the next-best sign of one.
    """
    code = normalise_language(lang)
    words = stopwords(code)
    if not words:
        latin = frozenset().union(*(stopwords(x) for x in BRIEF_LANGUAGES))
        return _fallback_matcher(latin)
    if code in UNSPACED_LANGUAGES:
        return _substring_matcher(words)
    return _token_matcher(words)


def _token_matcher(words: frozenset[str]) -> Callable[[str], bool]:
    def has_stopword(text: str) -> bool:
        return any(t in words for t in _tokens(text.lower()))

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
