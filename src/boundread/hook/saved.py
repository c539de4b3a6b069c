"""What a decided call kept out of the context: the row guard-check records for ``boundread stats``.

Loaded only after a deny, a redirect or a post-tool replacement (hook/main.py, hook/posttool.py): the allow path
never imports it. Each size is measured, not guessed:

- asked for (``raw``): the size on disk of the file the guard judged (a Read of it, a ``cat`` of it); for the
  backstop, the size of the tool's output. Unknown (a command that names no file, an output the hook could not
  read to its end): no bytes, the call still counts.
- delivered: a deny's reason; a redirect's slice file or the lines of its range, plus its note to the model; a
  rewritten command's own output bound (``--max-chars N``, ``head -c N``: what it prints at most), else unknown
  until it runs; the backstop's replacement.

Standard library only (the hook path): recording never changes the answer, and a store that cannot be written
is one warning line on stderr.
"""

# os.path on purpose, not pathlib: importing pathlib costs milliseconds of start-up on the hook path.
# ruff: noqa: PTH113, PTH119, PTH202
from __future__ import annotations

import os
import stat
import sys

from boundread.agents import dialect
from boundread.budget import decisions
from boundread.guard.decide import absolute_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from boundread.agents.dialect import Call
    from boundread.guard.decide import Decision

_RANGES = ("offset", "limit", "start_line", "end_line", "view_range")
_MOST_READ = 8 * 1024 * 1024  # a range's lines are counted in at most this much of the file (a redirect's are ~100 KB)
_NOT_COUNTED = ("budget", "error")  # a budget's stop or a fault: not a read the guard bounded
# denies that judge a part of a file, several files or an output, not one file whole: its size is not what was asked
_PART_RULES = frozenset({"output-size", "output-sum", "grep-output", "endless", "too-big-to-check", "capped", "remote",
                         "remote-unbounded", "archive-extract", "text-long-lines", "many-files"})
_DUMPERS = frozenset({"cat", "bat", "batcat", "less", "more", "nl"})


def pre_tool(payload: Mapping[str, Any], call: Call, judged: Decision, answer: Decision) -> None:
    """Record the answer to a pre-tool call: ``judged`` is the guard's own decision, ``answer`` what the client got
    (the same deny, or its redirect). A plain allow, a budget stop or a fault records nothing."""
    try:
        _pre_tool(payload, call, judged, answer)
    except Exception as exc:  # noqa: BLE001 - counting never changes the answer nor fails the hook
        sys.stderr.write(f"{decisions.NOT_RECORDED}: {type(exc).__name__}: {exc}\n")


def _pre_tool(payload: Mapping[str, Any], call: Call, judged: Decision, answer: Decision) -> None:
    if answer.rule in _NOT_COUNTED or answer.error or not judged.denied:
        return
    delivered: int | None
    if answer.denied:
        kind, delivered = decisions.DENY, _size(answer.reason)
    elif answer.updated is not None:
        kind, delivered = decisions.REDIRECT, _redirected(call, answer)
    else:
        return
    target, raw = _asked(call, judged)
    _write(decisions.row_of(dict(payload), call.agent, call.tool, kind, target, raw, delivered))


def backstop(payload: Mapping[str, Any], agent: str, raw: int | None, replacement: str) -> None:
    """Record a post-tool replacement: the output's size against the short answer the model got instead."""
    try:
        _backstop(payload, agent, raw, replacement)
    except Exception as exc:  # noqa: BLE001 - counting never changes the answer nor fails the hook
        sys.stderr.write(f"{decisions.NOT_RECORDED}: {type(exc).__name__}: {exc}\n")


def _backstop(payload: Mapping[str, Any], agent: str, raw: int | None, replacement: str) -> None:
    tool = str(payload.get("tool_name") or "tool")
    tool_input = payload.get("tool_input")
    given = tool_input if isinstance(tool_input, dict) else {}
    path = next((given[key] for key in ("file_path", "path", "absolute_path") if isinstance(given.get(key), str)), "")
    cwd = str(payload.get("cwd") or "")
    target = absolute_path(path, cwd or None) if path else _digest(tool, given)
    _write(decisions.row_of(dict(payload), agent, tool, decisions.BACKSTOP, target, raw, _size(replacement)))


