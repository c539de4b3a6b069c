"""What an interpreter's code prints of the files it names: ``python3 -c``, ``node -e``, ``perl -ne``, a heredoc.

The code is read, not run. It prints a file whole when it names the file (a string literal, or ``sys.argv[1]``
and its kin bound to the command's operands), opens, reads or converts it (``open``, ``.read()``,
``Document``, ``PdfReader``, ``load_workbook``, ``read_csv``, ``fileinput``...), and prints with no reducer in
the printing statement: a count or a length (``len``, ``sum``, ``Counter``, ``.length``), a slice (``[:20]``,
``[-10:]``, ``.slice(0, 3000)``, ``islice``), a line at a time (``readline()``), a ``head``. Aggregates and
slices are not dumps, nor are an archive's or folder's listing (``namelist()``, ``os.listdir``), a print to a
file (what code that never prints reads goes to the files it writes, kept for a later ``cat``), a count printed
after its loop, or a line filter (``if 'ERROR' in l``), sized as the grep it is (codeloops.py). A command the
code runs (``os.system``, ``subprocess.run([...])``, ``execSync``, perl's backticks) is walked as the shell would
run it; the SQL it runs on a SQLite file is sized as ``sqlite3``'s is (databases.py).
"""

from __future__ import annotations

import re

from boundread.guard.shell.codewords import LITERAL, REDUCED, literals, looks_like_path
from boundread.guard.shell.state import UNKNOWN, Env, Stream

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Ctx

_READ_ALL = re.compile(
    r"\.read\(\s*(-1)?\s*\)|\.readlines\(\s*\)|\.read_text\(|\.read_bytes\(|\bin\s+open\(|\*\s*open\(|copyfileobj|"
    r"readFileSync|readFile\(|createReadStream|Bun\.file|Deno\.readTextFile|Deno\.readFile|"
    r"\brequire\(\s*['\"][^'\"\n]*\.json['\"]\s*\)|"  # node: require('./data.json') is the parsed file
    r"Files\.(?:readAllBytes|readString|readAllLines|newBufferedReader)\(|"  # Java (jshell)
    r"File\.(read|readlines|foreach|binread)|IO\.(read|readlines|foreach|copy_stream|binread)|<\$?\w*>|\bslurp\b|"
    r"\$<|\bread_file\(|linecache\.getlines|\bfgets\(|\bfread\(|stream_get_contents|"
    r"(?:writelines|join|list|tuple|sorted|reversed|enumerate)\(\s*(?:io\.)?open\(|"
    r"(?:\bwith\s+|=\s*)(?:io\.|codecs\.|gzip\.|bz2\.|lzma\.)?open\(|"
    r"file_get_contents|\breadfile\(|fpassthru|\bfile\(|readLines\(|\.lines\(|\bjoin\(\s*['\"]['\"]\s*,\s*<|"
    r"io\.open|codecs\.open|\.readall\(|np\.fromfile|pd\.read_|\bread_(csv|excel|json|table|parquet)\(|"
    r"fileinput|mmap|:read\(|"
    r"Document\(|PdfReader\(|PdfFileReader\(|fitz\.open\(|pymupdf\.open\(|extract_text\(|pdfplumber\.open\(|"
    r"load_workbook\(|open_workbook\(|csv\.(reader|DictReader)\(|ZipFile\(|TarFile|tarfile\.open\(|"
    r"read\.(csv|csv2|table|delim)\(|readRDS\(|fromJSON\(|read_xlsx?\(|Presentation\(|docx2txt|textract|"
    r"mammoth|tabula|camelot|MarkItDown|pymupdf4llm|\bpartition\w*\(|read_epub\(|BeautifulSoup\(|rtf_to_text|"
    r"pyexcel|docx2python|pdftotext\.PDF|PdfDocument\(|ezodf|json\.load\(|yaml\.(safe_|full_)?load\(|"
    r"tomllib\.load\(|JSON\.parse\(|\.parse\(\s*['\"]")
