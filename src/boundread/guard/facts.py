"""Cheap facts about a file for the guard's reason: pages, sheets, entries, lines.

Standard library only, and bounded: the head and tail of a PDF, a zip's central directory, one
workbook XML part (capped), a 64 KiB sample of text. Every function returns None (or an empty
value) rather than raising when the file does not cooperate.
"""

from __future__ import annotations

# On the guard-check path (a deny): no re (with enum and functools it costs ~10 ms of start-up, as
# much as Python itself), so the PDF scan matches its two patterns by hand; zipfile and xml load
# only in the functions that open a zip; no typing at run time.
import os

from boundread.bytelevel import sniff

WINDOW = 256 * 1024
SAMPLE = 64 * 1024
_SPACE = b" \t\n\r\f\v"  # bytes regex \s
_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")  # bytes regex \w


def pdf_pages(path: str | os.PathLike[str], size: int) -> int | None:
    """The /Count of the root /Pages node, found in the head or tail of the file (None if unseen)."""
    try:
        with open(path, "rb") as fh:
            chunks = [fh.read(WINDOW)]
            if size > WINDOW:
                fh.seek(max(WINDOW, size - WINDOW))
                chunks.append(fh.read(WINDOW))
    except OSError:
        return None
    best: int | None = None
    for chunk in chunks:
        for at, after in _pages_nodes(chunk):
            start = chunk.rfind(b"<<", max(0, at - 65536), at)
            end = chunk.find(b">>", after)
            window = chunk[max(0, min(start if start >= 0 else at, at - 400)): end if end > 0 else at + 400]
            for count in _counts(window):
                best = max(best or 0, count)
    return best


def _boundary(data: bytes, at: int) -> bool:
    """Regex ``\\b`` after a word character: at the end, or before a non-word byte."""
    return at >= len(data) or data[at] not in _WORD


def _pages_nodes(chunk: bytes) -> list[tuple[int, int]]:
    """(start, end) of each match of ``/Type\\s*/Pages\\b``."""
    found: list[tuple[int, int]] = []
    at = chunk.find(b"/Pages")
    while at >= 0:
        end = at + len(b"/Pages")
        start = at
        while start > 0 and chunk[start - 1] in _SPACE:
            start -= 1
        if chunk.endswith(b"/Type", 0, start) and _boundary(chunk, end):
            found.append((start - len(b"/Type"), end))
        at = chunk.find(b"/Pages", end)
    return found


def _counts(window: bytes) -> list[int]:
    """The numbers of ``/Count\\s+(\\d{1,7})\\b``."""
    found: list[int] = []
    at = window.find(b"/Count")
    while at >= 0:
        digits = after = at + len(b"/Count")
        while digits < len(window) and window[digits] in _SPACE:
            digits += 1
        end = digits
        while end < len(window) and 48 <= window[end] <= 57 and end - digits <= 7:  # ASCII 0-9
            end += 1
        if digits > after and 1 <= end - digits <= 7 and _boundary(window, end):
            found.append(int(window[digits:end]))
        at = window.find(b"/Count", max(end, after))
    return found


#: Central directory records summed for a zip's unpacked size; past it the size is left out.
ZIP_SUM_RECORDS = 50_000


def zip_summary(path: str | os.PathLike[str]) -> tuple[int, int | None] | None:
    """(entries, total uncompressed bytes): the count from the end record (O(1)), the size summed
    over the central directory when it holds at most ``ZIP_SUM_RECORDS`` entries (else None)."""
    from boundread.bytelevel import zipdir

    try:
        with open(path, "rb") as fh:
            end = zipdir.end_record(fh)
            if end.count > ZIP_SUM_RECORDS:
                return end.count, None
            total = walked = 0
            for rec in zipdir.records(fh, end):
                total += rec.size
                walked += 1
                if walked > ZIP_SUM_RECORDS:  # the end record understated the count
                    return end.count, None
    except (zipdir.BadZip, OSError, EOFError):
        return None
    return walked, total


def gzip_size(path: str | os.PathLike[str], size: int) -> int | None:
    """The uncompressed size a gzip member records in its last 4 bytes (modulo 4 GiB)."""
    if size < 18:
        return None
    try:
        with open(path, "rb") as fh:
            fh.seek(size - 4)
            return int.from_bytes(fh.read(4), "little")
    except OSError:
        return None


OFFICE_RECORDS = 5_000  # central-directory records walked for an Office file's facts (real ones have < 100)


