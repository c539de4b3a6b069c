"""The work behind each MCP tool, through boundread's front door (:mod:`boundread.api`): blocking, so the server
runs it in a worker thread. A slice is read to memory and saved later under the name the CLI gives the same
read (:meth:`boundread.api.Ask.file_name`), in the server's output folder.

Each function takes the :class:`Target` (the real path, inside the roots, and the name the agent used) and
returns a :class:`Reply`: the text the model reads, the JSON envelope (schema 1, as ``--json`` prints it)
for structured content, and the file the slice was saved to. A :class:`BoundreadError` becomes an error
Reply (:func:`failed`); nothing else is caught here.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boundread import api, render
from boundread.chunks import manifest
from boundread.chunks.manifest import Manifest as ChunkManifest
from boundread.contract import kinds
from boundread.contract.model import ExtractResult, Listing, Request
from boundread.core import engine, naming, output
from boundread.errors import BoundreadError, NotFound, UsageError
from boundread.limits import Limits, est_tokens
from boundread.mcp import calls, text
from boundread.mcp.config import Config as Config  # re-exported: tools.Config is how callers name it
from boundread.ranges import parse_span
from boundread.render.listing import listing_next

# characters into one selection an ``offset`` may reach; an offset call re-reads the selection up to
# offset + max_chars, so one call holds at most twice the larger of this and the server's cap
OFFSET_REACH = 100_000
#: room a slice leaves at first for the words and envelope around it (plus a 25th of the cap for the escapes of
#: the slice in the JSON envelope); a reply still over its cap is read again, shorter, up to FIT_TRIES times
RESERVE = 2_000
FIT_TRIES = 3
LINK_WORDS = 80  # a resource link's name, type and description, beside its URI
LEAST_LISTING = 200  # characters of a listing's body a fit keeps at least: a line or two


@dataclass(frozen=True)
class Target:
    real: Path  # what the engine opens: the file the roots check opened (a link to it, roots.Opened), or its path
    shown: str  # as the agent should name it again (relative to the first root)
    out_dir: Path
    checked: Path | None = None  # the real path the roots check passed, when ``real`` is a link to the open file

    @property
    def resolved(self) -> str:
        """The file's real path, as the envelope says it."""
        return str(self.checked or self.real)


@dataclass(frozen=True)
class Reply:
    """A tool's answer. ``pending`` (a slice still to save) is settled by :func:`settle` on the server's own
    thread once the worker answered in time, so a worker abandoned at its deadline never writes a file."""

    text: str
    envelope: dict[str, Any]
    saved: Path | None = None
    is_error: bool = False
    warnings: tuple[str, ...] = field(default_factory=tuple)
    pending: Callable[[], Reply] | None = None
    size: int = 0  # of a pending reply: what it will be once settled (see :func:`size`)


def settle(reply: Reply) -> Reply:
    """The reply with its slice saved (the save and the text that names the file)."""
    return reply.pending() if reply.pending is not None else reply


def engine_timeout(config: Config) -> float:
    """The engine's own deadline: a little before the call's (a tenth, at most a second), so the partial text
    it stops with is the answer, not the server's timeout error."""
    return config.timeout - min(1.0, config.timeout / 10)


def out_folder(config: Config, roots: tuple[str, ...]) -> Path:
    chosen = config.out_dir or os.environ.get("BOUNDREAD_OUT_DIR")
    if chosen:
        return Path(chosen) if Path(chosen).is_absolute() else Path(roots[0] if roots else ".") / chosen
    return Path(roots[0] if roots else ".") / "boundread-out"


def limits(config: Config, max_chars: int | None = None, **fields: Any) -> Limits:
    """The server's limits; a call may ask for fewer characters, never more than the server's cap."""
    if max_chars is not None and max_chars < 1:
        raise UsageError(f"max_chars={max_chars}", "pass a positive number of characters")
    chars = min(max_chars or config.max_chars, config.max_chars)
    return Limits(max_chars=chars, timeout=engine_timeout(config), **fields)


def envelope(command: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"schema": render.SCHEMA, "command": command, **payload}


def failed(exc: BoundreadError, target: Target | None, path: str) -> Reply:
    message = str(exc) if target is None else calls.in_text(str(exc), str(target.real), target.shown)
    message = message.replace(str(target.real), target.shown) if target is not None else message
    error = {"code": exc.code, "message": message, "exit_code": int(exc.exit_code)}
    return Reply(f"boundread: error: {message}", {"schema": render.SCHEMA, "path": path, "error": error},
                 is_error=True)


