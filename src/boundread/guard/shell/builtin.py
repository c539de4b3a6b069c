"""The shell builtins the guard models: the working directory (``cd``, ``pushd``, ``popd``), words that print
(``echo``, ``printf``, ``pwd``, ``ls``), variables filled from a stream (``read``, ``mapfile``), the positional
arguments (``shift``, ``set --``), ``unset``, and scripts run in this shell (``eval``, ``source``).
"""

from __future__ import annotations

import os

from boundread.guard import bounds
from boundread.guard.shell.params import ALIAS, SHOPT
from boundread.guard.shell.reads import bounded
from boundread.guard.shell.state import FANOUT, UNCHECKED, UNKNOWN, Env, Stream, read_file, small_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Ctx


def _int(text: str) -> int | None:
    parsed = bounds.count(text)
    return parsed[1] if parsed is not None and not parsed[0] else None


def _cd(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    names = [arg for arg in args if not (arg.startswith("-") and arg != "-")]
    target = names[0] if names else os.path.expanduser("~")
    if target == "-":
        target = env.vars.get("OLDPWD", env.cwd)
    if UNKNOWN in target:
        return Stream()
    env.vars["OLDPWD"] = env.cwd
    env.cwd = env.vars["PWD"] = env.logical(target)
    return Stream()


def _pushd(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    names = [arg for arg in args if not arg.startswith(("-", "+"))]
    if not names:
        if env.dirs:
            env.dirs[-1], env.cwd = env.cwd, env.dirs[-1]
        return Stream()
    env.dirs.append(env.cwd)
    return _cd(names[:1], env, ctx, stdin)


def _popd(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    if env.dirs:
        env.cwd = env.vars["PWD"] = env.dirs.pop()
    return Stream()


def _eval(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    return ctx.shell(" ".join(args), env, stdin)


def _source(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    return ctx.shell(small_text(read_file(env, args[0], "source")), env, stdin) if args else Stream()


def _echo(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    while args and args[0] in ("-n", "-e", "-E", "-ne", "-en"):
        args = args[1:]
    return Stream(text=" ".join(args) + "\n")


def _printf(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    if args[:1] == ["-v"]:
        return Stream()
    if len(args) == 1 and "%" not in args[0]:  # `printf 'a.log\nb.log\n'`: the format's escapes are the text
        from boundread.guard.shell.braces import ansi_c

        return Stream(text=ansi_c(args[0]))
    return Stream(text="\n".join(args[1:]) + "\n" if len(args) > 1 else (args[0] if args else ""))


def _pwd(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    return Stream(text=env.cwd + "\n")


def _realpath(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``realpath F...``: each name as the absolute path it resolves to (``xargs cat`` then reads those)."""
    names = [arg for arg in args if not arg.startswith("-")]
    if not names or any(UNKNOWN in name for name in names):
        return Stream(text=UNKNOWN + "\n")
    return Stream(text="".join(os.path.realpath(env.path(name)) + "\n" for name in names))


def _readlink(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``readlink -f F`` resolves as realpath does; without ``-f``/``-e``/``-m``, a link's own target: unknown."""
    if any(flag in args for flag in ("-f", "-e", "-m", "--canonicalize", "--canonicalize-existing")):
        return _realpath(args, env, ctx, stdin)
    return Stream(text=UNKNOWN + "\n")


#: Entries ``ls -S``/``ls -t`` sorts at most (a stat each); past it the order is not known, and the listing
#: starts with the unchecked name: `cat $(ls -S | head -1)` is then refused as reading an unknown file.
SORTED = 4096


def _ls(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """The names ``ls`` prints, in its order: by name, or by size (``-S``) or time (``-t``), ``-r`` reversed; a
    folder's own name with ``-d``."""
    letters = "".join(arg[1:] for arg in args if arg.startswith("-") and not arg.startswith("--"))
    key = "S" if "S" in letters or "--sort=size" in args else "t" if "t" in letters or "--sort=time" in args else ""
    names: list[str] = []
    for target in [arg for arg in args if not arg.startswith("-")] or ["."]:
        if UNKNOWN in target:
            continue
        absolute = env.path(target)
        try:
            entries = sorted(os.listdir(absolute)) if os.path.isdir(absolute) and "d" not in letters else [target]
        except OSError:
            continue
        if key and len(entries) > SORTED:
            return Stream(text="\n".join([UNCHECKED, *entries[:FANOUT]]) + "\n")
        if key:
            entries = _by(entries, absolute if os.path.isdir(absolute) else env.cwd, key)
        names.extend(reversed(entries) if "r" in letters else entries)
    # A cut listing ends in the unchecked name: `cat $(ls)` or `ls | xargs cat` reading it is refused as
    # capped, while `ls` alone (the names shown, not read) is not a cap worth saying.
    cut = [UNCHECKED] if len(names) > FANOUT else []
    return Stream(text="\n".join([*names[:FANOUT], *cut]) + "\n")


def _by(entries: list[str], folder: str, key: str) -> list[str]:
    """``entries`` by size (``S``) or modification time (``t``), biggest or newest first, then by name."""
    def stat(name: str) -> float:
        try:
            info = os.lstat(os.path.join(folder, name))
        except OSError:
            return 0.0
        return float(info.st_size if key == "S" else info.st_mtime)

    return sorted(entries, key=lambda name: -stat(name))


def _mapfile(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``mapfile``/``readarray [-n N] [ARRAY] < f``: the lines go into a variable (memory, not the output);
    whatever prints that variable later prints them (``echo "${lines[@]}"``)."""
    names: list[str] = []
    most: int | None = None
    k = 0
    while k < len(args):
        arg = args[k]
        if arg in ("-d", "-n", "-O", "-s", "-u", "-C", "-c"):
            if arg == "-n" and k + 1 < len(args):
                most = _int(args[k + 1])
            k += 2
            continue
        if not (arg.startswith("-") and len(arg) > 1):
            names.append(arg)
        k += 1
    bound = bounds.Bound(bounds.LINES, most, words=f"mapfile -n {most}") if most else None
    _into(env, names[-1:] or ["MAPFILE"], bounded(stdin, bound, "mapfile"))
    return Stream()


def _read(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``read [-r] [-d DELIM] [-n N] NAME...``: one line (``-d ''``: the whole input; ``-n N``: N bytes)
    into variables, which a later ``echo "$NAME"`` prints."""
    names: list[str] = []
    whole, most = False, None
    k = 0
    while k < len(args):
        arg = args[k]
        if arg.startswith("-") and len(arg) > 1 and not names:
            letters = arg[1:]
            for at, letter in enumerate(letters):
                if letter in "adinNptu":  # the option takes a value: the rest of the word, or the next one
                    given = letters[at + 1:]
                    if not given and k + 1 < len(args):
                        given, k = args[k + 1], k + 1
                    whole |= letter == "d" and given == ""
                    most = _int(given) if letter in "nN" else most
                    if letter == "a":
                        names.append(given)
                    break
        else:
            names.append(arg)
        k += 1
    bound = bounds.Bound(bounds.BYTES, most, words=f"read -n {most}") if most else (
        None if whole else bounds.Bound(bounds.LINES, 1, words="read"))
    line = bounded(stdin, bound, "read")
    if bound is not None and bound.unit == bounds.LINES:
        line.text = line.text.removesuffix("\n")  # the line without its newline, as read stores it
    _into(env, names or ["REPLY"], line)
    return Stream()


def _shift(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``shift [N]``: ``$1`` is what ``$N+1`` was (an unknown N: the arguments are unknown from here)."""
    count = _int(args[0]) if args else 1
    env.args = env.args[count:] if count is not None else [UNKNOWN] * len(env.args)
    return Stream()


def _unset(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``unset NAME`` (``unset IFS``: the default splitting again); ``unset -f NAME``: the function."""
    functions = "-f" in args
    for name in (arg for arg in args if not arg.startswith("-")):
        if functions:
            env.functions.pop(name, None)
        else:
            env.vars.pop(name, None)
            env.var_flows.pop(name, None)
    return Stream()


def _set(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``set -- A B`` (or ``set A B``, after any options): the positional arguments are A B."""
    for k, arg in enumerate(args):
        if arg in ("--", "-"):
            env.args = args[k + 1:]
            return Stream()
        if arg in ("-o", "+o"):
            return Stream()
        if not arg.startswith(("-", "+")) or arg == UNKNOWN:
            env.args = args[k:]
            return Stream()
    return Stream()


def _into(env: Env, names: list[str], stream: Stream) -> None:
    for name in names:
        if UNKNOWN in name:
            continue
        env.var_flows[name] = list(stream.flows)
        if stream.flows:
            env.vars.pop(name, None)
        else:
            env.vars[name] = stream.text


def _alias(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``alias show='cat big.log'``: a later ``show`` runs that (walk.command expands it)."""
    for arg in args:
        name, eq, text = arg.partition("=")
        if eq and name and not name.startswith("-"):
            env.vars[ALIAS + name] = text
    return Stream()


def _unalias(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    for name in args:
        env.vars.pop(ALIAS + name, None)
    return Stream()


def _shopt(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``shopt -s globstar`` (``**`` any depth of folders), ``shopt -u``: remembered for the words after it."""
    setting = "-s" in args
    if setting or "-u" in args:
        for option in (arg for arg in args if not arg.startswith("-")):
            if setting:
                env.vars[SHOPT + option] = "1"
            else:
                env.vars.pop(SHOPT + option, None)
    return Stream()


BUILTINS = {"cd": _cd, "alias": _alias, "unalias": _unalias, "shopt": _shopt,
             "mapfile": _mapfile, "readarray": _mapfile, "read": _read,
             "pushd": _pushd, "popd": _popd, "eval": _eval, "source": _source, ".": _source,
             "echo": _echo, "printf": _printf, "pwd": _pwd, "ls": _ls, "realpath": _realpath, "readlink": _readlink,
             "shift": _shift, "set": _set, "unset": _unset}
