"""The work behind each MCP tool, through boundread's front door (:mod:`boundread.api`): blocking, so the server
runs it in a worker thread. A slice is read to memory and saved later under the name the CLI gives the same
read (:meth:`boundread.api.Ask.file_name`), in the server's output folder.

Each function takes the :class:`Target` (the real path, inside the roots, and the name the agent used) and
returns a :class:`Reply`: the text the model reads, the JSON envelope (schema 1, as ``--json`` prints it)
for structured content, and the file the slice was saved to. A :class:`BoundreadError` becomes an error
Reply (:func:`failed`); nothing else is caught here. Its parts: ``reply`` (Target, Reply, the limits, the save),
``slices`` (a slice fitted within the cap), ``listing`` (list_zip), ``plan`` (chunks); this module re-exports
what the server and the tests name as ``tools.X``.
"""

from __future__ import annotations

import dataclasses

from boundread import api, render
from boundread.contract import kinds
from boundread.core import engine
from boundread.errors import UsageError
from boundread.mcp import text
from boundread.mcp.config import Config as Config  # re-exported: tools.Config is how callers name it
from boundread.mcp.listing import list_zip as list_zip
from boundread.mcp.plan import chunks as chunks
from boundread.mcp.reply import Reply as Reply
from boundread.mcp.reply import Target as Target
from boundread.mcp.reply import calls_for, envelope, limits
from boundread.mcp.reply import engine_timeout as engine_timeout
from boundread.mcp.reply import failed as failed
from boundread.mcp.reply import out_folder as out_folder
from boundread.mcp.reply import settle as settle
from boundread.mcp.reply import size as size
from boundread.mcp.reply import unaliased as unaliased
from boundread.mcp.slices import fitted


def info(config: Config, target: Target, password: str | None = None) -> Reply:
    result = api.info(target.real, password=password, limits=limits(config))
    result = dataclasses.replace(result, path=target.shown, symlink_target=None)  # target.real: no link of theirs
    data = {**render.as_dict(result), "resolved": target.resolved, "next_calls": calls_for(result.next, target)}
    return Reply(text.info_text(result, target.shown, str(target.real)), envelope("info", data))


def pages(config: Config, target: Target, page_range: str, *, layout: bool = False, password: str | None = None,
          max_chars: int | None = None, offset: int = 0) -> Reply:
    ask = api.ask(pages=page_range, layout=layout, password=password, kinds=kinds.PAGED)
    call = {"path": target.shown, "range": page_range, "layout": layout or None}
    return fitted(config, max_chars, offset, ask, target, "pages", call)


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
                "next": list(steps), "warnings": list(result.warnings), "next_calls": calls_for(steps, target)}
        lines = [f"{target.shown}: {result.kind} workbook", *text.sheet_lines(data["sheets"])]
        lines += [f"warning: {w}" for w in result.warnings]
        lines += text.next_lines(steps, str(target.real), target.shown, more=False)
        return Reply("\n".join(lines), envelope("sheets", data))
    ask = api.ask(sheets=(sheet,), rows=rows, kinds=kinds.WORKBOOKS)
    call = {"path": target.shown, "sheet": sheet, "rows": rows, "max_rows": max_rows if max_rows != 200 else None}
    return fitted(config, max_chars, offset, ask, target, "sheets", call, max_rows=max_rows)


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
    return fitted(config, max_chars, offset, ask, target, "extract", call)
