"""The progress bar: readers count what they have read (bytes of a text file, pages of a PDF), the view
draws percent, rate and time left on stderr, and only when a person watches stderr (a terminal,
NO_PROGRESS unset). Checked with a fake console and under a pseudo-terminal; no timing is asserted."""

from __future__ import annotations

import contextlib
import io
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from boundread.contract.model import Request
from boundread.contract.sink import Sink
from boundread.core import engine
from boundread.core.demo import write_samples
from boundread.limits import Limits
from boundread.ranges import parse_spans
from boundread.render import views
from tests import terminal


@pytest.fixture(autouse=True)
def _a_real_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm")  # rich draws no live display on a dumb terminal


LINE = b"2026-11-29T08:00:00Z INFO worker-1 request served in 12 ms upstream=backend-3 bytes=12345\n"


def big_log(path: Path, megabytes: int) -> Path:
    """A log of about ``megabytes`` MB, written in a second or two."""
    chunk = LINE * 10_000
    with path.open("wb") as fh:
        for _ in range(megabytes * 1_000_000 // len(chunk)):
            fh.write(chunk)
    return path


def _drawn(sink: Sink, words: str) -> str:
    """What the view draws for this sink once ``words`` shows (it redraws every 0.1 s)."""
    screen = io.StringIO()
    out = Console(file=screen, force_terminal=True, force_interactive=True, width=100, color_system=None)
    with views.progress(sink, delay=0, out=out):
        deadline = time.monotonic() + 20
        while words not in screen.getvalue() and time.monotonic() < deadline:
            time.sleep(0.02)
    return screen.getvalue()


def test_the_bar_shows_percent_of_the_bytes_and_what_was_found() -> None:
    sink = Sink(Limits())
    sink.progress.start(2_000_000, "bytes")
    sink.progress.done = 500_000
    sink.write("a line\n")
    assert "7 chars" in _drawn(sink, "25%")


def test_pages_count_in_pages() -> None:
    import re

    sink = Sink(Limits(), grep=re.compile("x"))
    sink.progress.start(8, "pages")
    sink.progress.advance(6)
    screen = _drawn(sink, "75%")
    assert "0 matches" in screen


def test_rate_column_words() -> None:
    from rich.progress import Progress

    bar = Progress(console=Console(file=io.StringIO()))
    task_id = bar.add_task("x", total=10, unit="pages")
    task = bar.tasks[task_id]
    assert str(views.RateColumn().render(task)) == ""  # no speed yet
    task.finished_speed = 2.5
    assert str(views.RateColumn().render(task)) == "2.5 pages/s"
    task.fields["unit"] = "bytes"
    task.finished_speed = 12_300_000
    assert str(views.RateColumn().render(task)) == "12.3 MB/s"


@contextlib.contextmanager
def _keep(sinks: list[Sink], sink: Sink) -> Iterator[None]:
    sinks.append(sink)
    yield


def test_readers_count_what_they_read(tmp_path: Path) -> None:
    sinks: list[Sink] = []
    report = write_samples(tmp_path / "demo")["report.pdf"]
    engine.extract(report, Request(pages=parse_spans("2-5,11-40")), watch=lambda sink: _keep(sinks, sink))
    assert (sinks[-1].progress.unit, sinks[-1].progress.total, sinks[-1].progress.done) == ("pages", 6, 6)
    log = big_log(tmp_path / "server.log", 2)
    engine.extract(log, Request(), engine.Filters(grep="NOPE"), watch=lambda sink: _keep(sinks, sink))
    size = log.stat().st_size
    assert (sinks[-1].progress.unit, sinks[-1].progress.total, sinks[-1].progress.done) == ("bytes", size, size)


@pytest.fixture(scope="module")
def huge(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return big_log(tmp_path_factory.mktemp("huge") / "huge.log", 250)


def test_a_grep_of_a_big_log_shows_a_bar_on_the_terminal(huge: Path, tmp_path: Path) -> None:
    # a pattern without a literal: every line is matched in Python, so the bar has time to show (the byte
    # search finds a literal such as "NOPE" in 250 MB before the bar's half-second delay)
    # the Python scan: rg reads 250 MB before the bar's half-second delay (its bar: test_rg_s_read_so_far_is_known)
    process, screen_fd = terminal.spawn(["extract", str(huge), "--grep", r"\d{7}"], columns=100,
                                        env={"BOUNDREAD_OUT_DIR": str(tmp_path), "BOUNDREAD_GREP_ENGINE": "python"},
                                        stdout_tty=False, cwd=tmp_path)
    screen = terminal.plain(terminal.read_all(screen_fd))
    assert process.wait(timeout=120) == 0
    assert process.stdout is not None and "0 matching lines of" in process.stdout.read().decode()
    assert "reading" in screen and "%" in screen and "MB/s" in screen and "0 matches" in screen, screen[-500:]


def test_no_progress_turns_it_off(huge: Path, tmp_path: Path) -> None:
    process, screen_fd = terminal.spawn(["extract", str(huge), "--grep", "NOPE"], columns=100,
                                        env={"BOUNDREAD_OUT_DIR": str(tmp_path), "NO_PROGRESS": "1"},
                                        stdout_tty=False, cwd=tmp_path)
    screen = terminal.read_all(screen_fd)
    assert process.wait(timeout=120) == 0 and screen == ""


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="no /proc/PID/io: the bar of a grep by rg waits")
def test_rg_s_read_so_far_is_known(huge: Path) -> None:
    """The bar of a grep by rg moves by what rg has read (/proc/PID/io): the count grows as a process reads."""
    from boundread.formats.text import rgengine

    before = rgengine.bytes_read(os.getpid())
    with huge.open("rb") as fh:
        fh.read(8 << 20)
    after = rgengine.bytes_read(os.getpid())
    assert before is not None and after is not None and after - before >= 8 << 20
    assert rgengine.bytes_read(2**22 + 12345) is None  # no such process: unknown, never an error
