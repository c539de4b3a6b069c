"""Commands that run other commands over names: ``xargs`` (names from its stdin) and ``find -exec``.

The names are bounded (FANOUT); ``find`` walks at most WALK entries.
"""

from __future__ import annotations

import os

from boundread.guard.shell.state import ENTRIES_PER_STEP, FANOUT, UNCHECKED, UNKNOWN, Env, Stream, read_file, small_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Ctx

WALK = 5_000
#: What `find -type` calls a FIFO (p), a character or block device (c, b) and a socket (s).
_SPECIAL = frozenset({"p", "c", "b", "s"})
_XARGS_VALUES = frozenset({"-n", "-L", "-I", "-d", "-P", "-s", "-a", "-E", "--max-args", "--max-lines",
                           "--replace", "--delimiter", "--max-procs", "--arg-file", "--eof", "--max-chars"})
_FIND_VALUES = frozenset({"-name", "-iname", "-path", "-ipath", "-type", "-maxdepth", "-mindepth", "-size",
                          "-mtime", "-mmin", "-newer", "-user", "-group", "-perm", "-regex", "-iregex",
                          "-wholename", "-fprint", "-printf", "-fprintf", "-xtype", "-links", "-inum", "-atime",
                          "-ctime", "-amin", "-cmin", "-samefile", "-fstype", "-uid", "-gid", "-lname", "-ilname"})


