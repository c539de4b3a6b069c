"""Which files a shell command would print into the conversation, or unpack.

A small POSIX-shell tokenizer (quotes, escapes, ``$(...)``, backticks, here-documents, operators),
then pipelines split on ``|``, lists on ``&& || ; & newline`` and sub-shells ``( )``. A stage's
output is safe when it goes to a file or through a bounding stage (``| head``, ``| wc``,
``| grep -c``); ``bash -c '...'`` and substitutions are parsed recursively. A bounding reader or
stage (``head -c N``, ``sed -n A,Bp``, ``| head -n N``...) gives the use its Bounds (``bounds.py``);
whether they are small enough for the file is for ``decide`` to say.
"""

from __future__ import annotations

# On the guard-check path for every shell tool call: no dataclasses (~10 ms of start-up with the
# inspect module it imports); FileUse is a Record, _Stage a plain class.
import re

from boundread.guard import bounds
from boundread.guard.bounds import Bound
from boundread.guard.record import Record

PRINT, UNPACK = "print", "unpack"
MAX_DEPTH = 4
_OPERATORS = ("&>>", "<<<", "<<-", "&&", "||", ";;", "|&", ">>", "<<", "&>", ">&", "<&", ">|", "<>",
              "|", "&", ";", "(", ")", "<", ">", "\n")
_SEPARATORS = {"&&", "||", ";;", "&", ";", "(", ")", "\n"}
_REDIRECT = re.compile(r"^(\d*)(&>>|<<<|<<-|>>|<<|&>|>&|<&|>\||<>|<|>)$")
_VISIBLE_TARGETS = {"/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2", "1", "2"}
_DUMPERS = {"cat", "tac", "nl", "less", "more", "most", "bat", "batcat", "strings", "base64", "base32",
            "xxd", "od", "hexdump", "hd", "zcat", "gzcat", "bzcat", "xzcat", "lzcat", "zstdcat", "zless",
            "zmore", "pv"}
_LIMITERS = {"wc", "file", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum",
             "sha512sum", "b2sum", "cksum", "sum", "boundread", "true", ":", "cmp", "shasum", "md5"}
_GREPS = {"grep", "egrep", "fgrep", "rg", "ag"}
_GREP_BOUNDS = re.compile(r"^-(?:[a-zA-Z]*[clLqm][a-zA-Z0-9]*)$|"
                          r"^--(count|quiet|silent|files-with(out)?-matches|max-count)(=.*)?$")
_WRAPPERS = {"sudo", "env", "time", "nohup", "nice", "command", "exec", "builtin", "stdbuf", "timeout",
             "ionice", "doas", "caffeinate"}
_WRAPPER_VALUES = {"sudo": {"-u", "-g", "-p", "-C", "-D", "-h", "-r", "-t", "-U"}, "doas": {"-u", "-C"},
                   "env": {"-u", "-C", "-S"}, "nice": {"-n"}, "timeout": {"-s", "-k"}, "ionice": {"-c", "-n"},
                   "stdbuf": {"-i", "-o", "-e"}}
_SHELLS = {"sh", "bash", "zsh", "dash", "ksh"}
_PY_OPEN = re.compile(r"""(?:\bopen|Path)\(\s*[rRbBuUfF]{0,2}(['"])(.+?)\1""")
_PY_UNBOUNDED = re.compile(r"\.read\(\s*\)|\.readlines\(\s*\)|\.read_text\(|\.read_bytes\(|"
                           r"for\s+\w+\s+in\s+open\(|shutil\.copyfileobj")


class FileUse(Record):
    """``action``: PRINT (its content reaches the output) or UNPACK (an archive is extracted).
    ``program`` is the command as a reason shows it; ``bounds`` are the limits on what is printed
    (any one of them holds; none: the whole file)."""

    __slots__ = ("action", "path", "program", "bounds")  # noqa: RUF023 - field order = argument order
    action: str
    path: str
    program: str
    bounds: tuple[Bound, ...]

    def __init__(self, action: str, path: str, program: str, bounds: tuple[Bound, ...] = ()) -> None:
        self._init(action, path, program, bounds)


