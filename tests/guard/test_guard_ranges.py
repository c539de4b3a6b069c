"""Each agent's own range parameters bound a read, and a deny names that agent's parameters."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from boundread.agents import dialect
from boundread.hook.main import run


@pytest.fixture(scope="module")
def huge_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ranges") / "huge.log"
    path.write_text("2026-12-01T05:51:05Z INFO worker-3 request served in 12 ms\n" * 75_000)  # ~4.4 MB
    return path


def _gemini(path: Path, **tool_input: object) -> dict[str, object]:
    """The shape Gemini CLI 0.61 really sends (agent-hooks.md, "Captured from the real clients")."""
    return {"session_id": "g", "transcript_path": "/t/session.jsonl", "cwd": str(path.parent),
            "hook_event_name": "BeforeTool", "timestamp": "2026-12-01T05:51:05.205Z", "tool_name": "read_file",
            "tool_input": {"file_path": str(path), **tool_input}}


def _claude(path: Path, **tool_input: object) -> dict[str, object]:
    return {"session_id": "c", "transcript_path": "/t", "cwd": str(path.parent), "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": str(path), **tool_input},
            "tool_use_id": "toolu_1"}


def _copilot(path: Path, **tool_args: object) -> dict[str, object]:
    return {"timestamp": 1, "cwd": str(path.parent), "toolName": "view",
            "toolArgs": json.dumps({"path": str(path), **tool_args})}


def _answer(payload: dict[str, object], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = run([], io.StringIO(json.dumps(payload)))
    return code, capsys.readouterr().out.strip()


@pytest.mark.parametrize(("bounds", "allowed"), [
    ({"start_line": 1, "end_line": 100}, True),  # the real payload that was denied
    ({"start_line": 74_000, "end_line": 75_000}, True),
    ({"start_line": "1", "end_line": "100"}, True),
    ({"end_line": 100}, True),  # from the top
    ({"offset": 0, "limit": 100}, True),  # older Gemini docs
    ({}, False),
    ({"start_line": 1}, False),  # open-ended: to the end of the file
    ({"start_line": 1, "end_line": 50_000}, False),  # over the line cap
    ({"start_line": 100, "end_line": 1}, False),  # not a range
    ({"start_line": 0, "end_line": 100}, False),  # 1-based: line 0 does not exist
    ({"start_line": True, "end_line": 100}, False),
])
def test_gemini_start_line_end_line(huge_log: Path, bounds: dict[str, object], allowed: bool,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _answer(_gemini(huge_log, **bounds), capsys)
    assert code == 0
    body = json.loads(out)
    assert (body == {}) is allowed, body


def test_gemini_deny_names_start_line_end_line(huge_log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out = _answer(_gemini(huge_log), capsys)
    reason = json.loads(out)["reason"]
    assert "pass start_line/end_line" in reason and "offset" not in reason and "limit" not in reason
    assert "boundread extract huge.log --lines 1-500" in reason


def test_claude_deny_names_offset_limit(huge_log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out = _answer(_claude(huge_log), capsys)
    reason = json.loads(out)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "pass offset/limit" in reason and "start_line" not in reason
    assert _answer(_claude(huge_log, offset=1, limit=100), capsys) == (0, "")
    assert _answer(_claude(huge_log, offset=70_000), capsys)[1]  # an offset alone is not bounded


def test_copilot_view_range(huge_log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _answer(_copilot(huge_log, view_range=[1, 100]), capsys) == (0, "")
    _, out = _answer(_copilot(huge_log, view_range=[1, -1]), capsys)  # -1: to the end
    assert "pass view_range" in json.loads(out)["permissionDecisionReason"]


@pytest.mark.parametrize(("args", "expected"), [
    ({"offset": 5, "limit": 10}, (5, 10)),
    ({"start_line": 5, "end_line": 14}, (5, 10)),
    ({"end_line": 10}, (1, 10)),
    ({"start_line": 5}, (5, None)),
    ({"view_range": [3, 4]}, (3, 2)),
    ({"view_range": [3, -1]}, (None, None)),
    ({"start_line": "x", "end_line": 3}, (None, None)),
    ({}, (None, None)),
])
def test_read_range(args: dict[str, object], expected: tuple[object, object]) -> None:
    assert dialect.read_range(args) == expected
