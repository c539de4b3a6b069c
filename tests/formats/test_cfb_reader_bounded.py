"""The compound-file reader (formats/_cfb) gives back what the writer put in - streams in the mini stream and in
sectors, storages nested - reads a stream only up to the bytes asked for, and refuses a directory with more
entries than it walks; compressed RTF of any bytes never raises past one Corrupt and never exceeds its bound."""

from __future__ import annotations

import io
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boundread.errors import Corrupt, Refused
from boundread.formats._cfb import reader, rtf
from boundread.formats._cfb.writer import Tree, write


def _walk(cfb: reader.Compound, node: reader.Node) -> Tree:
    return {child.name: _walk(cfb, child) if child.is_storage else cfb.read(child) for child in cfb.children(node)}


def test_what_is_written_reads_back() -> None:
    tree: Tree = {"small": b"s" * 63, "at-cutoff": b"c" * 4096, "under": b"u" * 4095, "big": bytes(range(256)) * 40,
                  "empty": b"", "Store": {"inner": b"INNER", "Deeper": {"z": b"z" * 700}},
                  **{f"n{i:03}": bytes([i]) * (i * 7) for i in range(200)}}
    cfb = reader.Compound(io.BytesIO(write(tree)), "t.cfb")
    assert _walk(cfb, cfb.root) == tree


def test_a_stream_is_read_only_as_far_as_asked() -> None:
    cfb = reader.Compound(io.BytesIO(write({"big": b"x" * 100_000, "small": b"y" * 3000})), "t.cfb")
    nodes = {n.name: n for n in cfb.children(cfb.root)}
    assert cfb.read(nodes["big"], 10) == b"x" * 10 and cfb.read(nodes["small"], 100) == b"y" * 100


def test_not_a_compound_file_is_corrupt() -> None:
    with pytest.raises(Corrupt, match="not an OLE compound file"):
        reader.Compound(io.BytesIO(b"PK\x03\x04" + bytes(600)), "x.msg")


def test_more_entries_than_it_walks_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "MAX_ENTRIES", 50)
    cfb = reader.Compound(io.BytesIO(write({f"s{i}": b"" for i in range(60)})), "t.cfb")
    with pytest.raises(Refused, match="more than 50 directory entries"):
        cfb.children(cfb.root)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000), st.integers(0, 5000))
def test_rtf_bytes_never_raise_and_stay_bounded(data: bytes, limit: int) -> None:
    """Any bytes after a compressed-RTF header decompress to at most ``limit`` bytes or one Corrupt; any RTF
    strips to text (a lone surrogate from ``\\uN`` replaced, so the text can be written as UTF-8)."""
    for head in (struct.pack("<III", len(data) + 12, 1 << 30, 0x75465A4C) + bytes(4), b""):
        try:
            out, _ = rtf.decompress(head + data, limit)
        except Corrupt:
            continue
        assert len(out) <= limit
        rtf.to_text(out).encode("utf-8")
    rtf.to_text(b"{\\rtf1 " + data).encode("utf-8")
