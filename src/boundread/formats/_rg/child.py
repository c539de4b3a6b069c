"""rg's process, started without the subprocess module: ``os.posix_spawn`` with pipes, and the five things the
engine asks of a process (its pipes, ``poll``, ``wait``, ``kill``, ``send_signal``).

subprocess loads selectors, locale, contextlib and math: 10-13 ms of every grep's start-up on a 2-core machine,
beside a search of 0.2 s a GB (issue 24 holds a grep to 1.3x ripgrep's own time). What Popen does that matters
here is done the same way: the child gets SIGPIPE and SIGXFSZ back at their defaults (Python ignores both, and an
ignored signal stays ignored across exec), an empty signal mask, and no descriptor of ours but the three it is
given (Python opens its own non-inheritable; an inheritable one handed to us is closed in the child). Reaping is
Popen's too: one thread waits at a time, and a process reaped is never signalled again (its pid may be another's
by then). Where posix_spawn is missing (Windows), Popen itself runs behind the same class.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # signal.py without its enums (enum: ~1 ms before rg starts)
import os
from _thread import allocate_lock  # threading's Lock, without the threading module (cli/early.py)

TYPE_CHECKING = False  # typing for mypy only: it costs a grep's start-up
if TYPE_CHECKING:
    from typing import IO, Any

PIPE, DEVNULL = -1, -3  # subprocess's values, so either may be passed on


def _inherited() -> list[int]:
    """Our descriptors above 2 that a program we start would inherit: Python opens its own non-inheritable, but one
    handed to us may not be (a harness's pipe, a test runner's channel). Popen closes them in the child
    (``close_fds``); listed from /proc/self/fd (/dev/fd on BSD and macOS), none where neither is."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        found = []
        for name in names:
            fd = int(name) if name.isdigit() else -1
            try:
                if fd > 2 and os.get_inheritable(fd):
                    found.append(fd)
            except OSError:  # the listing's own descriptor, closed by now
                continue
        return found
    return []


class Child:
    """One running program; ``stdin``/``stdout``/``stderr`` are binary files for the streams asked as PIPE."""

    def __init__(self, argv: list[str], *, stdin: int = DEVNULL, stdout: int = DEVNULL, stderr: int = DEVNULL,
                 bufsize: int = -1) -> None:
        self.returncode: int | None = None
        self.stdin: IO[bytes] | None = None
        self.stdout: IO[bytes] | None = None
        self.stderr: IO[bytes] | None = None
        self._lock = allocate_lock()
        self._popen: Any = None
        if not hasattr(os, "posix_spawn"):
            import subprocess

            self._popen = subprocess.Popen(argv, stdin=stdin, stdout=stdout, stderr=stderr, bufsize=bufsize)
            self.pid = self._popen.pid
            self.stdin, self.stdout, self.stderr = self._popen.stdin, self._popen.stdout, self._popen.stderr
            return
        ours: list[tuple[int, str, int]] = []  # (our end, mode, the child's fd) of each pipe
        theirs: list[int] = []  # the descriptors the child is given, closed here once it has them
        actions: list[tuple[int, ...]] = []
        try:
            for fd, how in ((0, stdin), (1, stdout), (2, stderr)):
                if how >= 0:  # a descriptor of the caller's, given as it is
                    actions.append((os.POSIX_SPAWN_DUP2, how, fd))
                    continue
                if how == PIPE:
                    read_end, write_end = os.pipe()
                    mine, child = (write_end, read_end) if fd == 0 else (read_end, write_end)
                    ours.append((mine, "wb" if fd == 0 else "rb", fd))
                else:
                    child = os.open(os.devnull, os.O_RDWR)
                theirs.append(child)
                actions.append((os.POSIX_SPAWN_DUP2, child, fd))
            actions += [(os.POSIX_SPAWN_CLOSE, fd) for fd in _inherited()]  # Popen's close_fds
            self.pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions, setsigmask=(),
                                      setsigdef=[getattr(_signal, name) for name in ("SIGPIPE", "SIGXFSZ")
                                                 if hasattr(_signal, name)])
        except BaseException:
            for fd in [*theirs, *(mine for mine, _mode, _fd in ours)]:
                os.close(fd)
            raise
        for fd in theirs:
            os.close(fd)
        for mine, mode, fd in ours:
            stream = os.fdopen(mine, mode, buffering=bufsize)
            setattr(self, ("stdin", "stdout", "stderr")[fd], stream)

    def poll(self) -> int | None:
        """The exit code (a signal's as its negative), or None while it runs or another thread waits for it."""
        if self._popen is not None:
            return self._popen.poll()  # type: ignore[no-any-return]
        if self.returncode is None and self._lock.acquire(blocking=False):
            try:
                self._reap(os.WNOHANG)
            finally:
                self._lock.release()
        return self.returncode

    def wait(self) -> int:
        if self._popen is not None:
            return self._popen.wait()  # type: ignore[no-any-return]
        while self.returncode is None:
            with self._lock:
                self._reap(0)
        return self.returncode

    def _reap(self, flags: int) -> None:
        if self.returncode is not None:
            return
        try:
            pid, status = os.waitpid(self.pid, flags)
        except ChildProcessError:  # reaped elsewhere (a SIGCHLD handler set to ignore): its code is lost
            self.returncode = 255
            return
        if pid == self.pid:
            self.returncode = os.waitstatus_to_exitcode(status)

    def send_signal(self, sig: int) -> None:
        if self._popen is not None:
            self._popen.send_signal(sig)
            return
        if self.poll() is None:  # a process reaped is not signalled: its pid may be another's now
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:  # it ended meanwhile
                pass

    def kill(self) -> None:
        self.send_signal(getattr(_signal, "SIGKILL", _signal.SIGTERM))
