"""What one token of text is: the unit of the evaluation metric and of the block features.

The shared data's metric (its README, "Scoring") counts ``\\w+`` runs, except that each CJK
character is a token of its own. The block features count tokens the same way, and the
block model's training labels are shingles of these tokens, so a block's token count and
its label speak of the same units. One definition keeps them from drifting apart: three
copies once did, on the ideographs of the supplementary planes.
"""

from __future__ import annotations

import re

__all__ = ["CJK_CHAR", "CJK_RANGES", "CJK_WEIGHT", "TOKEN", "reading_len"]

#: Han ideographs (URO, extension A, compatibility, the supplementary planes), the
#: ideographic iteration/closing marks that ``\w`` also matches, kana and Hangul syllables,
#: as a character-class body. Only Han occurs in the shared data; the rest follow the
#: README's "each CJK character".
CJK_RANGES = (
    "\u3005-\u3007"
    "\u3041-\u309f"
    "\u30a0-\u30ff"
    "\u3400-\u4dbf"
    "\u4e00-\u9fff"
    "\uac00-\ud7af"
    "\uf900-\ufaff"
    "\U00020000-\U0003ffff"
)
#: one CJK character (counted apart where a character is a word, not a letter)
CJK_CHAR = re.compile(f"[{CJK_RANGES}]")
#: one token: a CJK character, or a run of other word characters
TOKEN = re.compile(rf"[{CJK_RANGES}]|[^\W{CJK_RANGES}]+")
#: what one CJK character counts for where a length stands for how much a text says: a
#: Chinese character is a word or half of one, an English word five or six characters with
#: its space
CJK_WEIGHT = 3


def reading_len(text: str) -> int:
    """Characters as Latin text would spend them, a CJK character counting
    :data:`CJK_WEIGHT`: a limit in characters chosen on English text then holds as many
    words of Chinese."""
    if text.isascii():
        return len(text)
    return len(text) + (CJK_WEIGHT - 1) * len(CJK_CHAR.findall(text))