def office_facts(path: str | os.PathLike[str], kind: str) -> dict[str, object]:
    """xlsx sheet names, pptx slide count, docx page count (from docProps/app.xml).

    Hot path (a deny reason): the zip is read with boundread.bytelevel.zipdir and the XML by plain byte
    scans - zipfile keeps a whole central directory, and xml.etree and re cost start-up.
    """
    from boundread.bytelevel import zipdir

    wanted = {sniff.XLSX: "xl/workbook.xml", sniff.DOCX: "docProps/app.xml"}.get(kind)
    facts: dict[str, object] = {}
    try:
        with open(path, "rb") as fh:
            slides = 0
            for walked, rec in enumerate(zipdir.records(fh)):
                if walked >= OFFICE_RECORDS:
                    break
                name = rec.name
                if name.startswith("ppt/slides/slide") and name.endswith(".xml") and name[16:-4].isdigit():
                    slides += 1
                elif name == wanted and rec.size <= 2 * 1024 * 1024 and not rec.flags & 1:
                    xml = zipdir.read_data(fh, rec)
                    if b"<!DOCTYPE" in xml or b"<!ENTITY" in xml:
                        continue  # no bombs: the facts are optional
                    if kind == sniff.XLSX:
                        facts["sheets"] = _sheet_names(xml)
                    else:
                        pages = _element_text(xml, b"Pages")
                        if pages is not None and pages.isdigit():
                            facts["pages"] = int(pages)
            if kind == sniff.PPTX:
                facts["slides"] = slides
    except (zipdir.BadZip, OSError, EOFError, ValueError):
        return {}
    return facts


