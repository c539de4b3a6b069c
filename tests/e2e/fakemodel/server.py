"""A scripted model server on 127.0.0.1 that the real agent CLIs talk to instead of a provider.

Each test writes a script: one or more conversations, each a list of turns, each turn the calls (tool uses)
and text the "model" answers with. A conversation is picked by a substring of its first user message
(the default one has the marker ""), so a sub-agent spawned by the agent gets its own script. The turn is
the number of model answers already in the request's history, so the script replays deterministically
however often the client retries. Requests that are not part of the agent loop (title generation, quota
checks, token counts) get a short text answer and are logged apart.

Every request is logged with what the server answered and the usage it reported, so a test asserts what
reached the model (the tool results the client sent back) and what the model "spent".
"""

from __future__ import annotations

import itertools
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol


@dataclass(frozen=True)
class Call:
    """A tool use the model asks for: the client's tool name and its input."""

    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class Turn:
    """One model answer: text, then tool calls (none: the model is done)."""

    text: str = ""
    calls: tuple[Call, ...] = ()


@dataclass(frozen=True)
class Usage:
    """What one answer reports spending (Anthropic's names; the other dialects map them)."""

    input_tokens: int
    output_tokens: int
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens + self.cache_creation_input_tokens + self.cache_read_input_tokens


@dataclass
class Conversation:
    marker: str
    turns: list[Turn]


@dataclass
class Exchange:
    """One logged request and what the server answered."""

    dialect: str
    path: str
    body: dict[str, Any]
    conversation: str | None  # the marker of the scripted conversation, or None for a side request
    turn: int
    usage: Usage | None
    answer: Turn | None


class Dialect(Protocol):
    """One provider's wire format: which requests are the agent loop, their history, the answer's bytes."""

    name: str

    def handles(self, path: str) -> bool: ...

    def handle(self, server: FakeModel, path: str, body: dict[str, Any]) -> tuple[int, str, bytes]:
        """Return (status, content type, body) for one request."""
        ...


@dataclass
class FakeModel:
    """The scripted server. Use as a context manager; ``url`` is its base address."""

    dialects: list[Dialect]
    conversations: list[Conversation] = field(default_factory=list)
    log: list[Exchange] = field(default_factory=list)
    usage_per_turn: Usage = field(default_factory=lambda: Usage(input_tokens=100, output_tokens=50))
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _httpd: ThreadingHTTPServer | None = None

    # The script ------------------------------------------------------------------------------------
    def script(self, *turns: Turn, marker: str = "") -> FakeModel:
        """Script the conversation whose first user message contains ``marker`` ("" = any other)."""
        self.conversations = [c for c in self.conversations if c.marker != marker]
        self.conversations.append(Conversation(marker, list(turns)))
        self.conversations.sort(key=lambda c: c.marker == "")  # specific markers first
        return self

    def pick(self, first_user_text: str) -> Conversation | None:
        for conversation in self.conversations:
            if conversation.marker in first_user_text:
                return conversation
        return None

    def next_id(self, prefix: str) -> str:
        with self._lock:
            return f"{prefix}{next(self._ids):06d}"

    def answer(self, dialect: str, path: str, body: dict[str, Any], first_user_text: str,
               answered: int) -> tuple[Turn, Usage, str | None]:
        """The scripted answer for a loop request with ``answered`` model turns in its history."""
        conversation = self.pick(first_user_text)
        if conversation is None or answered >= len(conversation.turns):
            turn = Turn(text="Done.")
        else:
            turn = conversation.turns[answered]
        usage = self.usage_per_turn
        with self._lock:
            self.log.append(Exchange(dialect, path, body, conversation.marker if conversation else None,
                                     answered, usage, turn))
        return turn, usage, conversation.marker if conversation else None

    def side(self, dialect: str, path: str, body: dict[str, Any]) -> None:
        with self._lock:
            self.log.append(Exchange(dialect, path, body, None, 0, None, None))

    # What reached the model ------------------------------------------------------------------------
    def loop(self, marker: str | None = "") -> list[Exchange]:
        """The agent-loop requests of one conversation (``None``: of all), in order."""
        with self._lock:
            return [e for e in self.log if e.usage is not None and (marker is None or e.conversation == marker)]

    def spent(self) -> int:
        """Every token the server reported, over all conversations."""
        return sum(e.usage.total for e in self.loop(None) if e.usage)

    # Serving ---------------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        assert self._httpd is not None, "start the server first"
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> FakeModel:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else {}
                except ValueError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                if not isinstance(body, dict):
                    body = {"_value": body}
                for dialect in server.dialects:
                    if dialect.handles(self.path):
                        status, ctype, data = dialect.handle(server, self.path, body)
                        break
                else:
                    server.side("none", self.path, body)
                    status, ctype, data = 404, "application/json", b'{"error": {"message": "not found"}}'
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_POST = do_GET = _serve

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        threading.Thread(target=self._httpd.serve_forever, name="fake-model", daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()


def sse(events: list[tuple[str | None, dict[str, Any]]]) -> bytes:
    """Server-sent events: ``event:`` lines where the dialect names them, one ``data:`` JSON each."""
    out = []
    for name, data in events:
        head = f"event: {name}\n" if name else ""
        out.append(f"{head}data: {json.dumps(data)}\n\n")
    return "".join(out).encode()
