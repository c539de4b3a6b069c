"""What a shell command runs and where it writes: every argv it would execute, at any depth, and every file a
redirection opens for writing - for the budget's self-cap check (budget/selfcap.py), not for reads.

The words are expanded as the read guard expands them (``words``: quotes, ``$'...'``, variables the command
set, ``~``, braces, globs, ``$(pwd)``); a word whose value cannot be known here is ``UNKNOWN`` and its source
text is kept beside it, for the judge to look at. Followed: lists, pipelines, sub-shells, ``$(...)``, loops and
``if`` bodies (each once), functions, redirections, here-documents and here-strings, ``bash -c``/``sh -c``,
``eval``, ``source``, a script file or piped text given to a shell, ``xargs``, ``find -exec``, wrappers
(``env``, ``sudo``, ``timeout``, ``nohup``...), ``uvx``/``uv run``/``pipx run``, ``python -m boundread`` and
``boundread budget exec``. The code given to an interpreter (``-c``, ``-e``, a script file, a here-document,
piped text) is kept as text (``codes``): the judge reads it for what it names.

An over-approximation on purpose: both branches of an ``if`` run, a loop's body runs once, every ``cd``
seen adds a folder that a later relative path is resolved against (``cwds``). What it cannot follow (a parse
error, the step budget, nesting deeper than ``DEPTH``) sets ``unsure``.
"""

from __future__ import annotations

import os

from boundread.guard.shell import launch
from boundread.guard.shell.launch import SHELLS, base, is_interpreter
from boundread.guard.shell.state import UNKNOWN, Ctx, Env, Exhausted, Stream

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

DEPTH = 8  # scripts within scripts (`bash -c "eval 'sh -c ...'"`)
SCRIPT_MAX = 64 * 1024  # a script or code file read from disk: at most this
LOOP = 16  # a `for` loop's body is followed for this many of its values
_WRITES = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&", "&>|"})


class Run:
    """One argv the command executes: its words (``UNKNOWN`` where not known), their source texts, where."""

    __slots__ = ("argv", "cwd", "raws")

    def __init__(self, argv: list[str], raws: list[str], cwd: str) -> None:
        self.argv, self.raws, self.cwd = argv, raws, cwd


class Effects:
    """``runs``: every argv; ``writes``: (target, its source text, the folder) of each redirection that writes;
    ``sets``: (name, value) of each variable a run is given (``NAME=v cmd``, ``export``, ``env NAME=v``),
    value None when unset (``unset``, ``env -u``; ``*``: ``env -i``); ``codes``: interpreter code; ``cwds``:
    every folder the command may be in; ``unsure``: a part could not be followed."""

    __slots__ = ("codes", "cwds", "runs", "sets", "unsure", "writes")

    def __init__(self, root: str) -> None:
        self.runs: list[Run] = []
        self.writes: list[tuple[str, str, str]] = []
        self.sets: list[tuple[str, str | None]] = []
        self.codes: list[str] = []
        self.cwds: set[str] = {root}
        self.unsure = False


