"""The OpenAI Chat Completions API as Qwen Code uses it: ``POST /v1/chat/completions`` (streamed), ``GET
/v1/models``."""

from __future__ import annotations

import json
import time
from typing import Any

from tests.e2e.fakemodel.server import FakeModel, Turn, Usage, sse

MODEL = "qwen3-coder-plus"


def text_of(content: object) -> str:
    """The text of a message's content: a string, or its text parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(part.get("text", "")) for part in content
                         if isinstance(part, dict) and part.get("type") in ("text", "input_text"))
    return ""


def messages(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [message for message in body.get("messages") or [] if isinstance(message, dict)]


def tool_messages(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``tool`` messages after the last assistant message: what the client sent back."""
    found: list[dict[str, Any]] = []
    for message in messages(body):
        if message.get("role") == "assistant":
            found = []
        elif message.get("role") == "tool":
            found.append(message)
    return found


def answered(body: dict[str, Any]) -> int:
    """Model answers already in the history: one per assistant message."""
    return sum(1 for message in messages(body) if message.get("role") == "assistant")


def first_user_text(body: dict[str, Any]) -> str:
    """The text of every user message before the first answer: the prompt, with whatever context the client sends
    as user messages beside it (a marker is looked for in all of it)."""
    texts = []
    for message in messages(body):
        if message.get("role") == "assistant":
            break
        if message.get("role") == "user":
            texts.append(text_of(message.get("content")))
    return "\n".join(texts)


class OpenAIChat:
    name = "openai-chat"

    def handles(self, path: str) -> bool:
        route = path.split("?")[0]
        return route.startswith(("/v1/chat/completions", "/chat/completions", "/v1/models", "/models"))

    def handle(self, server: FakeModel, path: str, body: dict[str, Any]) -> tuple[int, str, bytes]:
        route = path.split("?")[0]
        if route.endswith("/models"):
            server.side(self.name, path, body)
            data = {"object": "list", "data": [{"id": MODEL, "object": "model", "created": 0, "owned_by": "fake"}]}
            return 200, "application/json", json.dumps(data).encode()
        if not body.get("tools"):  # titles, summaries, next-speaker checks: not the agent loop
            server.side(self.name, path, body)
            return self._reply(server, body, Turn(text="ok"), Usage(input_tokens=1, output_tokens=1))
        turn, usage, _ = server.answer(self.name, path, body, first_user_text(body), answered(body))
        return self._reply(server, body, turn, usage)

    def _reply(self, server: FakeModel, body: dict[str, Any], turn: Turn, usage: Usage) -> tuple[int, str, bytes]:
        completion_id = server.next_id("chatcmpl-fake")
        model = body.get("model") or MODEL
        usage_json = {"prompt_tokens": usage.input_tokens + usage.cache_read_input_tokens,
                      "completion_tokens": usage.output_tokens,
                      "total_tokens": usage.total,
                      "prompt_tokens_details": {"cached_tokens": usage.cache_read_input_tokens}}
        calls = [{"id": server.next_id("call_fake"), "type": "function",
                  "function": {"name": call.name, "arguments": json.dumps(call.input)}} for call in turn.calls]
        finish = "tool_calls" if calls else "stop"
        text = turn.text or ("" if calls else "Done.")
        if not body.get("stream"):
            message: dict[str, Any] = {"role": "assistant", "content": text or None}
            if calls:
                message["tool_calls"] = calls
            answer = {"id": completion_id, "object": "chat.completion", "created": int(time.time()), "model": model,
                      "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": usage_json}
            return 200, "application/json", json.dumps(answer).encode()
        base = {"id": completion_id, "object": "chat.completion.chunk", "created": int(time.time()), "model": model}

        def chunk(delta: dict[str, Any], reason: str | None = None) -> tuple[None, dict[str, Any]]:
            return None, dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": reason}])

        events = [chunk({"role": "assistant", "content": ""})]
        if text:
            events.append(chunk({"content": text}))
        for index, call in enumerate(calls):
            events.append(chunk({"tool_calls": [dict(call, index=index)]}))
        events.append(chunk({}, finish))
        events.append((None, dict(base, choices=[], usage=usage_json)))
        return 200, "text/event-stream", sse(events) + b"data: [DONE]\n\n"


def tool_results(model: FakeModel, marker: str = "") -> list[str]:
    """The text of every tool message that reached the model in one conversation, in order (each once)."""
    return [text_of(message.get("content")) for exchange in model.loop(marker)
            for message in tool_messages(exchange.body)]
