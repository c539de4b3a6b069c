"""The archive handler: listings from the directory only, capped member reads, hostile archives."""

from __future__ import annotations

import bz2
import contextlib
import gzip
import io
import lzma
import re
import tarfile
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import py7zr
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boundread.contract.model import FILE, Request, Source
from boundread.contract.sink import Sink
from boundread.contract.source import source_for_bytes, source_for_path
from boundread.errors import BoundreadError, Corrupt, Encrypted, Refused, Unsupported, UsageError
from boundread.formats.archives import handler as archive
from boundread.formats.archives.common import escape_reason, link_escape
from boundread.formats.archives.sevenz import _capped_factory
from boundread.limits import Limits

SENTINEL = b"boundread-sentinel-7f3a"
MB = 1_000_000  # decimal, as every size boundread shows (units.py)


def _zip(entries: dict[str, bytes], **kw: Any) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, **kw) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return buf.getvalue()


def _tar(build: Callable[[tarfile.TarFile], object], mode: str = "w") -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=mode) as tf:  # type: ignore[call-overload]
        build(tf)
    return buf.getvalue()


def _add(tf: tarfile.TarFile, name: str, data: bytes = b"", *, kind: bytes = tarfile.REGTYPE,
         link: str = "") -> None:
    info = tarfile.TarInfo(name)
    info.type, info.linkname, info.size, info.mtime = kind, link, len(data) if kind == tarfile.REGTYPE else 0, 1
    tf.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)


def _7z(path: Path, entries: dict[str, bytes], **kw: Any) -> Source:
    with py7zr.SevenZipFile(path, "w", **kw) as sz:
        for name, data in entries.items():
            sz.writestr(data, name)
    return source_for_path(path)


def _req(**limits: Any) -> Request:
    return Request(limits=Limits(**limits))


# --- names and links ------------------------------------------------------------------------

@pytest.mark.parametrize("name", [
    "../evil.txt", "a/../../evil.txt", "/etc/passwd", "C:\\Windows\\win.ini", "c:/x", "..\\..\\x.txt",
    "ok\\..\\..\\x", "\\\\server\\share\\x", "nul\x00byte",
])
def test_escaping_names_are_flagged(name: str) -> None:
    assert escape_reason(name) is not None


@pytest.mark.parametrize("name", ["a/../b.txt", "./x", "dir/", "a/b/c.txt", "..foo/bar", "x..y"])
def test_inside_names_are_not_flagged(name: str) -> None:
    assert escape_reason(name) is None


def test_links_inside_and_outside() -> None:
    assert link_escape("fixtures/a/b/c/y", "../../x") is None
    assert link_escape("fixtures/the-chumbler", "/a/b/c/d/the-chumbler") is not None
    assert link_escape("a/link", "../../etc/passwd") is not None
    assert link_escape("top", "sub/file") is None
    assert link_escape("a/b/hard", "a/file", hard=True) is None
    assert link_escape("a/b/hard", "../outside", hard=True) is not None


# --- zip ----------------------------------------------------------------------------------------

def test_zip_listing_info_and_member(tmp_path: Path) -> None:
    path = tmp_path / "a.zip"
    path.write_bytes(_zip({"docs/": b"", "docs/readme.txt": SENTINEL * 10, "data.bin": b"\x00" * 100}))
    src = source_for_path(path)
    lst = archive.listing(src, Request())
    assert lst.format == "zip" and lst.total_entries == 3 and not lst.truncated
    assert [e.name for e in lst.entries] == ["docs/", "docs/readme.txt", "data.bin"]
    assert lst.entries[0].is_dir and lst.entries[1].size == len(SENTINEL) * 10
    assert lst.entries[1].modified and lst.entries[1].compressed
    assert lst.largest == len(SENTINEL) * 10 and lst.warnings == []
    details = archive.info(src, Request())
    assert details.fields["entries"] == 3 and details.fields["format"] == "zip" and details.est_chars is None
    assert details.next == [("list-zip", FILE), ("extract", FILE, "--member", "docs/readme.txt")]
    assert archive.read_member(src, "docs/readme.txt", Request()) == SENTINEL * 10


def test_zip_unknown_member_and_folder(tmp_path: Path) -> None:
    src = source_for_bytes("a.zip", _zip({"d/": b"", "d/x.txt": b"x"}))
    with pytest.raises(UsageError, match=re.escape("no member 'nope' in a.zip")) as caught:
        archive.read_member(src, "nope", Request())
    assert "boundread list-zip a.zip" in caught.value.fix
    with pytest.raises(UsageError, match="folder"):
        archive.read_member(src, "d/", Request())


