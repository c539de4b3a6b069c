"""The folders an MCP server serves, and the check that a requested path lies inside one of them.

A path is resolved against the first root when relative, its symlinks are resolved, and the real path
must be a root or lie under one (a prefix check on whole path components, so ``/srv/data-old`` is not
inside ``/srv/data``). The client's roots (``file://`` URIs from ``roots/list``) replace the default
root, the working folder; roots given with ``--root`` bound the server: a client root outside them is
ignored.

A path is checked once, on the file itself (:func:`open_inside`): the real path is opened without following a
link at its last component, and the path of what was opened (``/proc/self/fd/N``) must lie inside the roots;
the engine then reads that open file through a link to ``/proc/self/fd/N`` in a private folder, whose name keeps
the file's own (its extension tells the kind). Swapping the file for a link to an outside file between the check
and the read (34 of 400 calls read the outside file when the engine reopened the path) reads the checked file or
fails; it never reads the outside one. Without /proc (macOS), the file is still opened without following a link
and checked by its device and inode, but the engine reopens the path.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from urllib.parse import unquote, urlparse

from boundread.errors import NotFound, Refused, UsageError


def real(path: str | Path) -> str:
    return os.path.realpath(Path(path).expanduser())


def inside(path: str, root: str) -> bool:
    """Whether the real path ``path`` is ``root`` or under it (both already real)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def from_uris(uris: Iterable[str]) -> tuple[str, ...]:
    """The local folders named by ``file://`` root URIs (others are ignored: nothing to serve)."""
    found: list[str] = []
    for uri in uris:
        parsed = urlparse(uri)
        if parsed.scheme == "file" and parsed.netloc in ("", "localhost") and parsed.path:
            found.append(real(unquote(parsed.path)))
    return tuple(dict.fromkeys(found))


def effective(configured: Sequence[str], explicit: bool, client: Sequence[str]) -> tuple[str, ...]:
    """The roots a call may read: the client's when it declares any (within ``--root`` when that was given),
    else the configured ones."""
    if not client:
        return tuple(configured)
    if not explicit:
        return tuple(client)
    kept = tuple(root for root in client if any(inside(root, bound) for bound in configured))
    return kept or tuple(configured)


def resolve(path: str, roots: Sequence[str]) -> Path:
    """The real path of ``path`` (relative: to the first root where it exists); Refused outside the roots."""
    if not path.strip():
        raise NotFound("no path given", "pass a file path relative to the served folder")
    if "\0" in path:
        raise UsageError(f"the path {path!r} holds a NUL byte, which no file name has", "pass the file's name")
    given = Path(path).expanduser()
    if given.is_absolute():
        candidates = [real(given)]
    else:
        candidates = [real(Path(root) / given) for root in roots]
        candidates = [c for c in candidates if os.path.lexists(c)] or candidates[:1]
    for candidate in candidates:
        if any(inside(candidate, root) for root in roots):
            return Path(candidate)
    shown = ", ".join(roots) or "none"
    raise Refused(f"{path} is outside the folders this server serves ({shown})",
                  "pass a path inside one of them, or start `boundread mcp` with --root DIR")


def display(path: Path, roots: Sequence[str]) -> str:
    """``path`` as the agent should name it again: relative to the first root when under it."""
    text = str(path)
    if roots and inside(text, roots[0]) and text != roots[0]:
        return os.path.relpath(text, roots[0])
    return text


PROC_FD = Path("/proc/self/fd")


class Opened:
    """A served file, opened and checked: ``real`` (its real path) and ``read`` (what the engine opens: a link to
    the open file, or ``real`` without /proc). The worker that reads it closes it (:meth:`claim`, then
    :meth:`close`), or the server does when no worker ever started: an abandoned worker may still read it, so
    it is never closed under one (a reused descriptor number would name another file)."""

    def __init__(self, real: Path, fd: int, read: Path, scratch: Path | None) -> None:
        self.real, self.fd, self.read, self._scratch = real, fd, read, scratch
        self._lock = threading.Lock()
        self._state = "open"  # -> "claimed" (a worker reads it) -> "closed"

    def claim(self) -> bool:
        """For the worker: True when it may read the file (the server has not given up on it)."""
        with self._lock:
            if self._state != "open":
                return False
            self._state = "claimed"
            return True

    def release(self) -> None:
        """For the server, once its call is over: close the file unless a worker claimed it (it closes it)."""
        with self._lock:
            if self._state != "open":
                return
            self._state = "released"
        self.close()

    def close(self) -> None:
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
        os.close(self.fd)


def open_inside(path: str, roots: Sequence[str], scratch: Path | None) -> Opened:
    """``path`` (see :func:`resolve`) opened once and checked on the open file; ``scratch``: a private folder for
    the link the engine reads through (None: no link, the engine opens the real path)."""
    real = resolve(path, roots)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(real, flags)
    except FileNotFoundError:
        raise NotFound(f"{path}: no such file", "check the path (call info on its folder's files)") from None
    except PermissionError:
        raise NotFound(f"{path}: permission denied", "check the file's permissions") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # a link appeared where the real path was checked
            raise Refused(f"{path} changed while it was opened (it is now a link)", "call again") from None
        raise NotFound(f"{path}: cannot open ({exc.strerror})", "check the path") from None
    try:
        opened = _opened_path(fd, real)
        if opened is None or not any(inside(opened, root) for root in roots):
            shown = ", ".join(roots) or "none"
            raise Refused(f"{path} is outside the folders this server serves ({shown})",
                          "pass a path inside one of them, or start `boundread mcp` with --root DIR")
        if scratch is None or not PROC_FD.is_dir():
            return Opened(real, fd, real, None)
        folder = Path(tempfile.mkdtemp(dir=scratch))
        link = folder / real.name
        link.symlink_to(PROC_FD / str(fd))
        return Opened(real, fd, link, folder)
    except BaseException:
        os.close(fd)
        raise


def _opened_path(fd: int, real: Path) -> str | None:
    """The real path of the open file ``fd``: from /proc, else ``real`` when it is still that very file."""
    try:
        return os.readlink(PROC_FD / str(fd))
    except OSError:
        pass
    try:
        now, held = os.stat(real), os.fstat(fd)
    except OSError:
        return None
    same = (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino) and stat.S_IFMT(now.st_mode) == stat.S_IFMT(
        held.st_mode)
    return str(real) if same else None
