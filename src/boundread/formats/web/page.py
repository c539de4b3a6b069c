"""A saved web page (``html``): its readable text, boilerplate and scripts out (formats/web/html.py).

Read by ``extract``; --lines and --grep number and filter this text, --tail reads the raw file's last lines
(``engine.read_as``). Decoded as the text handler decodes (a declared charset, a BOM, else a guess:
``bytelevel.charset``), streamed in 64 kB pieces through ``html.parser``, so time and memory follow what is
written, and an unclosed tag costs nothing.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from typing import IO

from boundread.bytelevel import charset
from boundread.contract.model import FILE, Details, Outcome, Request, Source
from boundread.contract.sink import Sink
from boundread.formats.web.html import Converter

KINDS: tuple[str, ...] = ("html",)
PIECE = 64 * 1024
SAMPLE = 1_000_000  # bytes info converts; above it the figures are scaled


def _choice(src: Source, req: Request) -> charset.Choice:
    with src.open() as fh:
        sample = fh.read(charset.SAMPLE_BYTES)
    return charset.decide(sample, src.sniffed.encoding, req.encoding, complete=len(sample) >= src.size)


def _pieces(fh: IO[bytes], encoding: str, limit: int | None = None) -> Iterator[str]:
    decoder = codecs.getincrementaldecoder(encoding)("replace")
    read = 0
    while (limit is None or read < limit) and (block := fh.read(PIECE)):
        read += len(block)
        yield decoder.decode(block)
    yield decoder.decode(b"", final=True)


def info(src: Source, req: Request) -> Details:
    choice = _choice(src, req)
    conv = Converter()
    chars = headings = 0
    with src.open() as fh:
        for piece in _pieces(fh, choice.encoding, SAMPLE):
            conv.feed(piece)
            done = conv.take()
            chars += sum(len(b) + 2 for b in done)
            headings += sum(b.startswith("#") for b in done)
    done = conv.finish()
    chars += sum(len(b) + 2 for b in done)
    headings += sum(b.startswith("#") for b in done)
    whole = src.size <= SAMPLE
    scale = 1.0 if whole else src.size / SAMPLE
    fields: dict[str, object] = {"title": conv.title, "headings": headings if whole else None,
                                 "encoding": choice.encoding, "encoding_from": choice.how}
    details = Details(fields=fields, est_chars=round(chars * scale), estimated=not whole,
                      warnings=choice.warnings())
    if not whole:
        details.warnings.append(f"figures estimated from the first {SAMPLE // 1_000_000} MB")
    details.next = [("extract", FILE), ("extract", FILE, "--grep", "PATTERN", "--context", "2")]
    return details


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    choice = _choice(src, req)
    outcome = Outcome(unit="lines", totals={"bytes": src.size}, warnings=choice.warnings())
    conv = Converter()
    with src.open() as fh:
        for piece in _pieces(fh, choice.encoding):
            conv.feed(piece)
            if not all(sink.write(block + "\n\n") for block in conv.take()):
                break
        else:
            all(sink.write(block + "\n\n") for block in conv.finish())
    outcome.done = "the page's text" + (f" ({conv.title})" if conv.title else "")
    return outcome
