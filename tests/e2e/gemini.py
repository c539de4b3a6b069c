"""Gemini CLI (npm ``@google/gemini-cli``) in non-interactive mode against the fake Gemini API server.

Offline it needs: ``GOOGLE_GEMINI_BASE_URL`` pointing at the server, a dummy ``GEMINI_API_KEY``,
``security.auth.selectedType: "gemini-api-key"`` in ``~/.gemini/settings.json`` (else it asks how to log in),
and the project in ``~/.gemini/trustedFolders.json`` (else it runs no hook from its settings, and ``gemini -p``
refuses to start: exit 55, tests/e2e/test_gemini_trust.py). ``--approval-mode yolo`` runs every tool without
asking; the hooks still run first.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.e2e.conftest import Workspace, client
from tests.e2e.fakemodel.gemini import Gemini, function_responses, response_text
from tests.e2e.fakemodel.server import FakeModel

PACKAGE = "@google/gemini-cli"
MODEL = "gemini-2.5-pro"


@dataclass
class GeminiRun:
    process: subprocess.CompletedProcess[str]
    result: dict[str, Any]

    @property
    def response(self) -> str:
        return str(self.result.get("response") or "")

    @property
    def session_id(self) -> str:
        return str(self.result["session_id"])


def fake_model() -> FakeModel:
    return FakeModel([Gemini()])


def user_settings(workspace: Workspace, *, trusted: bool = True, **extra: Any) -> Path:
    """``~/.gemini/settings.json`` and (``trusted``) ``trustedFolders.json`` in the throwaway HOME: API key auth,
    the project trusted, no telemetry, update checks or usage statistics."""
    folder = workspace.home / ".gemini"
    folder.mkdir(parents=True, exist_ok=True)
    settings: dict[str, Any] = {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "general": {"disableAutoUpdate": True, "disableUpdateNag": True, "enableAutoUpdate": False,
                    "enableAutoUpdateNotification": False},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "ui": {"hideTips": True, "hideBanner": True},
    }
    settings.update(extra)
    path = folder / "settings.json"
    path.write_text(json.dumps(settings, indent=2), encoding="utf-8")
    if trusted:
        rules = {str(workspace.project): "TRUST_FOLDER"}
        (folder / "trustedFolders.json").write_text(json.dumps(rules, indent=2), encoding="utf-8")
    return path


def run(workspace: Workspace, model: FakeModel, prompt: str, *args: str, llm: str | None = MODEL,
        expect: int = 0) -> GeminiRun:
    """``gemini ARGS -p PROMPT`` in the project; the run's JSON result. ``llm=None`` leaves the model to the client
    (its default "auto" routes each turn with a side request first); ``expect``: the exit status it must have
    (another than 0: no JSON result is read)."""
    exe = client("gemini", PACKAGE)
    if not (workspace.home / ".gemini" / "settings.json").is_file():
        user_settings(workspace)
    argv = [str(exe), *args, "-p", prompt, "--approval-mode", "yolo", "--output-format", "json"]
    process = workspace.run(argv + (["--model", llm] if llm else []),
                            GOOGLE_GEMINI_BASE_URL=model.url, GEMINI_API_KEY="gemini-e2e-fake",
                            GEMINI_CLI_NO_RELAUNCH="true")
    assert process.returncode == expect, f"gemini exited {process.returncode}: {process.stderr[-2000:]}"
    return GeminiRun(process, json.loads(process.stdout) if expect == 0 else {})


def results(model: FakeModel, marker: str = "") -> list[str]:
    """The text of every tool result (functionResponse) that reached the model in one conversation, in order."""
    return [response_text(r) for e in model.loop(marker) for r in function_responses(e.body)]


def side_requests(model: FakeModel) -> list[str]:
    """The paths of the requests outside the agent loop (model routing, token counts), in order."""
    return [e.path for e in model.log if e.usage is None]
