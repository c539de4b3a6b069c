"""boundread.bytelevel.zipdir: the central directory read lazily, checked against zipfile's own reading."""

from __future__ import annotations

import io
import json
import struct
import zipfile
from pathlib import Path
from typing import Any

import pytest

from boundread.bytelevel import zipdir
from boundread.contract.model import Request
from boundread.contract.source import source_for_bytes, source_for_path
from boundread.errors import Corrupt
from boundread.formats.archives import handler as archive
from boundread.formats.archives import zipfiles
from boundread.limits import Limits
from tests.helpers import run

SENTINEL = b"boundread-zipdir-sentinel-5c1e"


def _zip(entries: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED, **kw: Any) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method, **kw) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return buf.getvalue()


def many_zip(count: int) -> bytes:
    """``count`` empty stored entries written by hand (zipfile takes 1.5 s for 100,000)."""
    local, central, offset = [], [], 0
    for i in range(count):
        name = f"d/{i}.txt".encode()
        fields = struct.pack("<HHHHIIIHH", 0, 0, 0, 0x21, 0, 0, 0, len(name), 0)
        head = b"PK\x03\x04" + struct.pack("<H", 20) + fields + name
        central.append(b"PK\x01\x02" + struct.pack("<BBH", 20, 3, 20) + fields
                       + struct.pack("<HHHII", 0, 0, 0, 0o100644 << 16, offset) + name)
        local.append(head)
        offset += len(head)
    cd = b"".join(central)
    zip64 = b""
    if count > 0xFFFF:  # as zipfile does: the counts go in the zip64 end record
        zip64 = (b"PK\x06\x06" + struct.pack("<QHHLLQQQQ", 44, 45, 45, 0, 0, count, count, len(cd), offset)
                 + b"PK\x06\x07" + struct.pack("<LQL", 0, offset + len(cd), 1))
    count16 = min(count, 0xFFFF)
    return (b"".join(local) + cd + zip64
            + b"PK\x05\x06" + struct.pack("<4H2LH", 0, 0, count16, count16, len(cd), offset, 0))


@pytest.fixture(scope="module")
def big_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("many") / "many.zip"
    path.write_bytes(many_zip(100_000))
    return path


class Counting(io.BytesIO):
    """A stream that counts the bytes read through it."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.bytes_read = 0

    def read(self, size: int | None = -1, /) -> bytes:
        data = super().read(size)
        self.bytes_read += len(data)
        return data


def _same_as_zipfile(data: bytes) -> list[zipdir.Record]:
    """Every record agrees with zipfile's ZipInfo for the same bytes."""
    recs = list(zipdir.records(io.BytesIO(data)))
    infos = zipfile.ZipFile(io.BytesIO(data)).infolist()
    assert [r.name for r in recs] == [i.filename for i in infos]
    for rec, info in zip(recs, infos, strict=True):
        assert (rec.size, rec.compressed, rec.crc, rec.header_offset, rec.flags, rec.method) == (
            info.file_size, info.compress_size, info.CRC, info.header_offset, info.flag_bits, info.compress_type)
        assert (rec.date_time, rec.external_attr, rec.create_system, rec.is_dir) == (
            info.date_time, info.external_attr, info.create_system, info.is_dir())
    assert zipdir.end_record(io.BytesIO(data)).count == len(infos)
    return recs


def test_plain_zip_matches_zipfile_and_reads_members() -> None:
    data = _zip({"docs/": b"", "docs/a.txt": SENTINEL * 50, "b.bin": bytes(range(256)) * 10})
    recs = _same_as_zipfile(data)
    fh = io.BytesIO(data)
    assert zipdir.read_data(fh, recs[1]) == SENTINEL * 50
    assert zipdir.read_data(fh, recs[2]) == bytes(range(256)) * 10
    stored = _zip({"s.txt": SENTINEL}, zipfile.ZIP_STORED)
    assert zipdir.read_data(io.BytesIO(stored), next(zipdir.records(io.BytesIO(stored)))) == SENTINEL


