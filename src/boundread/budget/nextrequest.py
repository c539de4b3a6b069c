"""The in-process Guard's stop before the model request that would cross a cap (issue 18).

A model request carries the whole context again: its input, cache reads and writes, and the last answer. So the
next request of an agent costs at least as many tokens as its last one did and, a steady runaway, about as many
dollars. Raising after the request that passed a cap (``Guard.step``) is one request too late: a $1 cap ended at
$5.28 in a real runaway. ``look_ahead`` is asked before each request (``Guard.before_request``) and says

- a cap is reached: the cap's own error (``TokenBudgetExceeded``, ``CostCapExceeded``), as ``step`` raised it;
- the next request would pass a token or USD cap: ``TokenBudgetWouldPass`` / ``CostCapWouldPass`` (subclasses of
  those two, so ``except TokenBudgetExceeded`` still catches them), with ``spent``, ``limit`` and ``next`` (the
  least the request adds) - unless the limits allow overshoot;
- else, past half of a cap, the note for the model: what is left, and past 80% (the next request counted) to
  finish up. It is the hooks' additionalContext (``verdict``), word for word.

One session, no time window: a Guard is one agent in one process. The hooks' verdict reads the ledger's scopes
and each sub-agent's last request; the in-memory Guard and the ledger-backed one both come here with the
session's totals, limits and last request, so they answer alike.
"""

from __future__ import annotations

from decimal import Decimal

from boundread.budget.errors import BudgetError, CostCapExceeded, TokenBudgetExceeded, fmt_usd, set_command
from boundread.budget.model import BudgetLimits, Scope, Totals, UsageRecord
from boundread.budget.policy import check_spend
from boundread.budget.verdict import caps_of, context_line
from boundread.errors import BoundreadError

OVERSHOOT = "Guard(allow_overshoot=True) lets it go out"


class TokenBudgetWouldPass(TokenBudgetExceeded):
    """The next request would pass the token budget: ``spent`` + ``next`` (its least size) > ``limit``."""

    code = "token_budget_would_pass"

    def __init__(self, spent: int, limit: int, next_tokens: int, where: str = "") -> None:
        self.spent, self.limit, self.next = spent, limit, next_tokens
        self.where, self.option = where, "--max-tokens"
        scope = f" in {where}" if where else ""
        BoundreadError.__init__(
            self,
            f"the next request would pass the token budget: {spent:,} of {limit:,} tokens spent{scope}, and the next"
            f" request adds at least {next_tokens:,}",
            f"stop here, or raise the budget with `{set_command('--max-tokens N', where)}` ({OVERSHOOT})",
        )


class CostCapWouldPass(CostCapExceeded):
    """The next request would pass the cost cap: ``spent`` + ``next`` (the last request's cost) > ``limit``."""

    code = "cost_cap_would_pass"

    def __init__(self, spent: Decimal, limit: Decimal, next_cost: Decimal, where: str = "") -> None:
        self.spent, self.limit, self.next = spent, limit, next_cost
        self.where, self.option = where, "--max-usd"
        scope = f" in {where}" if where else ""
        BoundreadError.__init__(
            self,
            f"the next request would pass the cost cap: {fmt_usd(spent)} of {fmt_usd(limit)} spent{scope}, and the"
            f" next request adds about {fmt_usd(next_cost)}",
            f"stop here, or raise the cap with `{set_command('--max-usd X', where)}` ({OVERSHOOT})",
        )


def look_ahead(session: str, totals: Totals, limits: BudgetLimits,
               last: UsageRecord | None) -> tuple[BudgetError | None, str | None]:
    """(the error to raise before the next request, or None; the note for the model, or None)."""
    where = f"session {session}"
    reached = check_spend(totals, limits, where)
    if reached is not None:
        return reached, None
    after = (Decimal(last.tokens), last.cost) if last is not None else (Decimal(0), Decimal(0))
    caps = caps_of(Scope("session", session), limits, totals, after)
    for cap in caps:
        if cap.crossed_next and cap.what == "token cap":
            return TokenBudgetWouldPass(int(cap.spent), int(cap.cap), int(cap.next), where), None
        if cap.crossed_next and cap.what == "cost cap":
            return CostCapWouldPass(cap.spent, cap.cap, cap.next, where), None
    return None, context_line(caps, session)