def test_zip_slip_names_are_warnings_and_readable_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    names = ["good.txt", "../evil.txt", "/abs/evil.txt", "C:\\evil.txt", "..\\..\\evil.txt", "a/../../evil.txt"]
    src = source_for_bytes("slip.zip", _zip({n: SENTINEL + n.encode() for n in names}))
    workdir = tmp_path / "work"
    workdir.mkdir()
    monkeypatch.chdir(workdir)
    lst = archive.listing(src, Request())
    flagged = {e.name for e in lst.entries if any("escapes the folder" in w for w in e.warnings)}
    assert flagged == set(names) - {"good.txt"}
    assert any("5 entries would escape the folder" in w for w in lst.warnings)
    assert archive.read_member(src, "../evil.txt", Request()) == SENTINEL + b"../evil.txt"
    assert list(workdir.iterdir()) == [] and not (tmp_path / "evil.txt").exists()


def test_zip_max_entries_counts_all_but_keeps_few() -> None:
    src = source_for_bytes("many.zip", _zip({f"f{i:02}.txt": b"x" * i for i in range(20)}))
    lst = archive.listing(src, _req(max_entries=5))
    assert len(lst.entries) == 5 and lst.total_entries == 20 and lst.truncated
    assert lst.total_size == sum(range(20)) and lst.largest == 19
    sink = Sink(Limits(max_entries=5))
    outcome = archive.extract(src, Request(limits=Limits(max_entries=5)), sink)
    assert outcome.truncated == ["max_entries 5 reached"] and sink.text().count("\n") == 6


def test_zip_extract_writes_the_listing_and_resumes_at_a_member() -> None:
    src = source_for_bytes("l.zip", _zip({"dir/": b"", "../bad.txt": b"b", "notes.txt": SENTINEL}))
    sink = Sink(Limits())
    outcome = archive.extract(src, Request(), sink)
    lines = sink.text().splitlines()
    assert lines[0].startswith("# zip: 3 entries")
    assert "dir/" in lines[1] and "[dir]" in lines[1]
    assert "../bad.txt" in lines[2] and "escapes the folder" in lines[2]
    assert lines[3].split()[0] == f"{len(SENTINEL)}" and lines[3].rstrip().endswith("notes.txt")
    assert outcome.unit == "entries" and outcome.done == "entries 1-3 of 3"
    assert outcome.resume == ("extract", FILE, "--member", "../bad.txt")


def test_zip_nested_archives_and_ooxml_are_flagged() -> None:
    src = source_for_bytes("n.zip", _zip({"inner.zip": _zip({"x": b"x"}), "r.docx": b"PK", "a.tgz": b"",
                                          "plain.txt": b"t"}))
    lst = archive.listing(src, Request())
    nested = [e.name for e in lst.entries if "nested archive" in e.warnings]
    assert nested == ["inner.zip", "r.docx", "a.tgz"]
    assert archive.info(src, Request()).fields["nested_archives"] == 3


def test_docx_parts_are_listed(tmp_path: Path) -> None:
    import docx

    path = tmp_path / "d.docx"
    document = docx.Document()
    document.add_paragraph(SENTINEL.decode())
    document.save(str(path))
    src = source_for_path(path)
    assert src.kind == "docx"
    lst = archive.listing(src, Request())
    assert "word/document.xml" in [e.name for e in lst.entries]
    assert SENTINEL in archive.read_member(src, "word/document.xml", Request())


