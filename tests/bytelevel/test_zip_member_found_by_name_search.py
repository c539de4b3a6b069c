"""boundread.bytelevel.zipfind: a member found by searching its name's bytes in the central directory gives the
record the walk gives (the first one named so), or says it is unsure; never another record."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boundread.bytelevel import zipdir, zipfind
from boundread.contract.model import Request
from boundread.contract.source import source_for_bytes, source_for_path
from boundread.errors import UsageError
from boundread.formats.archives import handler as archive
from tests.bytelevel import zipbuild
from tests.bytelevel.zipbuild import Member, record

SENTINEL = b"boundread-zipfind-sentinel-7a2d"


def _member(name: bytes, data: bytes, offset: int) -> tuple[bytes, bytes]:
    return record(Member(name, data), offset)


def build(members: list[tuple[bytes, bytes]], *, unicode: dict[int, bytes] | None = None,
          comments: dict[int, bytes] | None = None) -> bytes:
    """Stored members by raw name; ``unicode``: place -> the UTF-8 name of a Unicode Path field (0x7075);
    ``comments``: place -> the record's comment bytes."""
    unicode, comments = unicode or {}, comments or {}
    return zipbuild.build([Member(name, data, unicode=unicode.get(place), comment=comments.get(place, b""))
                           for place, (name, data) in enumerate(members)])


def walked(data: bytes, name: str) -> zipdir.Record | None:
    return next((rec for rec in zipdir.records(io.BytesIO(data)) if rec.name == name), None)


def found(data: bytes, name: str) -> zipdir.Record | None:
    """What the search says: the record, or None when it is unsure."""
    try:
        return zipfind.find(io.BytesIO(data), name)
    except zipfind.Unsure:
        return None


def test_every_name_is_found_as_the_walk_finds_it() -> None:
    names = [f"dir{i % 7}/file-{i:04d}.txt" for i in range(400)]
    data = build([(n.encode(), n.encode()) for n in names])
    for name in names:
        rec = found(data, name)
        assert rec is not None and rec.name == name
        assert rec.header_offset == walked(data, name).header_offset  # type: ignore[union-attr]
        assert zipdir.read_data(io.BytesIO(data), rec) == name.encode()


def test_a_name_inside_longer_names_is_not_taken_for_them() -> None:
    data = build([(b"old/a.txt", b"wrong"), (b"a.txt.bak", b"wrong"), (b"a.txt", SENTINEL)])
    rec = found(data, "a.txt")
    assert rec is not None and zipdir.read_data(io.BytesIO(data), rec) == SENTINEL
    assert found(data, "b.txt") is None  # not there: the walk says so


def test_the_first_of_two_records_with_one_name_wins() -> None:
    data = build([(b"x.txt", b"other"), (b"twice.txt", SENTINEL), (b"twice.txt", b"second")])
    rec = found(data, "twice.txt")
    assert rec is not None and zipdir.read_data(io.BytesIO(data), rec) == SENTINEL


def test_a_unicode_path_field_wins_over_the_raw_name() -> None:
    """An ASCII name kept only in the 0x7075 field is found there; a raw name it overrides is not that name."""
    data = build([(b"????.txt", SENTINEL), (b"raw.txt", b"renamed")], unicode={0: b"real.txt", 1: b"other.txt"})
    rec = found(data, "real.txt")
    assert rec is not None and zipdir.read_data(io.BytesIO(data), rec) == SENTINEL
    assert found(data, "raw.txt") is None
    src = source_for_bytes("u.zip", data)
    with pytest.raises(UsageError, match="no member"):
        archive.read_member(src, "raw.txt", Request())
    assert archive.read_member(src, "other.txt", Request()) == b"renamed"


def test_a_name_ended_by_a_nul_is_found() -> None:
    data = build([(b"cut.txt\x00hidden", SENTINEL)])
    rec = found(data, "cut.txt")
    assert rec is not None and rec.name == "cut.txt"


