"""guard-check on a zip with 100,000 entries: the count comes from the end record, zipfile never loads."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.bytelevel.test_zipdir import many_zip
from tests.hookproject import guard_env

from boundread.guard import facts

CONSOLE = "import sys; sys.argv[1:] = ['guard-check']; from boundread.__main__ import main; main()"


def test_zip_deny_reason_counts_entries_without_zipfile(tmp_path: Path) -> None:
    path = tmp_path / "many.zip"
    path.write_bytes(many_zip(100_000))
    payload = {"session_id": "zip", "transcript_path": "/t", "cwd": str(tmp_path), "hook_event_name": "PreToolUse",
               "tool_name": "Read", "tool_input": {"file_path": str(path)}, "tool_use_id": "t1"}
    result = subprocess.run([sys.executable, "-X", "importtime", "-c", CONSOLE], input=json.dumps(payload),
                            capture_output=True, text=True, env=guard_env(), cwd=tmp_path, timeout=60, check=True)
    names = {line.split("|")[-1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}
    assert "deny" in result.stdout and "100000 entries" in result.stdout
    assert "boundread.bytelevel.zipdir" in names and "zipfile" not in names


def test_zip_summary_sums_small_directories_and_skips_long_ones(tmp_path: Path) -> None:
    small, big = tmp_path / "small.zip", tmp_path / "big.zip"
    with zipfile.ZipFile(small, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("a.txt", b"a" * 100)
        zf.writestr("b.txt", b"b" * 50)
    big.write_bytes(many_zip(facts.ZIP_SUM_RECORDS + 1))
    assert facts.zip_summary(small) == (2, 150)
    assert facts.zip_summary(big) == (facts.ZIP_SUM_RECORDS + 1, None)
    (tmp_path / "bad.zip").write_bytes(b"PK\x03\x04" + bytes(100))
    assert facts.zip_summary(tmp_path / "bad.zip") is None
