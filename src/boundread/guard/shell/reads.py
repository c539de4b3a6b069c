"""What the program models share: a command's operands, the files it reads, its output through a bound.

programs.py and the models it hands commands to (archives.py, scripts.py) all use these; kept apart so
that none of them imports programs back.
"""

from __future__ import annotations

from boundread.guard.shell.state import ARGS, UNKNOWN, Env, Stream, read_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.bounds import Bound


def operands(args: list[str], values: frozenset[str] = frozenset()) -> list[str]:
    """The non-option arguments; an option in ``values`` takes the next one as its value."""
    out: list[str] = []
    k, options = 0, True
    while k < len(args):
        arg = args[k]
        if options and arg == "--":
            options = False
        elif options and arg.startswith("-") and arg != "-" and arg != UNKNOWN:
            if arg in values:
                k += 1
        else:
            out.append(arg)
        k += 1
    return out


def bounded(stream: Stream, bound: Bound | None, program: str) -> Stream:
    """The stream through a stage that prints at most ``bound`` of it (None: all of it)."""
    flows = stream.named(program)
    if bound is None:
        return Stream(flows, stream.text)
    return Stream([(path, (*found, bound), f"{shown} | {bound.words}") for path, found, shown in flows],
                  stream.text[:bound.count])


def files(env: Env, names: list[str], program: str, bound: Bound | None = None) -> Stream:
    """The content of each named file as a reader with ``bound`` prints it."""
    out = Stream()
    for name in names[:ARGS]:  # walk.py says when a command has more
        found = read_file(env, name, bound.words if bound is not None else program)
        out.flows.extend((path, (*limits, bound) if bound is not None else limits, shown)
                         for path, limits, shown in found.flows)
        out.text += found.text
    return out
