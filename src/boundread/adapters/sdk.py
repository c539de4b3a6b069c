"""The guard inside agent frameworks. Each factory imports its framework only when called.

    # Claude Agent SDK: the guard and the budget ledger before each tool call (no matcher: every tool counts),
    # the ledger's verdict after each one and at each prompt (a cap ends the run, as in Claude Code)
    from claude_agent_sdk import ClaudeAgentOptions, HookMatcher
    options = ClaudeAgentOptions(hooks={"PreToolUse": [HookMatcher(hooks=[claude_agent_sdk_hook()])],
                                        **claude_agent_sdk_budget_hooks()})
    # OpenAI Agents SDK: a Guard counts each response and ends the run before a request that would pass a cap
    guard = Guard(tokens=TokenBudget(200_000), policy=Policy(max_calls=50))
    @function_tool(tool_input_guardrails=[openai_tool_guardrail(budget=guard)])
    def read_file(path: str) -> str: ...
    Runner.run(agent, prompt, hooks=openai_run_hooks(guard))
    # LangChain v1 (invoke/stream and ainvoke/astream alike)
    agent = create_agent(model, tools=[...], middleware=[langchain_middleware(budget=guard)])

A budget that stops the run raises the guard's error (``TokenBudgetExceeded``, ``CostCapExceeded`` and their
``...WouldPass`` forms before a request that would cross, ``PolicyDenied``) with the figures; in the OpenAI
tool guardrail, ``ToolInputGuardrailTripwireTriggered`` with that error as ``output.output_info``.

A framework that is not installed raises MissingFramework (a ModuleNotFoundError) naming the extra:
``pip install 'boundread[frameworks]'``.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from boundread.agents.dialect import read_range
from boundread.errors import Unsupported
from boundread.guard.command import check_command
from boundread.guard.config import GuardConfig
from boundread.guard.decide import ALLOW, Decision, check_read

if TYPE_CHECKING:
    from boundread.budget.guards import Guard

PATH_KEYS = ("file_path", "path", "filename", "file", "target_file", "absolute_path")
PATH_LIST_KEYS = ("paths", "file_paths", "files", "filenames")
COMMAND_KEYS = ("command", "cmd", "command_line", "script")
EXTRA = "pip install 'boundread[frameworks]'"
T = TypeVar("T")


class MissingFramework(Unsupported, ModuleNotFoundError):
    """The adapter's framework is not installed; the message names the extra that installs it."""


def _missing(exc: ModuleNotFoundError, label: str) -> MissingFramework:
    """The error for an adapter whose framework did not import: it names the extra to install."""
    error = MissingFramework(f"{label} is not installed (no module {exc.name!r})", EXTRA)
    error.name = exc.name
    return error


def check_arguments(args: Mapping[str, Any], *, cwd: str | None = None,
                    config: GuardConfig | None = None) -> Decision:
    """Guard a tool call from its arguments alone: a command (a string, or an argv list) is a shell
    run, a path-like argument (or a list of them) a read. The first deny wins."""
    for key in COMMAND_KEYS:
        command = _command(args.get(key))
        if command:
            decision = check_command(command, cwd=cwd, config=config)
            if decision.denied:
                return decision
    offset, limit = read_range(args)
    paths = [args.get(key) for key in PATH_KEYS]
    for key in PATH_LIST_KEYS:
        value = args.get(key)
        if isinstance(value, (list, tuple)):
            paths.extend(value)
    for path in paths:
        if isinstance(path, str) and path:
            decision = check_read(path, offset=offset, limit=limit, pages=args.get("pages"), cwd=cwd,
                                  config=config)
            if decision.denied:
                return decision
    return Decision(ALLOW, rule="other-tool")


def _command(value: object) -> str:
    """A command string; an argv list (``["cat", "a.pdf"]``) quoted back into one."""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and value and all(isinstance(word, str) for word in value):
        return shlex.join(value)
    return ""


HookCallback = Callable[[dict[str, Any], "str | None", Any], Awaitable[dict[str, Any]]]


def claude_agent_sdk_hook(config: GuardConfig | None = None, *, budget: bool = True) -> HookCallback:
    """A ``PreToolUse`` hook callback for ``claude_agent_sdk.HookMatcher(hooks=[...])``.

    ``budget`` (on, as in guard-check): the budget ledger records the call and may deny it; a cap's deny ends the
    run too (``continue_: False`` + ``stopReason``: a refused call is one more billed turn). Register it with no
    matcher so that every tool counts; the guard itself looks at Read and Bash.
    """

    async def boundread_guard(input_data: dict[str, Any], tool_use_id: str | None,
                              context: Any) -> dict[str, Any]:
        from boundread.adapters import sdkbudget

        tool = str(input_data.get("tool_name") or "")
        args = input_data.get("tool_input") or {}
        decision = _claude_decision(tool, args, input_data.get("cwd") or None, config)
        if budget and not decision.denied:
            decision = await _in_thread(sdkbudget.pre_tool, decision, input_data, tool, args)
        return sdkbudget.claude_sdk_pre_tool_answer(decision) if decision.denied else {}

    return boundread_guard


