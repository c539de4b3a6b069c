"""Outlook's RTF body: compressed RTF (MS-OXRTFCP, "LZFu") decompressed to a bound, then the HTML or text it
encapsulates (MS-OXRTFEX, ``\\fromhtml1`` / ``\\fromtext``) taken back out, or plain RTF stripped to its text.

The stripping is rough on purpose: groups that are not text (font and colour tables, pictures, objects, field
instructions, ``\\*`` destinations) are skipped, ``\\par`` is a line break, ``\\'hh`` and ``\\uN`` are decoded;
tables and lists lose their shape. Both walks are linear in the bytes and never recurse.
"""

from __future__ import annotations

import re

from boundread.errors import Corrupt

_PREBUF = (b"{\\rtf1\\ansi\\mac\\deff0\\deftab720{\\fonttbl;}{\\f0\\fnil \\froman \\fswiss \\fmodern \\fscript "
           b"\\fdecor MS Sans SerifSymbolArialTimes New RomanCourier{\\colortbl\\red0\\green0\\blue0\r\n\\par "
           b"\\pard\\plain\\f0\\fs20\\b\\i\\u\\tab\\tx")
_COMPRESSED, _UNCOMPRESSED = 0x75465A4C, 0x414C454D  # "LZFu", "MELA"


def decompress(data: bytes, limit: int) -> tuple[bytes, bool]:
    """The RTF a PR_RTF_COMPRESSED value holds, at most ``limit`` bytes, and whether it was cut there."""
    if len(data) < 16:
        raise Corrupt("the message's compressed RTF body is cut short (no header)", "read its other bodies")
    raw_size = int.from_bytes(data[4:8], "little")
    kind = int.from_bytes(data[8:12], "little")
    if kind == _UNCOMPRESSED:
        return data[16:16 + min(raw_size, limit)], raw_size > limit
    if kind != _COMPRESSED:
        raise Corrupt(f"the message's RTF body is compressed in an unknown way ({kind:#x})", "read its other bodies")
    wanted = min(raw_size, limit)
    window = bytearray(4096)
    window[:len(_PREBUF)] = _PREBUF
    at = len(_PREBUF)
    out = bytearray()
    pos, end = 16, len(data)
    while pos < end and len(out) < wanted:
        flags = data[pos]
        pos += 1
        if not flags and pos + 8 <= end and at + 8 <= 4096:  # eight literals: copied at once
            run = data[pos:pos + 8]
            window[at:at + 8] = run
            out += run
            at, pos = (at + 8) & 0xFFF, pos + 8
            continue
        for bit in range(8):
            if pos >= end or len(out) >= wanted:
                break
            if not flags >> bit & 1:
                window[at] = data[pos]
                out.append(data[pos])
                at, pos = (at + 1) & 0xFFF, pos + 1
                continue
            if pos + 1 >= end:
                break
            token = data[pos] << 8 | data[pos + 1]
            pos += 2
            offset, length = token >> 4, (token & 0xF) + 2
            if offset == at:
                return bytes(out), False  # the end marker
            apart = offset + length <= at or (at + length <= offset and offset + length <= 4096)
            if apart and at + length <= 4096:  # source and target apart, neither wrapping: one slice
                chunk = window[offset:offset + length]
                window[at:at + length] = chunk
                out += chunk
                at = (at + length) & 0xFFF
                continue
            for k in range(length):
                byte = window[(offset + k) & 0xFFF]
                window[at] = byte
                out.append(byte)
                at = (at + 1) & 0xFFF
    return bytes(out[:wanted]), raw_size > limit


_TOKEN = re.compile(rb"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?|\\'([0-9a-fA-F]{2})|\\(.)|([{}])|[\r\n]+|([^\\{}\r\n]+)",
                    re.DOTALL)
