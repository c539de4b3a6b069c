"""``chunks`` at its edges: the end of a plain-text file that falls on a block boundary, a manifest that is
damaged or hostile (wrong types, names that are not chunk files, a FIFO, offsets out of range), and the chunk
files a rerun may delete."""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
import threading
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boundread import formats
from boundread.chunks import manifest as mf
from boundread.chunks import textread
from boundread.chunks.manifest import Params
from boundread.chunks.plan import chunk
from boundread.errors import Corrupt
from tests.helpers import run
from tests.test_chunks import log_file, own_text, reference

PIECES = [b"a", b"b", b"\r", b"\n", b"\r\n", b"\xc3\xa9", b"\xe2\x82", b"\xff", b"xxxxxxx", b"\xe2\x84\xaa"]


def test_an_incomplete_character_at_the_end_of_a_full_last_block_is_kept(tmp_path: Path) -> None:
    # The reviewer's file: exactly 1 MiB (one block), ending in the first two bytes of a 3-byte character.
    path = tmp_path / "mib.txt"
    path.write_bytes(b"a" * (textread.BLOCK - 2) + b"\xe2\x82")
    result = chunk(path, Params(tokens=100_000), tmp_path / "c")
    assert own_text(result) == reference(path)
    assert own_text(result).endswith("a\ufffd")


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(data=st.lists(st.sampled_from(PIECES), min_size=1, max_size=80).map(b"".join), bom=st.booleans(),
       block=st.sampled_from([2, 3, 5, 8]), tokens=st.sampled_from([3, 50]), overlap=st.sampled_from([0, 1]),
       max_lines=st.sampled_from([None, 2, 5]), max_chunks=st.sampled_from([1, 3, 1000]))
def test_chunks_of_plain_text_read_in_small_blocks_cover_what_extract_gives(
    data: bytes, bom: bool, block: int, tokens: int, overlap: int, max_lines: int | None, max_chunks: int,
) -> None:
    with tempfile.TemporaryDirectory() as tmp, mock.patch.object(textread, "BLOCK", block):
        path, folder = Path(tmp) / "t.txt", Path(tmp) / "c"
        path.write_bytes(b"\xef\xbb\xbf" * bom + data)
        params = Params(tokens=tokens, overlap=overlap, max_lines=max_lines)
        result = chunk(path, params, folder, max_chunks=max_chunks)
        while not result.complete and len(result.chunks) < 500:
            result = chunk(path, params, folder, start=len(result.chunks) + 1, max_chunks=max_chunks)
        assert result.complete and own_text(result) == reference(path)


# ---- a damaged or hostile manifest: "no usable manifest", said, and the source chunked again ----------------

def _written(tmp_path: Path, max_chunks: int = 200) -> tuple[Path, Path, dict[str, Any]]:
    """A log chunked into ``tmp_path/c`` (several chunks), and its manifest as JSON."""
    path = log_file(tmp_path, 400)
    folder = tmp_path / "c"
    chunk(path, Params(tokens=800), folder, max_chunks=max_chunks)
    return path, folder, json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


def _rewrite(folder: Path, data: dict[str, Any]) -> None:
    (folder / "manifest.json").write_text(json.dumps(data), encoding="utf-8")


def _bounded(work: Callable[[], Any], seconds: float = 30) -> Any:
    """``work()``, failing (not hanging) when it blocks: a FIFO opened for reading waits for a writer."""
    box: list[Any] = []

    def call() -> None:
        try:
            box.append(work())
        except Exception as exc:  # raised again below, in the test's thread
            box.append(exc)

    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "blocked"
    if isinstance(box[0], Exception):
        raise box[0]
    return box[0]


@pytest.mark.parametrize(("field", "value", "said"), [
    ("file", None, "chunks[1].file is null, not a string"),
    ("file", "fifo", "chunks[1].file 'fifo' is not a chunk file name"),
    ("file", "../outside.txt", "is not a chunk file name"),
    ("chars", "12", 'chunks[1].chars is "12", not a whole number'),
    ("bytes", True, "chunks[1].bytes is true, not a whole number"),
    ("index", 7, "chunks[1].index is 7, not from 2 to 2"),
    ("lines", [1], "chunks[1].lines is not two line numbers"),
])
def test_a_chunk_entry_of_the_wrong_type_means_no_usable_manifest(tmp_path: Path, field: str, value: Any,
                                                                   said: str) -> None:
    path, folder, data = _written(tmp_path)
    os.mkfifo(folder / "fifo")
    data["chunks"][1][field] = value
    _rewrite(folder, data)
    result = _bounded(lambda: chunk(path, Params(tokens=800), folder))
    assert result.status == "rewritten" and said in result.notes[0] and "chunked it again" in result.notes[0]
    assert own_text(result) == reference(path)
    done = _bounded(lambda: run("chunks", str(path), "--tokens", "800", "-o", str(folder)))
    assert done.exit_code == 0 and "reused" in done.stdout  # the rewritten manifest is a good one


@pytest.mark.parametrize("damage", ["[1, 2]", "{", '{"schema": 1, "command": "chunks"}', "\udcff"])
def test_a_manifest_that_is_not_json_or_not_whole_is_not_used(tmp_path: Path, damage: str) -> None:
    path, folder, _ = _written(tmp_path)
    (folder / "manifest.json").write_bytes(damage.encode("utf-8", "surrogateescape"))
    result = chunk(path, Params(tokens=800), folder)
    assert result.status == "rewritten" and result.notes[0].startswith("the manifest there was not usable (")
    assert own_text(result) == reference(path)


