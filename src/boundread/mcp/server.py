"""The MCP server: boundread's extractors as tools, on the official MCP Python SDK (``pip install boundread[mcp]``).

Every tool is read-only, takes a path inside the served roots (:mod:`boundread.mcp.roots`) and returns a
bounded result: the text (the slice, what it is, the next call), the JSON envelope as structured content,
and a ``resource_link`` to the file the slice was saved to. Those saved slices, and nothing else, are
readable as resources (``resources/read`` of a link). The engine's blocking work runs in a worker thread
(at most ``WORKERS`` at once), so parallel calls never stall the server. The engine stops itself a little
before the call's ``--timeout`` (:func:`tools.engine_timeout`) and answers with what it read; a call whose
worker has not answered by the deadline itself gets a timeout error then. A worker thread cannot be stopped
from outside: an abandoned one runs on until the engine's next deadline check (or the library call it is in)
returns, holding its memory meanwhile and no longer counted against ``WORKERS``; but it writes nothing, since
slices are saved on the server's thread once a worker answered in time (:func:`tools.settle`). The chunks
tool still writes its chunk files from its worker. A bad file, a bomb or a timeout is a tool result with
``isError``, never the end of the server.
"""

from __future__ import annotations

import atexit
import inspect
import shutil
import signal
import sys
import tempfile
import threading
import warnings
from collections.abc import AsyncIterator, Callable
from functools import partial
from pathlib import Path
from typing import Annotated, Any, BinaryIO, cast

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError, UnexpectedToolError
from mcp.server.mcpserver.resolve import ListRoots, Resolve
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp_types import (
    CallToolResult,
    ContentBlock,
    InputRequiredResult,
    ListRootsResult,
    ResourceLink,
    TextContent,
    ToolAnnotations,
)
from pydantic import Field, ValidationError

from boundread import __version__
from boundread.errors import BoundreadError, TimedOut, UsageError
from boundread.mcp import roots, tools
from boundread.mcp.arguments import invalid, unknown
from boundread.mcp.handshake import INSTRUCTIONS, Answered, same
from boundread.mcp.inbox import Inbox
from boundread.mcp.stopping import Runs
from boundread.mcp.tools import Config, Reply, Target

WORKERS = 4  # extractions at once; more calls wait for a free worker

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                            open_world_hint=False)

PathArg = Annotated[str, Field(description="The file, relative to the served folder (or absolute inside it).")]
MaxChars = Annotated[int | None, Field(description="At most this many characters (default and ceiling: the "
                                                    "server's limit, 100,000 unless set).", ge=1)]
Password = Annotated[str | None, Field(description="Password of an encrypted PDF, zip or 7z.")]
Offset = Annotated[int, Field(description="Characters of this selection to skip: set by a next call that goes "
                                          "on inside a page, row or line longer than max_chars.", ge=0)]


async def _ask_roots(ctx: Context) -> ListRoots | None:
    """Ask the client for its roots when it declares the capability; else serve the configured roots."""
    caps = ctx.client_capabilities
    return ListRoots() if caps is not None and caps.roots is not None else None


ClientRoots = Annotated[ListRootsResult | None, Resolve(_ask_roots)]


def to_result(reply: Reply) -> CallToolResult:
    content: list[ContentBlock] = [TextContent(type="text", text=reply.text)]
    if reply.saved is not None:
        path = Path(reply.saved).absolute()
        content.append(ResourceLink(type="resource_link", uri=path.as_uri(), name=path.name, mime_type="text/plain",
                                    description="the slice, saved to a file", size=path.stat().st_size))
    return CallToolResult(content=content, structured_content=reply.envelope, is_error=reply.is_error)


class _Server(MCPServer):
    """MCPServer whose answer to arguments that do not fit a tool is a boundread error like any other: one line
    (``boundread: error: max_rows=0: must be >= 1 - call sheets(...)``), ``isError``, the JSON error envelope as
    structured content - not pydantic's multi-line text - and an argument the tool does not take is one too,
    where the SDK would drop it without a word."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None,
                        ) -> CallToolResult | InputRequiredResult:
        schemas = {tool.name: tool.input_schema for tool in await self.list_tools()}
        path = arguments.get("path")
        shown = path if isinstance(path, str) else ""
        if name not in schemas:
            problem: UsageError | None = UsageError(f"no tool {name!r}", f"the tools are {', '.join(schemas)}")
        else:
            problem = unknown(name, arguments, schemas[name])
        if problem is None:
            try:
                return await super().call_tool(name, arguments, context)
            except ToolError as exc:
                if isinstance(exc, UnexpectedToolError) or not isinstance(exc.__cause__, ValidationError):
                    raise
                problem = invalid(name, exc.__cause__.errors(), schemas[name])
        return to_result(tools.failed(problem, None, shown))

    async def serve_streams(self, read: Any, write: Any) -> None:
        """Serve the client behind the transport's streams (MCPServer.run_stdio_async, on streams of ours)."""
        await self._lowlevel_server.run(read, write, self._lowlevel_server.create_initialization_options())


