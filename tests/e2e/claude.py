"""Claude Code (npm ``@anthropic-ai/claude-code``) in print mode against the fake Anthropic server."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.e2e.conftest import Workspace, client
from tests.e2e.fakemodel.anthropic import Anthropic, tool_results
from tests.e2e.fakemodel.server import FakeModel

PACKAGE = "@anthropic-ai/claude-code"


@dataclass
class ClaudeRun:
    process: subprocess.CompletedProcess[str]
    result: dict[str, Any]

    @property
    def session_id(self) -> str:
        return str(self.result["session_id"])


def fake_model() -> FakeModel:
    return FakeModel([Anthropic()])


TOOLS = "Read,Bash,Agent"


def run(workspace: Workspace, model: FakeModel, prompt: str) -> ClaudeRun:
    """``claude -p PROMPT`` in the project; the run's JSON result."""
    return run_args(workspace, model, ["-p", prompt])


def run_args(workspace: Workspace, model: FakeModel, argv: list[str]) -> ClaudeRun:
    """``claude ARGV`` in the project. Root may not skip permissions: ``--allowedTools`` lets the scripted
    calls through without a prompt."""
    exe = client("claude", PACKAGE)
    process = workspace.run([str(exe), *argv, "--allowedTools", TOOLS, "--output-format", "json"],
                            ANTHROPIC_BASE_URL=model.url, ANTHROPIC_API_KEY="sk-ant-e2e-fake")
    assert process.returncode == 0, f"claude exited {process.returncode}: {process.stderr[-2000:]}"
    return ClaudeRun(process, json.loads(process.stdout))


def results(model: FakeModel, marker: str = "") -> list[str]:
    """The text of every tool result that reached the model in one conversation, in order."""
    out = []
    for exchange in model.loop(marker):
        for block in tool_results(exchange.body):
            content = block.get("content", "")
            if isinstance(content, list):
                content = "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
            out.append(str(content))
    return out


def last_user_text(model: FakeModel, marker: str = "") -> list[str]:
    """Every text block the client put in the user turns of one conversation (hook context arrives there)."""
    out = []
    for exchange in model.loop(marker):
        for message in exchange.body.get("messages") or []:
            if message.get("role") == "user" and isinstance(message.get("content"), list):
                out += [str(b.get("text", "")) for b in message["content"] if b.get("type") == "text"]
    return out


def transcripts(workspace: Workspace) -> list[Path]:
    return sorted((workspace.home / ".claude" / "projects").rglob("*.jsonl"))


def stop_reasons(workspace: Workspace) -> list[str]:
    """The reasons Claude Code logged for hooks that ended the session (``continue: false``), in order: it shows
    them to the user, not in the ``-p`` JSON result (there ``terminal_reason`` is ``hook_stopped``)."""
    found = []
    for path in transcripts(workspace):
        for line in path.read_text(encoding="utf-8").splitlines():
            if '"hook_stopped_continuation"' not in line:
                continue
            attachment = json.loads(line).get("attachment") or {}
            if attachment.get("type") == "hook_stopped_continuation":
                found.append(str(attachment.get("message", "")))
    return found
