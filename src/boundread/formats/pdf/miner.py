"""pdfminer.six's document: the second engine (``--engine pdfminer``), the fallback when PDFium cannot open a file,
and the rereader of pages whose PDFium text is doubted (reread.py)."""

from __future__ import annotations

import contextlib
import itertools
import struct
import zlib
from collections.abc import Iterator
from typing import Any, BinaryIO, cast

from boundread.contract.model import Source
from boundread.formats.pdf import forms
from boundread.formats.pdf.doc import OpenFailed, clean, locked
from boundread.formats.pdf.judge import VERTICAL_SAMPLE, has_cjk, miner_doubt
from boundread.formats.pdf.layout import direction, grid_text, miner_glyphs, reading_text
from boundread.formats.pdf.page import Page

#: What pdfminer raises on damaged or hostile files, besides its own PSException family.
MINER_FAILURES: tuple[type[BaseException], ...] = (
    ValueError,
    KeyError,
    TypeError,
    AttributeError,
    IndexError,
    AssertionError,
    RecursionError,
    OverflowError,
    ZeroDivisionError,
    NotImplementedError,
    UnicodeError,
    EOFError,
    struct.error,
    zlib.error,
)


def _quiet() -> None:
    """pdfminer's warnings about a damaged file are not the user's: errors only. logging is imported here, by
    the reads that use pdfminer (it imports traceback, string and threading: ~3 ms of every start-up)."""
    import logging

    logging.getLogger("pdfminer").setLevel(logging.ERROR)


def _miner_text(layout: Any) -> str:
    """The text of a page layout as pdfminer's TextConverter writes it: boxes end with a newline."""
    from pdfminer.layout import LTContainer, LTFigure, LTText, LTTextBox

    parts: list[str] = []
    stack: list[Any] = [layout]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
        elif isinstance(item, LTContainer):
            if isinstance(item, (LTTextBox, LTFigure)):
                stack.append("\n")
            stack.extend(reversed(list(item)))
        elif isinstance(item, LTText):
            parts.append(item.get_text())
    return "".join(parts)


class MinerDoc:
    engine = "pdfminer"

    def __init__(self, src: Source, password: str | None) -> None:
        from pdfminer.pdfdocument import PDFDocument, PDFEncryptionError, PDFPasswordIncorrect
        from pdfminer.pdfparser import PDFParser
        from pdfminer.psexceptions import PSException

        _quiet()
        failures: tuple[type[BaseException], ...] = (PSException, *MINER_FAILURES)
        self.stream = src.open()
        try:
            self.doc = PDFDocument(PDFParser(cast("BinaryIO", self.stream)), password=password or "")
            self.pages = self._count()
        except PDFPasswordIncorrect:
            self.stream.close()
            raise locked(src, password) from None
        except PDFEncryptionError as exc:
            self.stream.close()
            raise OpenFailed(f"unsupported encryption: {exc}") from None
        except failures as exc:
            self.stream.close()
            raise OpenFailed(f"{type(exc).__name__}: {exc}"[:200]) from None
        self.encrypted = self.doc.encryption is not None
        self.form = 0
        with contextlib.suppress(*MINER_FAILURES):
            self.form = int("AcroForm" in self.doc.catalog)  # its values are PDFium's to read (forms.py)

    def _count(self) -> int:
        from pdfminer.pdfpage import PDFPage
        from pdfminer.pdftypes import resolve1

        with contextlib.suppress(*MINER_FAILURES):
            count = resolve1(resolve1(self.doc.catalog["Pages"])["Count"])
            if isinstance(count, int) and count >= 0:
                return count
        return sum(1 for _ in PDFPage.create_pages(self.doc))

    def read(self, first: int, last: int, layout: bool) -> Iterator[Page]:
        from pdfminer.converter import PDFPageAggregator
        from pdfminer.layout import LAParams
        from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
        from pdfminer.pdfpage import PDFPage
        from pdfminer.psexceptions import PSException

        _quiet()
        failures: tuple[type[BaseException], ...] = (PSException, *MINER_FAILURES)
        resources = PDFResourceManager(caching=True)
        device = PDFPageAggregator(resources, laparams=LAParams())
        reader = PDFPageInterpreter(resources, device)
        number = first - 1
        try:
            for page in itertools.islice(PDFPage.create_pages(self.doc), first - 1, last):
                number += 1
                try:
                    reader.process_page(page)
                    result = device.get_result()
                    text = grid_text(miner_glyphs(result)) if layout else _miner_text(result)
                    if not layout and has_cjk(text):  # vertical writing: column by column, right to left
                        glyphs = miner_glyphs(result)
                        if direction(glyphs[:VERTICAL_SAMPLE]) in (1, 3):
                            text = reading_text(glyphs)
                    typed = ""
                    with contextlib.suppress(*failures):  # a damaged annotation costs its box, not the page
                        typed = forms.miner_text_boxes(page)
                    if typed:
                        text = f"{text.rstrip()}\n{typed}" if text.strip() else typed
                except failures as exc:
                    yield Page(number, "", f"{type(exc).__name__}: {exc}"[:200], engine=self.engine)
                    continue
                doubt, drawn = miner_doubt(text)
                yield Page(number, clean(text), engine=self.engine, doubt=doubt, glyphs=drawn)
        except failures as exc:  # the page tree itself broke: the rest cannot be reached
            why = f"the page tree is unreadable ({type(exc).__name__})"
        else:
            why = "missing from the page tree"
        for missing in range(number + 1, last + 1):
            yield Page(missing, "", why, engine=self.engine)

    def meta(self) -> dict[str, Any]:
        from pdfminer.pdftypes import resolve1
        from pdfminer.utils import decode_text

        found: dict[str, Any] = {"title": None, "producer": None}
        with contextlib.suppress(*MINER_FAILURES):
            for info in self.doc.info[:1]:
                for key in ("Title", "Producer"):
                    value = resolve1(info.get(key))
                    if isinstance(value, bytes):
                        found[key.lower()] = decode_text(value) or None
        return found

    def close(self) -> None:
        self.stream.close()