#: A statement that prints: ruby's ``p x`` too, but not a variable ``p = ...`` set.
_PRINTS = re.compile(r"\bprint|\bputs\b|\bsay\b|stdout|console\.log|\becho\b|\bpp?\(|"
                     r"(?:^|[{;])\s*pp?\s(?!\s*[-+*/%&|^]?=)|"
                     r"readfile\(|fpassthru|pprint\(|writeLines\(|\.pipe\(|copy_stream|(?<!\.)\bwrite\(|\bcat\(|\bio\.write|"
                     r"\bdisplay\(|STDOUT|/dev/stdout|\bos\.write\(\s*1\b")
#: What lists a container's names, not its content: an archive's members, a folder's entries...
_NAMES = re.compile(r"\.namelist\(|\.infolist\(|\.getnames\(|\.getmembers\(|\blistdir\(|\bscandir\(|\bglob\(|"
                    r"\.iterdir\(|readdirSync\(")
#: A print to a file the code opened, not to stdout or stderr: ``print(line, file=out)``.
_TO_FILE = re.compile(r"\bfile\s*=\s*(?!sys\.std)[\w.]+\s*\)")
#: ... unless the same statement reads what they name.
_MEMBERS_READ = re.compile(r"\.read\(|\.open\((?!\s*['\"])|extractfile\(|\.extract|read_text\(|read_bytes\(|"
                           r"readFileSync\(|\bFile\.read\(|file_get_contents\(")  # each listed name's content
#: Data-frame readers (pandas, polars): printing a frame shows its first and last rows only...
_FRAMES = re.compile(r"\b(pd|pl|pandas|polars)\.read_\w+\(|\bread_(csv|excel|json|table|parquet)\(")
#: ... unless it is printed in full: as text, as records, row by row, or with the row limit lifted.
_FULL_FRAME = re.compile(r"to_string\(|to_csv\(|to_markdown\(|to_json\(|to_dict\(|to_html\(|to_records\(|"
                         r"\.values\b|tolist\(|iterrows|itertuples|max_rows|set_option|set_tbl_rows|write_csv\(|"
                         r"to_numpy\(|\.rows\(|to_dicts\(|iter_rows\(")
_STDIN_PRINTED = re.compile(
    r"(print|write|puts|console\.log|say|echo)\s*\(?\s*(sys\.stdin|process\.stdin|STDIN|<>|<STDIN>|\$stdin|\$_|"
    r"line|l|data|content|chunk|text|buf|s|input\(\))\b|copyfileobj\(\s*sys\.stdin|stdin\.pipe\(|"
    r"for\s+(\w+)\s+in\s+sys\.stdin\s*:\s*print|-p\b")
_STDIN = re.compile(r"sys\.stdin|process\.stdin|STDIN|<>|\$stdin|readFileSync\(\s*(0|['\"]/dev/stdin)|input\(|"
                    r"fileinput|php://stdin|ARGF")
#: The calls that run a command: its string (a shell script) or its list (an argv) follows.
_RUNS = re.compile(r"(?:os\.system|os\.popen|os\.exec\w*|os\.spawn\w*|pty\.spawn|subprocess\.\w+|"
                   r"\.(?:run|call|check_call|Popen)|\b(?:run|call|check_call|Popen)|\bcheck_output|\bgetoutput|"
                   r"\bgetstatusoutput|"
                   r"\bexecSync|\bexecFileSync|\bspawnSync|\bsystem|\bpassthru|\bshell_exec|IO\.popen|"
                   r"Open3\.\w+|\bpopen|\bexec)\s*\(\s*")
