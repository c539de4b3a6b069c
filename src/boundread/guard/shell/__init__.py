"""Which files a shell command would print into the conversation, or unpack.

The command is parsed by tree-sitter's bash grammar (``parser``) and walked on a model of the shell
(``walk``): the working directory through ``cd``/``pushd``/sub-shells, variables, ``$'...'``, globs
and braces (``words``), compound commands, functions, ``bash -c``/``eval`` at any depth, heredoc
scripts into interpreters (``scripts``), ``xargs``/``find -exec`` (``fanout``), and files written
then read back. What each program does with its files and stdin is in ``programs`` and
``archives``; a bounding stage gives a use its Bounds (``guard.bounds``), which ``decide`` checks
against the file and the caps. When the walk cannot follow the command (a syntax error, the step
budget), the linear conservative ``scan`` decides too: a parse failure never fails open. A budget run out
keeps what the walk found so far and adds a SPENT use, so a whole print the scan cannot name is refused.

The budget (``state``): steps (nodes visited, characters built), a deadline (``SECONDS`` of CPU, ``WALL_SECONDS``
of the clock), the size of the syntax tree (``parser``), the longest text and value followed (``MAX_TEXT``,
``MAX_VALUE``), and Python's recursion limit for nesting. Whatever the input, a check ends in about a second and a
hundred MB.
"""

from __future__ import annotations

import os

from boundread.guard.shell.state import (
    CAPPED,
    FANOUT,
    PRINT,
    REMOTE,
    SECONDS,
    SPENT,
    UNKNOWN,
    UNPACK,
    WALL_SECONDS,
    Ctx,
    Env,
    FileUse,
    Stream,
)

__all__ = ["CAPPED", "FANOUT", "PRINT", "REMOTE", "SECONDS", "SPENT", "UNKNOWN", "UNPACK", "WALL_SECONDS", "FileUse",
           "file_uses"]

# A command made of these alone is a list of pipelines of simple commands whose words bash splits on
# blanks and leaves as they are (no quote, expansion, glob, brace, redirection, sub-shell or comment):
# `cat r.pdf`, `cd data && cat report.pdf | head -n 5`, `git status; npm test`. Most agent calls are
# such; they are walked from a blank split and skip loading the parser, whose compiled module imports
# re and enum (about 8 ms of a hook's start-up). Anything else goes through the parser.
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ._/-+,:@%=|&;")
_LISTS = frozenset({"&&", "||", ";"})
_RESERVED = frozenset({"if", "then", "else", "elif", "fi", "case", "esac", "for", "while", "until", "do", "done",
                       "in", "function", "select", "time", "coproc"})


def _plain(text: str) -> list[list[list[str]]] | None:
    """``text`` as lists of pipelines of argvs, or None when it needs the parser."""
    if len(text) > 4096 or not set(text) <= _PLAIN:
        return None
    tokens = text.replace(";", " ; ").replace("&&", " && ").replace("||", " || ").replace("|", " | ").split(" ")
    lists: list[list[list[str]]] = [[[]]]
    for token in filter(None, tokens):
        if token in _LISTS:
            lists.append([[]])
        elif token == "|":
            lists[-1].append([])
        elif "|" in token or "&" in token or token in _RESERVED:  # `&` (background), `if ...`: the parser's
            return None
        else:
            lists[-1][-1].append(token)
    if lists[-1] == [[]] and len(lists) > 1:  # a trailing `;`
        lists.pop()
    for pipeline in lists:
        for argv in pipeline:
            if not argv or "=" in argv[0]:  # an empty stage, or NAME=value cmd: the parser's
                return None
    return lists


def file_uses(text: str, cwd: str | os.PathLike[str] | None = None, deadline: float | None = None) -> list[FileUse]:
    """Every file the command prints where the agent sees it, or unpacks; paths resolve against ``cwd``.
    A CAPPED use says a fan-out stopped at its cap (what it left out was not looked at); a SPENT use, that the
    budget ran out. ``deadline`` (``time.monotonic()``): when the walk stops whatever its CPU time; default
    WALL_SECONDS from now."""
    root = os.path.abspath(os.fspath(cwd)) if cwd else os.getcwd()
    plain = _plain(text)
    from boundread.guard.shell import walk
    from boundread.guard.shell.state import MAX_TEXT, Exhausted

    unsure: list[tuple[str, str]] = []

    def shell(script: str, env: Env, stdin: Stream) -> Stream:
        from boundread.guard.shell import parser  # loaded once, where a script needs it

        ctx.step(1 + len(script) // 256)
        tree = parser.parse(script, ctx)
        if tree.has_error:
            unsure.append((script, env.cwd))
        return walk.run(tree, env, ctx, stdin)

    ctx = Ctx(root, lambda node, env, stdin: walk.run(node, env, ctx, stdin), shell,
              lambda argv, env, stdin: walk.command(argv, env, ctx, stdin), deadline)
    try:
        if len(text) > MAX_TEXT:
            raise Exhausted(f"{MAX_TEXT // 1024 ** 2} MB of text; this command is {len(text) / 1024 ** 2:,.1f} MB")
        out = shell(text, Env(root), Stream()) if plain is None else _walk_plain(plain, Env(root), ctx)
        ctx.show(out.named("the command"))
    except ImportError:  # tree-sitter is not installed
        from boundread.guard.shell import scan

        return scan.uses(text, root)
    except Exhausted as exc:
        return _spent(text, root, ctx, str(exc))
    except RecursionError:  # Python's own limit (1,000 frames): a few hundred levels of nesting
        return _spent(text, root, ctx, "its nesting")
    except MemoryError:  # never met since values and texts are capped; if it is, what was built is freed by now
        return _spent(text, root, ctx, "memory")
    found = list(dict.fromkeys(ctx.uses))
    if unsure:
        from boundread.guard.shell import scan  # re: only for what the parser could not read
    for script, where in unsure[:8]:
        found.extend(scan.uses(script, where))
    return found


def _spent(text: str, root: str, ctx: Ctx, budget: str) -> list[FileUse]:
    """The budget ran out: what the walk found before it stopped, a SPENT use, and what the linear scan names."""
    from boundread.guard.shell import scan
    from boundread.guard.shell.state import UNCHECKED

    ctx.spend(f"the command is too big to follow within boundread's budget ({budget}); only what was walked "
              "before it stopped, and the file names in its text, were checked")
    named, cut = scan.scan(text, root)
    if cut:  # a reader past the words the scan looked at: what it prints is unchecked
        named.append(FileUse(PRINT, UNCHECKED, "the command"))
    return list(dict.fromkeys([*ctx.uses, *named]))


def _walk_plain(lists: list[list[list[str]]], env: Env, ctx: Ctx) -> Stream:
    """What ``walk.run`` does with the parsed tree of such a command: a list shares the shell (a `cd`
    holds for what follows), each stage of a pipeline runs in a copy of it, fed by the stage before."""
    from boundread.guard.shell import walk

    out = Stream()
    for pipeline in lists:
        if len(pipeline) == 1:
            out.add(walk.command(pipeline[0], env, ctx, Stream()))
            continue
        from boundread.guard.shell import linecut

        stream, kept, width = Stream(), True, None  # as walk.run: a later `cut -c1-N` bounds the lines kept
        for argv in pipeline:
            stage_env = env.copy()
            stream = linecut.bounded(argv, kept, walk.command(argv, stage_env, ctx, stream), stage_env, ctx)
            stream = linecut.folded(argv, width, stream)
            kept = kept and linecut.keeps_lines(argv)
            width = linecut.fold_width(argv, width)
        out.add(stream)
    return out
