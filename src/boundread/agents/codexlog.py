"""Read Codex CLI rollouts: ``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl``.

Codex 0.171 writes, for each model request, a ``token_usage_record`` line (``thread_id``, ``response_id``, the
request's ``usage``, the thread's running total ``thread_token_usage``) and then a ``token_count`` event
(the same usage as ``info.last_token_usage``, the running total as ``info.total_token_usage``); older versions
write only the event. A request's key is its thread and the running total after it (with its own size): the
record and its echo are one key, whichever ingest reads which line (a hook runs between the two), and a
``token_count`` repeated with unchanged figures adds nothing. A resumed session appends to the same file and
its total goes on from where it was.

Token counts are OpenAI's: ``input_tokens`` includes the cached and the cache-written tokens, ``output_tokens``
includes the reasoning tokens, and ``total_tokens`` is their sum (checked against the real client: a reply with
``cached_tokens`` 30, ``cache_write_tokens`` 7 and ``reasoning_tokens`` 10 is written as input 150 = 113 + 30 +
7, output 50, total 200). So the ledger takes input - cached - written, cached as cache reads, written as cache
writes and output as given: its total is the provider's.

The model is the last ``turn_context`` line's; a read that starts after it looks back for it (``LOOKBACK``).
Sub-agents (``multi_agent_v2``) run in threads of their own, each with its own rollout; its hooks name that
file, and the parent's rollout names the thread (``SubAgentActivity``, ``agent_thread_id``) when it starts and
when it ends, so reading the parent finds the sub-agent's file and reads it too (its last answer comes after
its last hook). A request of a thread other than the session's root is that sub-agent's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from boundread.budget.logline import Impossible, LineReader, count_of, loads, open_regular, unix_seconds, within_input
from boundread.budget.model import UsageRecord
from boundread.errors import BoundreadError

if TYPE_CHECKING:
    from collections.abc import Mapping

LOOKBACK = 8 << 20  # how far back a read that starts mid-turn looks for the turn's model
CHUNK = 256 << 10
HEAD = 1 << 20  # the session_meta line (Codex's instructions are in it: about 22 KB)
MAX_CHILDREN = 64  # sub-agent threads looked up per read: a hostile rollout cannot make it walk for ever
THREAD = re.compile(r"rollout-.*-([0-9A-Za-z]{8}-[0-9A-Za-z]{4}-[0-9A-Za-z]{4}-[0-9A-Za-z]{4}-[0-9A-Za-z]{12})")
SAFE_ID = re.compile(r"[0-9A-Za-z][0-9A-Za-z_-]{0,127}")  # a thread id that is safe in a glob and a path
MARKERS = (b'"token_usage_record"', b'"token_count"', b'"turn_context"', b'"SubAgentActivity"')


def thread_of(path: Path) -> str:
    """The thread a rollout belongs to, from its name (``rollout-<time>-<uuid>.jsonl``); else its stem."""
    match = THREAD.fullmatch(path.stem)
    return match.group(1) if match else path.stem


def session_meta(path: Path) -> dict[str, Any]:
    """The ``session_meta`` payload of a rollout's first line ({} when there is none or it is unreadable)."""
    try:
        with open_regular(path) as stream:
            first = stream.readline(HEAD)
        obj = loads(first)
    except (OSError, ValueError, BoundreadError):  # not a regular file: the ingest reports it
        return {}
    payload = obj.get("payload") if isinstance(obj, dict) and obj.get("type") == "session_meta" else None
    return payload if isinstance(payload, dict) else {}


def root_of(path: Path) -> str:
    """The session (root thread) a rollout belongs to: its session_meta's ``session_id``, else its thread."""
    meta = session_meta(path)
    root = meta.get("session_id") or meta.get("id")
    return root if isinstance(root, str) and root else thread_of(path)


def wrote(head: bytes) -> bool:
    """Whether a file that starts with ``head`` is a rollout: its first line is a ``session_meta`` record."""
    first = head.split(b"\n", 1)[0]
    return b'"type":"session_meta"' in first or b'"type": "session_meta"' in first


def placed(path: Path) -> bool:
    """Whether ``path`` (empty or unreadable) is where Codex keeps a rollout: ``rollout-*.jsonl``."""
    return path.name.startswith("rollout-") and path.suffix == ".jsonl"


def session_of(path: Path, given: str | None, payload: Mapping[str, Any]
               ) -> tuple[str, list[Path], dict[Path, LineReader]]:
    """The session (``given``: the payload's id, else the root thread) and its one file: a sub-agent's rollout
    is found while the parent's is read (``CodexLines.found``). The payload's ``model`` prices until a
    ``turn_context`` says."""
    root = given or root_of(path)
    model = payload.get("model")
    return root, [path], {path: CodexLines(path, root, model if isinstance(model, str) and model else None)}


