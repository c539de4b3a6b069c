"""A text file's whole read says how many lines it has, whether the text is kept or streamed (``--stdout``): the
streamed read keeps no text, and counted a line more ("all 3 lines" of a 2-line file)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import boundread


@pytest.mark.parametrize(("data", "lines"), [("hello world\nline two\n", 2), ("hello world\nline two", 2), ("x", 1),
                                             ("\n\n\n", 3)])
def test_streamed_and_kept_reads_say_the_same_line_count(tmp_path: Path, data: str, lines: int) -> None:
    path = tmp_path / "t.txt"
    path.write_text(data, encoding="utf-8")
    streamed = boundread.extract(path, stdout=True, stream=io.StringIO())
    kept = boundread.extract(path, stdout=True)
    assert streamed.done == kept.done == f"all {lines} lines"
