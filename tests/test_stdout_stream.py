"""``--stdout`` streams (issue 23 item 2): text reaches its reader as it is extracted, not at the end, and a
reader that goes away (``| head -1``) stops the read - no traceback, exit 0 as ``grep | head`` ends, the
summary on stderr saying why it stopped. Seconds are in bench/stdout_stream.py, not here."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boundread.cli.app import app
from boundread.contract import stream as streammod
from boundread.contract.model import Span
from boundread.contract.sink import Sink
from boundread.contract.stream import CLOSED, Stream
from boundread.limits import Limits

BIN = Path(sys.executable).parent / "boundread"
runner = CliRunner()


def test_a_streamed_sink_hands_text_on_and_keeps_none() -> None:
    out = io.StringIO()
    sink = Sink(Limits(), window=Span(2, 3), stream=out)
    sink.write("one\ntwo\nthree\nfour")
    assert out.getvalue() == "two\nthree\n" and sink.text() == ""
    sink.close()
    assert sink.chars == len("two\nthree\n") and not sink.truncated


def test_a_streamed_text_ends_its_last_line_so_the_summary_starts_one() -> None:
    out = io.StringIO()
    sink = Sink(Limits(), stream=out)
    sink.write("no newline at the end")
    sink.close()
    assert out.getvalue() == "no newline at the end\n" and sink.chars == len("no newline at the end")


def test_a_closed_pipe_stops_the_sink_at_the_next_write(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(streammod, "FLUSH_EVERY", 0.0)  # each write flushed, as after a pause
    read_end, write_end = os.pipe()
    out = os.fdopen(write_end, "w")
    sink = Sink(Limits(), grep=re.compile("x"), stream=out)
    sink.write("x first\n")
    os.close(read_end)
    assert not sink.write("y\n" * 10 + "x second\n")
    assert sink.full and CLOSED in sink.reasons
    _close(out)


def test_a_burst_waits_for_the_close_and_the_close_sees_the_reader_gone() -> None:
    read_end, write_end = os.pipe()
    out = os.fdopen(write_end, "w")
    sink = Sink(Limits(), stream=out)
    sink.write("first\n")  # flushed: the first write always is
    assert os.read(read_end, 100) == b"first\n"
    os.close(read_end)
    sink.write("second\n")  # within FLUSH_EVERY of the first: held for the next flush
    sink.close()
    assert CLOSED in sink.reasons
    _close(out)


def test_a_closed_pipe_is_seen_between_sparse_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    """No text is due while the read skips lines that do not match: the pipe itself says the reader left."""
    monkeypatch.setattr(streammod, "FLUSH_EVERY", 0.0)
    read_end, write_end = os.pipe()
    out = os.fdopen(write_end, "w")
    sink = Sink(Limits(), grep=re.compile("x"), stream=out)
    sink.feed_line("x first")
    os.close(read_end)
    sink.skip_lines(1000)
    assert sink.full and CLOSED in sink.reasons and sink.line_no == 1001
    _close(out)


def _close(out: io.TextIOBase) -> None:
    """Close a pipe whose reader has gone (the last flush meets EPIPE)."""
    with contextlib.suppress(BrokenPipeError):
        out.close()


def test_a_stream_to_a_file_is_never_taken_for_a_closed_reader(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(streammod, "FLUSH_EVERY", 0.0)
    with (tmp_path / "out.txt").open("w") as out:
        stream = Stream(out)
        assert stream.write("a\n") and stream.tick() and stream.tick(force=True)


@pytest.fixture
def dense_log(tmp_path: Path) -> Path:
    path = tmp_path / "dense.log"
    path.write_text("".join(f"{n} DEBUG request handled\n" for n in range(1, 400_001)))
    return path


def test_head_1_gets_its_line_and_the_read_stops(dense_log: Path, tmp_path: Path) -> None:
    """Every line matches and nothing bounds the output but the reader: it takes one line and closes."""
    process = subprocess.Popen([str(BIN), "extract", str(dense_log), "--grep", "DEBUG", "--max-matches",
                                "10000000", "--max-chars", "1000000000", "--stdout"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == 0, err
    assert first == b"1:1 DEBUG request handled\n"
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err, err
    assert f"truncated: {CLOSED}" in err, err
    read = int(re.search(r"([\d,]+) matching lines", err).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert read < 400_000, err  # it stopped when the reader left, not at the end


def test_stdout_text_and_summary_are_apart_in_process(dense_log: Path) -> None:
    result = runner.invoke(app, ["extract", str(dense_log), "--head", "3", "--stdout"])
    assert result.exit_code == 0, result.output
    assert result.stdout == "1 DEBUG request handled\n2 DEBUG request handled\n3 DEBUG request handled\n"
    assert "wrote the text to stdout" in result.stderr and "DEBUG" not in result.stderr


def test_json_still_carries_the_text_in_its_one_object(dense_log: Path) -> None:
    result = runner.invoke(app, ["extract", str(dense_log), "--lines", "2-2", "--stdout", "--json"])
    assert result.exit_code == 0, result.output
    assert '"text": "2 DEBUG request handled\\n"' in result.stdout
