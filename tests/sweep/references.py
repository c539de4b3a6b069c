"""What a reference tool gets out of a file: the text boundread's extract is measured against.

One tool per class, the one users would reach for: pdftotext (poppler-utils) for PDF, pandoc for docx and odt,
python-pptx for pptx (pandoc 2.x reads no pptx), calamine for workbooks (xlsx, xls, ods: every cell of every
sheet), bsdtar (libarchive-tools) for archive listings and members, iconv with the encoding the file is known
to be in for text. An odp has no reader of its own here: its text is the text nodes of the content.xml that
bsdtar unpacks; a bare .gz of text is unpacked by Python's gzip. A tool that is missing raises ``Missing``;
the test skips on it, or fails under CI=1.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

TIMEOUT = 120.0


class Missing(Exception):
    """A reference tool is not installed: the message says which, and the package it comes with."""


#: command -> the Debian package that installs it (.ci/run installs each)
PACKAGES = {"pdftotext": "poppler-utils", "pandoc": "pandoc", "bsdtar": "libarchive-tools", "iconv": "libc-bin"}


def in_ci() -> bool:
    """CI is set and not to 0/false/no: what must be installed is there, so a missing tool is a failure."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _tool(name: str, *args: str, data: bytes | None = None) -> bytes:
    exe = shutil.which(name)
    if exe is None:
        raise Missing(f"{name} is not installed (apt-get install {PACKAGES[name]})")
    done = subprocess.run([exe, *args], input=data, capture_output=True, timeout=TIMEOUT, check=False)
    if done.returncode and not done.stdout:  # it read nothing: say why, never an empty reference that passes
        raise RuntimeError(f"{name} exited {done.returncode}: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout


def pdf(path: Path) -> str:
    return _tool("pdftotext", "-q", "-enc", "UTF-8", str(path), "-").decode("utf-8", "replace")


def pandoc(path: Path) -> str:
    return _tool("pandoc", "--to", "plain", "--wrap", "none", str(path)).decode("utf-8", "replace")


def pandoc_comments(path: Path) -> str:
    """pandoc with tracked changes and comments kept (``--track-changes=all``): a docx's comments are text."""
    return _tool("pandoc", "--track-changes=all", "--to", "plain", "--wrap", "none",
                 str(path)).decode("utf-8", "replace")


def docx_xml(path: Path) -> str:
    """The text of a docx's body where it lives: every ``w:t`` of word/document.xml (unpacked by bsdtar), one
    line a paragraph. Deleted text is ``w:delText`` and field codes ``w:instrText``, so neither is in it."""
    import xml.etree.ElementTree as ET

    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    root = ET.fromstring(member(path, "word/document.xml"))
    return "\n".join("".join(t.text or "" for t in para.iter(w + "t")) for para in root.iter(w + "p"))


def pptx(path: Path) -> str:
    from pptx import Presentation
    from pptx.shapes.group import GroupShape

    out: list[str] = []

    def shapes(group: object) -> None:
        for shape in group:  # type: ignore[attr-defined]
            if isinstance(shape, GroupShape):
                shapes(shape.shapes)
            if getattr(shape, "has_text_frame", False):
                out.append(shape.text_frame.text)
            if getattr(shape, "has_table", False):
                out.extend(cell.text for row in shape.table.rows for cell in row.cells)
            if getattr(shape, "has_chart", False):
                chart = shape.chart
                if chart.has_title:
                    out.append(chart.chart_title.text_frame.text)
                out.extend(series.name for series in chart.series)
                out.extend(str(category) for plot in chart.plots for category in plot.categories)

    deck = Presentation(str(path))
    for slide in deck.slides:
        shapes(slide.shapes)
        if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
            out.append(slide.notes_slide.notes_text_frame.text)
    return "\n".join(out)


def pptx_with_smartart(path: Path) -> str:
    """python-pptx's text (it reads no SmartArt) and the text of the SmartArt data parts bsdtar unpacks: the
    points PowerPoint shows (no type, or "node"), not its presentation points or transitions."""
    import xml.etree.ElementTree as ET

    dgm = "{http://schemas.openxmlformats.org/drawingml/2006/diagram}"
    a_t = "{http://schemas.openxmlformats.org/drawingml/2006/main}t"
    out = [pptx(path)]
    for name in listing(path).split():
        if name.startswith("ppt/diagrams/data") and name.endswith(".xml"):
            for point in ET.fromstring(member(path, name)).iter(dgm + "pt"):
                if point.get("type", "node") == "node":
                    out.extend(run.text or "" for run in point.iter(a_t))
    return "\n".join(out)


def workbook(path: Path) -> str:
    from python_calamine import CalamineWorkbook

    book = CalamineWorkbook.from_path(str(path))
    out: list[str] = []
    for name in book.sheet_names:
        out.append(name)
        out.extend("\t".join(_cell(cell) for cell in row) for row in book.get_sheet_by_name(name).to_python())
    return "\n".join(out)


def _cell(value: object) -> str:
    """A cell as text: strings, numbers and booleans as they are; dates, times and durations as nothing, since
    Python's spelling of them is no spreadsheet's ("10 days, 15:10:10" for a cell Excel shows as 255:10:10)."""
    import datetime

    return "" if isinstance(value, datetime.date | datetime.time | datetime.timedelta) else str(value)


def odp(path: Path) -> str:
    import xml.etree.ElementTree as ET

    xml = _tool("bsdtar", "-xOf", str(path), "content.xml")
    return "\n".join(ET.fromstring(xml).itertext()) if xml else ""


def workbook_comments(path: Path) -> str:
    """calamine's cells (it reads no comments) and the text of the xlsx's comment parts (xl/comments*.xml)."""
    import xml.etree.ElementTree as ET

    main = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}t"
    out = [workbook(path)]
    for name in listing(path).split():
        if name.startswith("xl/comments") and name.endswith(".xml"):
            out.extend(t.text or "" for t in ET.fromstring(member(path, name)).iter(main))
    return "\n".join(out)