_LIST = re.compile(r"""\[\s*((?:(['"])[^'"\\\n]{0,4096}\2\s*,?\s*){1,64})\]""")
#: The rest of an argv given as arguments (``system("cat", "data.csv")``: perl, ruby, php, ``execl``).
_ARGS = re.compile(r"""\s*,\s*((?:(['"])[^'"\\\n]{0,4096}\2\s*,?\s*){1,64})\)""")
_BACKTICKS = re.compile(r"`([^`\n]{1,4096})`|%x\(([^)\n]{1,4096})\)")
_CONNECT = re.compile(r"""(?:connect|Database|sqlite3'\)\)|sqlite3"\)\))\s*\(\s*(['"])([^'"\n]{1,4096})\1""")
_SQL = re.compile(r"^\s*(select|with)\b", re.IGNORECASE)
_ARGV = {"python": (r"sys\.argv\[(\d+)\]", 1), "pypy": (r"sys\.argv\[(\d+)\]", 1),
         "node": (r"process\.argv\[(\d+)\]", 2), "bun": (r"(?:process|Bun)\.argv\[(\d+)\]", 2),
         "deno": (r"Deno\.args\[(\d+)\]", 0), "perl": (r"\$ARGV\[(\d+)\]", 0), "ruby": (r"\bARGV\[(\d+)\]", 0),
         "php": (r"\$argv\[(\d+)\]", 1), "Rscript": (r"commandArgs\([^)]*\)\[(\d+)\]", 1)}


#: Characters of interpreter code one step of the check's budget pays for: a 64 KB script costs 2,000 of its 20,000
#: steps, a 700 KB one in a here-document runs the budget out (it is refused as too big to check: write it to a
#: file) instead of taking 1.4-1.8 s of scans.
_CHARS_PER_STEP = 32


