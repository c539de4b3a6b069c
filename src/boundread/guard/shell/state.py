"""What the shell walk carries: the streams between commands, the shell's state, the call's budget.

A Flow is one file's content on its way to the output: ``(absolute path, bounds, program)`` - the
bounds put on it so far (any one of them holds) and the command as a reason shows it. A Stream is
what a command writes: flows of file content plus literal text it is known to print (``echo``,
here-documents, ``ls`` and ``find`` names), which shells, interpreters and ``xargs`` read on.
"""

from __future__ import annotations

import os
import stat
from time import monotonic, process_time

from boundread.guard.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node

    from boundread.guard.bounds import Bound

    Flow = tuple[str, tuple[Bound, ...], str]

PRINT, UNPACK, CAPPED, REMOTE, SPENT = "print", "unpack", "capped", "remote", "spent"
#: A flow's path from another host starts with this, then ``host:path`` (``ssh host cat f``).
REMOTE_MARK = "\ue010"
#: Most words one glob or brace expansion, one loop or one ``xargs`` fans out to; beyond it, the rest is left out.
FANOUT = 256
#: Most arguments one command is checked with (several words can each fan out); beyond it, a cap is said.
ARGS = 1024
#: Nodes and commands one call may visit before the walk gives up and the conservative scan decides. A step is
#: also charged for each 256 characters a word, a value or a text costs to build, so the budget bounds memory too.
STEPS = 20_000
#: CPU seconds one check may spend following a command, its parse included: past it, the walk stops and the command
#: is refused as too big to check. CPU time, not the clock's: on a machine running 64 hooks on 2 cores an ordinary
#: command's 30 ms of work takes a second of the clock, and was refused for it.
SECONDS = 1.0
#: Seconds of the clock the walk may take whatever the load (the hook's client waits 10 s at most, and runs the
#: command unguarded after that; start-up and the answer take the rest).
WALL_SECONDS = 5.0
#: The longest command text (and here-document or output text in a stream) the walk follows: longer, the scan decides.
MAX_TEXT = 1024 * 1024
#: The longest value a word or variable is followed at: only repetition builds one longer than the text
#: (``x=$x$x`` thirty times is a gigabyte); such a value is UNCHECKED and a cap is said.
MAX_VALUE = MAX_TEXT
#: Directory entries a ``find`` walk or a glob looks at for one step (measured: an entry read and matched costs
#: about what a quarter of a syntax node does), so that a loop of walks runs out of budget as a loop of nodes does.
ENTRIES_PER_STEP = 4
UNKNOWN = "\x00"  # a word whose value cannot be known here (`$1` outside a function, `$(date)`)
#: The names a capped fan-out left unchecked (a glob or ``find`` that stopped before any match): unknown,
#: and a file a dumper reads unseen - decide denies a whole print of it.
UNCHECKED = UNKNOWN + "unchecked"
#: tree-sitter's progress reports all the parses of one check may take (~40 MB of syntax tree, ~0.3 s): a tree
#: bigger than that has more nodes than STEPS lets the walk visit anyway.
REPORTS = 10_000
SMALL_SCRIPT = 64 * 1024  # a script or name list read from disk (or a pipe of a small file): at most this
_VISIBLE = frozenset({"/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2", "/dev/console",
                      "/proc/self/fd/1", "/proc/self/fd/2", "/proc/thread-self/fd/1", "/proc/thread-self/fd/2"})


class FileUse(Record):
    """``action``: PRINT (its content reaches the output) or UNPACK (an archive is extracted), or
    CAPPED: a fan-out (glob, braces, loop, ``find``, ``xargs``) stopped at its cap, ``program`` says
    which and how; REMOTE: a file on another host printed here (``path`` is ``host:path``); SPENT: the check's
    budget ran out before the walk's end (``program`` says which budget), the scan decided the rest.
    ``path`` resolves against the payload's cwd; ``program`` is the command as a reason shows it;
    ``bounds`` are the limits on what is printed (any one of them holds; none: the whole file)."""

    __slots__ = ("action", "path", "program", "bounds")  # noqa: RUF023 - field order = argument order
    action: str
    path: str
    program: str
    bounds: tuple[Bound, ...]

    def __init__(self, action: str, path: str, program: str, bounds: tuple[Bound, ...] = ()) -> None:
        self._init(action, path, program, bounds)


class Exhausted(Exception):
    """The command is too big or too deep to follow in the budget: the conservative scan decides.
    The message names the budget that ran out, as a reason shows it: "20,000 steps", "1 s"."""


class Stream:
    """``exact``: the flows and text are the files' bytes and the text as they are, or lines of them (``cat``,
    ``<``, ``head``, ``sort``); False once a program may have changed them (``cut``, ``sed``, ``tr``), so a
    file's content is not what the stream carries (``known_text`` is then None)."""

    __slots__ = ("exact", "flows", "text")

    def __init__(self, flows: list[Flow] | None = None, text: str = "", exact: bool = True) -> None:
        self.flows: list[Flow] = flows or []
        self.text = text
        self.exact = exact

    def add(self, other: Stream) -> None:
        self.flows.extend(other.flows)
        self.text = joined_text(self.text, other.text)
        self.exact = self.exact and other.exact

    def named(self, program: str) -> list[Flow]:
        """The flows, each credited to ``program`` when no reader has been named yet (``cat < f``)."""
        return [(path, found, shown or program) for path, found, shown in self.flows]


