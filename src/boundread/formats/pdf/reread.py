"""The engine that reads each page: PDFium's text unless it is missing or unreliable.

In ``auto`` a page is read again, on its own, when the first engine's text falls short:

- no text layer (a scan) and the page draws something: Tesseract OCRs PDFium's rendering at 300 dpi, when
  installed (``--ocr force`` OCRs every page, ``--ocr never`` none);
- PDFium's text is doubtful - CJK in vertical writing, where it drops most glyphs, or a yield far below the
  page's glyph count (glyphs whose font maps them to no text: U+FFFD, private-use code points, controls):
  pdfminer reads the page, and its text is kept when it holds more readable characters; when it does not and
  the glyphs are unmapped, Tesseract reads the page (``--ocr auto``, installed), else a warning says so.

Each page records the engine that read it; the handler reports them per engine in ``totals["engines"]``.
"""

from __future__ import annotations

from boundread.contract.model import Request, Source
from boundread.formats.pdf.doc import OpenFailed, PdfDoc, clean
from boundread.formats.pdf.judge import LOST, UNREADABLE, readable, unmapped, usable_chars
from boundread.formats.pdf.page import Page
from boundread.formats.pdf.pdfium import PdfiumDoc
from boundread.formats.pdf.runs import runs
from boundread.limits import Deadline
from boundread.record import replace

TYPE_CHECKING = False  # not typing's: its import is ~4 ms of a start-up
if TYPE_CHECKING:
    from boundread.formats import ocr
    from boundread.formats.pdf.miner import MinerDoc

#: why pdfminer is not asked about glyphs PDFium flags as unmapped: it writes letters for them all the same (an
#: embedded subset font without a ToUnicode map: "0q1q2340q..."), guesses that would pass for text
NO_MAP = "pdfminer not asked (its letters for unmapped glyphs would be guesses)"
OCR_MARGIN = 0.3  # seconds kept back from the time limit, so Tesseract stops before the hard alarm