def reading(opened: roots.Opened, work: Callable[[Target], Reply], target: Target) -> Reply:
    """``work`` in the worker, on the file opened for it, closed when it is done (even after the server gave up
    on the call: never under a worker still reading it)."""
    if not opened.claim():
        raise TimedOut(f"{target.shown}: the call ended before a worker was free", "call again")
    try:
        return work(target)
    finally:
        opened.close()


def build(config: Config, runs: Runs | None = None) -> MCPServer:
    """The server, its tools bound to ``config``; ``runs``: the chunk runs a stopping server waits for."""
    runs = runs or Runs()
    # Claude Code keeps a result up to this size in the conversation (without it: 50,000, above which it saves
    # the result to a file and shows the model a 2 KB preview); each result stays within it, footer included
    meta = {"anthropic/maxResultSizeChars": config.max_chars}

    def tool(fn: Callable[..., Any]) -> Callable[..., Any]:
        """A read-only tool, described by its docstring without the source's indentation."""
        described = server.tool(annotations=READ_ONLY, meta=meta, description=inspect.cleandoc(fn.__doc__ or ""))
        return described(fn)
    server: MCPServer = _Server("boundread", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")
    limiter = anyio.CapacityLimiter(WORKERS)
    outputs: set[str] = set()  # the folders this server saved slices to: the only ones resources/read serves
    scratch: list[Path] = []  # the folder of the links to the files calls read (roots.Opened), made at the first

    def folder() -> Path:  # (a server killed before any call leaves no empty folder in /tmp)
        if not scratch:
            scratch.append(Path(tempfile.mkdtemp(prefix="boundread-mcp-")))
            atexit.register(shutil.rmtree, scratch[0], True)
        return scratch[0]

    @server.resource("file:///{+path}", name="slice", mime_type="text/plain",
                     description="A slice this server saved (the resource link of a tool result).")
    def read_slice(path: str) -> str:
        if "\0" in path:
            raise ResourceError("a resource path holds a NUL byte; read the resource link a tool result gave")
        real = roots.real("/" + path)
        if not any(roots.inside(real, folder) for folder in outputs) or not Path(real).is_file():
            raise ResourceError(f"/{path} is not a slice this server saved; call a tool to read a file")
        with open(real, encoding="utf-8", errors="replace") as fh:
            return fh.read(config.max_chars)

    async def run(path: str, client: ListRootsResult | None, work: Callable[[Target], Reply]) -> CallToolResult:
        served = roots.effective(config.roots, config.explicit_roots,
                                 roots.from_uris(str(root.uri) for root in client.roots) if client else ())
        target: Target | None = None
        opened: roots.Opened | None = None
        try:
            opened = roots.open_inside(path, served, folder())
            target = Target(opened.read, roots.display(opened.real, served), tools.out_folder(config, served),
                            checked=opened.real)
            outputs.add(roots.real(target.out_dir))
            with anyio.fail_after(config.timeout):
                reply = await anyio.to_thread.run_sync(partial(reading, opened, work, target),
                                                       abandon_on_cancel=True, limiter=limiter)
            reply = tools.unaliased(tools.settle(reply), target)  # settled here: an abandoned worker never writes
        except BoundreadError as exc:
            reply = tools.failed(exc, target, path)
        except TimeoutError:
            reply = tools.failed(TimedOut(f"{path}: no answer after {config.timeout:g} s",
                                          "ask for less (a page range, lines, a grep)"), target, path)
        finally:
            if opened is not None:
                opened.release()
        return to_result(reply)

    @tool
    async def info(path: PathArg, client_roots: ClientRoots, password: Password = None) -> CallToolResult:
        """What a file is, cheaply: kind, size, pages/sheets/entries, estimated tokens, and the call that reads it."""
        return await run(path, client_roots, lambda t: tools.info(config, t, password))

    @tool
    async def pages(
        path: PathArg,
        range: Annotated[str, Field(description="Pages, slides, notebook cells, EPUB chapters or web page sections: "
                                                 "1-5, 7 or 1,3,8-10.")],
        client_roots: ClientRoots,
        layout: Annotated[bool, Field(description="Keep the physical layout (table columns on one line).")]
        = False,
        password: Password = None,
        max_chars: MaxChars = None,
        offset: Offset = 0,
    ) -> CallToolResult:
        """PDF pages, PowerPoint slides, Jupyter notebook cells, EPUB chapters or a web page's sections (h1-h3), each
        after a `--- page N / TOTAL ---` line (`--- slide`, `--- cell`, `--- chapter`; a page's `--- section N ---`)."""
        return await run(path, client_roots, lambda t: tools.pages(config, t, range, layout=layout,
                                                                   password=password, max_chars=max_chars,
                                                                   offset=offset))

    @tool
    async def sheets(
        path: PathArg,
        client_roots: ClientRoots,
        sheet: Annotated[str | None, Field(description="A sheet name or 1-based index; none: list the sheets.")]
        = None,
        rows: Annotated[str | None, Field(description="Rows A-B (1-based), e.g. 201-400.")] = None,
        max_rows: Annotated[int, Field(description="At most this many rows.", ge=1)] = 200,
        max_chars: MaxChars = None,
        offset: Offset = 0,
    ) -> CallToolResult:
        """A workbook (xlsx, xls, ods; a CSV/TSV is one sheet, named after the file): without a sheet, its sheets
        and sizes; with one (or rows of a CSV), its rows as csv, the header row repeated above a later slice."""
        return await run(path, client_roots, lambda t: tools.sheets(config, t, sheet, rows, max_rows=max_rows,
                                                                    max_chars=max_chars, offset=offset))

    @tool
    async def list_zip(
        path: PathArg,
        client_roots: ClientRoots,
        max_entries: Annotated[int, Field(description="List at most this many entries.", ge=1)] = 500,
        password: Password = None,
        entries: Annotated[str | None, Field(description="Entries A-B (1-based; A- to the end), e.g. 501-1000.")]
        = None,
        match: Annotated[str | None, Field(description="Only names matching this fnmatch pattern (case-sensitive, "
                                                       "* also crosses /), e.g. '*.pdf'.")] = None,
    ) -> CallToolResult:
        """An archive's entries (zip, 7z, tar, or any zip-based file) with sizes and warnings. Extracts nothing."""
        return await run(path, client_roots, lambda t: tools.list_zip(config, t, max_entries=max_entries,
                                                                      password=password, entries=entries,
                                                                      match=match))

    @tool
    async def extract(
        path: PathArg,
        client_roots: ClientRoots,
        lines: Annotated[str | None, Field(description="Only lines A-B of the text (A- for the rest).")] = None,
        grep: Annotated[str | None, Field(description="Only lines matching this regular expression.")] = None,
        ignore_case: Annotated[bool, Field(description="Case-insensitive grep.")] = False,
        context: Annotated[int, Field(description="Lines of context around each match.", ge=0)] = 0,
        member: Annotated[str | None, Field(description="One member of an archive.")] = None,
        sheet: Annotated[str | None, Field(description="A sheet name or 1-based index.")] = None,
        max_chars: MaxChars = None,
        pages: Annotated[str | None, Field(description="PDF pages / slides, e.g. 1-5 (with member).")] = None,
        rows: Annotated[str | None, Field(description="Sheet rows A-B (with sheet).")] = None,
        password: Password = None,
        offset: Offset = 0,
        encoding: Annotated[str | None, Field(description="Read text in this codec (cp1251, koi8-r, shift_jis) "
                                              "instead of the declared or guessed one.")] = None,
        json_path: Annotated[str | None, Field(description="JSON/JSONL: only what this jq-like path selects, "
                                               "pretty: .items[100:120], .meta.version, .items[].id. "
                                               "rows: JSONL records A-B.")] = None,
        sql: Annotated[str | None, Field(description="SQLite: one read-only SELECT, rows and cells bounded; "
                                         "rows: its result rows A-B. Tables: sheet=TABLE, rows=A-B.")] = None,
    ) -> CallToolResult:
        """The text of any supported file (PDF, Office, sheets, archives' members, logs, JSON, SQLite), bounded;
        grep and line windows read huge logs without loading them; json_path reads a part of a big JSON file;
        sql runs one read-only SELECT on a SQLite database."""
        return await run(path, client_roots, lambda t: tools.extract(
            config, t, pages=pages, lines=lines, grep=grep, ignore_case=ignore_case, context=context,
            member=member, sheet=sheet, rows=rows, max_chars=max_chars, password=password, offset=offset,
            encoding=encoding, json_path=json_path, sql=sql))

    @tool
    async def chunks(
        path: PathArg,
        client_roots: ClientRoots,
        tokens: Annotated[int, Field(description="At most this many tokens per chunk.", ge=50)] = 20_000,
        overlap: Annotated[int, Field(description="Lines or paragraphs repeated between chunks.", ge=0)] = 0,
        max_chunks: Annotated[int, Field(description="Stop after this many chunks.", ge=1)] = 200,
        start: Annotated[int, Field(description="Go on from this chunk (the call a stopped run names).", ge=1)]
        = 1,
        model: Annotated[str | None, Field(description="Price reading every chunk once with this model.")] = None,
        password: Password = None,
    ) -> CallToolResult:
        """The whole file as chunk files of at most `tokens` tokens (pages, slides, sheets with the header row,
        headings, lines) saved in the output folder, and the plan: for map-reduce, one sub-agent per chunk."""
        def work(target: Target) -> Reply:
            with runs.run():
                return tools.chunks(config, target, tokens, overlap=overlap, max_chunks=max_chunks, start=start,
                                    model=model, password=password, watch=runs.watch)

        return await run(path, client_roots, work)

    return server


def serve(config: Config, *, port: int = 8000) -> None:
    """Run streamable HTTP on 127.0.0.1:``port`` (path /mcp) until stopped (stdio: :func:`serve_stdio`)."""
    warnings.simplefilter("ignore", MCPDeprecationWarning)  # roots/list: deprecated in the 2026-07-28 protocol
    build(config).run("streamable-http", host="127.0.0.1", port=port)


def serve_stdio(config: Config, held: list[bytes], inbox: Inbox, wire_out: BinaryIO,
                answered: dict[int | str, Answered]) -> None:
    """Serve the client on ``inbox``/``wire_out`` (:mod:`boundread.mcp.stdio` claimed the wire and read ``held``
    while the SDK loaded; ``answered``: the requests it answered already, by id). Ends when the client goes, or
    on SIGINT or SIGTERM: each chunk run in flight is interrupted and writes its manifest first
    (:mod:`boundread.mcp.stopping`)."""
    warnings.simplefilter("ignore", MCPDeprecationWarning)
    runs = Runs()
    server = build(config, runs)
    assert isinstance(server, _Server)
    lines = _Lines([line.decode("utf-8", "replace") for line in held], inbox)
    anyio.run(_serve_lines, server, runs, lines, _Out(wire_out, answered))


GRACE = 30.0  # seconds a stopping server waits for its chunk runs to write their manifests


async def _serve_lines(server: _Server, runs: Runs, lines: _Lines, out: _Out) -> None:
    async with anyio.create_task_group() as group:
        await lines.start()
        group.start_soon(_stop_on_signal, runs, group.cancel_scope)
        async with stdio_server(cast(Any, lines), cast(Any, out)) as (read, write):
            await server.serve_streams(read, write)
        group.cancel_scope.cancel()


async def _stop_on_signal(runs: Runs, scope: anyio.CancelScope) -> None:
    with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async for _ in signals:
            runs.stop()
            with anyio.move_on_after(GRACE):
                while runs.busy:
                    await anyio.sleep(0.05)
            scope.cancel()
            return


class _Lines:
    """The client's lines for the SDK's reader: ``held`` (read already), then each line the inbox gives."""

    def __init__(self, held: list[str], inbox: Inbox) -> None:
        self.held, self.inbox = held, inbox
        self.send, self.receive = anyio.create_memory_object_stream[str](16)

    async def start(self) -> None:
        token = anyio.lowlevel.current_token()
        threading.Thread(target=self._pump, args=(token,), name="boundread-mcp-stdin", daemon=True).start()

    def _pump(self, token: anyio.lowlevel.EventLoopToken) -> None:
        try:
            for raw in iter(self.inbox.get, b""):
                anyio.from_thread.run(self.send.send, raw.decode("utf-8", "replace"), token=token)
            anyio.from_thread.run_sync(self.send.close, token=token)
        except (RuntimeError, anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
            return  # the server stopped first

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        for line in self.held:
            yield line
        async for line in self.receive:
            yield line


class _Out:
    """The SDK's writer: each message to the client, but the SDK's answers to requests answered before it loaded
    (said on stderr when one differs from ours)."""

    def __init__(self, wire: BinaryIO, answered: dict[int | str, Answered]) -> None:
        self.wire, self.answered = wire, dict(answered)

    async def write(self, text: str) -> None:
        for early in list(self.answered.values()):
            agrees = same(early, text)
            if agrees is not None:
                del self.answered[early.id]
                if not agrees:
                    sys.stderr.write(f"boundread: warning: the SDK's answer to request {early.id!r} differs from the "
                                     f"early one: {text.strip()[:500]}\n")
                return
        await anyio.to_thread.run_sync(self._send, text.encode("utf-8"))

    def _send(self, data: bytes) -> None:
        self.wire.write(data)
        self.wire.flush()

    async def flush(self) -> None:
        return None
