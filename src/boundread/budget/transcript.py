"""Ingest Claude Code transcript JSONL: each assistant request's usage, once, reading only new bytes.

Streaming writes one message on several lines: a (message.id, requestId) pair counts once (the larger count
wins). The byte offset reached is stored per transcript, so a re-ingest reads only what was appended; a
half-written last line is left for next time; garbage lines are skipped and counted as warnings.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boundread.budget.ledger import Ledger
from boundread.budget.model import UsageRecord
from boundread.budget.prices import Pricer
from boundread.errors import NotFound

BATCH = 5_000  # records per transaction: a crash loses no record and repeats at most one batch's reading
ABSURD = 100_000_000  # more tokens than any context window holds: recorded, but warned about
FIELDS = (
    ("input", "input_tokens"),
    ("output", "output_tokens"),
    ("cache_read", "cache_read_input_tokens"),
    ("cache_write", "cache_creation_input_tokens"),
)


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


def _count(usage: dict[str, Any], name: str, warnings: list[str], where: str) -> int:
    value = usage.get(name, 0)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        warnings.append(f"{where}: {name}={value!r} is not a token count; counted as 0")
        return 0
    if value > ABSURD:
        warnings.append(f"{where}: {name}={value:,} is implausibly large; recorded as given")
    return value


def parse_line(raw: bytes, where: str, warnings: list[str]) -> UsageRecord | None:
    """The usage in one transcript line, or None when it has none (garbage adds a warning)."""
    try:
        obj = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        warnings.append(f"{where}: not JSON; skipped")
        return None
    message = obj.get("message") if isinstance(obj, dict) else None
    usage = message.get("usage") if isinstance(message, dict) else None
    if not isinstance(usage, dict) or not isinstance(message, dict):
        return None
    model = message.get("model")
    if model == "<synthetic>" or obj.get("isApiErrorMessage"):
        return None
    counts = {field: _count(usage, name, warnings, where) for field, name in FIELDS}
    split = usage.get("cache_creation")
    if isinstance(split, dict):  # newer lines split cache writes by lifetime; their sum is authoritative
        parts = [split.get("ephemeral_5m_input_tokens"), split.get("ephemeral_1h_input_tokens")]
        if all(isinstance(p, int) and p >= 0 for p in parts) and sum(parts):  # type: ignore[arg-type]
            counts["cache_write"] = sum(parts)  # type: ignore[arg-type]
    msg_id, request_id = message.get("id"), obj.get("requestId")
    key = f"{msg_id}:{request_id}" if msg_id and request_id else (str(msg_id) if msg_id else f"@{where}")
    return UsageRecord(
        model=str(model or "unknown"),
        input=counts["input"],
        output=counts["output"],
        cache_read=counts["cache_read"],
        cache_write=counts["cache_write"],
        key=key,
    )


def ingest(
    ledger: Ledger,
    path: Path,
    *,
    session: str | None = None,
    project: str | None = None,
    pricer: Pricer | None = None,
) -> IngestResult:
    """Record the usage appended to ``path`` since the last ingest, priced, in batches of one transaction."""
    name = str(path.resolve())
    sid = session or path.stem
    prices = pricer or Pricer.load()
    start = offset = ledger.offset(name)
    lines = found = records = 0
    warnings: list[str] = []
    recorded_warnings = 0
    batch: dict[str, UsageRecord] = {}
    try:
        stream = open(path, "rb")  # noqa: SIM115 - closed by the `with stream` below
    except OSError as exc:
        raise NotFound(f"cannot read transcript {path}: {exc.strerror}", "pass an existing --transcript") from exc

    def flush() -> int:
        nonlocal recorded_warnings
        priced = [prices.cost(r) for r in batch.values()]
        new = ledger.add_usage(
            sid,
            priced,
            project=project,
            transcript=(name, offset),
            warnings=len(warnings) - recorded_warnings,
        )
        recorded_warnings = len(warnings)
        batch.clear()
        return new

    with stream:
        stream.seek(offset)
        for raw in stream:
            if not raw.endswith(b"\n"):
                break  # half-written: the agent is still writing it; read it next time
            where = f"{path.name}@{offset}"
            offset += len(raw)
            lines += 1
            if b'"usage"' not in raw:  # the cheap pre-filter ccusage uses too
                body = raw.strip()
                if body and not (body.startswith(b"{") and body.endswith(b"}")):
                    warnings.append(f"{where}: not JSON; skipped")
                continue
            rec = parse_line(raw, where, warnings)
            if rec is None or rec.key is None:
                continue
            found += 1
            old = batch.get(rec.key)
            if old is None or rec.tokens > old.tokens:
                batch[rec.key] = rec
            if len(batch) >= BATCH:
                records += flush()
        records += flush()
    return IngestResult(name, sid, start, offset, lines, records, found - records, tuple(warnings))