class _Stage:
    """One command of a pipeline, with its redirections; filled in while parsing."""

    __slots__ = ("argv", "stdin", "stdout")

    def __init__(self) -> None:
        self.argv: list[str] = []
        self.stdin: str | None = None
        self.stdout: str | None = None


def tokenize(text: str) -> tuple[list[tuple[str, bool]], list[str]]:
    """Words and operators ``(text, is_operator)``, plus the bodies of ``$(...)`` and backticks."""
    tokens: list[tuple[str, bool]] = []
    subs: list[str] = []
    heredocs: list[str] = []
    word: list[str] | None = None
    i, n = 0, len(text)

    def flush() -> None:
        nonlocal word
        if word is not None:
            tokens.append(("".join(word), False))
            word = None

    while i < n:
        ch = text[i]
        if ch == "\n" and heredocs:
            flush()
            tokens.append(("\n", True))
            i = _skip_heredocs(text, i + 1, heredocs)
            heredocs = []
            continue
        if ch in " \t":
            flush()
            i += 1
        elif ch == "#" and word is None:
            while i < n and text[i] != "\n":
                i += 1
        elif ch == "\\":
            if i + 1 < n and text[i + 1] != "\n":
                word = [*(word or []), text[i + 1]]
            i += 2
        elif ch == "'":
            end = text.find("'", i + 1)
            end = n if end < 0 else end
            word = [*(word or []), text[i + 1:end]]
            i = end + 1
        elif ch == '"':
            i, part = _double_quoted(text, i + 1, subs)
            word = [*(word or []), part]
        elif ch == "$" and text.startswith("$(", i) and not text.startswith("$((", i):
            end = _matching_paren(text, i + 2)
            subs.append(text[i + 2:end])
            word = [*(word or []), text[i:end + 1]]
            i = end + 1
        elif ch == "`":
            end = text.find("`", i + 1)
            end = n if end < 0 else end
            subs.append(text[i + 1:end])
            word = [*(word or []), text[i:end + 1]]
            i = end + 1
        else:
            op = next((o for o in _OPERATORS if text.startswith(o, i)), None)
            if op is None:
                word = [*(word or []), ch]
                i += 1
                continue
            prefix = "".join(word) if word is not None and "".join(word).isdigit() and op[0] in "<>" else ""
            if not prefix:
                flush()
            word = None
            tokens.append((prefix + op, True))
            i += len(op)
            if op in ("<<", "<<-"):
                delim = re.match(r"\s*(['\"]?)([^\s'\";|&<>()]+)\1", text[i:])
                if delim:
                    heredocs.append(delim.group(2))
    flush()
    return tokens, subs


def _skip_heredocs(text: str, i: int, delims: list[str]) -> int:
    for delim in delims:
        while i < len(text):
            end = text.find("\n", i)
            line = text[i:] if end < 0 else text[i:end]
            i = len(text) if end < 0 else end + 1
            if line.strip() == delim:
                break
    return i


def _double_quoted(text: str, i: int, subs: list[str]) -> tuple[int, str]:
    out: list[str] = []
    while i < len(text) and text[i] != '"':
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in '"\\$`':
            out.append(text[i + 1])
            i += 2
            continue
        if text.startswith("$(", i) and not text.startswith("$((", i):
            end = _matching_paren(text, i + 2)
            subs.append(text[i + 2:end])
            out.append(text[i:end + 1])
            i = end + 1
            continue
        if text[i] == "`":
            end = text.find("`", i + 1)
            end = len(text) if end < 0 else end
            subs.append(text[i + 1:end])
        out.append(text[i])
        i += 1
    return i + 1, "".join(out)


def _matching_paren(text: str, i: int) -> int:
    depth, quote = 1, ""
    while i < len(text):
        ch = text[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text)


