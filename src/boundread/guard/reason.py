"""The deny reason: what the agent reads next, so it teaches the file and the exact commands to run.

Paths are ``shlex.quote``-d, so each suggested command line can be pasted into a shell as is, and
the whole reason stays under about 600 characters.
"""

# os.path on purpose, not pathlib: importing pathlib costs milliseconds of start-up on the hook path.
# ruff: noqa: PTH117
from __future__ import annotations

# On the guard-check path (a deny): no shlex, pathlib or typing at module level (shlex imports re:
# ~10 ms of start-up with enum and functools); ``quote`` is shlex.quote without the regex.
import os

from boundread.bytelevel import sniff
from boundread.guard import facts
from boundread.guard.shellquote import quote as quote  # re-exported: reason.quote is the name most callers use
from boundread.units import human_bytes

MAX_REASON = 800  # characters (~200 tokens): a path of 100 characters is in it four times or more
#: What a suggested command may print or write at most: under every client's own limits (the clients' modules,
#: ``READ_MAX_BYTES``, ``SHELL_MAX_CHARS``...: Copilot's view refuses a whole file over 42.9 KB, Claude Code shows
#: 30,000 characters of a Bash output, Gemini CLI 40,000), so each command's output is read in one more call at most.
FIT_CHARS = 20_000
FIT = f" --max-chars {FIT_CHARS}"
FIT_ENTRIES = 200  # a listing's rows at most: ~100 characters each with the name, well under FIT_CHARS
#: How every deny reason opens. Clients wrap it in their own words ("PreToolUse:Read hook error: ..."),
#: so it says at once that the refusal is a decision, not a fault.
OPENING = "Not an error: boundread refused this on purpose"
LABELS = {
    sniff.PDF: "PDF", sniff.DOCX: "Word document", sniff.DOC: "Word 97-2003 document",
    sniff.XLSX: "Excel workbook", sniff.XLS: "Excel 97-2003 workbook", sniff.ODS: "OpenDocument spreadsheet",
    sniff.PPTX: "PowerPoint deck", sniff.PPT: "PowerPoint 97-2003 deck", sniff.ODT: "OpenDocument text",
    sniff.ODP: "OpenDocument presentation", sniff.ZIP: "zip archive", sniff.SEVENZ: "7z archive",
    sniff.TAR: "tar archive", sniff.GZ: "gzip file", sniff.BZ2: "bzip2 file", sniff.XZ: "xz file",
    sniff.RAR: "rar archive", sniff.IMAGE: "image", sniff.TEXT: "text file", sniff.BINARY: "binary file",
    sniff.SQLITE: "SQLite database", sniff.PARQUET: "Parquet file",
    sniff.ARROW: "Arrow file",
}
_SHEETS = (sniff.XLSX, sniff.XLS, sniff.ODS)
#: Text named so is read by rows (core/detect.py makes it the csv or tsv kind).
_TABLES = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv"}
#: JSON is read by its structure (info gives the shape, --path a part); JSON Lines by records
_STRUCTURED = {".json": "json", ".geojson": "json", ".jsonl": "jsonl", ".ndjson": "jsonl"}
#: Named so, boundread reads them by their structure (core/detect.py): cells, an email's parts, chapters.
_WEB = {".ipynb": (sniff.TEXT, "Jupyter notebook"), ".eml": (sniff.TEXT, "email"), ".epub": (sniff.ZIP, "EPUB book"),
        ".msg": (sniff.BINARY, "Outlook message"), ".html": (sniff.TEXT, "web page"), ".htm": (sniff.TEXT, "web page"),
        ".xhtml": (sniff.TEXT, "web page")}
_PAGES = (".html", ".htm", ".xhtml")
_LISTABLE = (sniff.ZIP, sniff.SEVENZ, sniff.TAR, sniff.RAR)
_SLIDES = (sniff.PPTX, sniff.PPT, sniff.ODP)


