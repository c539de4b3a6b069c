"""Cursor: its hooks in ``.cursor/hooks.json`` (beforeReadFile, beforeShellExecution), the skill text in the
project's AGENTS.md. A deny is ``{"permission": "deny", ...}``; Cursor cannot replace a tool's output, so its
pre-tool events only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

    from boundread.agents.base import Check, Target

NAME = "cursor"
LABEL = "Cursor"
PRE_MATCHER = ""  # its events are the read and the shell already
REDIRECT = False
INGEST_EVENTS: tuple[str, ...] = ()  # budget ingest reads no Cursor log


def target(root: Path, home: Path, user: bool, program: str, budget: bool) -> Target:
    """A flat handler on each pre-tool event; AGENTS.md for a project (the user has none)."""
    from boundread.agents import install
    from boundread.agents.base import Target

    command = install.command(NAME, program)
    return Target((home if user else root) / ".cursor" / "hooks.json",
                          tuple((event, {"command": command}) for event in ("beforeReadFile", "beforeShellExecution")),
                          None if user else root / "AGENTS.md", True, {"version": 1})


def checks(settings: Path, root: Path, home: Path) -> list[Check]:
    """Nothing of its own: Cursor runs the hooks of its settings without a trust step."""
    return []
