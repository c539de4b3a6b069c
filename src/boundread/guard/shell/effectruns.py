"""What one argv runs, for the self-cap walk (effects.py): the command a wrapper or runner starts (launch.py),
``cd``, ``eval``, ``source``/``.``, a shell's script or ``-c``, ``xargs``, ``find -exec``, the commands ``tar``
runs, an interpreter's code (``python -m`` a module of the working folder too), the recipes of ``make``, and a
file run by its path (scriptfiles.py reads each one whole, or notes it too big to).

``Runs`` is the walk's half that takes an argv; effects.py's ``_Walk`` is the half that takes syntax, and gives
``script`` (parse and walk a text).
"""

from __future__ import annotations

import os

from boundread.guard.shell import launch, scriptfiles
from boundread.guard.shell.launch import SHELLS, base, is_interpreter
from boundread.guard.shell.scriptfiles import CODE_MAX, SCRIPT_MAX
from boundread.guard.shell.state import UNKNOWN, Ctx, Env, Exhausted

TOO_BIG = UNKNOWN + "too big: "  # what `cat FILE` prints, for a FILE too big to read whole


class Run:
    """One argv the command executes: its words (``UNKNOWN`` where not known), their source texts, where."""

    __slots__ = ("argv", "cwd", "raws")

    def __init__(self, argv: list[str], raws: list[str], cwd: str) -> None:
        self.argv, self.raws, self.cwd = argv, raws, cwd


class Effects:
    """``runs``: every argv; ``writes``: (target, its source text, the folder) of each redirection that writes;
    ``sets``: (name, value) of each variable a run is given (``NAME=v cmd``, ``export``, ``env NAME=v``),
    value None when unset (``unset``, ``env -u``; ``*``: ``env -i``); ``codes``: interpreter code; ``cwds``:
    every folder the command may be in; ``unsure``: a part could not be followed; ``unread``: the files it runs
    as code that are too big to read whole (scriptfiles.py); ``scripts``: the shell scripts it runs from files
    or from a pipe (when the walk is ``unsure``, one of them may be what was not followed)."""

    __slots__ = ("codes", "cwds", "runs", "scripts", "sets", "unread", "unsure", "writes")

    def __init__(self, root: str) -> None:
        self.runs: list[Run] = []
        self.writes: list[tuple[str, str, str]] = []
        self.sets: list[tuple[str, str | None]] = []
        self.codes: list[str] = []
        self.cwds: set[str] = {root}
        self.unsure = False
        self.unread: list[str] = []
        self.scripts: list[str] = []


