"""A simple jq filter run on the document itself, to know how much it prints: ``.items[] | {name, price}``,
``.items | length``, ``.[] | select(.user == "u7") | .path``.

The document (one JSON value, or JSON Lines) is parsed when it is at most MOST bytes - a few tens of ms - and the
filter's stages are followed (on at most SAMPLED records of JSON Lines, evenly spread, scaled to all): paths
(``.a.b``, ``.[0]``, ``.[2:5]``, ``.items[]``), ``select(PRED)`` (jqselect's
predicates), object construction from keys (``{name, price}``, ``{n: .name}``), ``length`` and ``keys``. What they
print, formatted as jq formats it (``-c``, ``-r``; a long array measured on SAMPLED of its elements), is the size.
Any other filter, a bigger document, or one past STEPS values, is not run: None, and jsonprint judges the filter
by its shape.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

T = TypeVar("T")

MOST = 4 * 1024 * 1024
#: Records a filter is run on, and results whose printed size is measured, at most (evenly spread); the rest are
#: scaled from them - a filter over 30,000 records costs what 2,000 do.
SAMPLED = 2000
#: Values a filter's stages are followed through at most (about 0.1 s): past it, the filter is not run here.
STEPS = 40_000


class _Unknown(Exception):
    """A stage this model does not run."""


def printed(program: str, path: str, size: int, *, compact: bool, raw: bool, indent: int = 2) -> int | None:
    """The bytes ``jq [-c] [-r] PROGRAM path`` prints (measured on at most SAMPLED records and results, evenly
    spread, and scaled to all of them); None when the filter or the file is not run here."""
    if size > MOST:
        return None
    try:
        stages = [_stage(text) for text in _split(program)]
        documents, count = _documents(path)
    except (_Unknown, OSError, ValueError, RecursionError):
        return None
    try:
        budget = [STEPS]
        results = [value for document in documents for value in _run(stages, document, budget)]
        measured = _spread(results)
        total = sum(len(value.encode("utf-8", "surrogatepass")) + 1 if raw and isinstance(value, str) else
                    _size(value, compact, indent, 0) + 1 for value in measured)
    except (_Unknown, ValueError, RecursionError, TypeError):
        return None
    per_result = total / len(measured) if measured else 0
    return round(per_result * len(results) * max(1.0, count / max(len(documents), 1)))


def _size(value: object, compact: bool, indent: int, depth: int) -> int:
    """The characters jq prints for ``value`` (``-c`` or indented), a long array measured on SAMPLED elements."""
    import json

    if isinstance(value, dict):
        if not value:
            return 2
        inner = sum(len(json.dumps(key, ensure_ascii=False)) + (1 if compact else 2) +
                    _size(item, compact, indent, depth + 1) for key, item in value.items())
        return inner + _separators(len(value), compact, indent, depth)
    if isinstance(value, list):
        if not value:
            return 2
        picked = _spread(value)
        scaled = sum(_size(item, compact, indent, depth + 1) for item in picked) * len(value) / len(picked)
        return round(scaled) + _separators(len(value), compact, indent, depth)
    return len(json.dumps(value, ensure_ascii=False))


def _separators(items: int, compact: bool, indent: int, depth: int) -> int:
    """The brackets, commas, newlines and indentation around ``items`` members at ``depth``."""
    if compact:
        return 2 + max(0, items - 1)
    return 2 + max(0, items - 1) + items * (1 + indent * (depth + 1)) + 1 + indent * depth


def _spread(items: list[T]) -> list[T]:
    """At most SAMPLED of ``items``, evenly spread (all of them when there are no more)."""
    if len(items) <= SAMPLED:
        return items
    step = len(items) / SAMPLED
    return [items[int(k * step)] for k in range(SAMPLED)]


def _documents(path: str) -> tuple[list[object], int]:
    """The file's JSON values - one document, or (JSON Lines) at most SAMPLED of its lines, evenly spread - and
    how many there are in all."""
    import json

    with open(path, "rb") as fh:
        text = fh.read(MOST + 1).decode("utf-8")
    try:
        return [json.loads(text)], 1
    except ValueError:
        lines = [line for line in text.splitlines() if line.strip()]
        return [json.loads(line) for line in _spread(lines)], len(lines)


def _split(program: str) -> list[str]:
    """The top-level stages of ``a | b | c`` (a ``|`` inside parentheses, brackets, braces or a string stays)."""
    stages, at = [], 0
    for k, ch, depth in _outside_strings(program):
        if ch == "|" and depth == 0:
            stages.append(program[at:k])
            at = k + 1
    stages.append(program[at:])
    return [stage.strip() for stage in stages]


def _outside_strings(text: str) -> Iterator[tuple[int, str, int]]:
    """Each character outside a string, with its place and the bracket depth after it."""
    depth, quote = 0, False
    for k, ch in enumerate(text):
        if quote:
            quote = not (ch == '"' and text[k - 1] != "\\")
            continue
        if ch == '"':
            quote = True
            continue
        depth += 1 if ch in "([{" else -1 if ch in ")]}" else 0
        yield k, ch, depth


def _closes_last(text: str) -> bool:
    """Whether the first bracket of ``text`` closes at its end (``map(.a) | map(.b)`` is two stages)."""
    return next((k for k, ch, depth in _outside_strings(text) if ch in ")]}" and depth == 0), -1) == len(text) - 1


def _stage(text: str) -> tuple[str, object]:
    import re

    if text in (".", ""):
        return "path", []
    if text in ("length", "keys", "keys_unsorted"):
        return text, None
    if text.startswith("map(") and text.endswith(")") and _closes_last(text):  # map(F): [.[] | F]
        return "map", [_stage(inner) for inner in _split(text[4:-1])]
    if text.startswith("select(") and text.endswith(")"):
        from boundread.guard.shell import jqselect

        return "select", jqselect.tokens(text[7:-1])
    if text.startswith("{") and text.endswith("}"):
        fields: list[tuple[str, list[object]]] = []
        for part in filter(None, (piece.strip() for piece in text[1:-1].split(","))):
            key, colon, value = part.partition(":")
            if not re.fullmatch(r"[A-Za-z_]\w*", key.strip()):
                raise _Unknown(part)
            fields.append((key.strip(), _path(value.strip()) if colon else [key.strip()]))
        return "object", fields
    return "path", _path(text)


def _path(text: str) -> list[object]:
    """``.a.b[0][]``, ``.[2:5]``: its steps - a key, an index, a slice (a tuple) or None for ``[]``."""
    import re

    if not text.startswith("."):
        raise _Unknown(text)
    steps: list[object] = []
    for match in re.finditer(r"\.?([A-Za-z_]\w*)|\[(-?\d*)(:?)(-?\d*)\]|(\.)|(\?)", text):
        name, first, colon, last = match.group(1), match.group(2), match.group(3), match.group(4)
        if name:
            steps.append(name)
        elif match.group(5) or match.group(6):
            continue
        elif colon:
            steps.append((int(first) if first else None, int(last) if last else None))
        elif first:
            steps.append(int(first))
        else:
            steps.append(None)
    if re.sub(r"\.?[A-Za-z_]\w*|\[-?\d*:?-?\d*\]|\.|\?", "", text):
        raise _Unknown(text)  # something else in the path
    return steps


def _run(stages: list[tuple[str, object]], value: object, budget: list[int]) -> Iterator[object]:
    budget[0] -= 1
    if budget[0] < 0:
        raise _Unknown("too many values to follow in a hook's time")
    if not stages:
        yield value
        return
    (kind, arg), rest = stages[0], stages[1:]
    for out in _apply(kind, arg, value, budget):
        yield from _run(rest, out, budget)


def _apply(kind: str, arg: object, value: object, budget: list[int]) -> Iterator[object]:
    if kind == "map":
        if not isinstance(value, (list, dict)):
            raise _Unknown("map of a scalar")
        stages = arg if isinstance(arg, list) else []
        yield [out for item in (value.values() if isinstance(value, dict) else value)
               for out in _run(stages, item, budget)]
    elif kind == "path":
        yield from _walk(value, list(arg) if isinstance(arg, list) else [])
    elif kind == "length":
        yield abs(value) if isinstance(value, (int, float)) else 0 if value is None else len(value)  # type: ignore[arg-type]
    elif kind in ("keys", "keys_unsorted"):
        if not isinstance(value, (dict, list)):
            raise _Unknown("keys")
        yield sorted(value) if isinstance(value, dict) else list(range(len(value)))
    elif kind == "select":
        from boundread.guard.shell import jqselect

        if jqselect.holds(arg if isinstance(arg, list) else [], value):
            yield value
    elif kind == "object":
        fields = arg if isinstance(arg, list) else []
        yield {key: next(iter(_walk(value, list(steps))), None) for key, steps in fields}


def _walk(value: object, steps: list[object]) -> Iterator[object]:
    if not steps:
        yield value
        return
    step, rest = steps[0], steps[1:]
    if step is None:  # `[]`: each element, or each value of an object
        items = value if isinstance(value, list) else list(value.values()) if isinstance(value, dict) else None
        if items is None:
            raise _Unknown("cannot iterate")
        for item in items:
            yield from _walk(item, rest)
    elif isinstance(step, str):
        yield from _walk(value.get(step) if isinstance(value, dict) else None, rest)
    elif isinstance(step, int):
        yield from _walk(value[step] if isinstance(value, list) and -len(value) <= step < len(value) else None, rest)
    elif isinstance(step, tuple):
        yield from _walk(value[step[0]:step[1]] if isinstance(value, (list, str)) else None, rest)
