"""``boundread budget ingest`` run as a hook: one payload on stdin, no Typer.

``init --budget`` registers it on every PostToolUse, so its start-up is paid per tool call:
``boundread.__main__`` dispatches the bare ``budget ingest`` here before the Typer app is imported
(about 100 ms less per call). The Typer command uses the same functions for its stdin form.
As a hook it never exits 2: Claude Code reads a Stop hook's exit 2 as "do not stop".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import IO

from boundread.budget.transcript import IngestResult
from boundread.errors import BoundreadError, UsageError


def ingest_payload(text: str, session: str | None = None) -> IngestResult:
    """Record the usage in the transcript a hook payload (PostToolUse, Stop, SubagentStop) names."""
    from boundread.budget.enforce import project_of, session_of
    from boundread.budget.ledger import SqliteLedger
    from boundread.budget.transcript import ingest

    try:
        payload = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise UsageError(f"stdin is not a JSON hook payload ({exc.msg})", "pipe the agent's hook JSON") from None
    path = payload.get("transcript_path") if isinstance(payload, dict) else None
    if not isinstance(path, str) or not path:
        raise UsageError("no transcript", "pass --transcript PATH or pipe a hook payload with transcript_path")
    with SqliteLedger() as ledger:
        return ingest(ledger, Path(path), session=session or session_of(payload), project=project_of(payload))


def describe(result: IngestResult) -> str:
    return (f"session {result.session}: {result.records} new request(s), {result.duplicates} repeat(s),"
            f" {result.end - result.start:,} new bytes, {len(result.warnings)} warning(s)")


def main(stdin: IO[str] | None = None) -> int:
    """The hook: a summary line on stdout, or one error line on stderr and exit 1."""
    stream = stdin or sys.stdin
    try:
        result = ingest_payload("" if stream is None or stream.isatty() else stream.read())
    except BoundreadError as exc:
        sys.stderr.write(f"boundread: error: {exc}\n")
        return 1
    for warning in result.warnings[:5]:
        sys.stderr.write(f"boundread: warning: {warning}\n")
    sys.stdout.write(describe(result) + "\n")
    return 0
