"""What one token of text is: the unit of the evaluation metric and of the block features.

The shared data's metric (its README, "Scoring") counts ``\\w+`` runs, except that each CJK
character is a token of its own. The block features count tokens the same way, and the
block model's training labels are shingles of these tokens, so a block's token count and
its label speak of the same units. One definition keeps them from drifting apart: three
copies once did, on the ideographs of the supplementary planes.
"""

from __future__ import annotations

import re

__all__ = ["CJK_CHAR", "CJK_RANGES", "TOKEN"]

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
