"""What each program does with its files and its stdin: prints them (the dumpers), bounds them,
consumes them (``wc``, ``sha256sum``, an upload), writes them to a file, or runs them (shells, interpreters).

An unknown program is taken to pass its stdin through - the conservative reading - and to read none of
its operands.
"""

from __future__ import annotations

import os

from boundread.guard import bounds
from boundread.guard.shell import (
    archives,
    builtin,
    converters,
    databases,
    derive,
    editors,
    filters,
    greps,
    jsonprint,
    summaries,
)
from boundread.guard.shell.reads import STDIN_NAMES, bounded, files, operands, write
from boundread.guard.shell.state import (
    FANOUT,
    PRINT,
    REMOTE,
    REMOTE_MARK,
    UNKNOWN,
    Env,
    FileUse,
    Stream,
    read_file,
    visible,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Ctx

# Programs that print their file operands (or their stdin) whole, with the options that take a value.
_DUMPERS: dict[str, frozenset[str]] = {name: frozenset(values.split()) for name, values in {
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
    "yes": "", "look": "",
}.items()}
_STDIN_ONLY = frozenset({"tr"})
_CONSUMERS = frozenset({"wc", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum",
                        "b3sum", "xxhsum", "cksum", "sum", "shasum", "md5", "file", "boundread", "true",
                        "false", ":", "test", "[", "[[", "sleep", "exit", "return",
                        "shopt", "trap", "wait", "alias", "type", "which", "hash", "umask", "ulimit", "kill",
                        "du", "stat", "pdfinfo", "identify", "aws", "gsutil", "gcloud", "az", "scp", "nc", "ncat",
                        "mail", "sendmail", "mktemp", "touch", "mkdir", "rm", "rmdir", "chmod", "chown", "diffstat",
                        "export", "local", "declare", "typeset", "readonly", "csplit"})
_WRAPPERS = frozenset({"sudo", "env", "time", "nohup", "nice", "command", "exec", "builtin", "stdbuf", "timeout",
                       "ionice", "doas", "caffeinate", "watch", "chronic", "unbuffer", "nocache", "flock", "setsid",
                       "chrt", "taskset", "strace", "ltrace", "busybox", "toybox", "script", "faketime", "su",
                       "runuser", "pkexec", "xvfb-run", "dbus-run-session", "firejail", "unshare", "catchsegv",
                       "valgrind", "proxychains", "proxychains4", "torsocks", "tsocks", "eatmydata"})
_WRAPPER_VALUES = {"sudo": {"-u", "-g", "-p", "-C", "-D", "-h", "-r", "-t", "-U"}, "doas": {"-u", "-C"},
                   "env": {"-u", "-C", "-S", "--unset", "--chdir"}, "nice": {"-n"}, "timeout": {"-s", "-k"},
                   "ionice": {"-c", "-n"}, "stdbuf": {"-i", "-o", "-e"}, "watch": {"-n", "-d"},
                   "flock": {"-w", "-E"}, "taskset": {"-c"}, "strace": {"-e", "-o", "-p", "-s"},
                   "script": {"-c"}, "chrt": {"-p"}, "xvfb-run": {"-n", "-s", "-e", "-f"},
                   "firejail": set(), "pkexec": {"--user"}, "valgrind": set()}
_WRAPPER_VALUES["runner"] = {"-e", "--env", "-n", "--name", "-p", "--prefix", "--with", "--python", "--from",
                             "--package", "--project", "--directory", "-C"}
#: Project tool runners: ``poetry run CMD``, ``uv run CMD``, ``conda run -n env CMD`` run CMD in its environment.
_RUNNERS = {"poetry": "run", "uv": "run", "pdm": "run", "hatch": "run", "pipenv": "run", "rye": "run", "conda": "run",
            "pixi": "run", "pipx": "run"}
#: ``python -m MODULE``: modules whose command line is a program modelled here, by that program's name.
_MODULE_PROGRAMS = {"markitdown": "markitdown", "docx2txt": "docx2txt", "csvkit.utilities.in2csv": "in2csv",
                    "csvkit.utilities.csvlook": "csvlook", "json.tool": "python-json.tool"}
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "rbash"})
_INTERPRETERS = frozenset({"python", "pypy", "node", "nodejs", "bun", "deno", "perl", "ruby", "php", "lua",
                           "Rscript", "osascript"})
