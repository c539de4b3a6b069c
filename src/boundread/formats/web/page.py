"""A saved web page (``html``): its readable text by sections, boilerplate and scripts out (formats/web/html.py).

Sections are its pages (formats/web/sections.py: one per h1-h3 heading, the text before the first heading, long
ones in parts of about 64 kB of markup): ``info`` lists them with their sizes, ``pages page.html 3-5`` reads
sections 3-5, each behind ``--- section N / TOTAL ---`` (``: top of the page`` or ``: TITLE (part 2)`` where no
heading follows), and ``extract`` reads them all in order, bounded by --max-chars. Only the bytes of the
sections read are converted, each on its own, so a read stops with its last section, a --grep at its last match,
and memory stays within one section's piece whatever the page's size; the page is walked once more, in C
regular expressions, for the count the markers name.

--lines and --grep number and filter this text, --tail reads the raw file's last lines (``engine.read_as``).
Decoded as the text handler decodes (a declared charset, a BOM, else a guess: ``bytelevel.charset``).
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

from boundread.bytelevel import charset
from boundread.contract.model import FILE, Details, Outcome, Request, Source
from boundread.contract.sink import Sink
from boundread.formats.web import parts
from boundread.formats.web.html import PART, STUCK, Converter
from boundread.formats.web.sections import Section, label, title, walk
from boundread.limits import Deadline
from boundread.units import human_bytes

KINDS: tuple[str, ...] = ("html",)
PIECE = 64 * 1024
SAMPLE = 1_000_000  # bytes info converts for its estimate; above it the figures are scaled
SHOWN = 40  # sections info lists
KEEP = 4096  # sections a --pages read holds from its count (more are found again by a second walk)
FIRST_READ = 60_000  # characters of text the first ``pages`` info suggests holds, about (a default read: 100,000)


@dataclass
class Tally:
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
    conv = Converter()
    while left > 0 and (block := fh.read(min(PIECE, left))):
        left -= len(block)
        conv.feed(decoder.decode(block))
        yield from conv.take()
    conv.feed(decoder.decode(b"", final=True))
    yield from conv.finish()
    tally.add(conv)


def marker(fh: IO[bytes], section: Section, total: int | None, encoding: str) -> str:
    """``--- section 3 / 12 ---`` (``--- section 3 ---`` in a whole read, which does not count them first); the top
    of the page and a part, which no heading starts, say what they are."""
    head = f"--- section {section.number}" + (f" / {total}" if total is not None else "")
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
    with src.open() as fh, src.open() as heads:
        for section in walk(fh, src.size, choice.encoding, deadline):
            total = section.number
            if total <= SHOWN:
                named = label(heads, section, choice.encoding)
                listed.append(f"{total} {named} ({human_bytes(section.end - section.start)})")
            if section.end <= reach or total == 1:
                first = total
    whole = src.size <= SAMPLE
    fields: dict[str, object] = {"title": conv.title, "sections": total, "contents": listed,
                                 "encoding": choice.encoding, "encoding_from": choice.how}
    details = Details(fields=fields, est_chars=round(chars * (1.0 if whole else src.size / SAMPLE)),
                      estimated=not whole, warnings=choice.warnings())
    if not whole:
        details.warnings.append(f"the text's size is estimated from the first {SAMPLE // 1_000_000} MB")
    if total > SHOWN:
        details.warnings.append(f"contents lists the first {SHOWN} of {total:,} sections (with their markup's "
                                "size): `boundread pages` reads any of them")
    if deadline.expired:
        details.warnings.append(f"counted the first {total:,} sections only: the time limit came first (raise "
                                "--timeout for the whole count)")
    details.next = [("pages", FILE, _span(1, max(first, 1))),
                    ("extract", FILE, "--grep", "PATTERN", "--context", "2")]
    return details


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    """``--pages``: the count first (the markers name it), then those sections; a whole read walks and writes at
    once, its markers without the count, so it costs what it writes (a --grep stops at its last match)."""
    choice = _choice(src, req)
    outcome = Outcome(unit="sections", warnings=choice.warnings())
    tally = Tally()
    written: list[int] = []
    cut: int | None = None
    if not req.pages:
        with src.open() as fh, src.open() as walked:
            cut = _write(fh, walk(walked, src.size, choice.encoding, sink.deadline), None, sink, choice.encoding,
                         tally, written)
        outcome.warnings += tally.warnings()
        if cut is None and not sink.full:
            outcome.totals = {"sections": len(written)}
            outcome.done = "the page's text"
        else:
            outcome.done = f"sections 1-{written[-1]}" if written else "no whole section"
            outcome.done += f" (section {cut} cut)" if cut is not None else ""
        return outcome
    total, kept = _count(src, choice.encoding, req, sink)
    if total is None:
        outcome.done = "no sections: the time limit came while counting them"
        return outcome
    chosen, said = parts.select(req, total, src.name, "section", "page")
    outcome.warnings += said
    wanted, last = set(chosen), (chosen[-1] if chosen else 0)
    picked = (section for section in _sections(src, choice.encoding, kept, sink.deadline) if section.number in wanted)
    with src.open() as fh:
        cut = _write(fh, (section for section in picked if section.number <= last), total, sink, choice.encoding,
                     tally, written)
    outcome.warnings += tally.warnings()
    return _finish(outcome, sink, total, chosen, written, cut)


def _write(fh: IO[bytes], chosen: Iterator[Section], total: int | None, sink: Sink, encoding: str, tally: Tally,
           written: list[int]) -> int | None:
    """Write each section behind its marker until the sink is full; the section cut, if one was."""
    for section in chosen:
        ok = sink.write(marker(fh, section, total, encoding))
        ok = ok and all(sink.write(piece) for piece in _text(fh, section, encoding, tally))
        if not ok:
            return None if sink.deadline.expired else section.number
        written.append(section.number)
        if sink.full:
            break
    return None


def _count(src: Source, encoding: str, req: Request, sink: Sink) -> tuple[int | None, list[Section]]:
    """How many sections the page has, and the first of those ``--pages`` asks for (KEEP and one more, which
    says there are more: ``_sections`` walks again for them). None: the time limit came first."""
    kept: list[Section] = []
    total = 0
    with src.open() as fh:
        for section in walk(fh, src.size, encoding, sink.deadline):
            total = section.number
            if len(kept) <= KEEP and any(span.first <= total <= span.last for span in req.pages):
                kept.append(section)
    if sink.deadline.expired:
        sink.expire()
        return None, kept
    return total, kept


def _sections(src: Source, encoding: str, kept: list[Section], deadline: Deadline) -> Iterator[Section]:
    """The sections held from the count, then, when more were asked for than it held, the rest by a new walk."""
    yield from kept[:KEEP]
    if len(kept) > KEEP:
        after = kept[KEEP - 1].number
        with src.open() as fh:
            for section in walk(fh, src.size, encoding, deadline):
                if section.number > after:
                    yield section


def _finish(outcome: Outcome, sink: Sink, total: int, chosen: list[int], written: list[int],
            cut: int | None) -> Outcome:
    outcome.totals = {"sections": total}
    outcome.done = (f"section {written[0]} of {total}" if len(written) == 1 else
                    f"sections {written[0]}-{written[-1]} of {total}" if written and written[-1] - written[0] + 1
                    == len(written) else f"{len(written)} sections of {total}" if written
                    else f"no sections of {total}")
    if cut is not None:
        outcome.done += f" (section {cut} cut)"
    if sink.filtering:  # a --grep or --lines read goes on by lines of the text (engine)
        return outcome
    rest = [n for n in chosen if n > (written[-1] if written else 0)]
    window = max(len(written), 1)
    if rest and (cut is not None or len(written) < len(chosen)):
        outcome.resume = ("pages", FILE, _span(rest[0], min(total, rest[0] + window - 1)))
    elif written and written[-1] < total:
        start = written[-1] + 1
        outcome.resume = ("pages", FILE, _span(start, min(total, start + window - 1)))
    return outcome


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"

