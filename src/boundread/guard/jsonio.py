"""``json.loads`` / ``json.dumps`` for the guard-check hot path, without importing ``json``.

The ``json`` package imports ``re`` (and with it enum, functools, collections): about 10 ms of
start-up on every agent tool call, as much as Python itself. Its C accelerator ``_json`` needs none
of that, so this drives ``_json``'s scanner and encoder directly, configured as ``json.loads`` and
``json.dumps(ensure_ascii=False)`` configure them. Anything unusual - a parse error (for its
message), a Python without ``_json``, a value the encoder rejects - goes to the real ``json``.

Hostile input parses rather than crashes (each of these once turned a deny into ``on_error``):
an integer literal of thousands of digits is clamped (``int()`` refuses over 4,300 digits; no guard
count needs more than ``HUGE``); containers nested deeper than ``MAX_DEPTH`` become ``null`` (the
guard reads a few fields near the top, and ``_json`` recurses: RecursionError); a leading UTF-8 BOM
is skipped. ``_json`` cannot report an error while ``json.decoder`` is not imported (it raises
"SystemError: <_json.Scanner object> returned NULL"), so errors are re-raised by the real ``json``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_SPACE = " \t\n\r"  # JSON whitespace
BOM = "\ufeff"
MAX_DEPTH = 64  # deeper containers are replaced by null
MAX_DIGITS = 40  # longer integer literals are clamped to +/- HUGE
HUGE: int = 10 ** MAX_DIGITS
_FAILED = (ImportError, StopIteration, ValueError, TypeError, SystemError)


def _int(text: str) -> int:
    if len(text) <= MAX_DIGITS:
        return int(text)
    return -HUGE if text.startswith("-") else HUGE


class _Context:
    """What ``_json.make_scanner`` reads from a ``json.JSONDecoder()``: the defaults, but ``parse_int``."""

    __slots__ = ("object_hook", "object_pairs_hook", "parse_float", "parse_int", "parse_constant", "strict")  # noqa: RUF023 - field order = argument order

    def __init__(self) -> None:
        self.object_hook = self.object_pairs_hook = None
        self.parse_float, self.parse_int, self.strict = float, _int, True
        self.parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}.__getitem__


def loads(text: str) -> Any:
    """``json.loads(text)``; raises ``json.JSONDecodeError`` (a ValueError) for bad JSON."""
    text = text[1:] if text.startswith(BOM) else text
    try:
        return _scan(text)
    except RecursionError:
        return _scan(shallow(text))
    except _FAILED:
        pass
    try:
        import json  # the real parser, for its exact error (or result)

        return json.loads(text, parse_int=_int)
    except RecursionError:
        import json

        return json.loads(shallow(text), parse_int=_int)


def complete(text: str) -> bool:
    """True when ``text`` holds one whole JSON value (a cheap probe: no ``json`` import on failure)."""
    text = text[1:] if text.startswith(BOM) else text
    try:
        _scan(text)
    except RecursionError:
        return complete(shallow(text))
    except _FAILED:
        return False
    return True


def _scan(text: str) -> Any:
    from _json import make_scanner

    start = len(text) - len(text.lstrip(_SPACE))
    value, end = make_scanner(_Context())(text, start)  # type: ignore[arg-type]  # typeshed: any context
    if text[end:].strip(_SPACE):
        raise ValueError("extra data")
    return value


def shallow(text: str) -> str:
    """``text`` with every array or object nested deeper than MAX_DEPTH replaced by ``null``. Linear."""
    import re  # only for hostile input

    depth, cut, parts, last = 0, -1, [], 0
    for match in re.finditer(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth == MAX_DEPTH + 1:
                cut = match.start()
        elif token in "]}":
            if depth == MAX_DEPTH + 1 and cut >= 0:
                parts += [text[last:cut], "null"]
                last, cut = match.end(), -1
            depth -= 1
    parts.append(text[last:])
    return "".join(parts)


def dumps(value: object) -> str:
    """``json.dumps(value, ensure_ascii=False)``."""
    try:
        from _json import encode_basestring, make_encoder

        # the arguments json.JSONEncoder.iterencode passes: markers, default, encoder, indent,
        # key_separator, item_separator, sort_keys, skipkeys, allow_nan
        encode = make_encoder({}, _unencodable, encode_basestring, None, ": ", ", ", False, False, True)
        return "".join(encode(value, 0))
    except (ImportError, TypeError, ValueError):
        import json

        return json.dumps(value, ensure_ascii=False)


def _unencodable(value: object) -> object:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
