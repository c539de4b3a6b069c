"""The kinds of file, grouped into the families commands accept: declared once, used everywhere.

Each handler's ``KINDS`` is one of these families (or one kind of it), so the registry, ``pages``,
``sheets``, the option checks, the chunker, the MCP tools and the guard's slices cannot disagree on
what a workbook or a paged document is.
"""

from __future__ import annotations

#: Delimited text (CSV, TSV): a workbook of one sheet, named after the file; still text for --grep/--lines/--tail.
TABLES: tuple[str, ...] = ("csv", "tsv")
#: Structured text read by its structure (``--path``, records by ``--rows``); still text for --tail/--grep/--lines.
STRUCTURED: tuple[str, ...] = ("json", "jsonl")
#: Databases: tables and views are their sheets (``--rows`` in primary-key order), plus ``--sql`` (formats/database).
DATABASES: tuple[str, ...] = ("sqlite",)
#: Columnar data files: one sheet named after the file, rows in file order, read by row groups or record batches
#: (formats/columnar: Parquet, Arrow IPC / Feather v2).
COLUMNAR: tuple[str, ...] = ("parquet", "arrow")
#: Spreadsheets and delimited text: the sheets handler's kinds (formats/sheets).
SPREADSHEETS: tuple[str, ...] = ("xlsx", "xls", "ods", *TABLES)
#: Read by sheets and rows: ``sheets``, ``--rows``, ``--format``.
WORKBOOKS: tuple[str, ...] = (*SPREADSHEETS, *DATABASES, *COLUMNAR)
#: Presentations: slides are their pages.
SLIDES: tuple[str, ...] = ("pptx", "odp")
#: Jupyter notebooks: cells are their pages (formats/web).
NOTEBOOKS: tuple[str, ...] = ("ipynb",)
#: Saved web pages: their readable text, scripts and chrome out, by sections (h1-h3, long ones in parts) as pages;
#: --lines and --grep read that text (formats/web); --tail reads the raw file's last lines, --encoding the charset.
WEBPAGES: tuple[str, ...] = ("html",)
#: E-books: chapters in spine order are their pages (formats/web).
EBOOKS: tuple[str, ...] = ("epub",)
#: Read by pages: ``pages``, ``--pages``.
PAGED: tuple[str, ...] = ("pdf", *SLIDES, *NOTEBOOKS, *EBOOKS, *WEBPAGES)
#: Word-processing documents: read whole, bounded by characters and lines.
DOCUMENTS: tuple[str, ...] = ("docx", "odt")
#: One compressed file, not an archive of members.
STREAMS: tuple[str, ...] = ("gz", "bz2", "xz")
#: Listed by ``list-zip``, read by ``--member``.
ARCHIVES: tuple[str, ...] = ("zip", "7z", "tar", *STREAMS, "rar")
#: Email: headers and body read as text; attachments listed by ``list-zip``, read by ``--member`` (formats/web).
MAIL: tuple[str, ...] = ("eml",)
#: Outlook's OLE messages: headers and body read as text; attachments listed by ``list-zip``, read by ``--member``
#: (formats/web/outlook.py over formats/_cfb).
OUTLOOK: tuple[str, ...] = ("msg",)
#: Old binary formats boundread names but does not read.
LEGACY: tuple[str, ...] = ("doc", "ppt")


def family_words(kinds: tuple[str, ...]) -> str:
    """``("pdf", "pptx", "odp")`` -> ``"pdf, pptx or odp"``, for messages."""
    return kinds[0] if len(kinds) == 1 else f"{', '.join(kinds[:-1])} or {kinds[-1]}"
