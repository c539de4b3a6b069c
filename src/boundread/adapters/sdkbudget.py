"""The budget inside the agent frameworks, without the frameworks: what the adapters (adapters/sdk.py) ask.

A refused tool call is one more billed turn, so inside a framework too a cap ends the run, and before the model
request that would cross it (issue 18):

- Claude Agent SDK: its hooks are Claude Code's, answered in-process. Before a tool call, the budget check is
  guard-check's (a budget deny also ends the session: ``continue_: False`` + ``stopReason``); after each tool call
  and at each prompt, the session's transcripts are ingested and the budget's verdict given, as ``budget ingest``
  gives it to the CLI (hook/ingest.py), in the SDK's Python names.
- OpenAI Agents SDK and LangChain have no transcript: a ``Guard`` (budget/guards.py) is told each response's usage
  (``record``) and asked before each request (``Guard.before_request``).
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from boundread.budget.errors import BudgetError
from boundread.errors import BoundreadError, UsageError
from boundread.guard.decide import Decision

if TYPE_CHECKING:
    from boundread.budget.guards import Guard

LOG = logging.getLogger("boundread")
#: Where a Claude Agent SDK budget hook is registered: after a tool call (the request it answered is in the
#: transcript; ``continue_: False`` there ends the run before the next request), at a prompt (a capped session's
#: prompt is refused), and when an agent stops (the last answer is counted: no verdict, nothing is left to end).
CLAUDE_SDK_EVENTS = ("PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop", "SubagentStop")
#: The SDK's Python names for the hook answer's keywords (it sends ``continue_`` to the CLI as ``continue``).
_SDK_NAMES = {"continue": "continue_", "async": "async_"}
#: What an OpenAI Agents SDK ``Usage`` holds of one response that ``Guard.step`` reads (the rest are its running
#: sums: ``requests``, ``request_usage_entries``).
_OPENAI_USAGE = ("input_tokens", "output_tokens", "total_tokens", "input_tokens_details", "output_tokens_details")


def pre_tool(decision: Decision, payload: Mapping[str, Any], tool: str, tool_input: object) -> Decision:
    """``decision`` (the guard's) with the budget's verdict on the call, exactly guard-check's: the ledger
    records the call, and a cap's deny carries ``stop`` (the session ends)."""
    from boundread.hook.budgetgate import with_budget  # the one place guard-check consults the budget

    return with_budget(decision, payload, tool, tool_input)


def claude_sdk_pre_tool_answer(decision: Decision) -> dict[str, Any]:
    """The PreToolUse hook's answer to a deny, in the SDK's names: a budget deny ends the run too."""
    body: dict[str, Any] = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                                   "permissionDecisionReason": decision.reason}}
    if decision.stop:
        body.update(continue_=False, stopReason=decision.stop)
    return body


def claude_sdk_budget_answer(payload: dict[str, Any]) -> dict[str, Any]:
    """Ingest the session's transcripts that ``payload`` names, then the budget's answer to it in the SDK's names:
    end the session, a word for the model, or {}. A new session's first prompt has no transcript yet: its
    verdict (a capped project) still comes. Blocking (files, the ledger): call it in a worker thread."""
    from boundread.agents.stopanswer import PROMPT_EVENTS
    from boundread.hook.ingest import ingest_payload, verdict_reply

    result = None  # ingest_payload waits for the call's request to reach the transcript (sessionfiles.settle_call)
    try:
        result = ingest_payload(json.dumps(payload, default=str))
    except BoundreadError as exc:
        if payload.get("hook_event_name") not in PROMPT_EVENTS:
            LOG.warning("boundread: budget ingest: %s", exc)
    for warning in result.warnings[:5] if result else ():
        LOG.warning("boundread: budget ingest: %s", warning)
    reply = verdict_reply(payload, result)
    return {_SDK_NAMES.get(key, key): value for key, value in reply.items()}


def openai_usage(usage: object) -> dict[str, Any]:
    """The one response's counts of an OpenAI Agents SDK ``Usage``, as ``Guard.step`` reads them."""
    return {name: getattr(usage, name) for name in _OPENAI_USAGE if getattr(usage, name, None) is not None}


def record(guard: Guard, model: str, usage: object) -> None:
    """``guard.step`` for a response already received. A cap it reaches raises at the next ``before_request``,
    not here: the response may be the run's final answer, which must not be lost for a request never sent."""
    with contextlib.suppress(BudgetError):  # recorded: before_request raises it before the next request
        guard.step(model=model, usage=usage)


def langchain_with_note(request: Any, note: str | None) -> Any:
    """A LangChain ``ModelRequest`` with ``note`` as a last human message, for this request alone (not kept in
    the agent's state: a note per request would pile up), or ``request`` as it is."""
    if not note:
        return request
    from langchain_core.messages import HumanMessage

    return request.override(messages=[*request.messages, HumanMessage(content=note)])


def langchain_record(guard: Guard, response: Any, model: str | None) -> None:
    """Count the model's answer in ``response`` (a ``ModelResponse``, an ``AIMessage`` or an
    ``ExtendedModelResponse``) by its ``usage_metadata``. An answer without one cannot be counted: with a token or
    USD cap that is an error (a silent 0 would let a runaway run), else it is let be."""
    from langchain_core.messages import AIMessage

    inner = getattr(response, "model_response", response)
    messages = getattr(inner, "result", [inner])
    for message in messages:
        if not isinstance(message, AIMessage):
            continue
        if message.usage_metadata is None:
            if guard.tokens is not None or guard.cost is not None:
                raise UsageError("the chat model's answer has no usage_metadata, so the budget cannot count it",
                                 "use a chat model that reports usage (streaming OpenAI: stream_usage=True)")
            continue
        meta = message.response_metadata or {}
        name = model or meta.get("model_name") or meta.get("model") or "unknown"
        record(guard, str(name), dict(message.usage_metadata))
