"""An Outlook .msg (an OLE file) is named as such and not read: one line, exit 4, with the command that turns
it into an .eml that boundread reads. An OLE file named otherwise stays binary."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import run, run_json

from boundread.errors import ExitCode

OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 4000


def test_a_msg_is_named_with_the_conversion(tmp_path: Path) -> None:
    path = tmp_path / "note.msg"
    path.write_bytes(OLE)
    code, data = run_json("info", str(path))
    assert code == 0 and data["kind"] == "msg" and any("msgconvert" in w for w in data["warnings"])
    result = run("extract", str(path))
    assert result.exit_code == ExitCode.UNSUPPORTED and result.stdout == ""
    assert "Outlook .msg" in result.stderr and "msgconvert" in result.stderr and "note.eml" in result.stderr
    assert result.stderr.count("\n") == 1


def test_an_ole_file_named_otherwise_stays_binary(tmp_path: Path) -> None:
    path = tmp_path / "blob.bin"
    path.write_bytes(OLE)
    assert run_json("info", str(path))[1]["kind"] == "binary"
