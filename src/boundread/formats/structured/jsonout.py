"""Pretty-print the JSON value at a scanner's cursor into a sink, token by token, as the sink allows.

Nothing is built in memory: a string keeps at most the sink's room, nesting is a counter (a million ``[``
indent until the sink is full, then stop), and the first ``False`` from ``sink.write`` ends the walk.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from boundread.formats._jsonscan import Scanner, Str

INDENT = "  "


class Full(Exception):
    """The sink said stop: the value was cut."""


def scalar(token: object) -> str:
    if isinstance(token, Str):
        return json.dumps(token.text, ensure_ascii=False)
    if type(token) is int:  # what json.dumps writes, without its encoder's set-up per call
        return int.__repr__(token)
    return json.dumps(token)


def pretty(sc: Scanner, write: Callable[[str], bool], room: Callable[[], int], level: int = 0) -> None:
    """Write the value at the cursor, indented from ``level``; raises :class:`Full` when ``write`` refuses."""

    def put(text: str) -> None:
        if not write(text):
            raise Full

    closers: list[str] = []  # "}" or "]" for each open container; its length is the depth below ``level``
    while True:
        token = _value(sc, room) if not closers or closers[-1] != "}" else _key(sc, put, room)
        if token in ("{", "["):
            closer = "}" if token == "{" else "]"
            if sc.peek() == ord(closer):
                sc.pos += 1
                put(f"{token}{closer}")
            else:
                put(f"{token}\n{INDENT * (level + len(closers) + 1)}")
                closers.append(closer)
                continue
        elif isinstance(token, str):
            raise sc._corrupt(f"unexpected {token!r}")
        else:
            if isinstance(token, Str) and not token.whole:
                put(scalar(token)[:-1])
                put(f"…\" [string of {token.size:,} bytes cut]")
            else:
                put(scalar(token))
        while closers:  # after a value: the next element, or the end of one or more containers
            end = sc.token()
            if end == ",":
                put(f",\n{INDENT * (level + len(closers))}")
                break
            if end != closers[-1]:
                raise sc._corrupt(f"expected ',' or {closers[-1]!r}")
            closers.pop()
            put(f"\n{INDENT * (level + len(closers))}{end}")
        if not closers:
            return


def _value(sc: Scanner, room: Callable[[], int]) -> object:
    """The next token; a string keeps as much as the sink has room for (and a little more, to see it cut)."""
    return sc.string(max(room(), 0) + 64) if sc.peek() == 0x22 else sc.token()


def _key(sc: Scanner, put: Callable[[str], None], room: Callable[[], int]) -> object:
    """Inside an object: write ``"key": `` and return the value's first token."""
    if sc.peek() != 0x22:
        raise sc._corrupt("expected a key")
    key = sc.string(max(room(), 0) + 64)
    sc.expect(b":")
    put(f"{scalar(key)}: ")
    return _value(sc, room)
