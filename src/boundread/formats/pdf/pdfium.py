"""PDFium's document: pages read one by one, each with the judgement of its text (judge.py), through the ctypes
declarations of :mod:`.binding`; pypdfium2 itself only renders a page for OCR."""

from __future__ import annotations

import ctypes
import threading

from boundread.contract.model import Source
from boundread.formats.pdf.binding import (
    ERRORS,
    FORMTYPE_ACRO_FORM,
    FORMTYPE_XFA_FOREGROUND,
    FORMTYPE_XFA_FULL,
    FPDF_ERR_PASSWORD,
    FPDF_ERR_SECURITY,
    FPDF_PAGEOBJ_FORM,
    FPDF_PAGEOBJ_TEXT,
    FormFillInfo,
    PdfiumError,
    page_text,
    pdfium,
    utf16,
)
from boundread.formats.pdf.doc import OpenFailed, clean, locked
from boundread.formats.pdf.judge import LOST, SPACES, VERTICAL, VERTICAL_SAMPLE, has_cjk, mapped, readable, unreadable
from boundread.formats.pdf.page import Page

TYPE_CHECKING = False  # not typing's: its import is ~4 ms of a start-up
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from boundread.formats.ocr import Grey
    from boundread.formats.pdf.layout import Glyph

#: PDFium is not thread-safe, and pypdfium2 does not serialise it: two threads reading PDFs at once crash the
#: process (a double free or a segfault within a few calls; the MCP server runs four extractions in threads,
#: and the Python API may be called from any). One thread at a time uses PDFium, from a document's open to
#: its close; re-entrant, so one thread may hold two documents (the rereader's own). The only process-wide
#: state in boundread, because the library's own is. Forked workers (parallel.py) fork from the main thread
#: that holds it, and their copy is theirs.
PDFIUM_LOCK = threading.RLock()
TEXT_OBJECTS_WALKED = 2000  # page objects looked at, forms' included, for a text object on a page without text


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
        self._c = c = pdfium()
        self._src, self._password = src, password
        secret = None if password is None else password.encode("utf-8", errors="surrogateescape")
        self._data = bytes(src.data or b"")  # PDFium reads a document in memory from it: kept while it is open
        self.doc = (c.FPDF_LoadDocument(str(src.path).encode("utf-8", errors="surrogateescape"), secret) if src.path
                    else c.FPDF_LoadMemDocument64(self._data, len(self._data), secret))
        self.pages = c.FPDF_GetPageCount(self.doc) if self.doc else 0
        if self.pages < 1:  # pypdfium2's rule, kept: a document of no pages is one PDFium could not read
            code = c.FPDF_GetLastError()
            if self.doc:
                c.FPDF_CloseDocument(self.doc)
            if code == FPDF_ERR_PASSWORD:
                raise locked(src, password)
            if code == FPDF_ERR_SECURITY:
                raise OpenFailed("unsupported encryption")
            raise OpenFailed(ERRORS.get(code, f"Unhandled constant {code}"))
        self.encrypted = c.FPDF_GetSecurityHandlerRevision(self.doc) != -1
        self.form = c.FPDF_GetFormType(self.doc)  # none, AcroForm, XFA (full: its pages are a shell)
        self._formenv: int | None = None
        self._renderer: Any = None  # pypdfium2's document of the same file, opened to render a page for OCR
        if self.form in (FORMTYPE_ACRO_FORM, FORMTYPE_XFA_FOREGROUND):  # before any page: its fields come through
            self._fill = FormFillInfo(version=2)  # kept while the form environment lives
            self._formenv = c.FPDFDOC_InitFormFillEnvironment(self.doc, ctypes.byref(self._fill)) or None

    def _page(self, index: int) -> int:
        page: int | None = self._c.FPDF_LoadPage(self.doc, index)
        if not page:
            raise PdfiumError("Failed to load page.")
        if self._formenv is not None:
            self._c.FORM_OnAfterLoadPage(page, self._formenv)
        return page

    def _close_page(self, page: int) -> None:
        if self._formenv is not None:
            self._c.FORM_OnBeforeClosePage(page, self._formenv)
        self._c.FPDF_ClosePage(page)

    def read(self, first: int, last: int, layout: bool) -> Iterator[Page]:
        c = self._c
        for number in range(first, last + 1):
            try:
                page = self._page(number - 1)
                try:
                    textpage = c.FPDFText_LoadPage(page)
                    if not textpage:
                        raise PdfiumError("Failed to load text page.")
                    try:
                        read = self._text(page, textpage, layout)
                    finally:
                        c.FPDFText_ClosePage(textpage)
                finally:
                    self._close_page(page)
            except PdfiumError as exc:
                yield Page(number, "", str(exc))
                continue
            text, drawn, doubt, drawn_glyphs, usable = read
            yield Page(number, clean(text), drawn=drawn, doubt=doubt, glyphs=drawn_glyphs, usable=usable)

    def _text(self, page: int, textpage: int, layout: bool) -> tuple[str, bool, str | None, int, int | None]:
        """One page's text, whether it draws anything, the doubt about its text, its glyphs and usable chars."""
        c = self._c
        glyphs = None
        if layout:  # layout, forms and labels are imported where a page needs them (~1 ms each of a start-up)
            from boundread.formats.pdf.layout import grid_text, pdfium_glyphs

            glyphs = pdfium_glyphs(textpage)
        plain = page_text(c, textpage)  # the yield, spaces apart
        text = grid_text(glyphs) if glyphs is not None else plain
        spaces = sum(map(plain.count, SPACES))  # PDFium's own, between words and lines: no glyphs
        drawn_glyphs = c.FPDFText_CountChars(textpage) - spaces
        usable = mapped(textpage, drawn_glyphs)
        got = readable(plain, spaces) if usable is None else usable
        doubt = _vertical(textpage, text, glyphs) or unreadable(got, drawn_glyphs)
        if doubt == VERTICAL and glyphs is None:  # PDFium's own text runs the columns left to right
            from boundread.formats.pdf.layout import pdfium_glyphs, reading_text

            text = reading_text(pdfium_glyphs(textpage))
        drawn = c.FPDFPage_CountObjects(page) > 0
        if drawn and not text.strip() and _draws_text(c, page):
            doubt = LOST
        if self._formenv is not None or c.FPDFPage_GetAnnotCount(page):
            from boundread.formats.pdf import forms

            if self._formenv is not None and (filled := forms.fields_text(forms.page_fields(self._formenv, page))):
                text = f"{text.rstrip()}\n{filled}" if text.strip() else filled
            if c.FPDFPage_GetAnnotCount(page) and (typed := forms.text_boxes(page)):
                text = f"{text.rstrip()}\n{typed}" if text.strip() else typed
        return text, drawn, doubt, drawn_glyphs, usable

    def xfa_data(self) -> str | None:
        """An XFA form's filled values (formats/pdf/forms.py), or None: not an XFA form, or none readable."""
        if self.form != FORMTYPE_XFA_FULL:
            return None
        from boundread.formats.pdf import forms

        return forms.xfa_datasets(self.doc)

    def render(self, number: int, dpi: int, max_pixels: int) -> Grey:
        """Page ``number`` as grey pixels at ``dpi``, scaled down to at most ``max_pixels`` - by pypdfium2, on a
        document of its own (OCR is seconds a page; pypdfium2's import is paid once, when a page needs it)."""
        import pypdfium2 as pdfium_py

        from boundread.formats.ocr import Grey

        if self._renderer is None:
            self._renderer = pdfium_py.PdfDocument(self._src.path or self._data, password=self._password)
            if self._formenv is not None:
                self._renderer.init_forms()
        page = self._renderer[number - 1]
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
        from boundread.formats.pdf.labels import LABELS_READ, label_runs

        version = ctypes.c_int()
        known = self._c.FPDF_GetFileVersion(self.doc, ctypes.byref(version))
        labels = [self._label(i) for i in range(min(self.pages, LABELS_READ))]
        runs = label_runs(labels) if any(labels) else None
        if runs and self.pages > LABELS_READ:
            runs.append(f"… (the labels of the first {LABELS_READ:,} pages)")
        return {
            "title": self._meta_text(b"Title") or None,
            "producer": self._meta_text(b"Producer") or None,
            "pdf_version": f"{version.value // 10}.{version.value % 10}" if known and version.value else None,
            "page_labels": runs,
        }

    def _meta_text(self, key: bytes) -> str:
        return utf16(self._c.FPDF_GetMetaText, self.doc, key)

    def _label(self, index: int) -> str:
        return utf16(self._c.FPDF_GetPageLabel, self.doc, index)

    def close(self) -> None:
        if not self._held:
            return
        try:
            if self._renderer is not None:
                self._renderer.close()
            if self._formenv is not None:
                self._c.FPDFDOC_ExitFormFillEnvironment(self._formenv)
            self._c.FPDF_CloseDocument(self.doc)
        finally:
            self._held = False
            PDFIUM_LOCK.release()


