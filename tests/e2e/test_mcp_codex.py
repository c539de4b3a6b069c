"""`boundread mcp` inside the real Codex CLI: registered by `boundread init --agent codex --mcp --user`
(``[mcp_servers.boundread]`` in ~/.codex/config.toml, merged into the user's config), found by the scripted model
through ``tool_search`` (Codex 0.171 defers MCP tools: the model gets them in a ``tool_search_output`` item, in
the namespace ``mcp__boundread``, and calls them as ``function_call``s with that namespace), and what reached the
model within the --max-chars init chose for Codex (four fifths of the 10,000 tokens at 4 bytes a token that
Codex's gpt-5.5 keeps of a tool output). Codex, like Claude Code, hands the model the structured content (the
JSON envelope, which holds the slice and the next call), after a ``Wall time`` line.

The fake Responses server learns two things here: a call named ``tool_search`` goes out as a
``tool_search_call`` item (its arguments an object), and ``namespace/name`` as a namespaced function call.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boundread import tomlread
from tests.e2e import codex
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.openai_responses import OpenAIResponses, first_user_text, items
from tests.e2e.fakemodel.server import Call, FakeModel, Turn, Usage
from tests.e2e.files import project_files

pytest.importorskip("mcp.server.mcpserver", reason="needs the mcp extra: pip install 'boundread[mcp]'")

CAP = 32_000
ANSWERS = ("function_call", "custom_tool_call", "local_shell_call", "tool_search_call")


class SearchingResponses(OpenAIResponses):
    """The Responses dialect with Codex's tool search (see the module's docstring)."""

    def handle(self, server: FakeModel, path: str, body: dict[str, Any]) -> tuple[int, str, bytes]:
        if body.get("tools") and path.split("?")[0].startswith("/v1/responses"):
            turn, usage, _ = server.answer(self.name, path, body, first_user_text(body), _answered(body))
            return self._reply(server, body, turn, usage)
        return super().handle(server, path, body)

    def _reply(self, server: FakeModel, body: dict[str, Any], turn: Turn, usage: Usage) -> tuple[int, str, bytes]:
        status, kind, data = super()._reply(server, body, turn, usage)
        return status, kind, "\n".join(_searching(line) for line in data.decode().split("\n")).encode()


def _answered(body: dict[str, Any]) -> int:
    """Model answers in the input (openai_responses.answered, a tool_search_call counted as one)."""
    count, inside = 0, False
    for item in items(body):
        kind = item.get("type", "message")
        if (kind == "message" and item.get("role") == "assistant") or kind in ANSWERS:
            count += 0 if inside else 1
            inside = True
        elif kind != "reasoning":
            inside = False
    return count


def _searching(line: str) -> str:
    """An SSE line with a ``tool_search`` call as Codex's item and ``ns/name`` calls namespaced."""
    if not line.startswith("data: "):
        return line
    event = json.loads(line[len("data: "):])

    def fix(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "function_call" and node.get("name") == "tool_search":
                node["type"] = "tool_search_call"
                node["execution"] = "client"
                node["arguments"] = json.loads(node["arguments"])
                del node["name"]
            elif node.get("type") == "function_call" and "/" in str(node.get("name")):
                node["namespace"], node["name"] = node["name"].split("/", 1)
            for value in node.values():
                fix(value)
        elif isinstance(node, list):
            for value in node:
                fix(value)

    fix(event)
    return "data: " + json.dumps(event)


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    project_files(workspace.project)
    codex.configure(workspace)  # the fake provider first: init merges into the user's config.toml
    done = workspace.boundread("init", "--agent", "codex", "--mcp", "--user")
    assert done.returncode == 0, done.stderr
    entry = tomlread.loads(codex.config_file(workspace).read_text(encoding="utf-8"))["mcp_servers"]["boundread"]
    assert entry["args"] == ["mcp", "--max-chars", str(CAP)]
    return workspace


def test_codex_finds_the_tools_by_tool_search_and_the_model_gets_a_bounded_slice(project: Workspace) -> None:
    with FakeModel([SearchingResponses()]) as model:
        model.script(
            Turn(calls=(Call("tool_search", {"query": "boundread extract huge log"}),)),
            Turn(calls=(Call("mcp__boundread/extract", {"path": "huge.log"}),)),
            Turn(calls=(Call("mcp__boundread/pages", {"path": "report.pdf", "range": "1-2"}),)),
            Turn(text="Read them."),
        )
        run = codex.run(project, model, "Read huge.log and report.pdf")
        found = [item for exchange in model.loop() for item in items(exchange.body)
                 if item.get("type") == "tool_search_output"]
        seen = codex.results(model)
    assert run.last_message == "Read them.", seen
    (search,) = {json.dumps(item["tools"]) for item in found}  # the same search output in each later request
    assert '"name": "mcp__boundread"' in search and '"name": "extract"' in search
    log, pages = seen
    assert len(log) <= CAP and "truncated" not in log.split("Output:", 1)[0], (len(log), log[:300])
    envelope = json.loads(log.split("Output:\n", 1)[1])  # Codex hands the model the structured content
    assert "2026-11-29T08:00:00Z INFO worker-1 request 00000001 served" in envelope["text"]
    assert envelope["truncated_reasons"][0].startswith("max_chars")
    assert envelope["next_calls"][0].startswith('extract(path="huge.log", lines="')
    assert "PAGE-2" in pages and "PAGE-3" not in pages
    saved = Path(json.loads(pages.split("Output:\n", 1)[1])["output"])
    assert saved.name == "report.pdf.pages-1-2.txt" and saved.is_file()  # Codex passes no BOUNDREAD_OUT_DIR
