"""Codex CLI (npm ``@openai/codex``) in ``codex exec`` mode against the fake Responses server.

The throwaway HOME gets a ``~/.codex/config.toml`` naming a custom provider ("fake") on the Responses
wire API, with no approvals, no sandbox (bubblewrap is not there, and the guard is what we test) and no
update check; ``run`` points the provider at the server of the moment with ``-c``. Codex 0.171 offers the
model one shell tool, ``exec_command``, whose argument is a string: ``{"cmd": "cat report.pdf"}``.

Codex loads a project's ``.codex/hooks.json`` only when both are true:
- the project folder is trusted: ``[projects."<folder>"] trust_level = "trusted"`` in the user's
  config.toml (what the folder prompt, or ``codex exec --trust``, writes);
- the hook is trusted: ``[hooks.state."<folder>/.codex/hooks.json:pre_tool_use:0:0"] trusted_hash =
  "sha256:..."`` in the user's config.toml (what ``/hooks`` writes), the hash of the hook as it is now.
Otherwise it is skipped without a word. ``trust_hooks`` does what ``/hooks`` does, through the same
app-server calls: ``hooks/list`` (each hook's key and currentHash), then ``config/batchWrite``.
"""

from __future__ import annotations

import json
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boundread.agents.codex_trust import hook_hash as hook_hash  # the one Codex must agree with
from tests.e2e.conftest import RUN_TIMEOUT, Workspace, client
from tests.e2e.fakemodel.openai_responses import (
    OpenAIResponses,
    answered,
    items,
    output_text,
    text_of,
    tool_outputs,
)
from tests.e2e.fakemodel.server import Call, FakeModel, Turn, Usage

PACKAGE = "@openai/codex"
KEY_VAR = "BOUNDREAD_E2E_OPENAI_KEY"
SHELL = "exec_command"  # Codex 0.171's shell tool; its argument is {"cmd": "<command line>"}

CONFIG = f"""\
model = "gpt-5.5"  # in the catalog built into Codex: its real tool set, no metadata warning
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false
allow_login_shell = false  # bash -lc reads /etc/profile, which drops the venv (and boundread) from PATH

[analytics]
enabled = false

[model_providers.fake]
name = "fake"
base_url = "http://127.0.0.1:9/v1"
wire_api = "responses"
env_key = "{KEY_VAR}"
request_max_retries = 0
stream_max_retries = 0
stream_idle_timeout_ms = 20000
"""


@dataclass
class CodexRun:
    process: subprocess.CompletedProcess[str]

    @property
    def last_message(self) -> str:
        return self.process.stdout.strip()

    @property
    def session_id(self) -> str:
        """The thread id ``codex exec`` prints in its header (``session id: ...``)."""
        for line in self.process.stderr.splitlines():
            if line.startswith("session id: "):
                return line.split()[-1]
        raise AssertionError(f"no session id in: {self.process.stderr[-2000:]}")

    def rollout(self, workspace: Workspace) -> Path:
        """The session's rollout file (``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl``)."""
        (path,) = (workspace.home / ".codex" / "sessions").rglob(f"rollout-*-{self.session_id}.jsonl")
        return path


def fake_model() -> FakeModel:
    return FakeModel([OpenAIResponses()])


# Sub-agents ------------------------------------------------------------------------------------------
MULTI_AGENT = ("--enable", "multi_agent_v2")  # off by default in 0.171: the collaboration tools appear with it


class MultiAgentResponses(OpenAIResponses):
    """The Responses dialect with Codex's sub-agents: a call named ``collaboration.spawn_agent`` goes out as
    ``spawn_agent`` in the ``collaboration`` namespace (as Codex offers it), and a sub-agent's conversation is
    picked by its task (an ``agent_message`` item, not a user message)."""

    def handle(self, server: FakeModel, path: str, body: dict[str, Any]) -> tuple[int, str, bytes]:
        task = [text_of(item.get("content")) + _encrypted(item) for item in items(body)
                if item.get("type") == "agent_message"]
        if task and body.get("tools"):
            turn, usage, _ = server.answer(self.name, path, body, task[0], answered(body))
            return self._reply(server, body, turn, usage)
        return super().handle(server, path, body)

    def _reply(self, server: FakeModel, body: dict[str, Any], turn: Turn, usage: Usage) -> tuple[int, str, bytes]:
        status, kind, data = super()._reply(server, body, turn, usage)
        lines = [_namespaced(line) for line in data.decode().split("\n")]
        return status, kind, "\n".join(lines).encode()


def _encrypted(item: dict[str, Any]) -> str:
    """The task's text: the fake model's ``encrypted_content`` is the plain text the parent sent."""
    content = item.get("content")
    parts = content if isinstance(content, list) else []
    return "\n".join(str(p.get("encrypted_content", "")) for p in parts if isinstance(p, dict))


