"""What a shell command runs and where it writes: every argv it would execute, at any depth, and every file a
redirection opens for writing - for the budget's self-cap check (budget/selfcap.py), not for reads.

The words are expanded as the read guard expands them (``words``: quotes, ``$'...'``, variables the command
set, ``~``, braces, globs, ``$(pwd)``); a word whose value cannot be known here is ``UNKNOWN`` and its source
text is kept beside it, for the judge to look at. Followed: lists, pipelines, sub-shells, loops and ``if``
bodies, functions, redirections, here-documents and here-strings, every ``$(...)``, backtick and ``<(...)``
wherever it stands (a whole word, a ``for`` list, an unquoted here-document's body); and what each argv runs
(effectruns.py): ``bash -c``/``sh -c``, ``eval``, ``source``/``.``, a script file or piped text given to a
shell, a file run by its path, ``make``'s recipes, ``xargs``, ``find -exec``, ``tar``'s commands, wrappers
(``env``, ``sudo``, ``flock``...), ``uvx``/``uv run``/``pipx run``, ``python -m`` and ``boundread budget exec``.
The code given to an interpreter (``-c``, ``-e``, a script file, a module, a here-document, piped text) is kept
as text (``codes``): the judge reads it for what it names.

An over-approximation on purpose: both branches of an ``if`` run, a loop's body runs once per known value,
every ``cd`` seen adds a folder that a later relative path is resolved against (``cwds``). What it cannot
follow (a parse error, the step budget, nesting deeper than ``DEPTH``) sets ``unsure``; a script file too big to
read whole is listed in ``unread``.
"""

from __future__ import annotations

import os

from boundread.guard.shell import launch, scriptfiles
from boundread.guard.shell.effectruns import TOO_BIG, Effects, Run, Runs
from boundread.guard.shell.launch import base
from boundread.guard.shell.scriptfiles import SCRIPT_MAX
from boundread.guard.shell.state import UNKNOWN, Ctx, Env, Exhausted, Stream

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

DEPTH = 8  # scripts within scripts (`bash -c "eval 'sh -c ...'"`)
LOOP = 16  # a `for` loop's body is followed for this many of its values
_WRITES = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&", "&>|"})


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


