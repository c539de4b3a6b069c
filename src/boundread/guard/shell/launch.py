"""How one argv runs another: wrappers (``env``, ``sudo``, ``timeout``...), runners (``uvx``, ``uv run``, ``pipx
run``), ``boundread budget exec``, ``xargs``, ``find -exec``, shells and interpreters and the code they are given.

For the self-cap walk (effects.py): each function takes an argv's words and says what runs next.
"""

from __future__ import annotations

from boundread.guard.shell.state import UNKNOWN

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "rbash", "busybox-sh"})
_INTERPRETERS = frozenset({"python", "pypy", "node", "nodejs", "bun", "deno", "perl", "ruby", "php", "lua",
                           "Rscript", "osascript", "tclsh", "awk", "gawk", "mawk", "nawk", "jshell", "irb"})
WRAPPERS = frozenset({"sudo", "doas", "env", "time", "nohup", "nice", "command", "exec", "builtin", "stdbuf",
                      "timeout", "ionice", "caffeinate", "chronic", "unbuffer", "nocache", "flock", "setsid",
                      "chrt", "taskset", "strace", "ltrace", "busybox", "toybox", "faketime", "catchsegv",
                      "firejail", "proot", "fakeroot", "run-one", "systemd-run", "xvfb-run", "then", "do", "chroot",
                      "prlimit", "numactl", "setpriv", "unshare", "nsenter", "cgexec", "valgrind"})
#: Wrappers whose first operand is not the command: ``flock FILE cmd``, ``chrt PRIO cmd``, ``taskset MASK cmd``,
#: ``chroot DIR cmd``.
_LEADING = {"flock": 1, "chrt": 1, "taskset": 1, "chroot": 1}
_VALUES = {"sudo": {"-u", "-g", "-p", "-C", "-D", "-h", "-r", "-t", "-U", "--user", "--group"},
           "doas": {"-u", "-C"}, "env": {"-u", "-C", "-S", "--unset", "--chdir", "--split-string"},
           "nice": {"-n", "--adjustment"}, "timeout": {"-s", "-k", "--signal", "--kill-after"},
           "ionice": {"-c", "-n", "-p"}, "stdbuf": {"-i", "-o", "-e"}, "flock": {"-w", "-E", "--timeout"},
           "strace": {"-e", "-o", "-p", "-s", "-E"}, "ltrace": {"-e", "-o", "-p", "-s"},
           "chrt": {"-T", "-P", "-D", "--sched-runtime", "--sched-period", "--sched-deadline"},
           "systemd-run": {"-p", "--unit", "-E", "--setenv"}, "faketime": {"-f"}, "cgexec": {"-g"},
           "nsenter": {"-t", "--target", "-S", "-G"}, "setpriv": {"--reuid", "--regid", "--groups"}}
_XARGS_VALUES = frozenset({"-n", "-L", "-I", "-d", "-P", "-s", "-a", "-E", "--max-args", "--max-lines",
                           "--replace", "--delimiter", "--max-procs", "--arg-file", "--eof", "--max-chars"})
CODE_FLAGS = frozenset({"-e", "-E", "--eval", "-p", "--print", "-r", "-x"})  # perl, ruby, node, php, lua
PYTHON_CODE = frozenset({"-c"})
TAKES_VALUE = frozenset({"-W", "-X", "-I", "-M", "-F", "-v", "--require", "-r", "--import"})
_RUNNERS = {"uvx": {"--from", "--with", "-p", "--python", "--with-requirements", "--index-url", "--index"},
            "pipx": {"--spec", "--python", "--pip-args", "--index-url"},
            "uv": {"--from", "--with", "-p", "--python", "--with-requirements", "--directory", "--project",
                   "--package", "--index-url", "--index", "--env-file"},
            "npx": {"-p", "--package"}, "bunx": {"-p", "--package"}, "poetry": {"-C", "--directory"},
            "pdm": {"-p", "--project"}, "hatch": {"-e", "--env"}, "conda": {"-n", "--name", "-p", "--prefix"},
            "pixi": {"-e", "--environment", "--manifest-path"}, "rye": set(), "pyenv": set(), "mise": set()}


