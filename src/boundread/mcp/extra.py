"""Whether the ``mcp`` extra is installed, asked without importing it (finding a package costs ~1 ms, importing
the SDK ~0.5 s): ``boundread mcp`` refuses to start, ``init --mcp`` to register, and doctor calls a registered
server not ready when it is missing."""

from __future__ import annotations

import importlib.util
import sys

#: what ``boundread[mcp]`` brings that the server imports
PACKAGES = ("mcp", "mcp_types", "anyio", "pydantic")
FIX = "install it: pip install 'boundread[mcp]'"


def missing() -> str | None:
    """The first package of the extra that is not installed; None when all are."""
    for name in PACKAGES:
        if name in sys.modules:
            if sys.modules[name] is None:  # blocked, as a test does to play a machine without it
                return name
            continue
        if importlib.util.find_spec(name) is None:
            return name
    return None
