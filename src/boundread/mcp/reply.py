"""What every MCP tool answers with, and the pieces the tools share: the :class:`Target` a call names (the real
path, inside the roots, and the name the agent used), the :class:`Reply` (the text the model reads, the JSON
envelope, schema 1, as ``--json`` prints it, and the file the slice was saved to), the server's limits, the error
Reply (:func:`failed`), a reply's size as a client shows it, and the save of a slice into the output folder.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from boundread import render
from boundread.core import output
from boundread.errors import BoundreadError, NotFound, UsageError
from boundread.limits import Limits
from boundread.mcp import calls
from boundread.mcp.config import Config

LINK_WORDS = 80  # a resource link's name, type and description, beside its URI


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

    return replace(reply, text=fix(reply.text), envelope=fix(reply.envelope))


def size(reply: Reply) -> int:
    """Characters of ``reply`` a client may show the model: its text, or its structured content as JSON (Claude
    Code shows that instead), whichever is longer, and the resource link to the saved slice."""
    shown = max(len(reply.text), len(json.dumps(reply.envelope, ensure_ascii=False, separators=(",", ":"))))
    link = 2 * len(Path(reply.saved).absolute().as_uri()) + LINK_WORDS if reply.saved is not None else 0
    return shown + link


def save(target: Target, body: str, name: str) -> tuple[Path | None, str | None]:
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


def calls_for(commands: Any, target: Target) -> list[str]:
    """Each next command as its tool call; one no tool runs stays the CLI command, said to be one."""
    return [calls.tool_call(command, target.shown) or f"CLI only: {command}" for command in commands]
