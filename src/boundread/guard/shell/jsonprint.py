"""``jq``/``yq``/``gojq``/``jaq``: what a filter prints of a JSON document, and how long its output lines are.

A filter that keeps the document's shape - ``.``, a path (``.items``), an iteration (``.items[]``), an object
built per element (``{name, price}``), ``map``, ``sort_by`` - prints about as much as the document: the file,
judged whole. One that reduces (``length``, ``keys``, ``add``, ``min``), picks a fixed element (``.[0]``,
``.items[:3]``, ``first``, ``limit(5; ...)``) or selects (``select(...)``, printed as grep prints matches)
prints a part.

A ``head -n 50`` after it bounds the lines of jq's OUTPUT, not the file's: a pretty-printed line holds one key
and one scalar, so 50 of them are at most 50 x (two of the longest strings plus the indentation); with ``-c
'.[]'`` a line is one element of the top-level array. The flows carry a marker bound (PRETTY or ELEMENTS, which
bounds nothing itself); ``reads.bounded`` turns a line bound on them into bytes from a sample of the file,
as ``decide`` estimates deep lines from its sample.
"""

from __future__ import annotations

from boundread.guard.bounds import BYTES, Bound
from boundread.guard.shell import summaries
from boundread.guard.shell.jsonwidth import ELEMENTS, PRETTY
from boundread.guard.shell.reads import files, spare, write
from boundread.guard.shell.state import UNKNOWN, Env, Stream

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Ctx

PROGRAMS = frozenset({"jq", "yq", "gojq", "jaq"})
#: Marker bounds (``count`` past any file): the output is the document pretty-printed, or one element a line.
_NONE = 1 << 62
#: Bytes of a document parsed (and its filter run) for one step of the check's budget: 4 MB is 500 steps.
PARSE_BYTES_PER_STEP = 8192
_TAKES = {"--arg": 2, "--argjson": 2, "--slurpfile": 2, "--rawfile": 2, "--indent": 1, "-f": 1, "--from-file": 1,
          "-L": 1, "-o": 1, "--output-format": 1, "-p": 1, "--input-format": 1, "-I": 1, "--tab": 0}
_REDUCERS = ("length", "keys", "keys_unsorted", "add", "min", "max", "min_by", "max_by", "any", "all", "type",
             "first", "last", "nth", "limit", "has", "contains", "inside", "utf8bytelength", "not", "empty",
             "input_filename", "tojson", "test", "index", "rindex", "indices", "startswith", "endswith", "unique",
             "group_by", "getpath", "halt", "error", "debug", "until", "isvalid", "splits", "ltrimstr", "$__loc__",
             "infinite", "nan", "env", "now", "select", "del", "to_number", "tostring", "ascii", "implode",
             "explode", "@base32d", "isempty")
#: Reducers that keep most of a document when they end the filter: ``unique``, ``group_by``, ``tojson``.
_KEEPING = frozenset({"unique", "group_by", "tojson", "tostring", "del", "until"})


