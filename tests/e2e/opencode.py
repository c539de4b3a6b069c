"""opencode (npm ``opencode-ai``) in ``opencode run`` mode against the fake Anthropic server.

Offline it needs a provider of its own in the user's ``opencode.json`` (``~/.config/opencode``): the bundled
``@ai-sdk/anthropic`` with ``baseURL`` pointing at the server's ``/v1`` and a dummy key, one model, and that model
picked with ``--model``; ``OPENCODE_DISABLE_MODELS_FETCH`` keeps it from asking models.dev. ``opencode run`` runs
the tools without asking (its default permissions allow reads and the shell inside the project). At start it
loads every ``.opencode/plugin/*.js`` - what ``boundread init --agent opencode`` writes.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.e2e.conftest import CLIENTS, PINS, Workspace, client
from tests.e2e.fakemodel.anthropic import Anthropic, text_of, tool_results
from tests.e2e.fakemodel.server import FakeModel

PACKAGE = "opencode-ai"
SDK = "@opencode-ai/plugin"
PROVIDER, MODEL = "fake", "claude-fake"


@dataclass
class OpencodeRun:
    process: subprocess.CompletedProcess[str]
    events: list[dict[str, Any]]

    @property
    def response(self) -> str:
        return "".join(str(event["part"].get("text", "")) for event in self.events
                       if event.get("type") == "text" and isinstance(event.get("part"), dict))

    def tool_states(self) -> list[dict[str, Any]]:
        """Each tool call's final state as opencode printed it: its input (after the plugin), output or error."""
        return [event["part"]["state"] for event in self.events if event.get("type") == "tool_use"]


def fake_model() -> FakeModel:
    return FakeModel([Anthropic()])


def user_config(workspace: Workspace, model: FakeModel) -> Path:
    """``~/.config/opencode/opencode.json``: the fake provider and model, no updates, no sharing."""
    folder = workspace.home / ".config" / "opencode"
    folder.mkdir(parents=True, exist_ok=True)
    config = {"$schema": "https://opencode.ai/config.json", "autoupdate": False, "share": "disabled",
              "provider": {PROVIDER: {"npm": "@ai-sdk/anthropic", "name": "Fake",
                                      "options": {"baseURL": model.url + "/v1", "apiKey": "opencode-e2e-fake"},
                                      "models": {MODEL: {"name": "fake", "tool_call": True}}}},
              "model": f"{PROVIDER}/{MODEL}"}
    path = folder / "opencode.json"
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    return path


def sdk_installed(folder: Path) -> None:
    """``folder`` as opencode's first start leaves it: its plugin SDK (the pinned ``@opencode-ai/plugin``)
    installed. opencode checks each of its config folders (the user's, the project's ``.opencode``) at every
    start, and where there is no ``node_modules`` it runs npm against the registry and waits for it before it
    loads the plugins: 8 s of every run here, a network call in an offline suite, and the likely cause of the
    runs that printed nothing for 180 s under the suite's load. Found installed (its package.json and lock
    naming it), the SDK is not fetched again."""
    folder.mkdir(parents=True, exist_ok=True)
    version = PINS[SDK]
    (folder / "package.json").write_text(json.dumps({"dependencies": {SDK: version}}, indent=2), encoding="utf-8")
    lock = {"name": folder.name, "lockfileVersion": 3, "requires": True,
            "packages": {"": {"dependencies": {SDK: version}}, f"node_modules/{SDK}": {"version": version}}}
    (folder / "package-lock.json").write_text(json.dumps(lock, indent=2), encoding="utf-8")
    link = folder / "node_modules" / SDK
    if not link.exists():
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(CLIENTS / "node_modules" / SDK, target_is_directory=True)


def run(workspace: Workspace, model: FakeModel, prompt: str, *args: str) -> OpencodeRun:
    """``opencode run PROMPT`` in the project; its JSON events."""
    exe = client("opencode", PACKAGE)
    client_sdk = CLIENTS / "node_modules" / SDK / "package.json"
    assert json.loads(client_sdk.read_text(encoding="utf-8"))["version"] == PINS[SDK], client_sdk
    config = user_config(workspace, model)
    for folder in (config.parent, workspace.project / ".opencode"):
        sdk_installed(folder)
    argv = [str(exe), "run", *args, "--format", "json", "--model", f"{PROVIDER}/{MODEL}", prompt]
    process = workspace.run(argv, OPENCODE_DISABLE_MODELS_FETCH="1", OPENCODE_DISABLE_AUTOUPDATE="1",
                            XDG_DATA_HOME=str(workspace.home / ".local" / "share"),
                            XDG_CACHE_HOME=str(workspace.home / ".cache"))
    assert process.returncode == 0, f"opencode exited {process.returncode}: {process.stderr[-2000:]}"
    events = [json.loads(line) for line in process.stdout.splitlines() if line.startswith("{")]
    return OpencodeRun(process, events)


def results(model: FakeModel, marker: str = "") -> list[str]:
    """The text of every tool result that reached the model in one conversation, in order (each once)."""
    return [text_of(block.get("content")) for exchange in model.loop(marker) for block in tool_results(exchange.body)]


def request_chars(model: FakeModel, marker: str = "") -> list[int]:
    """The size of each agent-loop request (characters of its JSON body): the input the model was sent."""
    return [len(json.dumps(exchange.body)) for exchange in model.loop(marker)]
