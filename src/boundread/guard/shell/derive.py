"""Programs whose output is derived from two files' lines: ``diff``, ``comm``, ``join``, ``cmp -l``; and
``split -n K/N``, which prints the K-th of N chunks of one; ``split`` and ``csplit`` that write the pieces to files.

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
PROGRAMS = _DIFFS | frozenset({"comm", "join", "cmp", "split", "csplit"})
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
    if name == "csplit":
        _csplit(args, env, stdin)
        return Stream()  # the pieces' sizes, or nothing (-s)
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
        if at == _CHUNKS - 1:  # the last one kept stands for it and all after it: `cat part_*` reads them all
            words = f"split chunks {at + 1} and after of {source}"[:60]
            env.writes[env.path(prefix + suffix + extra)] = Stream([(path, (), words)], exact=False)
            break
        bound = Bound(unit, each[1], at * each[1], words=f"split chunk {at + 1} of {source}"[:60])
        env.writes[env.path(prefix + suffix + extra)] = Stream([(path, (bound,), bound.words)], exact=False)


def _letters(at: int, width: int) -> str:
    out = ""
    for _ in range(width):
        at, digit = divmod(at, 26)
        out = chr(ord("a") + digit) + out
    return out


_CSPLIT_VALUES = frozenset({"-b", "--suffix-format", "-f", "--prefix", "-n", "--digits"})


def _csplit(args: list[str], env: Env, stdin: Stream) -> None:
    """``csplit [-f PREFIX] [-n DIGITS] F PATTERN...``: the pieces it writes (PREFIX00, PREFIX01...; ``xx`` and 2
    digits by default), each kept for a later read. A line-number pattern ``N`` ends a piece before line N, ``{K}``
    repeats it K times (every N lines) and ``{*}`` until the file ends: such a piece is a bound in lines. A piece a
    regex ends (``/RE/``, ``%RE%``) may be anything up to the rest of the file, and is kept as that."""
    from boundread.guard.bounds import LINES

    given: dict[str, str] = {}
    words: list[str] = []
    k = 0
    while k < len(args):
        arg = args[k]
        key, eq, value = arg.partition("=")
        if arg in _CSPLIT_VALUES and k + 1 < len(args):
            given[arg], k = args[k + 1], k + 2
            continue
        if eq and key in _CSPLIT_VALUES:
            given[key] = value
        elif arg[:2] in ("-b", "-f", "-n") and len(arg) > 2:
            given[arg[:2]] = arg[2:]
        elif arg == "--":
            words += args[k + 1:]
            break
        elif not arg.startswith("-") or arg == "-" or arg[1:].isdigit():
            words.append(arg)
        k += 1
    if len(words) < 2 or UNKNOWN in words[0] or "-b" in given or "--suffix-format" in given:
        return  # no pattern, a file not known here, or a printf format for the names: nothing kept
    prefix = given.get("-f", given.get("--prefix", "xx"))
    digits = given.get("-n", given.get("--digits", "2"))
    width = int(digits) if digits.isdigit() and 0 < int(digits) < 10 else 2
    if UNKNOWN in prefix:
        return
    source = words[0]
    pieces: list[tuple[int, int | None]] = []  # (first line, lines) of each piece; None: to the end
    at = step = 0  # the lines the pieces so far hold; the line-number pattern a `{K}` repeats (0: a regex)
    for word in words[1:]:
        repeat = word[1:-1] if word[:1] == "{" and word[-1:] == "}" else None
        if repeat is not None and not (repeat == "*" or repeat.isdigit()):
            return  # not a pattern csplit takes: it fails and writes nothing
        if repeat is None and word.isdigit():
            step, ends = int(word), [int(word)]
        elif repeat is None:  # /RE/[OFFSET] writes a piece; %RE%[OFFSET] skips to the match
            step, ends = 0, []
            if not word.startswith("%"):
                pieces.append((at, None))
        elif step:  # `N {K}`: before lines 2N, 3N, ... (K+1)N
            times = _CHUNKS if repeat == "*" else int(repeat)
            ends = [step * (n + 2) for n in range(min(times, _CHUNKS))]
        else:  # a regex repeated: each piece up to the rest
            pieces += [(at, None)] * min(_CHUNKS if repeat == "*" else int(repeat), _CHUNKS)
            ends = []
        for end in ends:
            if any(lines is None for _, lines in pieces):  # after a regex's piece the line numbers are unknown
                pieces.append((at, None))
            elif end - 1 > at:
                pieces.append((at, end - 1 - at))
                at = end - 1
        if len(pieces) >= _CHUNKS:
            break
    if len(pieces) >= _CHUNKS:  # the last one kept stands for it and all after it: `cat xx*` reads them all
        del pieces[_CHUNKS - 1:]
        first, lines = pieces[-1]
        at = first + lines if lines is not None else first
    pieces.append((at, None))  # the rest of the file
    for number, (first, lines) in enumerate(pieces):
        shown = f"csplit piece {number + 1} of {source}"[:60]
        bound = Bound(LINES, lines, first, words=shown) if lines is not None else None
        if source == "-":
            flows = [(path, (*limits, bound) if bound else limits, shown) for path, limits, _ in stdin.flows]
            stream = Stream(flows, exact=False)
        else:
            stream = files(env, [source], shown, bound)
            stream.exact = False
        env.writes[env.path(prefix + str(number).zfill(width))] = stream
