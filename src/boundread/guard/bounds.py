"""How much a bounding command prints: ``head``, ``tail``, ``sed``, ``awk``, ``dd``, ``xxd -l``...

Parsing only - the numbers as written, read from one command's arguments. ``decide`` checks a
Bound against the file and the configured caps: a bound is only a bound when what it lets through
fits them. Each reader answers a Reading (its files and its Bound, or no Bound when it prints its
input whole; ``filtered`` when it prints only the lines that match a pattern, as ``grep`` does), or
None when it prints no file content at all (``sed -i``, ``awk 'END{print NR}'``).
"""

from __future__ import annotations

# On the guard-check path of every shell tool call: no dataclasses, and re (with enum and functools,
# ~8 ms of start-up) only inside the sed and awk readers; re caches the patterns it compiles.
from boundread.guard.record import Record
from boundread.guard.scripts import FILTER, prints_any, prints_every_line, sed_bound, without_blocks

LINES, BYTES = "lines", "bytes"
#: Matching lines of a text file only (``grep -a``: of a binary one, its "lines" printed as text).
TEXT_MATCHES = "text-matches"
#: What a grep prints of a text file: the lines (or parts, ``-o``) that match; the Bound's ``grep`` says how it
#: matches, and guard/estimate.py sizes it from a sample of the file.
MATCHES = "matches"
#: Only the distinct lines of what came before pass (``sort -u``, ``sort | uniq -c``): guard/estimate.py counts
#: them in a sample - a grep -o of a few values repeated is a few lines, a log's lines are all distinct.
DISTINCT = "distinct"
#: ``count`` lines anywhere in the input, not next to each other (``sed -n '1p;$p'``): sized as that many of its
#: longest lines.
ANY_LINES = "any-lines"
#: A marker, no bound: the flow is what a gunzip printed of a gzip file (``zcat f.gz``), its text, not its bytes.
UNPACKED = "unpacked"
#: What a converter prints of a whole document (``pandoc memo.docx``): its text, which the document's XML bounds
#: when it is small (guard/doctext.py); no bound for any other file.
DOCUMENT = "document"
_SUFFIX = {"": 1, "c": 1, "w": 2, "b": 512, "kB": 1000, "K": 1024, "k": 1024, "KiB": 1024, "MB": 1000**2,
           "M": 1024**2, "MiB": 1024**2, "GB": 1000**3, "G": 1024**3, "GiB": 1024**3, "TB": 1000**4,
           "T": 1024**4, "TiB": 1024**4}
_HEAD_VALUES = {"-n": LINES, "--lines": LINES, "-c": BYTES, "--bytes": BYTES}
_TAIL_SKIP = {"-s", "--sleep-interval", "--pid", "--max-unchanged-stats"}
_LENGTH_FLAGS = {"xxd": ("-l", "-len"), "od": ("-N", "--read-bytes"), "hexdump": ("-n",), "hd": ("-n",)}
_AWK_VALUES = {"-F", "-v", "-f", "--field-separator", "--assign", "--file"}


class Grep(Record):
    """How a grep picks what it prints: its ``patterns`` (any one matches; none: every line, ``-f`` of a file
    not read) in ``syntax`` (``fixed``, ``basic``, ``extended`` or ``perl``), and its options: ``-i``, ``-v``,
    ``-o``, ``-w``, ``-x``, the context lines ``before``/``after``, whether each line carries its file's name
    (``names``) and its number (``numbers``), and ``compressed`` when it reads gzip (``zgrep``, ``rg -z``).
    ``decodes``: whether it reads a UTF-16 file with a BOM as text (rg does; GNU grep, ag and ack call it
    binary); None when the caller does not say, and guard/estimate.py takes ``perl`` syntax as rg's kind.
    ``piped``: it reads its stdin (``cat f | grep X``), so a command a reason names must name the file."""

    __slots__ = ("patterns", "syntax", "ignore_case", "invert", "only", "word", "line", "before",  # noqa: RUF023
                 "after", "names", "numbers", "compressed", "decodes", "piped")
    patterns: tuple[str, ...]
    syntax: str
    ignore_case: bool
    invert: bool
    only: bool
    word: bool
    line: bool
    before: int
    after: int
    names: bool
    numbers: bool
    compressed: bool
    decodes: bool | None
    piped: bool

    def __init__(self, patterns: tuple[str, ...], syntax: str = "basic", *, ignore_case: bool = False,
                 invert: bool = False, only: bool = False, word: bool = False, line: bool = False, before: int = 0,
                 after: int = 0, names: bool = False, numbers: bool = False, compressed: bool = False,
                 decodes: bool | None = None, piped: bool = False) -> None:
        self._init(patterns, syntax, ignore_case, invert, only, word, line, before, after, names, numbers,
                   compressed, decodes, piped)


