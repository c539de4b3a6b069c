"""The ``mcp`` command: serve the extractors over MCP (stdio, or streamable HTTP on 127.0.0.1)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from typer._click.core import Context, Parameter

from boundread.cli.boundary import AtLeast, boundary


class PortNumber(AtLeast):
    """A TCP port, 1 to 65535: help reads ``--port N`` as the other numbers do, not ``N [1<=x<=65535]``."""

    def __init__(self) -> None:
        super().__init__(1)

    def convert(self, value: Any, param: Parameter | None, ctx: Context | None) -> int | float:
        number = super().convert(value, param, ctx)
        if number > 65535:
            self.fail(f"{value} is above 65535 (the last TCP port)", param, ctx)
        return number


def register(app: typer.Typer) -> None:
    """Add `mcp` to the app."""
    app.command("mcp", epilog="Examples: boundread mcp\n\nboundread init --mcp\n\n"
                              "boundread mcp --root ~/docs --http --port 8765")(mcp)


def mcp(
    root: Annotated[list[Path] | None, typer.Option("--root", metavar="DIR", help="Serve files under DIR only "
                                                    "(repeatable; default: the client's roots, else here).")]
    = None,
    http: Annotated[bool, typer.Option("--http", help="Serve streamable HTTP on 127.0.0.1 (path /mcp) instead "
                                       "of stdio.")] = False,
    port: Annotated[int, typer.Option("--port", metavar="N", click_type=PortNumber(),
                                        help="The --http port (1-65535).")] = 8000,
    max_chars: Annotated[int, typer.Option("--max-chars", metavar="N", click_type=AtLeast(1),
                                           help="At most this many characters per result (~4 per token).")]
    = 100_000,
    timeout: Annotated[float, typer.Option("--timeout", metavar="SECONDS", click_type=AtLeast(0.1, float),
                                           help="Stop each call after this many seconds.")] = 60.0,
    out: Annotated[Path | None, typer.Option("--out", metavar="DIR", help="Save slices here (default: "
                                             "$BOUNDREAD_OUT_DIR, else boundread-out/ in the first root).")]
    = None,
) -> None:
    """MCP server: the extractors as tools (info, pages, sheets, list_zip, extract) for agents with no shell.

    Each result is bounded, saved to the output folder (a resource link), carries the JSON envelope as structured
    content and ends with the next call. Needs the MCP SDK: the mcp extra of boundread. Register it with
    `boundread init --mcp` (Claude Code, Cursor) or `claude mcp add boundread -- boundread mcp`."""

    def work() -> int:
        from boundread.mcp import start

        return start.serve(tuple(root or ()), http=http, port=port, max_chars=max_chars, timeout=timeout, out=out)

    boundary(False, work)