#: groups that hold no text of the document
_SKIPPED = frozenset({b"fonttbl", b"colortbl", b"stylesheet", b"info", b"pict", b"object", b"header", b"footer",
                      b"headerl", b"headerr", b"footerl", b"footerr", b"listtable", b"listoverridetable",
                      b"rsidtbl", b"generator", b"xmlnstbl", b"themedata", b"datastore", b"latentstyles",
                      b"fldinst", b"filetbl", b"revtbl", b"pgdsctbl", b"mmathPr", b"bkmkstart", b"bkmkend"})
_BREAKS = {b"par": "\n", b"line": "\n", b"tab": "\t", b"sect": "\n", b"page": "\n", b"cell": "\t", b"row": "\n",
           b"emdash": "\u2014", b"endash": "\u2013", b"bullet": "\u2022", b"lquote": "\u2018", b"rquote": "\u2019",
           b"ldblquote": "\u201c", b"rdblquote": "\u201d", b"~": "\u00a0"}


def encapsulated(rtf: bytes) -> str:
    """What the RTF carries: ``html`` (``\\fromhtml``), ``text`` (``\\fromtext``) or ``rtf``."""
    head = rtf[:1024]
    return "html" if b"\\fromhtml" in head else "text" if b"\\fromtext" in head else "rtf"


def to_text(rtf: bytes) -> str:
    """The HTML or text an encapsulating RTF carries, or a plain RTF's text."""
    html = encapsulated(rtf) != "rtf"
    found = re.search(rb"\\ansicpg(\d{1,5})", rtf[:4096])
    codepage = f"cp{found.group(1).decode()}" if found else "cp1252"
    try:
        b"".decode(codepage)
    except LookupError:
        codepage = "cp1252"
    out: list[str] = []
    pending = bytearray()
    # each group: (skipped, inside an htmltag, \htmlrtf suppression, \uc count)
    stack: list[tuple[bool, bool, bool, int]] = []
    skip, tag, hidden, uc = False, False, False, 1
    star = fresh = False  # the last token was \*; the token opens a group
    drop = 0  # fallback characters still to drop after a \uN

    def emit(text: str) -> None:
        if not skip and not (hidden and not tag):
            if pending:
                out.append(pending.decode(codepage, "replace"))
                pending.clear()
            out.append(text)

    for match in _TOKEN.finditer(rtf):
        word, arg, hexa, symbol, brace, text = match.groups()
        if hexa is not None:
            if drop:
                drop -= 1
            elif not skip and not (hidden and not tag):
                pending += bytes.fromhex(hexa.decode())
            continue
        if brace == b"{":
            stack.append((skip, tag, hidden, uc))
            fresh = True
            continue
        if brace == b"}":
            emit("")
            skip, tag, hidden, uc = stack.pop() if stack else (False, False, False, 1)
            continue
        opened, fresh = fresh, False
        if word is not None:
            if star or (opened and word in _SKIPPED):
                skip = skip or not (html and word == b"htmltag")
                tag = tag or (html and word == b"htmltag")
            elif word == b"htmlrtf":
                hidden = arg != b"0"
            elif word == b"uc" and arg is not None:
                uc = max(0, int(arg))
            elif word == b"u" and arg is not None:
                emit(chr(int(arg) % 65536))
                drop = uc
            elif word in _BREAKS:
                emit("\r\n" if html and word == b"par" else _BREAKS[word])
            star = False
            continue
        if symbol is not None:
            star = symbol == b"*"
            if symbol in b"\\{}":
                emit(symbol.decode())
            elif symbol == b"~":
                emit("\u00a0")
            elif symbol in b"\r\n":
                emit("\n")
            if not star:
                fresh = opened
            continue
        star = False
        if text is not None:
            if drop:
                cut = min(drop, len(text))
                text, drop = text[cut:], drop - cut
            if text:
                emit(text.decode(codepage, "replace"))
    emit("")
    # \uN gives a character beyond the BMP as two surrogates: paired up here, a lone one replaced
    return "".join(out).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