def _claude_decision(tool: str, args: Mapping[str, Any], cwd: str | None, config: GuardConfig | None) -> Decision:
    if tool == "Read":
        offset, limit = read_range(args)
        return check_read(str(args.get("file_path") or ""), offset=offset, limit=limit, pages=args.get("pages"),
                          cwd=cwd, config=config)
    if tool in ("Bash", "PowerShell"):
        return check_command(str(args.get("command") or ""), cwd=cwd, config=config)
    return Decision(ALLOW, rule="other-tool")


def claude_agent_sdk_budget_hooks() -> dict[str, list[Any]]:
    """The budget's hooks for ``ClaudeAgentOptions(hooks={...})``: after each tool call and at each prompt, the
    session's transcripts are ingested into the ledger and its verdict given, as ``budget ingest`` gives it to
    Claude Code: past half of a cap the model is told what is left; a reached cap, or a next request that would
    pass a token or USD cap (it carries at least the last one's context), ends the run before that request
    (``continue_: False``), and a prompt in an ended session is refused. The ledger is this process's
    (``BOUNDREAD_STATE_DIR``, ``ledger_url``); the caps are ``boundread budget set``'s."""
    try:
        from claude_agent_sdk import HookMatcher
    except ModuleNotFoundError as exc:
        raise _missing(exc, "the Claude Agent SDK (claude-agent-sdk)") from None
    from boundread.adapters.sdkbudget import CLAUDE_SDK_EVENTS

    async def boundread_budget(input_data: dict[str, Any], tool_use_id: str | None, context: Any) -> dict[str, Any]:
        from boundread.adapters.sdkbudget import claude_sdk_budget_answer

        return await _in_thread(claude_sdk_budget_answer, dict(input_data))

    callback: Any = boundread_budget  # answers a plain dict in the SDK's names, not its TypedDicts
    return {event: [HookMatcher(hooks=[callback])] for event in CLAUDE_SDK_EVENTS}


