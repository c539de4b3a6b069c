"""What the guard tells Qwen Code and opencode to run, or runs for them, fits each one's own limits (agents/qwen.py,
agents/opencode.py: READ_MAX_LINES, SHELL_MAX_CHARS...): the same scenarios and checks as
test_suggestions_fit_client_limits.py, with each client's own payload (Qwen's as captured from 0.24.4, opencode's as
our plugin sends it).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from boundread import agents
from boundread.guard.reason import OPENING
from tests.hook.test_suggestions_fit_client_limits import (  # the scenarios, the fixture tree and the checks
    SCENARIOS,
    _answer,
    _check_command,
    _check_read,
    _check_shell,
    _commands,
    _limit,
    tree,  # noqa: F401 - a fixture, used by name
)


def _payload(client: str, root: Path, *, path: str = "", command: str = "") -> dict[str, Any]:
    if client == "qwen":
        tool, args = ("read_file", {"file_path": path}) if path else ("run_shell_command", {"command": command})
        return {"session_id": "s", "transcript_path": "/t", "cwd": str(root), "hook_event_name": "PreToolUse",
                "timestamp": "2026-12-02T00:00:00Z", "permission_mode": "yolo", "tool_name": tool,
                "tool_input": args, "tool_use_id": "u", "tool_call_id": "c"}
    tool, args = ("read", {"filePath": path}) if path else ("bash", {"command": command, "description": "d"})
    return {"hook_event_name": "tool.execute.before", "client": "opencode", "tool": tool, "cwd": str(root),
            "session_id": "s", "call_id": "c", "args": args}


@pytest.mark.parametrize("client", ["qwen", "opencode"])
@pytest.mark.parametrize(("scenario", "path", "command"), SCENARIOS)
def test_what_the_guard_suggests_fits_qwen_and_opencode(tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
                                                        client: str, scenario: str, path: str | None,
                                                        command: str) -> None:
    monkeypatch.setenv("BOUNDREAD_OUT_DIR", str(tmp_path / "out"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("BOUNDREAD_GUARD_MODE", raising=False)
    calls = [{"command": command}] + ([{"path": str(tree / path)}] if path else [])
    for call in calls:
        for mode in ("deny", "redirect"):
            answer = _answer(client, _payload(client, tree, **call), mode)
            what = f"{client} {scenario} {mode} {call}"
            assert answer["decision"] == "deny" or answer.get("updated_input"), f"{what}: allowed whole: {answer}"
            updated = answer.get("updated_input")
            if updated is not None:
                assert mode == "redirect" and agents.rewrites(client), what
                shell = updated.get("command")
                if isinstance(shell, str):
                    _check_shell(client, tree, shell)
                else:
                    _check_read(client, tree, Path(str(path)).name, updated)
            else:
                assert answer["reason"].startswith(OPENING), what
            for text in (answer.get("reason", ""), answer.get("context", "")):
                for suggested in _commands(text):
                    _check_command(client, suggested)
            said = re.search(r"at most (\d+) lines", answer.get("reason", ""))
            lines = _limit(client, "READ_MAX_LINES")
            assert said is None or lines is None or int(said.group(1)) <= lines, what
