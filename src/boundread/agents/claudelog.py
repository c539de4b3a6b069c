"""Claude Code transcript lines: ``<project-dir>/<session>.jsonl`` and ``<session>/subagents/agent-<id>.jsonl``.

Streaming writes one message on several lines, a resumed session or a compaction copies earlier ones into a
new file, a sub-agent's lines may be replayed as sidechain copies: a (message.id, requestId) pair is the key.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from boundread.budget.logline import Impossible, LineReader, count_of, loads, unix_seconds
from boundread.budget.model import UsageRecord

if TYPE_CHECKING:
    from collections.abc import Mapping

FIELDS = (
    ("input", "input_tokens"),
    ("output", "output_tokens"),
    ("cache_read", "cache_read_input_tokens"),
    ("cache_write", "cache_creation_input_tokens"),
)


def parse_line(raw: bytes, where: str, warnings: list[str], anchor: str | None = None) -> UsageRecord | None:
    """The usage in one transcript line, or None when it has none (garbage adds a warning).

    A line without a message id is never deduplicated with another: its key is its place (``anchor``, by
    default ``where``), so only a re-read of the same bytes could repeat it. A sub-agent's line names it
    (``agentId``); ``timestamp`` is when the answer came.
    """
    try:
        obj = loads(raw)
    except ValueError:  # UnicodeDecodeError is one
        warnings.append(f"{where}: not JSON; skipped")
        return None
    message = obj.get("message") if isinstance(obj, dict) else None
    usage = message.get("usage") if isinstance(message, dict) else None
    if not isinstance(usage, dict) or not isinstance(message, dict):
        return None
    model = message.get("model")
    if model == "<synthetic>" or obj.get("isApiErrorMessage"):
        return None
    try:
        counts = {field: count_of(usage, name, warnings, where) for field, name in FIELDS}
        split = usage.get("cache_creation")
        if isinstance(split, dict):  # newer lines split cache writes by lifetime; their sum is authoritative
            parts = [split.get(k, 0) for k in ("ephemeral_5m_input_tokens", "ephemeral_1h_input_tokens")]
            if all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in parts) and sum(parts):
                counts["cache_write"] = count_of({"cache_creation": sum(parts)}, "cache_creation", warnings, where)
    except Impossible:
        return None
    msg_id, request_id = message.get("id"), obj.get("requestId")
    key = f"{msg_id}:{request_id}" if msg_id and request_id else (str(msg_id) if msg_id else f"@{anchor or where}")
    agent = obj.get("agentId")
    return UsageRecord(
        model=str(model or "unknown"),
        input=counts["input"],
        output=counts["output"],
        cache_read=counts["cache_read"],
        cache_write=counts["cache_write"],
        key=key,
        message=str(msg_id) if msg_id else None,
        sidechain=obj.get("isSidechain") is True,
        agent=agent if isinstance(agent, str) and agent else None,
        at=unix_seconds(obj.get("timestamp")),
    )


@dataclass
class ClaudeLines:
    """Claude Code's transcript lines; ``agent``: the sub-agent whose file this is, for lines that do not say."""

    agent: str | None = None
    markers: tuple[bytes, ...] = (b'"usage"',)  # the cheap pre-filter ccusage uses too

    @classmethod
    def of(cls, path: Path) -> ClaudeLines:
        """The reader for ``path``: ``<session>/subagents/agent-<id>.jsonl`` is sub-agent ``<id>``'s."""
        sub = path.parent.name == "subagents" and path.stem.startswith("agent-")
        return cls(path.stem[len("agent-"):] or None if sub else None)

    def begin(self, stream: IO[bytes], start: int) -> None:
        """Nothing before ``start`` matters: each line says all."""

    def records(self, raw: bytes, where: str, anchor: str, warnings: list[str]) -> list[UsageRecord]:
        rec = parse_line(raw, where, warnings, anchor)
        if rec is None:
            return []
        return [rec if rec.agent or not self.agent else replace(rec, agent=self.agent)]

    def found(self) -> list[tuple[Path, LineReader]]:
        return []


def wrote(head: bytes) -> bool:
    """Whether a file that starts with ``head`` is a transcript: any file with content no other client claims
    (Claude Code is last in ``agents.LOGGERS``)."""
    return bool(head)


def placed(path: Path) -> bool:
    """Whether ``path`` (empty or unreadable) is a transcript: any place no other client claims."""
    return True


def session_of(path: Path, given: str | None, payload: Mapping[str, Any]
               ) -> tuple[str, list[Path], dict[Path, LineReader]]:
    """The session the file's place names and its whole tree (:func:`transcripts`); no readers given: each file
    is read with ``ClaudeLines.of``. A payload's own id wins over the session later, in the ingest."""
    return session_of_path(path), transcripts(path), {}


def transcripts(parent: Path, extra: Path | None = None) -> list[Path]:
    """``parent``, then each of its sub-agents' transcripts (sorted), then ``extra`` if it is another file."""
    found = [parent]
    sub = parent.with_suffix("") / "subagents"
    if sub.is_dir():
        found += sorted(p for p in sub.rglob("*.jsonl") if p.is_file())
    if extra is not None and extra not in found:
        found.append(extra)
    return found


def session_of_path(path: Path) -> str:
    """``<session>.jsonl`` -> its stem; ``<session>/subagents/agent-<id>.jsonl`` -> the parent's session."""
    if path.parent.name == "subagents" and path.parent.parent.name:
        return path.parent.parent.name
    return path.stem