def effects(text: str, cwd: str | os.PathLike[str] | None = None) -> Effects:
    """What ``text`` runs and writes, its paths relative to ``cwd`` (default: this process's folder)."""
    root = os.path.abspath(os.fspath(cwd)) if cwd else os.getcwd()
    found = Effects(root)
    from boundread.guard.shell import walk

    def shell(script: str, env: Env, stdin: Stream) -> Stream:  # what a `$(...)` runs, for its value
        from boundread.guard.shell import parser

        ctx.step(1 + len(script) // 256)
        return walk.run(parser.parse(script), env, ctx, stdin)

    ctx = Ctx(root, lambda node, env, stdin: walk.run(node, env, ctx, stdin), shell,
              lambda argv, env, stdin: walk.command(argv, env, ctx, stdin))
    try:
        _Walk(ctx, found).script(text, Env(root), 0)
    except (Exhausted, RecursionError):
        found.unsure = True
    except ImportError:  # no tree-sitter: the judge reads the text alone
        found.unsure = True
    return found


class _Walk:
    __slots__ = ("ctx", "found")

    def __init__(self, ctx: Ctx, found: Effects) -> None:
        self.ctx, self.found = ctx, found

    def script(self, text: str, env: Env, depth: int) -> None:
        if depth > DEPTH or len(text) > 4 * SCRIPT_MAX:
            self.found.unsure = True
            return
        from boundread.guard.shell import parser

        self.ctx.step(1 + len(text) // 256)
        tree = parser.parse(text)
        if tree.has_error:
            self.found.unsure = True
        self.visit(tree, env, depth)

    def visit(self, node: Node, env: Env, depth: int) -> None:
        self.ctx.step()
        kind = node.type
        if kind == "command":
            self.command(node, env, [], depth)
        elif kind == "redirected_statement":
            body = node.child_by_field_name("body")
            redirects = [child for child in node.named_children if child.type.endswith("_redirect")]
            if body is not None and body.type == "command":
                self.command(body, env, redirects, depth)
                return
            self.redirects(redirects, env)
            for redirect in redirects:
                self.substitutions(redirect, env, depth)
            if body is not None:
                self.visit(body, env, depth)
            self.after(redirects, [_text(body)], env, depth)
        elif kind == "variable_assignment":
            self.substitutions(node, env, depth)
            self.assign(node, env)
        elif kind == "declaration_command":
            self.substitutions(node, env, depth)
            for child in node.named_children:
                if child.type == "variable_assignment":
                    self.found.sets.append(self.assign(child, env))
        elif kind == "for_statement":
            self.for_loop(node, env, depth)
        elif kind == "unset_command":
            self.found.sets.extend((_text(child), None) for child in node.named_children)
        elif kind == "pipeline":
            self.pipeline(node, env, depth)
        elif kind in ("subshell", "command_substitution", "process_substitution", "function_definition"):
            inner = env.copy()
            for child in node.named_children:
                self.visit(child, inner, depth)
        else:
            for child in node.named_children:
                self.visit(child, env, depth)

    def for_loop(self, node: Node, env: Env, depth: int) -> None:
        """The body once per value of the loop's variable (the first LOOP of them), or once with it unknown."""
        from boundread.guard.shell import words

        variable, body = node.child_by_field_name("variable"), node.child_by_field_name("body")
        values: list[str] = []
        for word in node.children_by_field_name("value"):
            self.substitutions(word, env, depth)
            fields = words.expand(word, env, self.ctx, [])
            values.extend([UNKNOWN] if fields is None else fields)
        name = _text(variable)
        for value in values[:LOOP] or [UNKNOWN]:
            if value == UNKNOWN:
                env.vars.pop(name, None)
            else:
                env.vars[name] = value
            if body is not None:
                self.visit(body, env, depth)

    def assign(self, node: Node, env: Env) -> tuple[str, str | None]:
        from boundread.guard.shell import words

        name_node, value_node = node.child_by_field_name("name"), node.child_by_field_name("value")
        name = _text(name_node) if name_node is not None else ""
        found = "" if value_node is None else words.value(value_node, env, self.ctx, [])
        if found is None:
            env.vars.pop(name, None)
            return name, UNKNOWN + (_text(value_node) if value_node is not None else "")
        env.vars[name] = found
        return name, found

    def pipeline(self, node: Node, env: Env, depth: int, printed: list[str] | None = None) -> None:
        """Each stage in a copy of the shell; a shell or interpreter that reads its stdin runs what the stages
        before it print (``echo 'rm f' | sh``): their printed text, as far as it is known, else their source.
        ``printed``: what came into the pipeline (``cat <<EOF | sh``: the here-document)."""
        printed = list(printed or [])
        for stage in node.named_children:
            self.visit(stage, env.copy(), depth)
            argv, stdin = self.stage(stage, env)
            if argv and printed and stdin is None and launch.reads_stdin(argv):
                self.stdin_code(argv, "\n".join(printed), env, depth)
            printed.append(self.printed(argv, stdin, env, _text(stage)))

    def stage(self, stage: Node, env: Env) -> tuple[list[str], str | None]:
        """A pipeline stage's argv (none for a compound one) and the stdin its redirections give it."""
        body = stage.child_by_field_name("body") if stage.type == "redirected_statement" else stage
        if body is None or body.type != "command":
            return [], None
        argv, _raws, redirects, _prefix = self.words(body, env.copy())
        if stage.type == "redirected_statement":
            redirects += [c for c in stage.named_children if c.type.endswith("_redirect")]
        return argv, self.redirects(redirects, env.copy(), record=False)

    def printed(self, argv: list[str], stdin: str | None, env: Env, source: str) -> str:
        """What a command prints, for the one it is piped into: echo's and printf's words, the here-document or
        here-string ``cat`` is given, a small file ``cat`` reads; else the command's source text."""
        name = base(argv[0]) if argv else ""
        if name in ("echo", "printf") and UNKNOWN not in "".join(argv[1:]):
            return " ".join(arg for arg in argv[1:] if not (arg.startswith("-") and len(arg) < 4))
        if stdin is not None and name in ("cat", "tee", "") and len(argv) <= 1:
            return stdin
        if name == "cat" and len(argv) == 2 and UNKNOWN not in argv[1]:
            return _small(env.path(argv[1]))
        return source

    def words(self, node: Node, env: Env) -> tuple[list[str], list[str], list[Node], list[tuple[str, str | None]]]:
        """(argv, each word's source text, its redirections, its ``NAME=value`` prefixes)."""
        from boundread.guard.shell import words

        argv: list[str] = []
        raws: list[str] = []
        redirects: list[Node] = []
        prefix: list[tuple[str, str | None]] = []
        for child in node.named_children:
            kind = child.type
            if kind.endswith("_redirect"):
                redirects.append(child)
            elif kind == "variable_assignment":
                prefix.append(self.assign(child, env.copy()))
            else:
                word = child.named_children[0] if kind == "command_name" and child.named_children else child
                fields = words.expand(word, env, self.ctx, [])
                fields = [UNKNOWN] if fields is None else fields
                argv.extend(fields)
                raws.extend([_text(word)] * len(fields))
        return argv, raws, redirects, prefix

    def command(self, node: Node, env: Env, outer: list[Node], depth: int) -> None:
        argv, raws, redirects, prefix = self.words(node, env)
        self.found.sets.extend(prefix)
        redirects += outer
        stdin = self.redirects(redirects, env)
        for child in [*node.named_children, *outer]:  # `echo $(rm f)`, `X=$(rm f) cmd`, `<<EOF $(rm f)`
            self.substitutions(child, env, depth)
        if argv:
            self.run(argv, raws, env, stdin, depth)
        self.after(redirects, [self.printed(argv, stdin, env, _text(node))], env, depth)

    def after(self, redirects: list[Node], printed: list[str], env: Env, depth: int) -> None:
        """What tree-sitter hangs under a here-document: ``| next stages`` (fed what the command printed) or
        ``&& more commands``."""
        for redirect in redirects:
            if redirect.type != "heredoc_redirect":
                continue
            for node in redirect.named_children:
                if node.type == "pipeline":
                    self.pipeline(node, env, depth, printed)
                elif node.type not in ("heredoc_start", "heredoc_body", "heredoc_end") and \
                        not node.type.endswith("_redirect"):
                    self.visit(node, env, depth)

    def substitutions(self, node: Node, env: Env, depth: int) -> None:
        for child in node.named_children:
            if child.type in ("command_substitution", "process_substitution"):
                self.visit(child, env, depth)
            elif child.named_children:
                self.substitutions(child, env, depth)

    def redirects(self, redirects: list[Node], env: Env, *, record: bool = True) -> str | None:
        """Note the files the redirections write; the text a here-document or here-string gives as stdin."""
        from boundread.guard.shell import words

        stdin: str | None = None
        redirects = list(redirects)
        for redirect in redirects:
            kind = redirect.type
            if kind == "heredoc_redirect":
                body = next((c for c in redirect.named_children if c.type == "heredoc_body"), None)
                stdin = _text(body) if body is not None else ""
                redirects.extend(c for c in redirect.named_children if c.type.endswith("_redirect"))  # `<<E > f`
            elif kind == "herestring_redirect":
                parts = [words.value(child, env, self.ctx, []) for child in redirect.named_children]
                stdin = "".join(_text(c) if p is None else p for c, p in zip(redirect.named_children, parts,
                                                                               strict=True))
            elif kind == "file_redirect" and record:
                operator = next((child.type for child in redirect.children if not child.is_named), "")
                targets = redirect.children_by_field_name("destination")
                if operator not in _WRITES or not targets or targets[-1].type == "process_substitution":
                    continue
                target = targets[-1]
                if (operator == ">&" and _text(target).isdigit()) or _text(target) == "-":
                    continue  # `2>&1`, `>&-`: a descriptor, no file
                value = words.value(target, env, self.ctx, [])
                self.found.writes.append((UNKNOWN if value is None else value, _text(target), env.cwd))
        return stdin

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
            self.script(_small(env.path(args[0])), env, depth + 1)
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

    def shell(self, args: list[str], env: Env, stdin: str | None, depth: int) -> None:
        for k, arg in enumerate(args):
            if arg.startswith("-") and not arg.startswith("--") and "c" in arg[1:]:
                script = args[k + 1] if k + 1 < len(args) else ""
                self.script(script, env.copy(), depth + 1)
                return
            if not arg.startswith(("-", "+")):
                self.script(_small(env.path(arg)) if UNKNOWN not in arg else UNKNOWN, env.copy(), depth + 1)
                return
        if stdin is not None:
            self.script(stdin, env.copy(), depth + 1)

    def interpreter(self, name: str, args: list[str], env: Env, stdin: str | None, depth: int) -> None:
        """The code an interpreter runs, to ``codes`` (launch.code); ``python -m boundread``: boundread's argv."""
        code, module = launch.code(name, args, stdin, lambda word: _small(env.path(word)))
        if module and module[0].split(".", 1)[0] == "boundread":
            self.run(["boundread", *module[1:]], ["boundread", *module[1:]], env, stdin, depth)
        if code is not None:
            self.found.codes.append(code)

    def stdin_code(self, argv: list[str], text: str, env: Env, depth: int) -> None:
        name = base(argv[0])
        if name in SHELLS:
            self.script(text, env.copy(), depth + 1)
        else:
            self.found.codes.append(text)


def _text(node: Node | None) -> str:
    return "" if node is None else (node.text or b"").decode("utf-8", "replace")


def _small(path: str) -> str:
    """A small regular file's text (a script, code); '' when it is not one."""
    import stat

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return ""
        with open(path, "rb") as fh:
            return fh.read(SCRIPT_MAX).decode("utf-8", "replace")
    except (OSError, ValueError):
        return ""