def test_zip64_records_and_end_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """zipfile writes zip64 extra fields, the zip64 end record and its locator once past its limits:
    lowered limits make it do so for a small file."""
    monkeypatch.setattr(zipfile, "ZIP64_LIMIT", 16)
    monkeypatch.setattr(zipfile, "ZIP_FILECOUNT_LIMIT", 1)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(3):
            with zf.open(f"f{i}.txt", "w", force_zip64=True) as member:
                member.write(SENTINEL * (i + 2))
    monkeypatch.undo()
    data = buf.getvalue()
    assert b"PK\x06\x06" in data and b"PK\x06\x07" in data
    cd = data.rfind(b"PK\x01\x02")
    assert data[cd + 20:cd + 28] == b"\xff" * 8 and data[cd + 42:cd + 46] == b"\xff" * 4  # sizes, offset in extra
    eocd = data.rfind(b"PK\x05\x06")  # as a zip past 4 GB has them: the real values only in the zip64 record
    data = data[:eocd + 8] + b"\xff" * 12 + data[eocd + 20:]
    recs = _same_as_zipfile(data)
    assert [r.size for r in recs] == [len(SENTINEL) * n for n in (2, 3, 4)]
    assert zipdir.read_data(io.BytesIO(data), recs[2]) == SENTINEL * 4


@pytest.mark.parametrize("stub", [b"#!/bin/sh\nexec python3 \"$0\"\n", b"MZ" + bytes(5000)])
def test_prepended_stub_shifts_every_offset(stub: bytes) -> None:
    plain = _zip({"a.txt": SENTINEL, "b.txt": SENTINEL * 2})
    data = stub + plain
    recs = _same_as_zipfile(data)
    assert recs[0].header_offset == len(stub) and zipdir.end_record(io.BytesIO(data)).concat == len(stub)
    assert zipdir.read_data(io.BytesIO(data), recs[1]) == SENTINEL * 2
    assert zipfiles.read_member(source_for_bytes("sfx.zip", data), "b.txt", Request()) == SENTINEL * 2


def test_utf8_and_cp437_names() -> None:
    data = _zip({"caf\u00e9/\u65e5\u672c.txt": SENTINEL, "cafX.txt": SENTINEL})
    data = data.replace(b"cafX.txt", b"caf\x82.txt")  # no UTF-8 flag: cp437 0x82 is e-acute
    recs = _same_as_zipfile(data)
    assert recs[0].flags & 0x800 and recs[0].name == "caf\u00e9/\u65e5\u672c.txt"
    assert not recs[1].flags & 0x800 and recs[1].name == "caf\u00e9.txt"
    assert zipdir.read_data(io.BytesIO(data), recs[1]) == SENTINEL


def test_symlink_entries() -> None:
    link = zipfile.ZipInfo("link")
    link.create_system, link.external_attr = 3, (0o120777 << 16)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(link, "../../etc/passwd")
        zf.writestr("plain.txt", SENTINEL)
    recs = _same_as_zipfile(buf.getvalue())
    assert [r.is_symlink for r in recs] == [True, False]
    lst = archive.listing(source_for_bytes("l.zip", buf.getvalue()), Request())
    assert [e.is_symlink for e in lst.entries] == [True, False]


