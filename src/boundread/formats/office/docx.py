"""Word documents (docx, docm, Strict OOXML) and ODF text (odt): counts, headings, bounded text.

``info`` samples the first 2 MB of the document XML and extrapolates. ``extract`` converts with
mammoth (markdown fidelity) when the document XML is small, and otherwise streams the XML
itself, stopping as soon as the sink is full. Charts and SmartArt come out as ``Chart:`` lines and
``SmartArt:`` lists where they stand when streamed, after the body (with a warning) when converted.
Headers, footers, footnotes and comments follow the body. Macros are reported, never run.
"""

from __future__ import annotations

import contextlib
import io
import threading
from collections.abc import Callable, Iterable, Iterator

from boundread.contract import kinds
from boundread.contract.model import FILE, Details, Outcome, Request, Source
from boundread.contract.sink import Sink
from boundread.errors import Corrupt, Refused, UsageError
from boundread.formats._ooxml.package import Package, Progress, open_package
from boundread.formats.office.graphics import graphic_rels, graphic_text, graphics_after
from boundread.formats.office.wordstream import Block, blocks, docx_styles
from boundread.units import MB

KINDS: tuple[str, ...] = kinds.DOCUMENTS

MAMMOTH_MAX = 3 * 1024 * 1024  # uncompressed document.xml above this is streamed, not converted whole
XML_PER_CHAR = 20  # ... and so is one over 20 bytes per character asked for (mammoth converts it all)
SAMPLE = 2 * MB  # bytes of document XML that info reads before extrapolating
_IGNORED = "unrecognised element was ignored"  # mammoth's message when it skips an element and its text
#: Elements mammoth does not know that never hold text (marks, properties): its skipping them costs nothing.
_TEXTLESS = frozenset({
    "w:tblPrEx", "w:permStart", "w:permEnd", "w:ptab", "w:cr", "w:pgNum", "w:separator", "w:continuationSeparator",
    "w:dayShort", "w:dayLong", "w:monthShort", "w:monthLong", "w:yearShort", "w:yearLong", "w:fldData",
    "w:sdtEndPr", "w:rubyPr", "w:customXmlInsRangeStart", "w:customXmlInsRangeEnd", "w:customXmlDelRangeStart",
    "w:customXmlDelRangeEnd", "w:customXmlMoveFromRangeStart", "w:customXmlMoveFromRangeEnd",
    "w:customXmlMoveToRangeStart", "w:customXmlMoveToRangeEnd", "w:moveToRangeEnd", "w:moveFromRangeEnd",
})
MAX_PARTS_CHECKED = 300  # parts scanned for a DTD before mammoth (minidom) may parse them


def _open(src: Source) -> tuple[str, str]:
    return ("ODF text document", "LibreOffice") if src.kind == "odt" else ("Word document", "Word")


def _main(pkg: Package, odf: bool) -> str:
    part = "content.xml" if odf else pkg.main_part("word/document.xml")
    if not pkg.has(part):
        raise Corrupt(f"{pkg.name} has no {part}", "it is not a complete document; re-save it")
    return part


def _targets(pkg: Package, part: str, kind: str) -> list[str]:
    return sorted({t for k, t in pkg.rels(part).values() if k == kind and pkg.has(t)})


def _has_notes(pkg: Package, part: str) -> bool:
    """A notes part holds a real note, not only the separators Word always writes (first 256 KB)."""
    text = False
    for block in blocks(pkg, part, budget=256 * 1024) if pkg.has(part) else ():
        if block.kind == "note" and text:
            return True
        text = block.kind == "p"
    return False


def info(src: Source, req: Request) -> Details:
    if src.sniffed.encrypted:
        return Details(encrypted=True, warnings=[f"{src.name} is password-protected: remove the password to read it"])
    odf = src.kind == "odt"
    with open_package(src, *_open(src)) as pkg:
        part = _main(pkg, odf)
        progress = Progress()
        paragraphs = words = chars = tables = notes = 0
        headings: list[str] = []
        for block in blocks(
            pkg, part, odf=odf, styles=None if odf else docx_styles(pkg, part), progress=progress, budget=SAMPLE
        ):
            if block.kind == "note":
                notes += 1
            elif block.kind == "table_end":
                tables += 1
            elif block.kind in ("p", "row") and not block.container:
                paragraphs += block.kind == "p"
                words += len([w for w in block.text.split() if w != "|"])
                chars += len(block.text) + 2
                if block.heading and len(headings) < 20:
                    headings.append(block.text[:200])
        scale = 1.0 if progress.complete else pkg.size(part) / max(progress.consumed, 1)
        rels = {} if odf else pkg.rels(part)
        kinds = {kind for kind, target in rels.values() if pkg.has(target)}
        footnotes = any(_has_notes(pkg, t) for k, t in rels.values() if k in ("footnotes", "endnotes"))
        fields: dict[str, object] = {
            "title": pkg.title("meta.xml" if odf else "docProps/core.xml"),
            "paragraphs": round(paragraphs * scale),
            "words": round(words * scale),
            "headings": headings,
            "tables": round(tables * scale),
            "has_comments": "comments" in kinds or (odf and notes > 0),
            "has_footnotes": footnotes or (odf and notes > 0),
            "headers_footers": len([k for k, _ in rels.values() if k in ("header", "footer")]),
            "macros": pkg.macros(),
            "counts_estimated": not progress.complete,
        }
    est = round(chars * scale)
    details = Details(fields=fields, est_chars=est, estimated=not progress.complete)
    if fields["macros"]:
        details.warnings.append("contains VBA macros (vbaProject.bin): never run, text only")
    details.next.append(("extract", FILE))
    if est > 20_000:
        details.next.append(("extract", FILE, "--max-chars", "20000"))
    return details


