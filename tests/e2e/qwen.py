"""Qwen Code (npm ``@qwen-code/qwen-code``) in non-interactive mode against the fake OpenAI Chat Completions server.

Offline it needs ``OPENAI_BASE_URL`` pointing at the server's ``/v1``, a dummy ``OPENAI_API_KEY``, ``OPENAI_MODEL``
and ``security.auth.selectedType: "openai"`` in ``~/.qwen/settings.json``. ``--approval-mode yolo`` runs every tool
without asking; the PreToolUse hooks still run first. Its JSON output is a list of events, the last one the
result.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.e2e.conftest import Workspace, client
from tests.e2e.fakemodel.openai_chat import OpenAIChat, tool_results
from tests.e2e.fakemodel.server import FakeModel

PACKAGE = "@qwen-code/qwen-code"
MODEL = "qwen3-coder-plus"


@dataclass
class QwenRun:
    process: subprocess.CompletedProcess[str]
    events: list[dict[str, Any]]

    @property
    def result(self) -> dict[str, Any]:
        return next((event for event in reversed(self.events) if event.get("type") == "result"), {})

    @property
    def response(self) -> str:
        return str(self.result.get("result") or "")


def fake_model() -> FakeModel:
    return FakeModel([OpenAIChat()])


def user_settings(workspace: Workspace, **extra: Any) -> Path:
    """``~/.qwen/settings.json`` in the throwaway HOME: OpenAI-compatible auth, no telemetry or update checks."""
    folder = workspace.home / ".qwen"
    folder.mkdir(parents=True, exist_ok=True)
    settings: dict[str, Any] = {"security": {"auth": {"selectedType": "openai"}},
                                "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
                                "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False}}
    settings.update(extra)
    path = folder / "settings.json"
    path.write_text(json.dumps(settings, indent=2), encoding="utf-8")
    return path


def run(workspace: Workspace, model: FakeModel, prompt: str, *args: str, mode: str = "yolo") -> QwenRun:
    """``qwen -p PROMPT`` in the project; its JSON events."""
    exe = client("qwen", PACKAGE)
    if not (workspace.home / ".qwen" / "settings.json").is_file():
        user_settings(workspace)
    argv = [str(exe), *args, "-p", prompt, "--approval-mode", mode, "--output-format", "json"]
    process = workspace.run(argv, OPENAI_BASE_URL=model.url + "/v1", OPENAI_API_KEY="qwen-e2e-fake",
                            OPENAI_MODEL=MODEL, QWEN_CODE_SUPPRESS_YOLO_WARNING="1")
    assert process.returncode == 0, f"qwen exited {process.returncode}: {process.stderr[-2000:]}"
    events = json.loads(process.stdout)
    return QwenRun(process, events if isinstance(events, list) else [events])


def results(model: FakeModel, marker: str = "") -> list[str]:
    """The text of every tool message that reached the model in one conversation, in order."""
    return tool_results(model, marker)


def sent_chars(model: FakeModel, marker: str = "") -> list[int]:
    """The size of each agent-loop request's messages (characters of JSON): the input the model was sent."""
    return [len(json.dumps(exchange.body.get("messages") or [])) for exchange in model.loop(marker)]
