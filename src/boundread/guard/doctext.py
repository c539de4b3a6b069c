"""At most how much text a converter prints of a whole Word, PowerPoint or OpenDocument text/slides file.

``pandoc small.docx -t plain`` of a one-page memo prints a few hundred characters, but the file is a Word
document, which the guard refuses to print whole by its kind. Its text can be bounded without reading it: every
character of it is inside the parts that hold the text (the body, notes, comments, headers and footers, charts and
diagrams of a Word file; the slides, their notes, charts and diagrams of a PowerPoint file; an OpenDocument file's
content.xml), between tags that take more room than the text (``<w:p>``, ``<w:r>``, ``<w:t>``), so those parts'
XML is more than the text. The styles, themes and settings, often most of a small file's XML, hold none of it.
The XML is inflated here, not taken from the sizes the directory declares (a file states those at will,
zipdir.read_data checks them), and at most a quarter of the cap of it: a bigger document is not measured. A
table's cells padded to a column's width can print more than their XML, hence the quarter (64 KB of XML for the
default 256 KB cap).

Not for spreadsheets: a cell that points at a shared string prints that string each time (``xlsx2csv``), and
an OpenDocument sheet repeats a cell by a count; their text is not bounded by their XML. Standard library only
(the hook path), imported only for a converter's whole-document print.
"""

from __future__ import annotations

from boundread.bytelevel import sniffed

#: The parts that hold each kind's text (lower case): the kinds whose text their XML bounds.
PARTS = {
    sniffed.DOCX: r"word/(?:(?:document|footnotes|endnotes|comments[^/]*|header\d*|footer\d*)\.xml"
                  r"|(?:charts|diagrams)/[^/]+\.xml)",
    sniffed.PPTX: r"ppt/(?:slides|notesslides|charts|diagrams)/[^/]+\.xml",
    sniffed.ODT: r"content\.xml",
    sniffed.ODP: r"content\.xml",
}
#: Directory records looked at: a document has tens of parts; a zip of thousands is not one measured here.
RECORDS = 2_000
#: The share of the cap a document's XML may take to count as small (see the module).
SHARE = 4


def most(absolute: str, kind: str, cap: int) -> int | None:
    """The bytes of XML that bound the text of the document at ``absolute`` when they are within ``cap //
    SHARE``; None when they are not, or the document cannot be read here (encrypted, another compression, not a
    zip, a part whose size is not what the directory says)."""
    if kind not in PARTS:
        return None
    import re

    from boundread.bytelevel import zipdir

    holds_text = re.compile(PARTS[kind]).fullmatch

    limit, total = cap // SHARE, 0
    try:
        with open(absolute, "rb") as fh:
            parts = []
            for walked, rec in enumerate(zipdir.records(fh)):
                if walked >= RECORDS:
                    return None
                if holds_text(rec.name.lower()):
                    total += rec.size
                    if total > limit:
                        return None
                    parts.append(rec)
            for rec in parts:
                zipdir.read_data(fh, rec)  # the declared size, checked: a part inflating past it raises
    except (OSError, ValueError):  # zipdir.BadZip is a ValueError
        return None
    return total
