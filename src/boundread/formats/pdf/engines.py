"""The two PDF text engines behind one small interface: PDFium (fast, the default) and pdfminer.six.

``open_pdf`` opens a document with the engine asked for and falls back to the other one when the
first cannot open the file. A document yields :class:`Page` objects for a 1-based page range; a
page that fails carries its error instead of text, so the caller can warn and go on.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import re
import struct
import threading
import zlib
from collections.abc import Iterator
from typing import Any, BinaryIO, Protocol, cast

from boundread.contract.model import Source
from boundread.errors import Corrupt, Encrypted
from boundread.formats.ocr import Grey
from boundread.formats.pdf import forms
from boundread.formats.pdf.judge import LOST, VERTICAL, mapped, miner_doubt, unreadable
from boundread.formats.pdf.judge import readable as readable  # re-exported: tests/formats/test_pdf.py
from boundread.formats.pdf.layout import Glyph, direction, grid_text, miner_glyphs, pdfium_glyphs, reading_text
from boundread.formats.pdf.page import Page as Page  # re-exported: the engines' pages

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
_CONTROLS = dict.fromkeys([*range(9), 11, 12, *range(14, 32), 0xFFFE, 0xFEFF])
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\ufeff]")  # what _CONTROLS drops (\r is gone by then)
_PDFIUM_PASSWORD, _PDFIUM_SECURITY = 4, 5  # FPDF_ERR_PASSWORD, FPDF_ERR_SECURITY
# Kana, CJK ideographs, Hangul, fullwidth forms: the scripts that are written vertically
_CJK = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]"
VERTICAL_SAMPLE = 200  # glyphs whose positions tell the reading direction of a CJK page


class PdfDoc(Protocol):
    engine: str
    pages: int
    encrypted: bool
    form: int  # PDFium's form type: 0 none, 1 AcroForm, 2 XFA (its pages a shell), 3 XFA over an AcroForm

    def read(self, first: int, last: int, layout: bool) -> Iterator[Page]: ...
    def meta(self) -> dict[str, Any]: ...
    def close(self) -> None: ...


class OpenFailed(Exception):
    """An engine could not open the file; the other engine may still read it."""


def clean(text: str) -> str:
    """Unix newlines, no control characters, a final newline when there is text."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if _CONTROL.search(text) is not None:  # str.translate costs ~20 us a page; the search, a tenth of it
        text = text.translate(_CONTROLS)
    return text if not text or text.endswith("\n") else text + "\n"


def header_version(src: Source) -> str | None:
    with src.open() as stream:
        found = re.search(rb"%PDF-(\d\.\d)", stream.read(1024))
    return found.group(1).decode() if found else None


TAIL = 1 << 16  # bytes at the end of a file searched for its %%EOF marker: complete PDFs often carry trailing
# bytes after it (padding, a signature block, a mail client's or a scanner's junk), rarely more than a few kB


def cut_short(src: Source) -> bool:
    """The file ends early: no ``%%EOF`` anywhere in its last :data:`TAIL` bytes, as when a download or a copy
    stopped part way. A marker followed by other bytes is a complete file with trailing data, not a cut one."""
    with src.open() as stream:
        stream.seek(max(src.size - TAIL, 0))
        return b"%%EOF" not in stream.read(TAIL)


XFA_FULL = 2  # PDFium's FORMTYPE_XFA_FULL: the form's pages are a shell, its values in the datasets packet
TRUNCATED = "the file ends early (no %%EOF marker at its end: truncated?)"


def _locked(src: Source, password: str | None) -> Encrypted:
    if password:
        return Encrypted(f"{src.name} is encrypted and the password is wrong", "pass the right --password")
    return Encrypted(f"{src.name} is encrypted", "pass --password")


#: PDFium is not thread-safe, and pypdfium2 does not serialise it: two threads reading PDFs at once crash the
#: process (a double free or a segfault within a few calls; the MCP server runs four extractions in threads,
#: and the Python API may be called from any). One thread at a time uses PDFium, from a document's open to
#: its close; re-entrant, so one thread may hold two documents (the rereader's own). The only process-wide
#: state in boundread, because the library's own is. Forked workers (parallel.py) fork from the main thread
#: that holds it, and their copy is theirs.
PDFIUM_LOCK = threading.RLock()


