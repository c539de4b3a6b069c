"""The name of an output file, derived once from what the read selected, so it says what the file holds.

Every shell names its files here - the CLI's ``extract``, ``pages`` and ``sheets``, the Python API, the MCP
tools, the chunker's folder and the guard's redirect slices - so one request lands in one file whichever way
it was asked: ``extract w.xlsx --sheet S --format markdown``, ``sheets w.xlsx S --format markdown`` and
``boundread.extract("w.xlsx", sheets=("S",), fmt="markdown")`` all write ``w.xlsx.sheet-S.md``.

Name: ``<input name>.<parts>.<suffix>``, the parts in this order, each only when the read asked for it:
``member-M``, ``pages-P[-layout]`` (the pages the file has: ``pages 1-300`` of a 57-page PDF is
``pages-1-57``), ``layout`` (no pages named), ``sql-Q`` (a SQLite query), ``path-P`` (a JSON --path),
``sheet-A-B[-rows-R]`` or ``rows-R``,
``tail-N``, ``grep-G``, ``lines-L``; ``text`` when none of these narrows it; then ``from-N`` (an MCP call that
reads on from character N). The suffix is the rows' format (``.csv``, ``.tsv``, ``.md``) when the file holds named
sheets' rows, else ``.txt``.
"""

from __future__ import annotations

import re

from boundread.contract.model import Span
from boundread.core import paths
from boundread.core.output import BASE_BYTES, SELECTION_BYTES, member_slug, out_path, slug
from boundread.ranges import span_text
from boundread.record import Record, replace

TYPE_CHECKING = False  # not typing's, and no pathlib: a one-line info's start-up
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

#: a workbook's rows, as ``--format`` writes them
FORMAT_SUFFIX = {"csv": ".csv", "tsv": ".tsv", "markdown": ".md"}
GREP_BYTES = 30  # of a pattern in a name: enough to tell two searches apart, short enough to read


class Selection(Record, frozen=True):
    """What one read selects, in the words its output file's name says it with."""

    pages: tuple[Span, ...] = ()
    layout: bool = False
    sheets: tuple[str, ...] = ()
    rows: Span | None = None
    fmt: str = "csv"
    tail: int | None = None
    grep: str | None = None
    lines: Span | None = None
    member: str | None = None
    offset: int = 0  # an MCP call's characters skipped into the selection
    query: str | None = None  # sqlite: the --sql statement
    path: str | None = None  # json, jsonl: the --path

    def held(self, totals: Mapping[str, object], done: str = "", *, cut: bool = False) -> Selection:
        """The selection as the file holds it, once the read said what it read: ``pages 10-99`` of a 12-page
        file holds ``pages 10-12`` (``totals``); ``pages 1-300`` cut short by ``--max-chars`` (a timeout,
        Ctrl-C) inside page 13 holds ``pages 1-13`` (``done``, the summary's words, when ``cut``), so the
        name, the summary and the ``next`` that goes on from page 13 agree."""
        names = totals.get("sheet_names")
        if self.sheets and isinstance(names, list) and names and all(isinstance(n, str) for n in names):
            return replace(self, sheets=tuple(names))  # `sheets w.xlsx 1` is the file of its name
        total = totals.get("pages", totals.get("slides"))
        if not self.pages or not isinstance(total, int) or total < 1:
            return self
        last = min(total, last_page(done) or total) if cut else total
        read = tuple(Span(span.first, min(span.last, last)) for span in self.pages if span.first <= last)
        return replace(self, pages=read) if read else self


_DONE_PAGES = re.compile(r"(?:pages|slides) ([\d, -]+) of \d")


def last_page(done: str) -> int | None:
    """The last page (slide) a read's summary says it wrote: ``pages 1-13 of 57 (page 13 cut short)`` -> 13,
    ``slides 1-3, 5 of 9`` -> 5; None when it names none (``no pages of 57``, a line count)."""
    found = _DONE_PAGES.match(done)
    numbers = re.findall(r"\d+", found.group(1)) if found else []
    return int(numbers[-1]) if numbers else None


def pages_text(spans: Sequence[Span]) -> str:
    """``(Span(1, 5), Span(8, 8))`` -> ``1-5,8``: how a page selection reads in a name and a command."""
    return ",".join(str(span) for span in spans)


def parts(sel: Selection) -> list[str]:
    """The name's middle, part by part (see the module's docstring for the order)."""
    narrowed: list[str] = []
    if sel.pages:
        narrowed.append(f"pages-{pages_text(sel.pages)}" + ("-layout" if sel.layout else ""))
    elif sel.layout:
        narrowed.append("layout")
    if sel.query is not None:  # two queries of one database are two files
        narrowed.append(f"sql-{slug(sel.query, GREP_BYTES)}")
    if sel.path is not None and sel.path != ".":  # two paths into one JSON file are two files
        narrowed.append(f"path-{slug(sel.path, GREP_BYTES)}")
    if sel.sheets:
        narrowed.append("sheet-" + "-".join(sel.sheets) + (f"-rows-{span_text(sel.rows)}" if sel.rows else ""))
    elif sel.rows is not None:
        narrowed.append(f"rows-{span_text(sel.rows)}")
    if sel.tail is not None:
        narrowed.append(f"tail-{sel.tail}")
    if sel.grep is not None:
        narrowed.append(f"grep-{slug(sel.grep, GREP_BYTES)}")
    if sel.lines is not None:
        narrowed.append(f"lines-{span_text(sel.lines)}")
    member = [f"member-{member_slug(sel.member)}"] if sel.member is not None else []
    return [*member, *(narrowed or ["text"]), *([f"from-{sel.offset}"] if sel.offset else [])]


def suffix(sel: Selection) -> str:
    """``.csv``/``.tsv``/``.md`` for named sheets' rows (the format they are written in), else ``.txt``."""
    return FORMAT_SUFFIX.get(sel.fmt, ".txt") if sel.sheets else ".txt"


def file_name(source_name: str, sel: Selection) -> str:
    """``report.pdf`` + pages 1-5 -> ``report.pdf.pages-1-5.txt``: the one name of what ``sel`` holds of
    ``source_name`` (its last component; the folder is the caller's)."""
    base = slug(paths.name(source_name), BASE_BYTES)
    return f"{base}.{slug('.'.join(parts(sel)), SELECTION_BYTES)}{suffix(sel)}"


def default_path(source_name: str, sel: Selection) -> str:
    """Where a read goes without ``-o``: the output folder (``$BOUNDREAD_OUT_DIR``, else ``./boundread-out``), as
    ``str(out_dir() / name)`` (no pathlib: start-up)."""
    return paths.join(out_path(), file_name(source_name, sel))


def listing_name(source_name: str) -> str:
    """An archive's listing saved by the MCP ``list_zip`` tool: ``a.zip.list.txt``."""
    return f"{slug(paths.name(source_name), BASE_BYTES)}.list.txt"


def chunks_folder_name(source_name: str) -> str:
    """The folder ``chunks`` writes without ``-o``: ``report.pdf.chunks``."""
    return f"{slug(paths.name(source_name), BASE_BYTES)}.chunks"


def first_part_name(source_name: str, key: str) -> str:
    """A redirect slice (a refused Read's first part): ``report.pdf.<key>.first-part.txt``, ``key`` telling
    apart the paths and ways of naming one file that share a basename."""
    return f"{slug(paths.name(source_name), BASE_BYTES)}.{key}.first-part.txt"
