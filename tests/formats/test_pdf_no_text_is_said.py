"""A page that draws something and comes out without text is never left empty without a word: text in fonts PDFium
cannot load goes to pdfminer before OCR (pdftotext and pdfminer read it), and a scan on which OCR reads nothing
is named as such."""

from __future__ import annotations

import pytest
from tests.formats.pdf_vertical_fixtures import COLUMNS, vertical_pdf
from tests.helpers import tiny_pdf

from boundread.contract.model import Request
from boundread.contract.sink import Sink
from boundread.contract.source import source_for_bytes
from boundread.formats import ocr
from boundread.formats.pdf import handler
from boundread.formats.pdf.judge import LOST
from boundread.formats.pdf.pdfium import PdfiumDoc
from boundread.limits import Limits

UNLOADED = vertical_pdf(ordering=b"Identity")  # PDFium loads no font for it: no text, nothing drawn
NEEDS_OCR = pytest.mark.skipif(ocr.missing("eng") is not None, reason="Tesseract (tesserocr + eng) missing")


def _blank_scan() -> bytes:
    """One page that draws a white 16x16 image over the whole page: a scan of an empty sheet."""
    pixels = b"\xff" * 256
    content = b"q 612 0 0 792 0 0 cm /Im1 Do Q"
    return tiny_pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 5 0 R >> >> "
        b"/Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        b"<< /Type /XObject /Subtype /Image /Width 16 /Height 16 /ColorSpace /DeviceGray /BitsPerComponent 8 "
        b"/Length 256 >>\nstream\n" + pixels + b"\nendstream",
    ])


def _extract(data: bytes, **fields: object) -> tuple[dict[str, object], list[str], str]:
    sink = Sink(Limits())
    outcome = handler.extract(source_for_bytes("page.pdf", data), Request(**fields), sink)  # type: ignore[arg-type]
    sink.close()
    return outcome.totals, outcome.warnings, sink.text()


def test_pdfium_doubts_a_page_of_text_objects_without_text() -> None:
    doc = PdfiumDoc(source_for_bytes("page.pdf", UNLOADED), None)
    try:
        page = next(iter(doc.read(1, 1, layout=False)))
    finally:
        doc.close()
    assert page.text == "" and page.doubt == LOST


def test_a_scan_raises_no_such_doubt() -> None:
    doc = PdfiumDoc(source_for_bytes("scan.pdf", _blank_scan()), None)
    try:
        page = next(iter(doc.read(1, 1, layout=False)))
    finally:
        doc.close()
    assert page.text == "" and page.drawn and page.doubt is None


@pytest.mark.parametrize("mode", ["auto", "never"])
def test_auto_reads_it_with_pdfminer_before_any_ocr(mode: str) -> None:
    totals, warnings, text = _extract(UNLOADED, ocr=mode)
    assert totals["engines"] == {"pdfminer": "1"} and warnings == []
    assert [line for line in text.splitlines()[1:] if line.strip()] == list(COLUMNS)


@NEEDS_OCR
def test_forced_ocr_that_reads_nothing_says_so() -> None:
    _, warnings, _ = _extract(UNLOADED, ocr="force")
    assert warnings == [f"page 1: {LOST}, and OCR reads no text on it - drop --ocr force: pdfminer may read it"]


@NEEDS_OCR
def test_pdfium_alone_says_so() -> None:
    _, warnings, _ = _extract(UNLOADED, engine="pdfium")
    assert warnings == [f"page 1: {LOST}, and OCR reads no text on it - drop --engine pdfium: pdfminer may read it"]


def test_info_does_not_call_it_a_scan() -> None:
    details = handler.info(source_for_bytes("page.pdf", UNLOADED), Request())
    assert details.fields["pages_without_text"] == 0
    assert details.warnings == ["1 of the 1 pages draws text in fonts PDFium could not load (page 1): extract reads "
                                "it with pdfminer, and est. tokens leaves it out"]
    assert details.next and details.next[0][0] == "pages"


@NEEDS_OCR
def test_a_scan_ocr_reads_nothing_on_is_named() -> None:
    totals, warnings, _ = _extract(_blank_scan())
    assert totals["no_text"] == "1"
    assert warnings == ["page 1: no text layer (scanned) and OCR found no text - check the page with an image viewer"]