class PdfiumDoc:
    engine = "pdfium"

    def __init__(self, src: Source, password: str | None) -> None:
        PDFIUM_LOCK.acquire()
        try:
            self._open(src, password)
        except BaseException:
            PDFIUM_LOCK.release()
            raise
        self._held = True

    def _open(self, src: Source, password: str | None) -> None:
        import pypdfium2 as pdfium
        import pypdfium2.raw as pdfium_c

        try:
            self.doc = pdfium.PdfDocument(str(src.path) if src.path else (src.data or b""), password=password)
        except pdfium.PdfiumError as exc:
            code = getattr(exc, "err_code", None)
            if code == _PDFIUM_PASSWORD:
                raise _locked(src, password) from None
            if code == _PDFIUM_SECURITY:
                raise OpenFailed("unsupported encryption") from None
            raise OpenFailed(str(exc).replace("Failed to load document ", "").strip("().").removeprefix("PDFium: "))\
                from None
        self.pages = len(self.doc)
        self.encrypted = pdfium_c.FPDF_GetSecurityHandlerRevision(self.doc) != -1
        self._error = pdfium.PdfiumError
        self.form = pdfium_c.FPDF_GetFormType(self.doc)  # none, AcroForm, XFA (full: its pages are a shell)
        self._formenv: Any = None
        if self.form in (pdfium_c.FORMTYPE_ACRO_FORM, pdfium_c.FORMTYPE_XFA_FOREGROUND):
            try:  # before any page is loaded: PDFium reads a page's fields through it
                self.doc.init_forms()
                self._formenv = self.doc.formenv.raw if self.doc.formenv is not None else None
            except pdfium.PdfiumError:
                self._formenv = None

    def read(self, first: int, last: int, layout: bool) -> Iterator[Page]:
        import pypdfium2.raw as pdfium_c

        for number in range(first, last + 1):
            try:
                page = self.doc[number - 1]
                textpage = page.get_textpage()
                try:
                    glyphs = pdfium_glyphs(textpage) if layout else None
                    text = grid_text(glyphs) if glyphs is not None else textpage.get_text_range()
                    plain = text if glyphs is None else textpage.get_text_range()  # the yield, spaces apart
                    drawn_glyphs = _glyph_count(textpage, plain)
                    usable = mapped(textpage, drawn_glyphs)
                    got = readable(plain) if usable is None else usable
                    doubt = _vertical(textpage, text, glyphs) or unreadable(got, drawn_glyphs)
                    if doubt == VERTICAL and glyphs is None:  # PDFium's own text runs the columns left to right
                        text = reading_text(pdfium_glyphs(textpage))
                    drawn = pdfium_c.FPDFPage_CountObjects(page) > 0
                    if drawn and not text.strip() and _draws_text(page.raw):
                        doubt = LOST
                    if self._formenv is not None and (filled := forms.fields_text(
                            forms.page_fields(self._formenv, page.raw))):
                        text = f"{text.rstrip()}\n{filled}" if text.strip() else filled
                    if pdfium_c.FPDFPage_GetAnnotCount(page) and (typed := forms.text_boxes(page.raw)):
                        text = f"{text.rstrip()}\n{typed}" if text.strip() else typed
                finally:
                    textpage.close()
                    page.close()
            except self._error as exc:
                yield Page(number, "", str(exc))
                continue
            yield Page(number, clean(text), drawn=drawn, doubt=doubt, glyphs=drawn_glyphs, usable=usable)

    def xfa_data(self) -> str | None:
        """An XFA form's filled values (formats/pdf/forms.py), or None: not an XFA form, or none readable."""
        import pypdfium2.raw as pdfium_c

        if self.form != pdfium_c.FORMTYPE_XFA_FULL:
            return None
        return forms.xfa_datasets(self.doc)

    def render(self, number: int, dpi: int, max_pixels: int) -> Grey:
        """Page ``number`` as grey pixels at ``dpi``, scaled down to at most ``max_pixels``."""
        page = self.doc[number - 1]
        try:
            width, height = page.get_size()
            scale = min(dpi / 72, (max_pixels / max(width * height, 1.0)) ** 0.5)
            bitmap = page.render(scale=scale, grayscale=True, may_draw_forms=True)
            try:
                return Grey(bytes(bitmap.buffer), bitmap.width, bitmap.height, bitmap.stride)
            finally:
                bitmap.close()
        finally:
            page.close()

    def meta(self) -> dict[str, Any]:
        data = self.doc.get_metadata_dict(skip_empty=True)
        version = self.doc.get_version()
        labels = [self.doc.get_page_label(i) for i in range(min(self.pages, LABELS_READ))]
        runs = label_runs(labels) if any(labels) else None
        if runs and self.pages > LABELS_READ:
            runs.append(f"… (the labels of the first {LABELS_READ:,} pages)")
        return {
            "title": data.get("Title"),
            "producer": data.get("Producer"),
            "pdf_version": f"{version // 10}.{version % 10}" if version else None,
            "page_labels": runs,
        }

    def close(self) -> None:
        if not self._held:
            return
        try:
            self.doc.close()
        finally:
            self._held = False
            PDFIUM_LOCK.release()


TEXT_OBJECTS_WALKED = 2000  # page objects looked at, forms' included, for a text object on a page without text


