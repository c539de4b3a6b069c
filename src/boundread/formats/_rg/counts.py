"""What a whole-file pass found in a file, remembered by the file's identity so that the next grep skips the pass.

A grep by rg needs two figures beside the search: the file's line count (the "of N read") and its first lone CR
(where rg's line numbers stop being those of universal newlines). Each is a pass over every byte, as costly as a
literal search itself (0.09-0.11 s of CPU a GB, rg's memory-bound speed), so a first grep costs three passes and
an agent's next grep of the same log would pay them all again. They are kept here, keyed by what changes whenever
the bytes can: device, inode, size, mtime and ctime in nanoseconds (ctime cannot be set back, so an edit that
restores the size and the mtime still changes the key). A file changed within the last ``RACY`` seconds is not
remembered: a filesystem's clock ticks coarser than its nanoseconds, and a second write within the same tick
would keep the key (git's "racy clean" entries, and its answer).

The figures live in one small JSON file under the user's cache folder (``$BOUNDREAD_CACHE_DIR``, else
``$XDG_CACHE_HOME/boundread``, else ``~/.cache/boundread``), at most ``KEEP`` files, replaced atomically; a cache that
cannot be read or written is no cache (never an error), and a wrong entry cannot come from a crash halfway.
"""

from __future__ import annotations

import contextlib
import os
import stat
import time
from pathlib import Path  # loaded by the CLI before any read already

CACHE_ENV = "BOUNDREAD_CACHE_DIR"
KEEP = 256  # files remembered; the oldest entry goes first
RACY = 2.0  # seconds: a file changed more recently than this is not remembered
MIN_SIZE = 16 << 20  # bytes: a smaller file's passes cost less than the cache's own read and write (~1 ms)
_NAME = "grep-counts.json"
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


def folder() -> Path | None:
    """Where the cache lives; None without a home to put it in (``~`` unresolved: never the working folder)."""
    if explicit := os.environ.get(CACHE_ENV):
        return Path(explicit)
    if xdg := os.environ.get("XDG_CACHE_HOME"):
        return Path(xdg) / "boundread"
    try:
        home = Path("~").expanduser()
    except RuntimeError:  # no home directory to be found
        return None
    return home / ".cache" / "boundread" if home.is_absolute() else None


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
    entry = _load().get(ident)
    if not isinstance(entry, list) or len(entry) != 2:
        return Counts()
    lines, lone = entry
    return Counts(lines if isinstance(lines, int) and lines >= 0 else None, _lone(lone))


def remember(ident: str | None, found: Counts) -> None:
    """Add what a pass found to what is known of the file (a figure not found keeps the one known)."""
    if ident is None or (found.lines is None and found.lone_cr is None):
        return
    entries = _load()
    old = recall(ident) if ident in entries else Counts()
    lines = found.lines if found.lines is not None else old.lines
    lone = found.lone_cr if found.lone_cr is not None else old.lone_cr
    if old == Counts(lines, lone):
        return
    entries.pop(ident, None)
    entries[ident] = [lines, list(lone) if isinstance(lone, tuple) else lone]
    while len(entries) > KEEP:
        entries.pop(next(iter(entries)))
    _store(entries)


def _lone(value: object) -> tuple[int, int] | str | None:
    if value == CLEAR:
        return CLEAR
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and v >= 0 for v in value):
        return value[0], value[1]
    return None


def _load() -> dict[str, object]:
    import json  # only for a file worth remembering (MIN_SIZE)

    where = folder()
    if where is None:
        return {}
    try:
        data = json.loads((where / _NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _store(entries: dict[str, object]) -> None:
    import json

    where = folder()
    if where is None:
        return
    target = where / _NAME
    with contextlib.suppress(OSError):
        target.parent.mkdir(parents=True, exist_ok=True)
        # tempfile.mkstemp's way without tempfile (7 ms of imports): a new name, created exclusively, 0600
        tmp = target.parent / f".grep-counts.{os.getpid()}.{os.urandom(6).hex()}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(entries, fh, separators=(",", ":"))
            os.replace(tmp, target)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
