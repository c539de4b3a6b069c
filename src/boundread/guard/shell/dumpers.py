"""The programs that print what they read, whole or bounded: the dumpers (``cat``, ``sort``, ``cut``, ``shuf``...),
``head``/``tail``/``sed``/``dd`` (bounds.py reads their arguments) and awk; what ``sort -o``/``uniq IN OUT`` write
elsewhere; and the summaries and filters (summaries.py, filters.py) that make a print a part.
"""

from __future__ import annotations

from boundread.guard import bounds
from boundread.guard.shell import filters, summaries
from boundread.guard.shell.reads import STDIN_NAMES, bounded, files, operands, unpacked, write
from boundread.guard.shell.state import Env, Stream, read_file, visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Ctx

#: Programs that print their file operands (or their stdin) whole, with the options that take a value.
DUMPERS: dict[str, frozenset[str]] = {name: frozenset(values.split()) for name, values in {
    "cat": "", "tac": "-s --separator", "nl": "-s -w -b -v -i -n -d -f -h",
    "less": "-b -h -j -k -o -O -p -P -t -T -x -y -z",
    "more": "-n", "most": "", "bat": "-l -H -m --language --style --theme --map-syntax", "batcat": "-l -H -m",
    "strings": "-n -t -e --bytes --radix --encoding", "base64": "-w --wrap", "base32": "-w --wrap",
    "basenc": "-w --wrap", "xxd": "-l -s -c -g -o -len -seek -cols -groupsize", "od": "-N -j -t -A -w -S "
    "--read-bytes --skip-bytes --format --address-radix --width", "hexdump": "-n -s -e -f", "hd": "-n -s -e -f",
    "zcat": "", "gzcat": "", "bzcat": "", "xzcat": "", "lzcat": "", "zstdcat": "", "lz4cat": "", "zless": "",
    "zmore": "", "pv": "-L -s -N -i -w -H", "sort": "-k -t -S -T --key --field-separator --buffer-size "
    "--temporary-directory --parallel", "uniq": "-f -s -w", "cut": "-d -f -c -b --delimiter --fields "
    "--characters --bytes --output-delimiter", "paste": "-d --delimiters", "fold": "-w --width", "rev": "",
    "iconv": "-f -t --from-code --to-code", "expand": "-t --tabs", "unexpand": "-t --tabs", "pr": "-w -l -o -h -W "
    "-N -s -e", "fmt": "-w -p -g", "column": "-s -c -o -N -R -E -H -W", "shuf": "-n -o --head-count",
    "vis": "", "cat-v": "", "ccat": "", "tr": "", "dos2unix": "", "unix2dos": "", "gron": "", "xmllint": "",
    "look": "", "bsdcat": "", "pygmentize": "-l -f -F -O -P -o",
}.items()}
STDIN_ONLY = frozenset({"tr"})