def info(config: Config, target: Target, password: str | None = None) -> Reply:
    result = api.info(target.real, password=password, limits=limits(config))
    result = dataclasses.replace(result, path=target.shown, symlink_target=None)  # target.real: no link of theirs
    data = {**render.as_dict(result), "resolved": target.resolved, "next_calls": _calls(result.next, target)}
    return Reply(text.info_text(result, target.shown, str(target.real)), envelope("info", data))


def pages(config: Config, target: Target, page_range: str, *, layout: bool = False, password: str | None = None,
          max_chars: int | None = None, offset: int = 0) -> Reply:
    ask = api.ask(pages=page_range, layout=layout, password=password, kinds=kinds.PAGED)
    call = {"path": target.shown, "range": page_range, "layout": layout or None}
    return _fitted(config, max_chars, offset, ask, target, "pages", call)


def sheets(config: Config, target: Target, sheet: str | None = None, rows: str | None = None, *,
           max_rows: int = 200, max_chars: int | None = None, offset: int = 0) -> Reply:
    if sheet is None and rows is not None and engine.open_source(target.real).kind in (*kinds.TABLES,
                                                                                      *kinds.COLUMNAR):
        sheet = "1"  # a CSV, TSV or Parquet file has one sheet: its rows need no name
    if sheet is None:
        if rows is not None:
            raise UsageError("rows needs a sheet", f"pass sheet= too, e.g. sheets(path={target.shown!r}, sheet=\"1\","
                                                   f" rows={rows!r})")
        result = api.sheet_info(target.real, limits=limits(config))
        steps = tuple(result.next)
        data = {"path": target.shown, "kind": result.kind, "sheets": result.fields.get("sheets", []),
                "next": list(steps), "warnings": list(result.warnings), "next_calls": _calls(steps, target)}
        lines = [f"{target.shown}: {result.kind} workbook", *text.sheet_lines(data["sheets"])]
        lines += [f"warning: {w}" for w in result.warnings]
        lines += text.next_lines(steps, str(target.real), target.shown, more=False)
        return Reply("\n".join(lines), envelope("sheets", data))
    ask = api.ask(sheets=(sheet,), rows=rows, kinds=kinds.WORKBOOKS)
    call = {"path": target.shown, "sheet": sheet, "rows": rows, "max_rows": max_rows if max_rows != 200 else None}
    return _fitted(config, max_chars, offset, ask, target, "sheets", call, max_rows=max_rows)


def list_zip(config: Config, target: Target, *, max_entries: int = 500, password: str | None = None,
             entries: str | None = None, match: str | None = None) -> Reply:
    listed = api.list_archive(target.real, password=password, limits=limits(config, max_entries=max_entries),
                              entries=entries, match=match)
    src, listing = listed.source, listed.listing
    # the page the call asked for, as the listing's own next page is worked out from it (a cut body's next page)
    req = Request(limits=limits(config, max_entries=max_entries), entries=parse_span(entries, "entries") if entries
                  else None, match=match)
    lines = text.listing_lines(target.shown, listing)
    whole, name, cap = "\n".join(lines) + "\n", naming.listing_name(target.shown), config.max_chars
    budget = cap if cap < 2 * RESERVE else cap - RESERVE - cap // 25
    for _ in range(FIT_TRIES):  # the reply, its envelope and link within the cap, as a slice's (see _fitted)
        reply = _listing_reply(target, src, listing, lines, whole, budget, req, name)
        if cap < 2 * RESERVE or reply.size <= cap or budget <= LEAST_LISTING:
            break
        budget = max(LEAST_LISTING, _shrunk(budget, reply.size, cap))  # an entry's JSON is ~5x its line
    return reply