_XML_ENTITIES = (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&apos;", "'"), ("&amp;", "&"))


def _unescape(text: str) -> str:
    for entity, char in _XML_ENTITIES:
        text = text.replace(entity, char)
    return text


def _sheet_names(xml: bytes, most: int = 200) -> list[str]:
    """The name attribute of each <sheet> (any namespace prefix) in xl/workbook.xml, in order."""
    names: list[str] = []
    at = 0
    while len(names) < most:
        at = xml.find(b"sheet", at)
        if at < 0:
            break
        start = xml.rfind(b"<", 0, at)
        head = xml[start + 1: at]
        after = xml[at + 5: at + 6]
        at += 5
        if start < 0 or after not in (b" ", b"\t", b"\n", b"\r", b"/") or (head and not head.endswith(b":")):
            continue
        if b" " in head or b">" in head:
            continue
        tag = xml[at: xml.find(b">", at)]
        for quote in (b'"', b"'"):
            key = b" name=" + quote
            found = tag.find(key)
            if found >= 0:
                value = tag[found + len(key): tag.find(quote, found + len(key))]
                names.append(_unescape(value.decode("utf-8", "replace")))
                break
    return names


def _element_text(xml: bytes, local: bytes) -> str | None:
    """The text of the first <local> or <prefix:local> element."""
    for opening in (b"<" + local + b">", b":" + local + b">"):
        at = xml.find(opening)
        if at >= 0:
            start = at + len(opening)
            return xml[start: xml.find(b"<", start)].decode("utf-8", "replace").strip()
    return None


#: The shapes of text ``text_shape`` tells apart: how its lines end and how wide its characters are.
UTF16_LE, UTF16_BE, UTF32_LE, UTF32_BE, CR_ONLY = "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be", "cr"
#: The head of a sample the zero-byte pattern is read from (UTF-16/32 show it in a few characters).
SHAPE_HEAD = 4096


def text_shape(sample: bytes) -> str:
    """How the text in ``sample`` (the file's first bytes, up to 64 KiB) is laid out, for the estimates that count
    lines: one of the UTF-16/32 constants (a BOM, or where the zero bytes fall: the high half of each ASCII
    character in UTF-16, the top bytes of each character in UTF-32), ``CR_ONLY`` (no LF, CR ends its lines: old
    Mac text, Shift-JIS from classic Mac OS), or "" for everything else (LF or CRLF ends, counted alike by byte
    tools and decoders; UTF-16 of a script with no ASCII has no zero bytes to tell it by, and is "" too).

    Cheap and bounded: a BOM test, one pass over ``SHAPE_HEAD`` bytes, two ``find`` calls; no decoding."""
    if sample.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return UTF32_LE if sample[0] == 0xFF else UTF32_BE
    if sample.startswith((b"\xff\xfe", b"\xfe\xff")):
        return UTF16_LE if sample[0] == 0xFF else UTF16_BE
    head = sample[:SHAPE_HEAD - SHAPE_HEAD % 4]
    if len(head) >= 8 and b"\x00" in head:
        zeros = [0, 0, 0, 0]
        for at, byte in enumerate(head):
            if not byte:
                zeros[at % 4] += 1
        most, few = len(head) // 4 * 0.9, len(head) // 4 * 0.1
        if zeros[2] >= most and zeros[3] >= most and zeros[0] <= few:
            return UTF32_LE
        if zeros[0] >= most and zeros[1] >= most and zeros[3] <= few:
            return UTF32_BE
        odd, even = zeros[1] + zeros[3], zeros[0] + zeros[2]
        if odd >= len(head) * 0.3 and even * 4 < odd:
            return UTF16_LE
        if even >= len(head) * 0.3 and odd * 4 < even:
            return UTF16_BE
        return ""
    return CR_ONLY if b"\n" not in sample and b"\r" in sample else ""


def _lines_in(sample: bytes, shape: str, *, whole: bool) -> int:
    """The lines in ``sample`` as a reader of its text counts them: its CRs in CR-only text, its line feeds at a
    character's place in UTF-16/32 (not a byte 0x0A inside another character: U+4E0A is 0A 4E in UTF-16LE);
    when ``sample`` is the ``whole`` file, a last line with no end counts too."""
    if shape == CR_ONLY:
        text, end = sample, b"\r"
    elif shape:
        unit = 4 if shape.startswith("utf-32") else 2
        decoded = sample[:len(sample) - len(sample) % unit].decode(shape, "replace").lstrip("\ufeff")
        return decoded.count("\n") + (1 if whole and decoded and not decoded.endswith("\n") else 0)
    else:
        text, end = sample, b"\n"
    return text.count(end) + (1 if whole and text and not text.endswith(end) else 0)


def text_lines(path: str | os.PathLike[str], size: int) -> tuple[int, int] | None:
    """(estimated lines, longest line in the sample) from a 64 KiB sample.

    The lines are the text's own (``text_shape``): a CR-only file of 40,000 lines has 40,000, not 1; UTF-16
    text's are its encoded line feeds. The longest line is what a byte tool prints as one (head, sed, grep,
    awk: up to a byte 0x0A), so ``sed -n '1p;$p'`` of a CR-only file is sized as the whole file it prints."""
    try:
        with open(path, "rb") as fh:
            sample = fh.read(SAMPLE)
    except OSError:
        return None
    if not sample:
        return 0, 0
    newlines = sample.count(b"\n")
    longest = max(len(line) for line in sample.split(b"\n"))
    if newlines == 0 and size > len(sample):  # one line longer than the sample: it may be the whole file
        longest = size
    whole = len(sample) >= size
    lines = _lines_in(sample, text_shape(sample), whole=whole)
    return (lines if whole else max(1, round(size * lines / len(sample)))), longest


def line_span(path: str | os.PathLike[str], size: int, lines: int, *, from_end: bool, most: int) -> bool | None:
    """Do the first (or last) ``lines`` lines of the file fit in ``most`` bytes? Reads at most ``most`` bytes.

    True: they fit and more of the file follows (a real part of it); False: they are the whole file
    (it has no more lines than that); None: they do not fit, or the file cannot be read.
    """
    found = lines_size(path, size, lines, from_end=from_end, most=most)
    return None if found is None else found[1]


def lines_size(path: str | os.PathLike[str], size: int, lines: int, *, from_end: bool,
               most: int) -> tuple[int, bool] | None:
    """(the bytes the first - or last - ``lines`` lines take, whether more of the file follows), or None when
    they do not fit in ``most`` bytes or the file cannot be read. Reads from 64 KiB up, doubling, to at most
    ``most`` bytes: the lines of a head of a big file cost what they are, not the cap."""
    want = min(size, most)
    take = min(want, SAMPLE)
    try:
        with open(path, "rb") as fh:
            while True:
                if from_end:
                    fh.seek(size - take)
                else:
                    fh.seek(0)
                chunk = fh.read(take)
                found = _span(chunk, lines, from_end=from_end)
                if found is not None:
                    return found, found < size
                if take >= want:
                    return (size, False) if want == size else None
                take = min(want, take * 2)
    except OSError:
        return None


def _span(chunk: bytes, lines: int, *, from_end: bool) -> int | None:
    """The bytes of the first (last) ``lines`` whole lines of ``chunk``; None when it holds fewer."""
    if from_end:
        body = chunk[:-1] if chunk.endswith(b"\n") else chunk
        if body.count(b"\n") < lines:
            return None
        at = len(body)
        for _ in range(lines):
            at = body.rfind(b"\n", 0, at)
        return max(0, len(chunk) - at - 1)
    if chunk.count(b"\n") < lines:
        return None
    return _nth(chunk, b"\n", lines) + 1


def _nth(data: bytes, byte: bytes, n: int) -> int:
    """Index of the ``n``-th ``byte`` (n >= 1) in ``data``; -1 for n == 0."""
    at = -1
    for _ in range(n):
        at = data.find(byte, at + 1)
    return at
