"""``boundread budget``: set limits, record usage, show and check the four runaway guards.

common.py holds the Typer app and the options its commands share; record.py, report.py and upkeep.py add
their commands to it.
"""

from __future__ import annotations

from boundread.budget.errors import BudgetError, DepthExceeded
from boundread.cli.budget.common import budget_app

# Each module adds its commands to budget_app: this order is the order help lists them in.
# isort: off
from boundread.cli.budget import record  # noqa: F401 - set, add, ingest
from boundread.cli.budget import report  # noqa: F401 - status, check, prices
from boundread.cli.budget import upkeep  # noqa: F401 - reset, recover, exec
# isort: on

__all__ = ["BudgetError", "DepthExceeded", "budget_app"]