def prints(name: str, code: str, flags: str, operands: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """The stdout of ``code`` run by the interpreter ``name`` (with ``flags`` and ``operands``), given ``stdin``."""
    from boundread.guard.shell.reads import files

    ctx.step(len(code) // _CHARS_PER_STEP)  # the statement scans below are linear in the code, ~2 us a character
    if name.startswith("tclsh"):
        return _tcl(code, env, name)
    code = _bind_argv(name, code, operands, inline="e" in flags or "p" in flags)
    code = _bind_env(code, env) if "ENV" in code.upper() else code
    out = Stream()
    line_loop = ("p" in flags or "n" in flags) and name.startswith(("perl", "ruby"))
    selective = re.search(r"\bif\b|\bnext\s+unless\b|\bEND\b|\blast\b|\bexit\b|\$\.", code) is not None
    every_line = line_loop and ("p" in flags or (re.search(r"\b(print|say|puts)\b", code) is not None
                                                 and not selective))
    matched = _line_filter(code) if line_loop and "p" not in flags else None
    if matched is not None:  # `perl -ne 'print if /ERROR/'`: the lines that match, as grep prints them
        return _filtered(name, code, (matched[0], "perl", *matched[1:]), [o for o in operands if o != "-"], env, stdin)
    grep = _grep(code, name) if not line_loop and _READ_ALL.search(code) else None
    if grep is not None:  # `[print(l) for l in open(f) if 'ERROR' in l]`: the lines that match, as grep prints
        names = [lit for lit in literals(code) if lit not in {m.group(2) for m in _CONNECT.finditer(code)}]
        found = _filtered(name, code, grep, names, env, stdin)
        found.add(_commands(name, code, env, ctx))
        return found
    node_print = name.startswith(("node", "bun", "deno")) and "p" in flags and not REDUCED.search(code)
    whole = _prints_whole(code, name) or node_print
    if whole and not node_print and _frames_only(code):
        whole = False  # `print(pd.read_csv(f))`: pandas shows 10 rows and 10, polars 10
    if every_line:
        out.add(files(env, [o for o in operands if o != "-"], name))
    elif whole and (_READ_ALL.search(code) or node_print):
        databases = {match.group(2) for match in _CONNECT.finditer(code)}
        named = [match.group(2) for match in LITERAL.finditer(code)][:64]
        from boundread.guard.shell import codemembers

        member = codemembers.printed(name, code, env, _dumping(code, name))
        if member is not None:  # `d = json.load(open(f)); print(d['count'])`: those members, as jq prints them
            from boundread.guard import bounds

            source, most = member
            named = [lit for lit in named if lit != source]
            out.add(files(env, [source], name, bounds.Bound(bounds.BYTES, most, words=f"{name}: members of it")))
        out.add(files(env, [lit for lit in named if looks_like_path(lit) and lit not in databases], name))
        out.add(files(env, _listed(code, env, ctx), name))  # `for f in glob.glob('logs/*.log'): print(open(f)...`
        if (name.startswith(("perl", "ruby")) and ("<>" in code or "$<" in code)) or "ARGF" in code \
                or "fileinput" in code:
            out.add(files(env, [o for o in operands if o != "-" and not o.startswith("-")], name))
    elif _READ_ALL.search(code):
        _written(name, code, env, ctx)
    out.add(_commands(name, code, env, ctx))
    out.add(_sql(name, code, env, ctx))
    if stdin.flows and ((every_line and not operands) or (_STDIN.search(code) and _STDIN_PRINTED.search(code))):
        out.flows.extend(stdin.named(name))
    return out


#: A listing the code loops over: a glob (``glob.glob('logs/*.log')``, ``Path('docs').rglob('*.txt')``, ruby's
#: ``Dir.glob``, perl's and php's ``glob``) or a folder's entries (``os.listdir('logs')``, ``readdirSync('logs')``).
_LISTING = re.compile(
    r"""(?P<call>glob\.i?glob|\bglob|Dir\.glob|Dir\[|\.r?glob|os\.listdir|os\.scandir|readdirSync|readdir|"""
    r"""Dir\.(?:children|entries)|scandir|\.iterdir)\(?\s*(?P<q>['"])(?P<lit>[^'"\n]{1,1024})(?P=q)""")
_PATH_OF = re.compile(r"""Path\(\s*(['"])([^'"\n]{1,1024})\1\s*\)\s*$""")


def _listed(code: str, env: Env, ctx: Ctx) -> list[str]:
    """The files the listings in ``code`` give, expanded against the cwd as the shell's globs are (at most
    FANOUT of them; a listing past that is capped, and said so)."""
    from boundread.guard.shell.state import FANOUT
    from boundread.guard.shell.words import glob

    found: list[str] = []
    for match in list(_LISTING.finditer(code))[:16]:
        call, lit = match.group("call"), match.group("lit")
        if call in (".glob", ".rglob", ".iterdir"):  # pathlib: the folder is the Path(...) before the call
            folder = _PATH_OF.search(code[:match.start()])
            if folder is None:
                continue
            base = folder.group(2).rstrip("/") + "/"
            word = base + ("**/" if call == ".rglob" else "") + (lit if call != ".iterdir" else "*")
        elif call in ("os.listdir", "os.scandir", "readdirSync", "readdir", "Dir.children", "Dir.entries",
                      "scandir"):
            word = lit.rstrip("/") + "/*"
        else:
            word = lit
        if not any(ch in word for ch in "*?["):
            continue
        found.extend(glob(word, env, ctx, globstar="**" in word))
    return found[:FANOUT]


_TCL_OPEN = re.compile(r"""\[\s*open\s+(?:"([^"\n]{1,4096})"|\{([^}\n]{1,4096})\}|([^\s\]"{};$\[]{1,4096}))""")
_TCL_READS = re.compile(r"\[\s*read\s|\bgets\s+\$\w+\s+\w+|\bfcopy\b")
_TCL_REDUCED = re.compile(r"\bllength\b|\bstring\s+(?:length|range)\b|\blrange\b|\blindex\b|\bincr\b|"
                          r"\bregexp\b|\bstring\s+match\b|\bif\b")


def _tcl(code: str, env: Env, name: str) -> Stream:
    """Tcl: ``puts [read [open big.log]]``, ``while {[gets $f line] >= 0} {puts $line}`` print the files they open
    (named bare, quoted or braced); a count, a range or a condition on the lines (``llength``, ``string range``,
    ``if``) is not a dump. What else Tcl code does is not read here."""
    from boundread.guard.shell.reads import files

    if "puts" not in code or not _TCL_READS.search(code) or _TCL_REDUCED.search(code):
        return Stream()
    named = [next(part for part in match.groups() if part) for match in _TCL_OPEN.finditer(code)][:64]
    return files(env, named, name)


_FILTER = re.compile(r"^\s*(?:(?:print|say|puts)(?:\s+\$_)?\s+(if|unless)|next\s+(if|unless))\s+(?:\$_\s*=~\s*)?"
                     r"/((?:[^/\\\n]|\\.){1,1024})/([a-z]*)\s*(?:;\s*(?:print|say|puts)(?:\s+\$_)?)?\s*;?\s*$")


def _line_filter(code: str) -> tuple[str, bool, bool] | None:
    """(the pattern, inverted, ignoring case) of a line loop that prints the lines a regex picks: ``print if /RE/``,
    ``print unless /RE/``, ``next unless /RE/; print``; None for any other code."""
    found = _FILTER.match(code)
    if found is None or (found.group(2) and not re.search(r";\s*(print|say|puts)", code)):
        return None
    keep, skip = found.group(1), found.group(2)
    invert = keep == "unless" if keep else skip == "if"
    return found.group(3), invert, "i" in found.group(4)


def _filtered(name: str, code: str, matched: tuple[str, str, bool, bool], names: list[str], env: Env,
              stdin: Stream) -> Stream:
    """The lines a line loop prints (perl's, ruby's, a python comprehension's), as a grep's matches (decide
    estimates them from a sample): of the files named, else of stdin."""
    from boundread.guard import bounds
    from boundread.guard.shell.reads import bounded, files

    pattern, syntax, invert, fold = matched
    flag = "-ne" if name.startswith(("perl", "ruby")) else "-c" if name.startswith(("python", "pypy")) else "-e"
    words = f"{name} {flag} {code.strip()!r}"
    bound = bounds.Bound(bounds.MATCHES, 0, words=words if len(words) <= 80 else words[:77] + "...",
                         grep=bounds.Grep((pattern,), syntax, ignore_case=fold, invert=invert))
    return files(env, names, name, bound) if names else bounded(stdin, bound, name)


_WRITE_TO = re.compile(r"""\bopen\(\s*(['"])([^'"\n]{1,4096})\1\s*,\s*(?:mode\s*=\s*)?['"][wax]|"""
                       r"""\bPath\(\s*(['"])([^'"\n]{1,4096})\3\s*\)\s*\.write_(?:text|bytes)\(|"""
                       r"""(?:File\.write|writeFileSync|fs\.writeFile|file_put_contents)\(\s*(['"])([^'"\n]{1,4096})\5""")


def _written(name: str, code: str, env: Env, ctx: Ctx) -> None:
    """Code that prints nothing sends what it reads to the files it opens for writing: each keeps the files it
    reads, for a later ``cat`` of it (``open('out.txt', 'w').write(open('big.txt').read())``)."""
    from boundread.guard.shell.reads import files, write

    targets = [found.group(2) or found.group(4) or found.group(6) for found in _WRITE_TO.finditer(code)][:16]
    sources = [lit for lit in literals(code) if lit not in targets and lit not in
               {found.group(2) for found in _CONNECT.finditer(code)}]
    if targets and sources:
        read = files(env, sources, name)
        for target in targets:
            write(env, ctx, target, read)


def _frames_only(code: str) -> bool:
    """Are all the code's reads data-frame reads, printed as frames (truncated), not in full?"""
    if _FULL_FRAME.search(code) or not _FRAMES.search(code):
        return False
    return all(_FRAMES.search(code[max(0, hit.start() - 8):hit.end() + 40]) for hit in _READ_ALL.finditer(code))


#: One element by its index (``pages[0]``, ``lines[-1]``, ``items[0]``): one, unless the statement loops.
_INDEX = re.compile(r"\[\s*-?\d+\s*\]|\bnext\(|\.first\b|\.last\b")
_LOOPS = re.compile(r"\bfor\b|\.map\(|\.forEach\(|\beach\b|\bwhile\b")
#: A slice an ``if`` compares: ``... for m in parts if m[:1] == b'x'`` picks which items print, it cuts none of them
#: (``print(d[:4] == b'%PDF')`` prints a comparison: that slice stays a reducer).
_TESTED = re.compile(r"\bif\s+(?:not\s+)?[\w.]+\[\s*-?\d*\s*:\s*-?\d*\s*\]\s*(?:==|!=)")


def _prints_whole(code: str, name: str) -> bool:
    """Does a statement of ``code`` print with no reducer in it? (A statement: to a ``;`` or a line's end.)"""
    return bool(_dumping(code, name))


def _dumping(code: str, name: str) -> list[tuple[str, int]]:
    """The statements of ``code`` (each with where it starts) that print with no reducer: no aggregate, slice,
    single element or list of names in them, and not a print of counted numbers (codeloops.py)."""
    from boundread.guard.shell import codeloops

    found: list[tuple[str, int]] = []
    known = codeloops.numbers(code) if "=" in code else set()
    python = name.startswith(("python", "pypy"))
    for match in re.finditer(r"[^;\n]+", code):
        part = match.group(0)
        if not _PRINTS.search(part) or REDUCED.search(_TESTED.sub("", part)) or (
                _INDEX.search(part) and not _LOOPS.search(part)):
            continue
        if _TO_FILE.search(part) and "stdout" not in part:
            continue  # `print(line, file=out)`
        if _NAMES.search(part) and not _MEMBERS_READ.search(part):
            continue  # `print(zipfile.ZipFile(f).namelist())`
        if codeloops.prints_numbers(part, code, match.start(), known, python=python):
            continue  # `n = 0` ... `n += 1` ... `print(n)`
        found.append((part, match.start()))
        if len(found) >= _MANY:
            break
    return found


_MANY = 64  # dumping statements looked at: more say the same


def _grep(code: str, name: str) -> tuple[str, str, bool, bool] | None:
    """The one condition (as a grep) that picks every line the code prints whole, if there is one:
    ``[print(l) for l in open(f) if 'ERROR' in l]``."""
    from boundread.guard.shell import codeloops

    parts = _dumping(code, name)
    if any(_READ_ALL.search(codeloops.printed(part)) for part, _ in parts):
        return None  # `if f.startswith('big'): print(open(f).read())` prints files, not lines
    picked = {codeloops.condition(part, code, start) for part, start in parts}
    return picked.pop() if len(picked) == 1 and None not in picked else None


def _bind_argv(name: str, code: str, operands: list[str], *, inline: bool) -> str:
    """``sys.argv[1]``, ``process.argv[2]``, ``$ARGV[0]``... replaced by the operand they name, as a literal."""
    found = _ARGV.get(name.rstrip("0123456789."))
    if found is None or not operands:
        return code
    pattern, first = found
    if inline and name.startswith(("node", "bun")):
        first = 1  # `node -e CODE a`: process.argv is [node, a]

    def operand(match: re.Match[str]) -> str:
        at = int(match.group(1)) - first
        word = operands[at] if 0 <= at < len(operands) else ""
        return repr(word) if word and UNKNOWN not in word and "'" not in word else match.group(0)

    return re.sub(pattern, operand, code)


#: An environment variable read by name: ``os.environ['F']``, ``os.environ.get('F')``, ``os.getenv('F')``,
#: ``process.env.F``, ``process.env['F']``, perl's ``$ENV{F}``, ruby's ``ENV['F']``.
_ENVIRON = re.compile(r"""os\.environ\[\s*(?P<q1>['"])(?P<v1>\w+)(?P=q1)\s*\]|"""
                      r"""os\.(?:environ\.get|getenv)\(\s*(?P<q2>['"])(?P<v2>\w+)(?P=q2)\s*(?:,[^()]*)?\)|"""
                      r"""process\.env\.(?P<v3>\w+)|process\.env\[\s*(?P<q4>['"])(?P<v4>\w+)(?P=q4)\s*\]|"""
                      r"""\$ENV\{\s*['"]?(?P<v5>\w+)['"]?\s*\}|(?<![\w.])ENV\[\s*(?P<q6>['"])(?P<v6>\w+)(?P=q6)\s*\]""")


def _bind_env(code: str, env: Env) -> str:
    """The environment variables the code reads, replaced by what the shell set them to (a prefix ``F=big.log``, an
    ``export``), as literals; one not known here stays as written."""

    def value(match: re.Match[str]) -> str:
        name = next(group for group in (match.group(f"v{k}") for k in range(1, 7)) if group)
        found = env.vars.get(name)
        return repr(found) if found and UNKNOWN not in found and "'" not in found else match.group(0)

    return _ENVIRON.sub(value, code)


def _commands(name: str, code: str, env: Env, ctx: Ctx) -> Stream:
    """What the commands the code runs print: each walked as its shell would run it (a string) or as an argv."""
    out = Stream()
    for match in list(_RUNS.finditer(code))[:16]:
        before = code[:match.start()]
        if REDUCED.search(before[max(before.rfind(";"), before.rfind("\n")) + 1:]):
            continue  # `print(len(subprocess.check_output([...])))`
        rest = code[match.end():match.end() + 4200]
        listed = _LIST.match(rest)
        if listed is not None:
            argv = [lit.group(2) for lit in LITERAL.finditer(listed.group(1))]
            if argv and all(UNKNOWN not in word for word in argv):
                out.add(ctx.command(argv, env.copy(), Stream()))
            continue
        literal = LITERAL.match(rest)
        if literal is None or UNKNOWN in literal.group(2):
            continue
        then = _LIST.match(rest[literal.end():].lstrip(" ,"))  # `os.execvp('cat', ['cat', f])`, `spawnSync('cat', [f])`
        then = then or _ARGS.match(rest, literal.end())  # `system("cat", "data.csv")`
        if then is not None:
            argv = [literal.group(2), *(lit.group(2) for lit in LITERAL.finditer(then.group(1)))]
            if all(UNKNOWN not in word for word in argv):
                out.add(ctx.command(argv, env.copy(), Stream()))
            continue
        out.add(ctx.shell(_unescaped(literal.group(2)), env.copy(), Stream()))
    if name.startswith(("perl", "ruby", "php")):
        for match in list(_BACKTICKS.finditer(code))[:16]:
            out.add(ctx.shell(match.group(1) or match.group(2), env.copy(), Stream()))
    return out


def _sql(name: str, code: str, env: Env, ctx: Ctx) -> Stream:
    """The SQL the code runs on the SQLite file it connects to: its queries (when a statement prints their rows
    whole) and ``iterdump``, sized on the database (databases.py)."""
    found = _CONNECT.search(code)
    if found is None:
        return Stream()
    from boundread.guard.shell import databases

    queries = [lit.group(2) for lit in LITERAL.finditer(code) if _SQL.match(lit.group(2))]
    commands = [query for query in queries if not REDUCED.search(query)] if _prints_whole(code, name) else []
    if "iterdump" in code and _prints_whole(code, name):
        commands.append(".dump")
    return databases.statements(env, ctx, found.group(2), commands, name) if commands else Stream()


def _unescaped(text: str) -> str:
    return text.replace("\\'", "'").replace('\\"', '"')
