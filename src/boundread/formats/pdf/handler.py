"""PDF: page ranges for ``extract``, page by page; ``info`` (page count, a text sample) is :mod:`.info`'s.

PDFium (pypdfium2) reads text by default: it opens a document without parsing its pages and
reads any page directly, so ``info`` and ``pages 1-5`` cost the same on a 5-page and a 1,000-page
file. pdfminer.six is the second engine (``--engine pdfminer``) and the fallback when PDFium cannot
open a file. ``--layout`` places each glyph on a character grid so a table row stays on one line
(see :mod:`boundread.formats.pdf.layout`).
"""

from __future__ import annotations

from collections.abc import Generator
from contextlib import closing

from boundread.contract.model import FILE, Outcome, Request, Source, Span, Suggestion
from boundread.contract.sink import Sink
from boundread.errors import NoText, UsageError
from boundread.formats._lines import lines_on
from boundread.formats.pdf import parallel
from boundread.formats.pdf.doc import TRUNCATED, XFA_FULL, PdfDoc, cut_short
from boundread.formats.pdf.engines import open_pdf
from boundread.formats.pdf.info import info as info  # the registry's handler.info
from boundread.formats.pdf.page import Page
from boundread.formats.pdf.pdfium import PdfiumDoc
from boundread.formats.pdf.reread import Rereader
from boundread.formats.pdf.runs import joined, pages_word, runs
from boundread.record import Record

KINDS: tuple[str, ...] = ("pdf",)

MAX_PAGE_WARNINGS = 10  # pages that failed, named one by one; the rest are counted
#: Unreadable pages in a row at which the read stops: a page tree that declares more pages than it holds (a
#: 601-byte file may say 1,000,000) would give a header per page and nothing else; the next step goes on after.
FAILED_RUN = 50


def _clamp(asked: tuple[Span, ...], total: int, warnings: list[str]) -> list[Span]:
    if not asked:
        return [Span(1, total)]
    whole = pages_word(Span(1, total))
    spans: list[Span] = []
    for span in asked:
        if span.first < 1 or span.last < span.first:
            raise UsageError(f"{pages_word(span)} is not a page range", f"ask for {whole}")
        if span.first > total:
            are = "is" if span.first == span.last else "are"
            raise UsageError(f"{pages_word(span)} {are} past the end ({total} pages)", f"ask for {whole}")
        if span.last > total:
            clamped = Span(span.first, total)
            warnings.append(f"asked {pages_word(span)} but the file has {total}: clamped to {clamped}")
            span = clamped
        spans.append(span)
    return spans


class _Stop(Record):
    index: int  # which span
    number: int  # first page not (fully) written


def _resume(asked: tuple[Span, ...], spans: list[Span], stop: _Stop | None, total: int) -> Suggestion | None:
    if stop is not None:
        rest = [Span(stop.number, spans[stop.index].last), *spans[stop.index + 1 :]]
        rest = [span for span in rest if span.first <= span.last]
        if len(asked) == 1 and len(rest) == 1:
            size = asked[0].last - asked[0].first + 1
            rest = [Span(stop.number, min(total, stop.number + size - 1))]
        if rest:
            return ("pages", FILE, joined(rest))
    furthest = max(spans, key=lambda span: span.last)
    if furthest.last >= total:
        return None
    size = spans[-1].last - spans[-1].first + 1
    return ("pages", FILE, str(Span(furthest.last + 1, min(total, furthest.last + size))))


def _after(spans: list[Span], index: int, number: int) -> _Stop | None:
    """Where reading goes on after page ``number`` of span ``index``; None when nothing is left."""
    if number < spans[index].last:
        return _Stop(index, number + 1)
    if index + 1 < len(spans):
        return _Stop(index + 1, spans[index + 1].first)
    return None


def _requested(src: Source, doc: PdfDoc, spans: list[Span], req: Request, sink: Sink,
               pick: Rereader) -> Generator[tuple[int, Page], None, None]:
    """Each page asked for, with the index of its span, read by the engine that suits it (see reread)."""
    if isinstance(doc, PdfiumDoc) and req.ocr != "force":  # OCR'd pages keep none of PDFium's text
        asked = [(index, number) for index, span in enumerate(spans) for number in range(span.first, span.last + 1)]

        def room() -> int | None:  # characters the sink still takes; a filter (grep, --lines) cannot tell
            return None if sink.filtering else sink.limits.max_chars - sink.chars

        pages = parallel.read(doc, src, req.password, [number for _, number in asked], req.layout, room,
                              sink.deadline)
        with closing(pages):
            for (index, _), page in zip(asked, pages, strict=False):
                yield index, pick.page(page)
        return
    for index, span in enumerate(spans):
        for page in doc.read(span.first, span.last, req.layout):
            yield index, pick.page(page)


