"""``grep`` and its kin: which lines of which files they print - none (counts, names, an exit status),
all of them (``grep .``, ``-v ''``), a binary file's bytes as text (``-a``), or the lines that match a
pattern. Those are a MATCHES bound on each file read, which decide sizes from a sample of the file
(guard/estimate.py): ``grep ERROR big.log`` prints a few lines, ``grep INFO big.log`` most of it.
``-r`` (and rg, ag, ack, ``git grep``) reads each file under a folder, walked and capped as ``find`` is.
"""

from __future__ import annotations

import os

from boundread.guard import bounds
from boundread.guard.shell.reads import bounded, files
from boundread.guard.shell.state import FANOUT, SMALL_SCRIPT, UNCHECKED, UNKNOWN, Env, Stream

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Ctx

GREPS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep", "zegrep", "zfgrep", "bzgrep", "xzgrep",
                   "git-grep", "zipgrep"})
#: Short options that take a value, per family (rg: -r is --replace, -E the encoding; ag/ack: -G a file regex).
_SHORT_VALUES = {"grep": "efmABCdD", "rg": "efmABCgtTMjrE", "ag": "efmABCGgp", "ack": "efmABCg", "git": "efmABCO"}
_LONG_VALUES = frozenset({"--regexp", "--file", "--max-count", "--context", "--after-context", "--before-context",
                          "--include", "--exclude", "--exclude-dir", "--glob", "--iglob", "--type", "--type-not",
                          "--max-columns", "--binary-files", "--color", "--colour", "--label", "--replace",
                          "--encoding", "--threads", "--max-depth", "--ignore-dir", "--file-search-regex",
                          "--devices", "--directories", "--type-add", "--sort", "--sortr", "--pre", "--engine"})
_LONG_LETTERS = {"--count": "c", "--files-with-matches": "l", "--files-without-match": "L", "--quiet": "q",
                 "--silent": "q", "--invert-match": "v", "--passthru": "v", "--passthrough": "v", "--text": "a",
                 "--recursive": "r", "--dereference-recursive": "r", "--only-matching": "o", "--ignore-case": "i",
                 "--word-regexp": "w", "--line-regexp": "x", "--line-number": "n", "--with-filename": "H",
                 "--no-filename": "h", "--fixed-strings": "F", "--extended-regexp": "E", "--basic-regexp": "G",
                 "--perl-regexp": "P", "--literal": "Q", "--search-zip": "z", "--smart-case": "S",
                 "--files": "l", "--list-file": "l", "--files-with-matches-count": "c", "--count-matches": "c"}
_ANY_LINE = frozenset({"", ".*", "^", "$", ".", "^.*$", "^.*", ".*$", "\\|", "|", "(.*)", ".?", "\\s*",
                       "^\\s*", "[\\s\\S]", "[^\\n]*", "x*", "\\w*", "(?s).*", "^|$"})


#: programs.py hands each name in GREPS to ``grep``; the log programs (remote.py) and the generators (``seq``;
#: ``yes`` is a dumper there) it hands to their own modules (families.py), so a grep loads neither.


def grep(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream, program: str | None = None) -> Stream:
    """What a grep prints. ``program``: its words as a reason should show them (``git -C repo grep``)."""
    family = "git" if name == "git-grep" else name if name in ("rg", "ag", "ack") else "grep"
    if name == "zipgrep" and "-x" in args:  # `-x MEMBERS` leaves members out: taken as all of them
        args = args[:args.index("-x")]
    patterns, positional, letters, values = _parse(family, args)
    if any(ch in letters for ch in "clLq"):
        return Stream()  # counts, names or an exit status: none of the content
    if "-f" in values:
        patterns.extend(_pattern_file(values["-f"], env))
    elif not patterns and positional:
        patterns, positional = [positional[0]], positional[1:]
    most = _count(values["-m"]) if "-m" in values else None
    before, after = _context(values)
    any_line = not patterns or ("v" not in letters and any(p.strip() in _ANY_LINE for p in patterns))
    names = [n for n in positional if n != "-"]
    if name == "zipgrep":  # `zipgrep PATTERN a.zip [members]`: egrep of what `unzip -p` prints of them
        if not names:
            return Stream()
        from boundread.guard.shell.reads import unpacked

        stdin, names = unpacked(files(env, names[:1], "unzip -p"), names[1:]), []
    if "r" in letters or "R" in letters or family in ("rg", "ag", "ack", "git"):  # a folder: each file under it
        globs = [glob for glob in values.get("--include", "").split("\x00") if glob]
        devices = family == "grep" and values.get("-D") == "read"  # else a walk skips FIFOs, devices, sockets
        names = _tree(name, names or ["."], globs, env, ctx, own=family != "grep", devices=devices)
    if any_line:
        bound = bounds.Bound(bounds.LINES, most * (1 + before + after), words=f"{name} -m {most}") \
            if most is not None else None
    else:  # -a: a binary file's matching "lines" are its bytes, as text - of a text file, its lines
        spec = _spec(name, family, letters, patterns, names, (before, after), _decodes(family, values))
        if not names:  # its stdin: a count or a bounded grep a reason names must name the file instead
            spec = bounds.Grep(**{**spec._fields(), "piped": True})  # type: ignore[arg-type]
        words = " ".join([program or name.replace("git-grep", "git grep"), *(_quote(arg) for arg in args)])
        bound = bounds.Bound(bounds.TEXT_MATCHES if "a" in letters else bounds.MATCHES, 0,
                             words=words if len(words) <= 80 else words[:77] + "...", grep=spec)
        if most is not None:  # -m N: N matches (and their context) per file, whatever the pattern
            return _with(files(env, names, name, bound) if names else _piped(stdin, bound, name),
                         bounds.Bound(bounds.LINES, most * (1 + before + after), words=f"{name} -m {most}"))
    if names:
        return files(env, names, name, bound)
    return _piped(stdin, bound, name)


