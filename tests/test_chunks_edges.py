"""``chunks`` at its edges: the end of a plain-text file that falls on a block boundary, a manifest that is
damaged or hostile (wrong types, names that are not chunk files, a FIFO, offsets out of range), and the chunk
files a rerun may delete."""

from __future__ import annotations

import tempfile
from pathlib import Path
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from boundread.chunks import textread
from boundread.chunks.manifest import Params
from boundread.chunks.plan import chunk
from tests.test_chunks import own_text, reference

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