class Bound(Record):
    """At most ``count`` lines or bytes (``unit``) after skipping ``skip`` of them, counted from the
    end of the input when ``from_end``. ``words`` is the bounding command as written, for reasons.
    A MATCHES bound has no count: ``grep`` says which lines pass."""

    __slots__ = ("unit", "count", "skip", "from_end", "words", "grep", "members")  # noqa: RUF023 - argument order
    unit: str
    count: int
    skip: int
    from_end: bool
    words: str
    grep: Grep | None
    members: tuple[str, ...]  # an UNPACKED mark's zip members (none: all of them)

    def __init__(self, unit: str, count: int, skip: int = 0, from_end: bool = False, words: str = "",
                 grep: Grep | None = None, members: tuple[str, ...] = ()) -> None:
        self._init(unit, count, skip, from_end, words, grep, members)


class Reading(Record):
    """The files a command prints (none: its stdin) and its Bound (None: all of each); ``filtered``
    when it prints only the lines that match a pattern, as grep does."""

    __slots__ = ("files", "bound", "filtered")  # noqa: RUF023 - field order = argument order
    files: tuple[str, ...]
    bound: Bound | None
    filtered: bool

    def __init__(self, files: tuple[str, ...], bound: Bound | None, filtered: bool = False) -> None:
        self._init(files, bound, filtered)


def count(text: str) -> tuple[str, int] | None:
    """``"+5"`` -> ``("+", 5)``; ``"1K"`` -> ``("", 1024)``; GNU coreutils suffixes; None if not a count."""
    text = text.strip()
    sign = text[:1] if text[:1] in ("+", "-") else ""
    body = text[len(sign):]
    digits = len(body) - len(body.lstrip("0123456789"))
    number, suffix = body[:digits], body[digits:]
    if not number or suffix not in _SUFFIX:
        return None
    return sign, int(number) * _SUFFIX[suffix]


def _shown(name: str, words: list[str]) -> str:
    text = " ".join([name, *words])
    return text if len(text) <= 60 else text[:57] + "..."


def reading(name: str, args: list[str]) -> Reading | None:
    """What ``name args`` prints, for the bounding programs; None when it prints no file content.
    Any other program also answers None."""
    if name == "head":
        return _head_tail(args, from_end=False)
    if name == "tail":
        return _head_tail(args, from_end=True)
    if name in ("sed", "gsed"):
        return _sed(name, args)
    if name in ("awk", "gawk", "mawk", "nawk"):
        return _awk(name, args)
    if name == "dd":
        return _dd(args)
    return None


READERS = frozenset({"head", "tail", "sed", "gsed", "awk", "gawk", "mawk", "nawk", "dd"})


def length_bound(name: str, args: list[str]) -> Bound | None:
    """``xxd -l N``, ``od -N N``, ``hexdump -n N``: the bytes they read."""
    flags = sorted(_LENGTH_FLAGS.get(name, ()), key=len, reverse=True)  # -len before -l
    for k, arg in enumerate(args):
        for flag in flags:
            if arg == flag or (arg.startswith(flag) and len(arg) > len(flag)):
                value = args[k + 1] if arg == flag and k + 1 < len(args) else arg[len(flag):].lstrip("=")
                parsed = count(value)
                if parsed is not None:
                    return Bound(BYTES, parsed[1], words=_shown(name, [flag, value]))
                return Bound(BYTES, 1 << 62, words=_shown(name, [flag, value]))  # not a number: no bound
    if name == "xxd":  # `xxd -s -32 f`: a seek back from the end, read to it - the last 32 bytes
        for k, arg in enumerate(args):
            back = args[k + 1] if arg in ("-s", "-seek") and k + 1 < len(args) else \
                arg[2:] if arg.startswith("-s-") else ""
            parsed = count(back[1:]) if back.startswith("-") else None
            if parsed is not None:
                return Bound(BYTES, parsed[1], from_end=True, words=_shown(name, ["-s", back]))
    return None


