"""rg stops when the Sink says stop: the deadline, an interrupt from another thread (the MCP server, Ctrl-C's
handler), max matches; and the `next` step resumes where the rg search stopped, as on the Python path.

A FIFO with no writer keeps rg waiting forever on its open(): only the watcher's kill can end the search, so a
return within a second proves the stop reached rg.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from boundread.bytelevel.sniff import Sniffed
from boundread.contract.model import Source
from boundread.contract.sink import Sink
from boundread.formats.text import rgengine
from boundread.limits import Deadline, Limits
from tests.helpers import needs_rg, run


@pytest.fixture(autouse=True)
def _needs_rg() -> None:
    needs_rg()


def _source(path: Path, size: int) -> Source:
    return Source(name=str(path), sniffed=Sniffed("text", "text/plain", encoding="utf-8"), size=size, path=path)


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    path = tmp_path / "never.log"
    os.mkfifo(path)
    return path


def test_the_deadline_kills_rg_and_says_timeout(fifo: Path) -> None:
    sink = Sink(Limits(timeout=0.3), Deadline(0.3), grep=re.compile("ERROR"))
    began = time.monotonic()
    assert rgengine.scan(_source(fifo, 0), sink, "utf-8", "utf-8")
    assert time.monotonic() - began < 3
    assert sink.timed_out
    assert sink.reasons == ["timeout after 0.3 s"]


def test_an_interrupt_from_another_thread_kills_rg(fifo: Path) -> None:
    sink = Sink(Limits(timeout=None), grep=re.compile("ERROR"))
    threading.Timer(0.3, sink.interrupt).start()
    began = time.monotonic()
    assert rgengine.scan(_source(fifo, 0), sink, "utf-8", "utf-8")
    assert time.monotonic() - began < 3
    assert sink.interrupted
    assert sink.reasons == ["interrupted"]


def test_max_matches_stops_and_next_resumes_after_the_context(tmp_path: Path) -> None:
    path = tmp_path / "app.log"
    path.write_text("".join(f"{n} {'ERROR' if n % 10 == 0 else 'INFO'} x\n" for n in range(1, 101)))
    first = run("extract", str(path), "--grep", "ERROR", "--max-matches", "2", "--context", "1", "--stdout")
    assert first.exit_code == 0
    assert first.stdout.splitlines() == ["9-9 INFO x", "10:10 ERROR x", "11-11 INFO x", "--", "19-19 INFO x",
                                         "20:20 ERROR x", "21-21 INFO x"]
    assert "2 matching lines of 22 read" in first.stderr
    assert "--lines 22-" in first.stderr
    second = run("extract", str(path), "--grep", "ERROR", "--lines", "22-", "--max-matches", "1", "--stdout")
    assert second.stdout.splitlines() == ["30:30 ERROR x"]


def test_the_whole_file_searched_counts_every_line(tmp_path: Path) -> None:
    path = tmp_path / "app.log"
    path.write_bytes(b"a\r\nb ERROR\r\nc\r\nd")
    result = run("extract", str(path), "--grep", "ERROR$", "--stdout")
    assert result.stdout == "2:b ERROR\n"
    assert "1 matching line of 4 read" in result.stderr


def test_ctrl_c_ends_every_rg_it_started(fifo: Path) -> None:
    """Ctrl-C as a terminal sends it reaches boundread and the rg it reads from; the two helper rg processes (the
    line count, the lone CR), left waiting on the FIFO, must be ended by boundread itself."""
    started: list[subprocess.Popen[bytes]] = []
    real = rgengine.spawn

    def spy(argv: list[str], **kw: Any) -> subprocess.Popen[bytes]:
        started.append(real(argv, **kw))
        return started[-1]

    def ctrl_c() -> None:
        started[0].send_signal(signal.SIGINT)
        os.kill(os.getpid(), signal.SIGINT)

    sink = Sink(Limits(timeout=None), grep=re.compile("ERROR"))
    threading.Timer(0.3, ctrl_c).start()
    with mock.patch.object(rgengine, "spawn", spy), pytest.raises(KeyboardInterrupt):
        rgengine.scan(_source(fifo, 0), sink, "utf-8", "utf-8")
        time.sleep(5)  # the interrupt comes before: rg waits on the FIFO until then
    assert len(started) == 3
    assert all(proc.poll() is not None for proc in started)


def test_a_grep_stopped_by_its_first_matches_runs_no_pass_beside_it(tmp_path: Path) -> None:
    """The line count and the lone-CR check start only for a search still going after HELPERS_AFTER (or done):
    the first N matches of a big log need neither."""
    path = tmp_path / "app.log"
    path.write_bytes(b"".join(b"%d ERROR x\n" % n for n in range(200_000)))
    started: list[list[str]] = []
    real = rgengine.spawn

    def spy(argv: list[str], **kw: Any) -> subprocess.Popen[bytes]:
        started.append(argv)
        return real(argv, **kw)

    sink = Sink(Limits(max_matches=5, timeout=None), grep=re.compile("ERROR"))
    with mock.patch.object(rgengine, "spawn", spy), mock.patch.object(rgengine, "HELPERS_AFTER", 30.0):
        assert rgengine.scan(_source(path, path.stat().st_size), sink, "utf-8", "utf-8")
    assert sink.matches == 5
    assert len(started) == 1
