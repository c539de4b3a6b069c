"""Ctrl-C during an extraction keeps what was read: the partial text is written, marked truncated
("interrupted"), the summary says so and where to go on, and the exit code is 130 (128 + SIGINT), as shells
report an interrupted command. SIGINT is sent to a real process reading a big generated log, once its
progress bar shows that it is reading."""

from __future__ import annotations

import json
import os
import select
import signal
from pathlib import Path

import pytest

from tests import terminal

# FATAL, with no literal for the byte search to find at memchr speed: each line is matched in Python, so the
# grep of 250 MB is still running when the progress bar shows and Ctrl-C comes
FATAL = "[EF][AB][ST][AB][LM]"
LINE = b"2026-11-29T08:00:00Z INFO worker-1 request served in 12 ms upstream=backend-3 bytes=12345\n"


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """About 250 MB; one FATAL line in every 10,000 (a grep finds them all along the file)."""
    path = tmp_path_factory.mktemp("interrupt") / "huge.log"
    with path.open("wb") as fh:
        for n in range(280):
            fh.write(LINE * 9_999 + f"2026-11-29T08:00:00Z FATAL disk {n} full\n".encode())
    return path


def _interrupted(args: list[str], tmp_path: Path) -> tuple[int, str, str]:
    """Run, press Ctrl-C once the progress bar shows; exit code, stdout, the terminal's text (stderr)."""
    # the Python scan: rg reads 250 MB before the bar shows (its Ctrl-C: tests/test_grep_engine_stops.py)
    process, screen_fd = terminal.spawn(args, columns=100, env={"BOUNDREAD_OUT_DIR": str(tmp_path / "out"),
                                                                "BOUNDREAD_GREP_ENGINE": "python"},
                                        stdout_tty=False, cwd=tmp_path)
    seen = b""
    while b"%" not in seen and process.poll() is None:  # the bar: it is reading
        ready, _, _ = select.select([screen_fd], [], [], 30)
        if not ready:
            break
        try:
            seen += os.read(screen_fd, 65536)
        except OSError:
            break
    process.send_signal(signal.SIGINT)  # what Ctrl-C sends
    screen = seen.decode(errors="replace") + terminal.read_all(screen_fd)
    code = process.wait(timeout=60)
    assert process.stdout is not None
    return code, process.stdout.read().decode(), terminal.plain(screen)


def test_ctrl_c_keeps_the_matches_so_far_and_exits_130(log: Path, tmp_path: Path) -> None:
    code, stdout, screen = _interrupted(["extract", str(log), "--grep", FATAL, "--max-matches", "100000",
                                         "--json"], tmp_path)
    assert code == 130, screen
    data = json.loads(stdout)
    assert data["truncated"] is True and data["truncated_reasons"] == ["interrupted"]
    kept = Path(data["output"]).read_text(encoding="utf-8").splitlines()
    assert 0 < len(kept) < 280 and all("FATAL" in line for line in kept)
    assert kept[0].endswith("FATAL disk 0 full")
    assert data["next"] and f"--grep '{FATAL}' --lines " in data["next"][0]  # goes on from where it stopped


def test_the_summary_says_it_was_interrupted(log: Path, tmp_path: Path) -> None:
    code, stdout, _ = _interrupted(["extract", str(log), "--grep", FATAL, "--max-matches", "100000"], tmp_path)
    assert code == 130
    assert "truncated: interrupted" in stdout and "interrupted (Ctrl-C): kept what was read" in stdout
    assert "Traceback" not in stdout
