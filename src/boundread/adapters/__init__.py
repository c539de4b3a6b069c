"""The frameworks' in-process hooks: the guard and the budget inside the Claude Agent SDK, the OpenAI Agents SDK
and LangChain, without a ``guard-check`` process per call.

    >>> from boundread.adapters import claude_agent_sdk_hook, openai_tool_guardrail, langchain_middleware

sdk.py builds each framework's hook; sdkbudget.py carries the budget inside them. The top layer of the hook side:
it uses guard/, budget/, agents/ and hook/, and nothing below imports it.
"""

from __future__ import annotations

from boundread.adapters.sdk import (
    MissingFramework,
    check_arguments,
    claude_agent_sdk_budget_hooks,
    claude_agent_sdk_hook,
    langchain_middleware,
    openai_run_hooks,
    openai_tool_guardrail,
)

__all__ = [
    "MissingFramework",
    "check_arguments",
    "claude_agent_sdk_budget_hooks",
    "claude_agent_sdk_hook",
    "langchain_middleware",
    "openai_run_hooks",
    "openai_tool_guardrail",
]
