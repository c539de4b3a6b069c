"""``boundread budget ingest`` run as a hook: one payload on stdin, no Typer.

``init --budget`` registers it on every PostToolUse, so its start-up is paid per tool call:
``boundread.__main__`` dispatches the bare ``budget ingest`` here before the Typer app is imported
(about 100 ms less per call). The Typer command uses the same functions for its stdin form.
As a hook it never exits 2: Claude Code reads a Stop hook's exit 2 as "do not stop".

Each payload ingests the whole session (the parent's transcript and every sub-agent's, only what each gained
since the last ingest). On Stop, SubagentStop and SessionEnd it first waits, bounded, for the stopping agent's
final message to reach the file (see ``sessionfiles.settle``).
"""

from __future__ import annotations

import json
import sys
from typing import IO

from boundread.budget.transcript import SessionIngest
from boundread.errors import BoundreadError, UsageError


def ingest_payload(text: str, session: str | None = None) -> SessionIngest:
    """Record the usage in every transcript of the session a hook payload (PostToolUse, Stop, ...) names."""
    from boundread.budget import sessionfiles
    from boundread.budget.enforce import project_of, session_of
    from boundread.budget.ledger import open_ledger
    from boundread.budget.transcript import ingest_all, session_of_path

    try:
        payload = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise UsageError(f"stdin is not a JSON hook payload ({exc.msg})", "pipe the agent's hook JSON") from None
    found = sessionfiles.payload_transcripts(payload) if isinstance(payload, dict) else None
    if found is None:
        raise UsageError("no transcript", "pass --transcript PATH or pipe a hook payload with transcript_path")
    writing, paths = found
    waited = 0.0
    if payload.get("hook_event_name") in sessionfiles.STOPPING and sessionfiles.regular(writing):
        final = payload.get("last_assistant_message")
        waited = sessionfiles.settle(writing, final if isinstance(final, str) else None)
    sid = session or session_of(payload) or session_of_path(paths[0])
    with open_ledger() as ledger:
        return ingest_all(ledger, paths, session=sid, project=project_of(payload), waited=waited)


def describe(result: SessionIngest) -> str:
    files = len(result.files) + result.unchanged
    wait = f", waited {result.waited * 1000:.0f} ms for the final message" if result.waited >= 0.001 else ""
    return (f"session {result.session}: {result.records} new request(s), {result.duplicates} repeat(s),"
            f" {result.new_bytes:,} new bytes in {files} transcript(s), {len(result.warnings)} warning(s){wait}")


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