def _write(row: decisions.Row) -> None:
    warning = decisions.record(row)
    if warning:
        sys.stderr.write(warning + "\n")


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def _asked(call: Call, judged: Decision) -> tuple[str, int | None]:
    """(the file the guard judged, as an absolute path, and the bytes the call asked of it): the file's size for a
    whole read or a plain dump of it, the lines of a Read's range. A digest of the call, and None, when no file is
    named (a command's made-up output, a remote log); the path and None when the call asked for something other
    than the file whole (a grep, several files together, a page range, ``head -n N``)."""
    path = judged.path
    if not path or ":" in path.split("/", 1)[0]:  # nothing, or host:path
        return _digest(call.tool, call.tool_input), None
    absolute = absolute_path(path, call.cwd or None)
    try:
        info = os.stat(absolute)
    except (OSError, ValueError):
        return _digest(call.tool, call.tool_input), None
    if not stat.S_ISREG(info.st_mode):
        return _digest(call.tool, call.tool_input), None
    if judged.rule in _PART_RULES:
        return absolute, None
    if call.action == dialect.READ:
        if call.pages or call.tool_input.get("pages"):
            return absolute, None
        lines = _range(call.tool_input)
        return absolute, info.st_size if lines is None else _lines_size(absolute, *lines)
    return absolute, info.st_size if _whole_dump(call.command) else None


def _whole_dump(command: str) -> bool:
    """A command that prints one file as it is (``cat F``, ``less F``): what it asks for is the file's size."""
    words = command.split()
    return bool(words) and os.path.basename(words[0]) in _DUMPERS and not any(ch in command for ch in "|;&<>$`(") \
        and not any(word.startswith("-") for word in words[1:])


def _digest(tool: str, tool_input: object) -> str:
    from boundread.budget.digest import action_digest

    return "sha256:" + action_digest(tool, tool_input)


def _redirected(call: Call, answer: Decision) -> int | None:
    """What the rewritten call gives the model: the slice file it reads, the lines of its range, or the bound of the
    command it runs - and the note (``context``) it comes with. None when the output is known only after it runs."""
    updated = answer.updated or {}
    changed = {key: value for key, value in updated.items() if call.tool_input.get(key) != value}
    note = _size(answer.context)
    for value in changed.values():
        if isinstance(value, str) and value != call.path and os.path.isfile(value):
            return os.path.getsize(value) + note  # a slice file
    if any(key in changed for key in _RANGES):
        lines = _range(updated)
        part = _lines_size(absolute_path(call.path, call.cwd or None), *lines) if lines else None
        return None if part is None else part + note
    command = next((value for key, value in changed.items() if key in ("command", "cmd", "command_line")
                    and isinstance(value, str)), None)
    bound = _output_bound(command) if command is not None else None
    return None if bound is None else bound + note


def _range(updated: Mapping[str, object]) -> tuple[int, int] | None:
    """(the first line, how many) a rewritten range reads, in any client's parameters."""
    def number(key: str) -> int | None:
        value = updated.get(key)
        return value if isinstance(value, int) and value > 0 else None

    view = updated.get("view_range")
    if isinstance(view, list) and len(view) == 2 and all(isinstance(v, int) for v in view) and view[0] > 0:
        return view[0], max(view[1] - view[0] + 1, 0) if view[1] > 0 else -1
    first = number("offset") or number("start_line")
    if number("limit"):
        return first or 1, number("limit") or 0
    if number("end_line"):
        return first or 1, max((number("end_line") or 0) - (first or 1) + 1, 0)
    return None if first is None else (first, -1)  # from a line to the end


def _lines_size(path: str, first: int, count: int) -> int | None:
    """Bytes of ``count`` lines from line ``first`` (-1: to the end) of ``path``; None when they are not within
    ``_MOST_READ`` of its start."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(_MOST_READ + 1)
    except OSError:
        return None
    start = 0
    for _ in range(first - 1):
        start = data.find(b"\n", start) + 1
        if start == 0:
            return 0  # the file ends before the range
    if count < 0:
        return None if len(data) > _MOST_READ else len(data) - start
    end = start
    for _ in range(count):
        found = data.find(b"\n", end)
        if found < 0:
            return None if len(data) > _MOST_READ else len(data) - start
        end = found + 1
    return end - start


def _output_bound(command: str) -> int | None:
    """What a rewritten command prints: a here-document's text (``cat <<'TAG'`` ... ``TAG``) exactly, else its own
    bound, the most it prints - ``head -c N`` or ``tail -c N`` at the end of its pipe, boundread's ``--max-chars N``
    in a one-line command; None when it has none of them."""
    first, _, rest = command.partition("\n")
    words = first.split()
    if len(words) == 2 and words[0] == "cat" and words[1].startswith("<<"):
        tag = words[1][2:].strip("'\"")
        body, found, _ = rest.rpartition("\n" + tag)
        if not found and rest.startswith(tag):
            return 0
        return len(body.encode("utf-8", "surrogatepass")) + 1 if found else None
    last = command.rsplit("|", 1)[-1].split() if "|" in command else []
    if len(last) == 3 and last[0] in ("head", "tail") and last[1] == "-c" and last[2].isdigit():
        return int(last[2])
    if not rest and "--max-chars" in words[:-1]:
        count = words[words.index("--max-chars") + 1]
        return int(count) if count.isdigit() else None
    return None
