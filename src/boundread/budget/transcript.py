"""Ingest an agent's JSONL log: each model request's usage, once, reading only new bytes.

The loop here is shared by every client's format; a ``LineReader`` says which lines may carry usage and what
they carry, and the caller passes it in (agents/sessionfiles.py tells a file's client: ``claudelog.ClaudeLines``
for Claude Code transcripts, ``codexlog.CodexLines`` for Codex rollouts, ``geminilog.GeminiLines`` for Gemini
CLI chat files), so the ledger side knows no client. Each record has a key naming its request, and a key counts
once in the whole ledger (the ledger's ``add_usage`` rule). The byte offset reached is stored per file, so a
re-ingest reads only what was appended (a file that has not grown is not even opened); a half-written last
line is left for next time; garbage lines are skipped and counted as warnings. A file that was cut or
rewritten under the stored offset is read again from its start: the keys keep that from counting twice.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from boundread.budget.ledger import Ledger
from boundread.budget.logline import LineReader, kind_of, open_regular
from boundread.budget.model import UsageRecord
from boundread.budget.prices import Pricer
from boundread.errors import NotFound

BATCH = 5_000  # records per transaction: a crash loses no record and repeats at most one batch's reading
MAX_LINE = 16 << 20  # a longer line is no transcript line (a device, a binary): skipped, the offset moves on
SKIP_CHUNK = 1 << 20


@dataclass(frozen=True)
class IngestResult:
    transcript: str
    session: str
    start: int  # byte offset the read began at
    end: int  # byte offset reached (a half-written last line is not passed)
    lines: int
    records: int  # new (message, request) pairs recorded
    duplicates: int  # streaming repeats of a pair already seen
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class SessionIngest:
    """One ingest of a session's transcripts: the parent's and each sub-agent's."""

    session: str
    files: tuple[IngestResult, ...]  # the transcripts that had new bytes
    unchanged: int  # transcripts that had not grown since the last ingest (not opened)
    waited: float = 0.0  # seconds spent waiting for a stopping agent's transcript to settle

    @property
    def records(self) -> int:
        return sum(f.records for f in self.files)

    @property
    def duplicates(self) -> int:
        return sum(f.duplicates for f in self.files)

    @property
    def new_bytes(self) -> int:
        return sum(f.end - f.start for f in self.files)

    notes: tuple[str, ...] = ()  # transcripts skipped (not regular files)

    @property
    def warnings(self) -> tuple[str, ...]:
        return self.notes + tuple(w for f in self.files for w in f.warnings)


def ingest_file(
    ledger: Ledger,
    path: Path,
    name: str,
    start: int,
    sid: str,
    project: str | None,
    pricer: Pricer | None,
    reader: LineReader,
) -> IngestResult:
    """Record the usage ``reader`` finds in ``path`` after byte ``start``, priced, in batches of one transaction."""
    lines = found = records = 0
    warnings: list[str] = []
    recorded_warnings = 0
    batch: dict[str, UsageRecord] = {}
    stream = open_regular(path)
    stored = start
    offset = start = _resume_at(stream, start, path, warnings)
    rewind = stored > 0 and start == 0  # cut or rewritten: the stored offset goes back to what this read reaches

    def flush() -> int:
        nonlocal recorded_warnings, pricer
        if batch and pricer is None:  # genai-prices loads only when there is something to price
            pricer = Pricer.load()
        priced = [pricer.cost(r) for r in batch.values()] if pricer else []
        new = ledger.add_usage(
            sid,
            priced,
            project=project,
            transcript=(name, offset),
            warnings=len(warnings) - recorded_warnings,
            rewind=rewind,
        )
        recorded_warnings = len(warnings)
        batch.clear()
        return new

    with stream:
        reader.begin(stream, offset)
        stream.seek(offset)
        while raw := stream.readline(MAX_LINE + 1):
            where = f"{path.name}@{offset}"
            if len(raw) > MAX_LINE:
                skipped = _skip_line(stream, len(raw))
                offset += skipped
                lines += 1
                warnings.append(f"{where}: a line of {skipped:,} bytes (over {MAX_LINE:,}); skipped")
                continue
            if not raw.endswith(b"\n"):
                break  # half-written: the agent is still writing it; read it next time
            offset += len(raw)
            lines += 1
            if not any(marker in raw for marker in reader.markers):
                body = raw.strip()
                if body and not (body.startswith(b"{") and body.endswith(b"}")):
                    warnings.append(f"{where}: not JSON; skipped")
                continue
            for rec in reader.records(raw, where, f"{name}@{offset - len(raw)}", warnings):
                if rec.key is None:
                    continue
                found += 1
                old = batch.get(rec.key)
                if old is None or rec.tokens > old.tokens:
                    batch[rec.key] = rec
            if len(batch) >= BATCH:
                records += flush()
        if found or start or rewind:  # a file that never yielded a request leaves no session (no offset: read again)
            records += flush()
    return IngestResult(name, sid, start, offset, lines, records, found - records, tuple(warnings))


