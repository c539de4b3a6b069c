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

import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from boundread.agents.stopanswer import PROMPT_EVENTS, agent_of
from boundread.budget.sqlbase import SqlLedger
from boundread.budget.transcript import SessionIngest
from boundread.errors import BoundreadError, UsageError


def ingest_payload(text: str, session: str | None = None) -> SessionIngest:
    """Record the usage in every file of the session a hook payload (PostToolUse, Stop, ...) names: a Claude Code
    transcript and its sub-agents', a Codex rollout (and the sub-agents' it names), a Gemini CLI chat file and its
    sub-agents' (``sessionfiles.payload_files``)."""
    from boundread.agents import sessionfiles
    from boundread.agents.sessionfiles import ingest_all
    from boundread.budget.enforce import project_of, session_of
    from boundread.budget.ledger import open_ledger

    try:
        payload = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise UsageError(f"stdin is not a JSON hook payload ({exc.msg})", "pipe the agent's hook JSON") from None
    found = sessionfiles.payload_files(payload) if isinstance(payload, dict) else None
    if found is None:
        raise UsageError("no transcript", "pass --transcript PATH or pipe a hook payload with transcript_path")
    waited = 0.0
    writing = found.writing
    stopping = found.client == "claude" and payload.get("hook_event_name") in sessionfiles.STOPPING
    if stopping and writing is not None and sessionfiles.regular(writing):
        final = payload.get("last_assistant_message")
        waited = sessionfiles.settle(writing, final if isinstance(final, str) else None)
    elif found.client == "claude" and payload.get("hook_event_name") in ("PostToolUse", "PostToolUseFailure") \
            and _limits_anywhere():  # the verdict needs the request that made the call, maybe still in the buffer
        waited = sessionfiles.settle_call(payload)
    sid = session or session_of(payload) or found.session
    with open_ledger() as ledger:
        return ingest_all(ledger, found.paths, session=sid, project=project_of(payload), waited=waited,
                          readers=found.readers)


def _limits_anywhere() -> bool:
    """Whether a budget is set anywhere (a fleet ledger, or limits beside the SQLite ledger): else no verdict comes,
    and nothing is worth waiting for."""
    from boundread.budget.ledger import ledger_path, ledger_url
    from boundread.budget.sidecar import lists_any, path_for

    return bool(ledger_url()) or lists_any(path_for(str(ledger_path())))


def describe(result: SessionIngest) -> str:
    files = len(result.files) + result.unchanged
    wait = f", waited {result.waited * 1000:.0f} ms for the final message" if result.waited >= 0.001 else ""
    return (f"session {result.session}: {result.records} new request(s), {result.duplicates} repeat(s),"
            f" {result.new_bytes:,} new bytes in {files} transcript(s), {len(result.warnings)} warning(s){wait}")


def main(stdin: IO[str] | None = None) -> int:
    """The hook: ingest, then the budget's verdict in the agent's words on stdout (nothing when it has none) and
    the summary line on stderr; an error is one line on stderr and exit 1, unless a verdict was given. Without a
    hook payload (a bare transcript path piped by hand) the summary goes to stdout."""
    stream = stdin or sys.stdin
    text = "" if stream is None or stream.isatty() else stream.read()
    result: SessionIngest | None = None
    failed: BoundreadError | None = None
    payload = _payload(text)
    body: dict[str, Any] = {}
    try:
        with _within(HOOK_S):  # a ledger locked elsewhere, a server that stops answering: the agent waits for us
            try:
                result = ingest_payload(text)
            except BoundreadError as exc:
                failed = exc
            body = verdict_reply(payload, result) if payload else {}
    except _Late:
        sys.stderr.write(f"boundread: warning: the budget ledger did not answer within {HOOK_S:g} s\n")
        body = doubt_reply(payload, f"the budget ledger did not answer within {HOOK_S:g} s")
    reply = json.dumps(body, ensure_ascii=False) + "\n" if body else ""
    codex_turn = agent_of(payload) == "codex" and payload.get("hook_event_name") not in PROMPT_EVENTS
    if body.get("continue") is False and codex_turn:  # Codex 0.171 goes on after continue:false: interrupt it
        from boundread.agents.codex_interrupt import interrupt_codex

        if interrupt_codex():
            sys.stderr.write(f"boundread: {body.get('stopReason')} (interrupted the Codex turn)\n")
    first_prompt = failed is not None and payload.get("hook_event_name") in PROMPT_EVENTS
    if failed is not None and not first_prompt:  # a new session's first prompt has no transcript yet
        sys.stderr.write(f"boundread: error: {failed}\n")
    for warning in result.warnings[:5] if result else ():
        sys.stderr.write(f"boundread: warning: {warning}\n")
    summary = describe(result) + "\n" if result else ""
    # A hook's stdout is the agent's: Claude Code and Codex add a UserPromptSubmit hook's plain text to the prompt,
    # Gemini CLI wants JSON only. The summary is for the person reading the hook log.
    sys.stdout.write(reply)
    (sys.stderr if payload else sys.stdout).write(summary)
    return 1 if failed is not None and not (reply or first_prompt) else 0


