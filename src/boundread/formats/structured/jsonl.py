"""JSON Lines: a record is a line. Records are counted at C speed (``bytes.count`` over 1 MiB blocks), the
first ones are parsed for their keys, and ``--rows A-B`` skips to record A without parsing what it passes.

A record longer than ``MAX_RECORD`` bytes is cut there (the rest of its line is stepped over, not kept); an
invalid record is counted and named by its line number.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator

from boundread import record as rec
from boundread.formats._jsonscan import BLOCK, OutOfTime
from boundread.limits import Deadline

TYPE_CHECKING = False  # typing for mypy only: it costs a read's start-up
if TYPE_CHECKING:
    from typing import IO

MAX_RECORD = 1 << 20  # bytes of one record kept (parsed for info, written by extract)
SAMPLE_RECORDS = 1000
MAX_KEYS = 100
NAMED_BAD = 5  # invalid records named by number; the rest are counted


class Record(rec.Record):
    number: int  # 1-based line number
    raw: bytes  # at most MAX_RECORD bytes, without the line end
    size: int  # the whole line's bytes


class Tally(rec.Record):
    records: int = 0  # lines (a last line without a line end counts); blank ones are counted in the sample
    blank: int = 0
    counted_all: bool = True  # False: the deadline stopped the count
    bytes_read: int = 0
    sampled: int = 0
    types: Counter[str] = rec.field(default_factory=Counter)
    keys: Counter[str] = rec.field(default_factory=Counter)
    bad: list[int] = rec.field(default_factory=list)  # numbers of invalid records among the sampled (first NAMED_BAD)
    bad_count: int = 0
    longest: int = 0
    first: str | None = None  # the first record, as written (cut at 300 chars)


def records(fh: IO[bytes], deadline: Deadline | None = None, *, start: int = 1) -> Iterator[Record]:
    """Lines from line ``start`` on, each kept to MAX_RECORD bytes; lines before ``start`` are counted, not kept."""
    number = 1
    pending = b""
    while number < start:  # skip whole blocks by their newline count
        if deadline is not None and deadline.expired:
            raise OutOfTime
        block = fh.read(BLOCK)
        if not block:
            return
        lines = block.count(b"\n")
        if number + lines < start:
            number += lines
            continue
        cut = -1
        for _ in range(start - number):
            cut = block.index(b"\n", cut + 1)
        number = start
        pending = block[cut + 1:]
    kept: list[bytes] = [pending] if pending else []
    kept_len, size = len(pending), len(pending)
    while True:
        while (end := _newline(kept)) is None:
            if deadline is not None and deadline.expired:
                raise OutOfTime
            block = fh.read(BLOCK)
            if not block:
                if size:
                    yield Record(number, b"".join(kept)[:MAX_RECORD], size)
                return
            nl = block.find(b"\n")
            if kept_len >= MAX_RECORD and nl < 0:  # inside a long record: count it, keep nothing more
                size += len(block)
                continue
            kept.append(block)
            kept_len += len(block)
            size += len(block)
        joined = b"".join(kept)
        line, rest = joined[:end], joined[end + 1:]
        size -= len(rest) + 1
        yield Record(number, line[:MAX_RECORD].rstrip(b"\r"), size)
        number += 1
        kept, kept_len, size = [rest], len(rest), len(rest)


def _newline(kept: list[bytes]) -> int | None:
    offset = 0
    for piece in kept:
        at = piece.find(b"\n")
        if at >= 0:
            return offset + at
        offset += len(piece)
    return None


def tally(fh: IO[bytes], deadline: Deadline | None = None) -> Tally:
    """Parse the first SAMPLE_RECORDS records for their keys, then count every line by its line end."""
    t = Tally()
    lines = 0
    try:
        for rec in records(fh, deadline):
            t.longest = max(t.longest, rec.size)
            if not rec.raw.strip():
                t.blank += 1
                continue
            _sample(t, rec)
            if t.sampled >= SAMPLE_RECORDS:
                break
        fh.seek(0)
        lines, last = 0, b""
        while block := fh.read(BLOCK):
            if deadline is not None and deadline.expired:
                raise OutOfTime
            t.bytes_read += len(block)
            lines += block.count(b"\n")
            last = block[-1:]
        t.records = lines + (1 if last not in (b"", b"\n") else 0)
    except OutOfTime:
        t.counted_all = False
        t.records = lines
    return t


def _sample(t: Tally, rec: Record) -> None:
    t.sampled += 1
    if t.first is None:
        t.first = rec.raw[:300].decode("utf-8", errors="replace")
    try:
        value = json.loads(rec.raw) if rec.size <= MAX_RECORD else None
    except ValueError:
        t.bad_count += 1
        if len(t.bad) < NAMED_BAD:
            t.bad.append(rec.number)
        return
    t.types[type_name(value) if rec.size <= MAX_RECORD else "object (too long to parse)"] += 1
    if isinstance(value, dict):
        for key in value:
            if key in t.keys or len(t.keys) < MAX_KEYS:
                t.keys[key] += 1


def type_name(value: object) -> str:
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    return "null" if value is None else "number"
