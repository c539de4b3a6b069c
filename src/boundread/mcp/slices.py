"""A slice read for one tool call and fitted within the server's cap: the whole reply (the slice, what it is, the
next call, and the envelope that repeats them) stays under ``--max-chars``; a slice cut by the cap goes on from an
``offset`` into the selection when the engine's next command would start where this call did. The slice is saved
when the reply is settled (:func:`boundread.mcp.reply.settle`), not in the worker.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boundread import api, render
from boundread.contract.model import ExtractResult
from boundread.errors import UsageError
from boundread.limits import est_tokens
from boundread.mcp import calls, text
from boundread.mcp.config import Config
from boundread.mcp.reply import Reply, Target, calls_for, envelope, limits, save, size, unaliased

# characters into one selection an ``offset`` may reach; an offset call re-reads the selection up to
# offset + max_chars, so one call holds at most twice the larger of this and the server's cap
OFFSET_REACH = 100_000
#: room a slice leaves at first for the words and envelope around it (plus a 25th of the cap for the escapes of
#: the slice in the JSON envelope); a reply still over its cap is read again, shorter, up to FIT_TRIES times
RESERVE = 2_000
FIT_TRIES = 3


def shrunk(budget: int, size: int, cap: int) -> int:
    """The next body budget of a reply of ``size`` over ``cap``: smaller in proportion (the envelope grows with
    the body), and by the excess at least."""
    return min(budget * cap // size, budget - (size - cap)) - 32


@dataclass(frozen=True)
class Read:
    """One bounded read of a selection's text, from ``offset`` characters into it."""

    result: ExtractResult  # as the engine answered, its counts those of ``body``
    body: str
    offset: int
    chars: int  # this call's cap
    reach: int  # how far into the selection an offset may go
    name: str  # of the file the slice is saved to: the CLI's for the same read, ``from-N`` after an offset


def _read(config: Config, max_chars: int | None, offset: int, ask: api.Ask, target: Target, **fields: Any) -> Read:
    """Read ``ask`` for this call, to memory: from the start of the selection, or re-read up to ``offset + chars``
    characters and keep what follows the offset (the selection's text is the same on every run). ``fields``:
    the call's own limits (max_rows)."""
    bounds = limits(config, max_chars, **fields)
    chars, reach = bounds.max_chars, max(OFFSET_REACH, config.max_chars)
    if offset < 0:
        raise UsageError(f"offset={offset}", "pass 0 or more characters")
    if offset > reach:
        raise UsageError(f"offset={offset:,} is past the {reach:,} characters an offset reaches",
                         "narrow the selection (one page, lines=\"A-B\", rows=\"A-B\") and read it from its start")
    if not offset:
        result = api.run(target.real, ask.bounded(bounds), stdout=True)
        return Read(result, result.text or "", 0, chars, reach, ask.file_name(target.shown, result))
    result = api.run(target.real, ask.bounded(dataclasses.replace(bounds, max_chars=offset + chars)), stdout=True)
    name = ask.file_name(target.shown, result, offset=offset)
    body = (result.text or "")[offset:]
    inner = f"max_chars {offset + chars:,} reached"
    result = dataclasses.replace(
        result, chars=len(body), est_tokens=est_tokens(len(body)), lines=body.count("\n"),
        truncated_reasons=tuple(f"max_chars {chars:,} reached" if r == inner else r for r in result.truncated_reasons))
    return Read(result, body, offset, chars, reach, name)


def _next(read: Read, target: Target, call: dict[str, Any], tool: str) -> tuple[list[str], list[str]]:
    """The next calls and any warning. The engine's next call, unless it would start where this call did (one
    page, row or line longer than max_chars): then this call again from the character this one stopped at
    (``offset``), until the selection ends or the offset's reach. The engine's other calls (the next rows of
    the other sheets it cut) follow either way."""
    result, engine_calls = read.result, calls_for(read.result.next, target)
    if not any(reason.startswith("max_chars") for reason in result.truncated_reasons):
        return engine_calls, []
    here = {key: value for key, value in call.items() if value is not None}
    following = calls.tool_args(result.next[0], target.shown) if result.next else None
    moved = following is not None and calls.position(following[1]) != calls.position(here)
    further = read.offset + len(read.body)
    if moved and (read.offset == 0 or further > read.reach or not read.body):
        return engine_calls, []
    if read.body and further <= read.reach:
        return [calls.render(tool, {**here, "offset": further}), *engine_calls[1:]], []
    return engine_calls[1:], [f"the rest of this selection lies past the {read.reach:,} characters offset reaches, "
                              "or no character was read: narrow it (one page, lines=\"A-B\", rows=\"A-B\") to "
                              "read on"]


def _slice(command: str, read: Read, target: Target, *, call: dict[str, Any]) -> Reply:
    """The slice's reply. Its next calls, like the CLI's, leave max_chars out: a page cut short by a small
    max_chars continues with the same range, which the default cap reads whole; when the server's own cap is
    below one page (row, line), the next call goes on from an ``offset`` instead. The slice is saved when the
    reply is settled (:func:`settle`), not in the worker."""
    result, body = read.result, read.body
    steps, notes = _next(read, target, call, command)
    name = read.name

    def said(saved: Path | None, warning: str | None) -> Reply:
        shown = dataclasses.replace(result, path=target.shown, output=str(saved) if saved else None, text=None,
                                    warnings=(*result.warnings, *notes, *([warning] if warning else [])))
        # the slice and the next call close the envelope too: a client that shows the model the structured
        # content instead of the text (Claude Code does) still gives it the slice, then the call that continues
        data = {**render.as_dict(shown), "resolved": target.resolved, "offset": read.offset, "text": body,
                "next_calls": steps}
        reply = text.extract_text(shown, body, target.shown, str(saved) if saved else None, str(target.real),
                                  next_calls=None if steps == calls_for(result.next, target) else steps)
        return Reply(reply, envelope(command, data), saved)

    def finish() -> Reply:
        return said(*save(target, body, name))

    return Reply("", {}, pending=finish, size=size(unaliased(said(target.out_dir / name, None), target)))


def fitted(config: Config, max_chars: int | None, offset: int, ask: api.Ask, target: Target, command: str,
            call: dict[str, Any], **fields: Any) -> Reply:
    """The slice's reply, its body cut so that the whole reply (the slice, what it is, the next call, and the
    envelope that repeats them) stays within the server's cap (``--max-chars``, which init sets under each
    client's own limit): read with room for the rest, and read again with less when the rest took more (a JSON
    envelope escapes each newline and quote of the slice). A call's own ``max_chars`` bounds the slice alone, as
    the CLI's does. The body never shrinks below a quarter of the server's cap, and a cap under twice RESERVE
    bounds the slice alone: the words around it cannot fit there anyway."""
    cap = config.max_chars
    if cap < 2 * RESERVE:
        return _slice(command, _read(config, max_chars, offset, ask, target, **fields), target, call=call)
    least = cap // 4
    chars = min(limits(config, max_chars).max_chars, cap - RESERVE - cap // 25)
    for _ in range(FIT_TRIES):
        reply = _slice(command, _read(config, chars, offset, ask, target, **fields), target, call=call)
        if reply.size <= cap or chars <= least:
            return reply
        chars = max(least, shrunk(chars, reply.size, cap))
    return reply
