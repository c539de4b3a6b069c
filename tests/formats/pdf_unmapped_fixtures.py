"""Hand-written PDFs whose pages draw glyphs that their fonts map to no text (tests/helpers.tiny_pdf underneath).

Each page kind is one way real files lose their text:

- ``text``: Helvetica with its standard encoding - readable, the control page;
- ``cid``: a Type0 font (Identity-H) with no ToUnicode map - PDFium gives each glyph's CID as its code point
  (``Ā`` for CID 256) and flags it unmapped, pdfminer writes ``(cid:256)``;
- ``low``: a subset TrueType font drawn with codes 1-35 and no map - PDFium gives controls;
- ``pua``: Helvetica whose ToUnicode map sends every letter to the private-use area.
"""

from __future__ import annotations

from tests.helpers import tiny_pdf

LINES = 30  # lines a page draws, each different (PDFium drops a text object that repeats the one before)
READABLE = "SENTINEL readable page"
_DESCRIPTOR = (b"/Flags 4 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 900 /Descent -200 /CapHeight 700 "
               b"/StemV 80")
_PUA_MAP = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /X def 1 begincodespacerange "
            b"<00> <FF> endcodespacerange 1 beginbfrange <20> <7A> <E020> endbfrange endcmap "
            b"CMapName currentdict /CMap defineresource pop end end")


def _stream(data: bytes) -> bytes:
    return b"<< /Length %d >>\nstream\n%s\nendstream" % (len(data), data)


def _content(kind: str) -> bytes:
    lines = []
    for i in range(LINES):
        if kind == "cid":
            shown = b"<" + b"".join(b"%04X" % (0x100 + i * 7 + k) for k in range(30)) + b">"
        elif kind == "low":
            shown = b"<" + b"".join(b"%02X" % (1 + (i + k) % 35) for k in range(30)) + b">"
        elif kind == "pua":
            shown = b"(ABCDEFGHIJ KLMNOPQRST line %d)" % i
        else:
            shown = b"(%s line %d of a page of plain text)" % (READABLE.encode(), i)
        lines.append(b"BT /F1 12 Tf 72 %d Td %s Tj ET" % (740 - 22 * i, shown))
    return b"\n".join(lines)


def _font(kind: str, first: int) -> list[bytes]:
    """The objects of page font ``kind``, numbered from ``first`` (the font itself)."""
    if kind == "cid":
        return [b"<< /Type /Font /Subtype /Type0 /BaseFont /ABCDEF+Mincho /Encoding /Identity-H "
                b"/DescendantFonts [%d 0 R] >>" % (first + 1),
                b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /ABCDEF+Mincho /CIDSystemInfo << /Registry (Adobe) "
                b"/Ordering (Identity) /Supplement 0 >> /FontDescriptor %d 0 R /DW 600 >>" % (first + 2),
                b"<< /Type /FontDescriptor /FontName /ABCDEF+Mincho " + _DESCRIPTOR + b" >>"]
    if kind == "low":
        return [b"<< /Type /Font /Subtype /TrueType /BaseFont /ABCDEF+Arial /FirstChar 1 /LastChar 40 /Widths ["
                + b"600 " * 40 + b"] /FontDescriptor %d 0 R >>" % (first + 1),
                b"<< /Type /FontDescriptor /FontName /ABCDEF+Arial " + _DESCRIPTOR + b" >>"]
    if kind == "pua":
        return [b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode %d 0 R >>" % (first + 1),
                _stream(_PUA_MAP)]
    return [b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]


def pdf_of(kinds: list[str]) -> bytes:
    """One page per kind, in order."""
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    kids = []
    for kind in kinds:
        page = len(objects) + 1
        kids.append(b"%d 0 R" % page)
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> "
                       b">> /Contents %d 0 R >>" % (page + 2, page + 1))
        objects.append(_stream(_content(kind)))
        objects.extend(_font(kind, page + 2))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), len(kinds))
    return tiny_pdf(objects)
