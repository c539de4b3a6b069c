"""The client's lines on stdio, read by a thread of their own: read once by :mod:`boundread.mcp.stdio` while the SDK
loads, then by the SDK's server (:mod:`boundread.mcp.server`), so both take them from here."""

from __future__ import annotations

import queue
import threading
from typing import BinaryIO


class Inbox:
    """The client's lines, read by a daemon thread (so a read blocked on an idle client never keeps a stopping
    server alive): :meth:`get` gives the next one, ``b""`` once the client has gone; :meth:`poll` waits for
    it only so long."""

    def __init__(self, wire: BinaryIO) -> None:
        self._lines: queue.Queue[bytes] = queue.Queue()
        self._ended = False
        threading.Thread(target=self._read, args=(wire,), name="boundread-mcp-stdin", daemon=True).start()

    def _read(self, wire: BinaryIO) -> None:
        try:
            for line in iter(wire.readline, b""):
                self._lines.put(line)
        except (OSError, ValueError):
            pass  # the wire broke or closed: the client has gone
        self._lines.put(b"")

    def get(self) -> bytes:
        """The next line; ``b""`` when the client has gone."""
        if self._ended:
            return b""
        line = self._lines.get()
        self._ended = line == b""
        return line

    def poll(self, timeout: float) -> bytes | None:
        """:meth:`get`, or None when no line came within ``timeout`` seconds."""
        if self._ended:
            return b""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            return None
        self._ended = line == b""
        return line
