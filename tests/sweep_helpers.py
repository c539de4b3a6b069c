"""Run the installed console script as a child process and measure it: exit code, output, peak RSS.

Used by the hostile-input sweep and the memory tests (imported by test modules; not a fixture file).
A small wrapper process forks the command and reaps it with ``os.wait4``, whose ``ru_maxrss`` is the
peak resident memory of that one command (kilobytes on Linux), not of the test process.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The console script installed next to the interpreter running the tests (.venv/bin/boundread).
SCRIPT = Path(sys.executable).parent / "boundread"

#: Every exit code the documented table allows (1 is never used: that would be a crash).
DOCUMENTED = frozenset({0, 2, 3, 4, 5, 6, 7, 8})

MB = 1024 * 1024


@dataclass(frozen=True)
class Ran:
    argv: tuple[str, ...]
    code: int
    stdout: str
    stderr: str
    peak_rss: int  # bytes
    killed: bool  # the hard timeout fired: the command hung past its own --timeout

    def json(self) -> Any:
        return json.loads(self.stdout)

    def describe(self) -> str:
        return (f"{' '.join(self.argv)}\n  exit {self.code}, peak {self.peak_rss / MB:.1f} MB, killed={self.killed}\n"
                f"  stdout: {self.stdout[:600]!r}\n  stderr: {self.stderr[-1500:]!r}")


# The measuring parent: a small `python -S` that forks, execs the command and reports the child's peak RSS
# (ru_maxrss from os.wait4) into the file named by argv[1]. The test process itself cannot measure: Linux
# counts the memory of the forking process at exec time into the child's ru_maxrss, and the test process is
# big. Exit code: the child's, or 128 + signal.
_WRAPPER = """
import os, sys
pid = os.fork()
if pid == 0:
    try:
        os.execv(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as fh:
    fh.write(str(usage.ru_maxrss))
code = os.waitstatus_to_exitcode(status)
sys.exit(128 - code if code < 0 else code)
"""


def run_measured(
    args: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    hard_timeout: float,
    stdin: bytes | None = None,
    preexec_fn: Callable[[], None] | None = None,
) -> Ran:
    """Run ``boundread ARGS``; kill it after ``hard_timeout`` seconds. Never raises for the child's failure."""
    with tempfile.TemporaryDirectory() as scratch:
        rss_file = Path(scratch) / "maxrss"
        argv = [sys.executable, "-S", "-c", _WRAPPER, str(rss_file), str(SCRIPT), *args]
        proc = subprocess.Popen(
            argv, cwd=cwd, env=dict(env), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            preexec_fn=preexec_fn, start_new_session=True)
        killed = False
        try:
            out, err = proc.communicate(stdin or b"", timeout=hard_timeout)
        except subprocess.TimeoutExpired:
            killed = True
            os.killpg(proc.pid, signal.SIGKILL)  # the wrapper and the command: their own session
            out, err = proc.communicate()
        peak = int(rss_file.read_text() or 0) * 1024 if rss_file.is_file() else 0
    return Ran(argv=tuple(args), code=proc.returncode, stdout=out.decode("utf-8", "replace"),
               stderr=err.decode("utf-8", "replace"), peak_rss=peak, killed=killed)


def child_env(**extra: str) -> dict[str, str]:
    """The test's environment (pinned by conftest's autouse fixture), plus ``extra``."""
    env = dict(os.environ)
    env.update(extra)
    return env
