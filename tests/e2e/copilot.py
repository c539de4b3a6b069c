"""GitHub Copilot CLI (npm ``@github/copilot``) in prompt mode against the fake Anthropic server.

Offline it needs: ``COPILOT_OFFLINE=true``, ``COPILOT_PROVIDER_BASE_URL`` pointing at the server,
``COPILOT_PROVIDER_TYPE=anthropic`` and a model name (``COPILOT_MODEL``; any name works, the catalogue's gives its
token limits); ``--allow-all-tools`` runs every tool without asking (the hooks still run first). It runs the
project's ``.github/hooks/*.json`` only in a trusted folder: ``--trust-folder`` for one run, or
``trustedFolders`` in ``~/.copilot/config.json`` (:func:`trust`). Its native part (about 235 MB) unpacks into
``$XDG_CACHE_HOME/copilot/pkg`` on first start: one cache for every test, not one per throwaway HOME.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.e2e.conftest import PINS, Workspace, client
from tests.e2e.fakemodel.anthropic import Anthropic
from tests.e2e.fakemodel.server import FakeModel

PACKAGE = "@github/copilot"
MODEL = "claude-sonnet-4.5"
#: Where Copilot unpacks its native part, shared by the tests of one machine and pinned version.
CACHE = Path(tempfile.gettempdir()) / f"boundread-e2e-copilot-{PINS[PACKAGE]}"
#: How Copilot CLI opens the text a preToolUse hook's ``additionalContext`` adds for the model.
HOOK_CONTEXT = "Additional context from preToolUse hook:"


@dataclass
class CopilotRun:
    process: subprocess.CompletedProcess[str]
    events: list[dict[str, Any]]  # --output-format json: one event a line

    @property
    def session_id(self) -> str:
        return str(next(e.get("sessionId") for e in self.events if e.get("type") == "result"))


def fake_model() -> FakeModel:
    return FakeModel([Anthropic()])


def trust(workspace: Workspace, folder: Path | None = None) -> Path:
    """``folder`` (the project) in ``trustedFolders`` of the throwaway HOME's ``~/.copilot/config.json``."""
    path = workspace.home / ".copilot" / "config.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"trustedFolders": [str(folder or workspace.project)]}), encoding="utf-8")
    return path


def run(workspace: Workspace, model: FakeModel, prompt: str, *args: str, expect: int = 0) -> CopilotRun:
    """``copilot -p PROMPT ARGS`` in the project; its JSON events."""
    exe = client("copilot", PACKAGE)
    argv = [str(exe), "-p", prompt, "--allow-all-tools", "--no-auto-update", "--disable-client-telemetry",
            "--output-format", "json", *args]
    process = workspace.run(argv, COPILOT_OFFLINE="true", COPILOT_PROVIDER_BASE_URL=model.url,
                            COPILOT_PROVIDER_TYPE="anthropic", COPILOT_PROVIDER_API_KEY="copilot-e2e-fake",
                            COPILOT_MODEL=MODEL, XDG_CACHE_HOME=str(CACHE))
    assert process.returncode == expect, f"copilot exited {process.returncode}: {process.stderr[-2000:]}"
    events = [json.loads(line) for line in process.stdout.splitlines() if line.startswith("{")]
    return CopilotRun(process, events)


def results(model: FakeModel, marker: str = "") -> list[str]:
    """The text of every tool result that reached the model in one conversation, in order (from the last request's
    history: Copilot puts a hook's context in a user message after the tool result, so the last user message of
    a request need not hold it)."""
    loop = model.loop(marker)
    if not loop:
        return []
    out = []
    for message in loop[-1].body.get("messages") or []:
        if message.get("role") != "user" or not isinstance(message.get("content"), list):
            continue
        for block in message["content"]:
            if block.get("type") != "tool_result":
                continue
            content = block.get("content", "")
            if isinstance(content, list):
                content = "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
            out.append(str(content))
    return out


def hook_context(model: FakeModel, marker: str = "") -> list[str]:
    """Every text a preToolUse hook added (``additionalContext``), as the last request of the conversation holds
    them (Copilot puts each in a user message of its own after the tool result)."""
    loop = model.loop(marker)
    if not loop:
        return []
    found = []
    for message in loop[-1].body.get("messages") or []:
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, list):
            found += [str(b.get("text", "")) for b in content
                      if b.get("type") == "text" and str(b.get("text", "")).startswith(HOOK_CONTEXT)]
    return found


def calls(model: FakeModel, marker: str = "") -> list[dict[str, Any]]:
    """The tool calls as Copilot shows them to the model in its history (a rewritten call with its new input)."""
    loop = model.loop(marker)
    if not loop:
        return []
    return [{"name": b.get("name"), **(b.get("input") or {})} for m in loop[-1].body.get("messages") or []
            if m.get("role") == "assistant" and isinstance(m.get("content"), list)
            for b in m["content"] if b.get("type") == "tool_use"]