def run(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """The document's file as printed, marked for a later line bound; nothing when the filter keeps a part."""
    positional: list[str] = []
    compact, raw, slurp, indent, output = False, False, False, 0, "json" if name != "yq" else ""
    k, from_file, null_input = 0, False, False
    loaded: dict[str, str] = {}  # `--slurpfile d F`, `--rawfile d F`: $d holds F
    while k < len(args):
        arg = args[k]
        if arg in ("--args", "--jsonargs"):
            break
        if arg in ("--slurpfile", "--rawfile") and k + 2 < len(args):
            loaded[args[k + 1]] = args[k + 2]
        if arg in _TAKES:
            from_file |= arg in ("-f", "--from-file")
            indent = int(args[k + 1]) if arg == "--indent" and k + 1 < len(args) and args[k + 1].isdigit() \
                else indent
            output = args[k + 1] if arg in ("-o", "--output-format") and k + 1 < len(args) else output
            k += _TAKES[arg]
        elif arg.startswith("-") and arg != "-":
            compact |= (not arg.startswith("--") and "c" in arg) or arg == "--compact-output"
            raw |= (not arg.startswith("--") and ("r" in arg or "j" in arg)) or arg in ("--raw-output", "--join-output")
            slurp |= (not arg.startswith("--") and "s" in arg) or arg == "--slurp"
            output = "json" if arg in ("-oj", "-o=json", "--output-format=json") else output
            null_input |= arg in ("-n", "--null-input") or (not arg.startswith("--") and "n" in arg[1:])
        else:
            positional.append(arg)
        k += 1
    if name == "yq" and positional[:1] and positional[0] in ("e", "eval", "ea", "eval-all"):
        positional = positional[1:]
    if from_file:
        return Stream()
    if null_input:  # reads no input: only the files the filter was given (unless it calls input)
        return _loaded(name, positional[0] if positional else "", loaded, env)
    program, names = (positional[0], positional[1:]) if positional else (".", [])
    reads = [n for n in names if n != "-"]
    # `cat f | jq ...`: a stdin that is files as they are (no text, no bound before) is run on as those files
    piped = [path for path, found, _shown in stdin.flows] if not names and stdin.exact and not stdin.text.strip() \
        and stdin.flows and not any(found for _path, found, _shown in stdin.flows) else []
    if (reads or piped) and not slurp and name != "yq":
        sized = _run_on(name, program, reads or piped, env, ctx, compact=compact, raw=raw, indent=indent or 2)
        if sized is not None:
            return sized
    if not keeps_most(program):
        return _selected(name, program, names, env)  # a part of the document: sized when it is a select
    bare = program.replace(" ", "")
    # yq prints YAML unless told JSON: its lines are the file's, and a line bound is checked on them as it is
    unit = None if output not in ("json", "j") else PRETTY if not compact else \
        ELEMENTS if bare in (".[]", ".[]?") else None
    shown = f"{name} {_quote(program)}"[:60]
    out = files(env, reads, shown) if reads else Stream(stdin.named(name), "")
    marks = [Bound(unit, _NONE, indent or 2, words=shown)] if unit is not None else []  # indent in its skip
    if _one_field(program):  # `.items[].name`: a column of the records, which `| sort | uniq -c` summarises
        marks.append(Bound(summaries.FIELDS, _NONE, words=shown))
    if marks:
        out.flows = [(path, (*found, *marks), program_shown) for path, found, program_shown in out.flows]
    out.text, out.exact = "", False
    return out


def _loaded(name: str, program: str, loaded: dict[str, str], env: Env) -> Stream:
    """``jq -n --slurpfile d F '$d'``, ``--rawfile``: the files whose variables the filter prints whole (a filter
    that keeps a part of them, ``$d[0] | length``, prints nothing of them here)."""
    names = [path for variable, path in loaded.items() if f"${variable}" in program and UNKNOWN not in path]
    if not names or not keeps_most(program):
        return Stream()
    out = files(env, names, f"{name} {_quote(program)}"[:60])
    out.text, out.exact = "", False
    return out


def _run_on(name: str, program: str, reads: list[str], env: Env, ctx: Ctx, *, compact: bool, raw: bool,
            indent: int) -> Stream | None:
    """The files as the filter prints them, when jqeval runs it on each: a bytes bound of what it prints (with
    the markers a later ``| head`` or ``| uniq -c`` reads); None when any of them is not run here."""
    import os

    from boundread.guard.shell import jqeval

    shown = f"{name} {_quote(program)}"[:60]
    out = Stream()
    for source in reads[:16]:
        path = env.path(source) if UNKNOWN not in source and env.path(source) not in env.writes else ""
        try:
            size = os.path.getsize(path) if path and os.path.isfile(path) else -1
        except OSError:
            return None
        if size < 0 or size > jqeval.MOST or not spare(ctx):
            return None  # past half of the check's budget, no document is parsed: the filter's shape judges it
        ctx.step(1 + size // PARSE_BYTES_PER_STEP)
        found = jqeval.printed(program, path, size, compact=compact, raw=raw, indent=indent)
        if found is None:
            return None
        marks = [Bound(BYTES, found, words=shown)]
        bare = program.replace(" ", "")
        unit = PRETTY if not compact else ELEMENTS if bare in (".[]", ".[]?") else None
        if unit is not None:  # for a later `| head -n N` (reshaped)
            marks.append(Bound(unit, _NONE, indent, words=shown))
        if _one_field(program):
            marks.append(Bound(summaries.FIELDS, _NONE, words=shown))
        stream = files(env, [source], shown)
        out.flows.extend((flow, (*bounds_, *marks), shown_) for flow, bounds_, shown_ in stream.flows)
    out.text, out.exact = "", False
    return out


def _selected(name: str, program: str, names: list[str], env: Env) -> Stream:
    """``select(PRED)`` of a JSON Lines file: the records it keeps, sized on a sample (jqselect); any other part
    prints nothing judged."""
    import os

    from boundread.guard.shell import jqselect

    out = Stream()
    if "select" not in program:
        return out
    shown = f"{name} {_quote(program)}"[:60]
    for source in names[:16]:
        path = env.path(source) if UNKNOWN not in source and env.path(source) not in env.writes else ""
        try:
            size = os.path.getsize(path) if path and os.path.isfile(path) else -1
        except OSError:
            size = -1
        sized = jqselect.bound(program, path, size, shown) if size >= 0 else None
        if sized is not None:
            out.add(files(env, [source], shown, sized))
    out.text, out.exact = "", False
    return out


def json_tool(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``python -m json.tool [--indent N] [--compact] [IN [OUT]]``: the document pretty-printed (to OUT: written)."""
    names: list[str] = []
    indent, compact = 4, False
    k = 0
    while k < len(args):
        arg = args[k]
        if arg == "--indent" and k + 1 < len(args):
            indent = int(args[k + 1]) if args[k + 1].isdigit() else indent
            k += 1
        elif arg.startswith("-") and arg != "-":
            compact |= arg in ("--compact", "--no-indent")
        else:
            names.append(arg)
        k += 1
    source = [n for n in names[:1] if n != "-"]
    out = files(env, source, "python -m json.tool") if source else Stream(stdin.named("python -m json.tool"), "")
    out.text, out.exact = "", False
    if not compact:
        out.flows = [(path, (*found, Bound(PRETTY, _NONE, indent, words="python -m json.tool")), shown)
                     for path, found, shown in out.flows]
    if len(names) > 1 and names[1] != "-":
        write(env, ctx, names[1], out)
        return Stream()
    return out


def _one_field(program: str) -> bool:
    """``.items[].name``, ``.[] | .user``, ``.items[] | .a.b``: one field of each element of an iteration."""
    import re

    return re.fullmatch(r"\s*(\.[\w.]*\[\]\s*(\|\s*)?)\.?[A-Za-z_][\w.]*\s*", program) is not None


def keeps_most(program: str) -> bool:
    """Does the filter print about all of the document (a path, an iteration, a per-element projection),
    rather than a reduction, a fixed element, or the elements a ``select`` picks?"""
    import re

    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', program)  # string literals: no words of the filter
    if re.search(r"\[\s*-?\d+\s*\]|\[\s*-?\d*\s*:\s*-?\d*\s*\]", text):
        return False  # `.[0]`, `.items[:3]`: a fixed element or slice
    words = set(re.findall(r"[@$]?[A-Za-z_][A-Za-z0-9_]*", text))
    reducing = words & set(_REDUCERS)
    if not reducing:
        return True
    # `.items | unique`, `group_by(.k)`: most of it still, unless a reduction follows
    return reducing <= _KEEPING and not re.search(r"\|\s*(length|keys|add|min|max|first|last)\b", text)


def _quote(word: str) -> str:
    from boundread.guard.reason import quote

    return quote(word)