def test_broken_directories_raise_badzip() -> None:
    data = _zip({f"{i}.txt": SENTINEL for i in range(5)})
    cd = data.find(b"PK\x01\x02")
    with pytest.raises(zipdir.BadZip, match="not a zip file"):
        zipdir.end_record(io.BytesIO(data[:cd + 10]))  # the end record cut off
    with pytest.raises(zipdir.BadZip, match="bad magic"):
        list(zipdir.records(io.BytesIO(data.replace(b"PK\x01\x02", b"XX\x01\x02"))))
    third = data.find(b"PK\x01\x02", data.find(b"PK\x01\x02", cd + 4) + 4)
    garbage = bytearray(data)
    garbage[third:third + 4] = b"JUNK"
    it = zipdir.records(io.BytesIO(bytes(garbage)))
    assert [next(it).name, next(it).name] == ["0.txt", "1.txt"]  # what parses comes out first
    with pytest.raises(zipdir.BadZip):
        next(it)
    eocd = data.rfind(b"PK\x05\x06")
    longer = bytearray(data)
    longer[eocd + 12:eocd + 16] = (len(data)).to_bytes(4, "little")  # a directory larger than the file
    with pytest.raises(zipdir.BadZip):
        list(zipdir.records(io.BytesIO(bytes(longer))))
    with pytest.raises(Corrupt, match="damaged zip"):
        archive.listing(source_for_bytes("g.zip", bytes(garbage)), Request())


def test_member_data_checks() -> None:
    data = bytearray(_zip({"liar.txt": b"z" * 10_000}))
    cd = data.rfind(b"PK\x01\x02")
    rec = next(zipdir.records(io.BytesIO(bytes(data))))
    data[cd + 16:cd + 20] = (rec.crc ^ 1).to_bytes(4, "little")
    with pytest.raises(zipdir.BadZip, match="CRC"):
        zipdir.read_data(io.BytesIO(bytes(data)), next(zipdir.records(io.BytesIO(bytes(data)))))
    data[cd + 24:cd + 28] = (10).to_bytes(4, "little")  # claims 10 bytes: inflating stops at 11
    with pytest.raises(zipdir.BadZip, match="declares 10"):
        zipdir.read_data(io.BytesIO(bytes(data)), next(zipdir.records(io.BytesIO(bytes(data)))))


def test_early_stop_reads_a_sliver_of_the_directory(big_zip: Path) -> None:
    data = big_zip.read_bytes()
    end = zipdir.end_record(io.BytesIO(data))
    assert end.count == 100_000 and end.size > 4_000_000
    fh = Counting(data)
    assert zipdir.end_record(fh).count == 100_000
    assert fh.bytes_read <= zipdir.TAIL
    fh = Counting(data)
    it = zipdir.records(fh)
    assert [next(it).name for _ in range(3)] == ["d/0.txt", "d/1.txt", "d/2.txt"]
    assert fh.bytes_read <= zipdir.TAIL + zipdir.CHUNK < end.size // 30


def test_listing_of_many_entries_never_builds_zipfile(big_zip: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kw: object) -> None:
        raise AssertionError("zipfile.ZipFile was constructed")

    monkeypatch.setattr(zipfile, "ZipFile", refuse)
    src = source_for_path(big_zip)
    assert src.kind == "zip"
    lst = archive.listing(src, Request(limits=Limits(max_entries=3)))
    assert [e.name for e in lst.entries] == ["d/0.txt", "d/1.txt", "d/2.txt"]
    assert lst.total_entries == 100_000 and lst.truncated
    assert archive.read_member(src, "d/7.txt", Request()) == b""
    result = run("list-zip", str(big_zip), "--max-entries", "3", "--json")
    assert result.exit_code == 0, result.stderr
    assert "100000" in result.stdout.replace(",", "") and "d/2.txt" in result.stdout
    assert "d/3.txt" not in result.stdout


def test_totals_walk_is_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(zipfiles, "TOTALS_CAP", 50)
    src = source_for_bytes("m.zip", many_zip(500))
    lst = archive.listing(src, Request(limits=Limits(max_entries=10)))
    assert lst.total_entries == 500 and len(lst.entries) == 10 and lst.truncated
    assert any("cover the first 60 of 500 entries" in w for w in lst.warnings)
    full = archive.listing(src, Request(limits=Limits(max_entries=1000)))
    assert full.total_entries == 500 and not full.truncated and full.warnings == []


