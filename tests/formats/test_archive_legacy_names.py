"""Member names in the code page of the machine that made the archive (issue 22 item 4): zips without the UTF-8
flag and tars of raw bytes, in GBK, Big5, Shift-JIS, cp949, cp866 and cp1251, list their real names, and the
listing says they were guessed. Big5 (Taiwan, Hong Kong) was read as GBK with private-use characters until the
reference sweep's hunt found it."""

from __future__ import annotations

import io
import json
import tarfile
import zipfile
from pathlib import Path

import pytest
from tests.helpers import run

NAMES = {
    "gbk": (["中文文件名.txt", "资料/说明文件.txt", "会议纪要.doc"], "cp936"),
    "cp950": (["中文檔案名稱.txt", "資料/說明文件.txt", "會議記錄.doc"], "cp950"),
    "cp932": (["日本語のファイル.txt", "資料/説明書.txt", "議事録.doc"], "cp932"),
    "cp949": (["한국어 파일.txt", "자료/설명서.txt", "사진.jpg"], "cp949"),
    "cp866": (["Отчёт за квартал.txt", "Документы/Письмо.txt"], "cp866"),
    "cp1251": (["Отчёт за квартал.txt", "Документы/Письмо.txt"], "cp1251"),
}


class _RawName(zipfile.ZipInfo):
    """A zip entry whose name is written as the given bytes, without the UTF-8 flag (as old Windows tools did)."""

    __slots__ = ("raw",)

    def _encodeFilenameFlags(self) -> tuple[bytes, int]:
        return self.raw, self.flag_bits & ~0x800


def _zip(path: Path, names: list[str], codec: str) -> None:
    with zipfile.ZipFile(path, "w") as zf:
        for name in names:
            info = _RawName(name.encode(codec).decode("cp437"))
            info.raw = name.encode(codec)
            zf.writestr(info, f"sentinel {len(name)}\n")


def _tar(path: Path, names: list[str], codec: str) -> None:
    with tarfile.open(path, "w", format=tarfile.GNU_FORMAT, encoding=codec) as tf:
        for name in names:
            data = f"sentinel {len(name)}\n".encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))


@pytest.mark.parametrize("codec", sorted(NAMES))
@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_legacy_names_are_read_in_their_code_page_and_said_to_be_guessed(tmp_path: Path, codec: str,
                                                                        kind: str) -> None:
    names, label = NAMES[codec]
    path = tmp_path / f"names.{kind}"
    (_zip if kind == "zip" else _tar)(path, names, codec)
    result = run("list-zip", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [entry["name"] for entry in data["entries"]] == names
    assert {entry["name_encoding"] for entry in data["entries"]} == {label}
    assert any("decoded by a guess" in warning and label in warning for warning in data["warnings"])


@pytest.mark.parametrize("codec", ["cp1251", "gbk", "cp932"])
def test_a_pax_name_marked_binary_gets_the_code_page_guess(tmp_path: Path, codec: str) -> None:
    """GNU tar and Python write a name that is not UTF-8 into a pax header with ``hdrcharset=BINARY``: raw bytes,
    not UTF-8 with bad bytes. It was shown escaped (\\xce\\xf2...), and its leading backslash called it a
    zip slip; it is decoded by the guess like any legacy name."""
    names, label = NAMES[codec]
    path = tmp_path / "binary.tar"
    with tarfile.open(path, "w", format=tarfile.PAX_FORMAT, encoding="utf-8", errors="surrogateescape") as tf:
        for name in names:
            info = tarfile.TarInfo(name.encode(codec).decode("utf-8", "surrogateescape"))
            info.size = 3
            tf.addfile(info, io.BytesIO(b"ok\n"))
    assert b"hdrcharset=BINARY" in path.read_bytes()
    data = json.loads(run("list-zip", str(path), "--json").stdout)
    assert [entry["name"] for entry in data["entries"]] == names
    assert {entry["name_encoding"] for entry in data["entries"]} == {label}
    assert not any("escape" in warning for warning in data["warnings"]), data["warnings"]
