"""What a few everyday filters print, judged by its size rather than by the size of the file they read.

- A projection to one to three fields (``awk '{print $2}'``, ``cut -d' ' -f2``) is every line of the file cut to
  a column: still a dump on its own, but reduced by ``uniq``/``uniq -c``/``sort -u`` it is one line per distinct
  value - a summary, like ``wc``. The projection travels on its flows as a FIELDS bound: a marker that bounds
  nothing (``decide`` finds no fitting part of the file in it), which the reducer later recognises. Any other
  stream a reducer gets keeps its flows with a DISTINCT bound, sized by ``decide`` on a sample of the file.
- ``cut -c1-100``/``cut -b1-100`` prints at most that many characters of each line: at most lines x width.
- ``shuf -n 20`` prints 20 lines picked anywhere: at most 20 x the longest line.

The lines of a file and its longest line are counted (``shape``), reading at most SHAPE_MOST bytes.
"""

from __future__ import annotations

import os

from boundread.guard.bounds import BYTES, DISTINCT, LINES, Bound, awk_operands
from boundread.guard.shell.reads import spare
from boundread.guard.shell.state import UNKNOWN, Env, Stream

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Ctx

#: A flow's bound that marks a projection to a few fields: not a size - ``count`` is past any file.
FIELDS = "fields"
_NONE = 1 << 62
#: The most bytes ``shape`` reads to count a file's lines (a few ms on the hook path).
SHAPE_MOST = 32 * 1024 * 1024
_MOST_FIELDS = 3
_CUT_VALUES = frozenset({"-d", "-f", "-c", "-b", "--delimiter", "--fields", "--characters", "--bytes",
                         "--output-delimiter"})


def awk_projection(name: str, args: list[str]) -> tuple[list[str], Bound] | None:
    """``awk [-F SEP] '{print $2}' FILES``: (the files, a FIELDS bound); None for any other awk program."""
    import re

    operands = awk_operands(args)
    if operands is None:
        return None
    program, names = operands
    field = r"\$(?:[1-9][0-9]*|NF)"
    fields = rf"({field}(?:\s*,?\s*(?:{field}|\"[^\"$]*\"))*)"  # `$1, $7`, `$1 " " $2`
    match = re.fullmatch(rf"\s*\{{\s*print\s*\(?\s*{fields}\s*\)?\s*;?\s*}}\s*", program)
    if match is None or len(re.findall(field, match.group(1))) > _MOST_FIELDS:
        return None
    return names, Bound(FIELDS, _NONE, words=_shown(name, program))


def cut_fields(args: list[str]) -> Bound | None:
    """``cut -f2``, ``cut -d, -f1,4``: a FIELDS bound when one to three single fields are kept (not ``-f2-``)."""
    fields = _option(args, ("-f", "--fields"))
    if fields is None or "--complement" in args:
        return None
    parts = fields.split(",")
    if len(parts) > _MOST_FIELDS or not all(part.isdigit() for part in parts):
        return None
    return Bound(FIELDS, _NONE, words=f"cut -f{fields}")


def cut_width(args: list[str]) -> int | None:
    """``cut -c1-100``, ``cut -b-80``, ``cut -c5,10-20``: the most characters a line keeps; None when a range
    runs to the end of the line (``-c5-``) or there is no ``-c``/``-b``."""
    given = _option(args, ("-c", "-b", "--characters", "--bytes"))
    if given is None or "--complement" in args:
        return None
    width = 0
    for part in given.split(","):
        first, dash, last = part.partition("-")
        if dash and not last:
            return None
        if not (first or "1").isdigit() or not (last or first).isdigit():
            return None
        width = max(width, int(last or first))
    return width or None


def shape(path: str, ctx: Ctx) -> tuple[int, int] | None:
    """(lines, the longest line in bytes) of a regular file of at most SHAPE_MOST bytes, read while the check has
    budget to spare (reads.spare; paid for in steps); None otherwise."""
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > SHAPE_MOST or not spare(ctx):
            return None
        ctx.step(1 + os.path.getsize(path) // (256 * 1024))
        with open(path, "rb") as fh:
            data = fh.read(SHAPE_MOST)
    except OSError:
        return None
    lines = data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)
    longest, at = 0, 0
    while at < len(data):
        end = data.find(b"\n", at)
        end = len(data) if end < 0 else end
        longest = max(longest, end - at)
        at = end + 1
    return lines, longest


def per_line(env: Env, ctx: Ctx, names: list[str], width: int, words: str) -> list[tuple[str, Bound | None]]:
    """Each file with the bound ``width`` bytes a line puts on it: lines x (width + 1); None when its lines
    cannot be counted (written by the command, too big)."""
    out: list[tuple[str, Bound | None]] = []
    for name in names:
        found = shape(env.path(name), ctx) if UNKNOWN not in name and env.path(name) not in env.writes else None
        out.append((name, Bound(BYTES, found[0] * (width + 1), words=words) if found else None))
    return out


def picked(env: Env, ctx: Ctx, names: list[str], count: int, words: str) -> list[tuple[str, Bound | None]]:
    """``shuf -n N``: each file with N x its longest line (+ newline); a file that cannot be looked at: N lines."""
    out: list[tuple[str, Bound | None]] = []
    for name in names:
        found = shape(env.path(name), ctx) if UNKNOWN not in name and env.path(name) not in env.writes else None
        bound = Bound(BYTES, count * (found[1] + 1), words=words) if found else Bound(LINES, count, words=words)
        out.append((name, bound))
    return out


def reduced(stream: Stream, program: str) -> Stream:
    """``uniq``/``uniq -c``/``sort -u`` of a stream: a projection's flows become a summary (one line per
    distinct value) and are dropped; any other flow passes with a DISTINCT bound, which ``decide`` sizes as the
    distinct lines (or a grep's distinct matches) of a sample of the file - a log's lines are all distinct."""
    flows = [(path, (*found, distinct(program)), shown) for path, found, shown in stream.named(program)
             if not any(bound.unit == FIELDS for bound in found)]
    return Stream(flows, stream.text, exact=False)


def distinct(words: str) -> Bound:
    return Bound(DISTINCT, 0, words=words)


def _option(args: list[str], flags: tuple[str, ...]) -> str | None:
    """The value of the first of ``flags`` (``-f 2``, ``-f2``, ``--fields=2``)."""
    for k, arg in enumerate(args):
        for flag in flags:
            if arg == flag:
                return args[k + 1] if k + 1 < len(args) else None
            if flag.startswith("--") and arg.startswith(flag + "="):
                return arg.split("=", 1)[1]
            if not flag.startswith("--") and arg.startswith(flag) and len(arg) > len(flag):
                return arg[len(flag):]
    return None


def _shown(name: str, program: str) -> str:
    from boundread.guard.shellquote import quote

    text = f"{name} {quote(program)}"
    return text if len(text) <= 60 else text[:57] + "..."
