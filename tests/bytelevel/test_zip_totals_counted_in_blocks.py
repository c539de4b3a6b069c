"""The totals of a long zip listing, counted a block of records at a time (boundread.bytelevel.ziptally), are the
totals and warnings the record-by-record walk gives: hostile records past the page are never lost in a sum."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boundread.bytelevel import ziptally
from boundread.contract.model import Listing, Request
from boundread.contract.source import source_for_bytes
from boundread.errors import BoundreadError
from boundread.formats.archives import handler as archive
from boundread.formats.archives import zipfiles
from boundread.limits import Limits
from tests.bytelevel.zipbuild import Member, build

#: Records a warning applies to, or that the block count must hand to the walk, mixed into plain ones.
HOSTILE = [
    Member(b"../escape.txt", b"x"),
    Member(b"/etc/passwd", b"x"),
    Member(b"C:\\windows\\x.dll", b"x"),
    Member(b"\\\\server\\share.txt", b"x"),
    Member(b"inner.ZIP", b"PK"),
    Member(b"report.docx", b"PK"),
    Member(b"folder.zip/", b""),
    Member(b"locked.txt", b"secret", flags=0x1),
    Member(b"bomb.txt", b"z", size=10_000_000),
    Member(b"????.txt", b"u", unicode=b"../via-unicode.txt"),
    Member("überall.txt".encode(), b"utf8", flags=0x800),
    Member(b"", b"nameless"),
    Member(b"cut\x00name.txt", b"nul"),
    Member(b"sig-PK\x01\x02-in-name.txt", b"s"),
    Member(b"commented.txt", b"c", comment=b"PK\x01\x02 a signature in a comment"),
    Member(b"long-comment.txt", b"c", comment=b"PK\x01\x02" + b"a fake record's fixed part and more " * 3),
    Member("Übersicht.txt".encode("cp437"), b"legacy"),
]


def _summary(lst: Listing) -> tuple[object, ...]:
    return (lst.total_entries, lst.total_size, lst.largest, lst.total_compressed, lst.encrypted_entries,
            lst.truncated, [e.name for e in lst.entries], sorted(lst.warnings))


def _both(data: bytes, limits: Limits, monkeypatch: pytest.MonkeyPatch) -> tuple[Listing, Listing]:
    src = source_for_bytes("t.zip", data)
    fast = archive.listing(src, Request(limits=limits))

    def walk(*args: object, **kw: object) -> ziptally.Tally:
        raise ziptally.Walk("the walk, for comparison")

    with monkeypatch.context() as patch:
        patch.setattr(ziptally, "blocks", walk)
        slow = archive.listing(src, Request(limits=limits))
    return fast, slow


def _plain(count: int) -> list[Member]:
    return [Member(f"dir/{i:05d}.log".encode(), b"y" * (i % 50)) for i in range(count)]


def test_hostile_records_past_the_page_are_counted_as_the_walk_counts_them(monkeypatch: pytest.MonkeyPatch) -> None:
    members = _plain(20)
    for i, hostile in enumerate(HOSTILE):
        members[5 + i * 3:5 + i * 3] = [hostile]
    members += _plain(300)
    monkeypatch.setattr(ziptally, "BLOCK", 700)  # many blocks, records cut at their ends
    monkeypatch.setattr(zipfiles, "WALK_STRETCH", 2)  # a block the walk takes is a short stretch
    fast, slow = _both(build(members), Limits(max_entries=3), monkeypatch)
    assert _summary(fast) == _summary(slow)
    text = " ".join(fast.warnings)
    for said in ("would escape the folder", "nested archive", "encrypted", "possible zip bomb", "no name",
                 "decoded by a guess"):
        assert said in text


def test_plain_blocks_need_no_record_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A directory of plain records is summed without one Record made past the page."""
    made: list[object] = []
    real = ziptally._parse

    def counting(piece: bytes, concat: int) -> object:
        made.append(piece)
        return real(piece, concat)

    monkeypatch.setattr(ziptally, "_parse", counting)
    monkeypatch.setattr(ziptally, "BLOCK", 4096)
    lst = archive.listing(source_for_bytes("p.zip", build(_plain(2000))), Request(limits=Limits(max_entries=5)))
    assert lst.total_entries == 2000 and lst.total_size == sum(i % 50 for i in range(2000))
    assert lst.largest == 49 and lst.truncated and made == []


