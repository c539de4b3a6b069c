"""A small jq-like path: ``.items[100:120]``, ``.meta.version``, ``.["a b"][0]``, ``.items[].name``.

Steps: a key (``.name`` or ``["any key"]``), an index (``[3]``), a slice (``[A:B]``, either end optional) and
``[]`` (every element). A slice and ``[]`` give one value after another, as jq's ``.[]`` does. Negative
indices are not supported: they need the array's length first (``info`` gives it).
"""

from __future__ import annotations

import json
import re

from boundread import record as rec
from boundread.errors import UsageError

MAX_STEPS = 64
_NAME = re.compile(r"\.([A-Za-z_][A-Za-z0-9_-]*)")
_QUOTED = re.compile(r'\.?\[\s*("(?:[^"\\]|\\.)*")\s*\]|\."((?:[^"\\]|\\.)*)"')
_BRACKET = re.compile(r"\[\s*(\d*)\s*(:?)\s*(\d*)\s*\]")


class Key(rec.Record, frozen=True):
    name: str

    def __str__(self) -> str:
        from boundread.formats.structured.jsonshape import key_path

        return key_path("", self.name)


class Slice(rec.Record, frozen=True):
    """Elements ``start`` to ``stop`` (exclusive, None: to the end); an index is a slice of one."""

    start: int = 0
    stop: int | None = None
    index: bool = False  # written as [N]: one value, and a miss when the array is shorter

    def __str__(self) -> str:
        if self.index:
            return f"[{self.start}]"
        if self.start == 0 and self.stop is None:
            return "[]"
        return f"[{self.start or ''}:{'' if self.stop is None else self.stop}]"

    @property
    def iterates(self) -> bool:
        return not self.index


Step = Key | Slice


def parse(text: str) -> tuple[Step, ...]:
    """``.items[100:120].name`` -> (Key("items"), Slice(100, 120), Key("name")); a usage error names the fault."""
    src = text.strip()
    if not src.startswith((".", "[")):
        raise _bad(text, "a path starts with '.'")
    if src == ".":
        return ()
    steps: list[Step] = []
    pos = 0
    while pos < len(src):
        if m := _NAME.match(src, pos):
            steps.append(Key(m.group(1)))
        elif m := _QUOTED.match(src, pos):
            raw = m.group(1) if m.group(1) is not None else f'"{m.group(2)}"'
            try:
                steps.append(Key(json.loads(raw)))
            except ValueError:
                raise _bad(text, f"a bad quoted key at character {pos + 1}") from None
        elif (m := _BRACKET.match(src, pos)) or (m := _BRACKET.match(src, pos + 1) if src[pos] == "." else None):
            steps.append(_bracket(text, m))
        else:
            if src[pos] == "[" and src[pos + 1:pos + 2] == "-":
                raise _bad(text, "negative indices need the array's length: `boundread info F` gives it")
            raise _bad(text, f"unexpected {src[pos:pos + 10]!r} at character {pos + 1}")
        pos = m.end()
        if len(steps) > MAX_STEPS:
            raise _bad(text, f"more than {MAX_STEPS} steps")
    return tuple(steps)


def _bracket(text: str, m: re.Match[str]) -> Slice:
    first, colon, last = m.group(1), m.group(2), m.group(3)
    if not colon:
        return Slice(int(first), int(first) + 1, index=True) if first else Slice()
    start, stop = int(first or 0), (int(last) if last else None)
    if stop is not None and stop < start:
        raise _bad(text, f"the slice [{first}:{last}] ends before it starts")
    return Slice(start, stop)


def _bad(text: str, why: str) -> UsageError:
    return UsageError(f"bad --path {text!r}: {why}",
                      "write it as jq does: .key, .[\"a key\"], [3], [10:20] or [] (e.g. '.items[100:120]')")


def render(steps: tuple[Step, ...]) -> str:
    text = "".join(str(step) for step in steps)
    return text if text.startswith(".") else "." + text