def test_a_record_forged_in_a_comment_is_never_believed() -> None:
    """A hostile zip hides a whole central record named like a later member in an earlier record's comment,
    pointing at other data: the search must not answer with it (unsure: the walk finds the real one)."""
    honest = build([(b"decoy.txt", b"FORGED DATA"), (b"target.txt", SENTINEL)])
    forged_local, _ = _member(b"decoy.txt", b"FORGED DATA", 0)
    _, fake = _member(b"target.txt", b"FORGED DATA", 0)  # points at the decoy's local header
    assert honest.startswith(forged_local)
    data = build([(b"decoy.txt", b"FORGED DATA"), (b"target.txt", SENTINEL)], comments={0: fake})
    rec = found(data, "target.txt")
    real = walked(data, "target.txt")
    assert real is not None and (rec is None or rec.header_offset == real.header_offset)
    assert archive.read_member(source_for_bytes("f.zip", data), "target.txt", Request()) == SENTINEL


def test_legacy_and_escaped_names_are_left_to_the_walk() -> None:
    data = build([("Übersicht.txt".encode("cp437"), SENTINEL), (b"plain.txt", b"p")])
    assert not zipfind.searchable("Übersicht.txt") and not zipfind.searchable("a\\xff.txt")
    assert found(data, "Übersicht.txt") is None
    assert archive.read_member(source_for_bytes("l.zip", data), "Übersicht.txt", Request()) == SENTINEL


def test_names_across_block_boundaries(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stream without a file number is read in blocks: a name that straddles two is still found."""
    monkeypatch.setattr(zipfind, "BLOCK", 97)
    names = [f"n{i:03d}-{'x' * (i % 13)}.log" for i in range(300)]
    data = build([(n.encode(), n.encode()) for n in names])
    for name in names[::7]:
        rec = found(data, name)
        assert rec is not None and rec.name == name


def test_a_file_on_disk_is_mapped_and_gives_the_same_answers(tmp_path: Path) -> None:
    names = [f"d/{i}.txt" for i in range(2000)]
    path = tmp_path / "m.zip"
    path.write_bytes(build([(n.encode(), n.encode()) for n in names]))
    with path.open("rb") as fh:
        for name in ("d/0.txt", "d/1999.txt", "d/1000.txt"):
            assert zipfind.find(fh, name).name == name
    assert archive.read_member(source_for_path(path), "d/1234.txt", Request()) == b"d/1234.txt"


_NAMES = st.lists(st.text(alphabet="ab/.x", min_size=1, max_size=6), min_size=1, max_size=25)


@settings(max_examples=150, deadline=None)
@given(names=_NAMES, pick=st.integers(min_value=0, max_value=30), forged=st.booleans())
def test_search_never_disagrees_with_the_walk(names: list[str], pick: int, forged: bool) -> None:
    """Short names over a small alphabet: substrings, duplicates and (with ``forged``) a fake record in the
    first comment, everywhere. The search gives the walk's first record, or is unsure."""
    target = names[pick % len(names)]
    comments = {0: _member(target.encode(), b"FAKE", 0)[1]} if forged else None
    data = build([(n.encode(), f"{i}".encode()) for i, n in enumerate(names)], comments=comments)
    rec = found(data, target)
    if rec is not None:
        first = walked(data, target)
        assert first is not None and rec.header_offset == first.header_offset


def test_corpus_zips_give_the_walk_s_record_for_every_name(corpus_dir: Path) -> None:
    """Every zip-based file of the real-world corpus (docx, xlsx, odt, jar...): the search and the block count
    agree with the walk, name by name and total by total."""
    checked = 0
    for path in sorted(corpus_dir.iterdir()):
        data = path.read_bytes() if path.is_file() else b""
        if not data.startswith(b"PK\x03\x04"):
            continue
        try:
            records = list(zipdir.records(io.BytesIO(data)))
        except zipdir.BadZip:
            continue  # a damaged directory: the walk's own tests cover it
        for rec in records[:300]:
            if not zipfind.searchable(rec.name):
                continue
            first = next(r for r in records if r.name == rec.name)
            got = found(data, rec.name)
            assert got is None or got.header_offset == first.header_offset, (path.name, rec.name)
            checked += 1
    assert checked >= 50
