"""Budget errors: one root, a subclass per guard, each carrying the figures that tripped it.

Standard library only: the hook path imports this module.
"""

from __future__ import annotations

import shlex
from decimal import Decimal

from boundread.errors import BoundreadError, Corrupt, ExitCode


class BudgetError(BoundreadError):
    """A runaway guard stopped the work; ``limit`` and ``spent`` are the figures."""

    exit_code = ExitCode.USAGE  # the documented "deny" exit code
    code = "budget"
    where = ""  # the scope whose limit was reached ("session ID", "project DIR", "all sessions"), when known
    option = ""  # the ``budget set`` option that raises it (``--max-usd``), when one does


class DepthExceeded(BudgetError):
    code = "depth_exceeded"

    def __init__(self, depth: int, limit: int, where: str = "", fix: str = "") -> None:
        self.depth = depth
        self.limit = limit
        self.where, self.option = where, "--max-depth"
        scope = f" in {where}" if where else ""
        super().__init__(
            f"depth limit reached: depth {depth} of max {limit}{scope}",
            fix or f"stop recursing, or raise the limit with `{set_command('--max-depth N', where)}`",
        )


class TokenBudgetExceeded(BudgetError):
    code = "token_budget_exceeded"

    def __init__(self, spent: int, limit: int, where: str = "") -> None:
        self.spent = spent
        self.limit = limit
        self.where, self.option = where, "--max-tokens"
        scope = f" in {where}" if where else ""
        super().__init__(
            f"token budget reached: {spent:,} of {limit:,} tokens{scope}",
            f"stop, or raise the budget with `{set_command('--max-tokens N', where)}`",
        )


class CostCapExceeded(BudgetError):
    code = "cost_cap_exceeded"

    def __init__(self, spent: Decimal, limit: Decimal, where: str = "") -> None:
        self.spent = spent
        self.limit = limit
        self.where, self.option = where, "--max-usd"
        scope = f" in {where}" if where else ""
        super().__init__(
            f"cost cap reached: {fmt_usd(spent)} of {fmt_usd(limit)}{scope}",
            f"stop, or raise the cap with `{set_command('--max-usd X', where)}`",
        )


class PolicyDenied(BudgetError):
    code = "policy_denied"

    def __init__(self, rule: str, detail: str, count: int = 0, limit: int = 0, where: str = "") -> None:
        self.rule = rule
        self.count = count
        self.limit = limit
        self.where, self.option = where, {"max-calls": "--max-calls", "max-agents": "--max-agents",
                                          "max-agents-per-minute": "--max-agents-per-minute"}.get(rule, "")
        fixes = {
            "max-calls": f"stop, or raise the limit with `{set_command('--max-calls N', where)}`",
            "max-agents": f"do the work in this agent, or raise the limit with "
                          f"`{set_command('--max-agents N', where)}`",
            "max-agents-per-minute": f"wait a minute, or raise the limit with "
                                     f"`{set_command('--max-agents-per-minute N', where)}`",
            "max-repeat": "change approach instead of repeating the same call",
            "deny-tool": "use another tool",
        }
        super().__init__(detail, fixes.get(rule, "adjust the rules with `boundread budget set`"))


class LedgerError(Corrupt):
    """The ledger file cannot be used (corrupt, locked for too long, not a database)."""

    code = "ledger"


class LedgerBusy(LedgerError):
    """A passing failure: a lock held elsewhere, a server out of connections, a COMMIT whose answer never came.

    The same write, under the same keys, may be tried again (``SqlLedger._again``). ``ambiguous``: the COMMIT was
    sent and may have landed, so only a write that counts once by its keys may be repeated.
    """

    def __init__(self, what: str, fix: str = "", *, ambiguous: bool = False) -> None:
        super().__init__(what, fix)
        self.ambiguous = ambiguous


def set_command(flag: str, where: str) -> str:
    """The ``budget set`` command that raises ``flag`` where it was reached (``where``: "session ID", "project
    DIR", "all sessions"; anything else: the command without a scope, which ``budget set`` refuses, so never).

    Without its scope the command fails (``budget set`` needs --session, --project or --global); a project's
    limit is set from inside its folder.
    """
    kind, _, name = where.partition(" ")
    if kind == "session" and name:
        return f"boundread budget set --session {shlex.quote(name)} {flag}"
    if kind == "project" and name:
        return f"cd {shlex.quote(name)} && boundread budget set --project {flag}"
    return f"boundread budget set --global {flag}"


def fmt_usd(amount: Decimal) -> str:
    """``$0.52``; small amounts keep four significant places (``$0.0034``) so they never read as zero, without
    trailing zeros: ``0.003730`` (a sum in memory) and ``0.00373`` (the ledger's nanos) read the same."""
    if amount != 0 and abs(amount) < Decimal("0.01"):
        amount = amount.normalize()
        return f"${amount:.4g}" if abs(amount) >= Decimal("0.0001") else f"${amount:.2e}"
    return f"${amount:,.2f}"
