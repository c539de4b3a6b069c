"""The words the self-cap check, the guard's own-ground check and their command judge share: what a session may not
change (``Protected``: the budget's set; hook/ground.py derives the guard's), the variables it may not set, the
cheap first test (``suspect``) and the one-line refusal (budget/selfcap.py has the budget's model).

Standard library only: guard-check loads it for every call that its cheap test cannot pass at once.
"""

# os.path on purpose, not pathlib: this runs on the hook path (guard-check), where pathlib costs start-up.
# ruff: noqa: PTH100, PTH110, PTH111, PTH118, PTH119, PTH120
from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, Protocol

    class Words(Protocol):
        """What the cheap test asks of a set: its trigger words, and whether the ledger's URL is set here."""

        triggers: tuple[str, ...]
        url_env: bool

#: Variables a command may not set, export or unset in a session with a budget.
PROTECTED_ENV = ("BOUNDREAD_STATE_DIR", "BOUNDREAD_LEDGER_URL", "BOUNDREAD_BUDGET_PRICES", "XDG_STATE_HOME",
                 "XDG_CONFIG_HOME")
DEPTH_ENV = "BOUNDREAD_DEPTH"
URL_ENV = "BOUNDREAD_LEDGER_URL"  # the PostgreSQL ledger's address and, often, its password
FILE_NAMES = ("budget.sqlite3", "budget.limits.json", "budget.postgres.limits.json")
USER_ACTION = ("an agent may not change its own budget: stop, and ask the user to do it from their own terminal"
               " (outside this agent)")

_COMMAND_KEYS = ("command", "command_line", "cmd")
#: Programs that may change files or run code: a command that runs one is looked at, whatever it names (`rm -rf
#: ~`, `cd ~/.local && rm -rf st*` name no protected place, yet hold one).
_PROGRAMS = frozenset({"rm", "rmdir", "mv", "shred", "truncate", "unlink", "find", "fd", "dd", "rsync", "cp", "ln",
                       "install", "chmod", "chown", "chattr", "tee", "tar", "unzip", "7z", "cpio", "sqlite3",
                       "eval", "xargs", "source", "bash", "sh", "zsh", "dash", "perl", "ruby", "node", "php",
                       "python", "python3", "awk", "env", "sudo", "export", "unset", "trash", "srm", "wipe", "make",
                       "gmake"})
#: Where BOUNDREAD_LEDGER_URL is set: the commands that print the environment (a word ending in ``environ``:
#: ``/proc/self/environ``).
_PRINTERS = frozenset({"printenv", "env", "export", "declare", "typeset", "set", "environ"})
_SEPARATORS = str.maketrans(dict.fromkeys(";|&()`$<>{}\n\t", " "))
_SEGMENTS = str.maketrans(dict.fromkeys(";|&()`{}\n", ";"))
#: Words before the program a command runs: keywords and wrappers (their options and numbers are skipped too).
_BEFORE = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!", "time", "nohup", "nice", "exec",
                     "command", "builtin", "timeout", "setsid", "stdbuf", "ionice", "chrt", "taskset", "flock",
                     "doas", "caffeinate", "chronic", "unbuffer", "nocache", "faketime", "xvfb-run"})


