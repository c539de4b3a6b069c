"""The shape of a JSON value, read in one bounded pass: types, keys with counts, array lengths, depth, samples.

Every object and array is described down to ``WALK_DEPTH`` levels for the first ``SAMPLE_ITEMS`` elements of
each array; beyond that an element is stepped over (``Scanner.skip_value``: brackets only, in C) and only
counted. Paths are generic (``.items[].tags``): the elements of an array share one entry, so a million items
add nothing to memory.
"""

from __future__ import annotations

import re
from collections import Counter

from boundread import record as rec
from boundread.errors import Corrupt
from boundread.formats._jsonscan import OutOfTime, Scanner, Str

WALK_DEPTH = 6
SAMPLE_ITEMS = 1000  # elements of each array described key by key; the rest are counted
SKIP_BATCH = 10_000  # elements counted per skip: the count so far survives a timeout
MAX_PATHS = 200  # generic paths remembered
MAX_KEYS = 100  # keys tallied per generic path
MAX_SAMPLES = 12
SAMPLE_CHARS = 80
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_FIRST = {0x7B: "object", 0x5B: "array", 0x22: "string", 0x74: "boolean", 0x66: "boolean", 0x6E: "null"}


def key_path(path: str, key: str) -> str:
    """``.items`` + ``name`` -> ``.items.name``; a key that is not an identifier is quoted: ``.["a b"]``."""
    import json

    step = f".{key}" if _IDENT.match(key) else f"[{json.dumps(key, ensure_ascii=False)}]"
    return (step if step.startswith(".") else "." + step) if path == "." else path + step


class Node(rec.Record):
    """What was seen at one generic path."""

    types: Counter[str] = rec.field(default_factory=Counter)
    keys: Counter[str] = rec.field(default_factory=Counter)  # objects: how many had each key
    objects: int = 0
    arrays: int = 0
    longest: int = 0  # arrays: the most elements one had
    elements: int = 0  # arrays: all elements, summed
    sampled_all: bool = True  # every element was described (none only counted)


class Shape(rec.Record):
    top: str = "?"
    depth: int = 0
    nodes: dict[str, Node] = rec.field(default_factory=dict)
    samples: list[tuple[str, str]] = rec.field(default_factory=list)
    complete: bool = True  # the whole value was read (not stopped by the deadline)
    bytes_read: int = 0
    trailing: bool = False  # more data after the top value
    warnings: list[str] = rec.field(default_factory=list)


def describe(sc: Scanner) -> Shape:
    shape = Shape()
    try:
        first = sc.peek()
        if first is None:
            raise Corrupt("empty JSON file: nothing to read", "check the file")
        shape.top = _FIRST.get(first, "number")
        _Walk(sc, shape).value(".", 0)
        shape.trailing = not sc.at_end()
    except OutOfTime:
        shape.complete = False
    shape.depth = max(shape.depth, sc.max_depth)
    shape.bytes_read = sc.offset
    if sc.bad_utf8 is not None:
        shape.warnings.append(f"invalid UTF-8 in a string near byte {sc.bad_utf8:,}: shown as U+FFFD")
    return shape


def show(value: object) -> str:
    import json

    if isinstance(value, Str):
        text = json.dumps(value.text[:SAMPLE_CHARS], ensure_ascii=False)
        return text if value.whole and len(value.text) <= SAMPLE_CHARS else f"{text[:-1]}…\" ({value.size:,} bytes)"
    return json.dumps(value)


class _Walk:
    def __init__(self, sc: Scanner, shape: Shape) -> None:
        self.sc, self.shape = sc, shape

    def node(self, path: str) -> Node | None:
        nodes = self.shape.nodes
        if path not in nodes and len(nodes) >= MAX_PATHS:
            return None
        return nodes.setdefault(path, Node())

    def value(self, path: str, depth: int) -> None:
        sc = self.sc
        c = sc.peek()
        node = self.node(path)
        kind = _FIRST.get(c, "number") if c is not None else "?"
        if node is not None:
            node.types[kind] += 1
        if c in (0x7B, 0x5B):
            if depth >= WALK_DEPTH:
                self.shape.depth = max(self.shape.depth, depth + sc.skip_value(depth))
            elif c == 0x7B:
                self.object(path, depth + 1, node)
            else:
                self.array(path, depth + 1, node)
            return
        token = sc.token()
        if isinstance(token, str):
            raise sc._corrupt(f"unexpected {token!r}")
        samples = self.shape.samples
        if len(samples) < MAX_SAMPLES and all(p != path for p, _ in samples):
            samples.append((path, show(token)))

    def object(self, path: str, depth: int, node: Node | None) -> None:
        sc = self.sc
        self.shape.depth = max(self.shape.depth, depth)
        sc.expect(b"{")
        if node is not None:
            node.objects += 1
        if sc.peek() == 0x7D:
            sc.pos += 1
            return
        while True:
            key = sc.token()
            if not isinstance(key, Str):
                raise sc._corrupt("expected a key")
            if node is not None and (key.text in node.keys or len(node.keys) < MAX_KEYS):
                node.keys[key.text] += 1
            sc.expect(b":")
            self.value(key_path(path, key.text), depth)
            end = sc.token()
            if end == "}":
                return
            if end != ",":
                raise sc._corrupt("expected ',' or '}'")

    def array(self, path: str, depth: int, node: Node | None) -> None:
        sc = self.sc
        self.shape.depth = max(self.shape.depth, depth)
        sc.expect(b"[")
        count = 0
        inner = path + "[]"
        try:
            if sc.peek() == 0x5D:
                sc.pos += 1
                return
            while count < SAMPLE_ITEMS:
                self.value(inner, depth)
                count += 1
                end = sc.token()
                if end == "]":
                    return
                if end != ",":
                    raise sc._corrupt("expected ',' or ']'")
            element = self.node(inner)  # the rest are counted, a regular-expression run each
            if element is not None:
                element.sampled_all = False
            closed = False
            while not closed:  # in batches: a timeout keeps the count so far
                rest, closed, firsts = sc.skip_elements(SKIP_BATCH, depth)
                count += rest
                if element is not None:
                    for byte, n in enumerate(firsts):
                        if n:
                            element.types[_FIRST.get(byte, "number")] += n
        finally:  # also when the deadline stops it inside: an array of at least ``count``
            if node is not None:
                node.arrays += 1
                node.elements += count
                node.longest = max(node.longest, count)