def _piped(stdin: Stream, bound: bounds.Bound | None, name: str) -> Stream:
    """``bounded(stdin, bound, name)``, a flow a gunzip printed (marked bounds.UNPACKED by reads.unpacked) matched
    as the gzip file's text (``zcat big.log.gz | grep INFO``), as zgrep reads it, not as the compressed bytes a
    grep of the file itself would call binary."""
    out = bounded(stdin, bound, name)
    spec = bound.grep if bound is not None else None
    if bound is None or spec is None or spec.compressed:
        return out
    unpacked = bounds.Bound(bound.unit, bound.count, bound.skip, bound.from_end, bound.words,
                            bounds.Grep(**{**spec._fields(), "compressed": True}))  # type: ignore[arg-type]
    return Stream([(path, (*found[:-1], unpacked) if _gunzipped(found) else found, shown)
                   for path, found, shown in out.flows], out.text, out.exact)


def _gunzipped(found: tuple[bounds.Bound, ...]) -> bool:
    return any(b.unit == bounds.UNPACKED for b in found)


def _decodes(family: str, values: dict[str, str]) -> bool:
    """rg reads a file with a UTF-16 BOM as its text (and prints it in UTF-8) unless ``-E none`` turns the
    encoding logic off; GNU grep (-P too), ag and ack call such a file binary."""
    return family == "rg" and values.get("-E", "auto").strip().lower() != "none"


def _spec(name: str, family: str, letters: str, patterns: list[str], names: list[str],
          context: tuple[int, int], decodes: bool) -> bounds.Grep:
    return bounds.Grep(tuple(patterns), _syntax(name, family, letters), ignore_case=_folds(family, letters, patterns),
                       invert="v" in letters, only="o" in letters, word="w" in letters, line="x" in letters,
                       before=context[0], after=context[1], names=_named(family, letters, names),
                       numbers=("n" in letters or family in ("ag", "ack")) and "N" not in letters,
                       compressed=name.startswith("z") or "z" in letters, decodes=decodes)


def _parse(family: str, args: list[str]) -> tuple[list[str], list[str], str, dict[str, str]]:
    """(patterns given by -e, positional words, the letters of the flags, the valued options by short name)."""
    patterns: list[str] = []
    positional: list[str] = []
    letters = ""
    values: dict[str, str] = {}
    short = _SHORT_VALUES[family]
    k, options = 0, True
    while k < len(args):
        arg = args[k]
        if options and arg == "--":
            options = False
        elif options and arg.startswith("--"):
            key, eq, given = arg.partition("=")
            letters += _LONG_LETTERS.get(key, "")
            if key in _LONG_VALUES and not eq:
                given, k = (args[k + 1] if k + 1 < len(args) else ""), k + 1
            if key == "--binary-files" and given == "text":
                letters += "a"
            letter = {"--regexp": "e", "--file": "f", "--max-count": "m", "--context": "C",
                      "--after-context": "A", "--before-context": "B"}.get(key)
            if letter == "e":
                patterns.append(given)
            elif letter is not None:
                values["-" + letter] = given
            elif key == "--devices":
                values["-D"] = given
            elif key == "--encoding":
                values["-E"] = given
            elif key == "--include":
                values["--include"] = values.get("--include", "") + given + "\x00"
        elif options and arg.startswith("-") and len(arg) > 1 and UNKNOWN not in arg:
            for at, flag in enumerate(arg[1:], 1):
                if flag in short:
                    given = arg[at + 1:] if at + 1 < len(arg) else (args[k + 1] if k + 1 < len(args) else "")
                    k += 0 if at + 1 < len(arg) else 1
                    if flag == "e":
                        patterns.append(given)
                    else:
                        values["-" + flag] = given
                    break
                if flag.isdigit():  # grep -5: five lines of context
                    values["-C"] = arg[at:]
                    break
                letters += flag
        else:
            positional.append(arg)
        k += 1
    return patterns, positional, letters, values