class _Walk(Runs):
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
                self.trailing(body, redirects, env, depth)
            self.after(redirects, [_text(body)], env, depth)
        elif kind == "variable_assignment":
            self.substitutions(node, env, depth)
            self.assign(node, env)
        elif kind == "declaration_command":  # a run too: `export -p` and `declare -x` print the environment
            self.substitutions(node, env, depth)
            argv = [_text(node.children[0])] if node.children else []
            for child in node.named_children:
                if child.type == "variable_assignment":
                    self.found.sets.append(self.assign(child, env))
                else:
                    argv.append(_text(child))
            self.found.runs.append(Run(argv, argv, env.cwd))
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

    def trailing(self, body: Node, redirects: list[Node], env: Env, depth: int) -> None:
        """tree-sitter hangs a trailing redirection on a whole ``a | tee >/dev/null f`` or ``a && b 2>&1 c``;
        bash applies it to the last command, and the words after its target are that command's arguments. That
        command is then followed again with them (an over-approximation, as the rest here)."""
        from boundread.guard.shell import walk

        if not walk.extra_words(redirects):
            return
        last: Node | None = body
        while last is not None and last.type in ("pipeline", "list", "redirected_statement"):
            last = last.child_by_field_name("body") if last.type == "redirected_statement" else \
                (last.named_children[-1] if last.named_children else None)
        if last is not None and last.type == "command":
            self.command(last, env.copy(), redirects, depth)

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
        earlier: list[Node] = []  # what each printed is worked out only for a stage that runs it as code
        for stage in node.named_children:
            self.visit(stage, env.copy(), depth)
            if printed or earlier:
                argv, stdin = self.stage(stage, env)
                if argv and stdin is None and launch.reads_stdin(argv):
                    texts = [*(printed or []), *(self.printed(*self.stage(before, env), env, _text(before))
                                                 for before in earlier)]
                    self.stdin_code(argv, "\n".join(texts), env, depth)
            earlier.append(stage)

    def stage(self, stage: Node, env: Env) -> tuple[list[str], str | None]:
        """A pipeline stage's argv (none for a compound one) and the stdin its redirections give it."""
        body = stage.child_by_field_name("body") if stage.type == "redirected_statement" else stage
        if body is None or body.type != "command":
            return [], None
        argv, raws, redirects, _prefix = self.words(body, env.copy())
        if stage.type == "redirected_statement":
            redirects += [c for c in stage.named_children if c.type.endswith("_redirect")]
        self.extra(redirects, env.copy(), argv, raws)
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
            text = scriptfiles.read(env.path(argv[1]), SCRIPT_MAX)
            return TOO_BIG + env.path(argv[1]) + "\n" if text is None else text
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

    def extra(self, redirects: list[Node], env: Env, argv: list[str], raws: list[str]) -> None:
        """Add to ``argv`` (and ``raws``) the command's words that tree-sitter hangs on a redirection after its
        target (walk.extra_words): ``cp a 2>/dev/null .claude/settings.json`` copies to the last word."""
        from boundread.guard.shell import walk, words

        for word in walk.extra_words(redirects):
            fields = words.expand(word, env, self.ctx, [])
            fields = [UNKNOWN] if fields is None else fields
            argv.extend(fields)
            raws.extend([_text(word)] * len(fields))

    def command(self, node: Node, env: Env, outer: list[Node], depth: int) -> None:
        argv, raws, redirects, prefix = self.words(node, env)
        self.found.sets.extend(prefix)
        redirects += outer
        self.extra(redirects, env, argv, raws)
        stdin = self.redirects(redirects, env)
        for child in [*node.named_children, *outer]:  # `echo $(rm f)`, `X=$(rm f) cmd`, `<<EOF $(rm f)`
            self.substitutions(child, env, depth)
        if argv:
            self.run(argv, raws, env, stdin, depth)
        if any(redirect.type == "heredoc_redirect" for redirect in redirects):  # what hangs under one is fed it
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
        """Every ``$(...)``, backtick and ``<(...)`` in ``node``, ``node`` itself included (a bare ``echo $(rm
        f)``, ``for x in `rm f```), and the backticks of an unquoted here-document (tree-sitter keeps them as
        text)."""
        if node.type in ("command_substitution", "process_substitution"):
            self.visit(node, env, depth)
            return
        if node.type == "heredoc_redirect":
            start = next((c for c in node.named_children if c.type == "heredoc_start"), None)
            body = next((c for c in node.named_children if c.type == "heredoc_body"), None)
            if body is not None and not any(ch in _text(start) for ch in "'\\\""):
                for inner in _backticks(_text(body)):
                    self.script(inner, env.copy(), depth + 1)
        for child in node.named_children:
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
                if operator not in _WRITES or not targets or targets[0].type == "process_substitution":
                    continue
                target = targets[0]  # what follows it is the command's arguments (walk.extra_words)
                if (operator == ">&" and _text(target).isdigit()) or _text(target) == "-":
                    continue  # `2>&1`, `>&-`: a descriptor, no file
                value = words.value(target, env, self.ctx, [])
                # bash globs a redirection's target too (`> .cla*/set*.json` writes .claude/settings.json)
                matched = words.expand(target, env, self.ctx, []) if value and any(ch in value for ch in "*?[") \
                    else None
                for written in dict.fromkeys([UNKNOWN if value is None else value, *(matched or [])]):
                    self.found.writes.append((written, _text(target), env.cwd))
        return stdin


def _backticks(text: str) -> list[str]:
    """The commands of the backticks in ``text`` (an unquoted here-document's body); an escaped one is text."""
    found: list[str] = []
    start, k = -1, 0
    while k < len(text):
        if text[k] == "\\":
            k += 2
            continue
        if text[k] == "`":
            if start < 0:
                start = k + 1
            else:
                found.append(text[start:k].replace("\\`", "`"))
                start = -1
        k += 1
    if start >= 0:
        found.append(text[start:])
    return found


def _text(node: Node | None) -> str:
    return "" if node is None else (node.text or b"").decode("utf-8", "replace")
