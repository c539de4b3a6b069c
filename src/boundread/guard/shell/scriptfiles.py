"""The files a command runs as code, read for the self-cap walk (effects.py): a script run by its path (its
``#!`` line says by what), a file given to a shell or ``source``, an interpreter's script or its ``-m`` module
found in the working folder, and the recipes ``make`` runs for the targets it is given.

A file is read whole or not at all: one over its limit is ``None`` ("too big"), which the judge refuses in a
session with a budget - a script whose tail is never read could hold anything. A binary (a compiled program) is
no script: '' as for a file that is not there.
"""

# os.path on purpose, not pathlib: this runs on the hook path (guard-check), where pathlib costs start-up.
from __future__ import annotations

import os

SCRIPT_MAX = 64 * 1024  # a shell script (it is parsed and walked): at most this
CODE_MAX = 1024 * 1024  # interpreter code (only searched for what it names): at most this
MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
_MAKE_VALUES = frozenset({"-C", "-f", "-I", "-o", "-W", "--directory", "--file", "--makefile", "--include-dir",
                          "--old-file", "--what-if", "--new-file", "--assume-old", "--assume-new"})
_BINARY = (b"\x7fELF", b"MZ", b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe", b"\xca\xfe\xba\xbe")  # ELF, PE, Mach-O


def read(path: str, limit: int) -> str | None:
    """A regular text file's text; '' when it is not one (missing, a folder, a binary); None when it is longer
    than ``limit`` bytes."""
    import stat

    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            return ""
        with open(path, "rb") as fh:
            head = fh.read(4096)
            if head.startswith(_BINARY) or b"\x00" in head:
                return ""
            if info.st_size > limit:
                return None
            data = head + fh.read(limit + 1 - len(head))
    except (OSError, ValueError):
        return ""
    return None if len(data) > limit else data.decode("utf-8", "replace")


def shebang(text: str) -> list[str]:
    """The interpreter's argv a ``#!`` line names (``#!/usr/bin/env -S python3 -u`` -> ``python3 -u``); [] when
    the file has none (the kernel refuses it, and the shell runs it as a script)."""
    if not text.startswith("#!"):
        return []
    words = text[2:].split("\n", 1)[0].split()
    if words and words[0].rsplit("/", 1)[-1] == "env":
        words = [w for w in " ".join(words[1:]).split() if not w.startswith("-")]
    return words


def module_file(cwd: str, module: str) -> str:
    """The file ``python -m module`` runs from ``cwd`` (first on its path): ``a/b.py`` or ``a/b/__main__.py``."""
    base = os.path.join(cwd, *module.split("."))
    return base + ".py" if os.path.isfile(base + ".py") else os.path.join(base, "__main__.py")


def make_args(args: list[str]) -> tuple[str, str, list[str]]:
    """(``-C`` folder, ``-f`` file, the targets) of a ``make`` command line."""
    folder, given, targets = "", "", []
    k = 0
    while k < len(args):
        arg = args[k]
        key, eq, value = arg.partition("=")
        if arg in _MAKE_VALUES and k + 1 < len(args):
            value, k = args[k + 1], k + 1
            key, eq = arg, "="
        elif arg[:2] in ("-C", "-f") and len(arg) > 2:
            key, eq, value = arg[:2], "=", arg[2:]
        if eq and key in ("-C", "--directory"):
            folder = os.path.join(folder, value) if folder else value
        elif eq and key in ("-f", "--file", "--makefile"):
            given = value
        elif arg in ("-j", "-l", "--jobs", "--load-average") and k + 1 < len(args) and args[k + 1].isdigit():
            k += 1
        elif not arg.startswith("-") and "=" not in arg:
            targets.append(arg)
        k += 1
    return folder, given, targets


def makefile(folder: str, given: str) -> str:
    """The makefile ``make`` reads in ``folder``: ``-f FILE``, else the first of ``MAKEFILES`` there."""
    if given:
        return os.path.join(folder, given)
    for name in MAKEFILES:
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            return path
    return ""


def recipes(text: str, targets: list[str]) -> str:
    """The recipe lines ``make`` runs for ``targets`` (none: the first target) and their prerequisites, as one
    shell script. A target not found as written (a pattern rule, a variable in a name): every recipe."""
    deps, lines, first = _rules(text)
    wanted = targets or ([first] if first else [])
    if any(target not in deps for target in wanted):
        chosen = list(deps)
    else:
        chosen, todo = [], list(wanted)
        while todo:
            target = todo.pop()
            if target not in chosen:
                chosen.append(target)
                todo.extend(dep for dep in deps.get(target, []) if dep in deps)
    script = [line for target in chosen for line in lines.get(target, [])]
    return "\n".join(_shell_line(line) for line in script)


def _rules(text: str) -> tuple[dict[str, list[str]], dict[str, list[str]], str]:
    """(each target's prerequisites, its recipe lines, the first target) of a makefile."""
    deps: dict[str, list[str]] = {}
    lines: dict[str, list[str]] = {}
    current: list[str] = []
    first = ""
    for line in text.replace("\\\n", " ").splitlines():
        if line.startswith("\t"):
            for target in current:
                lines.setdefault(target, []).append(line[1:])
            continue
        rule = line.split("#", 1)[0]
        if not rule.strip():
            continue
        head, colon, rest = rule.partition(":")
        if not colon or "=" in head or rest.startswith(("=", ":=")):
            current = []  # a variable, a directive
            continue
        current = head.split()
        prerequisites, _, inline = rest.lstrip(":").partition(";")
        for target in current:
            deps.setdefault(target, []).extend(p for p in prerequisites.split() if p != "|")
            if inline.strip():
                lines.setdefault(target, []).append(inline)
        first = first or next((t for t in current if not t.startswith(".") and "%" not in t), "")
    return deps, lines, first


def _shell_line(line: str) -> str:
    """A recipe line as the shell gets it: no ``@``/``-``/``+`` prefix, ``$$`` is ``$``, ``$(shell CMD)`` runs
    CMD (a make variable ``$(X)`` is then a command substitution of an unknown program: harmless)."""
    return line.strip().lstrip("@-+").replace("$$", "$").replace("$(shell ", "$(")
