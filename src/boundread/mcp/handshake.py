"""The answer to ``initialize``, without the MCP SDK: the SDK takes about half a second to import (its
``mcp_types`` models alone ~0.2 s), and a client waits for this answer before it lists the tools (Codex's
``tool_search`` found none in a server still starting up). :mod:`boundread.mcp.stdio` sends it as soon as the
request arrives, then hands the request to the SDK too, and drops the SDK's own answer - after comparing it
with this one: a difference (a newer SDK) is said on stderr, and tests/test_mcp_startup.py fails on it.

Standard library only: what the SDK would say, from its ``HANDSHAKE_PROTOCOL_VERSIONS`` and the capabilities
the server's tools and resources give it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from boundread import __version__

NAME = "boundread"

INSTRUCTIONS = """Bounded reads of big files (PDF, Office, spreadsheets, archives, huge logs).
Call info(path) first: it says what the file is and which call reads it. Every result is bounded; its
text ends with `next: <call>`, the call that reads the next part. The slice is also saved to a file
(the resource link). Paths are relative to the served folder."""

#: the SDK's ``mcp_types.version.HANDSHAKE_PROTOCOL_VERSIONS`` (2.3): a client asking for another gets the last
PROTOCOLS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")

CAPABILITIES: dict[str, Any] = {
    "prompts": {"listChanged": False},
    "resources": {"listChanged": False, "subscribe": False},
    "tools": {"listChanged": False},
}


@dataclass(frozen=True)
class Answered:
    """A request answered before the SDK loaded: its id and the result sent."""

    id: int | str
    result: dict[str, Any]
    line: bytes  # as written to the client


def answer(line: bytes) -> Answered | None:
    """The answer to ``line`` when it is a well-formed ``initialize`` request; None for anything else (the SDK
    answers it, an error included)."""
    try:
        message = json.loads(line)
    except ValueError:
        return None
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0" or message.get("method") != "initialize":
        return None
    ident, params = message.get("id"), message.get("params")
    if isinstance(ident, bool) or not isinstance(ident, (int, str)) or not _valid(params):
        return None
    assert isinstance(params, dict)
    asked = params["protocolVersion"]
    return reply(ident, {"capabilities": CAPABILITIES, "instructions": INSTRUCTIONS,
                         "protocolVersion": asked if asked in PROTOCOLS else PROTOCOLS[-1],
                         "serverInfo": {"name": NAME, "version": __version__}})


def reply(ident: int | str, result: dict[str, Any]) -> Answered:
    """The answer to request ``ident``, as one line on the wire."""
    message = {"jsonrpc": "2.0", "id": ident, "result": result}
    return Answered(ident, result, json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")


def _valid(params: object) -> bool:
    """The fields the SDK's InitializeRequestParams requires, of their types."""
    if not isinstance(params, dict):
        return False
    client = params.get("clientInfo")
    return (isinstance(params.get("protocolVersion"), str) and isinstance(params.get("capabilities"), dict)
            and isinstance(client, dict) and isinstance(client.get("name"), str)
            and isinstance(client.get("version"), str))


def same(answered: Answered, sdk_line: str) -> bool | None:
    """Whether ``sdk_line`` is the SDK's answer to the same request: True when it says what we said, False when
    it differs, None when it is another message."""
    try:
        message = json.loads(sdk_line)
    except ValueError:
        return None
    if not isinstance(message, dict) or message.get("id") != answered.id or "method" in message:
        return None
    return message.get("result") == answered.result