class Protected:
    """What a session with a budget may not change: the state folder, the seal, the user config (``roots``);
    the strings that name one of them or the budget's files (``names``, lower case: code and a word whose value
    is unknown are read for them); those and the looser ones the cheap test looks for (``triggers``: boundread,
    budget, the folders above); whether the ledger file is there (``budget recover`` is then a repair);
    whether ``BOUNDREAD_LEDGER_URL`` is set here (``url_env``: a command that prints the environment would show
    it). Only strings are made up front: the disk (``roots``' real paths, ``ledger_there``) is asked when
    needed.

    The judge (selfcmd.py) asks the set, not these fields alone, so that hook/ground.py's ``Ground`` can widen it:
    ``place`` (is a path protected, or a folder that holds protected files), ``guards_env``, ``reason``, and what
    the class says: ``budget`` (the budget's commands, the ledger's address and ``BOUNDREAD_DEPTH`` are judged),
    ``strict`` (a script too big to read, or not followed whole, is refused), ``own`` (how a refusal names the
    files), ``action`` (what the user must do)."""

    __slots__ = ("_places", "_roots", "ledger", "names", "state", "triggers", "url_env")
    own = "the budget's own files"
    action = USER_ACTION
    budget = True
    strict = True
    env_why = "would move a nested run to another ledger or other prices, out of this budget"

    def __init__(self, state: str, ledger: str) -> None:
        from boundread.budget.ledgerurl import user_config
        from boundread.budget.sidecar import path_for, seal_for

        self.state, self.ledger = os.path.abspath(state), ledger
        self.url_env = bool(os.environ.get(URL_ENV))
        seal = seal_for(path_for(ledger))
        self._places = [os.path.normpath(p) for p in (self.state, os.path.dirname(user_config()), seal) if p]
        self._roots: tuple[str, ...] | None = None
        names, loose = places_words(self._places)
        names.update({*FILE_NAMES, *(os.path.basename(seal) for seal in [seal] if seal)})
        loose.update({"boundread", "budget", "xdg_", "sqlite", "limits.json"})
        self.names = tuple(sorted({name.lower() for name in names if len(name) >= 4}))
        self.triggers = tuple(sorted({name.lower() for name in names | loose if len(name) >= 4}))

    @property
    def roots(self) -> tuple[str, ...]:
        """The protected places, each as named and as the disk resolves it (a state folder behind a link)."""
        if self._roots is None:
            self._roots = tuple(dict.fromkeys([*self._places, *(os.path.realpath(p) for p in self._places)]))
        return self._roots

    @property
    def ledger_there(self) -> bool:
        return os.path.exists(self.ledger)

    def guards_env(self, name: str) -> bool:
        """Whether a command may not set, export or unset the variable ``name``."""
        return name in PROTECTED_ENV

    def place(self, path: str, deep: bool = False) -> tuple[str, str, bool] | None:
        """For an absolute, normalised ``path``: ("inside", label, False) when it is a protected place or in one,
        ("ancestor", label, False) when it holds one, else None. ``deep``: a destructive program is asking (a
        wider set may then look at the disk); ``label`` names what a refusal is about."""
        for root in self.roots:
            if path == root or path.startswith(root.rstrip(os.sep) + os.sep):
                return "inside", self.label(root), False
        for root in self.roots:
            if root.startswith(path.rstrip(os.sep) + os.sep):
                return "ancestor", self.label(root), False
        return None

    def label(self, root: str) -> str:
        """How a refusal names the protected place ``root`` (for the budget, all are its own files)."""
        return self.own

    def found_by(self, patterns: list[str] | None) -> bool:
        """Whether a ``find`` with these name tests (None: none) may reach what a folder it searches holds: for
        the budget, always (``find ~ -name '*.orig' -delete`` is refused)."""
        return True

    def run_in(self, label: str) -> str:
        """How a refusal names the protected folder a command would run in."""
        return "the budget's state folder"

    def reason(self, what: str, why: str, fix: str = "") -> str:
        return reason(what, why, fix, self.action)


def places_words(places: list[str]) -> tuple[set[str], set[str]]:
    """The strings that name each of ``places`` (its path, and ``~/...``, ``$HOME/...`` under the home), and the
    looser ones a cheap test looks for (its name, the folder above it under the home: ``cd ~/.local/state && rm
    -rf b*``)."""
    home = os.path.expanduser("~")
    names: set[str] = set()
    loose: set[str] = set()
    for root in places:
        names.add(root)
        loose.add(os.path.basename(root))
        if root.startswith(home + os.sep):
            rel = root[len(home) + 1:]
            names.update({"~/" + rel, "$home/" + rel, "${home}/" + rel})
            (names if os.sep in rel else loose).add(rel)  # `.local/state/boundread`, not `.config` alone
            loose.add(os.path.dirname(rel))
    return names, loose


def reason(what: str, why: str, fix: str = "", action: str = USER_ACTION) -> str:
    """One line (a here-document or a script is shown with its lines joined): what was refused, why, and what
    the user (not the agent) must do."""
    what, why, fix = (" ".join(text.split()) for text in (what, why, fix))
    shown = what if len(what) <= 160 else what[:157] + "..."
    return f"`{shown}` {why} - {action}{': ' + fix if fix else ''}."


def command_of(tool_input: Any) -> str | None:
    """The shell command a tool call runs (an argv list joined as the shell guard joins it), or None."""
    if not isinstance(tool_input, dict):
        return None
    for key in _COMMAND_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str) and value:
            return value
        if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
            from boundread.guard.reason import quote

            return " ".join(quote(v) for v in value)
    return None


