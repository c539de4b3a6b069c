"""A sub-agent's own record, as Claude Code writes it beside its transcript: its depth, its parent, its spawn.

Claude Code (2.1.332, checked in the real client) writes ``<session>/subagents/agent-<id>.meta.json`` with
``"parentAgentId"`` (absent for a child of the main agent), ``"spawnDepth"`` (1 for a child of the main agent)
and ``"toolUseId"`` (the Agent call that started it), before the sub-agent's first tool call. Hook payloads from
inside a sub-agent carry its ``agent_id`` and nothing about its parent: this file is its depth.

On guard-check's path for every sub-agent call (``enforce.depth_of``): standard library, one small read of a
regular file (never a FIFO), no json (the few keys are read as text; only a key is followed by a colon).
"""

# os.path on purpose, not pathlib: this runs on the hook path.
from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

META_MAX = 64 * 1024  # a meta file is a few hundred bytes; more is not one


def meta_path(payload: dict[str, Any], agent: str) -> str | None:
    """Where Claude Code keeps ``agent``'s meta file for the session whose transcript the payload names."""
    transcript = payload.get("transcript_path")
    if not isinstance(transcript, str) or not transcript.endswith(".jsonl") or "\0" in transcript + agent \
            or "/" in agent or "\\" in agent:
        return None
    return os.path.join(transcript[: -len(".jsonl")], "subagents", f"agent-{agent}.meta.json")  # noqa: PTH118


def read_meta(path: str) -> dict[str, object] | None:
    """``spawnDepth``, ``parentAgentId`` and ``toolUseId`` of one meta file, or None if it is not (yet) there, or
    is not a regular file (a FIFO there would hold the hook: it is opened without blocking and never read)."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError):  # ValueError: a name no file system takes (a lone surrogate)
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        text = os.read(fd, META_MAX).decode("utf-8", "replace")
    except OSError:
        return None
    finally:
        os.close(fd)
    return {"spawnDepth": _number(text, "spawnDepth"), "parentAgentId": _text(text, "parentAgentId"),
            "toolUseId": _text(text, "toolUseId")}


def spawn_depth(payload: dict[str, Any]) -> int:
    """How deep the agent that sent ``payload`` is: 0 for the main agent, its meta file's ``spawnDepth`` for a
    sub-agent, 1 for a sub-agent whose meta file cannot be read (a client that writes none)."""
    agent = payload.get("agent_id")
    if isinstance(agent, int) and not isinstance(agent, bool):
        agent = str(agent)
    if not isinstance(agent, str) or not agent:
        return 0
    path = meta_path(payload, agent)
    meta = read_meta(path) if path else None
    depth = meta.get("spawnDepth") if meta else None
    return depth if isinstance(depth, int) and depth > 0 else 1


def _number(text: str, key: str) -> int | None:
    value = _raw(text, key)
    return int(value) if value is not None and value.isascii() and value.isdigit() and len(value) < 10 else None


def _text(text: str, key: str) -> str | None:
    value = _raw(text, key)
    if value is None or not value.startswith('"'):
        return None
    end = value.find('"', 1)
    return value[1:end] if end > 1 and "\\" not in value[1:end] else None


def _raw(text: str, key: str) -> str | None:
    """The value after ``"key":`` in a flat JSON object, up to the next comma or brace (ids have neither). Only a
    key is followed by a colon: the same word as a value (a description the model chose, ``"spawnDepth"``) is not
    taken for it."""
    needle, at = f'"{key}"', -1
    while (at := text.find(needle, at + 1)) >= 0:
        rest = text[at + len(needle):].lstrip()
        if rest.startswith(":"):
            rest = rest[1:].lstrip()
            ends = [i for i in (rest.find(","), rest.find("}")) if i >= 0]
            return rest[: min(ends)].strip() if ends else None
    return None