def _head_tail(args: list[str], *, from_end: bool) -> Reading:
    """``head``: the first 10 lines by default; ``tail``: the last 10; ``-n``/``-c`` with GNU suffixes."""
    name = "tail" if from_end else "head"
    unit, value, words = LINES, "10", []
    files: list[str] = []
    zero = False
    k = 0
    while k < len(args):
        arg = args[k]
        flag = arg.split("=", 1)[0] if arg.startswith("--") else arg[:2]
        if arg == "--":
            files.extend(args[k + 1:])
            break
        if flag in _HEAD_VALUES:
            unit = _HEAD_VALUES[flag]
            if arg.startswith("--") and "=" in arg:
                value = arg.split("=", 1)[1]
            elif len(arg) > 2 and not arg.startswith("--"):
                value = arg[2:]
            else:
                value, k = (args[k + 1] if k + 1 < len(args) else ""), k + 1
            words = [flag, value]
        elif len(arg) > 1 and arg[0] == "-" and arg[1:].isdigit():  # obsolete `head -20`
            unit, value, words = LINES, arg[1:], [arg]
        elif flag in _TAIL_SKIP and from_end:
            k += 0 if "=" in arg or (len(arg) > 2 and not arg.startswith("--")) else 1
        elif arg in ("-z", "--zero-terminated"):
            zero = True
        elif not arg.startswith("-") or arg == "-":
            files.append(arg)
        k += 1
    parsed = count(value)
    shown = _shown(name, words)
    if parsed is None or (unit == LINES and zero):
        return Reading(tuple(files), None)  # `head -n $N`, NUL-separated "lines": not a bound we can check
    sign, number = parsed
    if (sign == "-" and not from_end) or (sign == "+" and from_end):
        return Reading(tuple(files), None)  # all but the last N / from the Nth on: the rest of the file
    return Reading(tuple(files), Bound(unit, number, from_end=from_end, words=shown))


def _sed(name: str, args: list[str]) -> Reading | None:
    quiet = False
    scripts: list[str] = []
    operands: list[str] = []
    from_file = False
    k = 0
    while k < len(args):
        arg = args[k]
        if arg in ("-n", "--quiet", "--silent"):
            quiet = True
        elif arg.startswith(("-i", "--in-place")):
            return None  # edits in place: prints nothing
        elif arg in ("-e", "--expression"):
            scripts.append(args[k + 1] if k + 1 < len(args) else "")
            k += 1
        elif arg.startswith("--expression="):
            scripts.append(arg.split("=", 1)[1])
        elif arg in ("-f", "--file") or arg.startswith("--file="):
            from_file = True
            k += 0 if "=" in arg else 1
        elif arg in ("-l", "--line-length"):
            k += 1
        elif arg.startswith("-") and arg != "-" and not arg.startswith("--") and len(arg) > 2:
            letters = arg[1:]
            quiet |= "n" in letters
            if "i" in letters:
                return None
            if letters.endswith("e"):
                scripts.append(args[k + 1] if k + 1 < len(args) else "")
                k += 1
        elif not arg.startswith("-") or arg == "-":
            operands.append(arg)
        k += 1
    if not scripts and not from_file:
        if not operands:
            return None
        scripts, operands = [operands[0]], operands[1:]
    files = tuple(operands)
    if from_file:
        return Reading(files, None, filtered=quiet)
    script = "\n".join(scripts)
    if quiet and script.strip() == "$p":
        return Reading(files, Bound(LINES, 1, from_end=True, words=_shown(name, ["-n", "'$p'"])))
    bound = sed_bound(script, quiet)
    if bound is FILTER:
        return Reading(files, None, filtered=True)
    if bound is None:
        return Reading(files, None)
    words = _shown(name, [*(["-n"] if quiet else []), _quote(script)])
    first, end, last = bound
    if last:  # `sed -n '1p;$p'`: a few lines here and there - the last line is not next to the others
        return Reading(files, Bound(ANY_LINES, end - first + last, words=words))
    return Reading(files, Bound(LINES, end - first, first, words=words))


