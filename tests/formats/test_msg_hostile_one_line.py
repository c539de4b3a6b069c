"""Hostile Outlook messages end in one line and a distinct exit code, in bounded time: a FAT chain that loops,
a directory beyond the end of the file, a stream that declares more bytes than the file, a directory tree that
loops, 10,000 attachments (listed a page at a time), attached messages nested deeper than the copy goes, and
cut or changed bytes."""

from __future__ import annotations

import struct
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.formats.msg_fixtures import entry_offset, message, patch_u32, sample, save
from tests.helpers import run, run_json

from boundread.errors import ExitCode
from boundread.formats._cfb.writer import Tree, write

SECTOR = 4096  # the writer's sectors


def _one_line(path: Path, code: ExitCode, words: str) -> None:
    result = run("extract", str(path))
    assert result.exit_code == code, result.stderr
    assert words in result.stderr and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_a_fat_chain_that_loops_is_corrupt(tmp_path: Path) -> None:
    data = sample(tmp_path).read_bytes()
    fat_at = (struct.unpack_from("<I", data, 76)[0] + 1) * SECTOR
    directory = struct.unpack_from("<I", data, 48)[0]
    path = tmp_path / "loop.msg"
    path.write_bytes(patch_u32(data, fat_at + 4 * directory, directory))  # the directory's sector follows itself
    _one_line(path, ExitCode.CORRUPT, "loops")


def test_a_directory_past_the_end_is_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "past.msg"
    path.write_bytes(patch_u32(sample(tmp_path).read_bytes(), 48, 1_000_000))
    _one_line(path, ExitCode.CORRUPT, "past the end")


def test_a_stream_that_declares_more_than_the_file_is_corrupt(tmp_path: Path) -> None:
    data = sample(tmp_path).read_bytes()
    at = entry_offset(data, "__substg1.0_1000001F")
    path = tmp_path / "huge.msg"
    path.write_bytes(data[:at + 120] + struct.pack("<Q", 1 << 40) + data[at + 128:])
    _one_line(path, ExitCode.CORRUPT, "declares 1,099,511,627,776 bytes")


def test_a_directory_tree_that_loops_is_corrupt(tmp_path: Path) -> None:
    data = sample(tmp_path).read_bytes()
    at = entry_offset(data, "__substg1.0_0037001F")
    sid = (at - (struct.unpack_from("<I", data, 48)[0] + 1) * SECTOR) // 128
    path = tmp_path / "tree.msg"
    path.write_bytes(patch_u32(data, at + 68, sid))  # its left sibling is itself
    _one_line(path, ExitCode.CORRUPT, "directory tree loops")


def test_ten_thousand_attachments_are_listed_a_page_at_a_time(tmp_path: Path) -> None:
    path = save(tmp_path, message(subject="bomb", body="BODY_B\n",
                                  attachments=[(f"f{n}.txt", b"a%d" % n) for n in range(10_000)]))
    code, data = run_json("list-zip", str(path), "--max-entries", "100")
    assert code == 0 and len(data["entries"]) == 100 and data["total_entries"] == 10_000
    assert data["entries"][99]["name"] == "f99.txt" and any("--entries 101-200" in s for s in data["next"])
    code, data = run_json("extract", str(path), "--stdout")
    assert code == 0 and "9,950 more: boundread list-zip" in data["text"] and "BODY_B" in data["text"]
    assert data["chars"] < 10_000


def test_attached_messages_nested_past_the_copy_depth_are_refused(tmp_path: Path) -> None:
    inner: Tree = message("INNERMOST", header=24)
    for level in range(40):
        inner = message(f"level {level}", attachments=[("inner", inner)], header=24)
    path = tmp_path / "deep.msg"
    path.write_bytes(write(message("outer", attachments=[("inner", inner)])))
    code, data = run_json("list-zip", str(path))
    assert code == 0 and data["entries"][0]["name"] == "inner.msg"
    result = run("extract", str(path), "--member", "inner.msg")
    assert result.exit_code == ExitCode.REFUSED and "nests storages more than 64 deep" in result.stderr
    assert result.stderr.count("\n") == 1


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_cut_or_changed_bytes_never_raise(tmp_path: Path, data: st.DataObject) -> None:
    raw = bytearray(sample(tmp_path).read_bytes())
    del raw[data.draw(st.integers(SECTOR, len(raw))):]
    for _ in range(data.draw(st.integers(0, 4))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    path = tmp_path / "mutated.msg"
    path.write_bytes(bytes(raw))
    for args in (("extract", str(path), "--stdout"), ("list-zip", str(path)),
                 ("extract", str(path), "--member", "notes.txt", "--stdout"),
                 ("extract", str(path), "--member", "Forwarded.msg", "--stdout")):
        result = run(*args)
        assert result.exit_code in (ExitCode.OK, ExitCode.USAGE, ExitCode.UNSUPPORTED, ExitCode.CORRUPT,
                                    ExitCode.REFUSED), result.stderr
        assert "Traceback" not in result.stderr
        if result.exit_code:
            assert result.stderr.count("\n") == 1
