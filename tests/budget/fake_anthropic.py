"""A scripted Anthropic Messages API on localhost, to drive the real Claude Code offline.

The main agent is asked to spawn sub-agents (the prompt says ``SPAWN n``): it calls the Agent/Task tool n
times in one turn, each sub-agent runs one Bash call and answers, then the main agent answers ``all done``.
Every response has its own message id, ``request-id`` header and token counts, and is logged, so a test can
compare what the ledger recorded with what the server sent.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

FINAL = "all done, the sub-agents answered"
SUB_FINAL = "sub-agent finished its echo"


class Script:
    def __init__(self, final_delay: float = 0.0) -> None:
        self.sent: list[dict[str, Any]] = []  # {"id", "request", "usage", "kind"}
        self.requests: list[dict[str, Any]] = []
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self.final_delay = final_delay

    def reply(self, body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
        """The content blocks to answer with, and what kind of request this was."""
        messages = body.get("messages") or []
        first = _text(messages[0]) if messages else ""
        tools = {t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)}
        results = sum(1 for m in messages for b in _blocks(m) if b.get("type") == "tool_result")
        spawn = re.search(r"SPAWN (\d+)", first)
        agent_tool = next((t for t in ("Agent", "Task") if t in tools), None)
        if "SUBTASK" in first:
            if results == 0 and "Bash" in tools:
                return [_tool("Bash", {"command": "echo sub-agent-was-here", "description": "echo"})], "sub-tool"
            return [{"type": "text", "text": SUB_FINAL}], "sub-final"
        if spawn and agent_tool:
            if results == 0 and int(spawn.group(1)):
                return [
                    _tool(agent_tool, {"description": f"echo task {i}", "subagent_type": "general-purpose",
                                       "prompt": f"SUBTASK {i}: run `echo sub-agent-was-here` with Bash, then stop"})
                    for i in range(int(spawn.group(1)))
                ], "spawn"
            return [{"type": "text", "text": FINAL}], "final"
        return [{"type": "text", "text": "ok"}], "side"

    def usage(self, n: int) -> dict[str, int]:
        return {"input_tokens": 100 + n, "output_tokens": 10 + n, "cache_read_input_tokens": 1000 + n,
                "cache_creation_input_tokens": 50 + n}

    def log(self, entry: dict[str, Any]) -> int:
        with self._lock:
            n = next(self._ids)
            entry["n"] = n
            self.sent.append(entry)
            return n


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    return " ".join(str(b.get("text", "")) for b in _blocks(message))


def _tool(name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": f"toolu_{abs(hash((name, json.dumps(tool_input)))) % 10**12:012d}",
            "name": name, "input": tool_input}


def handler(script: Script) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def _json(self, code: int, data: object, headers: dict[str, str] | None = None) -> None:
            raw = json.dumps(data).encode()
            self.send_response(code)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(raw)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(raw)

        def do_GET(self) -> None:
            self._json(200, {})

        def do_HEAD(self) -> None:
            self.send_response(200)
            self.send_header("content-length", "0")
            self.end_headers()

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            if "count_tokens" in self.path:
                self._json(200, {"input_tokens": 10})
                return
            if not self.path.startswith("/v1/messages"):
                self._json(200, {})
                return
            blocks, kind = script.reply(body)
            n = script.log({"kind": kind, "model": body.get("model")})
            usage = script.usage(n)
            mid, rid = f"msg_fake{n:04d}", f"req_fake{n:04d}"
            script.sent[-1].update({"id": mid, "request": rid, "usage": usage})
            stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
            message = {"id": mid, "type": "message", "role": "assistant", "model": body.get("model"),
                       "stop_reason": stop, "stop_sequence": None}
            if not body.get("stream"):
                self._json(200, {**message, "content": blocks, "usage": usage}, {"request-id": rid})
                return
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("request-id", rid)
            self.send_header("connection", "close")
            self.end_headers()
            start = {**message, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
            events: list[tuple[str, dict[str, Any]]] = [("message_start", {"type": "message_start",
                                                                           "message": start})]
            for i, block in enumerate(blocks):
                if block["type"] == "text":
                    events += [("content_block_start", {"type": "content_block_start", "index": i,
                                                        "content_block": {"type": "text", "text": ""}}),
                               ("content_block_delta", {"type": "content_block_delta", "index": i,
                                                        "delta": {"type": "text_delta", "text": block["text"]}})]
                else:
                    events += [("content_block_start", {"type": "content_block_start", "index": i,
                                                        "content_block": {**block, "input": {}}}),
                               ("content_block_delta", {"type": "content_block_delta", "index": i,
                                                        "delta": {"type": "input_json_delta",
                                                                  "partial_json": json.dumps(block["input"])}})]
                events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
            events += [("message_delta", {"type": "message_delta",
                                          "delta": {"stop_reason": stop, "stop_sequence": None},
                                          "usage": {"output_tokens": usage["output_tokens"]}}),
                       ("message_stop", {"type": "message_stop"})]
            for name, data in events:
                self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
                self.wfile.flush()
            self.close_connection = True

    return Handler


def serve(script: Script) -> tuple[ThreadingHTTPServer, str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler(script))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"
