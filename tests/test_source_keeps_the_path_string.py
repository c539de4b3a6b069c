"""A Source made from a path keeps the string it was given (no pathlib on a text file's start-up) and shows a Path
when ``.path`` is read, as it always did; a path no file can have is one NotFound, not a traceback."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import boundread
from boundread.contract.source import source_for_path
from boundread.errors import NotFound
from boundread.record import replace


def test_path_is_a_path_file_is_the_string(tmp_path: Path) -> None:
    note = tmp_path / "note.txt"
    note.write_text("hello\n", encoding="utf-8")
    src = source_for_path(str(note))
    assert src.file == str(note)
    assert src.path == note and isinstance(src.path, Path)
    assert replace(src, size=1).file == str(note) and dataclasses.replace(src, size=1).path == note
    assert src == source_for_path(note)  # given a Path or its string: the same Source
    with src.open() as fh:
        assert fh.read() == b"hello\n"


def test_a_nul_byte_in_a_path_is_not_found() -> None:
    with pytest.raises(NotFound, match="cannot open"):
        boundread.info("a\x00b.txt")