def suspect(text: str, protected: Words, cwd: str | None = None) -> bool:
    """Whether ``text`` may be about the protected set at all: it names one of its ``triggers`` (for the budget:
    boundread, the budget, a protected place or file), runs a program that may change files or run code
    (``_PROGRAMS``) or a file by its path (``./r.sh``), or, where BOUNDREAD_LEDGER_URL is set, prints the
    environment (``_PRINTERS``). The words are looked at a piece at a time: a 10 MB command is never held as a
    list of its words.

    With ``cwd`` (``text`` is a shell command run there), ``tee`` is looked at as a redirection is: a ``tee``
    whose files are written out is not suspect for itself (``... | tee -a run.log``, common in a loop), and
    each file a redirection or a ``tee`` writes is also looked at as the disk resolves it: a link into a
    protected place (``> notes.txt``, a link to ``.claude/settings.json``) is suspect."""
    low = text.lower().replace("'", "").replace('"', "").replace("\\", "")
    if any(name in low for name in protected.triggers) or _built_target(low):
        return True
    sed = False
    tees = 0
    for piece in _pieces(low):
        words = piece.translate(_SEPARATORS).split()
        for word in words:
            name = word.rsplit("/", 1)[-1]
            if name == "tee" and cwd is not None:
                tees += 1
                continue
            if name in _PROGRAMS or name.rstrip("0123456789.") in _PROGRAMS:  # python3.12
                return True
            if protected.url_env and name in _PRINTERS:
                return True
        sed = sed or "sed" in words
        if _runs_a_path(piece):
            return True
    # `sed -Ei` in the state folder (sed without -i, the usual reader, is not looked at); case kept: -E is not -e
    if sed and any(word[:1] == "-" and "i" in word.split("e")[0].split("f")[0].split("l")[0]
                   for piece in _pieces(text) for word in piece.translate(_SEPARATORS).split()):
        return True
    if cwd is None or (">" not in text and not tees):
        return False
    written = _written(text, tees)
    return written is None or any(_leads_to(name, cwd, protected.triggers) for name in written)


#: Where a command ends, for finding a ``tee``'s words; and what in a word opens or closes another command.
_COMMANDS = str.maketrans(dict.fromkeys(";|&\n", ";"))
_NESTS = frozenset("()`{}")


def _written(text: str, tees: int) -> list[str] | None:
    """The files ``text`` writes by redirections and by ``tees`` runs of ``tee``, each written out, or None when
    one is not (quoted with spaces, built by the shell: the judge then looks), or a ``tee`` is not where a
    program runs (``$(echo tee) x``), or there are too many to look at here."""
    names = _redirected(text)
    if names is None or not tees:
        return names
    found = 0
    for segment in text.translate(_COMMANDS).split(";"):  # `(`, `$(`, a backtick: a tee's words may go on
        words = segment.split()
        k = 0
        while k < len(words) and (words[k] in _BEFORE or words[k][:1] in "-0123456789" or words[k] in "({" or
                                  ("=" in words[k] and "/" not in words[k].split("=")[0])):
            k += 1
        if k == len(words) or _plain(words[k].lstrip("$({`")).rsplit("/", 1)[-1].lower() != "tee":
            continue
        found += 1
        files = _tee_files(words[k + 1:])
        if files is None or len(names) + len(files) > _TARGETS:
            return None
        names += files
    return names if found == tees else None


def _tee_files(args: list[str]) -> list[str] | None:
    """The files of a ``tee`` given ``args`` (options and redirections skipped), or None if one is not written
    out."""
    files: list[str] = []
    options, skip = True, False
    for arg in args:
        if skip:
            skip = False
            continue
        if "<" in arg or ">" in arg:  # `> /dev/null`, `2>&1`: a redirection, looked at as one
            skip = arg.rstrip("0123456789") == "" or arg[-1] in "<>&|"
            continue
        if options and arg == "--":
            options = False
        elif not (options and arg[:1] == "-" and arg != "-"):
            name = _plain(arg)
            if not name or not _BUILT.isdisjoint(name) or not _NESTS.isdisjoint(arg):
                return None
            files.append(name)
    return files


