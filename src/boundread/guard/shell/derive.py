"""Programs whose output is derived from two files' lines: ``diff``, ``comm``, ``join``, ``cmp -l``; and
``split -n K/N``, which prints the K-th of N chunks of one.

What they print is made of the files' own lines (a difference, the lines only one has, the pairs that join):
up to as much as both, so each file is judged as printed - ``diff a b | wc -l`` and ``diff -q`` still print
none of it, ``diff a b | head`` a part. A chunk of ``split`` is the file's size over N, a bound in bytes.
"""

from __future__ import annotations

import os

from boundread.guard.bounds import BYTES, Bound
from boundread.guard.shell.reads import files, operands
from boundread.guard.shell.state import UNKNOWN, Env, Stream

_DIFFS = frozenset({"diff", "sdiff", "diff3", "colordiff", "icdiff", "wdiff"})
PROGRAMS = _DIFFS | frozenset({"comm", "join", "cmp", "split"})
_DIFF_VALUES = frozenset({"-U", "-C", "-W", "-x", "-X", "-I", "-F", "-L", "-D", "--label", "--width",
                          "--exclude", "--exclude-from", "--ignore-matching-lines", "--ifdef"})
_JOIN_VALUES = frozenset({"-1", "-2", "-j", "-t", "-o", "-e", "-a", "-v"})
_CMP_VALUES = frozenset({"-i", "-n", "--ignore-initial", "--bytes"})


def run(name: str, args: list[str], env: Env, stdin: Stream) -> Stream:
    """What ``name`` prints of its file operands (``-``: its stdin)."""
    if name in _DIFFS:
        if any(arg in ("-q", "--brief", "-s", "--report-identical-files") for arg in args):
            return Stream()  # whether they differ: no content
        return _both(name, operands(args, _DIFF_VALUES | {"-o", "--output", "-w"}), env, stdin)
    if name == "comm":
        names = operands(args, frozenset({"--output-delimiter"}))
        suppressed = "".join(arg[1:] for arg in args if arg.startswith("-") and not arg.startswith("--"))
        if "1" in suppressed and "2" in suppressed and "3" in suppressed:
            return Stream()
        kept = names if "3" not in suppressed else [names[at] for at in (0, 1) if at < len(names)
                                                     and str(at + 1) not in suppressed]
        return _both(name, kept, env, stdin)  # the common lines (-12) are in each file
    if name == "join":
        return _both(name, operands(args, _JOIN_VALUES), env, stdin)
    if name == "cmp":
        if not any(arg in ("-l", "--verbose") or (arg.startswith("-") and not arg.startswith("--") and "l" in arg)
                   for arg in args):
            return Stream()  # the first difference, or nothing
        return _both("cmp -l", operands(args, _CMP_VALUES), env, stdin)
    return _split(args, env, stdin)


def _both(name: str, names: list[str], env: Env, stdin: Stream) -> Stream:
    """Each named file as printed (its lines make the output), stdin for ``-``; the output is not their bytes."""
    out = files(env, [n for n in names[:3] if n != "-"], name)
    if "-" in names[:3]:
        out.add(Stream(stdin.named(name), ""))
    out.text, out.exact = "", False
    return out


def _split(args: list[str], env: Env, stdin: Stream) -> Stream:
    """``split -n K/N F``, ``-n l/K/N``, ``-n r/K/N``: the K-th of N chunks on stdout, the file's size over N;
    any other split writes files (xaa, xab...), printing nothing."""
    chunks = next((args[k + 1] for k, arg in enumerate(args[:-1]) if arg in ("-n", "--number")), None) or \
        next((arg.split("=", 1)[1] if arg.startswith("--number=") else arg[2:]
              for arg in args if arg.startswith(("--number=", "-n")) and arg not in ("-n", "--number")), None)
    names = [n for n in operands(args, _SPLIT_VALUES) if n != "-"]
    parts = (chunks or "").split("/")
    if parts[0] in ("l", "r"):
        parts = parts[1:]
    if chunks is None or len(parts) != 2 or not all(part.isdigit() for part in parts) or int(parts[1]) == 0:
        _chunks(args, names, chunks, env)  # `split -l 1000 f part_`: files written, read back later
        return Stream()
    words = f"split -n {chunks}"
    if not names:
        return Stream(stdin.named(words), "", exact=False)
    source = names[0]
    try:
        size = os.path.getsize(env.path(source)) if UNKNOWN not in source else None
    except OSError:
        size = None
    bound = Bound(BYTES, size // int(parts[1]) + 1, words=words) if size is not None else None
    out = files(env, [source], words, bound)
    out.exact = False
    return out


_SPLIT_VALUES = frozenset({"-n", "--number", "-a", "-b", "-C", "-l", "-t", "--suffix-length", "--bytes",
                           "--line-bytes", "--lines", "--separator", "--additional-suffix", "--filter"})
#: Chunk files of a ``split`` that are remembered for a later read (the first ones: ``cat xaa``).
_CHUNKS = 26


def _chunks(args: list[str], names: list[str], chunks: str | None, env: Env) -> None:
    """``split [-l N | -b SIZE | -n N] F [PREFIX]``: each chunk file (PREFIXaa, PREFIXab...; ``-d``: 00, 01...)
    holds its part of F - a bound in lines or bytes after the chunks before it."""
    from boundread.guard.bounds import LINES, count

    if not names or UNKNOWN in names[0] or any(arg.startswith("--filter") for arg in args):
        return
    source, prefix = names[0], names[1] if len(names) > 1 else "x"
    given = {arg: args[k + 1] for k, arg in enumerate(args[:-1]) if arg in _SPLIT_VALUES}
    for arg in args:  # `-l1000`, `--lines=1000`
        key, eq, value = arg.partition("=")
        if eq and key in _SPLIT_VALUES:
            given[key] = value
        elif arg[:2] in ("-l", "-b", "-C", "-a", "-n") and len(arg) > 2:
            given[arg[:2]] = arg[2:]
    numeric = any(arg in ("-d", "--numeric-suffixes") or arg.startswith("--numeric-suffixes") for arg in args)
    length = given.get("-a", given.get("--suffix-length", "2"))
    width = int(length) if length.isdigit() and 0 < int(length) < 16 else 2
    extra = given.get("--additional-suffix", "")
    unit, each = LINES, count(given.get("-l", given.get("--lines", "1000")) or "") or ("", 1000)
    if "-b" in given or "--bytes" in given or "-C" in given or "--line-bytes" in given:
        unit = BYTES
        each = count(given.get("-b", given.get("--bytes", given.get("-C", given.get("--line-bytes", "")))) or "") \
            or ("", 0)
    if chunks is not None and chunks.isdigit() and int(chunks):
        try:
            size = os.path.getsize(env.path(source))
        except OSError:
            return
        unit, each = BYTES, ("", size // int(chunks) + 1)
    if not each[1]:
        return
    path = env.path(source)
    for at in range(_CHUNKS):
        suffix = str(at).zfill(width) if numeric else _letters(at, width)
        bound = Bound(unit, each[1], at * each[1], words=f"split chunk {at + 1} of {source}"[:60])
        env.writes[env.path(prefix + suffix + extra)] = Stream([(path, (bound,), bound.words)], exact=False)


def _letters(at: int, width: int) -> str:
    out = ""
    for _ in range(width):
        at, digit = divmod(at, 26)
        out = chr(ord("a") + digit) + out
    return out
