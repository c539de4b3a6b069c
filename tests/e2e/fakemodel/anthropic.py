"""The Anthropic Messages API as Claude Code uses it: ``POST /v1/messages`` (streamed), count_tokens."""

from __future__ import annotations

import json
from typing import Any

from tests.e2e.fakemodel.server import FakeModel, Turn, Usage, sse

MODEL = "claude-sonnet-4-5-20250929"


def text_of(content: object) -> str:
    """The text of a message's content: a string, or the text (and tool results) of its blocks."""
    if isinstance(content, str):
        return content
    parts: list[str] = []
    if isinstance(content, list):
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text":
                parts.append(str(block.get("text", "")))
            elif block.get("type") == "tool_result":
                parts.append(text_of(block.get("content", "")))
    return "\n".join(parts)


def tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool_result blocks of the last user message: what the client sent back to the model.
    (Claude Code 2.1.332 may put "system" messages after it, e.g. a PostToolBatch hook's context.)"""
    users = [m for m in body.get("messages") or [] if m.get("role") == "user"]
    if not users or not isinstance(users[-1].get("content"), list):
        return []
    return [b for b in users[-1]["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]


class Anthropic:
    name = "anthropic"

    def handles(self, path: str) -> bool:
        return path.split("?")[0].startswith("/v1/messages")

    def handle(self, server: FakeModel, path: str, body: dict[str, Any]) -> tuple[int, str, bytes]:
        route = path.split("?")[0]
        if route.endswith("/count_tokens"):
            server.side(self.name, path, body)
            return 200, "application/json", json.dumps({"input_tokens": 100}).encode()
        messages = body.get("messages") or []
        if not body.get("tools"):  # titles, topic checks, quota probes: not the agent loop
            server.side(self.name, path, body)
            return self._reply(server, body, Turn(text="ok"), Usage(input_tokens=1, output_tokens=1))
        first_user = next((text_of(m.get("content")) for m in messages if m.get("role") == "user"), "")
        answered = sum(1 for m in messages if m.get("role") == "assistant")
        turn, usage, _ = server.answer(self.name, path, body, first_user, answered)
        return self._reply(server, body, turn, usage)

    def _reply(self, server: FakeModel, body: dict[str, Any], turn: Turn, usage: Usage) -> tuple[int, str, bytes]:
        msg_id = server.next_id("msg_fake")
        blocks: list[dict[str, Any]] = []
        if turn.text or not turn.calls:
            blocks.append({"type": "text", "text": turn.text or "Done."})
        for call in turn.calls:
            blocks.append({"type": "tool_use", "id": server.next_id("toolu_fake"), "name": call.name,
                           "input": call.input})
        stop = "tool_use" if turn.calls else "end_turn"
        usage_json = {"input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens,
                      "cache_creation_input_tokens": usage.cache_creation_input_tokens,
                      "cache_read_input_tokens": usage.cache_read_input_tokens}
        model = body.get("model") or MODEL
        if not body.get("stream"):
            message = {"id": msg_id, "type": "message", "role": "assistant", "model": model, "content": blocks,
                       "stop_reason": stop, "stop_sequence": None, "usage": usage_json}
            return 200, "application/json", json.dumps(message).encode()
        start_usage = dict(usage_json, output_tokens=1)
        events: list[tuple[str | None, dict[str, Any]]] = [
            ("message_start", {"type": "message_start", "message": {
                "id": msg_id, "type": "message", "role": "assistant", "model": model, "content": [],
                "stop_reason": None, "stop_sequence": None, "usage": start_usage}}),
        ]
        for index, block in enumerate(blocks):
            if block["type"] == "text":
                events += [
                    ("content_block_start", {"type": "content_block_start", "index": index,
                                             "content_block": {"type": "text", "text": ""}}),
                    ("content_block_delta", {"type": "content_block_delta", "index": index,
                                             "delta": {"type": "text_delta", "text": block["text"]}}),
                ]
            else:
                events += [
                    ("content_block_start", {"type": "content_block_start", "index": index, "content_block": {
                        "type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}}),
                    ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": {
                        "type": "input_json_delta", "partial_json": json.dumps(block["input"])}}),
                ]
            events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
        events += [
            ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                               "usage": {"output_tokens": usage.output_tokens}}),
            ("message_stop", {"type": "message_stop"}),
        ]
        return 200, "text/event-stream", sse(events)