def _shrunk(budget: int, size: int, cap: int) -> int:
    """The next body budget of a reply of ``size`` over ``cap``: smaller in proportion (the envelope grows with
    the body), and by the excess at least."""
    return min(budget * cap // size, budget - (size - cap)) - 32


def _listing_reply(target: Target, src: Any, listing: Listing, lines: list[str], whole: str, budget: int,
                   req: Request, name: str) -> Reply:
    """A listing's reply with a body of at most ``budget`` characters (whole entry lines)."""
    body, cut = _bounded(whole, budget)
    listing, unshown = _cut_listing(listing, lines, len(body), req) if cut else (listing, None)
    first = next((e.name for e in listing.entries if not e.is_dir and not e.warnings), None)
    steps = _calls(listing_next(src, listing), target)  # the next page first, then a member
    steps += [calls.render("extract", {"path": target.shown, "member": first})] if first else []

    def said(saved: Path | None, warning: str | None) -> Reply:
        tail = [f"saved: {saved}" if saved else f"saved: nowhere ({warning})"]
        tail += ["cut: the listing is longer than max_chars" + (f"; {unshown}" if unshown else "")] if cut else []
        tail += [f"next: {step}" for step in steps] or ["next: none - the archive has no member to read"]
        data = {**render.listing_dict(src, listing), "path": target.shown, "resolved": target.resolved,
                "output": str(saved) if saved else None, "next_calls": steps}
        return Reply(body + "\n" + "\n".join(tail), envelope("list-zip", data), saved)

    def finish() -> Reply:
        return said(*_save(target, body, name))

    return Reply("", {}, pending=finish, size=size(unaliased(said(target.out_dir / name, None), target)))


def extract(config: Config, target: Target, *, pages: str | None = None, lines: str | None = None,
            grep: str | None = None, ignore_case: bool = False, context: int = 0, member: str | None = None,
            sheet: str | None = None, rows: str | None = None, max_chars: int | None = None,
            password: str | None = None, offset: int = 0, encoding: str | None = None,
            json_path: str | None = None, sql: str | None = None) -> Reply:
    if context < 0:
        raise UsageError(f"context={context}", "pass 0 or more lines of context")
    ask = api.ask(pages=pages, sheets=(sheet,) if sheet else (), rows=rows, lines=lines, grep=grep,
                  ignore_case=ignore_case, context=context, member=member, password=password, encoding=encoding,
                  path=json_path, sql=sql)
    call = {"path": target.shown, "member": member, "pages": pages, "sheet": sheet, "rows": rows, "lines": lines,
            "grep": grep, "ignore_case": ignore_case or None, "context": context or None, "encoding": encoding,
            "json_path": json_path, "sql": sql}
    return _fitted(config, max_chars, offset, ask, target, "extract", call)


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
    result, engine_calls = read.result, _calls(read.result.next, target)
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
                                  next_calls=None if steps == _calls(result.next, target) else steps)
        return Reply(reply, envelope(command, data), saved)

    def finish() -> Reply:
        return said(*_save(target, body, name))

    return Reply("", {}, pending=finish, size=size(unaliased(said(target.out_dir / name, None), target)))


def unaliased(reply: Reply, target: Target) -> Reply:
    """``reply`` naming the file by its real path where the engine named the link it read it through (a CLI
    ``next`` command, a warning): the link is gone once the call is over."""
    if target.checked is None:
        return reply
    alias, real = str(target.real), target.resolved

    def fix(value: Any) -> Any:
        if isinstance(value, str):
            return value.replace(shlex.quote(alias), shlex.quote(real)).replace(alias, real)
        if isinstance(value, (list, tuple)):
            return [fix(item) for item in value]
        if isinstance(value, dict):
            return {key: fix(item) for key, item in value.items()}
        return value

    return dataclasses.replace(reply, text=fix(reply.text), envelope=fix(reply.envelope))


def size(reply: Reply) -> int:
    """Characters of ``reply`` a client may show the model: its text, or its structured content as JSON (Claude
    Code shows that instead), whichever is longer, and the resource link to the saved slice."""
    shown = max(len(reply.text), len(json.dumps(reply.envelope, ensure_ascii=False, separators=(",", ":"))))
    link = 2 * len(Path(reply.saved).absolute().as_uri()) + LINK_WORDS if reply.saved is not None else 0
    return shown + link