def rollout_of(thread: str, near: Path) -> Path | None:
    """The rollout of ``thread``: in ``near``'s day folder, else anywhere under the same sessions folder."""
    if not SAFE_ID.fullmatch(thread):
        return None
    pattern = f"rollout-*-{thread}.jsonl"
    hits = sorted(near.parent.glob(pattern))
    parents = near.parents
    if not hits and len(parents) > 3 and parents[3].name == "sessions":
        hits = sorted(parents[3].glob(f"*/*/*/{pattern}"))
    return hits[0] if hits else None


@dataclass
class CodexLines:
    """A rollout's lines. ``root``: the session's main thread; ``model``: until a ``turn_context`` says."""

    path: Path
    root: str
    model: str | None = None
    markers: tuple[bytes, ...] = MARKERS
    thread: str = field(init=False)
    children: dict[str, None] = field(default_factory=dict)  # sub-agent threads named in what was read
    seen_record: bool = False  # a token_usage_record came: the token_count events after it are its echoes

    def __post_init__(self) -> None:
        self.thread = thread_of(self.path)

    def begin(self, stream: IO[bytes], start: int) -> None:
        """A read from the middle: the model of the turn it starts in, from the last turn_context before."""
        model = _model_before(stream, start) if start > 0 else None
        self.model = model or self.model

    def records(self, raw: bytes, where: str, anchor: str, warnings: list[str]) -> list[UsageRecord]:
        try:
            obj = loads(raw)
        except ValueError:
            warnings.append(f"{where}: not JSON; skipped")
            return []
        body = obj.get("payload") if isinstance(obj, dict) else None
        if not isinstance(body, dict):
            return []
        kind, event = obj.get("type"), body.get("type")
        if kind == "turn_context":
            model = body.get("model")
            self.model = model if isinstance(model, str) and model else self.model
        elif kind == "token_usage_record":
            self.seen_record = True
            thread = body.get("thread_id")
            return self._usage(body.get("usage"), body.get("thread_token_usage"),
                               thread if isinstance(thread, str) and thread else self.thread, obj, where, warnings)
        elif kind == "event_msg" and event == "token_count" and not self.seen_record:
            info = body.get("info")  # null before the first answer and on rate-limit-only updates
            if isinstance(info, dict):
                return self._usage(info.get("last_token_usage"), info.get("total_token_usage"), self.thread, obj,
                                   where, warnings)
        elif kind == "event_msg" and event == "item_completed":
            item = body.get("item")
            child = item.get("agent_thread_id") if isinstance(item, dict) else None
            if isinstance(item, dict) and item.get("type") == "SubAgentActivity" and isinstance(child, str):
                self.children[child] = None
        return []

    def _usage(self, last: object, running: object, thread: str, obj: dict[str, Any], where: str,
               warnings: list[str]) -> list[UsageRecord]:
        if not isinstance(last, dict):
            return []
        total = running.get("total_tokens") if isinstance(running, dict) else None
        if isinstance(total, bool) or not isinstance(total, int) or total < 0:
            warnings.append(f"{where}: a token count without the thread's running total; skipped (it could"
                            " not be told from a repeat)")
            return []
        try:
            given, cached, written, output = (count_of(last, name, warnings, where) for name in (
                "input_tokens", "cached_input_tokens", "cache_write_input_tokens", "output_tokens"))
        except Impossible:
            return []
        uncached = within_input(given, cached, written, where, warnings)
        given = uncached + cached + written  # the request's size, in the dedupe key
        return [UsageRecord(
            model=self.model or "unknown",
            input=uncached,
            output=output,
            cache_read=cached,
            cache_write=written,
            key=f"codex:{thread}:{total}:{given + output}",
            agent=None if thread == self.root else thread,
            at=unix_seconds(obj.get("timestamp")),
        )]

    def found(self) -> list[tuple[Path, LineReader]]:
        """The rollouts of the sub-agent threads named so far (at most MAX_CHILDREN are looked up)."""
        out: list[tuple[Path, LineReader]] = []
        for child in list(self.children)[:MAX_CHILDREN]:
            path = rollout_of(child, self.path) if child != self.thread else None
            if path is not None:
                out.append((path, CodexLines(path, self.root)))
        return out


def _model_before(stream: IO[bytes], start: int) -> str | None:
    """The model of the last ``turn_context`` line that ends before ``start`` (looked for LOOKBACK back)."""
    low = max(0, start - LOOKBACK)
    tail = b""
    pos = start
    while pos > low:
        step = min(CHUNK, pos - low)
        pos -= step
        stream.seek(pos)
        tail = stream.read(step) + tail
        at = tail.rfind(b'"turn_context"')
        while at != -1:
            begin = tail.rfind(b"\n", 0, at) + 1
            if begin == 0 and pos > 0:
                break  # the line starts before what was read: read further back
            end = tail.find(b"\n", at)
            model = _model_in(tail[begin:end if end != -1 else len(tail)])
            if model:
                return model
            at = tail.rfind(b'"turn_context"', 0, begin)
    return None


def _model_in(line: bytes) -> str | None:
    try:
        obj = loads(line)
    except ValueError:
        return None
    body = obj.get("payload") if isinstance(obj, dict) and obj.get("type") == "turn_context" else None
    model = body.get("model") if isinstance(body, dict) else None
    return model if isinstance(model, str) and model else None
