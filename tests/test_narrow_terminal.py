"""A 40-column terminal (issue 23 item 5): list-zip keeps names readable (the time and ratio columns make room
before a name is cut to a few letters) and the progress line fits on one line instead of wrapping."""

from __future__ import annotations

import io
import time
import zipfile
from pathlib import Path

import pytest
from rich.console import Console

from boundread.contract.sink import Sink
from boundread.limits import Limits
from boundread.render import views
from tests import terminal


def test_list_zip_names_are_whole_at_40_columns(tmp_path: Path) -> None:
    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("catalogue/report.pdf", b"x" * 5000)
        zf.writestr("catalogue/README.txt", b"y" * 40)
    code, screen = terminal.run(["list-zip", str(archive)], columns=40)
    assert code == 0, screen
    lines = screen.splitlines()
    assert all(len(line) <= 40 for line in lines), screen
    assert any(line.rstrip().endswith("catalogue/report.pdf") for line in lines), screen
    assert any(line.rstrip().endswith("catalogue/README.txt") for line in lines), screen


@pytest.mark.parametrize("width", [40, 60, 100])
def test_the_progress_line_fits_the_terminal(width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm")  # rich draws no live display on a dumb terminal
    sink = Sink(Limits())
    sink.progress.start(2_000_000, "bytes")
    sink.progress.done = 500_000
    screen = io.StringIO()
    out = Console(file=screen, force_terminal=True, force_interactive=True, width=width, color_system=None)
    with views.progress(sink, delay=0, out=out):
        deadline = time.monotonic() + 20
        while "25%" not in screen.getvalue() and time.monotonic() < deadline:
            time.sleep(0.02)
    drawn = [terminal.plain(line) for line in screen.getvalue().replace("\r", "\n").split("\n")]
    bars = [line for line in drawn if "reading" in line]
    assert any("25%" in line for line in bars), drawn  # the percent on the bar's line, not wrapped below it
    assert all(len(line.rstrip()) <= width for line in bars), bars
