"""What each program does with its files and its stdin: prints them (the dumpers), bounds them,
consumes them (``wc``, ``sha256sum``, an upload), writes them to a file, or runs them (shells, interpreters).

An unknown program is taken to pass its stdin through - the conservative reading - and to read none of
its operands.
"""

from __future__ import annotations

import os

from boundread.guard import bounds
from boundread.guard.shell import builtin
from boundread.guard.shell.families import FAMILY
from boundread.guard.shell.reads import operands, write
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

_CONSUMERS = frozenset({"wc", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum",
                        "b3sum", "xxhsum", "cksum", "sum", "shasum", "md5", "file", "boundread", "true",
                        "false", ":", "test", "[", "[[", "sleep", "exit", "return",
                        "shopt", "trap", "wait", "alias", "type", "which", "hash", "umask", "ulimit", "kill",
                        "du", "stat", "pdfinfo", "identify", "aws", "gsutil", "gcloud", "az", "scp", "nc", "ncat",
                        "mail", "sendmail", "mktemp", "touch", "mkdir", "rm", "rmdir", "chmod", "chown", "diffstat",
                        "export", "local", "declare", "typeset", "readonly"})
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
                    "csvkit.utilities.csvlook": "csvlook", "json.tool": "python-json.tool",
                    "gzip": "gzip", "base64": "base64"}  # their command lines are gzip's and base64's
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "rbash"})
_INTERPRETERS = frozenset({"python", "pypy", "node", "nodejs", "bun", "deno", "perl", "ruby", "php", "lua",
                           "Rscript", "osascript", "jshell", "tclsh"})
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
        folder = _chdir(args) if name == "env" else None
        if folder is not None and rest:  # `env -C logs cat app-1.log`: run from that folder
            env = env.copy()
            env.cwd = env.logical(folder)
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
    if name in ("make", "gmake"):
        from boundread.guard.shell import scripts

        return scripts.make(args, env, ctx, stdin)
    if name == "parallel":
        from boundread.guard.shell import fanout

        return fanout.parallel(args, env, ctx, stdin)
    if name in ("xargs", "find", "fd", "fdfind"):
        from boundread.guard.shell import fanout

        return fanout.xargs(args, env, ctx, stdin) if name == "xargs" else fanout.find(name, args, env, ctx)
    family = FAMILY.get(name)  # the module that models it, imported only then (families.py)
    if family == "archives":
        from boundread.guard.shell import archives

        return archives.run(name, args, env, ctx, stdin)
    if family == "converters":
        from boundread.guard.shell import converters

        return converters.run(name, args, env, ctx, stdin)
    if family == "derive":
        from boundread.guard.shell import derive

        return derive.run(name, args, env, stdin)
    if family == "editors":
        from boundread.guard.shell import editors

        return editors.run(name, args, env, stdin)
    if name in _CONSUMERS:
        return Stream()
    if family == "dumpers":
        from boundread.guard.shell import dumpers

        return dumpers.dumper(name, args, env, ctx, stdin)
    if name in ("awk", "gawk", "mawk", "nawk"):
        from boundread.guard.shell import dumpers

        return dumpers.awk(name, args, env, ctx, stdin)
    if name in bounds.READERS:
        from boundread.guard.shell import dumpers

        return dumpers.reader(name, args, env, ctx, stdin)
    if family == "greps":
        from boundread.guard.shell import greps

        return greps.grep(name, args, env, ctx, stdin)
    if family == "remote":  # docker logs, kubectl logs, journalctl...
        from boundread.guard.shell import remote

        return remote.run(name, args, env, ctx, stdin)
    if family == "generators":  # yes, seq, jot
        from boundread.guard.shell import generators

        return generators.run(name, args)
    if family == "jsonprint":
        from boundread.guard.shell import jsonprint

        return jsonprint.run(name, args, env, ctx, stdin)
    if name == "python-json.tool":
        from boundread.guard.shell import jsonprint

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
    if family == "databases":
        from boundread.guard.shell import databases

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


def _chdir(args: list[str]) -> str | None:
    """The folder ``env -C DIR`` / ``--chdir=DIR`` runs its command in; None when it names none (or one not known)."""
    for at, arg in enumerate(args):
        if arg in ("-C", "--chdir") and at + 1 < len(args):
            folder = args[at + 1]
        elif arg.startswith("--chdir="):
            folder = arg.split("=", 1)[1]
        elif arg.startswith("-C") and len(arg) > 2:
            folder = arg[2:]
        else:
            continue
        return folder if folder and UNKNOWN not in folder else None
    return None


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
