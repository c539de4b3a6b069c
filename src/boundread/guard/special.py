"""Reads of things that are not files: devices, FIFOs, sockets, a process's own streams, ``/proc``.

A Read of ``/dev/zero`` or ``/dev/urandom`` never ends; ``/dev/stdin``, ``/dev/tty``, ``/dev/fd/N`` and
``/proc/self/fd/N`` are the *agent's* own streams (they block, or read what the guard cannot see); a
FIFO blocks until a writer comes; a file under ``/proc`` whose size is reported as 0 has no size the
guard can check (``/proc/self/maps`` can be megabytes). Each is denied at once, by ``stat`` and the
path's name alone: nothing is opened. ``/dev/null`` (always empty) passes. An ``allow`` glob that
names the path still wins. Standard library only: guard-check's hot path.
"""

# os.path on purpose, not pathlib: importing pathlib costs milliseconds of start-up on the hook path.
# ruff: noqa: PTH109, PTH111, PTH118
from __future__ import annotations

import os
import stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.bounds import Bound
    from boundread.guard.config import GuardConfig

OPENING = "Not an error: boundread refused this on purpose"  # reason.OPENING, without importing reason
_STREAMS = ("/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/console")
_STREAM_DIRS = ("/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/dev/pts/")
#: The most a page range may say (the guard never needs more; int() refuses over 4,300 digits).
MAX_PAGES_TEXT = 200


def refusal(path: str, cwd: str | os.PathLike[str] | None, config: GuardConfig) -> tuple[str, str] | None:
    """(rule, reason) when a read of ``path`` must be denied for what it is; None for a file (or
    nothing at all: a missing path is the normal check's business)."""
    absolute = os.path.normpath(os.path.join(os.fspath(cwd) if cwd else os.getcwd(), os.path.expanduser(path)))
    try:
        info = os.stat(absolute)
    except (OSError, ValueError):
        return _own_stream(path, absolute, config)
    if stat.S_ISREG(info.st_mode):
        if info.st_size == 0 and (absolute.startswith("/proc/") or os.path.realpath(absolute).startswith("/proc/")):
            return _refuse(config, path, absolute, "proc-unsized",
                           f"{path} is a kernel file whose size is reported as 0, so its real size cannot "
                           f"be checked (some are megabytes).\nRun instead:\n  head -c {_cap(config)} "
                           f"{_quote(path)}\nto read a bounded part of it.")
        return _own_stream(path, absolute, config)
    if stat.S_ISDIR(info.st_mode):
        return None
    own = _own_stream(path, absolute, config)  # by name: in the guard /dev/stdin may be /dev/null
    if own is not None:
        return own
    if stat.S_ISCHR(info.st_mode) and _is_null(info):
        return None
    what = ("a character device" if stat.S_ISCHR(info.st_mode) else "a block device" if stat.S_ISBLK(info.st_mode)
            else "a FIFO (named pipe)" if stat.S_ISFIFO(info.st_mode) else "a socket" if stat.S_ISSOCK(info.st_mode)
            else "not a regular file")
    never = "blocks until a writer comes, and may never end" if stat.S_ISFIFO(info.st_mode) else \
        "may never end (/dev/zero, /dev/urandom) or block"
    return _refuse(config, path, absolute, "not-a-regular-file",
                   f"{path} is {what}, not a file: reading it {never}. It is never opened.\n"
                   f"If you need a few bytes of it, run:\n  timeout 5 head -c 1024 {_quote(path)} | od -A d -t x1")