def describe(path: str, kind: str, size: int, subtype: str = "") -> tuple[str, dict[str, object]]:
    """'PDF, 4.2 MB, 103 pages' and the facts behind it (cheap, stdlib only)."""
    found: dict[str, object] = {"size": size}
    if subtype == "encrypted":  # a container that says so in its first bytes (PARE Parquet): only info reads it
        found["encrypted"] = True
    if kind == sniff.PDF:
        found["pages"] = facts.pdf_pages(path, size)
    elif kind in (sniff.XLSX, sniff.PPTX, sniff.DOCX):
        found.update(facts.office_facts(path, kind))
    elif kind == sniff.ZIP:
        summary = facts.zip_summary(path)
        if summary:
            found["entries"], found["unpacked"] = summary
    elif kind == sniff.GZ:
        found["unpacked"] = facts.gzip_size(path, size)
    elif kind == sniff.TEXT:
        lines = facts.text_lines(path, size)
        if lines:
            found["lines"], found["longest_line"] = lines
        found["cr_only"] = _cr_only(path)
        table = _TABLES.get(os.path.splitext(path)[1].lower())
        if table:  # boundread reads it as a workbook of one sheet, named after the file's stem
            found["table"], found["sheet"] = table, os.path.splitext(os.path.split(path)[1])[0]
        structured = _STRUCTURED.get(os.path.splitext(path)[1].lower())
        if structured:
            found["structured"] = structured
    web = _WEB.get(os.path.splitext(path)[1].lower())
    ext = os.path.splitext(path)[1].lower()
    if web is not None and web[0] == kind and (ext != ".msg" or subtype == "ole"):  # a .msg is an OLE file
        found["web"] = ext
    label = f"{str(found['table']).upper()} file" if found.get("table") else \
        web[1] if web is not None and found.get("web") else LABELS.get(kind, kind)
    parts = [label + (f" ({subtype})" if subtype and kind == sniff.IMAGE else ""), human_bytes(size)]
    if found.get("pages"):
        parts.append(f"{found['pages']} page{'' if found['pages'] == 1 else 's'}")
    if found.get("slides"):
        parts.append(f"{found['slides']} slide{'' if found['slides'] == 1 else 's'}")
    sheets = found.get("sheets")
    if isinstance(sheets, list) and sheets:
        shown = ", ".join(repr(name) for name in sheets[:4]) + (", ..." if len(sheets) > 4 else "")
        parts.append(f"{len(sheets)} sheet{'' if len(sheets) == 1 else 's'}: {shown}")
    if found.get("entries") is not None:
        parts.append(f"{found['entries']} entries")
    if isinstance(found.get("unpacked"), int) and found["unpacked"]:
        parts.append(f"{human_bytes(int(found['unpacked']))} unpacked")  # type: ignore[call-overload]
    if kind == sniff.TEXT and "lines" in found:
        exact = size <= facts.SAMPLE
        count = found["lines"]
        parts.append(f"{'' if exact else '~'}{count:,} line{'' if count == 1 else 's'}")
    return ", ".join(parts), found


def _cr_only(path: str) -> bool:
    """Its lines end in CR alone (old Mac text): head, sed, tail and grep see it as one line."""
    try:
        with open(path, "rb") as fh:
            return facts.text_shape(fh.read(facts.SAMPLE)) == facts.CR_ONLY
    except OSError:
        return False


def cr_advice() -> str:
    """Why a byte tool's line bound is no bound on a CR-only file (boundread counts its CR lines)."""
    return "its lines end in CR only, so head, sed and tail print all of it as one line: run a command below"


def commands(kind: str, quoted: str, found: dict[str, object], line_cap: int) -> list[str]:
    """The boundread commands to run instead, best first."""
    if kind == sniff.PDF:
        return [f"boundread info {quoted}", f"boundread pages {quoted} 1-5{FIT}",
                f"boundread extract {quoted} --grep PATTERN --context 2{FIT}"]
    if kind in _SHEETS:
        sheets = found.get("sheets")
        name = str(sheets[0]) if isinstance(sheets, list) and sheets else ""
        if name.startswith("-"):  # an option to the command line: the name goes last, after --
            return [f"boundread info {quoted}", f"boundread sheets {quoted} --max-rows 50{FIT} -- {quote(name)}"]
        first = f" {quote(name)}" if name else ""
        return [f"boundread info {quoted}", f"boundread sheets {quoted}{first} --max-rows 50{FIT}"]
    if kind in _SLIDES:
        return [f"boundread info {quoted}", f"boundread pages {quoted} 1-5{FIT}"]
    if found.get("web") == ".ipynb":  # cells like slides, outputs summarised: no base64 in the way
        return [f"boundread info {quoted}", f"boundread pages {quoted} 1-10{FIT}",
                f"boundread extract {quoted} --grep PATTERN --context 2{FIT}"]
    if found.get("web") in (".eml", ".msg"):  # headers and body as text; attachments listed, each read as a member
        return [f"boundread extract {quoted}{FIT}", f"boundread list-zip {quoted} --max-entries {FIT_ENTRIES}",
                member(quoted)]
    if found.get("web") == ".epub":  # chapters in reading order, as pages
        return [f"boundread info {quoted}", f"boundread pages {quoted} 1-3{FIT}"]
    if found.get("web") in _PAGES:  # sections by headings as pages, scripts and markup out; info lists them
        return [f"boundread info {quoted}", f"boundread pages {quoted} 1-5{FIT}",
                f"boundread extract {quoted} --grep PATTERN --context 2{FIT}"]
    if kind in _LISTABLE:
        return [f"boundread list-zip {quoted} --max-entries {FIT_ENTRIES}", member(quoted)]
    if kind == sniff.TEXT and found.get("table"):  # rows with the header above them, not lines cut mid-record
        return [f"boundread info {quoted}", _rows(quoted, str(found.get("sheet") or ""), min(200, line_cap)),
                f"boundread extract {quoted} --grep PATTERN --context 2{FIT}"]
    if kind == sniff.TEXT and found.get("structured") == "jsonl":  # whole records, not lines cut at a char bound
        return [f"boundread info {quoted}", f"boundread extract {quoted} --rows 1-{min(200, line_cap)}{FIT}",
                f"boundread extract {quoted} --grep PATTERN{FIT}"]
    if kind == sniff.TEXT and found.get("structured") == "json":  # info lists the paths; --path . is pretty
        pretty = [f"boundread info {quoted}", f"boundread extract {quoted} --path .{FIT}"]
        lines = found.get("lines")
        return pretty + ([f"boundread extract {quoted} --grep PATTERN --context 2{FIT}"]
                         if isinstance(lines, int) and lines > 1 else [])  # a one-line JSON: grep gives all of it
    if kind == sniff.TEXT:
        return [f"boundread info {quoted}", f"boundread extract {quoted} --lines 1-{min(500, line_cap)}{FIT}",
                f"boundread extract {quoted} --grep PATTERN --context 2{FIT}"]
    if kind in (sniff.IMAGE, sniff.BINARY):
        return [f"boundread info {quoted}"]
    if kind == sniff.SQLITE:  # info lists the tables with their rows and columns; --sql reads bounded
        return [f"boundread info {quoted}", f"boundread sheets {quoted} TABLE --rows 1-50{FIT}",
                f"boundread extract {quoted} --sql 'SELECT ... LIMIT 50'{FIT}"]
    if kind in (sniff.PARQUET, sniff.ARROW) and found.get("encrypted"):  # no rows without the keys: info says so
        return [f"boundread info {quoted}"]
    if kind in (sniff.PARQUET, sniff.ARROW):  # info reads the footer (schema, rows); --rows decodes only their groups
        return [f"boundread info {quoted}", f"boundread sheets {quoted} --rows 1-50{FIT}"]
    return [f"boundread info {quoted}", f"boundread extract {quoted} --lines 1-200{FIT}"]


