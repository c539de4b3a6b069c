"""What ``git`` prints: a blob (``show REV:PATH``), and the rest as an unknown program does.

The place for git's other printers (``diff``, ``show``, ``log -p``, ``blame``, ``format-patch --stdout``), whose
output is made from the files of the work tree and the history.
"""

# os.path on purpose, not pathlib: this runs on the hook path (guard-check), where pathlib costs start-up.
from __future__ import annotations

import os

from boundread.guard.shell.reads import files
from boundread.guard.shell.state import UNKNOWN, Env, Stream

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Ctx

_GIT_VALUES = frozenset({"-c", "--git-dir", "--work-tree", "--namespace", "--config-env"})


def run(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``git show REV:PATH`` and ``git cat-file -p|blob REV:PATH`` print a blob: judged by the worktree
    file of that path (the same file, most of the time, and the only one there is to look at)."""
    k, where = 0, env
    while k < len(args) and args[k].startswith("-"):
        if args[k] == "-C" and k + 1 < len(args) and UNKNOWN not in args[k + 1]:
            where = env.copy()
            where.cwd = where.path(args[k + 1])
        k += 2 if args[k] in _GIT_VALUES or args[k] == "-C" else 1
    sub, rest = (args[k], args[k + 1:]) if k < len(args) else ("", [])
    if sub == "cat-file" and any(arg in ("-t", "-s", "-e", "--batch-check") for arg in rest):
        return Stream()  # the type, the size, or an exit status
    if sub not in ("show", "cat-file"):
        return Stream(stdin.named("git"), "")  # not modelled: as any unknown program
    names = [_blob_path(arg, where) for arg in rest if ":" in arg and not arg.startswith("-") and UNKNOWN not in arg]
    return files(where, [name for name in names if name], f"git {sub}")


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