def test_a_fifo_for_a_chunk_file_or_the_manifest_does_not_block(tmp_path: Path) -> None:
    path, folder, _ = _written(tmp_path)
    (folder / "chunk-00002.txt").unlink()
    os.mkfifo(folder / "chunk-00002.txt")  # the right name, but no regular file: not read, and not written over
    done = _bounded(lambda: run("chunks", str(path), "--tokens", "800", "-o", str(folder)))
    assert done.exit_code == 2 and done.stdout == "" and len(done.stderr.splitlines()) == 1
    assert done.stderr.startswith("boundread: error: -o ") and "chunk-00002.txt is not a regular file" in done.stderr
    (folder / "chunk-00002.txt").unlink()
    (folder / "manifest.json").unlink()
    os.mkfifo(folder / "manifest.json")
    with pytest.raises(mf.Unusable, match="it is not a regular file"):
        _bounded(lambda: mf.load(folder))
    done = _bounded(lambda: run("chunks", str(path), "--tokens", "800", "-o", str(folder)))
    assert done.exit_code == 2 and "manifest.json is not a regular file" in done.stderr


def test_a_chunk_file_that_is_a_link_is_not_taken_as_written(tmp_path: Path) -> None:
    path, folder, _ = _written(tmp_path)
    elsewhere = tmp_path / "copy.txt"
    elsewhere.write_bytes((folder / "chunk-00001.txt").read_bytes())
    (folder / "chunk-00001.txt").unlink()
    (folder / "chunk-00001.txt").symlink_to(elsewhere)  # same bytes, but not a file of this folder
    result = chunk(path, Params(tokens=800), folder)
    assert result.status == "rewritten" and not (folder / "chunk-00001.txt").is_symlink()
    assert elsewhere.exists()


@pytest.mark.parametrize(("resume", "said"), [
    ({"byte": -5}, "resume.byte is -5, not from 0 to "),
    ({"byte": 10**12}, "resume.byte is 1,000,000,000,000, not from 0 to "),
    ({"chunk": "4"}, 'resume.chunk is "4", not a whole number'),
    ({"lines": None}, "resume.lines is null"),
])
def test_a_resume_out_of_range_stops_from_with_one_line(tmp_path: Path, resume: dict[str, Any], said: str) -> None:
    path, folder, data = _written(tmp_path, max_chunks=3)
    assert data["resume"]["chunk"] == 4
    data["resume"].update(resume)
    _rewrite(folder, data)
    done = run("chunks", str(path), "--tokens", "800", "-o", str(folder), "--from", "4")
    assert done.exit_code == 2 and done.stdout == ""
    assert done.stderr.startswith("boundread: error: --from 4: the manifest there was not usable (")
    assert said in done.stderr and done.stderr.rstrip().endswith("run without --from to chunk it again")
    assert len(done.stderr.splitlines()) == 1


def test_from_past_the_end_of_a_complete_manifest_checks_the_chunk_files(tmp_path: Path) -> None:
    path, folder, data = _written(tmp_path)
    last = len(data["chunks"])
    whole_run = chunk(path, Params(tokens=800), folder, start=last + 1)
    assert whole_run.status == "reused" and whole_run.notes == ("every chunk is written already",)
    (folder / "chunk-00002.txt").write_text("edited\n", encoding="utf-8")
    done = run("chunks", str(path), "--tokens", "800", "-o", str(folder), "--from", str(last + 1))
    assert done.exit_code == 2 and done.stdout == ""
    assert done.stderr == (f"boundread: error: --from {last + 1}: chunk files were missing or edited - run without "
                           "--from to chunk it again\n")


def test_a_rerun_deletes_only_chunk_files(tmp_path: Path) -> None:
    _, folder, _ = _written(tmp_path)
    notes = folder / "notes.txt"
    notes.write_text("mine\n", encoding="utf-8")
    old = mf.load(folder)
    assert old is not None and len(old.chunks) > 2
    listed = (*old.chunks[:2], dataclasses.replace(old.chunks[2], file="notes.txt"))
    mf.remove_stale(folder, 1, dataclasses.replace(old, chunks=listed))
    assert notes.read_text(encoding="utf-8") == "mine\n"  # listed, but not a chunk file name: kept
    assert not (folder / "chunk-00002.txt").exists() and (folder / "chunk-00001.txt").exists()


def test_a_member_that_fails_midway_keeps_its_last_line_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "bundle.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("a.txt", "one\ntwo\n")
        zf.writestr("b.txt", "three\n")
    real = formats.handler_for

    class Failing:
        @staticmethod
        def extract(member: Any, req: Any, sink: Any) -> Any:
            if not member.name.endswith(":a.txt"):
                return real(member.kind).extract(member, req, sink)
            sink.write("one\ntw")  # the feeder holds "tw" until the line ends
            raise Corrupt("a.txt is damaged after its first line", "repair it")

    with mock.patch.object(formats, "handler_for", lambda kind: Failing):
        result = chunk(path, Params(tokens=1000), tmp_path / "c")
    assert own_text(result) == "--- member a.txt ---\none\ntw--- member b.txt ---\nthree\n"
    assert "member a.txt cut short: a.txt is damaged after its first line" in result.warnings
