"""Converters: programs that print a file's content in another form (``pandoc``, ``xlsx2csv``, csvkit,
``docx2txt``, ``markitdown``, ``pdf2txt``, ``mutool draw``, ``pdftohtml -stdout``, ``ssconvert``, ``mlr``,
``qsv``, ``textutil``, ``unoconv``, ``catdoc``, ``libreoffice --cat``).

What a converter prints is its input's text in another dress - a table, markdown, CSV, JSON - about as
long as that text, so it is judged as a print of the input file itself: a Word document is refused as a
Word document (with the ``boundread`` command that reads a part of it), a 1.5 MB CSV as a 1.5 MB text.
A converter told to write a file (``-o out.txt``, ``xlsx2csv in.xlsx out.csv``) prints nothing, but that
file then holds the text: a later ``cat out.txt`` is the same print (``reads.write``). Summaries (``csvstat``,
``mlr count``, ``qsv stats``) and filters (``csvgrep``, ``mlr filter``) print a part, as ``wc`` and ``grep`` do.
"""

from __future__ import annotations

from boundread.guard import bounds
from boundread.guard.shell.reads import files, write
from boundread.guard.shell.state import UNKNOWN, Env, Stream

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Ctx

PAGES = "pages"
#: csvkit's printers (csvgrep filters, csvstat summarises, csvsql runs a query: none of them prints a file).
_CSVKIT = frozenset({"in2csv", "csvlook", "csvcut", "csvsort", "csvstack", "csvjson", "csvformat", "csvjoin"})
_CSVKIT_VALUES = frozenset({"-c", "-C", "-d", "-q", "-e", "-f", "-s", "-K", "-y", "-z", "-b", "-p", "-g", "-n",
                            "--columns", "--not-columns", "--delimiter", "--quotechar", "--encoding", "--format",
                            "--sheet", "--skip-lines", "--snifflimit", "--maxfieldsize", "--escapechar",
                            "--groups", "--group-name", "--max-rows", "--max-columns", "--max-column-width",
                            "--max-precision", "--key", "--lat", "--lon", "--indent", "-i", "--locale",
                            "--blanks", "--date-format", "--datetime-format", "--null-value", "--outer"})
_PANDOC_VALUES = frozenset({"-f", "-r", "-t", "-w", "--from", "--to", "--read", "--write", "-M", "-V", "--metadata",
                            "--variable", "--template", "-F", "--filter", "-L", "--lua-filter", "--resource-path",
                            "--columns", "--reference-doc", "-c", "--css", "-H", "-B", "-A", "--data-dir",
                            "--extract-media", "--shift-heading-level-by", "--tab-stop", "--pdf-engine", "-D",
                            "--defaults", "-d", "--metadata-file", "--bibliography", "--csl", "--title-prefix"})
_XLSX2CSV_VALUES = frozenset({"-s", "--sheet", "-n", "--sheetname", "-d", "--delimiter", "-l", "--lineterminator",
                              "-q", "--quoting", "-f", "--dateformat", "-p", "--sheetdelimiter", "-I", "-E",
                              "--include_sheet_pattern", "--exclude_sheet_pattern", "-c", "--outputencoding",
                              "--floatformat", "--timeformat"})
#: Miller verbs and qsv/xsv commands whose output is a summary, a bounded part, or the rows that match.
_MLR_PARTS = frozenset({"head", "tail", "count", "count-distinct", "stats1", "stats2", "summary", "uniq",
                        "top", "histogram", "sample", "filter", "grep", "nothing", "merge-fields"})
_QSV_PARTS = frozenset({"count", "stats", "frequency", "headers", "slice", "search", "sample", "index",
                        "schema", "describegpt", "sniff", "luau", "split", "partition", "nrow", "ncol", "dim",
                        "summary", "freq", "grep", "filter", "filter2", "head", "corr", "watch", "plot", "inter",
                        "uniq", "view", "top"})
#: Converters that print each file operand (stdin when none) in another form, or write it to ``-o OUT``.
_SIMPLE = frozenset({"tsv-pretty", "catdoc", "catppt", "xls2csv", "antiword", "unrtf", "html2text", "docx2md",
                     "rtf2txt", "xlsx2txt", "pptx2txt", "cmark", "cmark-gfm", "markdown", "markdown_py", "md2html",
                     "marked", "rst2html", "rst2html.py", "rst2html5", "djvutxt", "ps2ascii", "epub2txt", "xsltproc"})