@pytest.fixture(scope="session")
def zip_bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 200 MB member of zeros, about 200 KB compressed. Deflate restarts after a full flush, so
    one compressed megabyte repeated 200 times is a valid stream (and quick to make)."""
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = packer.compress(bytes(MB)) + packer.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(200):
        crc = zlib.crc32(bytes(MB), crc)
    payload = block * 200 + zlib.compressobj(9, zlib.DEFLATED, -15).flush()
    path = tmp_path_factory.mktemp("bomb") / "bomb.zip"
    path.write_bytes(_raw_zip(b"zeros.bin", payload, crc, 200 * MB))
    return path


def test_zip_bomb_is_flagged_and_refused_with_bounded_memory(zip_bomb: Path) -> None:
    assert zip_bomb.stat().st_size < 400_000
    src = source_for_path(zip_bomb)
    lst = archive.listing(src, Request())
    assert lst.entries[0].size == 200 * MB
    assert any("possible zip bomb" in w for w in lst.entries[0].warnings)
    assert any("possible zip bomb" in w for w in lst.warnings)
    assert "possible zip bomb" in " ".join(archive.info(src, Request()).warnings)
    tracemalloc.start()
    try:
        with pytest.raises(Refused) as caught:
            archive.read_member(src, "zeros.bin", Request())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert caught.value.what.startswith("zeros.bin expands to more than 32.0 MB")
    assert "boundread list-zip" in caught.value.fix
    assert peak < 8 * MB


def test_zip_member_above_a_small_cap_is_refused() -> None:
    src = source_for_bytes("c.zip", _zip({"big.txt": b"y" * 50_000, "small.txt": b"s"}))
    with pytest.raises(Refused, match=re.escape("big.txt expands to more than 10.0 kB")):
        archive.read_member(src, "big.txt", _req(max_member_bytes=10_000))
    assert archive.read_member(src, "small.txt", _req(max_member_bytes=10_000)) == b"s"


def test_max_member_mb_counts_decimal_megabytes(tmp_path: Path) -> None:
    from tests.helpers import run

    assert Limits().max_member_bytes == 32_000_000
    path = tmp_path / "two.zip"
    stored = io.BytesIO()
    with zipfile.ZipFile(stored, "w", zipfile.ZIP_STORED) as zf:  # stored: no ratio, only the size counts
        zf.writestr("exact.txt", b"e" * 1_000_000)
        zf.writestr("over.txt", b"o" * 1_000_001)
    path.write_bytes(stored.getvalue())
    fits = run("extract", str(path), "--member", "exact.txt", "--max-member-mb", "1", "--max-chars", "10")
    assert fits.exit_code == 0, fits.stderr
    over = run("extract", str(path), "--member", "over.txt", "--max-member-mb", "1")
    assert over.exit_code == 7
    assert over.stderr.startswith("boundread: error: over.txt expands to more than 1.0 MB - raise --max-member-mb")


@pytest.mark.parametrize("kind", ["zip", "tar", "7z"])
def test_a_member_is_found_by_its_composed_name(tmp_path: Path, kind: str) -> None:
    import unicodedata

    stored = unicodedata.normalize("NFD", "Ärger/Übersicht.txt")  # as macOS writes names
    entries = {stored: b"SENTINEL_NFD", "other.txt": b"x"}
    if kind == "zip":
        src = source_for_bytes("mac.zip", _zip(entries))
    elif kind == "tar":
        def build(tf: tarfile.TarFile) -> None:
            for name, data in entries.items():
                info = tarfile.TarInfo(name)
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
        src = source_for_bytes("mac.tar", _tar(build, "w:"))
    else:
        src = _7z(tmp_path / "mac.7z", entries)
    composed = unicodedata.normalize("NFC", stored)
    assert composed != stored
    assert archive.read_member(src, composed, Request()) == b"SENTINEL_NFD"
    assert archive.read_member(src, stored, Request()) == b"SENTINEL_NFD"
    with pytest.raises(UsageError, match="no member"):
        archive.read_member(src, "Arger/Ubersicht.txt", Request())


def test_zip_size_lie_does_not_flood() -> None:
    data = bytearray(_zip({"liar.txt": b"z" * 100_000}))
    central = data.rfind(b"PK\x01\x02")
    data[central + 24: central + 28] = (10).to_bytes(4, "little")  # claim 10 bytes uncompressed
    with pytest.raises(Corrupt):
        archive.read_member(source_for_bytes("liar.zip", bytes(data)), "liar.txt", Request())


def _zipcrypto() -> bytes:
    """A ZipCrypto member made by hand (stdlib cannot write encryption): password 'pw'."""
    import binascii
    import zlib

    plain = SENTINEL * 3
    crc = binascii.crc32(plain)
    keys = [0x12345678, 0x23456789, 0x34567890]

    def update(byte: int) -> None:
        keys[0] = binascii.crc32(bytes([byte]), keys[0] ^ 0xFFFFFFFF) ^ 0xFFFFFFFF
        keys[1] = ((keys[1] + (keys[0] & 0xFF)) * 134775813 + 1) & 0xFFFFFFFF
        keys[2] = binascii.crc32(bytes([(keys[1] >> 24) & 0xFF]), keys[2] ^ 0xFFFFFFFF) ^ 0xFFFFFFFF

    for byte in b"pw":
        update(byte)
    out = bytearray()
    for byte in bytes(11) + bytes([crc >> 24]) + zlib.compress(plain)[2:-4]:
        temp = (keys[2] | 2) & 0xFFFF
        out.append(byte ^ (((temp * (temp ^ 1)) >> 8) & 0xFF))
        update(byte)
    return _raw_zip(b"secret.txt", bytes(out), crc, len(plain), flags=1)


def _raw_zip(name: bytes, payload: bytes, crc: int, size: int, *, flags: int = 0) -> bytes:
    """One deflated member written by hand: local header, data, central record, end record."""
    def le(value: int, width: int) -> bytes:
        return value.to_bytes(width, "little")

    fields = le(flags, 2) + le(8, 2) + bytes(4) + le(crc, 4) + le(len(payload), 4) + le(size, 4) + le(len(name), 2)
    body = b"PK\x03\x04" + le(20, 2) + fields + bytes(2) + name + payload
    central = b"PK\x01\x02" + le(20, 2) * 2 + fields + bytes(16) + name
    return body + central + b"PK\x05\x06" + bytes(4) + le(1, 2) * 2 + le(len(central), 4) + le(len(body), 4) + bytes(2)


def test_zipcrypto_needs_the_right_password() -> None:
    src = source_for_bytes("enc.zip", _zipcrypto())
    lst = archive.listing(src, Request())
    assert lst.encrypted_entries == 1 and lst.entries[0].encrypted
    assert any("encrypted" in w for w in lst.warnings)
    assert archive.info(src, Request()).encrypted
    with pytest.raises(Encrypted, match=re.escape("secret.txt is encrypted")) as caught:
        archive.read_member(src, "secret.txt", Request())
    assert caught.value.fix == "pass --password"
    with pytest.raises(Encrypted):
        archive.read_member(src, "secret.txt", Request(password="wrong"))
    assert archive.read_member(src, "secret.txt", Request(password="pw")) == SENTINEL * 3


def test_aes_zip_is_unsupported() -> None:
    data = bytearray(_zip({"aes.txt": b"a" * 100}))
    local, central = data.find(b"PK\x03\x04"), data.rfind(b"PK\x01\x02")
    data[local + 6], data[local + 8: local + 10] = 1, (99).to_bytes(2, "little")
    data[central + 8], data[central + 10: central + 12] = 1, (99).to_bytes(2, "little")
    with pytest.raises(Unsupported, match="AES"):
        archive.read_member(source_for_bytes("aes.zip", bytes(data)), "aes.txt", Request(password="x"))


@pytest.mark.parametrize("data", [
    b"PK\x05\x06" + bytes(16) + b"\x00\x00",  # empty directory claims nothing: fine, 0 entries
])
def test_empty_zip(data: bytes) -> None:
    assert archive.listing(source_for_bytes("e.zip", data), Request()).total_entries == 0


def test_damaged_zip_is_corrupt() -> None:
    good = _zip({"a.txt": b"a" * 1000})
    bad = good.replace(b"PK\x01\x02", b"XX\x01\x02")  # the central directory record's magic
    with pytest.raises(Corrupt, match=r"bad.zip is a damaged zip \("):
        archive.listing(source_for_bytes("bad.zip", bad), Request())


# --- 7z -----------------------------------------------------------------------------------------

def test_7z_listing_and_member(tmp_path: Path) -> None:
    src = _7z(tmp_path / "a.7z", {"a.txt": SENTINEL, "dir/b.txt": b"b" * 1000, "in.zip": b"PK"})
    lst = archive.listing(src, Request())
    assert lst.format == "7z" and lst.total_entries == 3 and lst.solid is True
    assert {e.name for e in lst.entries} == {"a.txt", "dir/b.txt", "in.zip"}
    assert next(e for e in lst.entries if e.name == "in.zip").warnings == ("nested archive",)
    assert archive.read_member(src, "a.txt", Request()) == SENTINEL
    assert archive.read_member(src, "dir/b.txt", Request()) == b"b" * 1000
    details = archive.info(src, Request())
    assert details.fields["solid"] is True and details.fields["entries"] == 3
    with pytest.raises(UsageError, match="no member"):
        archive.read_member(src, "zzz", Request())


def test_7z_encrypted_header_needs_the_password(tmp_path: Path) -> None:
    src = _7z(tmp_path / "h.7z", {"s.txt": SENTINEL}, password="pw", header_encryption=True)
    with pytest.raises(Encrypted, match=re.escape("h.7z is encrypted")):
        archive.listing(src, Request())
    details = archive.info(src, Request())
    assert details.encrypted and details.fields["headers_encrypted"] is True
    assert archive.read_member(src, "s.txt", Request(password="pw")) == SENTINEL


def test_7z_encrypted_data_lists_but_needs_a_password_to_read(tmp_path: Path) -> None:
    src = _7z(tmp_path / "d.7z", {"s.txt": SENTINEL * 50}, password="pw")
    lst = archive.listing(src, Request())
    assert lst.entries[0].encrypted and lst.entries[0].size == len(SENTINEL) * 50
    with pytest.raises(Encrypted, match=re.escape("s.txt is encrypted")):
        archive.read_member(src, "s.txt", Request())
    assert archive.read_member(src, "s.txt", Request(password="pw")) == SENTINEL * 50


def test_7z_caps(tmp_path: Path) -> None:
    src = _7z(tmp_path / "big.7z", {"zeros.bin": bytes(3 * MB), "small.txt": SENTINEL})
    with pytest.raises(Refused, match=re.escape("zeros.bin expands to more than 1.0 MB")):
        archive.read_member(src, "zeros.bin", _req(max_member_bytes=MB))
    # in a solid block, the small member sits behind 3 MB that must be decompressed first
    with pytest.raises(Refused, match="solid block"):
        archive.read_member(src, "small.txt", _req(max_member_bytes=MB))
    assert archive.read_member(src, "small.txt", Request()) == SENTINEL


def test_7z_writer_truncates_at_the_cap() -> None:
    factory = _capped_factory(10)
    writer = factory.create("x")
    writer.write(b"a" * 6)
    writer.write(b"b" * 100)
    assert writer.size() == 10 and writer.overflow and bytes(writer.buf) == b"aaaaaabbbb"


def test_7z_damaged_header_is_corrupt(tmp_path: Path) -> None:
    src = _7z(tmp_path / "ok.7z", {"a.txt": b"a" * 100})
    data = bytearray(src.path.read_bytes() if src.path else b"")
    data[-20:] = bytes(20)
    with pytest.raises(Corrupt, match="damaged 7z"):
        archive.listing(source_for_bytes("bad.7z", bytes(data)), Request())


# --- tar ----------------------------------------------------------------------------------------

def _hostile_tar(tf: tarfile.TarFile) -> None:
    _add(tf, "top", kind=tarfile.DIRTYPE)
    _add(tf, "top/file.txt", SENTINEL)
    _add(tf, "top/a/b/inside", kind=tarfile.SYMTYPE, link="../../file.txt")
    _add(tf, "top/abs", kind=tarfile.SYMTYPE, link="/etc/passwd")
    _add(tf, "top/up", kind=tarfile.SYMTYPE, link="../../outside")
    _add(tf, "top/hard", kind=tarfile.LNKTYPE, link="../etc/shadow")
    _add(tf, "../slip.txt", b"s")


def test_tar_links_and_names(tmp_path: Path) -> None:
    src = source_for_bytes("h.tar", _tar(_hostile_tar))
    lst = archive.listing(src, Request())
    assert lst.format == "tar" and lst.total_entries == 7 and lst.total_compressed is None
    warned = {e.name: e.warnings for e in lst.entries}
    assert warned["top/file.txt"] == () and warned["top/a/b/inside"] == ()
    for name in ("top/abs", "top/up", "top/hard"):
        assert any("outside the archive" in w for w in warned[name]), name
    assert any("escapes the folder" in w for w in warned["../slip.txt"])
    links = next(e for e in lst.entries if e.name == "top/abs")
    assert links.is_symlink and links.link_target == "/etc/passwd"
    assert any(w.startswith("3 links point outside") for w in lst.warnings)
    assert archive.read_member(src, "top/file.txt", Request()) == SENTINEL
    assert archive.read_member(src, "./top/file.txt", Request()) == SENTINEL
    with pytest.raises(UsageError, match="a link to"):
        archive.read_member(src, "top/abs", Request())


@pytest.mark.parametrize(("mode", "fmt"), [("w:gz", "tar.gz"), ("w:bz2", "tar.bz2"), ("w:xz", "tar.xz")])
def test_compressed_tars(mode: str, fmt: str) -> None:
    data = _tar(lambda tf: _add(tf, "notes.txt", SENTINEL), mode)
    src = source_for_bytes(f"x.{fmt}", data)
    assert src.kind == "tar"
    lst = archive.listing(src, Request())
    assert lst.format == fmt and lst.total_compressed == len(data)
    assert archive.read_member(src, "notes.txt", Request()) == SENTINEL


def _files(count: int, size: int) -> Callable[[tarfile.TarFile], None]:
    def build(tf: tarfile.TarFile) -> None:
        for i in range(count):
            _add(tf, f"f{i}.txt", bytes([65 + i % 26]) * size)

    return build


def test_tar_stops_reading_headers_at_max_entries() -> None:
    data = _tar(_files(20, 1))
    lst = archive.listing(source_for_bytes("m.tar", data), _req(max_entries=5))
    assert len(lst.entries) == 5 and lst.total_entries == 5 and lst.truncated
    assert any("max_entries 5" in w for w in lst.warnings)


@pytest.mark.parametrize("cut", [512 * 6 + 100, 512 * 7 + 100])  # in the 3rd header; in its data
def test_truncated_tar_lists_what_it_can(cut: int) -> None:
    src = source_for_bytes("cut.tar", _tar(_files(4, 700))[:cut])
    lst = archive.listing(src, Request())
    assert [e.name for e in lst.entries][:2] == ["f0.txt", "f1.txt"] and lst.truncated
    assert any(w.startswith("archive is truncated after entry") for w in lst.warnings)
    assert archive.read_member(src, "f0.txt", Request()) == b"A" * 700


def test_tar_gz_bomb_stops_the_listing() -> None:
    def build(tf: tarfile.TarFile) -> None:
        info = tarfile.TarInfo("zeros.bin")
        info.size = 8 * MB
        tf.addfile(info, io.BytesIO(bytes(info.size)))
        _add(tf, "after.txt", b"a")

    data = _tar(build, "w:gz")
    lst = archive.listing(source_for_bytes("b.tar.gz", data), _req(max_ratio=10, max_member_bytes=MB))
    assert [e.name for e in lst.entries] == ["zeros.bin"] and lst.truncated
    assert any("possible tar bomb" in w for w in lst.warnings)


# --- gz / bz2 / xz single files -----------------------------------------------------------------

def test_gz_single_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt.gz"
    with open(path, "wb") as raw, gzip.GzipFile("notes.txt", "wb", fileobj=raw, mtime=1_700_000_000) as gz:
        gz.write(b"line one\n" + SENTINEL + b"\n")
    src = source_for_path(path)
    assert src.kind == "gz"
    details = archive.info(src, Request())
    assert details.fields["format"] == "gz" and details.fields["inner_name"] == "notes.txt"
    assert details.fields["size"] == 10 + len(SENTINEL) and details.fields["size_approximate"] is True
    lst = archive.listing(src, Request())
    assert lst.entries[0].name == "notes.txt" and lst.entries[0].modified is not None
    assert archive.read_member(src, "notes.txt", Request()) == b"line one\n" + SENTINEL + b"\n"
    assert archive.read_member(src, "-", Request()).endswith(SENTINEL + b"\n")
    sink = Sink(Limits())
    outcome = archive.extract(src, Request(), sink)
    assert sink.text() == "line one\n" + SENTINEL.decode() + "\n" and not outcome.truncated


@pytest.mark.parametrize(("suffix", "compress"), [(".bz2", bz2.compress), (".xz", lzma.compress)])
def test_bz2_and_xz_single_files(suffix: str, compress: Callable[[bytes], bytes]) -> None:
    src = source_for_bytes(f"log.txt{suffix}", compress(SENTINEL * 3))
    assert archive.info(src, Request()).fields["inner_name"] == "log.txt"
    assert archive.read_member(src, "anything", Request()) == SENTINEL * 3
    sink = Sink(Limits())
    archive.extract(src, Request(), sink)
    assert sink.text() == SENTINEL.decode() * 3


def test_gz_bomb_is_capped_in_memory() -> None:
    data = gzip.compress(bytes(20 * MB), compresslevel=9)
    src = source_for_bytes("zeros.gz", data)
    tracemalloc.start()
    try:
        with pytest.raises(Refused, match=re.escape("more than 1.0 MB")):
            archive.read_member(src, "-", _req(max_member_bytes=MB))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * MB
    sink = Sink(Limits())
    outcome = archive.extract(src, Request(), sink)
    assert sink.text() == "" and "binary" in outcome.warnings[0]


def test_gz_text_bomb_stops_at_the_sink_and_the_cap() -> None:
    src = source_for_bytes("a.txt.gz", gzip.compress(b"a" * (4 * MB)))
    sink = Sink(Limits(max_chars=1000))
    archive.extract(src, Request(limits=Limits(max_chars=1000)), sink)
    assert sink.chars == 1000 and sink.truncated
    capped = Sink(Limits(max_chars=10 * MB))
    outcome = archive.extract(src, _req(max_chars=10 * MB, max_member_bytes=MB), capped)
    assert capped.chars == MB and outcome.truncated == ["decompression cap 1.0 MB reached"]


def test_broken_gz_is_corrupt() -> None:
    src = source_for_bytes("b.txt.gz", b"\x1f\x8b\x08\x00" + b"000000:00000 0")
    with pytest.raises(Corrupt, match="damaged gz"):
        archive.read_member(src, "-", Request())
    with pytest.raises(Corrupt):
        archive.extract(src, Request(), Sink(Limits()))


def test_gz_damaged_midway_keeps_the_text_read() -> None:
    good = gzip.compress(b"".join(b"line %d\n" % i for i in range(50_000)))
    src = source_for_bytes("m.txt.gz", good[: len(good) // 2])
    sink = Sink(Limits(max_chars=10 * MB))
    outcome = archive.extract(src, _req(max_chars=10 * MB), sink)
    assert sink.text().startswith("line 0\nline 1\n")
    assert any("damaged after" in w for w in outcome.warnings)


# --- rar and not-archives -----------------------------------------------------------------------

def test_rar_is_unsupported() -> None:
    src = source_for_bytes("a.rar", b"Rar!\x1a\x07\x01\x00" + bytes(100))
    assert src.kind == "rar"
    calls: tuple[Callable[[], object], ...] = (
        lambda: archive.listing(src, Request()),
        lambda: archive.read_member(src, "x", Request()),
        lambda: archive.extract(src, Request(), Sink(Limits())),
    )
    for call in calls:
        with pytest.raises(Unsupported, match="RAR archives are not supported") as caught:
            call()
        assert "unrar l" in caught.value.fix
    details = archive.info(src, Request())
    assert details.fields == {"format": "rar", "size": len(b"Rar!\x1a\x07\x01\x00") + 100}
    assert "not supported" in details.warnings[0]


def test_text_is_not_an_archive() -> None:
    with pytest.raises(UsageError, match="not an archive"):
        archive.listing(source_for_bytes("x.zip", b"This is not really a zip.\n"), Request())


# --- bad bytes never escape as a traceback ------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.sampled_from([b"PK\x03\x04", b"PK\x05\x06", b"7z\xbc\xaf\x27\x1c", b"\x1f\x8b\x08", b"BZh9",
                        b"\xfd7zXZ\x00"]),
       st.binary(max_size=600))
def test_random_bytes_only_raise_boundread_errors(magic: bytes, tail: bytes) -> None:
    src = source_for_bytes("fuzz.bin", magic + tail)
    calls: tuple[Callable[[], object], ...] = (
        lambda: archive.listing(src, Request()),
        lambda: archive.read_member(src, "a", Request()),
        lambda: archive.extract(src, Request(), Sink(Limits())),
    )
    for call in calls:
        with contextlib.suppress(BoundreadError):
            call()


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=2000))
def test_cut_tar_never_raises_past_the_handler(cut: int) -> None:
    data = _tar(_hostile_tar)[:cut]
    src = source_for_bytes("cut.tar", data)
    with contextlib.suppress(BoundreadError):
        archive.listing(src, Request())


# --- the real-world corpus ----------------------------------------------------------------------

def _corpus(corpus_dir: Path, name: str) -> Source:
    return source_for_path(corpus_dir / name)


@pytest.mark.corpus
def test_corpus_zip_traversal(corpus_dir: Path) -> None:
    src = _corpus(corpus_dir, "zip-malicious-traversal.zip")
    lst = archive.listing(src, Request())
    evil = next(e for e in lst.entries if e.name.endswith("home/evil.txt"))
    assert any("escapes the folder" in w for w in evil.warnings)
    assert archive.read_member(src, "good.txt", Request()) == b"this is a good one\n"
    assert archive.info(src, Request()).next[1] == ("extract", FILE, "--member", "good.txt")


@pytest.mark.corpus
def test_corpus_zipcrypto(corpus_dir: Path) -> None:
    src = _corpus(corpus_dir, "zip-password-encrypted-pw-hello.zip")
    lst = archive.listing(src, Request())
    assert lst.total_entries == 13 and lst.encrypted_entries > 0
    with pytest.raises(Encrypted):
        archive.read_member(src, "LICENSE.txt", Request())
    assert b"Apache License" in archive.read_member(src, "LICENSE.txt", Request(password="hello"))
    assert archive.read_member(src, "README.txt", Request(password="hello")).lstrip().startswith(b"Apache Maven")


@pytest.mark.corpus
def test_corpus_nested_and_ratio(corpus_dir: Path) -> None:
    nested = archive.listing(_corpus(corpus_dir, "zip-OSX_ArchiveWithNestedArchive.zip"), Request())
    assert [e.name for e in nested.entries if "nested archive" in e.warnings] == ["NestedArchiv.zip"]
    inner = archive.read_member(_corpus(corpus_dir, "zip-OSX_ArchiveWithNestedArchive.zip"), "NestedArchiv.zip",
                                Request())
    inner_src = source_for_bytes("NestedArchiv.zip", inner)
    assert b"<connections>" in archive.read_member(inner_src, "test1.xml", Request())
    big = archive.info(_corpus(corpus_dir, "zip-big-compression.zip"), Request())
    assert 900 < big.fields["ratio"] < 940 and big.fields["total_size"] == 135_168
    flagged = archive.listing(_corpus(corpus_dir, "zip-big-compression.zip"), _req(max_ratio=500))
    assert any("possible zip bomb" in w for w in flagged.entries[0].warnings)


@pytest.mark.corpus
@pytest.mark.parametrize("name", ["zip-invalid_offset.zip", "7z-COMPRESS-542-endheadercorrupted.7z"])
def test_corpus_damaged_archives_are_corrupt(corpus_dir: Path, name: str) -> None:
    src = _corpus(corpus_dir, name)
    with pytest.raises(Corrupt):
        archive.listing(src, Request())
    with pytest.raises(Corrupt):
        archive.info(src, Request())


@pytest.mark.corpus
def test_corpus_7z_encrypted_headers(corpus_dir: Path) -> None:
    src = _corpus(corpus_dir, "7z-bla.encrypted-pw-foo.7z")
    with pytest.raises(Encrypted):
        archive.listing(src, Request())
    assert archive.info(src, Request()).encrypted
    lst = archive.listing(src, Request(password="foo"))
    assert [(e.name, e.size) for e in lst.entries] == [("test1.xml", 610), ("test2.xml", 82)]
    assert lst.encrypted_entries == 2
    with pytest.raises(Encrypted, match="could not be opened with this password"):
        archive.listing(src, Request(password="wrong"))
    assert archive.read_member(src, "test1.xml", Request(password="foo")).startswith(b"<?xml version = '1.0'?>")


@pytest.mark.corpus
def test_corpus_7z_with_the_password_is_not_a_problem(corpus_dir: Path) -> None:
    """The right --password: entries are flagged encrypted, never warned about nor told to pass it."""
    src = _corpus(corpus_dir, "7z-bla.encrypted-pw-foo.7z")
    req = Request(password="foo")
    lst = archive.listing(src, req)
    assert all(e.encrypted and not e.warnings for e in lst.entries)
    assert not any("password" in w for w in lst.warnings)
    details = archive.info(src, req)
    assert not any("password" in w for w in details.warnings)
    assert ("extract", FILE, "--member", "test1.xml", "--password", "PASSWORD") in details.next
    assert ("list-zip", FILE, "--password", "PASSWORD") in details.next
    sink = Sink(Limits())
    archive.extract(src, req, sink)
    assert "test1.xml  [encrypted]" in sink.text()


@pytest.mark.corpus
def test_corpus_7z_empty_entries(corpus_dir: Path) -> None:
    src = _corpus(corpus_dir, "7z-empty-entries.7z")
    lst = archive.listing(src, Request())
    assert lst.total_entries == 10 and sum(e.is_dir for e in lst.entries) == 5
    assert archive.read_member(src, "06", Request()) == b""


@pytest.mark.corpus
def test_corpus_tars(corpus_dir: Path) -> None:
    links = archive.listing(_corpus(corpus_dir, "tar-dir-normalization-symlink-escape.tar"), Request())
    by_name = {e.name: e for e in links.entries}
    assert len(links.entries) == 7
    assert any("outside the archive" in w for w in by_name["fixtures/the-chumbler"].warnings)
    assert by_name["fixtures/a/b/c/y"].warnings == () and by_name["fixtures/a/b/c/y"].link_target == "../../x"
    cut = archive.listing(_corpus(corpus_dir, "tar-COMPRESS-544_truncated_in_content.tar"), Request())
    assert [e.name for e in cut.entries] == ["test", "test/foo", "test/bar"]
    assert "archive is truncated after entry 3" in " ".join(cut.warnings)
    sparse_src = _corpus(corpus_dir, "tar-sparse.tar")
    sparse = archive.listing(sparse_src, Request())
    assert [e.name for e in sparse.entries] == ["sparse_begin.txt", "sparse_end.txt", "sparse_ext.txt", "sparse.txt"]
    assert archive.read_member(sparse_src, "sparse_begin.txt", Request()).startswith(b"test\n")


@pytest.mark.corpus
def test_corpus_gz(corpus_dir: Path) -> None:
    tgz = _corpus(corpus_dir, "gz-bla.tgz")
    lst = archive.listing(tgz, Request())
    assert lst.format == "tar.gz" and [e.name for e in lst.entries] == ["test1.xml", "test2.xml"]
    assert archive.read_member(tgz, "test1.xml", Request()).startswith(b"<?xml")
    broken = _corpus(corpus_dir, "gz-textfile_broken_gz.txt.gz")
    with pytest.raises(Corrupt):
        archive.extract(broken, Request(), Sink(Limits()))


def test_info_suggests_a_member_that_reads_as_text_before_a_blob(tmp_path: Path) -> None:
    path = tmp_path / "mixed.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("data/blob.bin", bytes(range(256)) * 4)
        zf.writestr("docs/notes.txt", "the notes\n")
    details = archive.info(source_for_path(path), Request())
    assert ("extract", FILE, "--member", "docs/notes.txt") in details.next


# --- names that carry no encoding (zip ones: tests/bytelevel/test_zipdir.py) -------------------

def _legacy_tar(names: list[str], codec: str) -> bytes:
    """A GNU tar whose headers hold the names' raw bytes in ``codec`` (no PAX header saying UTF-8)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT, encoding="utf-8",
                      errors="surrogateescape") as tf:
        for name in names:
            info = tarfile.TarInfo(name.encode(codec).decode("utf-8", "surrogateescape"))
            info.size = len(SENTINEL)
            tf.addfile(info, io.BytesIO(SENTINEL))
    return buf.getvalue()


@pytest.mark.parametrize(("names", "codec", "label"), [
    (["中文文件夹/报告.txt", "测试.txt"], "gbk", "cp936"),
    (["日本語.txt", "テスト.txt"], "cp932", "cp932"),
    (["Привет.txt", "список.csv"], "cp866", "cp866"),
    (["Übersicht.txt", "Straße.txt"], "cp437", "cp437"),
])
def test_tar_legacy_names_are_decoded_and_found(names: list[str], codec: str, label: str) -> None:
    src = source_for_bytes("legacy.tar", _legacy_tar(names, codec))
    lst = archive.listing(src, Request())
    assert [(e.name, e.name_encoding) for e in lst.entries] == [(n, label) for n in names]
    assert sum("decoded by a guess" in w for w in lst.warnings) == 1
    assert archive.read_member(src, names[-1], Request()) == SENTINEL


def test_tar_utf8_names_are_not_guessed() -> None:
    src = source_for_bytes("u.tar", _tar(lambda tf: _add(tf, "报告.txt", SENTINEL)))
    lst = archive.listing(src, Request())
    assert [(e.name, e.name_encoding) for e in lst.entries] == [("报告.txt", None)]
    assert not lst.warnings
