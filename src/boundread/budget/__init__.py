"""Runaway guards: depth, tokens, cost and policy, over a ledger that hooks update and enforce.

    from boundread.budget import Guard, TokenBudget, CostCap, Policy, max_depth

Names load on first use, so the hook path (``boundread.budget.enforce``) imports only what it needs;
everything is standard library at import time (genai-prices loads when a cost is computed).
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: the guard-check hook imports this package on every call
if TYPE_CHECKING:
    from typing import Any

    from boundread.budget.errors import (
        BudgetError,
        CostCapExceeded,
        DepthExceeded,
        LedgerError,
        PolicyDenied,
        TokenBudgetExceeded,
    )
    from boundread.budget.guards import CostCap, Guard, Policy, TokenBudget, carry_depth, current_depth, max_depth
    from boundread.budget.ledger import Ledger, ledger_path, open_ledger
    from boundread.budget.model import BudgetLimits, Scope, Totals, UsageRecord
    from boundread.budget.nextrequest import CostCapWouldPass, TokenBudgetWouldPass
    from boundread.budget.postgres import PostgresLedger
    from boundread.budget.prices import Price, Pricer
    from boundread.budget.sqlite import SqliteLedger
    from boundread.budget.transcript import IngestResult

_WHERE = {
    "errors": (
        "BudgetError",
        "CostCapExceeded",
        "DepthExceeded",
        "LedgerError",
        "PolicyDenied",
        "TokenBudgetExceeded",
    ),
    "guards": ("CostCap", "Guard", "Policy", "TokenBudget", "carry_depth", "current_depth", "max_depth"),
    "ledger": ("Ledger", "ledger_path", "open_ledger"),
    "postgres": ("PostgresLedger",),
    "sqlite": ("SqliteLedger",),
    "model": ("BudgetLimits", "Scope", "Totals", "UsageRecord"),
    "nextrequest": ("CostCapWouldPass", "TokenBudgetWouldPass"),
    "prices": ("Price", "Pricer"),
    "transcript": ("IngestResult",),
}


def __getattr__(name: str) -> Any:
    # `from boundread.budget import selfargs` asks here before it imports the submodule: a name not listed
    # costs no import (importlib brings warnings: ~0.4 ms of the guard-check hook)
    for module, names in _WHERE.items():
        if name in names:
            return getattr(__import__(f"boundread.budget.{module}", fromlist=[name]), name)
    raise AttributeError(f"module 'boundread.budget' has no attribute {name!r}")


__all__ = [
    "BudgetError",
    "BudgetLimits",
    "CostCap",
    "CostCapExceeded",
    "CostCapWouldPass",
    "DepthExceeded",
    "Guard",
    "IngestResult",
    "Ledger",
    "LedgerError",
    "Policy",
    "PolicyDenied",
    "PostgresLedger",
    "Price",
    "Pricer",
    "Scope",
    "SqliteLedger",
    "TokenBudget",
    "TokenBudgetExceeded",
    "TokenBudgetWouldPass",
    "Totals",
    "UsageRecord",
    "carry_depth",
    "current_depth",
    "ledger_path",
    "max_depth",
    "open_ledger",
]
