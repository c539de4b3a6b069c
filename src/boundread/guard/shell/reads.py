"""What the program models share: a command's operands, the files it reads, its output through a bound.

programs.py and the models it hands commands to (archives.py, scripts.py) all use these; kept apart so
that none of them imports programs back.
"""

from __future__ import annotations

from boundread.guard.bounds import ANY_LINES, BYTES, LINES, UNPACKED
from boundread.guard.shell.state import ARGS, UNKNOWN, Env, Stream, read_file, visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.bounds import Bound
    from boundread.guard.shell.state import Ctx


#: Names of a command's own stdin: reading one reads what ``<`` or a pipe gives it, as ``-`` does.
STDIN_NAMES = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "/proc/thread-self/fd/0"})
#: Where ``N< FILE`` (``exec 3< big.log``) left descriptor N open for reading: ``env.vars[INPUT_FD + N]``,
#: a key no shell variable can have.
INPUT_FD = "\x00<"


def operands(args: list[str], values: frozenset[str] = frozenset()) -> list[str]:
    """The non-option arguments (``/dev/stdin`` spelled ``-``); an option in ``values`` takes the next one."""
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
            out.append("-" if arg in STDIN_NAMES else arg)
        k += 1
    return out


def spare(ctx: Ctx) -> bool:
    """Is more than half of the check's budget left (steps, CPU and clock)? Reading a file to refine a verdict
    (its lines, an archive's members, a JSON document) is done only then, so that a loop of such reads leaves the
    walk the time to reach the command's end; past it, the coarser verdict stands."""
    from time import monotonic, process_time

    from boundread.guard.shell.state import SECONDS, STEPS, WALL_SECONDS

    return ctx.steps > STEPS // 2 and process_time() < ctx.cpu_deadline - SECONDS / 2 and \
        monotonic() < ctx.deadline - WALL_SECONDS / 2


def descriptor(env: Env, word: str) -> str:
    """``/dev/fd/3`` after ``exec 3< big.log``: the file that descriptor reads; any other word as it is."""
    for lead in ("/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"):
        if word.startswith(lead) and word[len(lead):].isdigit():
            return env.vars.get(INPUT_FD + word[len(lead):], word)
    return word


def unpacked(stream: Stream, members: list[str] | None = None) -> Stream:
    """``stream`` as a gunzip prints it (``zcat``, ``gzip -dc``), or ``unzip -p`` (these ``members`` of a zip,
    none: all): each flow marked as the file's text (bounds.UNPACKED), which guard/command.py measures by
    decompressing (guard/gunzipped.py), not by the file's compressed bytes."""
    from boundread.guard.bounds import Bound

    mark = Bound(UNPACKED, 0, members=tuple(members or ()))
    return Stream([(path, (*found, mark), shown) for path, found, shown in stream.flows], stream.text, stream.exact)


def bounded(stream: Stream, bound: Bound | None, program: str) -> Stream:
    """The stream through a stage that prints at most ``bound`` of it (None: all of it)."""
    flows = stream.named(program)
    if bound is None:
        return Stream(flows, stream.text)
    text, exact = _cut(stream.text, bound)
    return Stream([(path, (*found, _reshaped(found, path, bound)), f"{shown} | {bound.words}")
                   for path, found, shown in flows], text, stream.exact and exact)


def _reshaped(found: tuple[Bound, ...], path: str, bound: Bound) -> Bound:
    """``bound`` on a flow, or - when the flow is jq's pretty-printed output (jsonwidth.py) - its lines as bytes."""
    if bound.unit != LINES or not any(mark.unit.startswith("json-") for mark in found):
        return bound
    from boundread.guard.shell import jsonwidth

    return jsonwidth.reshaped(found, path, bound) or bound


def _cut(text: str, bound: Bound) -> tuple[str, bool]:
    """The part of known text a bound prints, and whether that is exact: lines (``head -n 5``: the first 5,
    ``tail -n 5``: the last 5, ``sed -n 3,4p``: after a skip) or bytes; another unit: the text, not exact."""
    if bound.unit == ANY_LINES:  # `sed -n '1p;$p'`: which lines is the script's business - the longest of them
        longest = sorted(text.splitlines(keepends=True), key=len, reverse=True)[:bound.count]
        return "".join(longest), False
    if bound.unit not in (LINES, BYTES):
        return text, False
    parts: list[str] | bytes = text.splitlines(keepends=True) if bound.unit == LINES else \
        text.encode("utf-8", "surrogatepass")
    end = len(parts) - bound.skip if bound.from_end else bound.skip + bound.count
    begin = end - bound.count if bound.from_end else bound.skip
    cut = parts[max(0, begin):max(0, end)]
    if isinstance(cut, list):
        return "".join(cut), True
    try:
        return cut.decode("utf-8"), True
    except UnicodeDecodeError:  # `head -c 3` of a character cut in two
        return cut.decode("utf-8", "ignore"), False


def files(env: Env, names: list[str], program: str, bound: Bound | None = None) -> Stream:
    """The content of each named file as a reader with ``bound`` prints it."""
    out = Stream()
    for name in names[:ARGS]:  # walk.py says when a command has more
        found = read_file(env, descriptor(env, name), bound.words if bound is not None else program)
        out.flows.extend((path, (*limits, bound) if bound is not None else limits, shown)
                         for path, limits, shown in found.flows)
        out.text += found.text
    return out


def write(env: Env, ctx: Ctx, target: str, stream: Stream) -> None:
    """``stream`` written to ``target``: shown when that is the conversation (``/dev/stdout``), else kept for a
    later read of that file (``tee f``, ``pandoc -o f``, ``cp``) - ``/dev/null`` and unknown names keep nothing."""
    if UNKNOWN in target:
        return
    absolute = env.path(target)
    if visible(absolute):
        ctx.show(stream.flows)
    elif absolute != "/dev/null":
        env.writes[absolute] = stream
