"""``boundread mcp`` once its options are parsed, without Typer: check the extra and the roots, build the
:class:`~boundread.mcp.config.Config`, serve stdio (answering ``initialize`` before the SDK loads) or HTTP.

The start-up fast path (cli/fast.py) calls :func:`serve` for the stdio forms ``init --mcp`` registers
(``boundread mcp``, ``--max-chars N``, ``--root DIR``...): a client waits for the ``initialize`` answer, and
Typer, click and the app cost ~50 ms of it. tests/test_mcp_fast_start.py holds it to the Typer command.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def serve(root: Sequence[Path] = (), *, http: bool = False, port: int = 8000, max_chars: int = 100_000,
          timeout: float = 60.0, out: Path | None = None) -> int:
    """Serve until the client goes; the exit code. Raises UsageError (no MCP SDK) or NotFound (a root that is
    not a folder) before anything is served. The defaults are the command's."""
    from boundread.errors import NotFound, UsageError
    from boundread.mcp import extra, roots
    from boundread.mcp.config import Config

    if (absent := extra.missing()) is not None:
        raise UsageError(f"the MCP server needs the mcp package ({absent} is missing)", extra.FIX)
    folders = tuple(roots.real(folder) for folder in (root or [Path.cwd()]))
    for folder in folders:
        if not Path(folder).is_dir():
            raise NotFound(f"--root {folder} is not a folder", "pass an existing folder")
    config = Config(roots=folders, explicit_roots=bool(root), out_dir=str(out) if out else None,
                    max_chars=max_chars, timeout=timeout)
    if http:
        from boundread.mcp import server

        server.serve(config, port=port)
    else:
        from boundread.mcp import stdio  # answers initialize before the SDK loads

        stdio.serve(config)
    return 0
