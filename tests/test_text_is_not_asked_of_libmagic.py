"""Bytes that decode as text are text: libmagic (its text checks off) is not asked, so it cannot re-name a note by
its first words, and a text file's read does not load it."""

from __future__ import annotations

from pathlib import Path

import pytest

import boundread
from boundread.bytelevel import sniff
from boundread.core import detect


def test_a_note_that_starts_like_a_database_header_stays_text(tmp_path: Path) -> None:
    note = tmp_path / "notes.txt"
    note.write_text("SQLite format 3 is what the file header says\nsecond line\n", encoding="utf-8")
    about = boundread.info(note)
    assert about.kind == "text" and about.fields["lines"] == 2  # libmagic called it application/vnd.sqlite3


def test_detect_asks_libmagic_only_for_bytes_our_sniff_cannot_name(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    monkeypatch.setattr(detect, "libmagic_mime", lambda path: asked.append(str(path)) or "application/pdf")
    text, empty, junk = tmp_path / "a.log", tmp_path / "empty", tmp_path / "junk.bin"
    text.write_bytes("plain words, ünïcode\n".encode())
    empty.write_bytes(b"")
    junk.write_bytes(bytes(range(256)) * 4)
    assert detect.detect(str(text), sniff.sniff_path(text)).kind == sniff.TEXT
    assert detect.detect(str(empty), sniff.sniff_path(empty)).kind == sniff.TEXT
    assert asked == []
    assert detect.detect(str(junk), sniff.sniff_path(junk)).kind == sniff.PDF  # unknown bytes: libmagic names them
    assert asked == [str(junk)]


@pytest.mark.parametrize("name", ["a.CSV", "a.tar.gz", ".bashrc", "notes.", "d/x.json", "d.d/file", "a..b", "x/.",
                                  "..", "a.b/", " .csv"])
def test_the_suffix_is_pathlibs(name: str) -> None:
    assert detect.suffix(name) == Path(name).suffix.lower()