#: Text browsers, which print a page's text with ``-dump`` (a person's browser otherwise).
_BROWSERS = frozenset({"lynx", "w3m", "links", "elinks"})
_OFFICE = frozenset({"libreoffice", "soffice", "lowriter", "localc", "loimpress"})
PROGRAMS = _CSVKIT | _SIMPLE | _OFFICE | _BROWSERS | frozenset({
    "pandoc", "xlsx2csv", "docx2txt", "docx2txt.pl", "markitdown", "pdf2txt", "pdf2txt.py", "mutool",
    "pdftohtml", "pdftops", "ssconvert", "mlr", "miller", "qsv", "xsv", "csvtk", "xan", "textutil", "unoconv",
})
#: Output names that are the command's own stdout.
_STDOUT = frozenset({"-", "/dev/stdout", "fd://1", "/dev/fd/1", "/proc/self/fd/1"})


def run(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """What converter ``name`` prints: its inputs' content (judged as those files), or nothing when it
    writes them to a file - which then holds that content for a later read."""
    if name == "pandoc":
        inputs, out = _split(args, _PANDOC_VALUES, ("-o", "--output"))
        embeds = any(arg.startswith(("--embed-resources", "--self-contained")) for arg in args)  # images inline
        return _emit(name, inputs, out, env, ctx, stdin, whole=not embeds)
    if name == "xlsx2csv":
        names, _ = _split(args, _XLSX2CSV_VALUES, ())
        whole = any(arg in ("-a", "--all") for arg in args)
        out = names[1] if len(names) > 1 else None
        if whole and out not in (None, *_STDOUT):
            return Stream()  # a folder of CSV files, one a sheet: read back by name, not followed
        return _emit(name, names[:1], out, env, ctx, stdin)
    if name in _CSVKIT:
        return _csvkit(name, args, env, ctx, stdin)
    if name in ("docx2txt", "docx2txt.pl"):
        names, _ = _split(args, frozenset(), ())
        out = names[1] if len(names) > 1 else (names[0].rsplit(".", 1)[0] + ".txt"
                                                 if name == "docx2txt.pl" and names else None)
        return _emit(name, names[:1], out, env, ctx, stdin)
    if name in ("markitdown", "unoconv", "pdf2txt", "pdf2txt.py", "odt2txt"):
        return _with_output(name, args, env, ctx, stdin)
    if name in _OFFICE:
        return _office(name, args, env, ctx)
    if name == "mutool":
        return _mutool(args, env, ctx, stdin)
    if name in ("pdftohtml", "pdftops"):
        return _poppler(name, args, env, ctx, stdin)
    if name == "ssconvert":
        names, _ = _split(args, frozenset({"-T", "--export-type", "-O", "--export-options", "-S", "-I"}), ())
        return _emit(name, names[:1], names[1] if len(names) > 1 else "", env, ctx, stdin)
    if name in ("mlr", "miller"):
        return _mlr(name, args, env, ctx, stdin)
    if name in ("qsv", "xsv", "csvtk", "xan"):
        return _qsv(name, args, env, ctx, stdin)
    if name == "textutil":
        return _textutil(args, env, ctx, stdin)
    if name in _BROWSERS:
        if not any(arg in ("-dump", "--dump") for arg in args):
            return Stream()  # a person's browser: nothing printed for the agent
        names, _ = _split(args, frozenset({"-width", "-cols", "-o", "-T", "-I", "-O"}), ())
        return _emit(f"{name} -dump", names, None, env, ctx, stdin)
    values = frozenset({"-d", "-w", "-s", "--encoding", "--param", "--stringparam", "--path", "-x", "-t"})
    names, out = _split(args, values, ("-o", "--output"))
    if name == "xsltproc":
        names = names[1:]  # the stylesheet first, then the documents it transforms
    return _emit(name, names, out, env, ctx, stdin)


def _split(args: list[str], values: frozenset[str],
           outputs: tuple[str, ...]) -> tuple[list[str], str | None]:
    """(the operands, the output file an option in ``outputs`` names - None when there is none); an option in
    ``values`` takes the next word (``--to plain``), or its value after ``=`` (``--to=plain``)."""
    names: list[str] = []
    out: str | None = None
    k = 0
    while k < len(args):
        arg = args[k]
        key, eq, given = arg.partition("=")
        if arg == "--":
            names.extend(args[k + 1:])
            break
        if key in outputs:
            out, k = (given, k) if eq else ((args[k + 1] if k + 1 < len(args) else ""), k + 1)
        elif any(arg.startswith(flag) and len(arg) > len(flag) and len(flag) == 2 for flag in outputs):
            out = arg[2:]  # `-oout.txt`
        elif arg.startswith("-") and arg != "-":
            k += 1 if key in values and not eq else 0
        else:
            names.append(arg)
        k += 1
    return names, out


def _emit(name: str, inputs: list[str], out: str | None, env: Env, ctx: Ctx, stdin: Stream,
          bound: bounds.Bound | None = None, *, whole: bool = True) -> Stream:
    """The inputs' content, printed (``out`` None or stdout) or written to ``out``; no input: its stdin. With
    no bound, each input's text (``whole``: a small document's is bounded by its XML, bounds.DOCUMENT)."""
    reads = [n for n in inputs if n not in _STDOUT or n == "-"]
    if bound is None and whole:
        bound = bounds.Bound(bounds.DOCUMENT, 0, words=name)
    content = files(env, [n for n in reads if n != "-"], name, bound)
    if not reads or "-" in reads:
        content.add(Stream(stdin.named(name), ""))
    content.text, content.exact = "", False  # another form of the text, not its bytes
    if out is None or out in _STDOUT:
        return content
    if out and UNKNOWN not in out:
        write(env, ctx, out, content)
    return Stream()


def _csvkit(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    if name == "csvcut" and any(arg in ("-n", "--names") for arg in args):
        return Stream()  # the column names only
    names, _ = _split(args, _CSVKIT_VALUES, ())
    rows = _number(args, "--max-rows")
    bound = bounds.Bound(bounds.LINES, rows + 1, words=f"{name} --max-rows {rows}") if rows is not None else None
    columns = _value(args, "-c") or _value(args, "--columns")
    if name == "csvcut" and bound is None and columns and len(columns.split(",")) <= 3 and "-" not in columns:
        from boundread.guard.shell import summaries  # a column or three: `| sort | uniq -c` summarises them

        bound = bounds.Bound(summaries.FIELDS, 1 << 62, words=f"csvcut -c {columns}")
    return _emit(name, names, None, env, ctx, stdin, bound)


def _with_output(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``markitdown F [-o OUT]``, ``unoconv --stdout F``/``-o OUT``, ``pdf2txt F [-o OUT] [-m PAGES]``."""
    values = frozenset({"-f", "--format", "-e", "--export", "-d", "--doctype", "-p", "--page-numbers", "-m",
                        "--maxpages", "-t", "--output_type", "-c", "--codec", "-P", "--password", "-x", "--extension",
                        "--template", "-i", "--import", "-s", "--server", "--port", "-T", "--timeout",
                        "--docintel-endpoint", "-M", "--mime-type"})
    names, out = _split(args, values, ("-o", "--output", "--outfile", "--outputfile"))
    if name == "unoconv" and "--stdout" not in args:
        out = out or "."  # a file next to the input (or in the folder -o names): not followed
        return _emit(name, names, out, env, ctx, stdin) if not _folder(out, env) else Stream()
    pages = _number(args, "-m") or _number(args, "--maxpages")
    bound = bounds.Bound(PAGES, pages, words=f"{name} -m {pages}") if pages else None
    return _emit(name, names, out, env, ctx, stdin, bound)


def _office(name: str, args: list[str], env: Env, ctx: Ctx) -> Stream:
    """``libreoffice --cat F``: the text on stdout; ``--convert-to EXT [--outdir D] F``: D/F.EXT holds it."""
    values = frozenset({"--convert-to", "--outdir", "--infilter", "--print-to-file", "--printer-name", "-env"})
    names, _ = _split(args, values, ())
    if "--cat" in args:
        return _emit(name, names, None, env, ctx, Stream())
    target = _value(args, "--convert-to")
    if target is None:
        return Stream()
    folder = _value(args, "--outdir") or "."
    extension = target.split(":", 1)[0]
    for source in names[:16]:
        stem = source.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        _emit(name, [source], f"{folder.rstrip('/')}/{stem}.{extension}", env, ctx, Stream())
    return Stream()


def _mutool(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``mutool draw -F txt F [PAGES]`` prints the text (no ``-o``); ``convert``/``draw -o OUT`` write it."""
    if not args or args[0] not in ("draw", "convert", "show", "extract"):
        return Stream()
    values = frozenset({"-F", "-o", "-p", "-r", "-w", "-h", "-f", "-B", "-c", "-G", "-I", "-s", "-O", "-b", "-W",
                        "-H", "-S", "-U", "-X", "-K", "-D", "-i"})
    names, out = _split(args[1:], values - {"-o"}, ("-o",))
    if args[0] == "extract":
        return Stream()  # images and fonts, written as files
    if args[0] == "draw" and out is None and _value(args, "-F") not in ("txt", "text", "html", "xhtml", "stext",
                                                                         "trace", "ocr"):
        return Stream()  # an image format with no -o: nothing readable on stdout
    if args[0] == "show" and out is None:
        return _emit("mutool show", names[:1], None, env, ctx, stdin)
    pages = _pages(names[1:])
    bound = bounds.Bound(PAGES, pages, words="mutool draw " + " ".join(names[1:])) if pages else None
    return _emit(f"mutool {args[0]}", names[:1], out, env, ctx, stdin, bound)


def _poppler(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``pdftohtml -stdout F``, ``pdftops F -``: printed; otherwise written next to the input (not followed)."""
    values = frozenset({"-f", "-l", "-q", "-zoom", "-xml", "-enc", "-opw", "-upw", "-fmt", "-dataurls", "-paper",
                        "-paperw", "-paperh", "-r", "-level1", "-level2", "-level3", "-origpagesizes"})
    names, _ = _split(args, values - {"-q", "-xml", "-level1", "-level2", "-level3", "-origpagesizes"}, ())
    last = _number(args, "-l")
    bound = bounds.Bound(PAGES, max(0, last - (_number(args, "-f") or 1) + 1), words=f"{name} -l {last}") \
        if last is not None else None
    if name == "pdftohtml":
        return _emit(name, names[:1], None, env, ctx, stdin, bound) if "-stdout" in args else Stream()
    return _emit(name, names[:1], names[1] if len(names) > 1 else "", env, ctx, stdin, bound)


def _mlr(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``mlr [flags] VERB ... [then VERB ...] FILES``: the files are the operands that name one; a verb that
    keeps a part (``head``, ``count``, ``stats1``, ``filter``) makes the output that part."""
    words = [arg for arg in args if not arg.startswith("-")]
    verbs = {words[0]} | {words[k + 1] for k, word in enumerate(words[:-1]) if word == "then"} if words else set()
    if verbs & _MLR_PARTS or "-n" in args:
        return Stream()
    return _emit(name, _existing(words[1:], env), None, env, ctx, stdin)


def _qsv(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    if not args or args[0] in _QSV_PARTS or any(arg in ("-o", "--output") for arg in args):
        return Stream()
    return _emit(f"{name} {args[0]}", _existing(args[1:], env), None, env, ctx, stdin)


def _textutil(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``textutil -cat txt -stdout F``/``-convert txt -stdout F``: printed; ``-output OUT``: written."""
    values = frozenset({"-cat", "-convert", "-output", "-format", "-encoding", "-inputencoding", "-extension",
                        "-fontsize", "-font", "-title", "-author", "-subject", "-baseURL", "-timeout"})
    names, _ = _split(args, values, ())
    if "-info" in args or not ({"-cat", "-convert"} & set(args)):
        return Stream()
    out = None if "-stdout" in args else _value(args, "-output") or ""
    return _emit("textutil", names, out, env, ctx, stdin)


def _existing(words: list[str], env: Env) -> list[str]:
    """The words that name a file on disk or written earlier: a verb's own arguments (``sort -f name``) do not."""
    import os

    return [word for word in words if UNKNOWN not in word
            and (env.path(word) in env.writes or os.path.isfile(env.path(word)))]


def _folder(out: str, env: Env) -> bool:
    import os

    return UNKNOWN in out or os.path.isdir(env.path(out))


def _value(args: list[str], flag: str) -> str | None:
    for k, arg in enumerate(args):
        if arg == flag and k + 1 < len(args):
            return args[k + 1]
        if arg.startswith(flag + "="):
            return arg.split("=", 1)[1]
    return None


def _number(args: list[str], flag: str) -> int | None:
    given = _value(args, flag)
    parsed = bounds.count(given) if given is not None else None
    return parsed[1] if parsed is not None and not parsed[0] else None


def _pages(words: list[str]) -> int | None:
    """Pages in ``mutool``'s ranges (``1-5,8``); None when there are none or one runs to the end (``N``)."""
    total = 0
    for word in words:
        for part in word.split(","):
            ends = part.split("-")
            if not all(end.isdigit() for end in ends) or len(ends) > 2:
                return None
            total += int(ends[-1]) - int(ends[0]) + 1
    return total or None