class Env:
    """The shell's state: working directory, variables (with the flows a ``$(...)`` put in them),
    the directory stack, functions, positional arguments, the files written so far (read back later),
    where ``exec >FILE`` sent the shell's stdout (None: where the command's output goes), and the other
    descriptors ``exec 3>&1`` opened (each a target as stdout is; None: the command's output)."""

    __slots__ = ("args", "cwd", "dirs", "fds", "functions", "stdout", "var_flows", "vars", "writes")

    def __init__(self, cwd: str) -> None:
        self.cwd = cwd
        self.stdout: str | None = None
        self.fds: dict[str, str | None] = {}
        self.vars: dict[str, str] = {"PWD": cwd}
        self.var_flows: dict[str, list[Flow]] = {}
        self.dirs: list[str] = []
        self.functions: dict[str, Node] = {}
        self.args: list[str] = []
        self.writes: dict[str, Stream] = {}

    def copy(self) -> Env:
        """A sub-shell's view: its own cwd and variables; writes go to the same disk."""
        env = Env(self.cwd)
        env.vars, env.var_flows = dict(self.vars), dict(self.var_flows)
        env.dirs, env.functions, env.args = list(self.dirs), dict(self.functions), list(self.args)
        env.writes, env.stdout, env.fds = self.writes, self.stdout, dict(self.fds)
        return env

    def path(self, word: str) -> str:
        """``word`` as an absolute, normalised path against the shell's cwd, as the kernel opens it: a ``..``
        after a symlink goes up from the link's target (``lnk/../f``), not from where the link is."""
        if word.startswith(_OWN_CWD):  # `/proc/self/cwd/big.log`: the command's own cwd, not the guard's
            word = self.cwd + word[word.index("/cwd") + 4:]
        joined = os.path.join(self.cwd, os.path.expanduser(word))
        logical = os.path.normpath(joined)
        if ".." not in joined:
            return logical
        head, tail = os.path.split(joined)  # the last part itself is left as named (a link there is read as is)
        if tail in ("", ".", ".."):
            physical = os.path.realpath(joined)
            return logical if physical == os.path.realpath(logical) else physical
        where = os.path.realpath(head)
        return logical if where == os.path.realpath(os.path.dirname(logical)) else os.path.join(where, tail)

    def logical(self, word: str) -> str:
        """``word`` against the cwd with ``..`` dropping the part before it, as bash's ``cd`` does."""
        return os.path.normpath(os.path.join(self.cwd, os.path.expanduser(word)))


#: Paths that name the running command's cwd through /proc (a link there, read by the guard, is the guard's own).
_OWN_CWD = ("/proc/self/cwd/", "/proc/thread-self/cwd/")


def joined_text(text: str, more: str) -> str:
    """``text + more``, unless that passes MAX_TEXT: a stream's text (a here-document, what ``echo`` prints in a
    loop) is kept whole or the walk stops - a part of a script handed to a shell is not that script."""
    if len(text) + len(more) > MAX_TEXT:
        raise Exhausted(f"{MAX_TEXT // 1024 ** 2} MB of text in a here-document or what a command passes on")
    return text + more if text else more


