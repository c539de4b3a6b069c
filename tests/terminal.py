"""Run the installed console script under a pseudo-terminal of a given width (what a person sees)."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

BIN = Path(sys.executable).parent / "boundread"


def spawn(args: list[str], *, columns: int = 80, env: dict[str, str] | None = None,
          cwd: Path | None = None, stdout_tty: bool = True) -> tuple[subprocess.Popen[bytes], int]:
    """Start ``boundread ARGS`` with stderr (and stdout, unless ``stdout_tty`` is False) on a new pty;
    the process and the pty's reading end."""
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    full_env = {name: value for name, value in os.environ.items() if name != "NO_PROGRESS"}
    full_env.update({"COLUMNS": str(columns), "NO_COLOR": "1", "TERM": "xterm", **(env or {})})
    process = subprocess.Popen([str(BIN), *args], stdin=subprocess.DEVNULL,
                               stdout=child if stdout_tty else subprocess.PIPE, stderr=child, env=full_env,
                               cwd=cwd, close_fds=True, start_new_session=True)
    os.close(child)
    return process, main


def read_all(main: int) -> str:
    """Everything the pty shows until the process closes it, with carriage returns and ANSI codes kept."""
    out = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # EIO: the other end closed
            break
        if not chunk:
            break
        out += chunk
    os.close(main)
    return out.decode("utf-8", errors="replace")


def run(args: list[str], *, columns: int = 80, env: dict[str, str] | None = None, cwd: Path | None = None,
        timeout: float = 60) -> tuple[int, str]:
    """Run to the end; the exit code and the screen's text (ANSI codes stripped, lines joined by \\n)."""
    process, main = spawn(args, columns=columns, env=env, cwd=cwd)
    text = read_all(main)
    code = process.wait(timeout=timeout)
    return code, plain(text)


def plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).replace("\r\n", "\n")
