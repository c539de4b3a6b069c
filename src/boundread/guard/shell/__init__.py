"""Which files a shell command would print into the conversation, or unpack.

The command is parsed by tree-sitter's bash grammar (``parser``) and walked on a model of the shell
(``walk``): the working directory through ``cd``/``pushd``/sub-shells, variables, ``$'...'``, globs
and braces (``words``), compound commands, functions, ``bash -c``/``eval`` at any depth, heredoc
scripts into interpreters (``scripts``), ``xargs``/``find -exec`` (``fanout``), and files written
then read back. What each program does with its files and stdin is in ``programs`` and
``archives``; a bounding stage gives a use its Bounds (``guard.bounds``), which ``decide`` checks
against the file and the caps. When the walk cannot follow the command (a syntax error, the step
budget), the linear conservative ``scan`` decides too: a parse failure never fails open.
"""

from __future__ import annotations

import os

from boundread.guard.shell.state import PRINT, UNPACK, FileUse

__all__ = ["PRINT", "UNPACK", "FileUse", "file_uses"]

# A command made of these alone is one simple command whose words bash splits on blanks and leaves as
# they are (no quote, expansion, glob, brace, redirection, operator or comment character): `cat r.pdf`,
# `git status`, `npm test -- --watch=false`. Most agent calls are such; they skip loading the parser,
# whose compiled module imports re and enum (about 8 ms of a hook's start-up).
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ._/-+,:@%=")


def _plain_argv(text: str) -> list[str] | None:
    if len(text) > 4096 or not set(text) <= _PLAIN:
        return None
    argv = text.split(" ")
    argv = [word for word in argv if word]
    return argv if argv and "=" not in argv[0] else None  # NAME=value cmd: an assignment, for the walk


def file_uses(text: str, cwd: str | os.PathLike[str] | None = None) -> list[FileUse]:
    """Every file the command prints where the agent sees it, or unpacks; paths resolve against ``cwd``."""
    root = os.path.abspath(os.fspath(cwd)) if cwd else os.getcwd()
    plain = _plain_argv(text)
    from boundread.guard.shell import walk
    from boundread.guard.shell.state import Ctx, Env, Exhausted, Stream

    unsure: list[tuple[str, str]] = []

    def shell(script: str, env: Env, stdin: Stream) -> Stream:
        from boundread.guard.shell import parser  # loaded once, where a script needs it

        ctx.step(1 + len(script) // 256)
        tree = parser.parse(script)
        if tree.has_error:
            unsure.append((script, env.cwd))
        return walk.run(tree, env, ctx, stdin)

    ctx = Ctx(root, lambda node, env, stdin: walk.run(node, env, ctx, stdin), shell,
              lambda argv, env, stdin: walk.command(argv, env, ctx, stdin))
    try:
        out = shell(text, Env(root), Stream()) if plain is None else walk.command(plain, Env(root), ctx, Stream())
        ctx.show(out.named("the command"))
    except (Exhausted, RecursionError, ImportError):  # ImportError: tree-sitter is not installed
        from boundread.guard.shell import scan

        return scan.uses(text, root)
    found = list(dict.fromkeys(ctx.uses))
    if unsure:
        from boundread.guard.shell import scan  # re: only for what the parser could not read
    for script, where in unsure[:8]:
        found.extend(scan.uses(script, where))
    return found
