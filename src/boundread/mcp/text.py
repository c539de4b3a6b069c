"""The text an MCP tool result shows the model: the slice, then what it is, where it was saved, and the next call.

Plain text (no rich): the model reads it. Every command the engine suggests is said as the tool call to make
(:mod:`boundread.mcp.calls`); one no tool can run stays a CLI command, marked as such.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boundread.contract.model import ExtractResult, InfoResult, Listing
from boundread.mcp import calls
from boundread.render.listing import listing_words
from boundread.render.text import scalar
from boundread.units import human_bytes

_BYTE_FIELDS = frozenset({"total_size", "largest", "compressed", "size", "uncompressed", "xml_bytes"})


def next_lines(commands: Sequence[str], real: str, shown: str, *, more: bool) -> list[str]:
    """``next: <tool call>`` for each suggested command; ``next: none`` when nothing is left to read."""
    if not commands:
        return ["next: none - " + ("raise max_chars or narrow the request to see the rest" if more
                                   else "this is all of it")]
    lines = []
    for command in commands:
        words = command.split(" ", 2)
        call = calls.tool_call(command, shown) if len(words) > 2 else None
        lines.append(f"next: {call}" if call else f"next (CLI only): {calls.in_text(command, real, shown)}")
    return lines


def extract_text(result: ExtractResult, text: str, shown: str, saved: str | None, real: str,
                 next_calls: Sequence[str] | None = None) -> str:
    """The slice, then what it is, where it was saved and the next call: the engine's, or ``next_calls`` (tool
    calls the server made itself, such as an ``offset`` that goes on inside a page)."""
    cut = f" · cut: {'; '.join(result.truncated_reasons)}" if result.truncated else ""
    done = f"{result.done} · " if result.done else ""
    about = (f"[boundread] {shown}{':' + result.member if result.member else ''} ({result.kind}): {done}"
             f"{result.chars:,} chars (~{result.est_tokens:,} tokens){cut}")
    lines = [about, f"saved: {saved}" if saved else "saved: nowhere (see the warning)"]
    lines += [f"warning: {calls.in_text(w, real, shown)}" for w in result.warnings]
    if next_calls is None:
        lines += next_lines(result.next, real, shown, more=result.truncated)
    else:
        lines += [f"next: {call}" for call in next_calls] or next_lines((), real, shown, more=result.truncated)
    body = text if not text or text.endswith("\n") else text + "\n"
    return body + "\n" + "\n".join(lines)


def info_text(result: InfoResult, shown: str, real: str) -> str:
    approx = "~" if result.est_tokens_estimated else ""
    tokens = f", {approx}{result.est_tokens:,} tokens" if result.est_tokens is not None else ""
    lines = [f"{shown}: {result.kind} ({result.mime}), {human_bytes(result.bytes)}{tokens}"]
    if result.problem:
        problem = result.problem
        lines.append(f"problem: {problem['code']} - {calls.in_text(problem['message'], real, shown)}")
    if result.mislabelled:
        lines.append(f"note: {result.mislabelled}")
    if result.encrypted:
        lines.append("encrypted: yes")
    for key, value in result.fields.items():
        if key not in ("sheets", "problem") and value not in (None, "", [], {}):
            shown_value = human_bytes(value) if key in _BYTE_FIELDS and isinstance(value, int) else scalar(value)
            lines.append(f"{key.replace('_', ' ')}: {shown_value}")
    lines += sheet_lines(result.fields.get("sheets") or [])
    told = result.problem["message"] if result.problem else None
    lines += [f"warning: {calls.in_text(w, real, shown)}" for w in result.warnings if w != told]
    lines += next_lines(result.next, real, shown, more=False) if result.next else []
    return "\n".join(lines)


def sheet_lines(sheets: Sequence[dict[str, Any]]) -> list[str]:
    lines = []
    for sheet in sheets:
        size = f"{scalar(sheet.get('rows'))} rows x {scalar(sheet.get('cols'))} cols" if sheet.get("rows") else "size ?"
        hidden = " (hidden)" if sheet.get("hidden") else ""
        lines.append(f"sheet {sheet.get('index')}: {sheet.get('name')!r}, {size}{hidden}")
    return lines


def listing_lines(shown: str, listing: Listing) -> list[str]:
    packed = f", {human_bytes(listing.total_compressed)} packed" if listing.total_compressed else ""
    lines = [f"{shown}: {listing.format} archive, {listing.total_entries:,} entries, "
             f"{human_bytes(listing.total_size)} unpacked{packed}"]
    for entry in listing.entries:
        flags = ",".join(f for f, on in (("dir", entry.is_dir), ("enc", entry.encrypted),
                                          ("link", entry.is_symlink)) if on)
        ratio = f" ratio {entry.ratio:.0f}x" if entry.ratio is not None and entry.ratio >= 10 else ""
        warn = f" !! {'; '.join(entry.warnings)}" if entry.warnings else ""
        lines.append(f"{human_bytes(entry.size):>10}  {entry.name}{' [' + flags + ']' if flags else ''}{ratio}{warn}")
    if (words := listing_words(listing)) is not None:
        lines.append(words)
    lines += [f"warning: {w}" for w in listing.warnings]
    return lines