def pipelines(text: str, depth: int = 0) -> list[list[_Stage]]:
    """The pipelines of ``text`` (sub-shell and substitution bodies included as their own)."""
    tokens, subs = tokenize(text)
    found: list[list[_Stage]] = []
    current: list[_Stage] = [_Stage()]
    k = 0
    while k < len(tokens):
        value, is_op = tokens[k]
        redirect = _REDIRECT.match(value) if is_op else None
        if redirect:
            fd, op = redirect.groups()
            target = tokens[k + 1][0] if k + 1 < len(tokens) and not tokens[k + 1][1] else None
            k += 2 if target is not None else 1
            if target is None or op in ("<<", "<<-", "<<<"):
                continue
            if op in ("<", "<>") and fd in ("", "0"):
                current[-1].stdin = target
            elif op in ("&>", "&>>") or (fd in ("", "1") and op in (">", ">>", ">|", ">&")):
                current[-1].stdout = None if target in _VISIBLE_TARGETS else target
            continue
        if is_op and value in ("|", "|&"):
            current.append(_Stage())
        elif is_op and value in _SEPARATORS:
            found.append(current)
            current = [_Stage()]
        else:
            current[-1].argv.append(value)
        k += 1
    found.append(current)
    result = [[stage for stage in line if stage.argv or stage.stdin] for line in found]
    if depth < MAX_DEPTH:
        for body in subs:
            result.extend(pipelines(body, depth + 1))
    return [line for line in result if line]


def _base(word: str) -> str:
    return word.rsplit("/", 1)[-1]


def _unwrap(argv: list[str]) -> list[str]:
    """Drop VAR=value prefixes and wrappers such as sudo, env, time, nohup, timeout 5."""
    while argv:
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", argv[0]):
            argv = argv[1:]
        elif _base(argv[0]) in _WRAPPERS:
            name, argv = _base(argv[0]), argv[1:]
            while argv and (argv[0].startswith("-") or (name == "timeout" and argv[0][:1].isdigit())):
                takes_value = argv[0] in _WRAPPER_VALUES.get(name, ())
                argv = argv[2:] if takes_value else argv[1:]
        else:
            return argv
    return argv


def file_uses(text: str, depth: int = 0) -> list[FileUse]:
    """Every file the command prints where the agent sees it, or unpacks."""
    uses: list[FileUse] = []
    for line in pipelines(text, depth):
        for index, stage in enumerate(line):
            argv = _unwrap(stage.argv)
            if not argv:
                continue
            name = _base(argv[0])
            if name in _SHELLS and depth < MAX_DEPTH:
                script = _shell_script(argv)
                if script is not None:
                    uses.extend(file_uses(script, depth + 1))
                continue
            for action, path, own in _stage_uses(name, argv, stage):
                if action == UNPACK:
                    uses.append(FileUse(action, path, name))
                    continue
                after = _downstream(line, index)
                if after is not None:
                    found = ((own,) if own else ()) + after
                    shown = " | ".join([own.words if own else name, *(b.words for b in after)])
                    uses.append(FileUse(action, path, shown, found))
    return uses


def _shell_script(argv: list[str]) -> str | None:
    for k, arg in enumerate(argv[1:], start=1):
        if arg.startswith("-") and "c" in arg.lstrip("-") and not arg.startswith("--"):
            return argv[k + 1] if k + 1 < len(argv) else None
    return None


def _downstream(line: list[_Stage], index: int) -> tuple[Bound, ...] | None:
    """None when the stage's output goes to a file or into a stage that prints none of it (``wc``,
    ``grep -c``); else the bounds the later stages put on it (``| head -c N``)."""
    if line[index].stdout is not None:
        return None
    found: list[Bound] = []
    for stage in line[index + 1:]:
        argv = _unwrap(stage.argv)
        name = _base(argv[0]) if argv else ""
        if stage.stdout is not None or name in _LIMITERS:
            return None
        if name in _GREPS and any(_GREP_BOUNDS.match(arg) for arg in argv[1:]):
            return None
        if name in bounds.READERS:
            reading = bounds.reading(name, argv[1:])
            if reading is None or (reading.files and "-" not in reading.files):
                return None  # prints nothing of its input, or reads other files instead
            if reading.bound is not None:
                found.append(reading.bound)
    return tuple(found)