class Rereader:
    def __init__(self, src: Source, req: Request, doc: PdfDoc, deadline: Deadline) -> None:
        self.src, self.req, self.doc, self.deadline = src, req, doc, deadline
        self.engines: dict[str, list[int]] = {}
        self.no_text: list[int] = []  # pages left without text (no OCR), in reading order
        self.ocr_missing: str | None = None  # why OCR could not run, once it was needed
        self.warnings: list[str] = []
        self.unread: dict[str, list[Page]] = {}  # unmapped pages left as they were, by why
        self._miner: MinerDoc | None = None
        self._miner_failed = False
        self._reader: ocr.Reader | None = None
        self._pdfium: PdfiumDoc | None = None  # renders the pages to OCR (the document itself, unless pdfminer
        # reads it)

    def page(self, page: Page) -> Page:
        if page.timed_out:  # the time limit ran out on it (a worker's alarm): nothing to read again
            return page
        if page.error is None:
            page = self._better(page)
            if not page.timed_out and not (self.no_text and self.no_text[-1] == page.number):
                self.engines.setdefault(page.engine, []).append(page.number)
        return page

    def _better(self, page: Page) -> Page:
        mode = self.req.ocr
        if (mode != "force" and page.doubt and self.req.engine == "auto" and self.doc.engine == "pdfium"
                and page.usable is None):  # glyphs PDFium finds no Unicode for: pdfminer's letters would be guesses
            better = self._miner_page(page)  # PDFium's text doubted: pdfminer first, OCR after it
            if better is not page:
                return better
        if mode == "force" or (mode == "auto" and page.drawn and not page.text.strip()):
            read = self._ocr(page)
            if read is not None and unmapped(page) and not read.timed_out and not read.text.strip():
                self.unread.setdefault("OCR reads no text on it either", []).append(page)
            if read is not None:
                if not read.timed_out and not read.text.strip() and page.drawn and not page.text.strip():
                    self._nothing(page)
                return read
            if not page.text.strip():
                self.no_text.append(page.number)
            return page
        if mode == "never" and page.drawn and not page.text.strip():
            self.no_text.append(page.number)
        return self._unmapped(page) if unmapped(page) else page

    def _nothing(self, page: Page) -> None:
        """A page that draws something and OCR reads no text on: said, never left empty without a word."""
        if page.doubt != LOST:
            self.no_text.append(page.number)  # a scan: the handler names them together
            return
        other = (" - drop --ocr force: pdfminer may read it" if self.req.ocr == "force" else ", nor does pdfminer"
                 if self.req.engine == "auto" else " - drop --engine pdfium: pdfminer may read it")
        self.warnings.append(f"page {page.number}: {LOST}, and OCR reads no text on it{other}")

    def _unmapped(self, page: Page) -> Page:
        """A page whose glyphs have no text in PDFium or pdfminer: OCR reads it (auto, when installed)."""
        read = self._ocr(page) if self.req.ocr == "auto" else None
        if read is not None and (read.timed_out or readable(read.text) > usable_chars(page)):
            return read
        other = self._other_engine(page)
        why = (f"{other} and neither does OCR" if read is not None else
               f"{other} and OCR is off (--ocr never)" if self.req.ocr == "never" else
               f"{other} and {self.ocr_missing} - {_install()}")
        self.unread.setdefault(why, []).append(page)
        return page

    def _other_engine(self, page: Page) -> str:
        """What the other text engine made of an unmapped page."""
        if page.engine == "pdfminer":
            asked = self.req.engine == "pdfminer"
            return "PDFium was not asked (--engine pdfminer)" if asked else "PDFium could not open the file"
        if self.req.engine != "auto":
            return "pdfminer was not asked (--engine pdfium)"
        return "pdfminer reads no more" if page.usable is None else NO_MAP

    def _ocr(self, page: Page) -> Page | None:
        if self.ocr_missing is not None:
            return None
        if self._pdfium is None:
            try:
                self._pdfium = self.doc if isinstance(self.doc, PdfiumDoc) else PdfiumDoc(self.src, self.req.password)
            except OpenFailed:
                self.ocr_missing = "OCR renders pages with PDFium, which cannot open this file"
                return None
        from boundread.formats import ocr

        if self._reader is None:
            self.ocr_missing = ocr.missing(self.req.ocr_lang)
            if self.ocr_missing is not None:
                return None
            self._reader = ocr.Reader(self.req.ocr_lang)
        image = self._pdfium.render(page.number, ocr.DPI, ocr.MAX_PIXELS)
        remaining = self.deadline.remaining
        if remaining is not None and remaining <= OCR_MARGIN:
            return replace(page, text="", timed_out=True)
        text = self._reader.read(image, None if remaining is None else remaining - OCR_MARGIN)
        del image
        if text is None:
            return replace(page, text="", timed_out=True)
        return Page(page.number, clean(text.strip() and text), engine="tesseract")

    def _miner_page(self, page: Page) -> Page:
        if self._miner is None and not self._miner_failed:
            from boundread.formats.pdf.miner import MinerDoc

            try:
                self._miner = MinerDoc(self.src, self.req.password)
            except OpenFailed:
                self._miner_failed = True
        if self._miner is None:
            self.warnings.append(f"page {page.number}: {page.doubt}, PDFium's text may be incomplete")
            return page
        other = next(iter(self._miner.read(page.number, page.number, self.req.layout)), None)
        if other is None or other.error or readable(other.text) <= usable_chars(page):
            return page
        return replace(other, engine="pdfminer")

    def unread_warnings(self, written: set[int]) -> list[str]:
        """One warning for each reason unmapped pages of ``written`` were left as they were: a page alone by its
        number and doubt, several by their runs and their glyphs in all."""
        told: list[str] = []
        for why, left in self.unread.items():
            pages = [page for page in left if page.number in written]
            if not pages:
                continue
            if len(pages) == 1:
                told.append(f"page {pages[0].number}: {pages[0].doubt}, its fonts map glyphs to no text: {why}")
                continue
            got, drawn = sum(map(usable_chars, pages)), sum(page.glyphs for page in pages)
            told.append(f"pages {runs([page.number for page in pages])}: {UNREADABLE} ({got:,} of {drawn:,} glyphs"
                        f" in all), their fonts map glyphs to no text: {why.replace(' on it ', ' on them ')}")
        return told

    def close(self) -> None:
        if self._miner is not None:
            self._miner.close()
        if self._reader is not None:
            self._reader.close()
        if self._pdfium is not None and self._pdfium is not self.doc:
            self._pdfium.close()


def _install() -> str:
    from boundread.formats import ocr

    return ocr.INSTALL