class Runs:
    """The argv half of the walk: ``ctx`` and ``found`` are the walk's, ``script`` its way to follow a text."""

    __slots__ = ()
    ctx: Ctx
    found: Effects

    def script(self, text: str, env: Env, depth: int) -> None:
        raise NotImplementedError

    def run(self, argv: list[str], raws: list[str], env: Env, stdin: str | None, depth: int) -> None:
        self.ctx.step()
        if len(self.found.runs) > 4096:
            raise Exhausted("too many commands")
        self.found.runs.append(Run(argv, raws, env.cwd))
        name, args = base(argv[0]), argv[1:]
        inner = launch.inner(name, args, self.found.sets)
        if inner is not None:
            if inner:
                tail = raws[len(argv) - len(inner):] if argv[len(argv) - len(inner):] == inner else inner
                self.run(inner, tail, env, stdin, depth)
            return
        if name in ("cd", "pushd") and args and UNKNOWN not in args[-1]:
            env.cwd = env.logical(args[-1])
            self.found.cwds.add(env.cwd)
        elif name in ("cd", "pushd"):
            env.cwd = os.path.expanduser("~") if not args else env.cwd
            self.found.cwds.add(env.cwd)
        elif name == "eval":
            self.script(" ".join(args), env, depth + 1)
        elif name in ("source", ".") and args:
            self.follow(env.path(args[0]), self.file(env.path(args[0]), SCRIPT_MAX), env, depth)
        elif name in SHELLS:
            self.shell(args, env, stdin, depth)
        elif name in ("watch", "su", "script", "runuser"):
            script = " ".join(launch.operands(args)) if name == "watch" else launch.flag_value(args, ("-c",))
            if script:
                self.script(script, env.copy(), depth + 1)
        elif name == "xargs":
            command = launch.xargs_command(args)
            shown = [word.replace(UNKNOWN, "{}") for word in command]
            self.run([*command, UNKNOWN], [*shown, "<stdin>"], env, None, depth)
        elif name in ("find", "fd", "fdfind"):
            for command in launch.execs(args):
                self.run(command, command, env, None, depth)
        elif is_interpreter(name):
            self.interpreter(name, args, env, stdin, depth)
        elif name in ("make", "gmake"):
            self.make(args, env, depth)
        elif name in ("tar", "bsdtar"):  # `--checkpoint-action=exec=CMD`, `-I CMD`, `--to-command=CMD`
            for script in launch.tar_commands(args):
                self.script(script, env.copy(), depth + 1)
        elif "/" in argv[0].replace("\\", "/") and UNKNOWN not in argv[0]:
            self.executable(env.path(argv[0]), args, env, stdin, depth)

    def follow(self, path: str, text: str, env: Env, depth: int) -> None:
        """A shell script read from ``path``, walked in ``env`` (a sourced one changes the caller's shell)."""
        if text:
            self.found.scripts.append(path)
            self.script(text, env, depth + 1)

    def file(self, path: str, limit: int) -> str:
        """A script or code file's text ('' when there is none); one too big to read whole is noted."""
        text = scriptfiles.read(path, limit)
        if text is None:
            self.found.unread.append(path)
            return ""
        return text

    def executable(self, path: str, args: list[str], env: Env, stdin: str | None, depth: int) -> None:
        """A program run by its path (``./r.sh``): a script runs as its ``#!`` line says, a text file without
        one as a shell script; a binary is a program like any other."""
        text = self.file(path, CODE_MAX)
        if not text:
            return
        interpreter = scriptfiles.shebang(text)
        name = base(interpreter[0]) if interpreter else "sh"
        if name in SHELLS and len(text) > SCRIPT_MAX:
            self.found.unread.append(path)
        elif name in SHELLS:
            self.follow(path, text, env.copy(), depth)
        else:  # python, node... or a program not modelled here: the text is read for what it names
            self.found.codes.append(text)

    def make(self, args: list[str], env: Env, depth: int) -> None:
        """The recipes ``make`` runs for its targets, as a shell script in its folder."""
        folder, given, targets = scriptfiles.make_args(args)
        inner = env.copy()
        inner.cwd = env.logical(folder) if folder else env.cwd
        path = scriptfiles.makefile(inner.cwd, given)
        text = self.file(path, SCRIPT_MAX) if path else ""
        if text:
            self.follow(path, scriptfiles.recipes(text, targets), inner, depth)

    def shell(self, args: list[str], env: Env, stdin: str | None, depth: int) -> None:
        for k, arg in enumerate(args):
            if arg.startswith("-") and not arg.startswith("--") and "c" in arg[1:]:
                script = args[k + 1] if k + 1 < len(args) else ""
                self.script(script, env.copy(), depth + 1)
                return
            if UNKNOWN in arg and not arg.startswith(("-", "+")):
                self.script(UNKNOWN, env.copy(), depth + 1)
                return
            if not arg.startswith(("-", "+")):
                self.follow(env.path(arg), self.file(env.path(arg), SCRIPT_MAX), env.copy(), depth)
                return
        if stdin is not None:
            self.script(stdin, env.copy(), depth + 1)

    def interpreter(self, name: str, args: list[str], env: Env, stdin: str | None, depth: int) -> None:
        """The code an interpreter runs, to ``codes`` (launch.code); ``python -m boundread``: boundread's argv."""
        code, module = launch.code(name, args, stdin, lambda word: self.file(env.path(word), CODE_MAX))
        if module and module[0].split(".", 1)[0] == "boundread":
            self.run(["boundread", *module[1:]], ["boundread", *module[1:]], env, stdin, depth)
        elif module and UNKNOWN not in module[0]:  # `python -m tool`: a tool.py in the folder comes first
            self.found.codes.append(self.file(scriptfiles.module_file(env.cwd, module[0]), CODE_MAX))
        if code is not None:
            self.found.codes.append(code)

    def stdin_code(self, argv: list[str], text: str, env: Env, depth: int) -> None:
        name = base(argv[0])
        if TOO_BIG in text:  # `cat big.sh | sh`
            self.found.unread.append(text.split(TOO_BIG, 1)[1].split("\n", 1)[0])
            return
        if name in SHELLS:
            self.follow("<stdin>", text, env.copy(), depth)
        else:
            self.found.codes.append(text)
