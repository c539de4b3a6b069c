"""A saved web page (``html``): its readable text by sections, boilerplate and scripts out (formats/web/html.py).

Sections are its pages (formats/web/sections.py: one per h1-h3 heading, the text before the first heading, long
ones in parts of about 64 kB of markup): ``info`` lists them with their sizes, ``pages page.html 3-5`` reads
sections 3-5, each behind ``--- section N ---`` (``: top of the page`` or ``: TITLE (part 2)`` where no
heading follows), and ``extract`` reads them all in order, bounded by --max-chars. The walk finds the sections as
the read goes and only their bytes are converted, each on its own, so a read stops with its last section (a
--grep at its last match) and costs what it reads up to, not the page: no marker names a count, which only a
walk to the end knows (``info`` gives it). Memory stays within one section's piece whatever the page's size.

--lines and --grep number and filter this text, --tail reads the raw file's last lines (``engine.read_as``).
Decoded as the text handler decodes (a declared charset, a BOM, else a guess: ``bytelevel.charset``).
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator

from boundread import record as rec
from boundread.bytelevel import charset
from boundread.contract.model import FILE, Details, Outcome, Request, Source
from boundread.contract.sink import Sink
from boundread.formats._lines import lines_on
from boundread.formats.web import parts
from boundread.formats.web.html import PART, STUCK, Converter
from boundread.formats.web.sections import Section, label, title, walk
from boundread.limits import Deadline
from boundread.ranges import OPEN_END
from boundread.units import human_bytes

TYPE_CHECKING = False  # typing for mypy only: it costs a read's start-up
if TYPE_CHECKING:
    from typing import IO

KINDS: tuple[str, ...] = ("html",)
PIECE = 64 * 1024
SAMPLE = 1_000_000  # bytes info converts for its estimate; above it the figures are scaled
SHOWN = 40  # sections info lists
FIRST_READ = 60_000  # characters of text the first ``pages`` info suggests holds, about (a default read: 100,000)
COUNTED = 32_000_000  # bytes of markup info walks for the sections (~0.3 s); past them their count is scaled


class Tally(rec.Record):
    skipped: int = 0
    cut_cells: int = 0

    def add(self, conv: Converter) -> None:
        self.skipped += conv.skipped
        self.cut_cells += conv.cut_cells

    def warnings(self) -> list[str]:
        words = [f"{self.skipped:,} unfinished tag(s) or comment(s) longer than {STUCK // 1024} KiB skipped "
                 "to their end"] if self.skipped else []
        return words + ([f"{self.cut_cells:,} table cell(s) cut at {PART:,} characters"] if self.cut_cells else [])


def _choice(src: Source, req: Request) -> charset.Choice:
    with src.open() as fh:
        sample = fh.read(charset.SAMPLE_BYTES)
    return charset.decide(sample, src.sniffed.encoding, req.encoding, complete=len(sample) >= src.size)


def _text(fh: IO[bytes], section: Section, encoding: str, tally: Tally) -> Iterator[str]:
    """The readable text of one section: its bytes alone, converted in pieces."""
    fh.seek(section.start)
    left = section.end - section.start
    decoder = codecs.getincrementaldecoder(encoding)("replace")
    conv = Converter(section.content)
    try:
        while left > 0 and (block := fh.read(min(PIECE, left))):
            left -= len(block)
            conv.feed(decoder.decode(block))
            yield from conv.take()
        conv.feed(decoder.decode(b"", final=True))
        yield from conv.finish()
    finally:  # a read cut inside the section counts what it met there too
        tally.add(conv)


def marker(fh: IO[bytes], section: Section, *, encoding: str) -> str:
    """``--- section 3 ---`` (no count: a read stops at its last section, not at the page's end); the top of the
    page and a part, which no heading starts, say what they are."""
    head = f"--- section {section.number}"
    if section.level and section.part == 1:
        return head + " ---\n"
    name = title(fh, section, encoding) if section.level else "top of the page"
    return f"{head}: {name}{f' (part {section.part})' * (section.part > 1)} ---\n"


def info(src: Source, req: Request) -> Details:
    choice = _choice(src, req)
    conv = Converter()
    chars = 0
    with src.open() as fh:
        decoder = codecs.getincrementaldecoder(choice.encoding)("replace")
        read = 0
        while read < SAMPLE and (block := fh.read(PIECE)):
            read += len(block)
            conv.feed(decoder.decode(block))
            chars += sum(map(len, conv.take()))
    chars += sum(map(len, conv.finish()))
    seconds = req.limits.timeout
    deadline = Deadline(None if seconds is None else seconds * 0.9)  # ours first: partial figures, not an error
    total, listed, first = 0, [], 0
    reach = FIRST_READ * min(src.size, SAMPLE) / max(chars, 1)  # bytes of markup that hold that much text
    covered = src.size
    with src.open() as fh, src.open() as heads:
        for section in walk(fh, src.size, choice.encoding, deadline):
            if section.start >= COUNTED:  # enough to list, suggest and scale from: info stays cheap
                covered = section.start
                break
            total = section.number
            if total <= SHOWN:
                named = label(heads, section, choice.encoding)
                listed.append(f"{total} {named} ({human_bytes(section.end - section.start)})")
            if section.end <= reach or total == 1:
                first = total
    whole = src.size <= SAMPLE
    fields: dict[str, object] = {"title": conv.title, "sections": round(total * src.size / max(covered, 1)),
                                 "contents": listed, "encoding": choice.encoding, "encoding_from": choice.how}
    details = Details(fields=fields, est_chars=round(chars * (1.0 if whole else src.size / SAMPLE)),
                      estimated=not whole, warnings=choice.warnings())
    if not whole:
        details.warnings.append(f"the text's size is estimated from the first {SAMPLE // 1_000_000} MB")
    if covered < src.size:
        fields["sections_counted"] = total
        details.warnings.append(f"sections counted in the first {human_bytes(covered)} ({total:,}) and scaled to "
                                f"the page's {human_bytes(src.size)}: an estimate")
    if total > SHOWN:
        details.warnings.append(f"contents lists the first {SHOWN} sections (with their markup's size): "
                                "`boundread pages` reads any of them")
    if deadline.expired:
        details.warnings.append(f"counted the first {total:,} sections only: the time limit came first (raise "
                                "--timeout for the whole count)")
    details.next = [("pages", FILE, _span(1, max(first, 1))),
                    ("extract", FILE, "--grep", "PATTERN", "--context", "2")]
    return details


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    """The sections asked for (all without --pages) as the walk finds them: it stops after the last one asked for
    (one more is found, to know whether the page goes on), or when the sink is full."""
    choice = _choice(src, req)
    outcome = Outcome(unit="sections", warnings=choice.warnings())
    tally = Tally()
    written: list[int] = []
    cut: int | None = None
    last = max((span.last for span in req.pages), default=OPEN_END)
    total: int | None = None  # known once the walk reached the page's end
    seen = 0
    with src.open() as fh, src.open() as walked:
        for section in walk(walked, src.size, choice.encoding, sink.deadline):
            seen = section.number
            if section.number > last or sink.full:
                break
            if req.pages and not any(span.first <= section.number <= span.last for span in req.pages):
                continue
            ok = sink.write(marker(fh, section, encoding=choice.encoding))
            ok = ok and all(sink.write(piece) for piece in _text(fh, section, choice.encoding, tally))
            if not ok:
                cut = None if sink.deadline.expired else section.number
                break
            written.append(section.number)
        else:
            total = None if sink.deadline.expired else seen
    if total is not None and req.pages:
        outcome.warnings += parts.select(req, total, src.name, "section", "page")[1]  # raises for a span past it
    outcome.warnings += tally.warnings()
    return _finish(outcome, req, sink, total, written, cut)


def _finish(outcome: Outcome, req: Request, sink: Sink, total: int | None, written: list[int],
            cut: int | None) -> Outcome:
    of = f" of {total}" if total is not None else ""
    outcome.totals = {"sections": total} if total is not None else {}
    if not req.pages and total is not None and cut is None:
        outcome.done = "the page's text"
    else:
        outcome.done = (f"section {written[0]}{of}" if len(written) == 1 else
                        f"sections {written[0]}-{written[-1]}{of}" if written and written[-1] - written[0] + 1
                        == len(written) else f"{len(written)} sections{of}" if written else f"no sections{of}")
    if cut is not None:
        outcome.done += f" (section {cut} cut)"
    if sink.filtering:
        outcome.resume = lines_on(req, sink)
        return outcome
    if not req.pages:  # a whole read goes on by lines of the text (the engine's --lines A-B)
        return outcome
    window = max(len(written), 1)
    start = cut if cut is not None else (written[-1] + 1 if written else None)
    if start is not None and (total is None or start <= total):
        outcome.resume = ("pages", FILE, _span(start, start + window - 1 if total is None
                                               else min(total, start + window - 1)))
    return outcome


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"

