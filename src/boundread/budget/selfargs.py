"""What a program's words make it write, for the self-cap judge (budget/selfcmd.py): the programs that read
their operands but write a file named by an option, a position or their script - so that reading the budget's
files stays allowed and writing them does not.

- ``sed``: in place (``-i``, ``-Ei``, ``-ni``, ``--in-place``; ``-ie`` is in place with the suffix ``e``), the
  files of its ``w``/``W`` commands and ``s///w`` flag, and whether its script runs commands (``e``).
- ``uniq IN OUT``, ``xxd [-r] IN OUT``: the second operand is written.
- ``tar`` that creates, lists or appends: only its archive (``-f``) is written, unless ``--remove-files``.
- ``sqlite3 -readonly DB SQL...``: writes nothing, unless its SQL runs a dot-command that writes or runs a
  program (``.shell``, ``.output``, ``.backup``...), ``writefile()``, ``edit()``, ``load_extension()``, ``VACUUM
  INTO``, or it reads its SQL from stdin or ``-init``.
- a copy's destination and its sources, and whether an unpacker extracts.
- ``git``: the subcommands that write no file of the work tree (``status``, ``diff``, ``add``, ``commit``...).
- ``find``: the names its tests look for (``-name``, ``-path``...), or None when any file may be reached.
"""

# os.path on purpose, not pathlib: this runs on the hook path (guard-check), where pathlib costs start-up.
# ruff: noqa: PTH118
from __future__ import annotations

import os

from boundread.guard.shell.launch import base

UNKNOWN = "\x00"  # guard.shell.state.UNKNOWN
_SED_VALUES = frozenset({"-e", "-f", "-l", "--expression", "--file", "--line-length"})
_SECOND_VALUES = {"uniq": frozenset({"-f", "-s", "-w"}),
                  "xxd": frozenset({"-c", "-cols", "-g", "-groupsize", "-l", "-len", "-s", "-seek", "-o", "-n",
                                    "-name", "-offset"})}
_TAR_VALUE_LETTERS = "fbCTXKNVgLFHI"  # old-style `tar cvbf 20 out.tar`: each takes the next word, in order
_SQLITE_VALUES = frozenset({"-cmd", "-separator", "-newline", "-nullvalue", "-vfs", "-mmap", "-maxsize",
                            "-lookaside", "-pagecache", "-heap", "-pcachetrace", "-escape"})
_SQLITE_DOTS = frozenset({".tables", ".schema", ".headers", ".header", ".mode", ".dump", ".indexes", ".indices",
                          ".databases", ".dbinfo", ".width", ".nullvalue", ".separator", ".show", ".timer",
                          ".stats", ".fullschema", ".help", ".print", ".echo", ".eqp", ".limit", ".changes",
                          ".bail", ".explain", ".lint", ".expert", ".quit", ".exit"})
_SQLITE_WRITES = ("writefile(", "edit(", "load_extension(", "vacuum")
_GIT_VALUES = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"})
#: git subcommands that change no file of the work tree (``add``/``commit`` write the index and objects only).
_GIT_READS = frozenset({"status", "diff", "log", "show", "blame", "annotate", "ls-files", "ls-tree", "grep", "add",
                        "commit", "rev-parse", "rev-list", "shortlog", "describe", "cat-file", "whatchanged",
                        "reflog", "fetch", "remote", "branch", "tag", "help", "version", "var", "check-ignore"})
_FIND_NAMES = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-lname", "-ilname"})


def sed_in_place(argv: list[str]) -> bool:
    """Whether sed edits its files in place: ``-i`` anywhere in a cluster of short options (before a letter that
    takes a value: ``-ne`` is not in place), or ``--in-place``."""
    for arg in argv[1:]:
        if arg.startswith("--in-place"):
            return True
        if arg.startswith("-") and not arg.startswith("--"):
            for letter in arg[1:]:
                if letter == "i":
                    return True
                if letter in "efl":
                    break
    return False