def dumper(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """What a dumper prints; ``sort -o OUT``, ``uniq IN OUT``: written to OUT instead, for a later read."""
    target = _output(name, args)
    if target is not None:
        out = dumper(name, _without_output(args, target) if name != "uniq" else args[:-1], env, ctx, stdin)
        write(env, ctx, target, out)
        return Stream()
    own = bounds.length_bound(name, args) or (summaries.cut_fields(args) if name == "cut" else None) or \
        (summaries.distinct(f"{name} -u" if name == "sort" else name)
         if name == "uniq" or (name == "sort" and _unique(args)) else None)
    names = [] if name in STDIN_ONLY else operands(args, DUMPERS[name])
    if name == "uniq":
        names = names[:1]  # `uniq in out`: the second is the output
    reads = [n for n in names if n != "-"]
    shown = own.words if own is not None else name
    each = _each_bound(name, args, env, ctx, reads)
    if each is not None:
        out = Stream()
        for read, bound in each:
            out.add(files(env, [read], name, bound))
    else:
        out = files(env, reads, name, own) if reads else Stream()
    if not reads or "-" in names:
        if name == "uniq" or (name == "sort" and _unique(args)):
            out.add(summaries.reduced(stdin, f"{name} -u" if name == "sort" else name))  # the distinct values
        elif name == "shuf" and _shuf_count(args) is not None:
            count = _shuf_count(args) or 0
            out.add(bounded(stdin, bounds.Bound(bounds.LINES, count, words=f"shuf -n {count}"), "shuf"))
        else:
            out.add(bounded(stdin, own, shown) if own is not None else Stream(stdin.named(name), stdin.text))
    return unpacked(out) if name in _GUNZIPS else out


#: The dumpers that print a gzip file's text.
_GUNZIPS = frozenset({"zcat", "gzcat", "zless", "zmore", "bsdcat"})


def _output(name: str, args: list[str]) -> str | None:
    """The file ``sort -o OUT``/``shuf -o OUT``/``iconv -o OUT`` or ``uniq IN OUT`` writes; None: stdout."""
    if name == "uniq":
        names = operands(args, DUMPERS[name])
        return names[1] if len(names) > 1 and names[1] != "-" else None
    if name not in ("sort", "iconv", "shuf", "pygmentize"):
        return None
    for k, arg in enumerate(args):
        if arg in ("-o", "--output"):
            return args[k + 1] if k + 1 < len(args) else ""
        if arg.startswith("--output="):
            return arg.split("=", 1)[1]
    return None


def _without_output(args: list[str], target: str) -> list[str]:
    out: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in ("-o", "--output"):
            skip = True
        elif not arg.startswith("--output="):
            out.append(arg)
    return out


def _each_bound(name: str, args: list[str], env: Env, ctx: Ctx,
                reads: list[str]) -> list[tuple[str, bounds.Bound | None]] | None:
    """The bound each file operand gets from the size of its lines: ``cut -c1-100`` (lines x 101 bytes),
    ``shuf -n 20`` (20 x the longest line); None for any other dumper."""
    if name == "cut":
        width = summaries.cut_width(args)
        if width is not None:
            return summaries.per_line(env, ctx, reads, width, f"cut -c1-{width}")
    if name == "shuf":
        count = _shuf_count(args)
        if count is not None:
            return summaries.picked(env, ctx, reads, count, f"shuf -n {count}")
    return None


def _shuf_count(args: list[str]) -> int | None:
    for k, arg in enumerate(args):
        given = args[k + 1] if arg in ("-n", "--head-count") and k + 1 < len(args) else \
            arg.split("=", 1)[1] if arg.startswith("--head-count=") else arg[2:] if arg.startswith("-n") and \
            len(arg) > 2 else None
        if given is not None:
            parsed = bounds.count(given)
            return parsed[1] if parsed is not None and not parsed[0] else None
    return None


def _unique(args: list[str]) -> bool:
    """``sort -u``, ``sort -nu``, ``sort --unique``: one line per distinct key."""
    for arg in args:
        if arg == "--unique":
            return True
        if arg.startswith("-") and not arg.startswith("--") and not arg.startswith(("-k", "-t", "-S", "-T", "-o")) \
                and "u" in arg[1:]:
            return True
    return False


def awk(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """awk: a projection to a few fields (see summaries), a reader bounded by its program (bounds), and the
    files its program reads itself and prints (``while ((getline line < "big.log") > 0) print line``)."""
    import re

    program = next((arg for arg in args if not arg.startswith("-")), "")
    own = [path for var, path in re.findall(r'getline\s*([A-Za-z_]\w*)?\s*<\s*"([^"]+)"', program)
           if re.search(rf"\bprint\b(?:[^;}}]*\b{var}\b|\s*[;}}]|\s*\$0)" if var else
                        r"\bprint\b\s*(?:[;}]|\$0|$)", program)]  # what it read, printed
    out = files(env, own, f"{name} getline") if own else Stream()
    projection = summaries.awk_projection(name, args)
    if projection is not None:  # `awk '{print $2}'`: every line cut to a column (see summaries)
        names, bound = projection
        out.add(files(env, names, name, bound) if names else bounded(stdin, bound, bound.words))
        return out
    kept = filters.awk(name, args)
    if kept is not None:  # `awk '/INFO/'`: the lines that match, as grep prints them (no bound: every line may)
        names, condition = kept
        out.add(files(env, names, name, condition) if names else
                bounded(stdin, condition, condition.words if condition is not None else name))
        return out
    out.add(reader(name, args, env, ctx, stdin))
    return out


def reader(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    if name == "dd":
        ops = {key: value for key, _, value in (arg.partition("=") for arg in args if "=" in arg)}
        target = ops.get("of")
        if target not in (None, "-") and not visible(env.path(target)):
            source = read_file(env, ops["if"], "dd") if ops.get("if") else Stream(stdin.named("dd"), stdin.text)
            write(env, ctx, target, source)
            return Stream()
    reading = bounds.reading(name, args)
    if reading is None:
        return Stream()  # prints none of its input (`sed -i`, `awk 'END{print NR}'`)
    if reading.filtered:  # only the lines that match, as grep does: sized as its matches when the script says how
        matched = filters.sed(name, args) if name in ("sed", "gsed") else None
        if matched is None:
            return Stream()
        names, bound = matched
        return files(env, names, name, bound) if names else bounded(stdin, bound, bound.words)
    given = ["-" if n in STDIN_NAMES else n for n in reading.files]  # `dd if=/dev/stdin`, `sed p /dev/stdin`
    names = [n for n in given if n != "-"]
    out = files(env, names, name, reading.bound) if names else Stream()
    if not names or "-" in given:
        out.add(bounded(stdin, reading.bound, name))
    return out
