"""Cell comments of an ods sheet (``office:annotation`` inside a ``table:table-cell``, LibreOffice's
Insert > Comment) as ``Comment B2 (author): text`` lines, the way :mod:`.xlsx_extras` gives an xlsx's.

A byte scan says first whether content.xml holds any annotation at all; only then is the sheet
streamed again from its start (the row reader skips annotations: they are not the cell's
value), no further than the rows the caller read, and the lines stop at the character budget; what did
not fit is counted in a warning.
"""

from __future__ import annotations

import re
import zipfile
from typing import Any

from boundread.formats._xml import local, odf_text
from boundread.formats.sheets.ods_rows import Tables, _events, _repeat, _table_rows
from boundread.formats.sheets.xlsx_extras import SheetExtras
from boundread.formats.sheets.xlsx_peek import SheetMeta

_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?annotation[\s/>]")
_T = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"


def column_letters(col: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _note(note: Any) -> tuple[str, str]:
    """(author, text) of one office:annotation; its paragraphs joined by a space."""
    who = next((c.text or "" for c in note if local(c.tag) == "creator"), "")
    text = " ".join(t for t in (odf_text(p) for p in note if local(p.tag) in ("p", "h")) if t)
    return who.strip(), " ".join(text.split())


def has_comments(zf: zipfile.ZipFile) -> bool:
    """content.xml holds an annotation start tag anywhere (a byte scan, a chunk at a time: no parse)."""
    tail = b""
    with zf.open("content.xml") as raw:
        while chunk := raw.read(1 << 20):
            if _TAG.search(tail + chunk):
                return True
            tail = chunk[-40:]
    return False


def sheet_comments(zf: zipfile.ZipFile, tables: Tables, sheet: SheetMeta, last: int, budget: int) -> SheetExtras:
    """The comments of rows 1..``last`` of ``sheet``, within ``budget`` characters."""
    out = SheetExtras()
    skipped = 0
    with zf.open("content.xml") as raw:
        for row_no, _repeat_rows, row in _table_rows(_events(raw, tables, sheet.index - 1, 1)[0], 1):
            if row_no > last:
                break
            col = 0
            for cell in row:
                if local(cell.tag) not in ("table-cell", "covered-table-cell"):
                    continue
                for note in (c for c in cell if local(c.tag) == "annotation"):
                    who, text = _note(note)
                    line = f"Comment {column_letters(col)}{row_no} ({who or 'unknown'}): {text}"
                    if text and not out.add(line, budget):
                        skipped += 1
                col += _repeat(cell.get(_T + "number-columns-repeated"))
    if skipped:
        out.warnings.append(f"sheet '{sheet.name}': {skipped} cell comment{'s' * (skipped != 1)} not shown "
                            "(--max-chars reached): raise --max-chars")
    return out
