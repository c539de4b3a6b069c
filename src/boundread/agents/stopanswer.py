"""The budget's answer to an agent hook after a request is counted, in that agent's words: how each client is told
to end a session (``budget ingest``, hook/ingest.py, and the SDK adapters ask it).

What ends a session, checked in the real clients (a scripted model server on 127.0.0.1):

- Claude Code 2.1.332: ``{"continue": false, "stopReason": ...}`` from PreToolUse, PostToolUse, PostToolBatch or
  UserPromptSubmit ends the run with no further model request; from SubagentStop it ends nothing (the parent goes
  on), from Stop there is nothing left to end. ``additionalContext`` of PostToolUse and UserPromptSubmit reaches
  the model.
- Codex: ``continue: false`` ends the turn from PostToolUse and UserPromptSubmit; from PreToolUse it is an
  "unsupported" output and the call would run, so guard-check never sends it there.
- Gemini CLI: ``continue: false`` stops the agent loop from AfterTool and BeforeTool; BeforeAgent blocks the prompt.

Standard library only: ``budget ingest`` runs as a hook after every tool call.
"""

from __future__ import annotations

from typing import Any

from boundread.budget.verdict import Verdict

# The events after which the agent would send another request, and so where a stop or a word to the model counts.
CONTEXT_EVENTS = {"PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "AfterTool", "BeforeAgent"}
STOP_EVENTS = CONTEXT_EVENTS | {"PostToolBatch", "AfterModel", "BeforeModel"}
GEMINI_EVENTS = {"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel"}
PROMPT_EVENTS = {"UserPromptSubmit", "BeforeAgent"}  # a new prompt: refused whole when the session is over


def agent_of(payload: dict[str, Any]) -> str:
    """claude, codex or gemini, from the payload's shape (hook_event_name and what comes with it)."""
    event = str(payload.get("hook_event_name") or "")
    if event in GEMINI_EVENTS or (event in ("SessionStart", "SessionEnd") and "timestamp" in payload):
        return "gemini"  # Claude Code's SessionStart/End carry no timestamp
    if "turn_id" in payload:
        return "codex"
    return "claude"


def answer(payload: dict[str, Any], verdict: Verdict) -> dict[str, Any]:
    """The JSON object to print on stdout for ``verdict`` ({} when there is nothing to say to this event)."""
    event = str(payload.get("hook_event_name") or "")
    agent = agent_of(payload)
    body: dict[str, Any] = {}
    if verdict.stop and event in STOP_EVENTS:
        body = {"continue": False, "stopReason": verdict.stop}
        if event in PROMPT_EVENTS:  # the prompt itself is refused, with the reason, before any request
            body.update(decision="deny" if agent == "gemini" else "block", reason=verdict.stop)
    elif verdict.context and event in CONTEXT_EVENTS:
        body = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": verdict.context}}
    return body
