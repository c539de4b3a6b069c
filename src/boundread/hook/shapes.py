"""A redirect's slice of a file read by its structure (hook/slices.py makes the file): JSON, JSON Lines, SQLite,
Parquet and Arrow. Their first lines are no first part - a one-line JSON has one line, a database's bytes are no
text - so the slice is the file's shape as ``boundread info`` prints it (keys, array lengths, sample paths;
records and keys; tables, columns and row counts), then, in the room left, the first part of the bounded read
``info`` names first: the biggest array's first elements (``extract F --path '.items[0:]'``), the first records
(``--rows 1-``), the first table's first rows (``sheets F T --rows 1-``); the header names the command that goes
on where it stops.
"""

from __future__ import annotations

import os
import shlex
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boundread.contract.model import ExtractResult, InfoResult

SHAPED_TEXT = (".json", ".geojson", ".jsonl", ".ndjson")  # text boundread reads by its structure (core/detect.py)
SHAPED_KINDS = ("sqlite", "parquet", "arrow")  # the guard's kinds whose bytes are no text but a table
INFO_SHARE = 0.6  # of the deadline, for info (a JSON's shape reads the file: a 300 MB one gives partial counts)
_FIRST_SLICE = "[0:20]"  # info's first JSON read: the biggest array's first 20 elements


def shaped(path: str, kind: str) -> bool:
    """Is ``path`` (of the guard's ``kind``) sliced as its shape and first part rather than its first lines?"""
    return kind in SHAPED_KINDS or (kind == "text" and os.path.splitext(path)[1].lower() in SHAPED_TEXT)


def shape(real: str, shown: str, quoted: str, shell: str, fit: str, room: int,
          deadline: float) -> tuple[str, str, list[str], str] | None:
    """(the slice's text, what it holds, the header's lines, the same said in one line) - as slices' _Part - or
    None when there is nothing to give (damaged, encrypted, out of time: the deny stands). ``shell``: how the
    agent runs boundread; ``fit``: the bound every command carries (`` --max-chars N``)."""
    import time

    from boundread import api
    from boundread.errors import BoundreadError
    from boundread.limits import Limits

    started = time.monotonic()
    try:
        info = api.info(real, limits=Limits(timeout=deadline * INFO_SHARE))
    except BoundreadError:
        return None
    if info.problem is not None or info.encrypted:
        return None
    view, later = _view(info, real, shown, quoted, shell, fit)
    left = deadline - (time.monotonic() - started)
    space = room - len(view) - 200  # the first part's own marker line
    part = _first_part(real, info, space, left) if space > 500 and left > 0.5 else None
    if part is None:
        text, holds, following = view, "its shape (what `boundread info` prints)", []
    else:
        result, command = part
        assert result.text is not None
        following = [_command(shell, fit, line, real, quoted) for line in result.next if line.startswith("boundread ")]
        text = f"{view}--- its first part: {_command(shell, fit, command, real, quoted)} ---\n{result.text}"
        holds = f"its shape (what `boundread info` prints) and its first part, {result.done or command}"
        later = later[1:]  # info's first read: the one this part begins
    lines = [*(f"Next part: {c}" for c in following), *(f"Other parts: {c}" for c in later[:3])]
    said = (f". Next part: {following[0]}" if following else "") + (f". Other parts: {later[0]}" if later else "")
    return text, holds, lines, said


def _view(info: InfoResult, real: str, shown: str, quoted: str, shell: str, fit: str) -> tuple[str, list[str]]:
    """The info view as ``boundread info`` prints it to a pipe, named as the agent named the file, without its
    ``next:`` block; and those next commands, bounded, to go in the header."""
    import contextlib
    import io

    from boundread import render

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        render.print_info(info)
    kept = []
    for line in buffer.getvalue().splitlines():
        if line == "next:":
            break
        kept.append(line)
    if kept and kept[0] == info.path:
        kept[0] = shown
    later = [_command(shell, fit, line, real, quoted) for line in info.next if line.startswith("boundread ")]
    return "\n".join(kept).replace(shlex.quote(real), quoted) + "\n", later


def _first_part(real: str, info: InfoResult, room: int, seconds: float) -> tuple[ExtractResult, str] | None:
    """(the first part of ``info``'s first read, the command that gives it) within ``room`` characters."""
    from boundread import api
    from boundread.errors import BoundreadError
    from boundread.limits import Limits

    limits = Limits(max_chars=room, timeout=seconds)
    name = shlex.quote(real)
    try:
        if info.kind == "json":
            path = _json_path(info)
            command = f"boundread extract {name} --path {shlex.quote(path)}"
            result = api.extract(real, json_path=path, stdout=True, limits=limits)
        elif info.kind == "jsonl":
            command = f"boundread extract {name} --rows 1-"
            result = api.extract(real, rows="1-", stdout=True, limits=limits)
        else:
            sheets = info.fields.get("sheets") or []
            table = str(sheets[0].get("name", "")) if sheets and isinstance(sheets[0], dict) else ""
            if not table:
                return None
            command = f"boundread sheets {name} {shlex.quote(table)} --rows 1-"
            result = api.sheets(real, table, rows="1-", stdout=True, limits=limits)
    except BoundreadError:
        return None
    if result.timed_out or not (result.text or "").strip():
        return None
    return result, command


def _json_path(info: InfoResult) -> str:
    """The biggest array's elements from the first on (info names its first 20), else the whole value."""
    for line in info.next:
        words = shlex.split(line)
        if "--path" in words[:-1]:
            path = words[words.index("--path") + 1]
            return path.removesuffix(_FIRST_SLICE) + "[0:]" if path.endswith(_FIRST_SLICE) else path
    return "."


def _command(shell: str, fit: str, line: str, real: str, quoted: str) -> str:
    """A command ``info`` or ``extract`` named, as the agent's shell runs it: this boundread, the file as the
    agent named it, bounded (``fit``), printed."""
    return shell + line.removeprefix("boundread").replace(shlex.quote(real), quoted, 1) + f"{fit} --stdout"
