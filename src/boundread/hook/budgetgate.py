"""The budget in guard-check: the one place the ledger is consulted on a pre-tool call, after the guard itself
allowed (``with_budget``), a sub-agent spawn's gate, and the budget's refusal where the guard refused an agent's
attempt on its own cap (``budget_first``). Everything heavier than the lean check loads only when a session has a
budget; the SDK adapters (adapters/sdkbudget.py) call ``with_budget`` too.
"""

from __future__ import annotations

from boundread.agents import dialect
from boundread.guard.decide import DENY, Decision

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

# A budget deny is a decision, not a fault: Claude Code shows it as "PreToolUse:Read hook error: ..." (guard/reason.py).
# A ledger that cannot count is a fault (its reason names the fix): that deny keeps its own opening.
BUDGET_OPENING = "Not an error: boundread's budget stopped this on purpose - "


def budget_first(refused: Decision, payload: Mapping[str, Any], call: dialect.Call, agent: str) -> Decision:
    """The budget's self-cap refusal instead of the guard's own-ground one, where the session has a budget and its
    check refuses the call too: that refusal ends the session (an agent that tried to lift its cap; Codex's turn
    is interrupted, as for any budget stop)."""
    try:
        from boundread.budget.enforce import budget_refusal
    except ImportError:
        return refused
    why = budget_refusal(dict(payload), call.tool, call.tool_input)
    if not why:
        return refused
    from boundread.budget.verdict import end_session

    decision = Decision(DENY, BUDGET_OPENING + why, rule="budget", stop=end_session(dict(payload), why))
    if agent == "codex":
        from boundread.agents.codex_interrupt import interrupt_codex

        interrupt_codex()
    return decision


def with_budget(decision: Decision, payload: Mapping[str, Any], tool: str, tool_input: object) -> Decision:
    """The one place the budget ledger (issue 4) is consulted, after the guard itself allowed."""
    if decision.denied:
        return decision
    try:
        from boundread.budget.enforce import UNUSABLE, check_tool_call
    except ImportError:
        return decision
    spawn = tool.casefold() in ("agent", "task") and bool(payload)  # budget/agents.py SPAWN_TOOLS
    why, recorded = _spawn_gate(dict(payload)) if spawn else (None, None)
    why = why or check_tool_call(dict(payload), tool, tool_input)
    if not why:
        return decision
    if recorded:  # the spawn the gate recorded will not happen: the rest of the budget refused the call
        _unspawn(dict(payload), recorded)
    if why.startswith(UNUSABLE):  # a fault to fix, not a cap: the session is not ended for it
        return Decision(DENY, why, rule="budget")
    from boundread.budget.verdict import end_session

    return Decision(DENY, BUDGET_OPENING + why, rule="budget", stop=end_session(dict(payload), why))


def _spawn_gate(payload: dict[str, Any]) -> tuple[str | None, str | None]:
    """A sub-agent spawn passes the depth, count and rate limits, and the next round of requests with the new
    sub-agent in it, first (budget/agents.py): (the deny reason or None, the key the spawn was recorded under).
    Rare, so the full ledger; nothing at all where no scope of the session has a budget. A ledger that cannot say
    is doubt: the spawn is denied, as guard-check denies a budgeted call then."""
    from boundread.budget.agents import budgeted

    if not budgeted(payload):
        return None, None
    import time

    from boundread.budget.agents import forget, gate
    from boundread.budget.enforce import UNUSABLE, project_of, session_of
    from boundread.budget.errors import LedgerError
    from boundread.budget.verdict import OPENING, after_request
    from boundread.hook.ingest import open_budget_ledger

    session, project = session_of(payload) or "default", project_of(payload)
    try:
        with open_budget_ledger() as ledger:
            refused, recorded = gate(ledger, payload, session, project, time.time())
            if refused or not recorded:
                return refused, None
            ahead = after_request(ledger, session, project, fresh=False)  # the new sub-agent's requests counted
            if ahead.stop:
                forget(ledger, session, recorded)
                return ahead.stop.removeprefix(OPENING), None
            return None, recorded
    except LedgerError as exc:
        return f"{UNUSABLE}{exc} - the spawn could not be checked (calls with a budget are denied until then)", None


def _unspawn(payload: dict[str, Any], key: str) -> None:
    """Take back the spawn the gate recorded under ``key``."""
    from boundread.budget.agents import forget
    from boundread.budget.enforce import session_of
    from boundread.budget.errors import LedgerError
    from boundread.hook.ingest import open_budget_ledger

    try:
        with open_budget_ledger() as ledger:
            forget(ledger, session_of(payload) or "default", key)
    except LedgerError:
        pass
