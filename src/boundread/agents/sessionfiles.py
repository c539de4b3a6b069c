"""Which files a hook payload (or a ``--transcript``) stands for, and waiting for a stopping agent's to be written.

Four clients write logs ``budget ingest`` reads: Claude Code transcripts (``claudelog``), Codex rollouts
(``codexlog``), Gemini CLI chat files (``geminilog``) and GitHub Copilot CLI session events (``copilotlog``).
Each log module says how a file of its client's is told (its first line, else its place) and which files its
session spans; this module asks them in the registry's order (``agents.LOGGERS``) and knows no client's format.

Claude Code layout (2.1): ``<project-dir>/<session>.jsonl`` for the main agent, and
``<project-dir>/<session>/subagents/agent-<id>.jsonl`` for each sub-agent. A PostToolUse payload from inside a
sub-agent still names the parent's ``transcript_path``; SubagentStop adds ``agent_transcript_path``. So every
payload stands for the whole tree: the parent's file and each sub-agent's.

Claude Code writes the transcript on a 100 ms flush timer, so Stop and SubagentStop can fire before the final
message is in the file. ``settle`` waits (bounded) until it is: the payload's ``last_assistant_message`` is
the last assistant line, or else the file has stopped growing and ends with a whole line.

``ingest`` and ``ingest_all`` read the files into the ledger, each with its client's reader: the loop is
budget/transcript.py's, which knows no client.
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Sequence

    from boundread.budget.ledger import Ledger
    from boundread.budget.logline import LineReader
    from boundread.budget.prices import Pricer
    from boundread.budget.transcript import IngestResult, SessionIngest

STOPPING = ("Stop", "SubagentStop", "SessionEnd")  # the events after which nothing more may come to ingest it
SNIFF = 4096  # bytes of a file's start that tell its client
QUIET = 0.3  # seconds without growth that count as settled when the final message is not known
LIMIT = 2.0  # the longest a hook waits: the agent waits for the hook
POLL = 0.02
TAIL = 256 * 1024  # how much of the file's end is searched for the final message
LONG_LINE = 16 << 20  # the longest last line searched for a call's id (transcript.MAX_LINE)


def payload_transcripts(payload: dict[str, Any]) -> tuple[Path, list[Path]] | None:
    """(the file a stopping agent is still writing, every transcript of the session), or None without one."""
    from boundread.agents.claudelog import transcripts

    parent = _path(payload.get("transcript_path"))
    agent = _path(payload.get("agent_transcript_path"))
    if parent is None and agent is None:
        return None
    if parent is None:  # only a sub-agent's file: its parent is two folders up
        assert agent is not None
        guess = agent.parent.parent.with_suffix(".jsonl") if agent.parent.name == "subagents" else None
        parent = guess if guess is not None and guess.is_file() else agent
    event = payload.get("hook_event_name")
    writing = agent if event == "SubagentStop" and agent is not None else parent
    return writing, transcripts(parent, agent)


@dataclass(frozen=True)
class SessionFiles:
    """The files one session spans, how to read each (none given: a Claude Code transcript), and its id."""

    client: str  # "claude", "codex", "gemini" or "copilot"
    session: str  # the session the files name (a payload's own id wins over it)
    paths: list[Path]
    readers: dict[Path, LineReader] = field(default_factory=dict)
    writing: Path | None = None  # the file a stopping agent may still be writing (Claude Code only waits for it)


def client_of(path: Path) -> str:
    """Which agent wrote ``path`` (one of ``agents.LOGGERS``): the first whose log module claims the file's first
    bytes or, when it is empty or unreadable, its place; the last (Claude Code) claims any other."""
    from boundread.agents import LOGGERS, logger_of

    head = _head(path)
    for name in LOGGERS:
        log = logger_of(name)
        if log.wrote(head) if head else log.placed(path):
            return name
    return LOGGERS[-1]


def _head(path: Path) -> bytes:
    """The first SNIFF bytes of a regular file; b"" for anything else (a FIFO is never read)."""
    try:
        with _open(path) as f:
            return f.read(SNIFF)
    except OSError:
        return b""


def files_of(path: Path, payload: dict[str, Any] | None = None) -> SessionFiles:
    """The files of the session ``path`` belongs to, ``path`` first, as its client's log module finds them;
    ``payload``: the hook's, for its ids."""
    from boundread.agents import logger_of

    payload = payload or {}
    sid = payload.get("session_id") or payload.get("sessionId")
    given = sid if isinstance(sid, str) and sid else None
    client = client_of(path)
    session, paths, readers = logger_of(client).session_of(path, given, payload)
    return SessionFiles(client, session, paths, readers, path)


