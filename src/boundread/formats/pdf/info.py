"""``info`` of a PDF: pages, metadata, the text layer judged on the first pages, a length estimate from a sample,
and the commands that go on (``pages 1-5``, ``--layout``, ``--ocr force`` for unmapped glyphs)."""

from __future__ import annotations

from contextlib import closing

from boundread.contract.model import FILE, Details, Request, Source, Span
from boundread.errors import Encrypted
from boundread.formats.pdf.doc import TRUNCATED, PdfDoc, cut_short, header_version
from boundread.formats.pdf.engines import open_pdf
from boundread.formats.pdf.judge import LOST, unmapped
from boundread.formats.pdf.runs import named, pages_word, runs
from boundread.record import Record, field

SAMPLE_PAGES = 3  # pages read by info to tell a text PDF from a scan and estimate its length
WINDOW = 5  # pages suggested by info
NO_TEXT_CHECK = 20  # pages info checks for a text layer (PDFium: ~1 ms a page)


def info(src: Source, req: Request) -> Details:
    details = Details()
    try:
        doc, warnings = open_pdf(src, req.password, req.engine)
    except Encrypted:
        details.encrypted = True
        details.fields = {"pages": None, "pdf_version": header_version(src)}
        details.warnings.append(
            "wrong password: pass the right --password" if req.password else "password required: pass --password"
        )
        return details
    with closing(doc):  # a file neither engine opens is Corrupt: info names it as its problem, as extract fails
        details.warnings.extend(warnings)
        if cut_short(src):
            details.warnings.append(f"{TRUNCATED}: pages past the cut may be missing or unreadable")
        details.encrypted = doc.encrypted
        meta = doc.meta()
        meta["pdf_version"] = meta.get("pdf_version") or header_version(src)
        checked = min(doc.pages, NO_TEXT_CHECK if doc.engine == "pdfium" else SAMPLE_PAGES)
        look = _look(doc, checked, details.warnings)
        details.fields = {"pages": doc.pages, **meta, "text_layer": look.has_text, "engine": doc.engine,
                          "pages_without_text": look.scans + len(look.unmapped), "pages_unmapped": len(look.unmapped),
                          "pages_checked": checked}
    sampled = min(doc.pages, SAMPLE_PAGES)
    if sampled:
        details.est_chars = round(look.chars * doc.pages / sampled)
        details.estimated = sampled < doc.pages
    among = f"the first {checked}" if checked < doc.pages else f"the {doc.pages}"
    if look.scans and req.ocr != "never":
        from boundread.formats import ocr

        why = ocr.missing(req.ocr_lang)
        verb = "has" if look.scans == 1 else "have"
        details.warnings.append(f"{look.scans} of {among} pages {verb} no text layer (scanned): "
                                + (f"{why}: {ocr.INSTALL}" if why else "`boundread pages` reads them by OCR"))
        if not why:
            details.next = [("pages", FILE, str(Span(1, min(WINDOW, doc.pages))))]
    if not doc.pages:
        details.warnings.append("the file has no pages")
    elif not look.has_text and not look.scans and not look.unmapped and not look.lost:
        sample = pages_word(Span(1, min(doc.pages, SAMPLE_PAGES)))
        details.warnings.append(f"no text layer on {sample}: blank pages, or text drawn as images (OCR needed)")
    elif look.has_text or look.lost:
        window = str(Span(1, min(WINDOW, doc.pages)))
        details.next = [("pages", FILE, window), ("pages", FILE, window, "--layout")]
    if look.unmapped:
        _unmapped_warning(look.unmapped, among, req, details)
    if look.lost:
        verb, them = ("draws", "it") if len(look.lost) == 1 else ("draw", "them")
        details.warnings.append(f"{len(look.lost)} of {among} pages {verb} text in fonts PDFium could not load"
                                f" ({named(look.lost)}): extract reads {them} with pdfminer, and est. tokens leaves"
                                f" {them} out")
    return details


class _Look(Record):
    """What info found on the pages it checked."""

    chars: int = 0  # characters extract gives the first SAMPLE_PAGES (an unmapped page: one a glyph, as OCR does)
    has_text: bool = False  # some usable text on the first SAMPLE_PAGES
    scans: int = 0  # pages that draw something and have no text layer
    unmapped: list[int] = field(default_factory=list)  # pages whose text layer is no usable text (judge.unmapped)
    lost: list[int] = field(default_factory=list)  # pages that draw text PDFium reads nothing of (judge.LOST)


def _look(doc: PdfDoc, checked: int, warnings: list[str]) -> _Look:
    look = _Look()
    for page in doc.read(1, checked, layout=False):
        if page.error:
            warnings.append(f"page {page.number} could not be read: {page.error}")
        elif unmapped(page):
            look.unmapped.append(page.number)
        elif page.doubt == LOST:
            look.lost.append(page.number)
        elif not page.text.strip() and page.drawn:
            look.scans += 1
        elif page.number <= SAMPLE_PAGES:
            look.has_text = look.has_text or bool(page.text.strip())
        if page.number <= SAMPLE_PAGES:
            look.chars += max(len(page.text), page.glyphs) if unmapped(page) else len(page.text)
    return look


def _unmapped_warning(pages: list[int], among: str, req: Request, details: Details) -> None:
    """Pages with a text layer that is no usable text: say so, and how OCR reads them."""
    count = len(pages)
    verb = "has" if count == 1 else "have"
    what = (f"{count} of {among} pages {verb} a text layer of glyphs whose fonts map them to no text (no usable"
            f" text: {runs(pages)})")
    window = str(Span(pages[0], min(pages[0] + WINDOW - 1, pages[-1])))
    from boundread.formats import ocr

    why = ocr.missing(req.ocr_lang)
    if why:
        details.warnings.append(f"{what}: OCR would read them but {why} - {ocr.INSTALL}")
    else:
        details.warnings.append(f"{what}: `boundread pages F {window} --ocr force` reads them by OCR")
        details.next = [("pages", FILE, window, "--ocr", "force"), *(details.next or [])]