def base(word: str) -> str:
    """The program's name: ``/usr/bin/python3.12`` -> ``python3.12``, ``boundread.exe`` -> ``boundread``."""
    name = word.replace("\\", "/").rsplit("/", 1)[-1]
    return name[:-4] if name.lower().endswith(".exe") else name


def is_interpreter(name: str) -> bool:
    return name.rstrip("0123456789.") in _INTERPRETERS or name.startswith("python")


def code(name: str, args: list[str], stdin: str | None,
         read: Callable[[str], str]) -> tuple[str | None, list[str]]:
    """(the code an interpreter runs - ``-c``/``-e`` text, a script file's text through ``read``, its stdin for
    ``-`` or no script -, the module and its arguments of ``python -m``)."""
    python = name.startswith(("python", "pypy"))
    awk = name.rstrip("0123456789.") in ("awk", "gawk", "mawk", "nawk")
    flags = PYTHON_CODE if python else CODE_FLAGS
    k = 0
    while k < len(args):
        arg = args[k]
        if arg in flags or (not python and not awk and arg[:1] == "-" and len(arg) > 2 and arg[1:].isalpha()
                            and arg[-1] in "eE"):  # perl -ne CODE (not -MFile::Path=remove_tree)
            return (args[k + 1] if k + 1 < len(args) else ""), []
        if awk and arg == "-f" and k + 1 < len(args):
            return read(args[k + 1]), []
        if python and arg == "-m" and k + 1 < len(args):  # `python -m boundread budget set`
            return " ".join(args[k + 1:]), args[k + 1:]
        if arg[:1] == "-" and arg != "-":
            k += 2 if arg in TAKES_VALUE else 1
            continue
        if awk:  # awk 'PROGRAM' files
            return arg, []
        if arg == "-":
            return stdin or "", []
        return (read(arg) if UNKNOWN not in arg else arg), []
    return stdin, []


def reads_stdin(argv: list[str]) -> bool:
    """A shell or interpreter given no script: it runs what arrives on its stdin."""
    name = base(argv[0])
    if name not in SHELLS and not is_interpreter(name):
        return False
    rest = [arg for arg in argv[1:] if arg not in ("-", "-s", "-i", "-l", "--login", "-u", "-x")]
    return not rest or (rest[0].startswith("-") and "c" not in rest[0] and rest[0] not in CODE_FLAGS)


def inner(name: str, args: list[str], sets: list[tuple[str, str | None]]) -> list[str] | None:
    """The argv a wrapper or runner runs ([] when none), noting what ``env`` sets; None: not a wrapper."""
    if name in WRAPPERS:
        return _unwrap(name, args, sets)
    if name in _RUNNERS:
        return _runner(name, args)
    if name == "boundread" and args[:2] == ["budget", "exec"]:
        rest = args[2:]
        return rest[rest.index("--") + 1:] if "--" in rest else [a for a in rest if not a.startswith("-")][1:]
    return None


def _unwrap(name: str, args: list[str], sets: list[tuple[str, str | None]]) -> list[str]:
    values = _VALUES.get(name, set())
    if name == "flock" and ("-c" in args or "--command" in args or any(a.startswith("--command=") for a in args)):
        script = flag_value(args, ("-c", "--command")) or next((a[10:] for a in args if a.startswith("--command=")), "")
        return ["sh", "-c", script]  # `flock FILE -c 'CMD'`
    leading = _LEADING.get(name, 0)
    k = 0
    while k < len(args):
        arg = args[k]
        if arg == "--":
            k += 1
            break
        if name == "env" and arg in ("-i", "--ignore-environment", "-"):
            sets.append(("*", None))
        elif name == "env" and arg in ("-u", "--unset") and k + 1 < len(args):
            sets.append((args[k + 1], None))
        elif name == "env" and arg.startswith("--unset="):
            sets.append((arg.split("=", 1)[1], None))
        elif name == "env" and arg in ("-S", "--split-string") and k + 1 < len(args):
            return [*args[k + 1].split(), *args[k + 2:]]
        if arg.startswith("-") and arg != "-":
            k += 2 if arg in values else 1
        elif name == "env" and "=" in arg:
            key, _, value = arg.partition("=")
            sets.append((key, value))
            k += 1
        elif name in ("timeout", "watch", "nice") and arg[:1].isdigit():
            k += 1
        elif leading:
            leading -= 1
            k += 1
        else:
            break
    return args[k:]


