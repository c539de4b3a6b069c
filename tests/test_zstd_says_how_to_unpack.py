"""A zstd-compressed file (.zst, .tar.zst) is said to be compressed, with the command that unpacks it, and is
still unsupported (exit 4): never called "binary data" (sweep request 6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.errors import ExitCode
from tests.helpers import run, run_json

FRAME = b"\x28\xb5\x2f\xfd\x24\x05\x29\x00\x00hello\x00\x00\x00\x00"  # a zstd frame's magic and header


@pytest.mark.parametrize(("name", "fix"), [
    ("logs.tar.zst", "tar --zstd -xf logs.tar.zst"),
    ("dump.zst", "zstd -d dump.zst"),
    ("my dump.zst", "zstd -d 'my dump.zst'"),
])
def test_extract_names_zstd_and_how_to_unpack(tmp_path: Path, name: str, fix: str) -> None:
    path = tmp_path / name
    path.write_bytes(FRAME)
    result = run("extract", str(path))
    assert result.exit_code == ExitCode.UNSUPPORTED
    assert "zstd-compressed" in result.stderr and fix in result.stderr
    assert "binary data" not in result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == ""


def test_info_warns_with_the_unpack_command(tmp_path: Path) -> None:
    path = tmp_path / "logs.tar.zst"
    path.write_bytes(FRAME)
    code, data = run_json("info", str(path))
    assert code == 0
    assert any("tar --zstd -xf logs.tar.zst" in w for w in data["warnings"])
    assert not any("binary data" in w for w in data["warnings"])
