"""What ``git`` prints: a blob (``show REV:PATH``), a diff, a history, a blame, an archive.

Git's printers make their output from the files of the work tree and the history, so it is sized where it is
made: ``diff``, ``show``, ``log``, ``whatchanged`` and ``format-patch --stdout`` are run (read-only, no
pager, no external diff or textconv, no optional locks) and their stdout counted up to ``OUTPUT_MAX`` with a
deadline inside the check's - cut as soon as it is past; a ``blame`` prints each line of its file with a
prefix, so it is the file's size; an ``archive`` is the blobs it holds (``git ls-tree -l``). Over the cap it is a
made-up output (madeup.py), refused unless a bound follows, with the bounded form to run instead. A git that
does not answer in time is taken as it was before: an unknown program.
"""

# os.path on purpose, not pathlib: this runs on the hook path (guard-check), where pathlib costs start-up.
from __future__ import annotations

import os

from boundread.guard.shell import gitrun, madeup
from boundread.guard.shell.reads import files
from boundread.guard.shell.state import FANOUT, UNCHECKED, UNKNOWN, Env, Stream

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Ctx

_GIT_VALUES = frozenset({"-c", "--git-dir", "--work-tree", "--namespace", "--config-env"})
#: Subcommands whose stdout is counted by running them.
_RUN = frozenset({"diff", "show", "log", "whatchanged", "format-patch", "reflog", "range-diff"})
#: Per line, what ``git blame`` prints before the line (hash, author, date, line number).
_BLAME_PREFIX = 56


