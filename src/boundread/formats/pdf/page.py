"""One page as an engine read it: its text, or why it could not be read, and what the engine doubts about it."""

from __future__ import annotations

from boundread.record import Record


class Page(Record, frozen=True):
    number: int  # 1-based
    text: str
    error: str | None = None  # why the page could not be read
    engine: str = "pdfium"  # what read the text: pdfium, pdfminer or tesseract
    drawn: bool = True  # the page draws something (text, an image, paths); a blank page is False
    doubt: str | None = None  # why this engine's text may be wrong or incomplete (judge.py names the kinds)
    timed_out: bool = False  # the time limit ran out while reading it (OCR)
    glyphs: int = 0  # glyphs the page draws as text, spaces apart (0: not counted)
    usable: int | None = None  # readable characters whose glyphs map to text, where fewer than readable(text)