class Ctx:
    """One check's findings and budget; ``run``/``shell``/``command`` re-enter the walk (set by walk.py).

    The budget: ``steps`` (nodes visited, characters built), ``deadline`` (``time.monotonic()`` past which the walk
    stops, WALL_SECONDS from the start; a git or database query started in the walk stops before it too),
    ``cpu_deadline`` (``time.process_time()`` past which it stops, SECONDS of CPU) and ``reports`` (tree-sitter's
    progress reports on the parses of long texts: each is about 100 parser operations and 4 KB of syntax tree, so
    they bound the tree's memory before a node of it is walked)."""

    __slots__ = ("command", "cpu_deadline", "deadline", "reports", "root", "run", "shell", "steps", "uses", "walks")

    def __init__(self, root: str, run: Callable[[Node, Env, Stream], Stream],
                 shell: Callable[[str, Env, Stream], Stream],
                 command: Callable[[list[str], Env, Stream], Stream], deadline: float | None = None) -> None:
        self.root = root
        self.uses: list[FileUse] = []
        self.steps = STEPS
        self.deadline = monotonic() + WALL_SECONDS if deadline is None else deadline
        self.cpu_deadline = process_time() + SECONDS
        self.reports = REPORTS
        #: The ``find`` walks and globs done so far (the disk does not change during a check): the names,
        #: whether a cap cut them, the entries looked at.
        self.walks: dict[tuple[str, ...], tuple[list[str], bool, int]] = {}
        self.run = run  # one syntax node
        self.shell = shell  # a script's text (bash -c, eval, a heredoc into a shell)
        self.command = command  # an argv (xargs, find -exec, wrappers)

    def step(self, cost: int = 1) -> None:
        self.steps -= cost
        if self.steps < 0:
            raise Exhausted(f"{STEPS:,} steps")
        if self.late():
            raise Exhausted(f"{SECONDS:g} s of work")

    def low(self) -> bool:
        """Is a quarter or less of the budget left (steps or time)? A loop then starts no further pass: the
        command's rest is still walked (and the loop says where it stopped) rather than the budget running out
        and the walk's findings being lost."""
        return (self.steps <= STEPS // 4 or process_time() > self.cpu_deadline - SECONDS / 4
                or monotonic() > self.deadline - WALL_SECONDS / 4)

    def late(self) -> bool:
        """Is the check past its CPU time or its clock time?"""
        return process_time() > self.cpu_deadline or monotonic() > self.deadline

    def display(self, absolute: str) -> str:
        """The path as the payload's cwd reaches it: relative when inside it, else absolute."""
        inside = self.root.rstrip(os.sep) + os.sep
        return absolute[len(inside):] if absolute.startswith(inside) else absolute

    def show(self, flows: list[Flow]) -> None:
        """These flows reach the conversation (a step for each 4: a loop of globs cannot pile up uses)."""
        self.step(len(flows) // 4)
        for path, found, program in flows:
            if path.startswith(REMOTE_MARK):
                self.uses.append(FileUse(REMOTE, path[len(REMOTE_MARK):], program, found))
            else:
                self.uses.append(FileUse(PRINT, self.display(path), program, found))

    def unpack(self, absolute: str, program: str) -> None:
        self.uses.append(FileUse(UNPACK, self.display(absolute), program))

    def cap(self, what: str) -> None:
        """A fan-out stopped at its cap: what it left out is unchecked (decide says so, and denies a dump)."""
        self.uses.append(FileUse(CAPPED, "", what))

    def spend(self, what: str) -> None:
        """The budget ran out: a cap on the whole command, which decide words as such (split it, shorten it)."""
        self.uses.append(FileUse(SPENT, "", what))


def visible(absolute: str) -> bool:
    """Is this write target the conversation itself (stdout, stderr, the terminal)?"""
    if absolute in _VISIBLE:
        return True
    parts = absolute.split("/")  # /proc/<pid>/fd/1
    return len(parts) == 5 and parts[1] == "proc" and parts[3] == "fd" and parts[4] in ("1", "2")


def read_file(env: Env, word: str, program: str) -> Stream:
    """What reading ``word`` yields: what the command wrote there earlier, else the file itself."""
    if UNKNOWN in word:
        if UNCHECKED in word:
            return Stream([(UNCHECKED, (), program)])
        return Stream(exact=False)  # `< "$LIST"`: nothing known of it, not a known empty text
    absolute = env.path(word)
    written = env.writes.get(absolute)
    if written is not None:
        return Stream(written.named(program), written.text, written.exact)
    return Stream([(absolute, (), program)])


def known_text(stream: Stream, ctx: Ctx) -> str | None:
    """All a stream carries, when that is known: its text plus the content of each file flowing in it, when the
    stream passed them on unchanged (``exact``) and all of it is small text (at most SMALL_SCRIPT together:
    ``$(cat list)``, ``cat list | while read f``); else None. What is handed on is charged to the budget."""
    if not stream.exact or len(stream.flows) > FANOUT or UNKNOWN in stream.text.replace(UNCHECKED, ""):
        return None  # a part of it cannot be known (`<<< "$(git ls-files)"`); a cut listing's UNCHECKED is a name
    parts, left = [stream.text], SMALL_SCRIPT - len(stream.text)
    for path, _found, _program in stream.flows:
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):  # before open: a FIFO would block it
                return None
            with open(path, "rb") as fh:
                data = fh.read(left + 1)
        except (OSError, ValueError):
            return None
        left -= len(data)
        if left < 0:
            return None
        content = data.decode("utf-8", "replace")
        if "\x00" in content or "\ufffd" in content:  # a binary file is no list of names
            return None
        parts.append(content)
    text = "\n".join(part for part in parts if part)
    ctx.step(len(text) // 256)
    return text


def small_text(stream: Stream) -> str:
    """The stream's known text plus the content of the small regular files flowing in it (a script, a name list);
    past MAX_TEXT in all (256 scripts of 64 KB), the walk stops as for any text that long."""
    parts = [stream.text]
    size = len(stream.text)
    for path, _found, _program in stream.flows[:FANOUT]:
        try:
            if os.stat(path).st_size <= SMALL_SCRIPT and os.path.isfile(path):
                with open(path, "rb") as fh:
                    parts.append(fh.read(SMALL_SCRIPT).decode("utf-8", "replace"))
                size += len(parts[-1])
        except (OSError, ValueError):
            continue
        if size > MAX_TEXT:
            raise Exhausted(f"{MAX_TEXT // 1024 ** 2} MB of scripts that the command runs")
    return "\n".join(part for part in parts if part)
