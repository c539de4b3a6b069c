"""What every agent-log reader shares: the reader protocol, token counts checked, JSON lines and times read safely.

A log line is hostile until read: a count may be negative, a string, a boolean, 5,000 digits; a line may nest
100,000 deep (``json.loads`` then raises RecursionError, which is no ValueError); a time may be anything. Each
of those is one short warning and a skipped value or record, never a traceback.
"""

from __future__ import annotations

import calendar
import json
import os
import re
import stat
from pathlib import Path
from typing import IO, Any, Protocol

from boundread.budget.model import UsageRecord
from boundread.errors import NotFound

ABSURD = 100_000_000  # more tokens than any context window holds: recorded, but warned about
IMPOSSIBLE = 10**12  # past this no count is real: the record is skipped (priced, summed: SQLite's int64 overflows)


class LineReader(Protocol):
    """One client's log format, for the shared ingest loop (one reader per file and ingest: it may keep state)."""

    markers: tuple[bytes, ...]  # a line holding none of these carries nothing for this reader (not parsed)

    def begin(self, stream: IO[bytes], start: int) -> None:
        """Called before reading ``stream`` from ``start``: a reader may look at what came before."""

    def records(self, raw: bytes, where: str, anchor: str, warnings: list[str]) -> list[UsageRecord]:
        """The usage in one whole line (garbage adds a warning); ``anchor`` names the line's place."""
        ...

    def found(self) -> list[tuple[Path, LineReader]]:
        """Other files of the session that the lines read so far named (Codex's sub-agent rollouts)."""
        ...


class Impossible(Exception):
    """A count no request can have: the record is skipped (and warned about)."""


def count_of(usage: dict[str, Any], name: str, warnings: list[str], where: str) -> int:
    """``usage[name]`` as a token count: 0 for a missing or bad value (warned), Impossible past IMPOSSIBLE."""
    value = usage.get(name, 0)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        warnings.append(f"{where}: {name}={_short(value)} is not a token count; counted as 0")
        return 0
    if value > IMPOSSIBLE:
        warnings.append(f"{where}: {name}={_short(value)} is not a possible token count; record skipped")
        raise Impossible
    if value > ABSURD:
        warnings.append(f"{where}: {name}={value:,} is implausibly large; recorded as given")
    return value


def _short(value: object) -> str:
    """A value for a warning, at most ~40 characters (a 5,000-digit count stays one short line)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"~10**{round((value.bit_length() - 1) * 0.30103)}"  # str() of 5,000 digits would raise
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def loads(raw: bytes) -> Any:
    """One JSON line; ValueError for anything that is not (a line nested 100,000 deep included)."""
    try:
        return json.loads(raw)
    except RecursionError:
        raise ValueError("nested too deep") from None


_ISO = re.compile(r"(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(\.\d+)?(Z|[+-]\d\d:?\d\d)?")


def unix_seconds(value: object) -> float | None:
    """An ISO 8601 time (``2026-12-02T00:44:55.053Z``) as Unix seconds; None when it is none (no zone: UTC)."""
    match = _ISO.fullmatch(value.strip()) if isinstance(value, str) and len(value) < 64 else None
    if match is None:
        return None
    year, month, day, hour, minute, sec, frac, zone = match.groups()
    try:
        base = calendar.timegm((int(year), int(month), int(day), int(hour), int(minute), int(sec), 0, 0, 0))
    except (OverflowError, ValueError):
        return None
    if not (1 <= int(month) <= 12 and 1 <= int(day) <= 31 and int(hour) < 24 and int(minute) < 60):
        return None
    shift = 0
    if zone and zone != "Z":
        sign = -1 if zone[0] == "-" else 1
        digits = zone[1:].replace(":", "")
        shift = sign * (int(digits[:2]) * 3600 + int(digits[2:]) * 60)
    return base - shift + (float(frac) if frac else 0.0)


def within_input(given: int, read: int, written: int, where: str, warnings: list[str]) -> int:
    """The input count of a provider whose input includes its cache reads and writes (OpenAI, Copilot): the
    uncached part, never below 0 - reads and writes over the input are counted as input, with a warning."""
    if read + written > given:
        warnings.append(f"{where}: cache reads {read:,} + writes {written:,} exceed the input {given:,}; the excess"
                        " counted as input")
        return 0
    return given - read - written


def open_regular(path: Path) -> IO[bytes]:
    """``path`` opened for reading, when it is a regular file (a FIFO or a device never ends: NotFound)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise NotFound(f"cannot read transcript {path}: {exc.strerror}", "pass an existing --transcript") from exc
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise NotFound(f"transcript {path} is {kind_of(mode)}, not a regular file", "pass the session's .jsonl file")
    return os.fdopen(fd, "rb")


def kind_of(mode: int) -> str:
    """What a file that is not a regular file is, for a message ("a FIFO", "a device", ...)."""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"