def _payload(text: str) -> dict[str, Any]:
    try:
        payload = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError:
        return {}
    return payload if isinstance(payload, dict) and payload.get("hook_event_name") else {}


def verdict_reply(payload: dict[str, Any], result: SessionIngest | None) -> dict[str, Any]:
    """The budget's answer to this hook payload (after ``result``, its ingest): stop the session, a word to the
    model, or {} (no budget, nothing to say). The Claude Agent SDK's in-process hooks answer with it too. A ledger
    that cannot be read gives no verdict here: guard-check denies the budgeted calls then (enforce)."""
    from boundread.agents.stopanswer import answer
    from boundread.budget.enforce import project_of, session_of
    from boundread.budget.errors import LedgerError
    from boundread.budget.ledger import ledger_path, ledger_url
    from boundread.budget.verdict import after_request

    session = result.session if result else session_of(payload)
    if not session or not (ledger_url() or ledger_path().exists()):
        return {}
    fresh = bool(result and result.records) or payload.get("hook_event_name") in PROMPT_EVENTS
    try:
        with open_budget_ledger() as ledger:
            _note_agents(ledger, payload, session)
            verdict = after_request(ledger, session, project_of(payload), fresh=fresh)
    except LedgerError as exc:
        sys.stderr.write(f"boundread: warning: no budget verdict: {exc}\n")
        return doubt_reply(payload, str(exc))
    return answer(payload, verdict)


def _note_agents(ledger: SqlLedger, payload: dict[str, Any], session: str) -> None:
    """What the session's sub-agents did, as Claude Code recorded it, for a session with a budget: each spawn's
    own id and depth (its meta file), and a SubagentStop's agent done. Best effort: a ledger busy with it still
    gives the verdict."""
    import time

    from boundread.budget.agents import budgeted, sync
    from boundread.budget.errors import LedgerError
    from boundread.budget.verdict import agent_ended

    if not budgeted(payload):
        return
    transcript, agent = payload.get("transcript_path"), payload.get("agent_id")
    try:
        if isinstance(transcript, str) and transcript:
            sync(ledger, session, transcript)
        if payload.get("hook_event_name") == "SubagentStop" and isinstance(agent, str) and agent:
            agent_ended(ledger, session, agent, time.time())
    except LedgerError as exc:
        sys.stderr.write(f"boundread: warning: the sub-agents were not noted: {exc}\n")


def doubt_reply(payload: dict[str, Any], why: str) -> dict[str, Any]:
    """When the ledger cannot say: a new prompt of a session with a budget is refused (its spend is unknown, as
    guard-check denies its calls then); anything else gets no answer - the next hook asks again."""
    from boundread.agents.stopanswer import answer
    from boundread.budget.enforce import project_of, session_of
    from boundread.budget.ledger import ledger_path, ledger_url
    from boundread.budget.schema import scope_key
    from boundread.budget.sidecar import has_scope, path_for
    from boundread.budget.verdict import OPENING, Verdict

    if payload.get("hook_event_name") not in PROMPT_EVENTS:
        return {}
    keys = [scope_key("session", session_of(payload) or "default"), scope_key("global")]
    project = project_of(payload)
    if project:  # the folder and each one above it: the session's first project is one of them
        here = Path(project)
        keys += [scope_key("project", str(folder)) for folder in (here, *here.parents)]
    if not ledger_url() and not has_scope(path_for(str(ledger_path())), keys):
        return {}
    return answer(payload, Verdict(stop=f"{OPENING}{why} - the session's spend is unknown, so this prompt waits:"
                                        " send it again in a moment, or run `boundread budget status` to see why"))


HOOK_S = 8.0  # the whole ingest hook: the verdict comes before the agent's next request, which waits for it


class _Late(Exception):
    """The hook ran past ``HOOK_S``."""


@contextlib.contextmanager
def _within(seconds: float) -> Iterator[None]:
    """Raise ``_Late`` in this thread after ``seconds`` (SIGALRM; where there is none, no bound). A statement
    waiting in SQLite's C code ends its own wait first (``BUSY_MS``)."""
    import signal

    def late(*_: object) -> None:
        raise _Late

    try:
        previous = signal.signal(signal.SIGALRM, late)
    except (ValueError, AttributeError):  # not the main thread, or no SIGALRM
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def open_budget_ledger() -> SqlLedger:
    """``open_ledger()``, typed as the stores' shared base (the verdict reads rows the ``Ledger`` protocol omits)."""
    from boundread.budget.ledger import open_ledger

    ledger = open_ledger()
    assert isinstance(ledger, SqlLedger)
    return ledger