def odf_xml(path: Path) -> str:
    """An ODF document's text where it lives: the text of content.xml's paragraphs and headings (bsdtar unpacks
    it), cell comments (office:annotation) included, their author and date left out."""
    import xml.etree.ElementTree as ET

    text_ns = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
    root = ET.fromstring(member(path, "content.xml"))
    return "\n".join("".join(para.itertext()) for para in root.iter() if para.tag in (text_ns + "p", text_ns + "h"))


def listing(path: Path) -> str:
    return _tool("bsdtar", "-tf", str(path)).decode("utf-8", "replace")


def member(path: Path, name: str) -> bytes:
    return _tool("bsdtar", "-xOf", str(path), name)


def text(path: Path, encoding: str) -> str:
    return _tool("iconv", "-f", encoding, "-t", "UTF-8", str(path)).decode("utf-8", "replace")


def html(path: Path, encoding: str) -> str:
    """A saved web page's text: iconv to UTF-8 (pandoc reads only UTF-8), then pandoc from HTML to plain text."""
    page = _tool("iconv", "-f", encoding, "-t", "UTF-8", str(path))
    return _tool("pandoc", "--from", "html", "--to", "plain", "--wrap", "none", data=page).decode("utf-8", "replace")


def recoded(data: bytes, encoding: str) -> str:
    """Bytes another tool unpacked (bsdtar, gzip), through iconv."""
    return _tool("iconv", "-f", encoding, "-t", "UTF-8", data=data).decode("utf-8", "replace")


def gunzipped(path: Path, encoding: str) -> str:
    """A .gz of text: unpacked by the standard library's gzip (bsdtar reads archives, not a bare .gz), then iconv."""
    import gzip

    return recoded(gzip.decompress(path.read_bytes()), encoding)
