"""The ``info`` view without rich, for output that is not a terminal (agents, pipes): the same lines rich draws
there, character for character, at a fraction of the start-up (rich costs ~20 ms to import).

Rich draws off a terminal without colour, on a 240-column page, a table without borders. Where its output
could differ from plain joining - a workbook's sheets table, a line wider than the page, control characters
or tabs it would strip or expand, colour forced on by FORCE_COLOR / TTY_COMPATIBLE - :func:`info_lines`
answers None and rich draws, as before. tests/test_render_plain.py compares the two on generated results.
"""

from __future__ import annotations

import os
from typing import Any, TextIO

from boundread.contract.model import InfoResult
from boundread.render.text import scalar
from boundread.units import human_bytes

BYTE_FIELDS = frozenset({"total_size", "largest", "compressed", "size", "uncompressed", "xml_bytes"})  # shown as KB/MB
PAGE = 240  # the width rich's console takes off a terminal (render/views.py console())
GAP = 4  # the key column's right padding plus the value column's left padding


def plain_stream(stream: TextIO) -> bool:
    """Rich would draw on ``stream`` without colour or terminal width: not a terminal, colour not forced."""
    if "FORCE_COLOR" in os.environ or "TTY_COMPATIBLE" in os.environ:
        return False
    try:
        return not stream.isatty()
    except ValueError:  # closed
        return False


def info_rows(result: InfoResult) -> list[tuple[str, str]]:
    """The key/value rows of the info view, in order."""
    rows: list[tuple[str, str]] = [("kind", f"{result.kind} ({result.mime})"), ("size", human_bytes(result.bytes))]
    if result.problem:
        problem = result.problem
        rows.append(("problem", f"{problem['code']} (extract exits {problem['exit_code']}): {problem['message']}"))
    if result.symlink_target:
        rows.append(("symlink to", result.symlink_target))
    if result.mislabelled:
        rows.append(("note", result.mislabelled))
    if result.encrypted:
        rows.append(("encrypted", "yes"))
    if result.est_tokens is not None:
        approx = "~" if result.est_tokens_estimated else ""
        rows.append(("est. tokens", f"{approx}{result.est_tokens:,}"))
    for key, value in result.fields.items():
        if key not in ("sheets", "problem", "pages_checked") and value not in (None, "", [], {}):
            shown = human_bytes(value) if key in BYTE_FIELDS and isinstance(value, int) else scalar(value)
            rows.append((key.replace("_", " "), checked(result.fields, key, shown)))
    return rows


def checked(fields: dict[str, Any], key: str, shown: str) -> str:
    """A PDF's ``pages without text`` and how many pages were looked at, when not all: ``0 of 20 checked``
    (the JSON keeps the two numbers apart, ``pages_without_text`` and ``pages_checked``)."""
    checked = fields.get("pages_checked")
    if key != "pages_without_text" or not isinstance(checked, int) or checked >= (fields.get("pages") or 0):
        return shown
    return f"{shown} of {checked:,} checked"


def info_lines(result: InfoResult) -> list[str] | None:
    """The info view as rich draws it off a terminal; None where rich must draw (see the module's doc)."""
    if result.fields.get("sheets"):
        return None
    rows = info_rows(result)
    told = result.problem["message"] if result.problem else None
    warnings = [f"  warning: {warning}" for warning in result.warnings if warning != told]
    steps = ["next:", *(f"  {command}" for command in result.next)] if result.next else []
    key_width = max(len(key) for key, _ in rows)
    room = PAGE - key_width - GAP
    if not all(_plain(text) for text in (result.path, *warnings, *steps)):
        return None
    if not all(_plain(key) and key.isascii() and _fits(value, room) for key, value in rows):
        return None
    table = [f"{key:<{key_width}}{' ' * GAP}{value}".rstrip() for key, value in rows]
    return [result.path, *table, *warnings, *steps]


def _plain(text: str) -> bool:
    """Rich shows it as it is: no control characters (stripped), tabs (expanded) or line breaks."""
    return text.isprintable()


def _fits(text: str, room: int) -> bool:
    """It fits the value column unwrapped: a character is at most two cells wide."""
    return _plain(text) and (len(text) if text.isascii() else 2 * len(text)) <= room
