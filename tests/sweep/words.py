"""Words of a text, for comparing what boundread extracts with what a reference tool gets.

Both sides are normalised the same way: NFKC (NFC, plus the compatibility forms pdftotext leaves in - the
ligature "ﬁ", full-width letters - which are the same word to a reader), case folded, and cut into tokens of
at least ``MIN_LETTERS`` letters (digits, punctuation and whitespace are separators: numbers are formatted
differently by every tool, 1 against 1.0, and are not what "the text is missing" means). Scripts written
without spaces (Han, kana, Hangul) have no word boundaries to cut at, so each of their characters is a token:
a set of characters is independent of reading order, which tools disagree on for vertical text.
"""

from __future__ import annotations

import re
import unicodedata

MIN_LETTERS = 3
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_WORD = re.compile(rf"[^\W\d_]{{{MIN_LETTERS},}}")


def words(text: str) -> set[str]:
    """The set of tokens of ``text``: letter runs of MIN_LETTERS or more, and single CJK/Hangul characters."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    found = set(_UNSPACED.findall(folded))
    found.update(_WORD.findall(_UNSPACED.sub(" ", folded)))
    return found


def coverage(got: str, reference: str) -> tuple[float, list[str]]:
    """(the share of the reference's words that ``got`` holds, 1.0 when it has none; the missing ones, sorted)."""
    wanted = words(reference)
    if not wanted:
        return 1.0, []
    missing = sorted(wanted - words(got))
    return 1 - len(missing) / len(wanted), missing
