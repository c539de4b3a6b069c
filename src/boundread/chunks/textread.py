"""Plain text read as the text handler reads it, but from any byte offset: ``--from`` on a huge log goes on
from where the last run stopped instead of reading the gigabytes before it again.

The text is the handler's exactly (the same decoder, errors replaced, universal newlines), read in blocks
that end after a newline; each block's piece carries its raw bytes, so a chunk boundary between two lines
maps back to a byte offset. Only for encodings where a newline is the byte ``\\n`` and never part of another
character (UTF-8, Latin-1, the cp125x family...); others fall back to the handler and to replaying.
"""

from __future__ import annotations

import codecs

from boundread.chunks.feed import ChunkSink
from boundread.chunks.split import LINE, NEVER, Origin, Piece
from boundread.contract.model import Outcome, Source

BLOCK = 1 << 20
_SAFE = ("utf-8", "utf-8-sig", "ascii", "latin-1", "iso8859", "cp125", "cp437", "cp850", "mac-roman", "koi8")


def seekable(encoding: str) -> bool:
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        return False
    return name.startswith(_SAFE)


def read(src: Source, encoding: str, sink: ChunkSink, start: int = 0) -> Outcome:
    """Feed the text from byte ``start`` (a line start) to the splitter, as pieces of whole lines."""
    if start and codecs.lookup(encoding).name == "utf-8-sig":
        encoding = "utf-8"  # the byte-order mark is at 0 only
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    at_line = True
    with src.open() as fh:
        fh.seek(start)
        sink.progress.start(src.size, "bytes")
        sink.progress.done = start
        offset, held, full = start, b"", False
        while True:
            data = held + fh.read(BLOCK)
            if not data:
                break
            end = data.rfind(b"\n") + 1 if len(data) >= BLOCK else len(data)
            if end == 0:  # a line longer than a block: pass it on in parts, never splitting a CR LF
                end = len(data) - 1 if data.endswith(b"\r") else len(data)
            raw, held = data[:end], data[end:]
            text = decoder.decode(raw, final=not held and len(data) < BLOCK)
            text = text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
            clean = b"\r" not in raw.replace(b"\r\n", b"")  # every newline of the text is a LF byte
            origin = Origin(offset, raw, at_line=at_line) if clean else None
            piece = Piece(text, LINE if at_line else NEVER, origin=origin, paragraphs=False)
            at_line = text.endswith("\n")
            offset += len(raw)
            sink.progress.done = offset
            if text and not sink.write_piece(piece):
                full = True
                break
            if not held and len(data) < BLOCK:
                break
        # a last block of exactly BLOCK bytes was decoded as if more followed: an incomplete character at the
        # end of the file is still in the decoder, and is a replacement character, as the text handler gives it
        rest = "" if full else decoder.decode(b"", final=True)
        if rest:
            sink.write_piece(Piece(rest, LINE if at_line else NEVER, origin=Origin(offset, b"", at_line=at_line),
                                   paragraphs=False))
    return Outcome(unit="lines", totals={"bytes": src.size})