def _namespaced(line: str) -> str:
    if not line.startswith("data: "):
        return line
    event = json.loads(line[len("data: "):])

    def fix(node: Any) -> None:
        if isinstance(node, dict):
            name = node.get("name")
            if node.get("type") == "function_call" and isinstance(name, str) and "." in name:
                node["namespace"], node["name"] = name.split(".", 1)
            for value in node.values():
                fix(value)
        elif isinstance(node, list):
            for value in node:
                fix(value)

    fix(event)
    return "data: " + json.dumps(event)


def multi_agent_model() -> FakeModel:
    return FakeModel([MultiAgentResponses()])


def spawn(task: str, name: str = "helper") -> Call:
    """The model starts a sub-agent on ``task`` (without the parent's history)."""
    return Call("collaboration.spawn_agent", {"task_name": name, "message": task, "fork_turns": "none"})


def shell(command: str) -> Call:
    """The model runs ``command`` with Codex's shell tool."""
    return Call(SHELL, {"cmd": command})


def config_file(workspace: Workspace) -> Path:
    return workspace.home / ".codex" / "config.toml"


def configure(workspace: Workspace) -> Path:
    """The user's config.toml: the fake provider, offline and non-interactive (kept if it exists)."""
    path = config_file(workspace)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(CONFIG, encoding="utf-8")
    return path


def secrets(workspace: Workspace) -> dict[str, str]:
    """What Codex needs in its environment besides the workspace's: the dummy key, its home."""
    return {KEY_VAR: "sk-e2e-fake", "CODEX_HOME": str(workspace.home / ".codex")}


def run(workspace: Workspace, model: FakeModel, prompt: str, *args: str) -> CodexRun:
    """``codex exec PROMPT`` in the project (not a git repository), against ``model``."""
    exe = client("codex", PACKAGE)
    configure(workspace)
    argv = [str(exe), "exec", "--skip-git-repo-check", "--color", "never",
            "-c", f'model_providers.fake.base_url="{model.url}/v1"', *args, prompt]
    process = workspace.run(argv, **secrets(workspace))
    assert process.returncode == 0, f"codex exited {process.returncode}: {process.stderr[-2000:]}"
    return CodexRun(process)


def results(model: FakeModel, marker: str = "") -> list[str]:
    """The text of every tool output that reached the model in one conversation, in order."""
    out: list[str] = []
    for exchange in model.loop(marker):
        out += [output_text(item) for item in tool_outputs(exchange.body)]
    return out


# Trust ---------------------------------------------------------------------------------------------
def trust_project(workspace: Workspace) -> None:
    """What the folder-trust prompt (or ``codex exec --trust``) records for the project."""
    path = configure(workspace)
    with path.open("a", encoding="utf-8") as config:
        config.write(f'\n[projects.{json.dumps(str(workspace.project))}]\ntrust_level = "trusted"\n')


def trust_hooks(workspace: Workspace) -> list[dict[str, Any]]:
    """Trust every hook Codex lists for the project, as ``/hooks`` does: ``hooks/list`` then
    ``config/batchWrite`` on the app server. Returns the hooks as listed before."""
    configure(workspace)
    with AppServer(workspace) as server:
        listed = server.call("hooks/list", {"cwds": [str(workspace.project)]})
        hooks: list[dict[str, Any]] = [h for entry in listed["data"] for h in entry["hooks"]]
        edits = [{"keyPath": f"hooks.state.{json.dumps(h['key'])}.trusted_hash", "value": h["currentHash"],
                  "mergeStrategy": "upsert"} for h in hooks]
        if edits:
            server.call("config/batchWrite", {"edits": edits})
    return hooks


class AppServer:
    """``codex app-server`` over stdio: JSON-RPC, one JSON object a line."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self.ids = 0

    def __enter__(self) -> AppServer:
        exe = client("codex", PACKAGE)
        self.process = subprocess.Popen([str(exe), "app-server"], cwd=self.workspace.project,
                                        env=self.workspace.env(**secrets(self.workspace)),
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        text=True)
        self.watchdog = threading.Timer(RUN_TIMEOUT, self.process.kill)  # a stalled server ends the read
        self.watchdog.start()
        self.call("initialize", {"clientInfo": {"name": "boundread-e2e", "version": "0"}})
        self._send({"jsonrpc": "2.0", "method": "initialized"})
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.watchdog.cancel()

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def call(self, method: str, params: dict[str, Any]) -> Any:
        self.ids += 1
        self._send({"jsonrpc": "2.0", "id": self.ids, "method": method, "params": params})
        assert self.process.stdout is not None
        for line in self.process.stdout:  # notifications come in between; the answer carries our id
            message = json.loads(line)
            if message.get("id") == self.ids and "method" not in message:
                assert "error" not in message, f"{method}: {message['error']}"
                return message["result"]
        raise AssertionError(f"codex app-server closed before answering {method}")
