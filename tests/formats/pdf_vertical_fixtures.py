"""A hand-written PDF of Japanese set vertically (tests/helpers.tiny_pdf underneath): a Type0 font with the Identity-V
encoding (writing mode 1: each glyph advances down the page) and a ToUnicode map, columns placed right to left.

Read in order, column by column from the right and top to bottom within a column, the page says ``COLUMNS`` joined;
any other order (left to right, or across the columns row by row) mixes them up.
"""

from __future__ import annotations

from tests.helpers import tiny_pdf

#: the columns in reading order: the first is the rightmost
COLUMNS = ("吾輩は猫である名前はまだ無い", "どこで生れたかとんと見当がつかぬ", "何でも薄暗いじめじめした所で",
           "ニャーニャー泣いていた事だけは記憶している")
SIZE = 20  # the font size, in points: one glyph's advance down the column
TOP, RIGHT, GAP = 740, 520, 30  # the first column's top and x, and the step to the next column, leftwards


def _codes(columns: tuple[str, ...]) -> dict[str, int]:
    """A CID for each distinct character, in order of first use (1, 2, ...)."""
    codes: dict[str, int] = {}
    for column in columns:
        for char in column:
            codes.setdefault(char, len(codes) + 1)
    return codes


def _stream(data: bytes) -> bytes:
    return b"<< /Length %d >>\nstream\n%s\nendstream" % (len(data), data)


def vertical_pdf(columns: tuple[str, ...] = COLUMNS, *, drops: tuple[int, ...] = (), tiers: int = 1,
                 horizontal: bool = False, ordering: bytes = b"Japan1") -> bytes:
    """``columns`` set right to left; column ``i`` starts ``drops[i]`` glyphs below the top (an indented
    paragraph); with ``tiers`` 2 the columns fill the top half of the page, right to left, then the bottom half.
    ``horizontal``: the same text set in rows (Identity-H), top to bottom, for a page that must not be turned.
    ``ordering`` b"Identity" names no character collection PDFium knows: with the font not embedded, PDFium loads
    none, reads no text and draws nothing, where pdfminer and pdftotext read the ToUnicode map."""
    codes = _codes(columns)
    shows = []
    per_tier = -(-len(columns) // tiers)
    for index, column in enumerate(columns):
        hexed = b"".join(b"%04X" % codes[char] for char in column)
        tier, place = divmod(index, per_tier)
        top = TOP - SIZE * (drops[index] if index < len(drops) else 0) - tier * SIZE * 24
        x, y = (72, TOP - GAP * index) if horizontal else (RIGHT - GAP * place, top)
        shows.append(b"BT /F1 %d Tf %d %d Td <%s> Tj ET" % (SIZE, x, y, hexed))
    pairs = b"\n".join(b"<%04X> <%s>" % (code, char.encode("utf-16-be").hex().upper().encode())
                       for char, code in codes.items())
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Adobe-Identity-UCS def "
            b"/CMapType 2 def 1 begincodespacerange <0000> <FFFF> endcodespacerange %d beginbfchar\n%s\nendbfchar "
            b"endcmap CMapName currentdict /CMap defineresource pop end end" % (len(codes), pairs))
    return tiny_pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> "
        b"/Contents 4 0 R >>",
        _stream(b"\n".join(shows)),
        b"<< /Type /Font /Subtype /Type0 /BaseFont /KozMinPr6N-Regular /Encoding /Identity-%s "
        b"/DescendantFonts [6 0 R] /ToUnicode 8 0 R >>" % (b"H" if horizontal else b"V"),
        b"<< /Type /Font /Subtype /CIDFontType0 /BaseFont /KozMinPr6N-Regular /CIDSystemInfo << /Registry (Adobe) "
        b"/Ordering (%s) /Supplement 6 >> /FontDescriptor 7 0 R /DW 1000 /DW2 [880 -1000] >>" % ordering,
        b"<< /Type /FontDescriptor /FontName /KozMinPr6N-Regular /Flags 4 /FontBBox [0 -120 1000 880] /ItalicAngle 0 "
        b"/Ascent 880 /Descent -120 /CapHeight 740 /StemV 80 >>",
        _stream(cmap),
    ])
