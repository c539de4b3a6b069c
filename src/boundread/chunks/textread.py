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
#: Characters of a piece at most (a line longer than that is one piece): the splitter cuts and counts the piece
#: a chunk ends in, so a piece of a whole block made every cut cost the block (1 GB: 28 s, against 7.5 s naive).
PIECE = 1 << 14
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
    piece_size = min(max(sink.splitter.budget // 4, 256), PIECE)
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
            # every newline of the text is a LF byte (the copy only where the block holds a CR at all)
            clean = b"\r" not in raw or b"\r" not in raw.replace(b"\r\n", b"")
            start_line = at_line
            at_line = text.endswith("\n") if text else at_line
            offset += len(raw)
            sink.progress.done = offset
            if not _write(sink, text, start_line, (offset - len(raw), raw) if clean else None, piece_size):
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


def _write(sink: ChunkSink, text: str, at_line: bool, block: tuple[int, bytes] | None, size: int) -> bool:
    """Hand ``text`` (one block's, decoded) to the splitter in pieces of whole lines of about ``size`` characters;
    ``block``: the block's offset and raw bytes, where every newline of the text is a LF byte. False once full."""
    pos, newlines, end = 0, 0, len(text)
    while pos < end:
        cut = text.rfind("\n", pos, pos + size) + 1 if end - pos > size else end
        if cut <= pos:  # a line longer than a piece: it is one piece
            cut = text.find("\n", pos + size) + 1 or end
        part = text[pos:cut] if pos or cut < end else text
        origin = Origin(block[0], block[1], newlines, at_line=at_line) if block is not None else None
        piece = Piece(part, LINE if at_line else NEVER, origin=origin, paragraphs=False)
        if not sink.write_piece(piece):
            return False
        newlines += piece.newlines()  # counted once: the splitter takes the count
        at_line, pos = part.endswith("\n"), cut
    return True

