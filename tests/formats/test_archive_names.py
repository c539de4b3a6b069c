"""Archive member names are never empty and never a wholesale cp437 reading (issue 22, item 4).

Archives are generated here: zips whose real names live in the Info-ZIP Unicode Path extra field (0x7075)
behind an ASCII placeholder or an empty header name (as some Windows tools write them), one whose field's CRC
does not match (ignored, as the APPNOTE says), and tars whose names are UTF-8 with a raw byte (pax and GNU).
"""

from __future__ import annotations

import io
import json
import struct
import tarfile
import zipfile
import zlib
from pathlib import Path

from tests.helpers import run

from boundread.bytelevel.names import Decoder, escaped_utf8, mostly_utf8


def _unicode_path(header: bytes, real: str, crc: int | None = None) -> bytes:
    encoded = real.encode()
    return struct.pack("<HHBI", 0x7075, 5 + len(encoded), 1, zlib.crc32(header) if crc is None else crc) + encoded


def _listing(path: Path) -> tuple[list[dict[str, object]], list[str]]:
    result = run("list-zip", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    return data["entries"], data["warnings"]


def _member(path: Path, name: str) -> str:
    result = run("extract", str(path), "--member", name, "--stdout", "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)["text"]  # type: ignore[no-any-return]


def test_the_unicode_path_field_wins_over_a_placeholder_or_empty_name(tmp_path: Path) -> None:
    path = tmp_path / "names.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for header, real, crc in ((b"????.txt", "отчёт.txt", None), (b"", "пусто.txt", None),
                                  (b"kept.txt", "stale.txt", 12345)):
            info = zipfile.ZipInfo(header.decode())
            info.extra = _unicode_path(header, real, crc)
            zf.writestr(info, f"sentinel {real}")
    entries, warnings = _listing(path)
    assert [e["name"] for e in entries] == ["отчёт.txt", "пусто.txt", "kept.txt"]  # a stale field is ignored
    assert all(e["name_encoding"] is None for e in entries)
    assert not warnings
    assert _member(path, "пусто.txt").strip() == "sentinel пусто.txt"


def _tar(path: Path, names: list[str], fmt: int, encoding: str = "utf-8") -> None:
    with tarfile.open(path, "w", format=fmt, encoding=encoding, errors="surrogateescape") as tf:
        for name in names:
            info = tarfile.TarInfo(name)
            data = f"sentinel {len(name)}".encode()
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))


def test_a_tar_name_of_utf8_with_a_raw_byte_is_escaped_and_flagged(tmp_path: Path) -> None:
    pax = tmp_path / "pax.tar"  # pax paths are UTF-8 by the standard: one stray byte is not a code page
    _tar(pax, ["données-\udce9té.txt", "plain.txt"], tarfile.PAX_FORMAT)
    entries, warnings = _listing(pax)
    assert [e["name"] for e in entries] == ["données-\\xe9té.txt", "plain.txt"]
    assert entries[0]["name_encoding"] == "utf-8, invalid bytes as \\xNN"
    assert any(w.startswith("1 name(s) hold bytes that are not valid UTF-8, shown as \\xNN") for w in warnings)
    assert not any("guess" in w for w in warnings)
    assert _member(pax, "données-\\xe9té.txt").startswith("sentinel")

    gnu = tmp_path / "gnu.tar"  # raw header bytes, mostly UTF-8
    _tar(gnu, ["résumé-\udcff.txt", "中文-\udcb0.txt"], tarfile.GNU_FORMAT)
    entries, _ = _listing(gnu)
    assert [e["name"] for e in entries] == ["résumé-\\xff.txt", "中文-\\xb0.txt"]


def test_a_legacy_tar_name_still_gets_its_code_page(tmp_path: Path) -> None:
    gbk = tmp_path / "gbk.tar"
    _tar(gbk, ["中文文件名.txt", "报告.txt"], tarfile.GNU_FORMAT, "gbk")
    entries, warnings = _listing(gbk)
    assert [e["name"] for e in entries] == ["中文文件名.txt", "报告.txt"]
    assert {e["name_encoding"] for e in entries} == {"cp936"}
    assert any("decoded by a guess (2 as cp936)" in w for w in warnings)


def test_the_name_rules() -> None:
    assert mostly_utf8("données-".encode() + b"\xe9")
    assert not mostly_utf8("中文文件名".encode("gbk"))
    assert not mostly_utf8(b"plain")
    assert escaped_utf8(b"a-\xff\xfe-" + "é".encode()) == "a-\\xff\\xfe-é"
    assert Decoder().decode("中文文件名.txt".encode("gbk"))[1] == "cp936"


def _gnu_tar(path: Path, entries: list[tuple[bytes, bytes]]) -> Path:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT, encoding="utf-8",
                      errors="surrogateescape") as tf:
        for raw, data in entries:
            info = tarfile.TarInfo(raw.decode("utf-8", "surrogateescape"))
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    path.write_bytes(buf.getvalue())
    return path


def test_a_tar_entry_with_no_name_is_listed_by_place_and_read(tmp_path: Path) -> None:
    path = _gnu_tar(tmp_path / "odd.tar", [(b"", b"SENTINEL nameless\n"), (b"ok.txt", b"fine\n")])
    entries, warnings = _listing(path)
    assert [entry["name"] for entry in entries] == ["(entry 1, no name)", "ok.txt"]
    assert entries[0]["warnings"] == ["no name in the tar"] and any("no name in the tar" in w for w in warnings)
    done = run("extract", str(path), "--member", "(entry 1, no name)", "--stdout")
    assert done.exit_code == 0 and "SENTINEL nameless" in done.stdout


def test_a_western_tar_name_is_not_read_as_cp437(tmp_path: Path) -> None:
    """A Latin-1 "café" in a tar was "cafΘ" (cp437, the zip default); cp437 names stay cp437."""
    latin = _gnu_tar(tmp_path / "latin.tar", [("café.txt".encode("cp1252"), b"x")])
    assert [(e["name"], e["name_encoding"]) for e in _listing(latin)[0]] == [("café.txt", "cp1252")]
    dos = _gnu_tar(tmp_path / "dos.tar", [("Résumé.txt".encode("cp437"), b"x")])
    assert [(e["name"], e["name_encoding"]) for e in _listing(dos)[0]] == [("Résumé.txt", "cp437")]
    assert Decoder().decode("café".encode("cp1252")) == ("café", "cp1252")  # a zip's too: Latin letters win