def run(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """What ``git ARGS`` prints to the conversation."""
    k, where, kept = 0, env, []
    while k < len(args) and args[k].startswith("-"):
        if args[k] == "-C" and k + 1 < len(args) and UNKNOWN not in args[k + 1]:
            where = env.copy()
            where.cwd = where.path(args[k + 1])
        elif args[k].startswith(("--git-dir=", "--work-tree=")) or args[k] == "--no-pager":
            kept.append(args[k])
        elif args[k] in ("--git-dir", "--work-tree") and k + 1 < len(args):
            kept.append(f"{args[k]}={where.path(args[k + 1])}")
        k += 2 if args[k] in _GIT_VALUES or args[k] == "-C" else 1
    root = _root(kept, where)
    if root is not None:  # `git --git-dir=repo/.git show HEAD:f`: REV:PATH names a path from the work tree's root
        where = where.copy()
        where.cwd = root
    sub, rest = (args[k], args[k + 1:]) if k < len(args) else ("", [])
    if sub == "cat-file" and any(arg in ("-t", "-s", "-e", "--batch-check") for arg in rest):
        return Stream()  # the type, the size, or an exit status
    if sub in ("show", "cat-file") and any(":" in arg and not arg.startswith("-") for arg in rest):
        names = [_blob_path(arg, where) for arg in rest if ":" in arg and not arg.startswith("-")
                 and UNKNOWN not in arg]
        return files(where, [name for name in names if name], f"git {sub}")
    if UNKNOWN in "".join(rest):
        return Stream(stdin.named("git"), "")
    if sub == "grep":  # the repository's own files under the folder (-C's), as greps models rg and ack
        from boundread.guard.shell import greps

        # the counting command a deny names runs from the payload's cwd: -C takes it where this grep ran
        program = "git grep" if where.cwd == ctx.root else _shown(["-C", ctx.display(where.cwd), "grep"])
        return greps.grep("git-grep", rest, where, ctx, stdin, program)
    shown = _shown(args)
    if sub in _RUN or (sub == "stash" and rest[:1] == ["show"]) or sub == "cat-file":  # `cat-file -p HASH`
        return _counted(where, ctx, kept, sub, rest, shown)
    if sub == "ls-files":
        return _files(where, ctx, kept, rest)
    if sub in ("blame", "annotate"):
        return _blame(where, ctx, rest, shown)
    if sub == "archive":
        return _archive(where, ctx, kept, rest, shown)
    return Stream(stdin.named("git"), "")  # not modelled: as any unknown program


#: ``git ls-files`` options that keep its output a list of names (what xargs or $() then read).
_NAMES_ONLY = frozenset({"-z", "-c", "--cached", "--full-name", "--recurse-submodules", "--"})


def _files(where: Env, ctx: Ctx, kept: list[str], rest: list[str]) -> Stream:
    """``git ls-files [-z] [PATHS]``: the names it prints, read by running it (at most FANOUT of them, as ``ls``
    gives them: a longer list ends in the unchecked name), for a later ``| xargs cat`` or ``$(...)``."""
    options = [arg for arg in rest if arg.startswith("-")]
    if any(option not in _NAMES_ONLY for option in options) or UNKNOWN in "".join(rest):
        return Stream()  # other columns, other files (-s, -o, --deleted...): names not followed here
    listing = gitrun.listed(where.cwd, [*kept, "ls-files", "-z", *rest], 1 << 20, ctx.deadline)
    if listing is None:
        return Stream()
    names = [name for name in listing.decode("utf-8", "surrogateescape").split("\0") if name]
    cut = [UNCHECKED] if len(names) > FANOUT or len(listing) > 1 << 20 else []
    glue = "\0" if "-z" in options else "\n"
    return Stream(text=glue.join([*names[:FANOUT], *cut]) + glue)


def _root(kept: list[str], where: Env) -> str | None:
    """The work tree's root that ``--work-tree=D``, else ``--git-dir=D/.git``, names; None when neither does."""
    given = dict(option.split("=", 1) for option in kept if "=" in option)
    if given.get("--work-tree") and UNKNOWN not in given["--work-tree"]:
        return where.path(given["--work-tree"])
    git_dir = where.path(given["--git-dir"]).rstrip("/") if given.get("--git-dir") \
        and UNKNOWN not in given["--git-dir"] else ""
    return (git_dir[:-len("/.git")] or "/") if git_dir.endswith("/.git") else None


def _shown(args: list[str]) -> str:
    from boundread.guard.reason import quote

    text = " ".join(quote(word) for word in ["git", *args])
    return text if len(text) <= 120 else text[:117] + "..."


def _counted(where: Env, ctx: Ctx, kept: list[str], sub: str, rest: list[str], shown: str) -> Stream:
    """The stdout of a diff, show, log or patch, counted by running it (never when it writes a file)."""
    if any(arg.startswith("--output") or arg in gitrun.UNSAFE for arg in rest):
        return Stream()  # writes its output to a file (`format-patch -o`, `diff --output=F`)
    if sub == "cat-file" and not any(arg in ("-p", "blob") for arg in rest):
        return Stream()  # a type or a size
    if sub == "format-patch" and "--stdout" not in rest:
        return Stream()  # one file per patch, names on stdout
    counted = gitrun.count(where.cwd, [*kept, sub, *rest], madeup.OUTPUT_MAX, ctx.deadline)
    if counted is None or counted <= madeup.OUTPUT_MAX:
        return Stream()
    paths = _paths(rest)
    path = paths[0] if paths else "PATH"
    revs = " ".join(arg for arg in rest if not arg.startswith("-") and arg not in paths)
    if sub == "diff":
        what = "the diff"
        instead = [f"git diff --stat {revs}".rstrip(), f"git diff {revs} -- {path} | head -n 200".replace("  ", " ")]
    elif sub == "show":
        what = "the commit's patch"
        instead = [f"git show --stat {revs}".rstrip(), f"git show {revs} -- {path} | head -n 200".replace("  ", " ")]
    elif sub == "cat-file":
        what = "the object"
        instead = [f"git cat-file -s {revs}".replace(" -p", "").replace(" blob", ""), f"{shown} | head -n 200"]
    elif sub == "stash":
        what = "the stash's patch"
        instead = ["git stash show --stat", f"{shown} | head -n 200"]
    elif sub == "format-patch":
        what = "the patches"
        instead = [f"git log --stat {revs}".rstrip(), f"{shown} | head -n 200"]
    else:
        what = "the history" if not any(arg in ("-p", "-u", "--patch") for arg in rest) else "the history's patches"
        instead = ["git log --oneline -20", f"git log -p -3 -- {path} | head -n 200"]
    return _big(counted, what, instead, shown)


def _big(size: int, what: str, instead: list[str], shown: str) -> Stream:
    text = "  or  ".join(instead)
    return Stream([madeup.flow(size, what, text, shown)])


def _paths(rest: list[str]) -> list[str]:
    """The paths a command names: after ``--``, or none."""
    return rest[rest.index("--") + 1:] if "--" in rest else []


def _blame(where: Env, ctx: Ctx, rest: list[str], shown: str) -> Stream:
    """``git blame F`` prints every line of F with a prefix; ``-L a,b`` only those lines."""
    operands = [arg for k, arg in enumerate(rest) if not arg.startswith("-")
                and (k == 0 or rest[k - 1] not in ("-L", "-S", "--contents", "-C", "-M", "--date", "--since"))]
    if not operands or any(arg == "-L" or arg.startswith("-L") for arg in rest) or "--incremental" in rest:
        return Stream()
    path = where.path(operands[-1])
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as fh:
            lines = fh.read(madeup.OUTPUT_MAX * 8).count(b"\n")
    except OSError:
        return Stream()
    total = size + lines * _BLAME_PREFIX
    if total <= madeup.OUTPUT_MAX:
        return Stream()
    from boundread.guard.reason import quote

    name = quote(operands[-1])
    return _big(total, f"every line of {operands[-1]} with its commit", [f"git blame -L 1,200 {name}"], shown)


def _archive(where: Env, ctx: Ctx, kept: list[str], rest: list[str], shown: str) -> Stream:
    """``git archive REV [PATH...]`` to stdout: the blobs it holds (their sizes from ``git ls-tree -l``)."""
    if any(arg.startswith(("--output", "--remote")) or arg == "-o" for arg in rest):
        return Stream()
    operands = [arg for k, arg in enumerate(rest) if not arg.startswith("-")
                and (k == 0 or rest[k - 1] not in ("--prefix", "--format", "--add-file", "--add-virtual-file"))]
    if not operands:
        return Stream()
    size = gitrun.tree_size(where.cwd, [*kept, "ls-tree", "-r", "-l", operands[0], "--", *operands[1:]],
                            ctx.deadline)
    if size is None or size <= madeup.OUTPUT_MAX:
        return Stream()
    return _big(size, "the files of the archive", [f"git archive {operands[0]} | tar -t",
                                                       f"git show {operands[0]}:PATH | head -n 200"], shown)


def _blob_path(spec: str, env: Env) -> str:
    """The worktree path of ``REV:PATH`` (``:PATH``, ``:0:PATH``): from the top of the repository,
    or from here with ``./`` or ``../``; '' for ``:/message`` (a commit search)."""
    rev, _, path = spec.partition(":")
    if not rev and path[:1] in "0123" and path[1:2] == ":":
        path = path[2:]
    if not path or path.startswith("/"):
        return ""
    if path.startswith(("./", "../")):
        return env.path(path)
    top = env.cwd
    while not os.path.exists(os.path.join(top, ".git")):
        parent = os.path.dirname(top)
        if parent == top:
            return env.path(path)  # no repository found: from here
        top = parent
    return os.path.join(top, path)
