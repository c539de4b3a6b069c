"""The guard's sniff of a text file's shape (guard/facts.py text_shape: a BOM, the zero bytes of UTF-16/32,
CR-only line ends) runs on the hook path, so it stays cheap: the deny of a big UTF-16 or CR-only file through the
console script names the text's own line count and imports nothing slow (re, json, dataclasses...)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hook.test_speed import CONSOLE, SLOW
from tests.hookproject import guard_env

LINE = "2026-11-29T08:00:00Z INFO worker request served in 12 ms\n"


def _guard(path: Path) -> tuple[set[str], str]:
    payload = {"session_id": "shape", "transcript_path": "/t", "cwd": str(path.parent),
               "hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": str(path)},
               "tool_use_id": "t1"}
    result = subprocess.run([sys.executable, "-X", "importtime", "-c", CONSOLE], input=json.dumps(payload),
                            capture_output=True, text=True, env=guard_env(), cwd=path.parent, timeout=60, check=True)
    names = {line.split("|")[-1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}
    return names, result.stdout


@pytest.mark.parametrize(("name", "data"), [
    ("utf16.log", (LINE * 20_000).encode("utf-16")),  # 2.2 MB
    ("utf32.log", (LINE * 10_000).encode("utf-32-le")),  # 2.2 MB, no BOM
    ("mac.log", (LINE * 20_000).replace("\n", "\r").encode()),  # 1.1 MB, CR-only
])
def test_a_deny_of_a_unicode_or_cr_only_file_counts_its_lines_and_imports_nothing_slow(
        tmp_path: Path, name: str, data: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    names, out = _guard(path)
    assert "deny" in out, out
    lines = 20_000 if name != "utf32.log" else 10_000
    said = json.loads(out)["hookSpecificOutput"]["permissionDecisionReason"]
    counted = int(said.split(" lines")[0].rsplit("~", 1)[1].replace(",", ""))
    assert abs(counted - lines) < lines * 0.05, said
    assert not names & SLOW, sorted(names & SLOW)
