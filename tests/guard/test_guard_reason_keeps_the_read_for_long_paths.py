"""A deny reason is kept short (MAX_REASON characters), and a long path is in it once per command: over the
bound, the closing advice goes before a command does. With a path of ~90 characters (a pytest worker's temp
folder) the Parquet deny named only ``boundread info``, one call short of the rows the agent wanted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.formats.parquet_fixtures import make_events
from tests.helpers import run, tiny_pdf

from boundread.guard.reason import MAX_REASON


def _deep(tmp_path: Path, length: int) -> Path:
    folder = tmp_path / ("d" * max(1, length - len(str(tmp_path)) - 12))
    folder.mkdir()
    return folder


@pytest.mark.parametrize("length", [40, 100, 140])
def test_the_main_read_stays_when_the_path_is_long(tmp_path: Path, length: int) -> None:
    path = make_events(_deep(tmp_path, length) / "ev.parquet")
    event = {"tool_name": "Read", "tool_input": {"file_path": str(path)}}
    result = run("guard-check", "--agent", "claude", input=json.dumps(event))
    reason = json.loads(result.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert f"boundread sheets {path} --rows 1-50" in reason and f"boundread info {path}" in reason
    assert len(reason) <= MAX_REASON


def test_a_short_path_keeps_the_closing_advice(tmp_path: Path) -> None:
    path = _deep(tmp_path, 40) / "doc.pdf"
    path.write_bytes(tiny_pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"])
                     + b"%" + b"x" * 400_000)
    event = {"tool_name": "Read", "tool_input": {"file_path": str(path)}}
    reason = json.loads(run("guard-check", "--agent", "claude", input=json.dumps(event)).stdout)[
        "hookSpecificOutput"]["permissionDecisionReason"]
    assert "ask the user which part they need" in reason and f"boundread pages {path} 1-5" in reason