def test_the_totals_cap_holds_in_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(zipfiles, "TOTALS_CAP", 50)
    monkeypatch.setattr(ziptally, "BLOCK", 1000)
    lst = archive.listing(source_for_bytes("c.zip", build(_plain(500))), Request(limits=Limits(max_entries=10)))
    assert lst.total_entries == 500 and lst.truncated
    assert any("cover the first 60 of 500 entries" in w for w in lst.warnings)


@settings(max_examples=60, deadline=None)
@given(picks=st.lists(st.integers(min_value=-40, max_value=len(HOSTILE) - 1), min_size=1, max_size=120),
       page=st.integers(min_value=1, max_value=8), block=st.integers(min_value=60, max_value=3000))
def test_any_mix_counts_the_same(picks: list[int], page: int, block: int) -> None:
    """Plain and hostile records in any order, any page size and block size: the same listing either way."""
    members = [HOSTILE[p] if p >= 0 else Member(f"p{-p}/f{i}.txt".encode(), b"d" * -p) for i, p in enumerate(picks)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ziptally, "BLOCK", block)
        patch.setattr(zipfiles, "WALK_STRETCH", 3)
        fast, slow = _both(build(members), Limits(max_entries=page), patch)
    assert _summary(fast) == _summary(slow)


@pytest.mark.parametrize("hostile", HOSTILE[:12], ids=lambda m: repr(m.name)[2:14])
def test_each_kind_of_odd_record_alone_in_a_block_that_splits_cleanly(hostile: Member,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """One odd record among plain ones, counted by the blocks (never handed to the walk): the same listing."""
    walked: list[str] = []
    real = ziptally.blocks

    def watching(*args: object, **kw: object) -> ziptally.Tally:
        try:
            return real(*args, **kw)  # type: ignore[arg-type]
        except ziptally.Walk as exc:
            walked.append(str(exc))
            raise

    monkeypatch.setattr(ziptally, "blocks", watching)
    data = build([*_plain(40), hostile, *_plain(40)])
    fast = archive.listing(source_for_bytes("one.zip", data), Request(limits=Limits(max_entries=2)))
    assert walked == []
    monkeypatch.setattr(ziptally, "blocks", real)
    _, slow = _both(data, Limits(max_entries=2), monkeypatch)
    assert _summary(fast) == _summary(slow)
    assert fast.warnings or hostile.name.endswith(b"/") or hostile.flags & 0x800


def test_corpus_zips_count_the_same(corpus_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every zip-based file of the real-world corpus, listed one entry a page: the blocks count what the walk
    counts, or fail as the walk fails."""
    def outcome(data: bytes, walk: bool) -> object:
        with monkeypatch.context() as patch:
            if walk:
                patch.setattr(ziptally, "blocks", _always_walk)
            try:
                return _summary(archive.listing(source_for_bytes("t.zip", data), Request(limits=Limits(max_entries=1))))
            except BoundreadError as exc:
                return type(exc).__name__

    compared = 0
    for path in sorted(corpus_dir.iterdir()):
        data = path.read_bytes() if path.is_file() else b""
        if data.startswith(b"PK\x03\x04"):
            assert outcome(data, walk=False) == outcome(data, walk=True), path.name
            compared += 1
    assert compared >= 10


def _always_walk(*args: object, **kw: object) -> ziptally.Tally:
    raise ziptally.Walk("the walk, for comparison")
