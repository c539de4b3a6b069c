"""Deterministic rules over the sequence of actions and the spend, decided without asking a model.

Standard library only: the hook path (hookpath.py) calls ``decide`` when a limit may trip. Each check
returns the error it would raise (with the figures) or None; callers raise it (Python API) or turn it into a
deny reason (hooks).
"""

from __future__ import annotations

from collections.abc import Sequence

from boundread.budget.errors import (
    BudgetError,
    CostCapExceeded,
    DepthExceeded,
    PolicyDenied,
    TokenBudgetExceeded,
)
from boundread.budget.model import BudgetLimits, CallView, Totals

__all__ = ["check_depth", "check_sequence", "check_spend", "decide"]


def check_spend(totals: Totals, limits: BudgetLimits, where: str) -> BudgetError | None:
    """Cost, tokens, depth: each against its limit (a limit is reached when the spend equals it)."""
    if limits.max_usd is not None and totals.cost >= limits.max_usd:
        return CostCapExceeded(totals.cost, limits.max_usd, where)
    if limits.max_tokens is not None and totals.tokens >= limits.max_tokens:
        return TokenBudgetExceeded(totals.tokens, limits.max_tokens, where)
    return None


def check_depth(depth: int, limits: BudgetLimits, where: str) -> DepthExceeded | None:
    if limits.max_depth is not None and depth > limits.max_depth:
        return DepthExceeded(depth, limits.max_depth, where)
    return None


def check_sequence(
    tool: str, digest: str, recent: Sequence[str], calls: int, limits: BudgetLimits, where: str
) -> PolicyDenied | None:
    """The action rules. ``recent``: earlier digests, most recent first; ``calls``: allowed so far."""
    if tool.casefold() in {t.casefold() for t in limits.deny_tools}:  # Bash, bash: one tool
        return PolicyDenied("deny-tool", f"policy: the tool {tool} is forbidden in {where}")
    if limits.max_calls is not None and calls + 1 > limits.max_calls:
        return PolicyDenied(
            "max-calls",
            f"call limit reached: call {calls + 1} of max {limits.max_calls} in {where}",
            calls + 1,
            limits.max_calls,
            where,
        )
    if limits.max_repeat is not None and limits.max_repeat > 0:
        run = 1 + next((i for i, d in enumerate(recent) if d != digest), len(recent))
        if run >= limits.max_repeat:
            return PolicyDenied(
                "max-repeat",
                f"repeat policy: the same {tool} call {run} times in a row (max-repeat {limits.max_repeat}) in {where}",
                run,
                limits.max_repeat,
            )
    return None


def decide(view: CallView) -> BudgetError | None:
    """The verdict on one tool call: None to allow, else the error (its text is the deny reason)."""
    for sv in view.scopes:
        where = sv.scope.label if sv.scope.kind != "session" else f"session {view.session}"
        error = (
            check_depth(view.depth, sv.limits, where)
            or check_spend(sv.totals, sv.limits, where)
            or check_sequence(view.tool, view.digest, view.recent, sv.totals.calls, sv.limits, where)
        )
        if error is not None:
            return error
    return None
