"""``grep`` and its kin: which lines of which files they print - none (counts, names, a pattern that
picks lines), all of them (``grep .``, ``-v``), or a binary file's bytes as text (``-a``); ``-r`` reads
each file under a folder, walked and capped as ``find`` is.
"""

from __future__ import annotations

import os

from boundread.guard import bounds
from boundread.guard.shell.reads import bounded, files
from boundread.guard.shell.state import FANOUT, UNCHECKED, UNKNOWN, Env, Stream

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Ctx

GREPS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep", "zegrep", "bzgrep", "xzgrep", "git-grep"})
_GREP_VALUES = frozenset({"-e", "-f", "-m", "-A", "-B", "-C", "-d", "-D", "-g", "-t", "-T", "-M", "-j",
                          "--regexp", "--file", "--max-count", "--context", "--after-context",
                          "--before-context", "--include", "--exclude", "--glob", "--type", "--max-columns",
                          "--binary-files"})
_ANY_LINE = frozenset({"", ".*", "^", "$", ".", "^.*$", "^.*", ".*$", "\\|", "|", "(.*)", ".?", "\\s*",
                       "^\\s*", "[\\s\\S]", "[^\\n]*", "x*", "\\w*", "(?s).*", "^|$"})


def grep(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    patterns: list[str] = []
    includes: list[str] = []
    positional: list[str] = []
    letters = ""
    most: int | None = None
    k, options = 0, True
    while k < len(args):
        arg = args[k]
        if options and arg == "--":
            options = False
        elif options and arg.startswith("--"):
            key, _, given = arg.partition("=")
            letters += {"--count": "c", "--files-with-matches": "l", "--files-without-match": "L",
                        "--quiet": "q", "--silent": "q", "--invert-match": "v", "--passthru": "v",
                        "--text": "a", "--recursive": "r", "--dereference-recursive": "r"}.get(key, "")
            if key in _GREP_VALUES and not given:
                given, k = (args[k + 1] if k + 1 < len(args) else ""), k + 1
            if key == "--binary-files" and given == "text":
                letters += "a"
            if key == "--regexp":
                patterns.append(given)
            elif key == "--include":
                includes.append(given)
            elif key == "--max-count":
                most = _count(given)
        elif options and arg.startswith("-") and len(arg) > 1 and arg != UNKNOWN:
            flag = arg[1]
            if "-" + flag in _GREP_VALUES:
                given = arg[2:] if len(arg) > 2 else (args[k + 1] if k + 1 < len(args) else "")
                k += 0 if len(arg) > 2 else 1
                if flag == "e":
                    patterns.append(given)
                elif flag == "f":
                    patterns.append("\x01file")
                elif flag == "m":
                    most = _count(given)
            else:
                letters += arg[1:]
        else:
            positional.append(arg)
        k += 1
    if any(ch in letters for ch in "clLq"):
        return Stream()  # counts, names or an exit status: none of the content
    if not patterns and positional:
        patterns, positional = [positional[0]], positional[1:]
    any_line = "v" in letters or any(pattern.strip() in _ANY_LINE for pattern in patterns)
    bound = bounds.Bound(bounds.LINES, most, words=f"{name} -m {most}") if most is not None else None
    if not any_line and "a" in letters:  # -a: a binary file's matching "lines" are its bytes, as text
        bound = bounds.Bound(bounds.TEXT_MATCHES, 0, words=f"{name} -a")
    elif not any_line:
        return Stream()  # only matching lines
    names = [n for n in positional if n != "-"]
    if "r" in letters or "R" in letters or name in ("rg", "ag", "ack"):  # a folder: each file under it
        names = _tree(name, names or ["."], includes, env, ctx)
    if names:
        return files(env, names, name, bound)
    return bounded(stdin, bound, name)


def _tree(name: str, names: list[str], includes: list[str], env: Env, ctx: Ctx) -> list[str]:
    """``grep -r PATTERN DIR``: the files under each folder operand (``--include`` kept to), capped as ``find`` is."""
    from boundread.guard.shell import fanout

    out: list[str] = []
    expression = ["-type", "f", *(part for include in includes for part in ("-name", include))]
    for operand in names:
        if UNKNOWN in operand or not os.path.isdir(env.path(operand)):
            out.append(operand)
            continue
        found, capped = fanout.walk([operand], expression, env, ctx)
        if capped:
            ctx.cap(f"`{name}` reads more files under {operand} than boundread looks at "
                    f"({FANOUT} names or {fanout.WALK:,} entries); the first {len(found)} were checked")
            found = [*found[:FANOUT - 1], UNCHECKED]
        out.extend(found)
    return out


def _count(text: str) -> int | None:
    parsed = bounds.count(text)
    return parsed[1] if parsed is not None and not parsed[0] else None