def _write(src: Source, doc: PdfDoc, spans: list[Span], req: Request, sink: Sink, out: Outcome,
           pick: Rereader) -> tuple[list[int], _Stop | None]:
    """Write the pages into the sink; return the pages written (the last may be cut) and where it stopped."""
    written: list[int] = []
    failed: list[int] = []
    run = 0  # unreadable pages in a row
    stop: _Stop | None = None
    with closing(_requested(src, doc, spans, req, sink, pick)) as pages:
        for index, page in pages:
            if page.timed_out:  # OCR ran out of time on this page: nothing of it is written
                stop = _Stop(index, page.number)
                sink.expire()
                break
            if page.error:
                failed.append(page.number)
                run += 1
                if len(failed) <= MAX_PAGE_WARNINGS:
                    out.warnings.append(f"page {page.number} could not be read: {page.error}")
            else:
                run = 0
            reasons, chars = len(sink.reasons), sink.chars
            sink.progress.advance()
            more = sink.write(f"--- page {page.number} / {doc.pages} ---\n{page.text}")
            if len(sink.reasons) > reasons:  # cut by a limit, or not written at all (deadline)
                if sink.chars > chars:
                    written.append(page.number)
                stop = _Stop(index, page.number)
                break
            written.append(page.number)
            if run >= FAILED_RUN:
                out.truncated.append(f"{FAILED_RUN} unreadable pages in a row")
                out.warnings.append(f"pages {page.number - run + 1}-{page.number} could not be read: the file declares"
                                    f" {doc.pages:,} pages but may hold fewer (damaged?) - stopped there")
                stop = _after(spans, index, page.number)
                break
            if not more:  # the sink's own selection (--lines) is complete: not a truncation
                break
            if sink.deadline.expired:
                stop = _after(spans, index, page.number)
                if stop is not None:
                    sink.expire()
                break
    if len(failed) > MAX_PAGE_WARNINGS:
        out.warnings.append(f"{len(failed) - MAX_PAGE_WARNINGS} more pages could not be read")
    return written, stop


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    if req.ocr == "force":
        from boundread.formats import ocr  # only where a page wants OCR: it imports dataclasses and pathlib

        if why := ocr.missing(req.ocr_lang):
            raise NoText(f"--ocr force: {why}", ocr.INSTALL)
    doc, warnings = open_pdf(src, req.password, req.engine)
    with closing(doc):
        total = doc.pages
        out = Outcome(unit="pages", totals={"pages": total}, warnings=warnings)
        if cut_short(src):
            out.warnings.append(f"{TRUNCATED}: pages past the cut may be missing or unreadable")
        if not total:
            out.done = "no pages"
            out.warnings.append("the file has no pages")
            return out
        spans = _clamp(req.pages, total, out.warnings)
        sink.progress.start(sum(span.last - span.first + 1 for span in spans), "pages")
        pick = Rereader(src, req, doc, sink.deadline)
        with closing(pick):
            written, stop = _write(src, doc, spans, req, sink, out, pick)
        _form_data(doc, written, stop, sink, out)
    _report_engines(src, req, pick, written, out)
    out.done = f"pages {runs(written)} of {total}" if written else f"no pages of {total}"
    if stop is not None and written and written[-1] == stop.number:
        out.done += f" (page {stop.number} cut short)"
    if sink.filtering and stop is not None:
        # a --grep or --lines read cut by a bound goes on at its next line (of these pages' text; None: the
        # engine's own, of the whole text): a step by pages would read the cut page again, its matches twice
        out.resume = lines_on(req, sink)
    elif req.pages:
        out.resume = _resume(req.pages, spans, stop, total)
    elif stop is not None:  # the whole file did not fit: the next window is as wide as what did
        out.resume = _resume((Span(1, max(stop.number - 1, 1)),), spans, stop, total)
    if out.resume is not None:  # the same options again (never the password: the user has it)
        out.resume += ("--layout",) * req.layout + (("--engine", req.engine) if req.engine != "auto" else ())
        out.resume += (("--ocr", req.ocr) if req.ocr != "auto" else ()) + (
            ("--ocr-lang", req.ocr_lang) if req.ocr_lang != "eng" else ())
    return out


def _form_data(doc: PdfDoc, written: list[int], stop: _Stop | None, sink: Sink, out: Outcome) -> None:
    """A form's values that no page holds: an XFA form's datasets after its last page (its pages are a shell), or
    a warning that says they were not read. An AcroForm's fields are in its pages' text (forms.py)."""
    if doc.form and doc.engine == "pdfminer":
        out.warnings.append("the PDF is a form: its filled field values are read by the default engine (PDFium),"
                            " not by --engine pdfminer - drop --engine to read them")
        return
    if doc.form != XFA_FULL or not isinstance(doc, PdfiumDoc):
        return
    if stop is not None or not written or written[-1] != doc.pages:
        out.warnings.append(f"an XFA form: its filled values come after its last page, {doc.pages} - read to "
                            f"page {doc.pages} to get them (its pages show only the form's shell)")
        return
    data = doc.xfa_data()
    if data is None:
        out.warnings.append("an XFA form whose data could not be read: its pages show only the form's shell")
    elif not data:
        out.warnings.append("an XFA form with no filled values: its pages show only the form's shell")
    else:
        sink.write(f"--- form data (XFA) ---\n{data}")


def _report_engines(src: Source, req: Request, pick: Rereader, written: list[int], out: Outcome) -> None:
    """Which engine read which pages; the pages left without text, and what to do about them."""
    out.totals["engines"] = {name: runs(pages) for name, pages in pick.engines.items()}
    out.warnings.extend(pick.warnings + pick.unread_warnings(set(written)))
    no_text = [number for number in pick.no_text if number in set(written)]
    if not no_text:
        return
    pages = pages_word(Span(no_text[0], no_text[0])) if len(no_text) == 1 else "pages " + runs(no_text)
    out.totals["no_text"] = runs(no_text)
    if req.ocr == "never":
        out.warnings.append(f"{pages}: no text layer (scanned?): drop --ocr never to OCR them")
        return
    from boundread.formats import ocr

    why = pick.ocr_missing or "OCR found no text"
    if len(no_text) == len(written) and pick.ocr_missing:
        raise NoText(f"{src.name}: {pages} {'has' if len(no_text) == 1 else 'have'} no text layer "
                         f"(scanned) and {why}", ocr.INSTALL)
    fix = ocr.INSTALL if pick.ocr_missing else "check the page with an image viewer"
    out.warnings.append(f"{pages}: no text layer (scanned) and {why} - {fix}")
