"""Read GitHub Copilot CLI session events: ``~/.copilot/session-state/<session>/events.jsonl``.

Copilot CLI 1.0.102 appends one event a line (``{"type", "data", "id", "timestamp", "parentId"}``); each model
request is a ``session.usage_record`` whose ``data.usage`` holds ``model``, ``inputTokens``, ``outputTokens``,
``cacheReadTokens``, ``cacheWriteTokens``, the provider's ``apiCallId`` and an ``accounting`` block
(``sourceSessionId``, ``sequence``, ``usageId``). ``--resume`` appends to the same file. The key is the
accounting's session and usage id: each request once, however often the file is read.

``inputTokens`` includes the cache reads and writes (checked against the real client on an Anthropic provider:
input 100, 30 read and 20 written are recorded as inputTokens 150, cacheReadTokens 30, cacheWriteTokens 20), so
the ledger takes the difference as input: its total is the provider's. Copilot's hooks name the file only on
``agentStop`` (``transcriptPath``); the others carry ``sessionId``, and the file is under ``$COPILOT_HOME`` (or
``~/.copilot``) by that id. Sub-agent attribution is not verified: a record of another accounting session is
put down to that id as its agent.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from boundread.budget.logline import Impossible, LineReader, count_of, loads, unix_seconds, within_input
from boundread.budget.model import UsageRecord

if TYPE_CHECKING:
    from collections.abc import Mapping

SAFE_ID = re.compile(r"[0-9A-Za-z][0-9A-Za-z_-]{0,127}")  # a session id that is safe as a folder name
FIELDS = ("inputTokens", "cacheReadTokens", "cacheWriteTokens", "outputTokens")


def home() -> Path:
    """Where Copilot CLI keeps its state: ``$COPILOT_HOME``, else ``~/.copilot``."""
    env = os.environ.get("COPILOT_HOME")
    return Path(env) if env else Path.home() / ".copilot"


def events_of(session: str) -> Path | None:
    """The events file of ``session`` (None for an id that is no safe folder name)."""
    return home() / "session-state" / session / "events.jsonl" if SAFE_ID.fullmatch(session) else None


def is_events(path: Path) -> bool:
    """Whether ``path`` is where Copilot CLI keeps a session's events."""
    return path.name == "events.jsonl" and path.parent.parent.name == "session-state"


def wrote(head: bytes) -> bool:
    """Whether a file that starts with ``head`` is a session's events: a ``session.start`` by copilot-agent."""
    first = head.split(b"\n", 1)[0]
    return b'"type":"session.start"' in first and b'"producer":"copilot-agent"' in first


def placed(path: Path) -> bool:
    """Whether ``path`` (empty or unreadable) is where Copilot CLI keeps a session's events (:func:`is_events`)."""
    return is_events(path)


def session_of(path: Path, given: str | None, payload: Mapping[str, Any]
               ) -> tuple[str, list[Path], dict[Path, LineReader]]:
    """The session (``given``: the payload's id, else the events file's folder) and its one file."""
    session = given or path.parent.name
    return session, [path], {path: CopilotLines(session)}


@dataclass
class CopilotLines:
    """A session's events; ``root``: the session they belong to."""

    root: str
    markers: tuple[bytes, ...] = (b'"session.usage_record"',)

    def begin(self, stream: IO[bytes], start: int) -> None:
        """Each usage record names its model and request: nothing before ``start`` matters."""

    def records(self, raw: bytes, where: str, anchor: str, warnings: list[str]) -> list[UsageRecord]:
        try:
            obj = loads(raw)
        except ValueError:
            warnings.append(f"{where}: not JSON; skipped")
            return []
        data = obj.get("data") if isinstance(obj, dict) and obj.get("type") == "session.usage_record" else None
        usage = data.get("usage") if isinstance(data, dict) else None
        if not isinstance(usage, dict):
            return []
        block = usage.get("accounting")
        accounting: dict[str, Any] = block if isinstance(block, dict) else {}
        request = _text(accounting.get("usageId")) or _text(usage.get("apiCallId")) or _text(obj.get("id"))
        if request is None:
            warnings.append(f"{where}: a usage record without a request id; skipped (it could not be told from a"
                            " repeat)")
            return []
        try:
            given, read, written, output = (count_of(usage, name, warnings, where) for name in FIELDS)
        except Impossible:
            return []
        source = _text(accounting.get("sourceSessionId")) or self.root
        return [UsageRecord(
            model=_text(usage.get("model")) or "unknown",
            input=within_input(given, read, written, where, warnings),
            output=output,
            cache_read=read,
            cache_write=written,
            key=f"copilot:{source}:{request}",
            agent=None if source == self.root else source,
            at=unix_seconds(obj.get("timestamp")),
        )]

    def found(self) -> list[tuple[Path, LineReader]]:
        return []


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