_COPIES = frozenset({"cp", "mv", "ln", "install", "rsync", "ditto", "gcp"})


def is_interpreter(name: str) -> bool:
    """python3.12, perl5, node...: the name without its version (no re on this path)."""
    return name.rstrip("0123456789.") in _INTERPRETERS


def base(word: str) -> str:
    return word.rsplit("/", 1)[-1]


def run(argv: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """The stdout of ``argv`` given ``stdin``; its other effects (cd, writes, what it shows) on ``env``/``ctx``."""
    if not argv or argv[0] == UNKNOWN:
        return Stream(stdin.named("the command"), "") if argv else Stream()
    name, args = base(argv[0]), argv[1:]
    if name in _WRAPPERS:
        rest = _unwrap(name, args)
        return ctx.command(rest, env, stdin) if rest else Stream()
    if (name in _RUNNERS and args[:1] == [_RUNNERS[name]]) or name in ("npx", "bunx", "pnpx", "uvx"):
        rest = _unwrap("runner", args[1:] if name in _RUNNERS else args)  # `poetry run python ...`: the command
        return ctx.command(rest, env, stdin) if rest else Stream()
    handler = builtin.BUILTINS.get(name)
    if handler is not None:
        return handler(args, env, ctx, stdin)
    if is_interpreter(name) and args[:1] == ["-m"] and len(args) > 1 and args[1] in _MODULE_PROGRAMS:
        module = _MODULE_PROGRAMS[args[1]]  # `python -m markitdown f`: the module's own command line
        return ctx.command([module, *args[2:]], env, stdin)
    if name in SHELLS or is_interpreter(name):
        from boundread.guard.shell import scripts  # its patterns compile only for a script

        if name in SHELLS:
            return scripts.shell(name, args, env, ctx, stdin)
        return scripts.interpreter(name, args, env, ctx, stdin)
    if name == "parallel":
        from boundread.guard.shell import fanout

        return fanout.parallel(args, env, ctx, stdin)
    if name in ("xargs", "find", "fd", "fdfind"):
        from boundread.guard.shell import fanout

        return fanout.xargs(args, env, ctx, stdin) if name == "xargs" else fanout.find(name, args, env, ctx)
    if name in archives.PROGRAMS:
        return archives.run(name, args, env, ctx, stdin)
    if name in converters.PROGRAMS:
        return converters.run(name, args, env, ctx, stdin)
    if name in derive.PROGRAMS:
        return derive.run(name, args, env, stdin)
    if name in editors.PROGRAMS:
        return editors.run(name, args, env, stdin)
    if name in _CONSUMERS:
        return Stream()
    if name in _DUMPERS:
        return _dumper(name, args, env, ctx, stdin)
    if name in ("awk", "gawk", "mawk", "nawk"):
        return _awk(name, args, env, ctx, stdin)
    if name in bounds.READERS:
        return _reader(name, args, env, ctx, stdin)
    if name in greps.GREPS:
        return greps.grep(name, args, env, ctx, stdin)
    if name in jsonprint.PROGRAMS:
        return jsonprint.run(name, args, env, stdin)
    if name == "python-json.tool":
        return jsonprint.json_tool(args, env, ctx, stdin)
    if name in _COPIES:
        return _copy(name, args, env, ctx, stdin)
    if name == "sponge":  # `... | sponge out`: its stdin, written to out once it ends
        for target in operands(args)[:1]:
            write(env, ctx, target, Stream(stdin.named("sponge"), stdin.text, stdin.exact))
        return Stream() if operands(args) else Stream(stdin.named("sponge"), stdin.text)
    if name == "tee":
        for target in operands(args):
            _write(env, ctx, target, Stream(stdin.named("tee"), stdin.text))
        return Stream(stdin.named("tee"), stdin.text)
    if name == "git":
        from boundread.guard.shell import gitcmds

        return gitcmds.run(args, env, ctx, stdin)
    if name in databases.PROGRAMS:
        return databases.run(name, args, env, ctx, stdin)
    if name == "ssh":
        return _ssh(args, env, ctx)
    return Stream(stdin.named(name), "")  # unknown: its stdin may come out as it went in


#: Programs whose output is lines of their input as they were (the order and number may change, not a line).
_UNCHANGED = frozenset({"cat", "tac", "head", "tail", "sort", "tee", "shuf"})
#: Options of those that change lines: cat -n/-b/-A/-v/-E/-T number or mark them, sort/shuf -o write elsewhere.
_CHANGING = frozenset("nbAvetET")


def unchanged(argv: list[str]) -> bool:
    """Does ``argv`` print the lines it reads as they are (``cat f``, ``head -n 5``, ``sort``) - not ``cut``,
    ``sed``, ``tr``, ``cat -n``? Only then is what a stream carries a file's own text (a list of names)."""
    if not argv or base(argv[0]) not in _UNCHANGED:
        return False
    if base(argv[0]) not in ("cat", "tac"):
        return True
    return not any(arg.startswith("-") and arg not in ("-", "--") and set(arg[1:]) & _CHANGING for arg in argv[1:])


def exact(argv: list[str], out: Stream, stdin: Stream) -> bool:
    """Is ``out``, what ``argv`` printed from ``stdin``, all it prints as it is (``Stream.exact``)? A wrapper,
    shell or ``xargs`` prints what the commands it ran did (judged there); ``cat``/``head``/``sort`` pass on
    their input's lines; a builtin, ``ls`` or ``find`` prints the text it was modelled with; any other
    program's output is not known (``git ls-files``), or is its input changed (``cut``, ``sed``, ``tr``)."""
    name = base(argv[0]) if argv else ""
    if name in _WRAPPERS or name in SHELLS or name in ("xargs", "eval", "source", "."):
        return out.exact
    if unchanged(argv):
        return out.exact and stdin.exact
    if name in builtin.BUILTINS or name in ("find", "fd", "fdfind"):
        return out.exact and not out.flows
    return False


_write = write


def _unwrap(name: str, args: list[str]) -> list[str]:
    """The command a wrapper runs: ``sudo -u me cat f`` -> ``cat f``; ``env A=1 cat f``; ``timeout 5 cat f``."""
    values = _WRAPPER_VALUES.get(name, set())
    k = 0
    while k < len(args):
        arg = args[k]
        if arg == "--":
            k += 1
            break
        if arg.startswith("-") and arg != "-":
            k += 2 if arg in values else 1
        elif (name == "env" and "=" in arg) or (name in ("timeout", "watch") and arg[:1].isdigit()):
            k += 1
        elif name == "command" and arg in ("-v", "-V"):
            return []
        else:
            break
    if name in ("script", "su", "runuser"):  # `script -qc CMD`, `su [user] -c CMD`: CMD runs in a shell
        for at, arg in enumerate(args):
            code = args[at + 1] if at + 1 < len(args) else ""
            if arg in ("-c", "--command") or (arg.startswith("-") and not arg.startswith("--") and arg.endswith("c")):
                return ["sh", "-c", code] if code else []
            if arg.startswith("--command="):
                return ["sh", "-c", arg.split("=", 1)[1]]
        if name != "runuser":
            return []  # a login shell, or a session recorded: nothing run here
        return args[args.index("--") + 1:] if "--" in args else []
    if name in ("busybox", "toybox") or name == "strace":
        return args[k:]
    return args[k:]


def _dumper(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """What a dumper prints; ``sort -o OUT``, ``uniq IN OUT``: written to OUT instead, for a later read."""
    target = _output(name, args)
    if target is not None:
        out = _dumper(name, _without_output(args, target) if name != "uniq" else args[:-1], env, ctx, stdin)
        write(env, ctx, target, out)
        return Stream()
    own = bounds.length_bound(name, args) or (summaries.cut_fields(args) if name == "cut" else None) or \
        (summaries.distinct(f"{name} -u" if name == "sort" else name)
         if name == "uniq" or (name == "sort" and _unique(args)) else None)
    names = [] if name in _STDIN_ONLY else operands(args, _DUMPERS[name])
    if name == "uniq":
        names = names[:1]  # `uniq in out`: the second is the output
    reads = [n for n in names if n != "-"]
    shown = own.words if own is not None else name
    each = _each_bound(name, args, env, reads)
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
    return out


def _output(name: str, args: list[str]) -> str | None:
    """The file ``sort -o OUT``/``shuf -o OUT``/``iconv -o OUT`` or ``uniq IN OUT`` writes; None: stdout."""
    if name == "uniq":
        names = operands(args, _DUMPERS[name])
        return names[1] if len(names) > 1 and names[1] != "-" else None
    if name not in ("sort", "iconv", "shuf"):
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


def _each_bound(name: str, args: list[str], env: Env, reads: list[str]) -> list[tuple[str, bounds.Bound | None]] | None:
    """The bound each file operand gets from the size of its lines: ``cut -c1-100`` (lines x 101 bytes),
    ``shuf -n 20`` (20 x the longest line); None for any other dumper."""
    if name == "cut":
        width = summaries.cut_width(args)
        if width is not None:
            return summaries.per_line(env, reads, width, f"cut -c1-{width}")
    if name == "shuf":
        count = _shuf_count(args)
        if count is not None:
            return summaries.picked(env, reads, count, f"shuf -n {count}")
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


def _awk(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
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
    matched = filters.awk(name, args)
    if matched is not None:  # `awk '/INFO/'`: the lines that match, as grep prints them
        names, bound = matched
        out.add(files(env, names, name, bound) if names else bounded(stdin, bound, bound.words))
        return out
    out.add(_reader(name, args, env, ctx, stdin))
    return out


def _reader(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    if name == "dd":
        ops = {key: value for key, _, value in (arg.partition("=") for arg in args if "=" in arg)}
        target = ops.get("of")
        if target not in (None, "-") and not visible(env.path(target)):
            source = read_file(env, ops["if"], "dd") if ops.get("if") else Stream(stdin.named("dd"), stdin.text)
            _write(env, ctx, target, source)
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


def _copy(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    target_dir = None
    names: list[str] = []
    k = 0
    while k < len(args):
        arg = args[k]
        if arg in ("-t", "--target-directory"):
            target_dir, k = (args[k + 1] if k + 1 < len(args) else None), k + 1
        elif arg.startswith("--target-directory="):
            target_dir = arg.split("=", 1)[1]
        elif arg in ("-S", "--suffix", "-m", "--mode", "-o", "--owner", "-g", "--group", "-e"):
            k += 1
        elif not arg.startswith("-") or arg == "-":
            names.append(arg)
        k += 1
    if target_dir is None and len(names) >= 2:
        target_dir, names = names[-1], names[:-1]
        single = len(names) == 1
    else:
        single = False
    if target_dir is None or UNKNOWN in target_dir:
        return Stream()
    dest = env.path(target_dir)
    symbolic = name == "ln" and any((arg.startswith("-") and "s" in arg.lstrip("-") and not arg.startswith("--"))
                                    or arg == "--symbolic" for arg in args)
    for source in names[:FANOUT]:
        if UNKNOWN in source:
            continue
        where = dest
        if visible(dest) or dest == "/dev/null":
            pass
        elif not single or os.path.isdir(dest) or target_dir.endswith("/"):
            where = os.path.join(dest, base(source.rstrip("/")))
        if symbolic and not os.path.isabs(source):
            stream = read_file(env, os.path.join(os.path.dirname(where), source), name)
        else:
            stream = read_file(env, source, name) if source != "-" else Stream(stdin.named(name), stdin.text)
        _write(env, ctx, where, stream)
    return Stream()


_SSH_VALUES = frozenset({"-B", "-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o",
                         "-p", "-Q", "-R", "-S", "-W", "-w"})


def _ssh(args: list[str], env: Env, ctx: Ctx) -> Stream:
    """``ssh HOST CMD...``: CMD runs there, its output comes here. Walked as a script on a shell of its
    own, whose files are the host's: each one is a REMOTE use, judged by its name (decide)."""
    k = 0
    while k < len(args) and args[k].startswith("-") and args[k] != "--":
        k += 2 if args[k] in _SSH_VALUES else 1
    k += args[k:k + 1] == ["--"]
    if k + 1 >= len(args):
        return Stream()  # a login, or no host
    host, rest = args[k].rpartition("@")[2], args[k + 1:]
    rest = rest[1:] if rest[:1] == ["--"] else rest
    script = " ".join(rest)
    if not script or UNKNOWN in script:
        return Stream()
    before = len(ctx.uses)
    out = ctx.shell(script, Env("~"), Stream())  # the remote home; nothing of this shell goes there
    shown = ctx.uses[before:]
    del ctx.uses[before:]
    for use in shown:  # what the remote command sent to its stderr, which ssh brings here too
        if use.action == PRINT:
            ctx.uses.append(FileUse(REMOTE, f"{host}:{use.path}", f"ssh {host} {use.program}", use.bounds))
    flows = [(f"{REMOTE_MARK}{host}:{path}", found, f"ssh {host} {program}") for path, found, program in out.flows]
    return Stream(flows, out.text)
