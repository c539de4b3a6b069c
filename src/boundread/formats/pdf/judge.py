"""Whether a page's text is text: the judgement that extract (reread.py) and info (handler.py) share.

A page's text layer can be there and still say nothing: a font without a Unicode map gives U+FFFD, private-use
code points, controls, pdfminer's ``(cid:N)``, or (PDFium) the glyph's own code passed off as a letter, ``Ā`` for
CID 256. :func:`readable` counts the characters that carry text; a page whose readable characters fall below
:data:`YIELD_FLOOR` of the glyphs it draws is :func:`unmapped`, no usable text, and OCR reads it as it reads a
scan. A page of CJK set in columns is judged :data:`VERTICAL` (pdfium.py reads it column by column).
"""

from __future__ import annotations

import re

from boundread.formats.pdf.page import Page

TYPE_CHECKING = False  # typing for mypy only: it costs a read's start-up
if TYPE_CHECKING:
    from typing import Any

UNREADABLE = "little readable text"  # how a doubt about unmapped glyphs begins
VERTICAL = "vertical writing"  # the doubt of a page of CJK set in columns
LOST = "text drawn in fonts PDFium could not load"  # the doubt of a page with text objects and no PDFium text
MIN_GLYPHS = 20  # a page with fewer glyphs is not judged by its yield (a page number, a caption)
YIELD_FLOOR = 0.5  # readable characters per glyph below which PDFium's text of a page is doubtful
MAP_SAMPLE = 16  # glyphs of a page asked whether PDFium maps them to text, before all of them are
MAP_FULL = 5000  # glyphs asked at most on a page the sample finds unmapped (~5 ms)
VERTICAL_SAMPLE = 200  # glyphs whose positions tell the reading direction of a CJK page
# Kana, CJK ideographs, Hangul, fullwidth forms: the scripts that are written vertically
_CJK = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]"
_NOT_TEXT = re.compile(r"\(cid:\d+\)|[\s\x00-\x1f\x7f-\x9f\ufffd\ufffe\uffff\ue000-\uf8ff]")
SPACES = " \n\r\t"  # what most pages' text holds of _NOT_TEXT: str.count finds them without a regex
#: the rest of _NOT_TEXT but (cid:N), as one character class (the whitespace \s matches, less SPACES): a page
#: without any (most pages) is counted without building a copy of its text, in a sixth of the time
_ODD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
                  "\ufffd\ufffe\uffff\ue000-\uf8ff]")


def readable(text: str, spaces: int | None = None) -> int:
    """Characters that carry text: not spaces, controls, U+FFFD, private-use code points or pdfminer's
    ``(cid:N)`` stand-ins (what an engine writes for a glyph whose font has no usable Unicode map). ``spaces``:
    the count of :data:`SPACES` in ``text`` where the caller has it already."""
    if _ODD.search(text) is None and "(cid:" not in text:
        return len(text) - (sum(map(text.count, SPACES)) if spaces is None else spaces)
    return len(_NOT_TEXT.sub("", text))


def has_cjk(text: str) -> bool:
    """Some kana, CJK ideograph, Hangul or fullwidth form in ``text``. ``isascii`` first (a flag of the string: no
    scan), so an ASCII page costs nothing and a run of them never compiles the regex (~2 ms); the regex scans any
    other page in ~30 us, where ``max(text)`` took ~150 us."""
    return not text.isascii() and re.search(_CJK, text) is not None


def mapped(textpage: Any, count: int) -> int | None:
    """Readable characters of the page whose glyphs PDFium maps to text, when it flags many that it does not
    (a font with no Unicode map: PDFium then gives the glyph's code as its text, ``Ā`` for CID 256, a control for
    code 1); None when few are flagged. A sample of :data:`MAP_SAMPLE` glyphs first, so a sound page costs a few
    dozen calls; all of them only when the sample finds more than a quarter flagged, and on a page of more than
    :data:`MAP_FULL` glyphs that many, evenly spread, scaled to the page (a hostile page may hold millions)."""
    from boundread.formats.pdf.binding import pdfium

    pdfium_c = pdfium()
    chars = int(pdfium_c.FPDFText_CountChars(textpage))
    if count < MIN_GLYPHS or chars <= 0:
        return None
    sample = range(0, chars, max(chars // MAP_SAMPLE, 1))
    flagged = sum(pdfium_c.FPDFText_HasUnicodeMapError(textpage, index) == 1 for index in sample)
    if flagged * 4 <= len(sample):
        return None
    asked = range(0, chars, max(-(-chars // MAP_FULL), 1))
    codes = (pdfium_c.FPDFText_GetUnicode(textpage, index) for index in asked
             if pdfium_c.FPDFText_HasUnicodeMapError(textpage, index) != 1)
    got = readable("".join(chr(code) for code in codes if not 0xDC00 <= code <= 0xDFFF))  # a pair counts once
    return got if len(asked) == chars else round(got * chars / len(asked))


def unreadable(got: int, drawn: int) -> str | None:
    """Why a page's text is unreliable: ``got`` readable characters, far below the page's ``drawn`` glyphs, the
    rest of them unmapped (no Unicode for them in their font)."""
    if drawn < MIN_GLYPHS or got >= YIELD_FLOOR * drawn:
        return None
    return f"{UNREADABLE} ({got:,} of {drawn:,} glyphs)"


def unmapped(page: Page) -> bool:
    """The judgement that extract (reread.py) and info (handler.py) share: the page has a text layer, but most
    of its glyphs map to no text (U+FFFD, private-use code points, controls, ``(cid:N)``, glyph codes PDFium
    flags as unmapped), so its text is no usable text - OCR reads such a page as it reads a scan."""
    return page.error is None and page.doubt is not None and page.doubt.startswith(UNREADABLE)


def usable_chars(page: Page) -> int:
    """The page's readable characters that its glyphs map to, for comparing two reads of one page."""
    return readable(page.text) if page.usable is None else page.usable


_CID = re.compile(r"\(cid:\d+\)")


def miner_doubt(text: str) -> tuple[str | None, int]:
    """pdfminer's text judged as PDFium's is (its ``(cid:N)`` stand-ins each one glyph): the doubt and the
    glyphs drawn."""
    drawn = len(_CID.sub("#", re.sub(r"\s", "", text)))
    return unreadable(readable(text), drawn), drawn