def _rows(quoted: str, sheet: str, rows: int) -> str:
    """``boundread sheets data.csv data --rows 1-200``: a CSV's one sheet (its stem; one that starts with ``-``
    goes last, after ``--``)."""
    if sheet.startswith("-"):
        return f"boundread sheets {quoted} --rows 1-{rows}{FIT} -- {quote(sheet)}"
    return f"boundread sheets {quoted} {quote(sheet)} --rows 1-{rows}{FIT}"


def member(quoted: str, name: str = "NAME") -> str:
    """The bounded read of one member of an archive."""
    return f"boundread extract {quoted} --member {name}{FIT}"


def display_path(given: str, absolute: str, cwd: str | None) -> str:
    """The shortest faithful spelling: relative to cwd when inside it, else as given; ``./-x`` for a path
    that starts with ``-``, so no suggested command takes it for an option."""
    shown = given
    if cwd is not None and os.path.isabs(given):
        if absolute == cwd:
            return "."
        inside = cwd.rstrip(os.sep) + os.sep
        shown = absolute[len(inside):] if absolute.startswith(inside) else given
    return operand(shown)


def operand(path: str) -> str:
    """``path`` as a command's operand: ``./-n.pdf`` for ``-n.pdf``, else as it is."""
    return "./" + path if path.startswith("-") else path


def compose(what: str, described: str, why: str, cmds: list[str], tail: str) -> str:
    """What was refused and the facts, why, the commands one per line, then what to do next. Over MAX_REASON
    (a long path is in each command), the closing advice goes before a command does: the first command is often
    ``info``, and a reason that names only it leaves the agent one more call from the read it needs."""
    text = ""
    for count in range(len(cmds), 0, -1):
        lines = "".join(f"  {c}\n" for c in cmds[:count])
        for closing in (tail, ""):
            text = f"{OPENING} - {what} ({described}): {why}.\nRun instead:\n{lines}{closing}".rstrip("\n")
            if len(text) <= MAX_REASON:
                return text
    return f"{OPENING} - {what}: {why}.\nRun instead:\n  {cmds[0]}" if cmds else text


def tail_for(kind: str) -> str:
    if kind in (sniff.IMAGE, sniff.BINARY):
        return "Its bytes are not useful as text; info says what it holds."
    if kind in _LISTABLE:
        return "Pick the members you need from the listing; ask the user if it is big."
    return ("They write to ./boundread-out/; read the output file in parts. If the file is big "
            "(over ~30 pages or 5 MB), ask the user which part they need first.")


def together(count: int, total: int, cap: int, first: str, over: bool = False) -> str:
    """The deny reason of a read of many files at once: each passes, all of them together do not."""
    many = f"over {count} files" if over else f"{count} files"
    what = f"reading {many} in one call ({human_bytes(total)} together)" if not over else \
        f"reading {many} in one call"
    word = quote(operand(first))
    cmds = [f"boundread info {word}", f"boundread extract {word} --lines 1-200{FIT}"]
    from boundread.guard.config import shown_size

    return compose(what, "each may be small", f"together they are over {shown_size(cap)}", cmds,
                   "Read fewer files per call, or a bounded part of each; ask the user which matter.")
