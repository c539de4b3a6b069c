"""``boundread mcp`` over stdio, answering ``initialize`` and ``tools/list`` before the SDK is loaded.

The MCP SDK costs 1.4-2 s to import, the engine and its models more; a client waits for the ``initialize`` answer
before anything else, and Codex searches the tools it listed by the time its first turn starts. So while the SDK
loads (in a thread), the client's lines are read here: ``initialize`` is answered from
:mod:`boundread.mcp.handshake`, then ``tools/list`` from :mod:`boundread.mcp.catalog` (standard library only: the
answers leave about 0.2 s after the process starts). Every line read goes to the SDK's server once it is up, so
its session knows the client, its protocol version and its capabilities, as if it had answered; its own answers
to the requests answered early are dropped (compared first: :func:`handshake.same`).

The wire is claimed before anything runs: the transport reads and writes private duplicates of fd 0 and 1,
while fd 0 reads /dev/null and fd 1 is stderr, so a stray print of a library never breaks a message.
"""

from __future__ import annotations

import importlib
import json
import os
import threading
from typing import Any, BinaryIO

from boundread.mcp import catalog, handshake
from boundread.mcp.config import Config
from boundread.mcp.inbox import Inbox


def claim() -> tuple[BinaryIO, BinaryIO]:
    """The client's stdin and stdout as private streams; fd 0 and 1 point elsewhere (as the SDK's own stdio
    transport does)."""
    wire_in = os.fdopen(os.dup(0), "rb")
    wire_out = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
    finally:
        os.close(null)
    os.dup2(2, 1)
    return wire_in, wire_out


class Early:
    """What is answered before the SDK is up: a well-formed ``initialize`` as the first line, then - once the
    client said ``notifications/initialized`` - a ``tools/list`` without a cursor. ``answered``: by request id."""

    def __init__(self, max_chars: int) -> None:
        self.max_chars = max_chars
        self.answered: dict[int | str, handshake.Answered] = {}
        self.lines = 0
        self.ready = False  # the client said notifications/initialized after our initialize answer

    def answer(self, line: bytes) -> handshake.Answered | None:
        self.lines += 1
        if self.lines == 1:
            answered = handshake.answer(line)
        elif not self.answered:
            return None  # the SDK answers the whole session: its initialize was not ours
        elif (message := _message(line)) is None:
            return None
        elif message.get("method") == "notifications/initialized" and "id" not in message:
            self.ready = True
            return None
        else:
            answered = self._listed(message) if self.ready else None
        if answered is not None:
            self.answered[answered.id] = answered
        return answered

    def _listed(self, message: dict[str, Any]) -> handshake.Answered | None:
        ident, params = message.get("id"), message.get("params")
        if message.get("method") != "tools/list" or isinstance(ident, bool) or not isinstance(ident, (int, str)):
            return None
        if params is not None and (not isinstance(params, dict) or params.get("cursor") is not None):
            return None  # a page the SDK lists (it lists all tools on the first one)
        return handshake.reply(ident, catalog.result(self.max_chars))


def _message(line: bytes) -> dict[str, Any] | None:
    try:
        message = json.loads(line)
    except ValueError:
        return None
    return message if isinstance(message, dict) and message.get("jsonrpc") == "2.0" else None


def serve(config: Config) -> None:
    """Serve one client on stdin/stdout until it goes (or a SIGINT or SIGTERM stops the server)."""
    wire_in, wire_out = claim()
    # the SDK and the engine load meanwhile: the client's first lines and our answers cost no more than before
    loading = threading.Thread(target=importlib.import_module, args=("boundread.mcp.server",), daemon=True)
    loading.start()
    inbox, early = Inbox(wire_in), Early(config.max_chars)
    held: list[bytes] = []  # the lines read while the SDK loads, for its server
    while loading.is_alive() or not held:
        line = inbox.poll(0.02)
        if line is None:
            continue
        if not line:
            break
        held.append(line)
        answered = early.answer(line)
        if answered is not None:
            wire_out.write(answered.line)
            wire_out.flush()
    if not held:
        return  # the client went before it said anything
    loading.join()
    from boundread.mcp import server  # loaded (or its ImportError raised here, in this thread)

    server.serve_stdio(config, held, inbox, wire_out, early.answered)
