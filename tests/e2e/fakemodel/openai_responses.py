"""The OpenAI Responses API as Codex CLI uses it: ``POST /v1/responses`` (streamed), ``GET /v1/models``."""

from __future__ import annotations

import json
from typing import Any

from tests.e2e.fakemodel.server import FakeModel, Turn, Usage, sse

MODEL = "gpt-5.5"


def text_of(content: object) -> str:
    """The text of an input item's content: a string, or its input_text/output_text parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(part.get("text", "")) for part in content
                         if isinstance(part, dict) and part.get("type") in ("input_text", "output_text", "text"))
    return ""


def items(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [item for item in body.get("input") or [] if isinstance(item, dict)]


def tool_outputs(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The function_call_output items after the last model answer: what the client sent back."""
    found: list[dict[str, Any]] = []
    for item in items(body):
        if _is_answer(item):
            found = []
        elif item.get("type") in ("function_call_output", "custom_tool_call_output"):
            found.append(item)
    return found


def output_text(item: dict[str, Any]) -> str:
    """A function_call_output's text: a plain string, or its text parts."""
    output = item.get("output", "")
    if isinstance(output, dict):  # older clients: {"content": ..., "success": ...}
        output = output.get("content", "")
    return text_of(output)


def _is_answer(item: dict[str, Any]) -> bool:
    kind = item.get("type", "message")
    return (kind == "message" and item.get("role") == "assistant") or \
        kind in ("function_call", "custom_tool_call", "local_shell_call")


def answered(body: dict[str, Any]) -> int:
    """Model answers already in the input: one per run of assistant messages and calls (an answer with
    text and two calls is three items, one turn)."""
    count, inside = 0, False
    for item in items(body):
        if _is_answer(item):
            count += 0 if inside else 1
            inside = True
        elif item.get("type") != "reasoning":
            inside = False
    return count


def first_user_text(body: dict[str, Any]) -> str:
    """The first user message that is the prompt (Codex sends its AGENTS.md and environment context
    as user messages too, each wrapped in a tag)."""
    texts = [text_of(item.get("content")) for item in items(body)
             if item.get("type", "message") == "message" and item.get("role") == "user"]
    prompts = [t for t in texts if not t.lstrip().startswith(("<", "# AGENTS.md"))]
    return (prompts or texts or [""])[0]


class OpenAIResponses:
    name = "openai-responses"

    def handles(self, path: str) -> bool:
        route = path.split("?")[0]
        return route.startswith(("/v1/responses", "/v1/models"))

    def handle(self, server: FakeModel, path: str, body: dict[str, Any]) -> tuple[int, str, bytes]:
        route = path.split("?")[0]
        if route.startswith("/v1/models"):
            server.side(self.name, path, body)
            return 200, "application/json", json.dumps({"object": "list", "data": [], "models": []}).encode()
        if not body.get("tools"):  # titles, summaries, compaction: not the agent loop
            server.side(self.name, path, body)
            return self._reply(server, body, Turn(text="ok"), Usage(input_tokens=1, output_tokens=1))
        turn, usage, _ = server.answer(self.name, path, body, first_user_text(body), answered(body))
        return self._reply(server, body, turn, usage)

    def _reply(self, server: FakeModel, body: dict[str, Any], turn: Turn, usage: Usage) -> tuple[int, str, bytes]:
        response_id = server.next_id("resp_fake")
        model = body.get("model") or MODEL
        output: list[dict[str, Any]] = []
        if turn.text or not turn.calls:
            output.append({"type": "message", "id": server.next_id("msg_fake"), "role": "assistant",
                           "status": "completed",
                           "content": [{"type": "output_text", "text": turn.text or "Done.", "annotations": []}]})
        for call in turn.calls:
            output.append({"type": "function_call", "id": server.next_id("fc_fake"),
                           "call_id": server.next_id("call_fake"), "name": call.name,
                           "arguments": json.dumps(call.input), "status": "completed"})
        cached = usage.cache_read_input_tokens
        usage_json = {"input_tokens": usage.input_tokens + cached + usage.cache_creation_input_tokens,
                      "input_tokens_details": {"cached_tokens": cached},
                      "output_tokens": usage.output_tokens, "output_tokens_details": {"reasoning_tokens": 0},
                      "total_tokens": usage.total}
        base = {"id": response_id, "object": "response", "created_at": 0, "model": model}
        events: list[tuple[str | None, dict[str, Any]]] = [
            ("response.created", {"type": "response.created",
                                  "response": dict(base, status="in_progress", output=[])}),
        ]
        for index, item in enumerate(output):
            start = dict(item, status="in_progress")
            if item["type"] == "message":
                start["content"] = []
            events.append(("response.output_item.added",
                           {"type": "response.output_item.added", "output_index": index, "item": start}))
            if item["type"] == "message":
                events.append(("response.output_text.delta", {
                    "type": "response.output_text.delta", "item_id": item["id"], "output_index": index,
                    "content_index": 0, "delta": item["content"][0]["text"]}))
            events.append(("response.output_item.done",
                           {"type": "response.output_item.done", "output_index": index, "item": item}))
        events.append(("response.completed", {"type": "response.completed", "response": dict(
            base, status="completed", output=output, usage=usage_json)}))
        return 200, "text/event-stream", sse(events)
