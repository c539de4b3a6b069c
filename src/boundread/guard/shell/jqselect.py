"""``jq 'select(PRED)' events.jsonl``: the records PRED keeps, sized on a sample of the file, as a grep's matches are.

A select prints the records that match: a few (``select(.user == "u7" and .ts < 200)``) or nearly all of them
(``select(.type == "click")`` when every event is a click). On a JSON Lines file the predicate - paths compared
with literals, joined by ``and``/``or``, in parentheses - is evaluated on each whole record of a 64 KB sample;
the share of the sample's bytes it keeps, times the file's size, is a BYTES bound ``decide`` checks against the
cap (exact when the sample is the whole file). Any other filter or file is not sized: a part, as before.
"""

from __future__ import annotations

from boundread.guard.bounds import BYTES, Bound

_SAMPLE = 64 * 1024
_TOKEN = (r'\s*(\.[A-Za-z_][\w.]*|\.|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|==|!=|<=|>=|<|>|\(|\)'
          r"|\band\b|\bor\b|\btrue\b|\bfalse\b|\bnull\b)")
_OPS = frozenset({"==", "!=", "<", "<=", ">", ">="})


class _Unknown(Exception):
    """A predicate this model does not read: the select is not sized."""


def bound(program: str, path: str, size: int, words: str) -> Bound | None:
    """The bytes ``select(PRED)`` keeps of the JSON Lines file at ``path`` (estimated); None when not sized."""
    import re

    match = re.fullmatch(r"\s*select\s*\((.*)\)\s*", program, re.DOTALL)
    if match is None:
        return None
    try:
        tokens = _tokens(match.group(1))
        records = _records(path, size)
    except (_Unknown, OSError):
        return None
    import json

    seen = kept = 0
    for line in records:
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            at, value = _or(tokens, 0, record)
        except (ValueError, _Unknown, RecursionError):
            return None  # not JSON Lines, or a predicate this model does not read
        if at != len(tokens):
            return None
        seen += len(line) + 1
        kept += len(line) + 1 if _truthy(value) else 0
    if not seen:
        return None
    estimate = kept if size <= _SAMPLE else size * kept // seen + 1
    return Bound(BYTES, estimate, words=words)


def tokens(predicate: str) -> list[str]:
    """The predicate's tokens, for ``holds``; ValueError when this model does not read it."""
    try:
        return _tokens(predicate)
    except _Unknown as exc:
        raise ValueError(str(exc)) from None


def holds(found: list[str], record: object) -> bool:
    """Does the predicate (its ``tokens``) hold for ``record``? ValueError when it cannot be evaluated."""
    try:
        at, value = _or(found, 0, record)
    except _Unknown as exc:
        raise ValueError(str(exc)) from None
    if at != len(found):
        raise ValueError("more after the predicate")
    return _truthy(value)


def _records(path: str, size: int) -> list[bytes]:
    """The whole records of the file, or of three slices of it (its start, middle and end: a file sorted on
    the field a predicate compares is not judged by its first records alone)."""
    with open(path, "rb") as fh:
        if size <= _SAMPLE:
            return fh.read().split(b"\n")
        out: list[bytes] = []
        part = _SAMPLE // 3
        for start in (0, (size - part) // 2, size - part):
            fh.seek(start)
            lines = fh.read(part).split(b"\n")
            out.extend(lines[1 if start else 0:-1])  # the first and last lines of a slice are cut
        return out


def _tokens(text: str) -> list[str]:
    import re

    out: list[str] = []
    at = 0
    while at < len(text.rstrip()):
        match = re.match(_TOKEN, text[at:])
        if match is None:
            raise _Unknown(text[at:])
        out.append(match.group(1))
        at += match.end()
    return out


def _or(tokens: list[str], at: int, record: object) -> tuple[int, object]:
    at, value = _and(tokens, at, record)
    while at < len(tokens) and tokens[at] == "or":
        at, other = _and(tokens, at + 1, record)
        value = _truthy(value) or _truthy(other)
    return at, value


def _and(tokens: list[str], at: int, record: object) -> tuple[int, object]:
    at, value = _compare(tokens, at, record)
    while at < len(tokens) and tokens[at] == "and":
        at, other = _compare(tokens, at + 1, record)
        value = _truthy(value) and _truthy(other)
    return at, value


def _compare(tokens: list[str], at: int, record: object) -> tuple[int, object]:
    at, left = _atom(tokens, at, record)
    if at < len(tokens) and tokens[at] in _OPS:
        op = tokens[at]
        at, right = _atom(tokens, at + 1, record)
        a, b = _rank(left), _rank(right)
        return at, {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
    return at, left


def _atom(tokens: list[str], at: int, record: object) -> tuple[int, object]:
    import json

    if at >= len(tokens):
        raise _Unknown("end")
    token = tokens[at]
    if token == "(":
        at, value = _or(tokens, at + 1, record)
        if at >= len(tokens) or tokens[at] != ")":
            raise _Unknown("(")
        return at + 1, value
    if token.startswith("."):
        value = record
        for key in filter(None, token[1:].split(".")):
            value = value.get(key) if isinstance(value, dict) else None
        return at + 1, value
    if token in ("and", "or", ")") or token in _OPS:
        raise _Unknown(token)
    return at + 1, json.loads(token)  # a string, a number, true, false, null


def _truthy(value: object) -> bool:
    return value is not None and value is not False


def _rank(value: object) -> tuple[int, object]:
    """jq's order: null < false < true < numbers < strings < arrays < objects."""
    if value is None:
        return 0, 0
    if isinstance(value, bool):
        return (2, 0) if value else (1, 0)
    if isinstance(value, (int, float)):
        return 3, value
    if isinstance(value, str):
        return 4, value
    return (5, repr(value)) if isinstance(value, list) else (6, repr(value))