def _operands(args: list[str]) -> list[str]:
    out, options = [], True
    for arg in args:
        if options and arg == "--":
            options = False
        elif options and arg.startswith("-") and arg != "-":
            continue
        else:
            out.append(arg)
    return out


def _stage_uses(name: str, argv: list[str], stage: _Stage) -> list[tuple[str, str, Bound | None]]:
    """(action, file, the stage's own bound) for each file the stage reads; the bound None: all of it."""
    args = argv[1:]
    if name in _DUMPERS:
        own = bounds.length_bound(name, args)
        files = [a for a in _operands(args) if a != "-"] or ([stage.stdin] if stage.stdin else [])
        return [(PRINT, path, own) for path in files]
    if name in bounds.READERS:
        reading = bounds.reading(name, args)
        if reading is None or reading.filtered:
            return []  # prints nothing of the file, or only matching lines (as grep does)
        files = [a for a in reading.files if a != "-"] or ([stage.stdin] if stage.stdin else [])
        return [(PRINT, path, reading.bound) for path in files]
    return [(action, path, None) for action, path in _file_actions(name, args)]


def _file_actions(name: str, args: list[str]) -> list[tuple[str, str]]:
    if name in ("unzip", "funzip"):
        return _unzip(args)
    if name in ("7z", "7za", "7zz", "7zr"):
        files = _operands(args[1:]) if args else []
        if args and args[0] in ("x", "e") and files:
            return [(PRINT if "-so" in args else UNPACK, files[0])]
        return []
    if name in ("tar", "bsdtar", "gtar"):
        return _tar(args)
    if name in ("gzip", "gunzip", "bzip2", "bunzip2", "xz", "zstd", "lz4"):
        flags = "".join(a.lstrip("-") for a in args if a.startswith("-") and not a.startswith("--"))
        to_stdout = "c" in flags or "--stdout" in args
        if to_stdout and (name.startswith(("gunzip", "bunzip")) or "d" in flags or "--decompress" in args):
            return [(PRINT, path) for path in _operands(args)]
        return []
    if re.fullmatch(r"python[0-9.]*|pypy[0-9.]*", name) and "-c" in args:
        code = args[args.index("-c") + 1] if args.index("-c") + 1 < len(args) else ""
        if _PY_UNBOUNDED.search(code) and re.search(r"\bprint\b|stdout\.write|sys\.stdout", code):
            return [(PRINT, match.group(2)) for match in _PY_OPEN.finditer(code)]
        return []
    if name == "pdftotext":
        files = _operands(args)
        if len(files) >= 2 and files[1] == "-" and "-f" not in args and "-l" not in args:
            return [(PRINT, files[0])]
    return []


def _unzip(args: list[str]) -> list[tuple[str, str]]:
    flags = "".join(a.lstrip("-") for a in args if a.startswith("-"))
    positional: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "-d":
            skip = True
        elif not arg.startswith("-"):
            positional.append(arg)
    if not positional or any(flag in flags for flag in "lvtZz"):
        return []
    return [(PRINT if ("p" in flags or "c" in flags) else UNPACK, positional[0])]


def _tar(args: list[str]) -> list[tuple[str, str]]:
    extract = to_stdout = False
    archive: str | None = None
    k = 0
    while k < len(args):
        arg = args[k]
        if arg.startswith("--"):
            extract |= arg in ("--extract", "--get")
            to_stdout |= arg == "--to-stdout"
            if arg.startswith("--file="):
                archive = arg.split("=", 1)[1]
            elif arg == "--file" and k + 1 < len(args):
                archive, k = args[k + 1], k + 1
        elif arg.startswith("-") or (k == 0 and arg.isalpha()):
            letters = arg.lstrip("-")
            extract |= "x" in letters
            to_stdout |= "O" in letters
            if "f" in letters:
                rest = letters[letters.index("f") + 1:]
                if rest and arg.startswith("-"):
                    archive = rest
                elif k + 1 < len(args):
                    archive, k = args[k + 1], k + 1
        k += 1
    if not extract or archive is None or archive == "-":
        return []
    return [(PRINT if to_stdout else UNPACK, archive)]
