"""An encrypted Parquet file (Parquet Modular Encryption, encrypted footer: ``PARE`` at both ends) is named a Parquet
file that is encrypted - `info` says so, `extract` exits 5 with the fix, the guard names only `info` - never
"binary data" (exit 4); a text file that starts "PARE" stays text."""

from __future__ import annotations

import os
from pathlib import Path

from tests.helpers import run_json

from boundread.errors import ExitCode
from boundread.guard import check_read
from boundread.guard.config import GuardConfig


def _encrypted(path: Path) -> Path:
    footer = os.urandom(300)  # an encrypted footer is noise to anyone without the key
    path.write_bytes(b"PARE" + os.urandom(2_000) + footer + len(footer).to_bytes(4, "little") + b"PARE")
    return path


def test_info_names_an_encrypted_parquet_file(tmp_path: Path) -> None:
    code, data = run_json("info", str(_encrypted(tmp_path / "sales.parquet.encrypted")))
    assert code == 0 and data["kind"] == "parquet", data
    assert data["problem"]["exit_code"] == ExitCode.ENCRYPTED and "encrypted Parquet" in data["problem"]["message"]


def test_extract_and_chunks_exit_encrypted_naming_the_fix(tmp_path: Path) -> None:
    path = str(_encrypted(tmp_path / "sales.parquet"))
    for command in (["extract", path], ["sheets", path, "--rows", "1-5"], ["chunks", path]):
        code, data = run_json(*command)
        assert code == ExitCode.ENCRYPTED, (command, data)
        assert "CryptoFactory" in data["error"]["message"], data


def test_the_guard_names_only_info_for_an_encrypted_parquet_file(tmp_path: Path) -> None:
    path = _encrypted(tmp_path / "sales.parquet")
    decision = check_read(str(path), cwd=tmp_path, config=GuardConfig(text_max_bytes=1_024))
    assert decision.decision == "deny"
    assert "boundread info sales.parquet" in decision.reason and "--rows" not in decision.reason, decision.reason


def test_a_text_file_that_starts_with_pare_stays_text(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("PARE notes: the parent reviews\n" * 10, encoding="utf-8")
    code, data = run_json("info", str(path))
    assert code == 0 and data["kind"] == "text", data