async def _in_thread(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` off the SDK's event loop: the ledger may wait for a lock, files are read."""
    import anyio.to_thread  # the Claude Agent SDK's own async layer (asyncio or trio)

    return await anyio.to_thread.run_sync(lambda: fn(*args))


def openai_tool_guardrail(config: GuardConfig | None = None, cwd: str | None = None,
                          budget: Guard | None = None) -> Any:
    """An OpenAI Agents SDK tool input guardrail: ``reject_content`` with the reason when the guard denies (the
    model is told what to run instead). With ``budget``, the call is counted (``Guard.allow``) and a tripped budget
    (the call limit, a repeat, a forbidden tool, a spent cap) halts the run: ``raise_exception``, so the run raises
    ``ToolInputGuardrailTripwireTriggered`` with the guard's error as ``output.output_info``."""
    try:
        from agents import ToolGuardrailFunctionOutput, tool_input_guardrail
    except ModuleNotFoundError as exc:
        raise _missing(exc, "the OpenAI Agents SDK (openai-agents)") from None
    from boundread.budget.errors import BudgetError

    @tool_input_guardrail
    def boundread_guard(data: Any) -> Any:
        text = data.context.tool_arguments or "{}"
        try:
            args = json.loads(text)
        except json.JSONDecodeError:
            args = text  # not the guard's to judge; the budget still counts it
        if isinstance(args, dict):
            decision = check_arguments(args, cwd=cwd, config=config)
            if decision.denied:
                return ToolGuardrailFunctionOutput.reject_content(decision.reason)
        if budget is not None:
            try:
                budget.allow((str(data.context.tool_name), args))
            except BudgetError as exc:
                return ToolGuardrailFunctionOutput.raise_exception(output_info=exc)
        return ToolGuardrailFunctionOutput.allow()

    return boundread_guard


def openai_run_hooks(guard: Guard, model: str | None = None) -> Any:
    """OpenAI Agents SDK ``RunHooks`` (``Runner.run(..., hooks=...)``): each response's usage is counted
    (``on_llm_end``, ``Guard.step``) and the run raises the guard's error before a request (``on_llm_start``) when a
    cap is reached or the request would pass one (``Guard.before_request``); ``model`` prices it when the agent's
    model has no name. ``.note`` holds what the model should be told (past half of a cap), and ``.input_filter``,
    given as ``RunConfig(call_model_input_filter=...)``, adds it to the request."""
    try:
        from agents.run_config import ModelInputData

        from agents import RunHooks
    except ModuleNotFoundError as exc:
        raise _missing(exc, "the OpenAI Agents SDK (openai-agents)") from None
    from boundread.adapters.sdkbudget import openai_usage, record

    class BoundreadBudget(RunHooks):
        """Count each response; end the run before the request that would pass a cap."""

        note: str | None = None

        async def on_llm_start(self, context: Any, agent: Any, system_prompt: Any, input_items: Any) -> None:
            self.note = await _off_loop(guard, guard.before_request)

        async def on_llm_end(self, context: Any, agent: Any, response: Any) -> None:
            name = model or _model_name(getattr(agent, "model", None))
            await _off_loop(guard, lambda: record(guard, name, openai_usage(response.usage)))

        def input_filter(self, data: Any) -> Any:
            note = guard.before_request()
            if not note:
                return data.model_data
            items = [*data.model_data.input, {"role": "user", "content": note}]
            return ModelInputData(input=items, instructions=data.model_data.instructions)

    return BoundreadBudget()


def _model_name(model: object) -> str:
    """An agent's model as a name to price: a string, or a Model object's ``model`` (OpenAIResponsesModel)."""
    if isinstance(model, str) and model:
        return model
    name = getattr(model, "model", None)
    return name if isinstance(name, str) and name else "unknown"


async def _off_loop(guard: Guard, fn: Callable[[], T]) -> T:
    """``fn()``: at once for a Guard in memory, in a worker thread when a ledger may make it wait."""
    if guard.ledger is None:
        return fn()
    import asyncio

    return await asyncio.to_thread(fn)


def langchain_middleware(config: GuardConfig | None = None, cwd: str | None = None, budget: Guard | None = None,
                         model: str | None = None) -> Any:
    """A LangChain v1 middleware (sync and async): a denied call answers an error ToolMessage, named
    after the tool, instead of running it.

    With ``budget``, each model request is asked first (``Guard.before_request``: the run raises the guard's error
    when a cap is reached or the request would pass one; past half of a cap the note for the model rides on that
    request alone) and its answer's ``usage_metadata`` is counted (``model``: the name to price it by when the
    answer does not say); each tool call is counted (``Guard.allow``), and a tripped budget raises, which ends the
    run. Last in the middleware list, it sees every model call a retry makes.
    """
    try:
        from langchain.agents.middleware import AgentMiddleware
        from langchain_core.messages import ToolMessage
    except ModuleNotFoundError as exc:
        raise _missing(exc, "LangChain (langchain>=1.0)") from None
    from boundread.adapters import sdkbudget

    def refusal(request: Any) -> ToolMessage | None:
        call = request.tool_call
        args = call.get("args") or {}
        decision = check_arguments(args if isinstance(args, dict) else {}, cwd=cwd, config=config)
        if not decision.denied:
            if budget is not None:  # raises: the run ends
                budget.allow((str(call.get("name") or ""), args))
            return None
        return ToolMessage(content=decision.reason, tool_call_id=call.get("id") or "", name=call.get("name"),
                           status="error")

    class BoundreadGuard(AgentMiddleware):
        """Deny whole-file reads of big or binary files; the ToolMessage says what to run instead."""

        def wrap_tool_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
            denied = refusal(request)
            return handler(request) if denied is None else denied

        async def awrap_tool_call(self, request: Any, handler: Callable[[Any], Awaitable[Any]]) -> Any:
            denied = await _off_loop_if(budget, lambda: refusal(request))
            return await handler(request) if denied is None else denied

    if budget is None:
        return BoundreadGuard()
    guard = budget

    class BoundreadBudget(BoundreadGuard):
        """The guard, and the budget: ask before each model request, count its answer."""

        def wrap_model_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
            response = handler(sdkbudget.langchain_with_note(request, guard.before_request()))
            sdkbudget.langchain_record(guard, response, model)
            return response

        async def awrap_model_call(self, request: Any, handler: Callable[[Any], Awaitable[Any]]) -> Any:
            note = await _off_loop(guard, guard.before_request)
            response = await handler(sdkbudget.langchain_with_note(request, note))
            await _off_loop(guard, lambda: sdkbudget.langchain_record(guard, response, model))
            return response

    return BoundreadBudget()


async def _off_loop_if(guard: Guard | None, fn: Callable[[], T]) -> T:
    return fn() if guard is None else await _off_loop(guard, fn)
