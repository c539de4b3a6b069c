"""The backstop's cap is the result goal (issue 19): no tool output over 25,000 tokens reaches the model.

25,000 tokens = 100,000 bytes of UTF-8 (4 a token, as boundread counts): in Claude Code, Gemini CLI and Codex
alike, each measured on what that client hands its model. The old cap was the guard's 256 kB text cap
(~64k tokens): a docx converted by pandoc, ~189k characters, passed under it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from boundread.guard.config import GuardConfig
from boundread.hook import posttool

LINE = "paragraph {n:06d}: the quarterly report says the numbers went up and then down again.\n"


def text_of(size: int) -> str:
    """About ``size`` bytes of ASCII text, in whole lines."""
    lines = size // len(LINE.format(n=0)) + 1
    return "".join(LINE.format(n=n) for n in range(lines))[:size]


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for key in list(os.environ):
        if key.startswith("BOUNDREAD_GUARD_") or key == "BOUNDREAD_OUT_DIR":
            monkeypatch.delenv(key)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))


def claude(cwd: Path, stdout: str) -> dict[str, Any]:
    return {"session_id": "s", "cwd": str(cwd), "hook_event_name": "PostToolUse", "tool_name": "Bash",
            "tool_input": {"command": "pandoc report.docx -t plain"},
            "tool_response": {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False}}


def gemini(cwd: Path, output: str) -> dict[str, Any]:
    return {"session_id": "s", "cwd": str(cwd), "hook_event_name": "AfterTool", "tool_name": "run_shell_command",
            "tool_input": {"command": "pandoc report.docx -t plain"},
            "tool_response": {"llmContent": f"Output: {output}", "returnDisplay": output}}


def codex(cwd: Path, output: str) -> dict[str, Any]:
    """Codex 0.171's PostToolUse for its shell tool: ``tool_response`` is the output as one string."""
    return {"session_id": "s", "turn_id": "t1", "cwd": str(cwd), "hook_event_name": "PostToolUse",
            "model": "gpt-5.5", "permission_mode": "bypassPermissions", "tool_name": "Bash",
            "tool_input": {"command": "pandoc report.docx -t plain"}, "tool_response": output,
            "tool_use_id": "call_1"}


def replaced_text(out: str) -> str:
    """The text the model gets in place of the output, from any client's answer."""
    body = json.loads(out)
    if "hookSpecificOutput" in body:
        return str(body["hookSpecificOutput"]["updatedToolOutput"]["stdout"])
    assert body["decision"] in ("deny", "block"), body
    return str(body["reason"])


CLIENTS = [claude, gemini, codex]


@pytest.mark.parametrize("client", CLIENTS)
def test_a_189k_character_docx_conversion_is_replaced_in_every_client(tmp_path: Path, client: Any) -> None:
    output = text_of(189_000)  # under the old 256 kB cap, ~47k tokens
    text = replaced_text(posttool.answer(client(tmp_path, output)))
    assert text.startswith("Not an error") and "over the 100.0 kB cap" in text and len(text) < 1500
    (saved,) = (tmp_path / "boundread-out").glob("*-output.*.txt")
    assert saved.read_text(encoding="utf-8") == output


@pytest.mark.parametrize("client", CLIENTS)
def test_an_output_under_25k_tokens_is_left_alone(tmp_path: Path, client: Any) -> None:
    assert posttool.answer(client(tmp_path, text_of(posttool.RESULT_BYTES - 200))) == ""


@pytest.mark.parametrize("client", CLIENTS)
def test_text_of_many_bytes_a_character_is_counted_in_bytes(tmp_path: Path, client: Any) -> None:
    output = "報告書の数字は上がってから下がった。\n" * 2_000  # 38,000 characters, 110,000 bytes
    assert len(output) < posttool.RESULT_BYTES < len(output.encode())
    assert replaced_text(posttool.answer(client(tmp_path, output))).startswith("Not an error")


def test_a_config_cannot_raise_the_cap_but_can_lower_it(tmp_path: Path) -> None:
    output = text_of(150_000)
    assert posttool.answer(claude(tmp_path, output), config=GuardConfig(text_max_bytes=10**9)) != ""
    assert posttool.cap(GuardConfig(text_max_bytes=10**9)) == posttool.RESULT_BYTES
    small = text_of(6_000)
    assert posttool.answer(claude(tmp_path, small)) == ""
    assert posttool.answer(claude(tmp_path, small), config=GuardConfig(text_max_bytes=4_000)) != ""


def test_codex_is_answered_with_a_block_whose_reason_is_the_short_answer(tmp_path: Path) -> None:
    body = json.loads(posttool.answer(codex(tmp_path, text_of(150_000))))
    assert set(body) == {"decision", "reason"} and body["decision"] == "block"
    assert "boundread extract" in body["reason"] and "--lines 1-200" in body["reason"]


def test_codex_mcp_content_parts_are_measured(tmp_path: Path) -> None:
    payload = {**codex(tmp_path, ""), "tool_name": "mcp__files__read",
               "tool_response": {"content": [{"type": "text", "text": text_of(150_000)}], "isError": False}}
    assert json.loads(posttool.answer(payload))["decision"] == "block"
    payload["tool_response"] = {"content": [{"type": "text", "text": "small"}]}
    assert posttool.answer(payload) == ""


def test_a_codex_output_cut_for_the_hook_is_judged_by_the_count_codex_gives(tmp_path: Path) -> None:
    """Codex hands the hook ~10,000 tokens of a big output, the model up to ``tool_output_token_limit``."""
    kept = "Warning: truncated output (original token count: 540000)\n... 1111424 bytes omitted ...\n\n"
    body = json.loads(posttool.answer(codex(tmp_path, kept + text_of(40_000))))
    assert body["decision"] == "block" and "Codex cut it from 540,000 tokens" in body["reason"]
    small = "Warning: truncated output (original token count: 12000)\n" + text_of(40_000)
    assert posttool.answer(codex(tmp_path, small)) == ""