def _draws_text(page: Any) -> bool:
    """The page draws text objects (at the top or inside forms, ``TEXT_OBJECTS_WALKED`` objects at most): when
    PDFium's text of it is empty, its fonts are ones PDFium could not load, not a scan's image."""
    import pypdfium2.raw as pdfium_c

    todo: list[Any] = [pdfium_c.FPDFPage_GetObject(page, index)
                       for index in range(min(pdfium_c.FPDFPage_CountObjects(page), TEXT_OBJECTS_WALKED))]
    walked = 0
    while todo and walked < TEXT_OBJECTS_WALKED:
        obj = todo.pop()
        walked += 1
        kind = pdfium_c.FPDFPageObj_GetType(obj)
        if kind == pdfium_c.FPDF_PAGEOBJ_TEXT:
            return True
        if kind == pdfium_c.FPDF_PAGEOBJ_FORM:
            inside = min(pdfium_c.FPDFFormObj_CountObjects(obj), TEXT_OBJECTS_WALKED - walked - len(todo))
            todo.extend(pdfium_c.FPDFFormObj_GetObject(obj, index) for index in range(max(inside, 0)))
    return False


def _has_cjk(text: str) -> bool:
    """Some kana, CJK ideograph, Hangul or fullwidth form in ``text``. ``max`` first (C speed, ~3 us a page): a
    page with no code point from U+3040 up needs no regex, and a run with no CJK page never compiles it (~2 ms)."""
    return bool(text) and max(text) >= "\u3040" and re.search(_CJK, text) is not None


def _vertical(textpage: Any, text: str, glyphs: list[Glyph] | None) -> str | None:
    """Why PDFium's text of this page is unreliable: CJK written in columns (vertical writing mode fonts),
    where PDFium drops most glyphs and reverses the lines. Pages without CJK cost one regex search."""
    if not _has_cjk(text):
        return None
    if glyphs is None:
        glyphs = pdfium_glyphs(textpage, limit=VERTICAL_SAMPLE)
    if direction(glyphs[:VERTICAL_SAMPLE]) in (1, 3):  # up or down the page
        return VERTICAL
    return None


def _glyph_count(textpage: Any, text: str) -> int:
    """The glyphs PDFium found on the page: its char count, less the spaces and line breaks it generates."""
    import pypdfium2.raw as pdfium_c

    return int(pdfium_c.FPDFText_CountChars(textpage)) - sum(map(text.count, " \r\n\t"))


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


LABELS_READ = 1000  # pages whose labels info reads (PDFium reads one from the catalogue's number tree)
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


def _number(label: str) -> tuple[str, int] | None:
    """A label's numbering style and value: ("1", 12), ("i", 4), ("I", 4); None for any other label."""
    if label.isdigit():
        return "1", int(label)
    lower = label.lower()
    if lower and all(ch in _ROMAN for ch in lower) and label in (lower, label.upper()):
        values = [_ROMAN[ch] for ch in lower]
        total = sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
        return ("i" if label == lower else "I"), total
    return None


def label_runs(labels: list[str]) -> list[str]:
    """Every page's label, with runs of one numbering collapsed: ``i, ii, iii, iv, 1, 2, ... 19`` ->
    ``["i-iv", "1-19"]``, so the list covers all pages however many there are."""
    runs: list[list[str]] = []
    for label in labels:
        last = runs[-1] if runs else None
        here, there = _number(label), _number(last[-1]) if last else None
        if last and here and there and here[0] == there[0] and here[1] == there[1] + 1:
            last.append(label)
        else:
            runs.append([label])
    return [run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs]


class MinerDoc:
    engine = "pdfminer"

    def __init__(self, src: Source, password: str | None) -> None:
        from pdfminer.pdfdocument import PDFDocument, PDFEncryptionError, PDFPasswordIncorrect
        from pdfminer.pdfparser import PDFParser
        from pdfminer.psexceptions import PSException

        logging.getLogger("pdfminer").setLevel(logging.ERROR)
        failures: tuple[type[BaseException], ...] = (PSException, *MINER_FAILURES)
        self.stream = src.open()
        try:
            self.doc = PDFDocument(PDFParser(cast("BinaryIO", self.stream)), password=password or "")
            self.pages = self._count()
        except PDFPasswordIncorrect:
            self.stream.close()
            raise _locked(src, password) from None
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

        logging.getLogger("pdfminer").setLevel(logging.ERROR)
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
                    if not layout and _has_cjk(text):  # vertical writing: column by column, right to left
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


def open_pdf(src: Source, password: str | None, engine: str) -> tuple[PdfDoc, list[str]]:
    """Open with the engine asked for (auto means PDFium); fall back to the other if it cannot."""
    order: list[type[PdfiumDoc] | type[MinerDoc]] = [PdfiumDoc, MinerDoc]
    if engine == "pdfminer":
        order.reverse()
    failed: list[tuple[str, str]] = []
    for kind in order:
        try:
            doc = kind(src, password)
        except OpenFailed as exc:
            failed.append((kind.engine, str(exc)))
            continue
        warnings = [f"{name} could not open the file ({why}): read with {doc.engine}" for name, why in failed]
        return doc, warnings
    reasons = "; ".join(f"{name}: {why}" for name, why in failed).replace(" - ", ": ")  # " - " opens the fix
    if cut_short(src):
        raise Corrupt(f"{src.name} is not a readable PDF: {TRUNCATED} ({reasons})",
                      "get the whole file again (download or copy it anew)")
    raise Corrupt(f"{src.name} is not a readable PDF ({reasons})", "check the file; `boundread info` shows what it is")
