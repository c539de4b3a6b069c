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

    def __init__(self, number: int, text: str, error: str | None = None, engine: str = "pdfium", drawn: bool = True,
                 doubt: str | None = None, timed_out: bool = False, glyphs: int = 0,
                 usable: int | None = None) -> None:
        """Written out (the defaults above, again): one per page read, and this takes a third of the time of the
        generic constructor."""
        object.__setattr__(self, "__dict__", {
            "number": number, "text": text, "error": error, "engine": engine, "drawn": drawn, "doubt": doubt,
            "timed_out": timed_out, "glyphs": glyphs, "usable": usable})