def _resume_at(stream: IO[bytes], start: int, path: Path, warnings: list[str]) -> int:
    """Where to go on reading: ``start``, unless the file was cut or rewritten under it (then from 0).

    A stored offset always sits just after a newline; a shorter file, or another byte there, means the file
    is not the one read before (Gemini CLI rewrites a chat file it could not load; a user may cut one).
    Reading it again is safe: every record's key names its request.
    """
    if start <= 0:
        return 0
    size = os.fstat(stream.fileno()).st_size
    if size == start:
        return start  # nothing new (an over-long last line skipped to the end leaves the offset mid-line)
    if size > start:
        stream.seek(start - 1)
        if stream.read(1) == b"\n":
            return start
    warnings.append(f"{path.name}: {'cut' if size < start else 'rewritten'} since the last ingest (offset"
                    f" {start:,}, now {size:,} bytes); read again from the start, each request still counted once")
    return 0


def _skip_line(stream: Any, already: int) -> int:
    """Read past the rest of an over-long line (to the file's end if it has none); its full length.

    No transcript line comes near MAX_LINE, so one without an end yet is not waited for: that would read it
    all again at every ingest.
    """
    length = already
    while chunk := stream.readline(SKIP_CHUNK):
        length += len(chunk)
        if chunk.endswith(b"\n"):
            break
    return length


def ingest_files(
    ledger: Ledger,
    queue: list[tuple[Path, LineReader]],
    *,
    session: str,
    project: str | None = None,
    pricer: Pricer | None = None,
    waited: float = 0.0,
) -> SessionIngest:
    """Ingest each file of ``queue`` (a path and its reader) that grew since its stored offset (one stat per file
    for the others).

    The first path must exist (the session's own file); the others (sub-agents) may have gone. A file a reader
    names on the way (a Codex sub-agent's rollout) is ingested after it.
    """
    queue = list(queue)
    names = {path: str(path.resolve()) for path, _ in queue}
    offsets = ledger.offsets(list(names.values()))
    done: list[IngestResult] = []
    notes: list[str] = []
    unchanged = 0
    for i, (path, reader) in enumerate(queue):  # grows while it is walked (see LineReader.found)
        name = names.get(path) or str(path.resolve())
        start = offsets.get(name, 0) if path in names else ledger.offset(name)
        try:
            st = path.stat()
        except OSError as exc:
            if i == 0:
                raise NotFound(
                    f"cannot read transcript {path}: {exc.strerror}", "pass an existing --transcript"
                ) from None
            continue
        if not stat.S_ISREG(st.st_mode):  # a device or a FIFO never ends: the first is refused, others skipped
            if i == 0:
                raise NotFound(f"transcript {path} is {kind_of(st.st_mode)}, not a regular file",
                               "pass the session's .jsonl file")
            notes.append(f"{path} is {kind_of(st.st_mode)}, not a regular file; skipped")
            continue
        if st.st_size == start:
            unchanged += 1
            continue
        pricer = pricer or Pricer.load()
        done.append(ingest_file(ledger, path, name, start, session, project, pricer, reader))
        seen = {p for p, _ in queue}
        queue += [(p, r) for p, r in reader.found() if p not in seen]
    return SessionIngest(session, tuple(done), unchanged, waited, tuple(notes))