def render(block: Block, after: str) -> str:
    """One block as markdown; ``after`` is the kind of the block written before it."""
    lead = "\n" if after in ("li", "row") and not (block.kind == "row" and after == "row") else ""
    if block.kind == "row":
        cells = block.text.count(" | ") + 1
        rule = "\n|" + " --- |" * cells if block.first_row else ""
        return lead + block.text + rule + "\n"
    if block.kind == "table_end":
        return "\n"
    if block.list_level >= 0 and not block.heading:
        return ("" if after == "li" else lead) + "  " * min(block.list_level, 8) + "- " + block.text + "\n"
    marks = "#" * block.heading + " " if block.heading else ""
    return f"{lead}{marks}{block.text}\n\n"


def _kind(block: Block) -> str:
    return "li" if block.kind == "p" and block.list_level >= 0 and not block.heading else block.kind


def _write_blocks(
    items: Iterable[Block], sink: Sink, notes: list[str], graphic: Callable[[Block], str]
) -> tuple[int, bool]:
    """Body blocks into the sink; inline notes (ODF) are kept for the appendix; charts and SmartArt are read
    where they stand (``graphic``). (paragraphs, all written)."""
    count, after, kept = 0, "", 0
    pending: list[str] = []
    for block in items:
        if block.kind == "graphic":
            text = graphic(block)
            if text and not sink.write(("\n" if after in ("li", "row") else "") + text):
                return count, False
            after = "p" if text else after
            continue
        if block.kind == "note":
            if pending and kept < sink.limits.max_chars:
                notes.append(_note_line(block, " ".join(pending)))
                kept += len(notes[-1])
            pending = []
            continue
        if block.container:
            pending.append(block.text)
            continue
        if not sink.write(render(block, after)):
            return count, False
        count += block.kind == "p"
        after = _kind(block)
    return count, True


def _note_line(block: Block, text: str) -> str:
    if block.container in ("comment", "annotation"):
        return f"Comment ({block.author or 'unknown'}): {text}\n"
    mark = "e" if block.container == "endnote" else ""
    return f"[^{mark}{block.note_id}]: {text}\n"