def _redirected(text: str) -> list[str] | None:
    """The files the redirections of ``text`` write, each written out (``2>&1`` and ``>&2`` write none), or None
    when one is quoted with spaces or there are too many (_built_target has already looked for built ones)."""
    pieces = text.split(">", _TARGETS)[1:]
    if len(pieces) >= _TARGETS:
        return None
    names = []
    for piece in pieces:
        target = piece.lstrip("| \t")
        if target[:1] == "&":
            target = target[1:].lstrip(" \t")
            if target[:1].isdigit() or target[:1] == "-":
                continue
        if not target or target[:1] in "(&;<>":  # `>>` (its target follows the second `>`), `>(cmd)`
            continue
        words = target[:_TARGET_CHARS].translate(_TARGET_END).split("\n", 1)[0].split(None, 1)
        if words:
            name = _plain(words[0])
            if not name:
                return None
            names.append(name)
    return names


def _plain(word: str) -> str:
    """``word`` without its quotes and backslashes, or '' when a quote is left open in it (a quoted name with a
    space: the word is not the whole name) or it ends in a backslash (an escaped space)."""
    if word.count('"') % 2 or word.count("'") % 2 or word.endswith("\\"):
        return ""
    return word.replace('"', "").replace("'", "").replace("\\", "")


def _leads_to(name: str, cwd: str, triggers: tuple[str, ...]) -> bool:
    """Whether the file ``name`` (relative to ``cwd``) resolves, through a link, to a place a trigger word names."""
    if name.startswith("/dev/"):
        return False
    path = os.path.join(cwd, os.path.expanduser(name))
    real = os.path.realpath(path).lower()
    return real != os.path.normpath(path).lower() and any(word in real for word in triggers)


#: What makes a redirection's target a name bash builds (a glob it matches on the disk, a variable, a substitution).
_BUILT = frozenset("*?[$`~{")
_TARGETS = 512  # redirections looked at here; past them the command is suspect
_TARGET_CHARS = 4096  # the characters after one `>` looked at here; past them too
#: Where the words after a `>` end: the target and what follows it in the same command (a quoted target may hold
#: spaces: `> "a $d"`; its quotes are gone from the lower-cased text).
_TARGET_END = str.maketrans(dict.fromkeys(";|&()<", "\n"))


def _built_target(low: str) -> bool:
    """Whether a redirection writes to a target that is not written out (``> .cla*/set*.json``: bash expands a glob
    there, and it names no trigger word): the judge expands it. ``2>&1``, ``> /dev/null``: no. String methods and
    at most ``_TARGETS`` steps: a command of megabytes is looked at in milliseconds."""
    if ">" not in low or not any(ch in low for ch in _BUILT):
        return False
    pieces = low.split(">", _TARGETS)[1:]  # what follows each `>` (`>>`: an empty piece, then the target)
    if len(pieces) >= _TARGETS:
        return True  # so many redirections: the judge looks at them, within its own budget
    for piece in pieces:
        target = piece.lstrip("| \t")  # `>|`, spaces
        if target[:1] == "&":  # `>&2`, `>&-`: a descriptor; `>& FILE`: a file
            target = target[1:].lstrip(" \t")
            if target[:1].isdigit() or target[:1] == "-":
                continue
        words = target[:_TARGET_CHARS].translate(_TARGET_END).split("\n", 1)
        if not _BUILT.isdisjoint(words[0]) or (len(words) == 1 and len(target) > _TARGET_CHARS):
            return True  # a built name, or words too long to look at here
    return False


def _pieces(text: str, size: int = 1 << 16) -> Iterator[str]:
    """``text`` in pieces of about ``size`` characters, each cut after a newline or ``;`` where there is one (a
    command of its own), else after a space."""
    start, end = 0, len(text)
    while start < end:
        stop = start + size
        if stop < end:
            cut = max(text.rfind("\n", start, stop), text.rfind(";", start, stop))
            cut = cut if cut > start else text.rfind(" ", start, stop)
            stop = cut + 1 if cut > start else stop
        yield text[start:stop]
        start = stop


def _runs_a_path(low: str) -> bool:
    """Whether a command of ``low`` runs a file by its path (``./r.sh``, ``bin/tool``, ``X=1 nohup ~/r.sh``) or
    sources one (``. r.sh``): the walk reads a script run so as ``bash FILE`` is read."""
    for segment in low.translate(_SEGMENTS).split(";"):
        for word in segment.split():
            if word in _BEFORE or word[:1] in "-0123456789" or ("=" in word and "/" not in word.split("=")[0]):
                continue  # `then ./r.sh`, `timeout 5 ./r.sh`, `X=1 ./r.sh`
            if word == "." or "/" in word:
                return True
            break
    return False
