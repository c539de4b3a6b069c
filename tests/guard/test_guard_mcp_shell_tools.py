"""MCP servers that run shell commands (``mcp__shell__execute_command``, desktop-commander's ``start_process``,
Gemini's ``mcp_<server>_<tool>``): their ``command`` is judged as a Bash command is, since its output comes
back into the conversation the same way (issue 19 part 5)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from boundread import agents
from boundread.agents import dialect
from boundread.hook.main import run


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mcp")
    (root / "big.log").write_text("2026-03-01 INFO worker started a job\n" * 20_000)  # ~740 KB
    (root / "small.txt").write_text("hello\n")
    return root


def _decision(tool: str, cwd: Path, agent: str = "claude", **tool_input: object) -> str:
    payload = {"session_id": "s", "transcript_path": "/t", "cwd": str(cwd), "hook_event_name": "PreToolUse",
               "tool_name": tool, "tool_input": tool_input}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert run(["--agent", agent], io.StringIO(json.dumps(payload))) == 0
    text = out.getvalue().strip()
    if not text or text == "{}":
        return "allow"
    body = json.loads(text)
    return str(body.get("hookSpecificOutput", body).get("permissionDecision") or body.get("decision") or "allow")


@pytest.mark.parametrize("tool", ["mcp__shell__execute_command", "mcp__desktop-commander__start_process",
                                  "mcp__bash__bash", "mcp__terminal__execute", "mcp__commands__run_command"])
def test_an_mcp_shell_tool_that_dumps_a_big_file_is_denied(tool: str, folder: Path) -> None:
    assert _decision(tool, folder, command="cat big.log") == "deny"


@pytest.mark.parametrize("command", ["cat small.txt", "wc -l big.log", "head -n 20 big.log", "ls -la"])
def test_an_mcp_shell_tool_doing_everyday_work_is_allowed(command: str, folder: Path) -> None:
    assert _decision("mcp__shell__execute_command", folder, command=command) == "allow"


def test_an_argv_list_is_one_command_line(folder: Path) -> None:
    call = agents.parse({"cwd": str(folder), "tool_name": "mcp__shell__run", "tool_input":
                           {"cmd": ["cat", "big.log"]}}, "claude")
    assert (call.action, call.command) == (dialect.COMMAND, "cat big.log")


def test_gemini_names_mcp_tools_with_one_underscore(folder: Path) -> None:
    call = agents.parse({"cwd": str(folder), "tool_name": "mcp_shell_execute_command",
                           "tool_input": {"command": "cat big.log"}}, "gemini")
    assert call.action == dialect.COMMAND


def test_other_tools_with_a_command_key_are_not_commands(folder: Path) -> None:
    """Only an MCP tool's command is a shell command; a built-in tool of another name keeps its own meaning."""
    call = agents.parse({"cwd": str(folder), "tool_name": "SlashCommand", "tool_input": {"command": "cat big.log"}},
                          "claude")
    assert call.action == dialect.OTHER
    empty = agents.parse({"cwd": str(folder), "tool_name": "mcp__shell__run", "tool_input": {"command": ""}},
                           "claude")
    assert empty.action == dialect.OTHER
