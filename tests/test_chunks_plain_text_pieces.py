"""Plain text is handed to the splitter in pieces of whole lines (chunks/textread.py) and the chunk files are
written by chunks/files.py: the chunks are the same whatever the piece size, --from goes on exactly, and a chunk
file is written as write_atomic writes one (never the input, never through a link, never over a folder)."""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boundread.chunks import textread
from boundread.chunks.files import ChunkFiles
from boundread.chunks.manifest import Manifest, Params
from boundread.chunks.plan import chunk
from boundread.errors import UsageError
from tests.test_chunks import own_text, reference


def _log(path: Path, lines: int, seed: int) -> Path:
    """Lines of varied length (some longer than a piece), non-ASCII letters, LF and CRLF ends."""
    rnd = random.Random(seed)
    ends = ("\r\n", "\n", "\n")
    rows = [f"{i:05d} {'é' if i % 7 == 0 else 'x'}{'y' * rnd.choice([0, 5, 40, 120, 500])}{ends[i % 3]}"
            for i in range(lines)]
    path.write_text("".join(rows), encoding="utf-8", newline="")
    return path


def _signature(result: Manifest) -> list[tuple[str, str, tuple[int, int], int]]:
    return [(c.sha256, c.span, c.lines, c.repeated_chars) for c in result.chunks]


@settings(max_examples=12, deadline=None, derandomize=True, database=None)
@given(piece=st.sampled_from([1, 7, 300, 4096]), block=st.sampled_from([64, 997, 1 << 20]),
       tokens=st.sampled_from([100, 400]), overlap=st.sampled_from([0, 2]), max_lines=st.sampled_from([None, 9]),
       seed=st.integers(min_value=0, max_value=5))
def test_the_chunks_do_not_depend_on_the_piece_or_block_size(piece: int, block: int, tokens: int, overlap: int,
                                                            max_lines: int | None, seed: int) -> None:
    params = Params(tokens=tokens, overlap=overlap, max_lines=max_lines)
    with tempfile.TemporaryDirectory() as tmp:
        path = _log(Path(tmp) / "app.log", 150, seed)
        with mock.patch.object(textread, "PIECE", 1 << 30), mock.patch.object(textread, "BLOCK", 1 << 22):
            whole = chunk(path, params, Path(tmp) / "whole", max_chunks=10_000)  # one piece: the file
        with mock.patch.object(textread, "PIECE", piece), mock.patch.object(textread, "BLOCK", block):
            cut = chunk(path, params, Path(tmp) / "cut", max_chunks=10_000)
            stepped = chunk(path, params, Path(tmp) / "step", max_chunks=3)
            while not stepped.complete:  # --from: from the byte where the next chunk starts, or replayed
                stepped = chunk(path, params, Path(tmp) / "step", start=len(stepped.chunks) + 1, max_chunks=3)
        assert whole.complete and cut.complete
        assert _signature(cut) == _signature(whole) == _signature(stepped)
        assert own_text(cut) == reference(path)


def test_a_long_log_is_cut_into_small_pieces(tmp_path: Path) -> None:
    """The splitter never holds a whole block as one piece (each cut would count and copy the block)."""
    path = _log(tmp_path / "big.log", 20_000, 3)
    sizes: list[int] = []
    real = textread.ChunkSink.write_piece

    def spy(self: textread.ChunkSink, piece: textread.Piece) -> bool:
        sizes.append(len(piece.text))
        return real(self, piece)

    with mock.patch.object(textread.ChunkSink, "write_piece", spy):
        result = chunk(path, Params(tokens=2000), tmp_path / "c", max_chunks=10_000)
    assert result.complete and own_text(result) == reference(path)
    assert max(sizes) <= 2000 * 4 // 4 + 1000  # a quarter of a chunk, or one line longer than that


# ---- the chunk files ---------------------------------------------------------------------------------------

def test_a_chunk_file_is_written_with_the_usual_mode_and_replaces_a_link_not_its_target(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    folder.mkdir()
    target = tmp_path / "target.txt"
    target.write_text("untouched", encoding="utf-8")
    (folder / "chunk-00001.txt").symlink_to(target)
    old = os.umask(0o022)
    try:
        files = ChunkFiles(folder, tmp_path / "input.txt")
        files.write("chunk-00001.txt", "é one\n")
        files.write("chunk-00002.txt", "two\n")
    finally:
        os.umask(old)
    assert target.read_text(encoding="utf-8") == "untouched"
    assert not (folder / "chunk-00001.txt").is_symlink()
    assert (folder / "chunk-00001.txt").read_text(encoding="utf-8") == "é one\n"
    assert (folder / "chunk-00002.txt").stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in folder.iterdir()) == ["chunk-00001.txt", "chunk-00002.txt"]  # no temporary left


def test_the_input_a_folder_or_a_fifo_in_a_chunk_s_place_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    folder.mkdir()
    source = folder / "chunk-00001.txt"
    source.write_text("the input\n", encoding="utf-8")
    files = ChunkFiles(folder, source)
    with pytest.raises(UsageError, match="is the input file"):
        files.write("chunk-00001.txt", "x")
    os.link(source, folder / "chunk-00002.txt")  # a hard link to the input under another name
    with pytest.raises(UsageError, match="is the input file"):
        files.write("chunk-00002.txt", "x")
    (folder / "chunk-00003.txt").mkdir()
    with pytest.raises(UsageError, match="is a folder"):
        files.write("chunk-00003.txt", "x")
    os.mkfifo(folder / "chunk-00004.txt")
    with pytest.raises(UsageError, match="not a regular file"):
        files.write("chunk-00004.txt", "x")
    assert source.read_text(encoding="utf-8") == "the input\n"
