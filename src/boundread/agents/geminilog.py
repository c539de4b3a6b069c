"""Read Gemini CLI chat files: ``~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl``.

Gemini CLI 0.61 appends a record per change: the first line is the session's metadata (``sessionId``,
``projectHash``, ``kind``), then each message as it is (``{"id", "type": "gemini", "tokens", "model", ...}``),
again each time it changes (its tool calls added, its tokens attached), and ``{"$set": {...}}`` updates, whose
``messages``, when there, replace the whole list. A model answer's message carries that request's tokens
(``input, output, cached, thoughts, tool, total``) and keeps its id through every rewrite: the id is the key
(21 records for 11 requests in the issue's session). ``$rewindTo`` drops messages from the conversation, not
from the bill: it changes nothing here.

Tokens are the API's ``usageMetadata``: ``input`` is promptTokenCount, which includes ``cached``
(cachedContentTokenCount); ``thoughts`` are billed as output; ``tool`` (toolUsePromptTokenCount) is prompt
input; total = input + output + thoughts + tool (checked against the real client: a reply of prompt 130 with
30 cached, 50 candidates, 10 thoughts, 7 tool-use prompt is written as ``input 130, output 50, cached 30,
thoughts 10, tool 7, total 197``). So the ledger takes input - cached + tool, output + thoughts, and cached as
cache reads: its total is the provider's.

Sub-agents (``invoke_agent``) write ``chats/<parent session id>/<sub-agent session id>.jsonl`` (kind
``subagent``); their hooks name the parent's file, so a session is its file and every file in those folders.
Requests the CLI makes outside the chat (the ``auto`` model router, loop checks, summaries) are in no file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from boundread.budget.logline import Impossible, LineReader, count_of, loads, open_regular, unix_seconds
from boundread.budget.model import UsageRecord
from boundread.errors import BoundreadError

if TYPE_CHECKING:
    from collections.abc import Mapping

SAFE_ID = re.compile(r"[0-9A-Za-z][0-9A-Za-z_-]{0,127}")  # a session id that is safe in a glob and a path
HEAD = 64 << 10  # the metadata line is small
MAX_DEPTH = 8  # sub-agents of sub-agents looked for
MAX_FILES = 1000  # files per session: a hostile folder cannot make a hook list for ever
FIELDS = ("input", "output", "cached", "thoughts", "tool")


@dataclass
class GeminiLines:
    """A chat file's lines; ``agent``: the sub-agent whose file it is (None: the session's main agent)."""

    agent: str | None = None
    markers: tuple[bytes, ...] = (b'"tokens"',)

    def begin(self, stream: IO[bytes], start: int) -> None:
        """Each message line is whole: nothing before ``start`` matters."""

    def records(self, raw: bytes, where: str, anchor: str, warnings: list[str]) -> list[UsageRecord]:
        try:
            obj = loads(raw)
        except ValueError:
            warnings.append(f"{where}: not JSON; skipped")
            return []
        if not isinstance(obj, dict):
            return []
        messages: list[Any] = [obj] if isinstance(obj.get("id"), str) or obj.get("type") == "gemini" else []
        for holder in (obj.get("$set"), obj):  # a $set, or an old-style metadata line, may carry them all
            if isinstance(holder, dict) and isinstance(holder.get("messages"), list):
                messages += holder["messages"]
        found = (self._message(m, where, warnings) for m in messages)
        return [rec for rec in found if rec is not None]

    def _message(self, msg: Any, where: str, warnings: list[str]) -> UsageRecord | None:
        if not isinstance(msg, dict) or msg.get("type") != "gemini" or not isinstance(msg.get("tokens"), dict):
            return None
        msg_id = msg.get("id")
        if not isinstance(msg_id, str) or not msg_id:
            warnings.append(f"{where}: a model answer's tokens without its message id; skipped (it could not be"
                            " told from its rewrites)")
            return None
        try:
            given, output, cached, thoughts, tool = (count_of(msg["tokens"], f, warnings, where) for f in FIELDS)
        except Impossible:
            return None
        if cached > given:
            warnings.append(f"{where}: cached {cached:,} tokens exceed the prompt's {given:,}; the excess counted"
                            " as input")
            given = cached
        model = msg.get("model")
        return UsageRecord(
            model=model if isinstance(model, str) and model else "unknown",
            input=given - cached + tool,
            output=output + thoughts,
            cache_read=cached,
            key=f"gemini:{msg_id}",
            agent=self.agent,
            at=unix_seconds(msg.get("timestamp")),
        )

    def found(self) -> list[tuple[Path, LineReader]]:
        return []


def header(path: Path) -> dict[str, Any]:
    """A chat file's metadata line ({} when it has none or cannot be read)."""
    try:
        with open_regular(path) as stream:
            obj = loads(stream.readline(HEAD))
    except (OSError, ValueError, BoundreadError):
        return {}
    return obj if isinstance(obj, dict) and isinstance(obj.get("sessionId"), str) else {}


def is_chat(path: Path) -> bool:
    """Whether ``path`` is where Gemini CLI keeps a chat: ``chats/session-*.jsonl`` or a sub-agent's."""
    if path.suffix != ".jsonl":
        return False
    return (path.parent.name == "chats" and path.name.startswith("session-")) or path.parent.parent.name == "chats"


def wrote(head: bytes) -> bool:
    """Whether a file that starts with ``head`` is a chat file: its first line has ``sessionId`` and
    ``projectHash``."""
    first = head.split(b"\n", 1)[0]
    return b'"sessionId"' in first and b'"projectHash"' in first


def placed(path: Path) -> bool:
    """Whether ``path`` (empty or unreadable) is where Gemini CLI keeps a chat (:func:`is_chat`)."""
    return is_chat(path)


def session_of(path: Path, given: str | None, payload: Mapping[str, Any]
               ) -> tuple[str, list[Path], dict[Path, LineReader]]:
    """The session (``given``: the payload's id; else a sub-agent's folder, the header's ``sessionId`` or the
    file's stem) and its files: ``path`` and its sub-agents' (:func:`session_files`)."""
    sub = path.parent.name != "chats" and path.parent.parent.name == "chats"
    named = header(path).get("sessionId")
    session = given or (path.parent.name if sub else named if isinstance(named, str) and named else path.stem)
    paths, readers = session_files(path, session)
    return session, paths, readers


def session_files(main: Path, session: str) -> tuple[list[Path], dict[Path, LineReader]]:
    """``main`` and every sub-agent's file under it (``chats/<session>/<agent>.jsonl``, nested), with readers."""
    sub = main.parent.name != "chats" and main.parent.parent.name == "chats"
    own = main.stem if sub else None  # a sub-agent's own file was given
    chats = main.parent.parent if sub else main.parent
    paths: list[Path] = [main]
    readers: dict[Path, LineReader] = {main: GeminiLines(own)}
    level = [own or session]
    for _ in range(MAX_DEPTH):
        found = [p for sid in level if SAFE_ID.fullmatch(sid) for p in sorted((chats / sid).glob("*.jsonl"))
                 if p not in readers]
        found = found[: max(0, MAX_FILES - len(paths))]
        for path in found:
            paths.append(path)
            readers[path] = GeminiLines(path.stem)
        level = [p.stem for p in found]
        if not level:
            break
    return paths, readers