def _mammoth(src: Source, fixed: io.BytesIO | None, seconds: float | None) -> tuple[str | None, str]:
    """mammoth's HTML (of ``fixed``, the package with its run wrappers unwrapped, when given), or None and why
    not. It runs in a thread so the deadline holds. An element mammoth ignored (and its text with it) is a
    reason not to use its HTML."""
    import mammoth

    out: list[str] = []
    failed: list[str] = []

    def run() -> None:
        try:
            with contextlib.nullcontext(fixed) if fixed else src.open() as fh:
                drop = mammoth.images.img_element(lambda image: {})
                result = mammoth.convert_to_html(fh, convert_image=drop)
            ignored = sorted({m.message.rsplit(": ", 1)[-1] for m in result.messages if _IGNORED in m.message}
                             - _TEXTLESS)
            if ignored:
                failed.append(f"it drops the text of {', '.join(ignored[:3])}")
            else:
                out.append(result.value)
        except Exception as exc:  # noqa: BLE001 - any mammoth failure falls back to the streamer, with a warning
            failed.append(f"{type(exc).__name__}: {exc}"[:200])

    worker = threading.Thread(target=run, name="boundread-mammoth", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        return None, f"mammoth did not finish in {seconds:g} s"
    return (out[0], "") if out else (None, failed[0] if failed else "no output")


def _mammoth_max(sink: Sink) -> int:
    """Convert whole only what is small, or what a filter (--grep, --lines) may need all of."""
    return MAMMOTH_MAX if sink.filtering else min(MAMMOTH_MAX, XML_PER_CHAR * sink.limits.max_chars)


def _check_dtds(pkg: Package) -> bool:
    """Refuse parts that declare a DTD; False when there are too many parts to check (stream instead)."""
    parts = [i.filename for i in pkg.infos.values() if i.filename.lower().endswith((".xml", ".rels"))]
    if len(parts) > MAX_PARTS_CHECKED:
        return False
    for part in parts:
        if pkg.declares_dtd(part):
            raise Refused(
                f"{pkg.name}: part {part} declares a DTD or entities",
                "the file may be an XML bomb; open it only in a sandbox",
            )
    return True


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    if req.pages:
        raise UsageError(
            f"{src.name} has no pages ({src.kind} is not paginated)",
            "drop the page range; use --max-chars, --lines A-B or --grep",
        )
    odf = src.kind == "odt"
    outcome = Outcome(unit="paragraphs")
    notes: list[str] = []
    with open_package(src, *_open(src)) as pkg:
        part = _main(pkg, odf)
        styles = {} if odf else docx_styles(pkg, part)
        drawn = {} if odf else graphic_rels(pkg, part)  # charts and SmartArt the body may draw
        count, complete, converted = 0, False, False
        if not odf and pkg.size(part) <= _mammoth_max(sink) and _check_dtds(pkg):
            from boundread.formats.office.unwrap import unwrapped, wrapped

            fixed = unwrapped(pkg, part) if wrapped(pkg, part) else None
            html, why = _mammoth(src, fixed, sink.deadline.remaining)
            if html is None:
                outcome.warnings.append(f"converter failed ({why}); read the XML directly instead")
            else:
                from boundread.formats.office.html2md import convert

                converted = True
                complete = True
                for text, paragraph in convert(html):
                    if not sink.write(text):
                        complete = False
                        break
                    count += paragraph
        if not converted:
            progress = Progress()
            try:
                count, complete = _write_blocks(
                    blocks(pkg, part, odf=odf, styles=styles, progress=progress), sink, notes,
                    lambda block: graphic_text(pkg, drawn, block, outcome.warnings),
                )
            except Corrupt as exc:
                if not sink.chars:
                    raise
                outcome.warnings.append(f"{exc.what}: the rest could not be read")
        embedded = [] if odf else sorted({t for k, t in pkg.rels(part).values() if k in ("oleObject", "package")})
        if embedded:
            named = ", ".join(embedded[:3]) + (f" and {len(embedded) - 3} more" if len(embedded) > 3 else "")
            outcome.warnings.append(f"{len(embedded)} embedded object{'s' * (len(embedded) != 1)} (OLE: a "
                                    f"spreadsheet, a drawing...) not read: unzip the file and read {named}")
        if complete and not sink.full and converted and drawn:
            graphics_after(pkg, part, drawn, sink, outcome.warnings)
        if complete and not sink.full:
            _appendix(pkg, part, sink, notes, streamed=not converted, warnings=outcome.warnings)
    outcome.done = "empty document"
    if count:
        outcome.done = f"paragraphs 1-{count:,}" + (f" of {count:,}" if complete else " (cut)")
    if complete:
        outcome.totals = {"paragraphs": count}
    return outcome


def _appendix_lines(pkg: Package, part: str, notes: list[str], streamed: bool,
                    warnings: list[str]) -> Iterator[str]:
    seen: set[tuple[str, str]] = set()
    for kind, label in (("header", "Header"), ("footer", "Footer")):
        for target in _targets(pkg, part, kind):
            text = ""
            drawn = graphic_rels(pkg, target)  # a chart or SmartArt in a header is its own part's relationship
            for block in blocks(pkg, target):
                if len(text) >= 2000:
                    continue
                if block.kind in ("p", "row"):
                    text = f"{text} {block.text}".strip()
                elif block.kind == "graphic":
                    text = f"{text} {' '.join(graphic_text(pkg, drawn, block, warnings).split())}".strip()
            if text and (label, text) not in seen:
                seen.add((label, text))
                yield f"{label}: {text}\n"
    for kind in (["footnotes", "endnotes"] if streamed else []) + ["comments"]:
        for target in _targets(pkg, part, kind):
            pending: list[str] = []
            for block in blocks(pkg, target):
                if block.kind == "note" and pending:
                    yield _note_line(block, " ".join(pending))
                if block.kind == "note":
                    pending = []
                elif block.kind in ("p", "row"):
                    pending.append(block.text)
    yield from notes


def _appendix(pkg: Package, part: str, sink: Sink, notes: list[str], *, streamed: bool, warnings: list[str]) -> None:
    """Headers and footers, then footnotes/endnotes (when mammoth did not), then comments."""
    try:
        for line in _appendix_lines(pkg, part, notes, streamed, warnings):
            if not sink.write(line):
                return
    except Corrupt as exc:
        warnings.append(f"{exc.what}: notes and comments after it could not be read")