def xargs(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    replace: str | None = None
    delimiter: str | None = None
    source = stdin
    k = 0
    while k < len(args) and args[k].startswith("-"):
        arg = args[k]
        key, _, given = arg.partition("=")
        if key in _XARGS_VALUES and not given:
            given, k = (args[k + 1] if k + 1 < len(args) else ""), k + 1
        if key in ("-I", "--replace"):
            replace = given or "{}"
        elif arg.startswith("-i"):
            replace = arg[2:] or "{}"
        elif key in ("-d", "--delimiter"):
            delimiter = given
        elif key in ("-a", "--arg-file"):
            source = read_file(env, given, "xargs")
        elif arg in ("-0", "--null"):
            delimiter = "\0"
        elif arg.startswith("-I") and len(arg) > 2:
            replace = arg[2:]
        k += 1
    command = args[k:] or ["echo"]
    text = small_text(source)
    if delimiter:
        names = text.split(delimiter)
    elif replace is not None:
        names = text.splitlines()
    else:  # blanks and newlines, as xargs splits: not every Unicode space
        names = text.replace("\t", " ").replace("\n", " ").split(" ")
    names = [name.strip(" \t\n") for name in names if name.strip(" \t\n")]
    if len(names) > FANOUT:
        ctx.cap(f"`xargs {' '.join(command)}` gets more than {FANOUT} names; the first {FANOUT} were checked")
        names = names[:FANOUT]
    out = Stream()
    if command[0].rsplit("/", 1)[-1] in ("echo", "printf"):
        out.flows.extend(source.named("xargs echo"))  # echo prints the piped content back
    if replace is not None:
        for name in names:
            out.add(ctx.command([arg.replace(replace, name) for arg in command], env, Stream()))
        return out
    out.add(ctx.command(command + names, env, Stream()))
    return out


_PARALLEL_VALUES = frozenset({"-j", "-P", "-N", "-n", "-L", "-S", "-I", "-d", "-a", "-E", "--jobs", "--max-args",
                              "--max-lines", "--sshlogin", "--colsep", "--delimiter", "--arg-file", "--halt",
                              "--delay", "--timeout", "--joblog", "--results", "--tmpdir", "--env", "--workdir",
                              "--tag-string", "--retries", "--load", "--memfree", "--replace"})


def parallel(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """GNU ``parallel CMD ::: ARGS``, ``parallel CMD :::: LISTFILE``, ``... | parallel CMD``: CMD once per argument,
    the argument at ``{}`` (``{.}`` without its extension, ``{/}`` its base name) or appended; no CMD: each
    argument is a command line."""
    replace, source = "{}", stdin
    k = 0
    while k < len(args) and args[k].startswith("-") and args[k] not in (":::", "::::"):
        key, eq, given = args[k].partition("=")
        if key in _PARALLEL_VALUES and not eq:
            given, k = (args[k + 1] if k + 1 < len(args) else ""), k + 1
        if key in ("-I", "--replace"):
            replace = given or "{}"
        elif key in ("-a", "--arg-file"):
            source = read_file(env, given, "parallel")
        k += 1
    command: list[str] = []
    while k < len(args) and args[k] not in (":::", "::::"):
        command.append(args[k])
        k += 1
    names: list[str] = []
    group = ""
    for arg in args[k:]:
        if arg in (":::", "::::"):
            group = arg
        elif group == ":::":
            names.append(arg)
        else:
            names.extend(line for line in small_text(read_file(env, arg, "parallel")).splitlines() if line.strip())
    if k >= len(args):
        names = [line for line in small_text(source).splitlines() if line.strip()]
    if len(names) > FANOUT:
        ctx.cap(f"`parallel {' '.join(command)}` gets more than {FANOUT} arguments; the first {FANOUT} were checked")
        names = names[:FANOUT]
    out = Stream()
    for name in names:
        if not command:
            out.add(ctx.shell(name, env.copy(), Stream()))
            continue
        forms = {replace: name, "{.}": name.rsplit(".", 1)[0], "{/}": name.rsplit("/", 1)[-1]}
        used = any(form in arg for arg in command for form in forms)
        argv = [_replaced(arg, forms) for arg in command] if used else [*command, name]
        out.add(ctx.command(argv, env.copy(), Stream()))
    return out


def _replaced(arg: str, forms: dict[str, str]) -> str:
    for form, value in forms.items():
        arg = arg.replace(form, value)
    return arg


def find(name: str, args: list[str], env: Env, ctx: Ctx) -> Stream:
    """``find`` (and ``fd``): the names it finds, and what ``-exec`` runs on them."""
    roots: list[str] = []
    k = 0
    while k < len(args) and not args[k].startswith(("-", "(", "!")) and name == "find":
        roots.append(args[k])
        k += 1
    expression = args[k:]
    if name != "find":  # fd PATTERN [PATH]: names only, or -x/--exec
        roots = [a for a in args if not a.startswith("-")][1:2] or ["."]
    found, capped = walk(roots or ["."], expression, env, ctx)
    if capped:
        ctx.cap(f"`{name}` finds more than boundread looks at ({FANOUT} names or {WALK:,} entries); "
                f"the first {len(found)} were checked")
    sep = "\0" if "-print0" in expression or "-0" in args else "\n"
    out = Stream(text=sep.join(found) + sep if found else "")
    commands = _execs(expression)
    if capped:  # what -exec would also run on past the cap is unchecked
        found = [*found[:FANOUT - 1], UNCHECKED]
    for command, batch in commands:
        if batch:
            argv = [part for arg in command for part in (found if arg == "{}" else [arg])]
            out.add(ctx.command(argv, env, Stream()))
        else:
            for item in found[:FANOUT]:
                out.add(ctx.command([arg.replace("{}", item) for arg in command], env, Stream()))
    if commands:
        out.text = ""
    return out


def _execs(expression: list[str]) -> list[tuple[list[str], bool]]:
    """Each ``-exec CMD ... ;`` or ``-exec CMD {} +``: (CMD, batched)."""
    found: list[tuple[list[str], bool]] = []
    k = 0
    while k < len(expression):
        if expression[k] in ("-exec", "-execdir", "-ok", "-okdir", "-x", "--exec", "-X", "--exec-batch"):
            batch_flag = expression[k] in ("-X", "--exec-batch")
            end = k + 1
            while end < len(expression) and expression[end] not in (";", "+", "\\;"):
                end += 1
            command = expression[k + 1:end]
            if command:
                if "{}" not in command:
                    command = [*command, "{}"]
                found.append((command, batch_flag or (end < len(expression) and expression[end] == "+")))
            k = end
        k += 1
    return found


def walk(roots: list[str], expression: list[str], env: Env, ctx: Ctx) -> tuple[list[str], bool]:
    """The names found (at most FANOUT, looking at WALK entries), and whether a cap stopped the walk. The disk
    does not change during a check: a walk done before (a ``find`` in a loop) is taken from ``ctx.walks``."""
    key = (env.cwd, *roots, "\x00", *expression)
    done = ctx.walks.get(key)
    if done is None:
        done = _walk(roots, expression, env)
        ctx.step(done[2] // ENTRIES_PER_STEP)  # the entries it looked at, as the budget counts nodes
        if len(ctx.walks) < FANOUT:
            ctx.walks[key] = done
    ctx.step()
    return list(done[0]), done[1]


def _walk(roots: list[str], expression: list[str], env: Env) -> tuple[list[str], bool, int]:
    """(the names found, capped, the entries looked at): each folder read with one ``scandir`` (a folder of a
    million entries is read no further than WALK of them), files then folders, depth first as ``os.walk``."""
    from boundread.guard.shell.pattern import matcher

    fold = "-iname" in expression
    tests = [matcher(expression[k + 1].lower() if fold else expression[k + 1])
             for k, arg in enumerate(expression[:-1]) if arg in ("-name", "-iname")]
    kinds = {kind for k, arg in enumerate(expression[:-1]) if arg == "-type" for kind in expression[k + 1].split(",")}
    specials = not kinds or bool(kinds & _SPECIAL)  # `-type f`: no FIFO, device or socket (grep -r, rg skip them)
    depth_at = expression.index("-maxdepth") if "-maxdepth" in expression else -1
    most = int(expression[depth_at + 1]) if 0 <= depth_at < len(expression) - 1 and \
        expression[depth_at + 1].isdigit() else 64
    found: list[str] = []
    seen = 0
    for root in roots:
        if UNKNOWN in root:
            continue
        start = env.path(root)
        if not os.path.isdir(start):  # `find big.log -exec cat {} +`: a file operand is found itself
            name = os.path.basename(start)
            if os.path.lexists(start) and "d" not in kinds and \
                    (not tests or any(test(name.lower() if fold else name) for test in tests)):
                found.append(root)
            continue
        stack = [(start, 0)]
        while stack:
            folder, depth = stack.pop()
            files: list[os.DirEntry[str]] = []
            dirs: list[os.DirEntry[str]] = []
            try:
                with os.scandir(folder) as entries:
                    for entry in entries:
                        seen += 1
                        if seen > WALK:
                            return found, True, seen
                        if _is_dir(entry):
                            dirs.append(entry)
                        elif specials or not _is_special(entry):
                            files.append(entry)
            except OSError:
                continue
            if depth >= most:
                continue  # `-maxdepth N`: the entries of a folder at depth N are deeper than that
            for entry in files + (dirs if "f" not in kinds else []):
                if len(found) >= FANOUT:
                    return found, True, seen
                if tests and not any(test(entry.name.lower() if fold else entry.name) for test in tests):
                    continue
                rel = os.path.relpath(entry.path, start)
                found.append(os.path.join(root, rel) if root != "." else "./" + rel)
            if depth + 1 < most:  # as os.walk: into each folder, not through a symlink to one
                stack.extend((entry.path, depth + 1) for entry in reversed(dirs) if not entry.is_symlink())
    return found, False, seen


def _is_special(entry: os.DirEntry[str]) -> bool:
    """A FIFO, device or socket (not through a symlink: a walk keeps those as the files they may name)."""
    try:
        return not entry.is_symlink() and not entry.is_file(follow_symlinks=False)
    except OSError:
        return False


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False