def test_hostile_names_past_max_entries_still_count_in_the_warnings() -> None:
    entries = {f"ok{i}.txt": b"x" for i in range(20)} | {"../evil.txt": b"e", "inner.zip": b"z"}
    lst = archive.listing(source_for_bytes("h.zip", _zip(entries)), Request(limits=Limits(max_entries=2)))
    text = json.dumps(lst.warnings)
    assert "1 entry would escape the folder" in text and "1 nested archive" in text
    assert lst.total_entries == 22 and lst.largest == 1


@pytest.mark.corpus
def test_corpus_zips_match_zipfile(corpus_dir: Path) -> None:
    checked = 0
    for path in sorted(corpus_dir.iterdir()):
        data = path.read_bytes()
        if not data.startswith(b"PK\x03\x04"):
            continue
        try:
            zipfile.ZipFile(io.BytesIO(data)).infolist()
        except (zipfile.BadZipFile, ValueError, NotImplementedError):
            with pytest.raises(zipdir.BadZip):
                list(zipdir.records(io.BytesIO(data)))
            continue
        _same_as_zipfile(data)
        checked += 1
    assert checked >= 10


# --- names that carry no encoding -----------------------------------------------------------

def legacy_zip(members: list[tuple[bytes, bytes]], *, flags: int = 0, unicode: dict[bytes, bytes] | None = None,
               bad_crc: bool = False) -> bytes:
    """Stored members named by raw bytes, written by hand: ``flags`` on every header (0x800 = UTF-8),
    and for the names in ``unicode`` an Info-ZIP Unicode Path field (0x7075) in the central record:
    version 1, the CRC-32 of the header's name bytes (spoilt by ``bad_crc``), the UTF-8 name."""
    import zlib

    local, central, offset = [], [], 0
    for name, data in members:
        extra = b""
        if unicode and name in unicode:
            crc = zlib.crc32(name) ^ (1 if bad_crc else 0)
            body = b"\x01" + struct.pack("<L", crc) + unicode[name]
            extra = struct.pack("<HH", 0x7075, len(body)) + body
        crc = zlib.crc32(data)
        fields = struct.pack("<HHHHIIIH", flags, 0, 0, 0x21, crc, len(data), len(data), len(name))
        head = b"PK\x03\x04" + struct.pack("<H", 20) + fields + struct.pack("<H", 0) + name
        central.append(b"PK\x01\x02" + struct.pack("<BBH", 20, 0, 20) + fields + struct.pack("<H", len(extra))
                       + struct.pack("<HHHII", 0, 0, 0, 0, offset) + name + extra)
        local.append(head + data)
        offset += len(head) + len(data)
    cd = b"".join(central)
    return b"".join(local) + cd + b"PK\x05\x06" + struct.pack("<4H2LH", 0, 0, len(members), len(members),
                                                              len(cd), offset, 0)


def _names(data: bytes) -> list[tuple[str, str | None]]:
    return [(rec.name, rec.name_encoding) for rec in zipdir.records(io.BytesIO(data))]


GBK = ["中文文件夹/报告.txt", "测试.txt", "新建文本文档.txt"]
#: (names, code page they are written in, what name_encoding must say)
LEGACY = [
    (GBK, "gbk", "cp936"),
    (["日本語.txt", "資料/会議録.docx", "テスト.txt"], "cp932", "cp932"),
    (["Привет.txt", "Документы/отчёт.doc", "список.csv"], "cp866", "cp866"),
    (["Übersicht.txt", "Größe/Änderung.doc", "résumé.pdf"], "cp437", "cp437"),
]


def test_unicode_path_field_names_a_gbk_member() -> None:
    """The 0x7075 field wins over the legacy bytes (the mojibake of issue 10), and no guess is made."""
    raw = [(n.encode("gbk"), SENTINEL) for n in GBK]
    data = legacy_zip(raw, unicode={r: n.encode() for (r, _), n in zip(raw, GBK, strict=True)})
    assert _names(data) == [(n, None) for n in GBK]
    assert "╞▀╕÷╖┐╝Σ" not in repr(_names(data))


