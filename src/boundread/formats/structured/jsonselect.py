"""Walk a JSON file along a path, writing what it selects and stepping over the rest unread.

A key's siblings, the elements before a slice and everything after the last possible match are skipped with
``Scanner.skip_value`` (brackets only); the walk ends as soon as nothing further can match. Values are
numbered in the order they come; ``first``/``last`` (``--rows``) and ``limit`` (``--max-rows``) bound them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from boundread import record as rec
from boundread.formats._jsonscan import Scanner, Str
from boundread.formats.structured import jsonout
from boundread.formats.structured.jsonpath import Key, Slice, Step, render
from boundread.formats.structured.jsonshape import key_path

MAX_KEYS_SHOWN = 20
_INDEX = re.compile(r"\[\d+\]")
_TYPES = {0x7B: "an object", 0x5B: "an array", 0x22: "a string", 0x74: "a boolean", 0x66: "a boolean",
          0x6E: "null"}


class _Done(Exception):
    """Nothing after this point can match."""


class _Limit(Exception):
    """The last value asked for was written."""


class Selected(rec.Record):
    values: int = 0  # values written
    seen: int = 0  # values reached (written or skipped before ``first``)
    misses: Counter[str] = rec.field(default_factory=Counter)  # why a step found nothing, by generic path
    cut: bool = False  # the sink filled inside a value
    limited: bool = False  # stopped at ``last`` or ``limit`` with more possibly after
    resume_path: str | None = None  # the path that continues after the last value written
    resume_rows: int | None = None  # or the value number to continue from
    array: bool = False  # the last value begun is an array (one cut inside goes on as its elements)


class Selector:
    def __init__(self, sc: Scanner, steps: tuple[Step, ...], write: Callable[[str], bool],
                 room: Callable[[], int], *, first: int = 1, last: int | None = None, limit: int = 200) -> None:
        self.sc, self.steps, self.write, self.room = sc, steps, write, room
        self.first, self.last, self.limit = first, last, limit
        self.got = Selected()
        iterating = [i for i, step in enumerate(steps) if isinstance(step, Slice) and step.iterates]
        self.outer = iterating[0] if len(iterating) == 1 else None  # the one iterating step, for a resume path
        self.outer_index = 0

    def run(self) -> Selected:
        try:
            self.walk(0, ".")
        except _Done:
            pass
        except _Limit:
            self.got.limited = True
            self._resume()
        except jsonout.Full:
            self.got.cut = True
            if self.got.values:  # a value alone larger than the output: starting there again changes nothing
                self._resume()
        return self.got

    def _resume(self) -> None:
        """Where the next command starts: at the value that was cut or not reached."""
        if self.outer is not None:
            step = self.steps[self.outer]
            assert isinstance(step, Slice)
            steps = list(self.steps)
            steps[self.outer] = Slice(self.outer_index, step.stop)
            self.got.resume_path = render(tuple(steps))
        else:
            self.got.resume_rows = self.got.seen + (0 if self.got.cut else 1)

    def _unique(self, i: int) -> bool:
        """No step before ``i`` iterates: the value there is the only one, so the walk ends after it."""
        return not any(isinstance(s, Slice) and s.iterates for s in self.steps[:i])

    def miss(self, path: str, why: str) -> None:
        self.got.misses[f"{_generic(path)}: {why}"] += 1
        self.sc.skip_value()

    def walk(self, i: int, path: str) -> None:
        sc = self.sc
        if i == len(self.steps):
            self.emit()
            return
        step = self.steps[i]
        c = sc.peek()
        if isinstance(step, Key):
            if c != 0x7B:
                self.miss(path, f"{_TYPES.get(c or 0, 'a number')}, not an object (no key {step.name!r})")
            else:
                self.key(i, step, path)
        elif c != 0x5B:
            self.miss(path, f"{_TYPES.get(c or 0, 'a number')}, not an array (no {step})")
        else:
            self.elements(i, step, path)

    def key(self, i: int, step: Key, path: str) -> None:
        sc = self.sc
        sc.expect(b"{")
        found = False
        keys: list[str] = []
        if sc.peek() == 0x7D:
            sc.pos += 1
        else:
            while True:
                key = sc.string(4096) if sc.peek() == 0x22 else None
                if key is None:
                    raise sc._corrupt("expected a key")
                sc.expect(b":")
                if not found and key.whole and key.text == step.name:
                    found = True
                    self.walk(i + 1, key_path(path, step.name))
                    if self._unique(i):
                        raise _Done
                else:
                    if len(keys) < MAX_KEYS_SHOWN:
                        keys.append(_shown(key))
                    sc.skip_value()
                end = sc.token()
                if end == "}":
                    break
                if end != ",":
                    raise sc._corrupt("expected ',' or '}'")
        if not found:
            self.got.misses[f"{_generic(path)}: no key {step.name!r}; its keys: "
                            f"{', '.join(keys) or '(none: an empty object)'}"] += 1

    def elements(self, i: int, step: Slice, path: str) -> None:
        sc = self.sc
        sc.expect(b"[")
        index = 0
        if sc.peek() == 0x5D:
            sc.pos += 1
        else:
            while True:
                if index < step.start or (step.stop is not None and index >= step.stop):
                    if step.stop is not None and index >= step.stop and self._unique(i):
                        raise _Done
                    skipped, closed, _ = sc.skip_elements(step.start - index if index < step.start else None)
                    index += skipped
                    if closed:
                        break
                    continue
                if i == self.outer:
                    self.outer_index = index
                self.walk(i + 1, f"{path}[{index}]")
                index += 1
                end = sc.token()
                if end == "]":
                    break
                if end != ",":
                    raise sc._corrupt("expected ',' or ']'")
        if step.index and index <= step.start:
            self.got.misses[f"{_generic(path)}: no {step}, the array has {index:,} elements"] += 1

    def emit(self) -> None:
        got = self.got
        got.seen += 1
        if got.seen < self.first:
            self.sc.skip_value()
            return
        if (self.last is not None and got.seen > self.last) or got.values >= self.limit:
            got.seen -= 1
            raise _Limit
        got.array = self.sc.peek() == 0x5B
        jsonout.pretty(self.sc, self.write, self.room)
        got.values += 1
        if not self.write("\n"):
            raise jsonout.Full


def _generic(path: str) -> str:
    """``.items[3].tags[0]`` -> ``.items[].tags[]``: one entry for every element."""
    return _INDEX.sub("[]", path)


def _shown(key: Str) -> str:
    return key.text if key.whole and len(key.text) <= 60 else f"{key.text[:60]}…"
