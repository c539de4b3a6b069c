"""The answer to ``tools/list`` without the MCP SDK, from ``catalog.json``: what the SDK lists, stored.

The SDK and its models take 1.4-2 s to import (mcp 2.3 on CPython 3.11, no .pyc written: ``mcp_types`` alone
~0.5 s), and Codex 0.171 builds the index its ``tool_search`` reads when the first turn starts: a server whose
``tools/list`` answer came later was searched as empty (``"tools": []``), and the model's call to
``mcp__boundread/extract`` was "unsupported". So :mod:`boundread.mcp.stdio` answers ``tools/list`` from here
while the SDK loads, hands the request to the SDK too, and drops the SDK's answer after comparing it with this one
(a difference is said on stderr).

The file is the SDK's ``tools/list`` result (the same for each protocol version the early ``initialize`` agrees
to, :data:`boundread.mcp.handshake.PROTOCOLS`) with each tool's ``anthropic/maxResultSizeChars`` set to the server's
``--max-chars``. ``python -m boundread.mcp.catalog`` writes it again from the server's tools (after a tool, an
argument or the SDK changes); tests/test_mcp_tools_listed_before_the_sdk_loads.py fails while it is stale.
"""

from __future__ import annotations

import json
from pathlib import Path  # loaded already: cli/fast.py and mcp/start.py take paths
from typing import Any

from boundread.mcp.handshake import PROTOCOLS

FILE = Path(__file__).with_name("catalog.json")
SIZE_KEY = "anthropic/maxResultSizeChars"  # the one field that depends on the server's options


def result(max_chars: int) -> dict[str, Any]:
    """The ``tools/list`` result of a server started with ``--max-chars max_chars``."""
    listed: dict[str, Any] = json.loads(FILE.read_text(encoding="utf-8"))
    for tool in listed["tools"]:
        tool["_meta"][SIZE_KEY] = max_chars
    return listed


def sdk_result(max_chars: int, version: str) -> dict[str, Any]:
    """What the SDK's server lists, as it goes on the wire to a client of protocol ``version`` (imports the SDK
    and the engine)."""
    import anyio
    from mcp_types import ListToolsResult
    from mcp_types.methods import serialize_server_result

    from boundread.mcp import server
    from boundread.mcp.config import Config

    async def listed() -> dict[str, Any]:
        tools = await server.build(Config(roots=("/",), max_chars=max_chars)).list_tools()
        dumped = ListToolsResult(tools=tools).model_dump(by_alias=True, mode="json", exclude_none=True)
        return serialize_server_result("tools/list", version, dumped)  # the SDK's sieve for that version

    return anyio.run(listed)


def main() -> None:
    FILE.write_text(json.dumps(sdk_result(0, PROTOCOLS[-1]), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {FILE}")


if __name__ == "__main__":
    main()