def test_unicode_path_field_with_a_stale_crc_is_ignored() -> None:
    raw = [("报告.txt".encode("gbk"), SENTINEL)]
    data = legacy_zip(raw, unicode={raw[0][0]: b"WRONG.txt"}, bad_crc=True)
    assert _names(data) == [("报告.txt", "cp936")]


@pytest.mark.parametrize(("names", "codec", "label"), LEGACY, ids=[case[2] for case in LEGACY])
def test_legacy_names_are_guessed_per_archive(names: list[str], codec: str, label: str) -> None:
    data = legacy_zip([(n.encode(codec), SENTINEL) for n in names])
    assert _names(data) == [(n, label) for n in names]


@pytest.mark.parametrize(("names", "codec", "label"), LEGACY, ids=[case[2] for case in LEGACY])
def test_one_short_legacy_name_alone(names: list[str], codec: str, label: str) -> None:
    assert _names(legacy_zip([(names[0].encode(codec), SENTINEL)])) == [(names[0], label)]


def test_utf8_flag_and_unflagged_utf8() -> None:
    flagged = legacy_zip([(n.encode(), SENTINEL) for n in GBK], flags=0x800)
    assert _names(flagged) == [(n, None) for n in GBK]
    unflagged = legacy_zip([("Übersicht.txt".encode(), SENTINEL)])
    assert _names(unflagged) == [("Übersicht.txt", "utf-8")]


def test_ascii_and_unicode_names_never_import_the_detector() -> None:
    """guard-check reads names on its hot path: the detector loads only for a legacy non-ASCII name."""
    raw = [(n.encode("gbk"), SENTINEL) for n in GBK]
    with_field = legacy_zip(raw, unicode={r: n.encode() for (r, _), n in zip(raw, GBK, strict=True)})
    script = (
        "import io, sys\nfrom boundread.bytelevel import zipdir\n"
        f"for data in ({_zip({'a.txt': b'x', 'ü.txt': b'y'})!r}, {with_field!r}):\n"
        "    list(zipdir.records(io.BytesIO(data)))\n"
        "print('chardet' in sys.modules, 'boundread.bytelevel.names' in sys.modules)\n"
    )
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_legacy_member_is_found_by_its_decoded_name() -> None:
    names = ["会议纪要.txt", "数据.txt"]
    data = legacy_zip([(n.encode("gbk"), SENTINEL + n.encode()) for n in names])
    src = source_for_bytes("legacy.zip", data)
    lst = archive.listing(src, Request())
    assert [(e.name, e.name_encoding) for e in lst.entries] == [(n, "cp936") for n in names]
    assert sum("decoded by a guess (2 as cp936)" in w for w in lst.warnings) == 1
    assert archive.read_member(src, "数据.txt", Request()) == SENTINEL + "数据.txt".encode()


def test_cli_lists_guessed_names_and_extracts_by_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "gbk.zip"
    path.write_bytes(legacy_zip([(n.encode("gbk"), SENTINEL) for n in GBK]))
    human = run("list-zip", str(path))
    assert human.exit_code == 0, human.stderr
    assert all(n in human.stdout for n in GBK) and "╞" not in human.stdout
    assert (human.stdout + human.stderr).count("decoded by a guess") == 1
    as_json = run("list-zip", str(path), "--json")
    entries = json.loads(as_json.stdout)["entries"]
    assert [(e["name"], e["name_encoding"]) for e in entries] == [(n, "cp936") for n in GBK]
    got = run("extract", str(path), "--member", "测试.txt", "--stdout")
    assert got.exit_code == 0, got.stderr
    assert SENTINEL.decode() in got.stdout