def _draws_text(c: Any, page: int) -> bool:
    """The page draws text objects (at the top or inside forms, ``TEXT_OBJECTS_WALKED`` objects at most): when
    PDFium's text of it is empty, its fonts are ones PDFium could not load, not a scan's image."""
    todo: list[Any] = [c.FPDFPage_GetObject(page, index)
                       for index in range(min(c.FPDFPage_CountObjects(page), TEXT_OBJECTS_WALKED))]
    walked = 0
    while todo and walked < TEXT_OBJECTS_WALKED:
        obj = todo.pop()
        walked += 1
        kind = c.FPDFPageObj_GetType(obj)
        if kind == FPDF_PAGEOBJ_TEXT:
            return True
        if kind == FPDF_PAGEOBJ_FORM:
            inside = min(c.FPDFFormObj_CountObjects(obj), TEXT_OBJECTS_WALKED - walked - len(todo))
            todo.extend(c.FPDFFormObj_GetObject(obj, index) for index in range(max(inside, 0)))
    return False


def _vertical(textpage: Any, text: str, glyphs: list[Glyph] | None) -> str | None:
    """Why PDFium's text of this page is unreliable: CJK written in columns (vertical writing mode fonts),
    where PDFium drops most glyphs and reverses the lines. Pages without CJK cost one ``max``."""
    if not has_cjk(text):
        return None
    from boundread.formats.pdf.layout import direction, pdfium_glyphs

    if glyphs is None:
        glyphs = pdfium_glyphs(textpage, limit=VERTICAL_SAMPLE)
    if direction(glyphs[:VERTICAL_SAMPLE]) in (1, 3):  # up or down the page
        return VERTICAL
    return None
