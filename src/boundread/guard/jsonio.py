"""``json.loads`` / ``json.dumps`` for the guard-check hot path, without importing ``json``.

The ``json`` package imports ``re`` (and with it enum, functools, collections): about 10 ms of
start-up on every agent tool call, as much as Python itself. Its C accelerator ``_json`` needs none
of that, so this drives ``_json``'s scanner and encoder directly, configured exactly as ``json.loads``
and ``json.dumps(ensure_ascii=False)`` configure them. Anything unusual - a parse error (for its
message), a Python without ``_json``, a value the encoder rejects - goes to the real ``json``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_SPACE = " \t\n\r"  # JSON whitespace


class _Context:
    """What ``_json.make_scanner`` reads from a ``json.JSONDecoder()``: the defaults."""

    __slots__ = ("object_hook", "object_pairs_hook", "parse_float", "parse_int", "parse_constant", "strict")  # noqa: RUF023 - field order = argument order

    def __init__(self) -> None:
        self.object_hook = self.object_pairs_hook = None
        self.parse_float, self.parse_int, self.strict = float, int, True
        self.parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}.__getitem__


def loads(text: str) -> Any:
    """``json.loads(text)``; raises ``json.JSONDecodeError`` (a ValueError) for bad JSON."""
    try:
        from _json import make_scanner

        start = len(text) - len(text.lstrip(_SPACE))
        value, end = make_scanner(_Context())(text, start)  # type: ignore[arg-type]  # typeshed: any context
        if text[end:].strip(_SPACE):
            raise ValueError("extra data")
        return value
    except (ImportError, StopIteration, ValueError, TypeError):
        import json  # the real parser, for its exact error (or result)

        return json.loads(text)


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
