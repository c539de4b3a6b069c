"""The Gemini API as Gemini CLI uses it: ``POST /v1beta/models/<model>:streamGenerateContent?alt=sse`` for the
agent loop, ``:generateContent`` for its side requests, ``:countTokens``.

A loop request declares tools (``tools[].functionDeclarations``); its turn is the number of ``model`` contents
already in ``contents``. Tool results come back as ``functionResponse`` parts of the last ``user`` content:
``{"name", "id", "response": {"output": ...}}``, or ``{"error": ...}`` when the tool failed or a hook refused it.

Side requests carry no tools and want JSON to a ``responseJsonSchema``. Gemini CLI 0.61 sends these:
the model router (with ``--model auto``, the default), a "Task Routing AI" on ``gemini-3.5-flash-lite`` that
wants ``{complexity_reasoning, complexity_score}`` before the first turn; the next-speaker check
(``{reasoning, next_speaker}``, off by default in 0.61). Known ones get a fixed answer (SIDE_ANSWERS), any other
schema a value made to fit it.
"""

from __future__ import annotations

import json
from typing import Any

from tests.e2e.fakemodel.server import FakeModel, Turn, Usage, sse

MODEL = "gemini-2.5-pro"


def text_of(parts: object) -> str:
    """The text of a content's parts (text parts and the output of functionResponse parts)."""
    if not isinstance(parts, list):
        return ""
    out: list[str] = []
    for part in parts:
        if not isinstance(part, dict):
            continue
        if isinstance(part.get("text"), str):
            out.append(part["text"])
        elif isinstance(part.get("functionResponse"), dict):
            out.append(response_text(part["functionResponse"]))
    return "\n".join(out)


def response_text(response: dict[str, Any]) -> str:
    """What a functionResponse carries to the model: its ``response`` (``output`` or ``error``), as text."""
    body = response.get("response")
    if isinstance(body, dict):
        for key in ("output", "error", "content"):
            if isinstance(body.get(key), str):
                return str(body[key])
        return json.dumps(body)
    return str(body or "")


def function_responses(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The functionResponse parts of the last user content: what the client sent back to the model."""
    contents = body.get("contents") or []
    if not contents or contents[-1].get("role") != "user":
        return []
    return [p["functionResponse"] for p in contents[-1].get("parts") or []
            if isinstance(p, dict) and isinstance(p.get("functionResponse"), dict)]


def _route(path: str) -> tuple[str, str]:
    """``/v1beta/models/M:streamGenerateContent?alt=sse`` -> ("M", "streamGenerateContent")."""
    tail = path.split("?")[0].rsplit("/", 1)[-1]
    model, _, method = tail.partition(":")
    return model, method


def _has_tools(body: dict[str, Any]) -> bool:
    tools = body.get("tools") or (body.get("config") or {}).get("tools") or []
    return any(isinstance(t, dict) and t.get("functionDeclarations") for t in tools)


def _fill(schema: object) -> object:
    """A value that satisfies a JSON schema (the first enum choice, empty strings, every property)."""
    if not isinstance(schema, dict):
        return ""
    if schema.get("enum"):
        return schema["enum"][0]
    kind = str(schema.get("type", "object")).lower()
    if kind == "object":
        props = schema.get("properties") or {}
        return {name: _fill(sub) for name, sub in props.items()}
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        return 0
    if kind == "boolean":
        return False
    return "ok"


# A side request whose system instruction or last content contains the key gets this JSON answer.
SIDE_ANSWERS: dict[str, object] = {
    "Task Routing AI": {"complexity_reasoning": "A simple read-only request.", "complexity_score": 10},
    "who should logically speak next": {"reasoning": "The model answered; the user speaks next.",
                                        "next_speaker": "user"},
}


class Gemini:
    name = "gemini"

    def __init__(self, side_answers: dict[str, object] | None = None) -> None:
        self.side_answers = {**SIDE_ANSWERS, **(side_answers or {})}

    def handles(self, path: str) -> bool:
        return path.split("?")[0].startswith(("/v1beta/models/", "/v1/models/", "/v1alpha/models/"))

    def handle(self, server: FakeModel, path: str, body: dict[str, Any]) -> tuple[int, str, bytes]:
        model, method = _route(path)
        if method == "countTokens":
            server.side(self.name, path, body)
            return 200, "application/json", json.dumps({"totalTokens": 100}).encode()
        stream = method == "streamGenerateContent"
        if not _has_tools(body):
            server.side(self.name, path, body)
            return self._reply(server, model, Turn(text=self._side_text(body)), Usage(1, 1), stream)
        contents = body.get("contents") or []
        first_user = next((text_of(c.get("parts")) for c in contents if c.get("role") == "user"), "")
        answered = sum(1 for c in contents if c.get("role") == "model")
        turn, usage, _ = server.answer(self.name, path, body, first_user, answered)
        return self._reply(server, model, turn, usage, stream)

    def _side_text(self, body: dict[str, Any]) -> str:
        config = body.get("generationConfig") or body.get("config") or {}
        schema = config.get("responseJsonSchema") or config.get("responseSchema")
        seen = json.dumps(body.get("systemInstruction") or "") + json.dumps((body.get("contents") or [{}])[-1])
        for key, value in self.side_answers.items():
            if key in seen:
                return json.dumps(value)
        if schema:
            return json.dumps(_fill(schema))
        if config.get("responseMimeType") == "application/json":
            return "{}"
        return "ok"

    def _reply(self, server: FakeModel, model: str, turn: Turn, usage: Usage,
               stream: bool) -> tuple[int, str, bytes]:
        parts: list[dict[str, Any]] = []
        if turn.text or not turn.calls:
            parts.append({"text": turn.text or "Done."})
        for call in turn.calls:
            parts.append({"functionCall": {"id": server.next_id("call_fake"), "name": call.name,
                                           "args": call.input}})
        prompt = usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens
        usage_json: dict[str, Any] = {"promptTokenCount": prompt, "candidatesTokenCount": usage.output_tokens,
                                      "totalTokenCount": prompt + usage.output_tokens}
        if usage.cache_read_input_tokens:
            usage_json["cachedContentTokenCount"] = usage.cache_read_input_tokens
        answer = {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP",
                                  "index": 0}],
                  "usageMetadata": usage_json, "modelVersion": model or MODEL,
                  "responseId": server.next_id("resp_fake")}
        if not stream:
            return 200, "application/json", json.dumps(answer).encode()
        return 200, "text/event-stream", sse([(None, answer)])
