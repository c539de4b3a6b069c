"""``boundread mcp`` over stdio, answering ``initialize`` before the SDK is loaded.

The MCP SDK costs about half a second to import, the engine and its models more; a client waits for the
``initialize`` answer before anything else. So the first line is read here, answered from
:mod:`boundread.mcp.handshake` when it is ``initialize`` (standard library only: the answer leaves about 0.2 s
after the process starts, most of it Python and Typer), and only then is the SDK imported. The SDK's server then
reads that same first line again (so its session knows the client, its protocol version and its capabilities,
as if it had answered), and its own answer to it is dropped (compared first: :func:`handshake.same`).

The wire is claimed before anything runs: the transport reads and writes private duplicates of fd 0 and 1,
while fd 0 reads /dev/null and fd 1 is stderr, so a stray print of a library never breaks a message.
"""

from __future__ import annotations

import importlib
import os
import threading
from typing import BinaryIO

from boundread.mcp import handshake
from boundread.mcp.config import Config


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


def serve(config: Config) -> None:
    """Serve one client on stdin/stdout until it goes (or a SIGINT or SIGTERM stops the server)."""
    wire_in, wire_out = claim()
    # the SDK and the engine load meanwhile: the client's first line and our answer cost no more than before
    loading = threading.Thread(target=importlib.import_module, args=("boundread.mcp.server",), daemon=True)
    loading.start()
    first = wire_in.readline()
    if not first:
        return  # the client went before it said anything
    answered = handshake.answer(first)
    if answered is not None:
        wire_out.write(answered.line)
        wire_out.flush()
    loading.join()
    from boundread.mcp import server  # loaded (or its ImportError raised here, in this thread)

    server.serve_stdio(config, first, wire_in, wire_out, answered)