_NR = r"\bF?NR\s*"
_AWK_RANGE = (_NR + r"==\s*(\d+)\s*,\s*" + _NR + r"==\s*(\d+)",
              _NR + r">=?\s*(\d+)\s*&&\s*" + _NR + r"<=?\s*(\d+)")
_AWK_HEAD = (_NR + r"(<=|<)\s*(\d+)",
             _NR + r"(>=|>|==)\s*(\d+)\s*\)?\s*\{?[^}]*?\bexit\b")  # NR>5{exit}, if (NR==5) exit
_AWK_LINE = _NR + r"==\s*(\d+)"
_AWK_FROM = _NR + r">=?\s*\d+"  # `NR>1`: every line but the first few


def awk_operands(args: list[str]) -> tuple[str, list[str]] | None:
    """(the program, the files) of awk's arguments; None when the program is in a file (``-f``) or missing.
    The one reading of awk's command line: the summary, filter and whole-print models all start here."""
    import re

    program: str | None = None
    files: list[str] = []
    k = 0
    while k < len(args):
        arg = args[k]
        if arg in _AWK_VALUES:
            if arg in ("-f", "--file"):
                return None  # the program is in a file: not read here
            k += 1
        elif arg.startswith("-") and arg != "-":
            pass  # -F, -Ffs, -vvar=value, --field-separator=...: options with their value attached
        elif program is None:
            program = arg
        elif not re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", arg):  # `var=value` operands are assignments
            files.append(arg)
        k += 1
    return None if program is None else (program, files)


def _awk(name: str, args: list[str]) -> Reading | None:
    import re

    operands = awk_operands(args)
    if operands is None:
        return None
    program, files = operands
    rest = without_blocks(program)
    if re.search(r"(?<![=!<>~])=(?!=)[^;}(]*\$0\b", rest) and re.search(r"\bprint", program):
        return Reading(tuple(files), None)  # `{a[NR] = $0} END {for (...) print a[i]}`: keeps lines to print
    if not rest.strip(" \t\n;") or (not prints_any(rest) and "getline" not in program):
        return None  # output only in BEGIN/END (`NR>1 {sum += $5} END {printf ...}`): a summary, like wc
    shown = _shown(name, [_quote(program)])
    for pattern in _AWK_RANGE:
        match = re.search(pattern, rest)
        if match:
            first, last = int(match.group(1)), int(match.group(2))
            return Reading(tuple(files), Bound(LINES, max(0, last - first + 1), max(0, first - 1), words=shown))
    for pattern in _AWK_HEAD:
        match = re.search(pattern, rest)
        if match:
            number = int(match.group(2)) - (1 if match.group(1) == "<" else 0)
            return Reading(tuple(files), Bound(LINES, max(0, number), words=shown))
    match = re.search(_AWK_LINE, rest)
    if match:
        return Reading(tuple(files), Bound(LINES, 1, max(0, int(match.group(1)) - 1), words=shown))
    every = prints_every_line(rest) or re.search(_AWK_FROM, rest) is not None
    return Reading(tuple(files), None, filtered=not every)


def _dd(args: list[str]) -> Reading | None:
    """``dd if=F``: all of F unless ``count=`` bounds it (blocks of ``ibs``/``bs``, 512 by default)."""
    ops = {key: value for key, _, value in (arg.partition("=") for arg in args if "=" in arg)}
    if ops.get("of") not in (None, "/dev/stdout", "/dev/fd/1", "-"):
        return None  # written to a file
    files = (ops["if"],) if ops.get("if") else ()
    if "count" not in ops:
        return Reading(files, None)
    blocks, size = count(ops["count"]), count(ops.get("ibs") or ops.get("bs") or "512")
    if blocks is None or size is None:
        return Reading(files, None)
    in_bytes = "count_bytes" in ops.get("iflag", "")
    total = blocks[1] if in_bytes else blocks[1] * size[1]
    words = [f"{key}={ops[key]}" for key in ("bs", "ibs", "count") if key in ops]
    return Reading(files, Bound(BYTES, total, words=_shown("dd", words)))


def _quote(word: str) -> str:
    from boundread.guard.shellquote import quote

    return quote(word)