def payload_files(payload: dict[str, Any]) -> SessionFiles | None:
    """The files a hook payload stands for (None: it names none). Claude Code's name its transcript and, on
    SubagentStop, the sub-agent's; Codex's and Gemini CLI's name the file of the agent that runs the hook;
    Copilot CLI's name it on agentStop only (``transcriptPath``), else their ``sessionId`` finds it."""
    copilot = _copilot_events(payload)
    if copilot is not None:
        return files_of(copilot, payload)
    found = payload_transcripts(payload)
    if found is None:
        return None
    writing, paths = found
    files = files_of(paths[0], payload)
    if files.client == "claude":
        return SessionFiles("claude", files.session, paths, {}, writing)
    return files


def _copilot_events(payload: dict[str, Any]) -> Path | None:
    """The events file a Copilot CLI payload stands for: camelCase ``sessionId``, no ``transcript_path``."""
    from boundread.agents import copilotlog

    sid = payload.get("sessionId")
    if "transcript_path" in payload or not isinstance(sid, str):
        return None
    named = _path(payload.get("transcriptPath"))
    return named if named is not None else copilotlog.events_of(sid)


def _path(value: object) -> Path | None:
    return Path(value) if isinstance(value, str) and value else None


def settle(
    path: Path,
    final: str | None = None,
    *,
    quiet: float = QUIET,
    limit: float = LIMIT,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> float:
    """Wait until ``path`` holds the agent's final message; return the seconds waited (at most ``limit``).

    With ``final`` (the Stop payload's ``last_assistant_message``): until the last assistant line in the file
    says it. Without: until the file ends with a whole line and has not changed for ``quiet`` seconds.
    """
    begin = clock()
    last: tuple[int, int, bool] | None = None
    since = begin
    while True:
        now = clock()
        state = _state(path)
        if state != last:
            last, since = state, now
        whole = state is not None and state[2]
        if whole and final and _says(path, final):
            return now - begin
        if whole and not final and now - since >= quiet:
            return now - begin
        if now - begin >= limit:
            return now - begin
        sleep(POLL)


def regular(path: Path) -> bool:
    """Whether ``path`` is a regular file (a FIFO or a device is never waited for, opened or read)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _open(path: Path) -> IO[bytes]:
    """``path`` for reading, without blocking on a FIFO; OSError when it is not a regular file."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"{path} is not a regular file")
    return os.fdopen(fd, "rb")


def _state(path: Path) -> tuple[int, int, bool] | None:
    """(size, mtime, ends with a whole line), or None when the file is not there (yet)."""
    try:
        with _open(path) as f:
            st = os.fstat(f.fileno())
            if st.st_size:
                f.seek(st.st_size - 1)
            whole = not st.st_size or f.read(1) == b"\n"
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns, whole


def _says(path: Path, final: str) -> bool:
    """Whether the last assistant line in ``path`` carries the text ``final`` ends with."""
    try:
        with _open(path) as f:
            size = f.seek(0, 2)
            f.seek(max(0, size - TAIL))
            tail = f.read()
    except OSError:
        return False
    want = " ".join(final.split())
    for raw in reversed(tail.splitlines()):
        if b'"assistant"' not in raw:
            continue
        try:
            obj = json.loads(raw)
        except (ValueError, RecursionError):
            continue  # the cut first line of the tail, or garbage
        message = obj.get("message") if isinstance(obj, dict) else None
        if not isinstance(message, dict) or obj.get("type") != "assistant":
            continue
        content = message.get("content")
        texts = [b.get("text") for b in content if isinstance(b, dict)] if isinstance(content, list) else [content]
        said = " ".join(" ".join(t.split()) for t in texts if isinstance(t, str) and t.strip())
        return bool(said) and (want == said or want.endswith(said))
    return False


def settle_call(payload: Mapping[str, Any], *, limit: float = LIMIT) -> float:
    """Wait (at most ``limit`` seconds) until the transcript holds the request a PostToolUse answers: Claude Code
    flushes its transcript on a 100 ms timer, and an in-process hook is called at once, so without the wait the
    verdict misses the last request (a steady runaway under a 1,000-token cap then ended after 1,050 tokens,
    not before the request that crossed). The tool call's id is in that request's line. Seconds waited."""
    call = payload.get("tool_use_id")
    files = [_path_of(payload.get("transcript_path"))]
    agent = payload.get("agent_id")
    if files[0] is not None and isinstance(agent, str) and agent:  # a sub-agent's calls are in its own file
        files.append(files[0].with_suffix("") / "subagents" / f"agent-{agent}.jsonl")
    paths = [path for path in files if path is not None]
    if not isinstance(call, str) or not call or not paths:
        return 0.0
    begin = time.monotonic()
    needle = json.dumps(call).encode()
    while not any(_tail_has(path, needle) for path in paths) and time.monotonic() - begin < limit:
        time.sleep(POLL)
    return time.monotonic() - begin


def _path_of(value: object) -> Path | None:
    return Path(value) if isinstance(value, str) and value else None


def _tail_has(path: Path, needle: bytes) -> bool:
    """Whether the end of ``path`` (a regular file: never a FIFO) holds ``needle``: its last ``TAIL`` bytes, or, when
    its last line is longer (a Write of a big file: the call's id comes first in it), that whole line, read back
    to its start in ``TAIL`` steps, at most ``LONG_LINE`` bytes."""
    if not regular(path):
        return False
    try:
        with path.open("rb") as f:
            end = f.seek(0, 2)
            start = max(0, end - TAIL)
            f.seek(start)
            chunk = f.read()
            while needle not in chunk and b"\n" not in chunk.rstrip(b"\n") and start > 0 and end - start < LONG_LINE:
                step = min(TAIL, start)
                start -= step
                f.seek(start)
                chunk = f.read(step) + chunk
            return needle in chunk
    except OSError:
        return False


def ingest(ledger: Ledger, path: Path, *, session: str | None = None, project: str | None = None,
           pricer: Pricer | None = None) -> IngestResult:
    """Record the usage appended to ``path`` since the last ingest, priced, in batches of one transaction.

    The format (Claude Code, Codex, Gemini CLI) is told from the file; so is the session, unless given."""
    from boundread.budget.transcript import ingest_file

    files = files_of(path)
    name = str(path.resolve())
    return ingest_file(ledger, path, name, ledger.offset(name), session or files.session, project, pricer,
                       _reader(files.readers, path))


def ingest_all(ledger: Ledger, paths: Sequence[Path], *, session: str, project: str | None = None,
               pricer: Pricer | None = None, waited: float = 0.0,
               readers: Mapping[Path, LineReader] | None = None) -> SessionIngest:
    """Ingest each file that grew since its stored offset (budget/transcript.py's ``ingest_files``); ``readers``
    says each file's format (default: a Claude Code transcript)."""
    from boundread.budget.transcript import ingest_files

    queue = [(path, _reader(readers or {}, path)) for path in paths]
    return ingest_files(ledger, queue, session=session, project=project, pricer=pricer, waited=waited)


def _reader(readers: Mapping[Path, LineReader], path: Path) -> LineReader:
    from boundread.agents.claudelog import ClaudeLines

    return readers.get(path) or ClaudeLines.of(path)
