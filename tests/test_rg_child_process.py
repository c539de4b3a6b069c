"""rg's process without subprocess (formats/_rg/child.py) keeps what Popen gives a child: its pipes, its exit code
(a signal's as the negative number), SIGPIPE at its default, no descriptor of ours, and no signal to a process
already reaped."""

from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path

import pytest

from boundread.formats._rg.child import DEVNULL, PIPE, Child

pytestmark = pytest.mark.skipif(not hasattr(os, "posix_spawn"), reason="posix_spawn: Popen runs instead")

SH = "/bin/sh"


def test_the_output_and_the_exit_code() -> None:
    child = Child([SH, "-c", "echo out; echo err >&2; exit 3"], stdout=PIPE, stderr=PIPE)
    assert child.stdout is not None and child.stderr is not None
    assert (child.stdout.read(), child.stderr.read()) == (b"out\n", b"err\n")
    assert child.wait() == 3
    assert child.poll() == 3


def test_what_is_written_to_its_stdin_reaches_it() -> None:
    child = Child(["/bin/cat"], stdin=PIPE, stdout=PIPE)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(b"line one\nline two\n")
    child.stdin.close()
    assert child.stdout.read() == b"line one\nline two\n"
    assert child.wait() == 0


def test_a_killed_child_says_the_signal_and_is_not_signalled_once_reaped(monkeypatch: pytest.MonkeyPatch) -> None:
    child = Child([SH, "-c", "sleep 30"])
    assert child.poll() is None
    child.kill()
    assert child.wait() == -signal.SIGKILL
    sent: list[int] = []
    monkeypatch.setattr(os, "kill", lambda pid, sig: sent.append(pid))
    child.kill()
    child.send_signal(signal.SIGTERM)
    assert sent == []  # the pid may be another process's by now


def _mask(line: bytes) -> int:
    return int(line.split()[1], 16)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_the_child_gets_sigpipe_back_at_its_default() -> None:
    """Python ignores SIGPIPE, and an ignored signal stays ignored across exec: rg writing into a closed pipe
    would get EPIPE errors instead of ending as Popen's children do."""
    assert signal.getsignal(signal.SIGPIPE) == signal.SIG_IGN
    child = Child(["/bin/grep", "^SigIgn", "/proc/self/status"], stdout=PIPE)
    assert child.stdout is not None
    ignored = _mask(child.stdout.read())
    assert child.wait() == 0
    assert not ignored & (1 << (signal.SIGPIPE - 1))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/fd")
def test_the_child_holds_no_descriptor_of_ours(tmp_path: Path) -> None:
    held = [os.open(tmp_path, os.O_RDONLY) for _ in range(4)]  # Python opens them non-inheritable
    handed = os.open(tmp_path, os.O_RDONLY)
    os.set_inheritable(handed, True)  # as a harness's pipe may be: Popen's close_fds closes it in the child
    held.append(handed)
    try:
        child = Child([SH, "-c", "ls /proc/$$/fd"], stdout=PIPE)
        assert child.stdout is not None
        fds = {int(name) for name in child.stdout.read().split()}
        assert child.wait() == 0
    finally:
        for fd in held:
            os.close(fd)
    assert fds <= {0, 1, 2, 10}  # 10: the shell's own copy of its script's input (dash)
    assert not fds & set(held)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/fd")
def test_a_program_that_cannot_start_raises_and_leaks_nothing(tmp_path: Path) -> None:
    before = sorted(Path("/proc/self/fd").iterdir())
    with pytest.raises(OSError):
        Child([str(tmp_path / "no such program")], stdout=PIPE, stderr=PIPE)
    assert sorted(Path("/proc/self/fd").iterdir()) == before


def test_poll_from_another_thread_while_one_waits() -> None:
    """The watcher thread polls while the reading thread waits: one reaps, both learn the code."""
    child = Child([SH, "-c", "sleep 0.3; exit 5"], stdout=DEVNULL)
    seen: list[int | None] = []

    def poller() -> None:
        while child.poll() is None:
            threading.Event().wait(0.01)
        seen.append(child.poll())

    thread = threading.Thread(target=poller)
    thread.start()
    assert child.wait() == 5
    thread.join(10)
    assert seen == [5]
