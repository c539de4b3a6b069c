"""What a whole-file pass found in a file, remembered by the file's identity so that the next grep skips the pass.

A grep by rg needs two figures beside the search: the file's line count (the "of N read") and its first lone CR
(where rg's line numbers stop being those of universal newlines). Each is a pass over every byte, as costly as a
literal search itself (0.09-0.11 s of CPU a GB, rg's memory-bound speed), so a first grep costs three passes and
an agent's next grep of the same log would pay them all again. They are kept here, keyed by what changes whenever
the bytes can: device, inode, size, mtime and ctime in nanoseconds (ctime cannot be set back, so an edit that
restores the size and the mtime still changes the key). A file changed within the last ``RACY`` seconds is not
remembered: a filesystem's clock ticks coarser than its nanoseconds, and a second write within the same tick
would keep the key (git's "racy clean" entries, and its answer).

The figures live in one small text file under the user's cache folder (``$BOUNDREAD_CACHE_DIR``, else
``$XDG_CACHE_HOME/boundread``, else ``~/.cache/boundread``), a line a file (``KEY<TAB>LINES<TAB>LONE``), at most
``KEEP`` of them, replaced atomically; a cache that cannot be read or written is no cache (never an error), and a
wrong entry cannot come from a crash halfway. Plain text, os.path: json and pathlib were 8 ms of a grep's start-up.
"""

from __future__ import annotations

import os
import stat
import time

CACHE_ENV = "BOUNDREAD_CACHE_DIR"
KEEP = 256  # files remembered; the oldest entry goes first
RACY = 2.0  # seconds: a file changed more recently than this is not remembered
MIN_SIZE = 16 << 20  # bytes: a smaller file's passes cost less than the cache's own read and write (~1 ms)
_NAME = "grep-counts.tsv"
_UNKNOWN = "-"
_LINE_MAX = 200  # characters: a key and two figures take about 90
CLEAR = "clear"  # no lone CR in the whole file


class Counts:
    """What is known of one file: its line count as rg numbers lines, and its first lone CR as ``(line number,
    offset of that line)`` or ``CLEAR`` (none in the file); None for what is not known. (A plain class, not a
    dataclass: dataclasses, with inspect, was 12 ms of every grep's start-up.)"""

    __slots__ = ("lines", "lone_cr")

    def __init__(self, lines: int | None = None, lone_cr: tuple[int, int] | str | None = None) -> None:
        self.lines = lines
        self.lone_cr = lone_cr

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Counts) and (self.lines, self.lone_cr) == (other.lines, other.lone_cr)

    __hash__ = None  # type: ignore[assignment]  # equal by value, and changeable: not a key

    def __repr__(self) -> str:
        return f"Counts(lines={self.lines!r}, lone_cr={self.lone_cr!r})"


def folder() -> str | None:
    """Where the cache lives; None without a home to put it in (``~`` unresolved: never the working folder)."""
    if explicit := os.environ.get(CACHE_ENV):
        return explicit
    if xdg := os.environ.get("XDG_CACHE_HOME"):
        return os.path.join(xdg, "boundread")
    home = os.path.expanduser("~")
    return os.path.join(home, ".cache", "boundread") if os.path.isabs(home) else None


def key(path: str) -> str | None:
    """The file's identity, or None when it is not worth remembering (smaller than MIN_SIZE), changed too recently
    to be remembered, is no regular file or cannot be stat'ed."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_size < MIN_SIZE or time.time() - max(st.st_mtime, st.st_ctime) < RACY:
        return None
    return f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}"


def recall(ident: str | None) -> Counts:
    if ident is None:
        return Counts()
    return _load().get(ident) or Counts()


def remember(ident: str | None, found: Counts) -> None:
    """Add what a pass found to what is known of the file (a figure not found keeps the one known)."""
    if ident is None or (found.lines is None and found.lone_cr is None):
        return
    entries = _load()
    old = entries.pop(ident, None) or Counts()
    lines = found.lines if found.lines is not None else old.lines
    lone = found.lone_cr if found.lone_cr is not None else old.lone_cr
    if old == Counts(lines, lone):
        return
    entries[ident] = Counts(lines, lone)
    while len(entries) > KEEP:
        entries.pop(next(iter(entries)))
    _store(entries)


def _parse(line: str) -> tuple[str, Counts] | None:
    """``KEY<TAB>LINES<TAB>LONE`` (LONE: ``clear``, ``NUMBER,OFFSET`` or ``-``); None for a line that is not."""
    parts = line.split("\t")
    if len(parts) != 3 or not parts[0] or len(line) > _LINE_MAX:
        return None
    ident, lines, lone = parts
    number, _, offset = lone.partition(",")
    return ident, Counts(int(lines) if _figure(lines) else None,
                         CLEAR if lone == CLEAR else (int(number), int(offset)) if _figure(number)
                         and _figure(offset) else None)


def _figure(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _format(ident: str, counts: Counts) -> str:
    lone = counts.lone_cr
    lone_text = _UNKNOWN if lone is None else lone if isinstance(lone, str) else f"{lone[0]},{lone[1]}"
    lines = _UNKNOWN if counts.lines is None else str(counts.lines)
    return f"{ident}\t{lines}\t{lone_text}\n"


def _load() -> dict[str, Counts]:
    """The entries, oldest first; {} for a cache that is missing, unreadable or not ours."""
    where = folder()
    if where is None:
        return {}
    try:
        with open(os.path.join(where, _NAME), encoding="utf-8") as fh:
            text = fh.read(KEEP * _LINE_MAX + 1)
    except (OSError, ValueError):
        return {}
    if len(text) > KEEP * _LINE_MAX:  # not a file this module wrote: its last line may be cut
        return {}
    return dict(entry for line in text.splitlines() if (entry := _parse(line)) is not None)


def _store(entries: dict[str, Counts]) -> None:
    where = folder()
    if where is None:
        return
    # tempfile.mkstemp's way without tempfile (7 ms of imports): a new name, created exclusively, 0600
    tmp = os.path.join(where, f".grep-counts.{os.getpid()}.{os.urandom(6).hex()}")
    try:
        os.makedirs(where, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write("".join(_format(ident, counts) for ident, counts in entries.items()))
        os.replace(tmp, os.path.join(where, _NAME))
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