def command_refusal(absolute: str, shown: str, program: str, found: tuple[Bound, ...],
                    config: GuardConfig) -> str | None:
    """The reason a command's print of ``absolute`` never ends (a device: ``cat /dev/urandom``, ``od -x
    /dev/zero``) or blocks (a FIFO: ``less pipe``); None for anything else. A read through a bound within the
    caps (``head -c 100 /dev/urandom``, ``head -n 5 pipe``) ends, or prints no more than it: allowed.
    ``/dev/null`` and the process's own streams (``cat /dev/stdin``) pass: what they carry is the command's own
    input, judged where it comes from."""
    try:
        info = os.stat(absolute)
    except (OSError, ValueError):
        return None
    mode = info.st_mode
    if not (stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
        return None
    if absolute in _STREAMS or absolute.startswith(_STREAM_DIRS) or _proc_fd(absolute) or \
            (stat.S_ISCHR(mode) and _is_null(info)):
        return None
    if any(_ends(bound, absolute, config) and (stat.S_ISFIFO(mode) or not bound.from_end) for bound in found):
        return None  # a FIFO too: it may block, but what it prints is bounded; the end of a device never comes
    what = ("a FIFO (named pipe): the read blocks until a writer comes, and may never end" if stat.S_ISFIFO(mode)
            else "a socket: the read blocks" if stat.S_ISSOCK(mode)
            else "a block device: its output is a whole disk" if stat.S_ISBLK(mode)
            else "a character device: its output may never end (as /dev/zero's and /dev/urandom's do not)")
    return (f"{OPENING} - `{program}` would read {shown}, {what}, so what it prints has no bound.\n"
            f"If you need a few bytes of it, run:\n  timeout 5 head -c 1024 {_quote(shown)} | od -A d -t x1\n"
            "For random data, ask for the size you need: head -c 32 /dev/urandom | base64")


def _ends(bound: Bound, absolute: str, config: GuardConfig) -> bool:
    """Does this bound end a device's endless stream within the caps? Bytes always; lines too (random bytes hold
    a newline in 256, ``tr -dc a-z < /dev/urandom | fold -w 32 | head -n 1`` makes its own), but for /dev/zero,
    whose zeros hold none."""
    if bound.unit == "bytes":
        return bound.count <= config.text_max_bytes
    return bound.unit == "lines" and bound.count <= config.line_cap and absolute != "/dev/zero"


def page_range(pages: object) -> object:
    """``pages`` as given, or None when it cannot be a page range (a huge number, a huge text): the
    read is then judged as a whole read, as for any other bad range."""
    if isinstance(pages, int) and not isinstance(pages, bool):
        return pages if pages.bit_length() <= 64 else None
    if isinstance(pages, str) and len(pages) > MAX_PAGES_TEXT:
        return None
    return pages


def _own_stream(path: str, absolute: str, config: GuardConfig) -> tuple[str, str] | None:
    if absolute not in _STREAMS and not absolute.startswith(_STREAM_DIRS) and not _proc_fd(absolute):
        return None
    return _refuse(config, path, absolute, "process-stream",
                   f"{path} is the reading process's own input or output, not a file: the read blocks, or "
                   "shows what the guard cannot check.\nRead a regular file instead, or ask the user for "
                   "the content.")


def _proc_fd(absolute: str) -> bool:
    """``/proc/<pid>/fd/N``: a process's open descriptors."""
    parts = absolute.split("/")
    return len(parts) >= 5 and parts[1] == "proc" and parts[2].isdigit() and parts[3] == "fd"


def _is_null(info: os.stat_result) -> bool:
    try:
        return info.st_rdev == os.stat(os.devnull).st_rdev
    except OSError:
        return False


def _refuse(config: GuardConfig, path: str, absolute: str, rule: str, text: str) -> tuple[str, str] | None:
    if config.allow:
        import fnmatch  # only when the config has an allow-list

        if any(fnmatch.fnmatch(name, glob) for glob in config.allow for name in (path, absolute)):
            return None
    return rule, f"{OPENING} - {text}"


def _cap(config: GuardConfig) -> int:
    return min(config.text_max_bytes, 65536)


def _quote(word: str) -> str:
    from boundread.guard.reason import quote  # on a deny only

    return quote(word)