def _with(stream: Stream, bound: bounds.Bound) -> Stream:
    """Each flow with one bound more (any one holds)."""
    return Stream([(path, (*found, bound), shown) for path, found, shown in stream.flows], stream.text, stream.exact)


def _syntax(name: str, family: str, letters: str) -> str:
    if "F" in letters or "Q" in letters or name in ("fgrep", "zfgrep"):
        return "fixed"
    if family in ("rg", "ag", "ack") or "P" in letters:
        return "perl"
    if "E" in letters or name in ("egrep", "zegrep", "zipgrep"):
        return "extended"
    return "basic"


def _folds(family: str, letters: str, patterns: list[str]) -> bool:
    """-i; and smart case (rg -S, ag's default): a pattern with no capital letter ignores case."""
    smart = "S" in letters or (family == "ag" and "s" not in letters)
    return "i" in letters or (smart and not any(ch.isupper() for p in patterns for ch in p))


def _named(family: str, letters: str, names: list[str]) -> bool:
    """Does each printed line start with its file's name? Several files or a folder, unless -h (rg, ag: -I)."""
    if "h" in letters or (family == "rg" and "I" in letters):
        return False
    return "H" in letters or family in ("git", "ag", "ack") or len(names) > 1 or "r" in letters


def _context(values: dict[str, str]) -> tuple[int, int]:
    both = _count(values.get("-C", "")) or 0
    return _count(values.get("-B", "")) or both, _count(values.get("-A", "")) or both


def _pattern_file(word: str, env: Env) -> list[str]:
    """``-f FILE``: its lines, when it is a small file here; else no pattern (every line may match)."""
    if UNKNOWN in word:
        return []
    try:
        with open(env.path(word), "rb") as fh:
            data = fh.read(SMALL_SCRIPT + 1)
    except (OSError, ValueError):
        return []
    if len(data) > SMALL_SCRIPT:
        return []
    return [line for line in data.decode("utf-8", "replace").splitlines() if line] or [""]


def _tree(name: str, names: list[str], globs: list[str], env: Env, ctx: Ctx, *, own: bool = False,
          devices: bool = False) -> list[str]:
    """``grep -r PATTERN DIR``: the files under each folder operand (``--include`` kept to), capped as ``find`` is;
    ``own``: the repository's own files only (rg, ag, ack, git grep). The walk reads regular files only - a FIFO,
    device or socket under the folder is skipped - unless ``devices`` (``grep -r -D read``)."""
    from boundread.guard.shell import fanout

    ignored = _ignored(env) if own else set()
    out: list[str] = []
    expression = ["-type", "f,p,c,b,s" if devices else "f",
                  *(part for include in globs for part in ("-name", include))]
    for operand in names:
        if UNKNOWN in operand or not os.path.isdir(env.path(operand)):
            out.append(operand)
            continue
        found, capped = fanout.walk([operand], expression, env, ctx)
        found = [path for path in found if "/.git/" not in path and (not own or _kept(path, operand, ignored))]
        if capped:
            ctx.cap(f"`{name}` reads more files under {operand} than boundread looks at "
                    f"({FANOUT} names or {fanout.WALK:,} entries); the first {len(found)} were checked")
            found = [*found[:FANOUT - 1], UNCHECKED]
        out.extend(found)
    return out


def _quote(word: str) -> str:
    from boundread.guard.shellquote import quote  # shlex.quote without re

    return quote(word)


def _ignored(env: Env) -> set[str]:
    """The plain names the .gitignore here lists (``node_modules/``, ``build``); its globs are not followed."""
    found: set[str] = set()
    try:
        with open(env.path(".gitignore"), encoding="utf-8", errors="replace") as fh:
            for line in fh.read(SMALL_SCRIPT).splitlines():
                entry = line.strip().strip("/")
                if entry and not entry.startswith(("#", "!")) and not any(ch in entry for ch in "*?[/"):
                    found.add(entry)
    except OSError:
        pass
    return found


def _kept(path: str, operand: str, ignored: set[str]) -> bool:
    """Does a searcher that keeps to a repository's own files (rg, ag, ack, git grep) read ``path``, found under
    ``operand``? Not when a part below the operand is hidden or a name .gitignore lists."""
    below = path[len(operand.rstrip("/")) + 1:] if path.startswith(operand.rstrip("/") + "/") else path
    return not any(part.startswith(".") or part in ignored for part in below.split("/")[:-1]) and \
        not below.rsplit("/", 1)[-1].startswith(".") and below.rsplit("/", 1)[-1] not in ignored


def _count(text: str) -> int | None:
    parsed = bounds.count(text)
    return parsed[1] if parsed is not None and not parsed[0] else None