def sed_scripts(argv: list[str], cwd: str) -> tuple[list[str], list[str]]:
    """(sed's script texts: each ``-e``/``--expression`` value, else its first operand; the paths of its
    ``-f``/``--file`` script files, against ``cwd``)."""
    scripts: list[str] = []
    files: list[str] = []
    operands: list[str] = []
    k = 1
    while k < len(argv):
        arg = argv[k]
        key, _, value = arg.partition("=")
        if arg in _SED_VALUES:
            value = argv[k + 1] if k + 1 < len(argv) else ""
            k += 1
        elif arg.startswith("-") and not arg.startswith("--") and len(arg) > 1:
            key, value = "", ""
            for n, letter in enumerate(arg[1:]):
                if letter == "i":
                    break  # the rest is the backup's suffix
                if letter in "efl":
                    key, value = "-" + letter, arg[n + 2:]
                    if not value and k + 1 < len(argv):
                        value, k = argv[k + 1], k + 1
                    break
        elif not arg.startswith("--"):
            operands.append(arg)
        if key in ("-e", "--expression"):
            scripts.append(value)
        elif key in ("-f", "--file"):
            files.append(os.path.join(cwd, value))
        k += 1
    return (scripts or ([] if files else operands[:1])), files


def sed_targets(script: str) -> list[str]:
    """The files a sed script may write: what follows each ``w``/``W`` to the end of its line (a file name runs
    to the end of the line). Over-approximate: ``s/new/x/`` gives ``/x/``, which names nothing protected."""
    found = []
    for at, letter in enumerate(script):
        if letter in "wW":
            rest = script[at + 1:].split("\n", 1)[0].strip()
            if rest:
                found.append(rest)
    return found


def sed_runs(script: str) -> bool:
    """Whether a sed script runs commands: an ``e`` command (``1e CMD``) or the ``e`` flag of ``s`` (``s/x/y/e``)."""
    import re  # only for a sed command, never on a plain call

    command = r"(?:^|[;{}\n])\s*(?:[0-9$,~+!\s]|/[^/\n]*/[IM]*)*e(?:\s|$|[;}])"
    flag = r"[^\w\s\\][gpiImMw0-9]*e[gpiImM0-9]*\s*(?:$|[;}\n])"
    return bool(re.search(command, script) or re.search(flag, script))


def second_operand(argv: list[str]) -> str | None:
    """The file ``uniq IN OUT`` or ``xxd IN OUT`` writes: the second operand, if there is one."""
    values = _SECOND_VALUES.get(base(argv[0]), frozenset())
    operands: list[str] = []
    k = 1
    while k < len(argv):
        arg = argv[k]
        if arg in values:
            k += 1
        elif not arg.startswith("-") or arg == "-":
            operands.append(arg)
        k += 1
    return operands[1] if len(operands) > 1 else None


def tar_archives(argv: list[str]) -> list[str]:
    """The archives a ``tar`` command names (``-f``, ``--file``, ``cf FILE`` in the old style)."""
    found: list[str] = []
    args = argv[1:]
    k = 0
    if args and not args[0].startswith("-"):  # old style: `tar czf out.tgz src`, values in the letters' order
        taken = 1
        for letter in args[0]:
            if letter in _TAR_VALUE_LETTERS and taken < len(args):
                if letter == "f":
                    found.append(args[taken])
                taken += 1
        k = taken
    while k < len(args):
        arg = args[k]
        if arg.startswith("--file="):
            found.append(arg[7:])
        elif arg == "--file" and k + 1 < len(args):
            found.append(args[k + 1])
        elif arg.startswith("-") and not arg.startswith("--") and "f" in arg:
            rest = arg[arg.index("f") + 1:]
            if rest:
                found.append(rest)
            elif k + 1 < len(args):
                found.append(args[k + 1])
        k += 1
    return found