def _fitted(config: Config, max_chars: int | None, offset: int, ask: api.Ask, target: Target, command: str,
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
        chars = max(least, _shrunk(chars, reply.size, cap))
    return reply


def _save(target: Target, body: str, name: str) -> tuple[Path | None, str | None]:
    """Write the slice into the output folder; a folder that cannot be written costs a warning, not the result."""
    folder = target.out_dir
    try:
        fresh = not folder.exists()
        folder.mkdir(parents=True, exist_ok=True)
        if fresh:
            (folder / ".gitignore").write_text("*\n", encoding="utf-8")
        return output.write_atomic(folder / name, body, never=target.real), None
    except (OSError, NotFound, UsageError) as exc:
        return None, f"the slice was not saved ({exc})"


def _cut_listing(listing: Listing, lines: list[str], kept: int, req: Request) -> tuple[Listing, str | None]:
    """The listing as far as the cut body shows it (``lines``: its header, then one line per entry): its
    entries those whose line is whole in the first ``kept`` characters, its next page from the first not shown
    (past an entry whose line alone is longer than the cap, so each next call makes progress), and words for
    what the cut left out; the listing as it is when every entry is shown."""
    from boundread.formats.archives.common import next_page

    shown, used = 0, len(lines[0]) + 1
    for line in lines[1:1 + len(listing.entries)]:
        used += len(line) + 1
        if used > kept:
            break
        shown += 1
    if shown == len(listing.entries):
        return listing, None
    number = listing.first + shown
    words = f"entries {listing.first:,}-{number - 1:,} shown" if shown else f"entry {number:,} does not fit"
    page = next_page(listing, max(shown, 1), req)
    goes_on = f"; the next call goes on from entry {number + (0 if shown else 1):,}" if page is not None else ""
    return dataclasses.replace(listing, entries=listing.entries[:shown], truncated=True, resume=page), words + goes_on


def _bounded(body: str, max_chars: int) -> tuple[str, bool]:
    if len(body) <= max_chars:
        return body, False
    return body[:max_chars].rsplit("\n", 1)[0] + "\n", True


def _calls(commands: Any, target: Target) -> list[str]:
    """Each next command as its tool call; one no tool runs stays the CLI command, said to be one."""
    return [calls.tool_call(command, target.shown) or f"CLI only: {command}" for command in commands]


def chunks(config: Config, target: Target, tokens: int = 20_000, *, overlap: int = 0, max_chunks: int = 200,
           start: int = 1, model: str | None = None, password: str | None = None,
           watch: api.Watch | None = None) -> Reply:
    """The whole file as chunk files in the output folder, and the plan: one line per chunk (its file, span and
    tokens), the total and, with ``model``, the cost of reading every chunk once; the call that goes on."""
    if tokens < 50 or overlap < 0 or max_chunks < 1 or start < 1:
        raise UsageError(f"tokens={tokens}, overlap={overlap}, max_chunks={max_chunks}, start={start}",
                         "pass tokens >= 50, overlap >= 0, max_chunks and start >= 1")
    folder = target.out_dir / naming.chunks_folder_name(target.shown)
    result = api.chunk(target.real, tokens, folder, overlap=overlap, max_chunks=max_chunks, start=start, model=model,
                       password=password, timeout=engine_timeout(config), watch=watch)
    if target.checked is not None and result.source.path != target.resolved:  # the manifest names the real file,
        result = dataclasses.replace(result, source=dataclasses.replace(result.source, path=target.resolved))
        output.write_atomic(Path(result.path), manifest.dump(result))  # not the link it was read through
    step = None
    if not result.complete:
        args = {"path": target.shown, "tokens": tokens, "overlap": overlap or None,
                "max_chunks": max_chunks if max_chunks != 200 else None, "start": len(result.chunks) + 1,
                "model": model}
        step = calls.render("chunks", {key: value for key, value in args.items() if value is not None})
    count = max(1, config.max_chars // 200)
    for _ in range(FIT_TRIES):  # the plan and its envelope within the cap: the manifest file lists every chunk
        reply = _plan(target, result, folder, tokens, step, count)
        measured = size(unaliased(reply, target))
        if measured <= config.max_chars or count == 1:
            break
        count = max(1, count * config.max_chars // measured - 1)
    return reply


def _plan(target: Target, result: ChunkManifest, folder: Path, tokens: int, step: str | None, count: int) -> Reply:
    """The chunks reply, naming the first ``count`` chunks (the text and the envelope alike)."""
    totals = result.totals()
    lines = [f"{target.shown}: {result.kind}, {totals['chunks']} chunks of at most ~{tokens:,} tokens, "
             f"~{totals['est_tokens']:,} tokens in all ({result.status}; manifest {result.path})"]
    lines += [f"note: {note}" for note in result.notes]
    if result.cost is not None:
        lines.append(f"cost: ~${result.cost.usd} to read every chunk once with {result.cost.model} "
                     f"({result.cost.source})")
    shown = result.chunks[:count]
    lines += [f"{folder / c.file}  {c.span}  ~{c.est_tokens:,} tokens" for c in shown]
    if len(shown) < len(result.chunks):
        lines.append(f"... {len(result.chunks) - len(shown)} more in the manifest")
    lines += [f"warning: {w}" for w in result.warnings]
    if step is not None:
        lines.append("incomplete: " + "; ".join(result.truncated_reasons) + f"\nnext: {step}")
    lines.append("map-reduce: give each chunk file to one sub-agent (extract(path=<chunk file>)) with the same "
                 "instructions, then combine the answers")
    data = {**result.as_dict(), "path": target.shown, "resolved": target.resolved,
            "next_calls": [step] if step else []}
    if len(shown) < len(result.chunks):  # the manifest file has them all
        data = {**data, "chunks": data["chunks"][:count], "chunks_listed": count}
    return Reply("\n".join(lines), envelope("chunks", data), result.path)