def _runner(name: str, args: list[str]) -> list[str]:
    """``uvx boundread ...``, ``uv run [--with x] boundread ...``, ``pipx run boundread ...``: the command run."""
    values = _RUNNERS[name]
    k = 0
    if name in ("uv", "pipx", "poetry", "pdm", "hatch", "conda", "pixi", "rye", "npx", "bunx", "mise", "pyenv"):
        subs = {"run", "tool", "exec", "x"}
        while k < len(args) and (args[k] in subs or args[k].startswith("-")):
            k += 2 if args[k] in values else 1
    while k < len(args) and args[k].startswith("-"):
        k += 2 if args[k] in values else 1
    rest = args[k:]
    return rest[1:] if rest[:1] == ["--"] else rest


def flag_value(args: list[str], flags: tuple[str, ...]) -> str:
    for k, arg in enumerate(args):
        if arg in flags and k + 1 < len(args):
            return args[k + 1]
    return ""


def operands(args: list[str]) -> list[str]:
    k = 0
    while k < len(args) and args[k].startswith("-"):
        k += 2 if args[k] in ("-n", "-d", "--interval") else 1
    return args[k:]


def xargs_command(args: list[str]) -> list[str]:
    """The command xargs runs; its ``-I`` replace-string (what stdin gives) as ``UNKNOWN``."""
    k, replace = 0, None
    while k < len(args) and args[k].startswith("-"):
        key, _, given = args[k].partition("=")
        if key in ("-I", "--replace"):
            replace = given or (args[k + 1] if k + 1 < len(args) and key == "-I" else "{}")
        elif key.startswith(("-I", "-i")):
            replace = key[2:] or "{}"
        k += 2 if key in _XARGS_VALUES and not given else 1
    command = args[k:] or ["echo"]
    return [arg.replace(replace, UNKNOWN) for arg in command] if replace else command


def execs(args: list[str]) -> list[list[str]]:
    """Each ``-exec CMD ... ;`` (and ``-execdir``, ``-ok``, fd's ``-x``/``-X``): CMD."""
    found: list[list[str]] = []
    k = 0
    while k < len(args):
        if args[k] in ("-exec", "-execdir", "-ok", "-okdir", "-x", "--exec", "-X", "--exec-batch"):
            end = k + 1
            while end < len(args) and args[end] not in (";", "+", "\\;"):
                end += 1
            if end > k + 1:
                found.append(args[k + 1:end])
            k = end
        k += 1
    return found


def tar_commands(args: list[str]) -> list[str]:
    """The commands a ``tar`` runs (``--checkpoint-action=exec=``, ``--to-command``, ``-I``/
    ``--use-compress-program``, ``-F``/``--info-script``/``--new-volume-script``), each as a shell script."""
    found = []
    for k, arg in enumerate(args):
        key, eq, value = arg.partition("=")
        if key == "--checkpoint-action" and value.startswith("exec="):
            found.append(value[5:])
        elif eq and key in ("--to-command", "--use-compress-program", "--info-script", "--new-volume-script"):
            found.append(value)
        elif arg in ("-I", "-F", "--to-command", "--use-compress-program", "--info-script",
                     "--new-volume-script") and k + 1 < len(args):
            found.append(args[k + 1])
    return found