def extracts(name: str, argv: list[str]) -> bool:
    """Whether the unpacker writes the archive's entries out (not a listing, not a tar that creates)."""
    if name in ("unzip", "unrar", "cpio"):
        return True
    if name in ("7z", "7za", "7zz"):
        return len(argv) > 1 and argv[1] in ("x", "e")
    if any(arg in ("-x", "--extract", "--get") for arg in argv[1:]):
        return True
    first = argv[1] if len(argv) > 1 else ""
    return not first.startswith("--") and "x" in first.lstrip("-")  # `tar xzf`, `tar -xf`


def sqlite_read_only(argv: list[str]) -> bool:
    """Whether ``sqlite3`` opens its database read-only and its SQL, given as words, neither writes a file nor
    runs a program."""
    if ("-readonly" not in argv and "--readonly" not in argv) or "-init" in argv or "--init" in argv:
        return False
    sql: list[str] = []
    operands: list[str] = []
    k = 1
    while k < len(argv):
        arg = argv[k]
        if arg in _SQLITE_VALUES or arg.lstrip("-") in {v.lstrip("-") for v in _SQLITE_VALUES}:
            if k + 1 < len(argv) and arg.lstrip("-") == "cmd":
                sql.append(argv[k + 1])
            k += 2
            continue
        if not arg.startswith("-"):
            operands.append(arg)
        k += 1
    if len(operands) < 2:  # no SQL given: it reads stdin
        return False
    return all(_harmless(text) for text in sql + operands[1:])


def _harmless(sql: str) -> bool:
    low = sql.lower()
    if UNKNOWN in sql or any(word in low for word in _SQLITE_WRITES):
        return False
    for line in low.replace(";", "\n").splitlines():
        words = line.split()
        if words and words[0].startswith(".") and words[0] not in _SQLITE_DOTS:
            return False
    return True


def destination(argv: list[str], at: int) -> bool:
    """Whether the word at ``at`` is where a copy writes: ``-t DIR``, ``--target-directory=DIR``, or the last
    operand."""
    if at > 1 and argv[at - 1] in ("-t", "--target-directory"):
        return True
    if argv[at].startswith("--target-directory="):
        return True
    operands = [k for k in range(1, len(argv)) if not argv[k].startswith("-") and argv[k - 1] not in ("-t",)]
    has_target = any(a in ("-t", "--target-directory") or a.startswith("--target-directory=") for a in argv)
    return not has_target and bool(operands) and at == operands[-1]


def sources(argv: list[str], at: int) -> list[str]:
    """The operands of a copy, move or link other than its destination (the word at ``at``)."""
    found = []
    for k in range(1, len(argv)):
        if k != at and not argv[k].startswith("-") and argv[k - 1] not in ("-t", "--target-directory", "-S",
                                                                            "--suffix", "-m", "--mode"):
            found.append(argv[k])
    return found


def git_reads(argv: list[str]) -> bool:
    """Whether ``git`` runs a subcommand that writes no file of the work tree (``git diff .claude/settings.json``
    reads it; ``git checkout -- FILE`` would write it), and no ``--output`` file."""
    k = 1
    while k < len(argv) and argv[k].startswith("-"):
        k += 2 if argv[k] in _GIT_VALUES else 1
    return k < len(argv) and argv[k] in _GIT_READS and not any(arg.startswith("--output") for arg in argv)


def find_names(argv: list[str]) -> list[str] | None:
    """The patterns ``find``'s tests look for (``-name``, ``-iname``, ``-path``...); None when a file of any name
    may be reached: no such test, a negation (``! -name '*.keep'``), a ``-regex``, or ``fd``."""
    if base(argv[0]) != "find" or any(arg in ("!", "-not", "-regex", "-iregex") for arg in argv):
        return None
    found = [argv[k + 1] for k in range(1, len(argv) - 1) if argv[k] in _FIND_NAMES]
    return found or None
