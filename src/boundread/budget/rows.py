"""The rows both ledger stores share: where the SQLite file is, limits and totals read the same way from either.

Standard library only; ``?`` placeholders (the PostgreSQL store translates them). Money is integer nano-dollars.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

from boundread.budget.model import BudgetLimits, Scope, Totals, from_nanos
from boundread.budget.schema import LIMIT_COLS, SCOPE_WHERE

FILENAME = "budget.sqlite3"


def state_dir() -> Path:
    """``$BOUNDREAD_STATE_DIR``, else ``$XDG_STATE_HOME/boundread``, else ``~/.local/state/boundread``."""
    explicit = os.environ.get("BOUNDREAD_STATE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_STATE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "state"
    return base / "boundread"


def ledger_path() -> Path:
    return state_dir() / FILENAME


def limits_from_row(row: Sequence[object]) -> BudgetLimits:
    tokens, usd, depth, calls, repeat, deny, agents, per_minute, overshoot = row

    def whole(value: object) -> int | None:
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    return BudgetLimits(
        max_tokens=whole(tokens),
        max_usd=Decimal(str(usd)) if usd is not None else None,
        max_depth=whole(depth),
        max_calls=whole(calls),
        max_repeat=whole(repeat),
        deny_tools=tuple(t for t in str(deny or "").split(",") if t),
        max_agents=whole(agents),
        max_agents_per_minute=whole(per_minute),
        allow_overshoot=None if whole(overshoot) is None else bool(overshoot),
    )


def limits_params(scope: Scope, lim: BudgetLimits) -> tuple[object, ...]:
    """The ``limits`` row of ``scope``, in ``LIMIT_COLS`` order after the key."""
    usd = None if lim.max_usd is None else str(lim.max_usd)
    deny = ",".join(lim.deny_tools)
    overshoot = None if lim.allow_overshoot is None else int(lim.allow_overshoot)
    return (scope.key, lim.max_tokens, usd, lim.max_depth, lim.max_calls, lim.max_repeat, deny, lim.max_agents,
            lim.max_agents_per_minute, overshoot)


_TOTALS = ", ".join(
    f"CAST(COALESCE({agg}({col}),0) AS BIGINT)"
    for agg, col in (("SUM", "input"), ("SUM", "output"), ("SUM", "cache_read"), ("SUM", "cache_write"),
                     ("SUM", "cost_nanos"), ("SUM", "calls"), ("MAX", "depth"), ("SUM", "warnings"))
)


def scope_where(scope: Scope) -> tuple[str, tuple[str, ...]]:
    where = SCOPE_WHERE.get(scope.kind, "")
    return where, (scope.name,) if where else ()


def limits_of(db: Any, scope: Scope) -> BudgetLimits:
    """``scope``'s limits over a connection whose ``execute`` takes ``?`` placeholders (either store's)."""
    row = db.execute(f"SELECT {LIMIT_COLS} FROM limits WHERE scope = ?", (scope.key,)).fetchone()
    return limits_from_row(row) if row else BudgetLimits()


def totals_of(db: Any, scope: Scope) -> Totals:
    where, args = scope_where(scope)
    row = db.execute(f"SELECT {_TOTALS} FROM sessions {where}", args).fetchone()
    usage_where = where.replace("id =", "session =").replace(
        "project = ?", "session IN (SELECT id FROM sessions WHERE project = ?)"
    )
    joiner = " AND" if usage_where else "WHERE"
    unpriced = tuple(
        r[0]
        for r in db.execute(f"SELECT DISTINCT model FROM usage {usage_where}{joiner} flagged = 1 ORDER BY model", args)
    )
    return Totals(
        input=row[0],
        output=row[1],
        cache_read=row[2],
        cache_write=row[3],
        cost=from_nanos(row[4]),
        calls=row[5],
        depth=row[6],
        warnings=row[7],
        unpriced=unpriced,
    )


def limits_json(lim: BudgetLimits) -> dict[str, object]:
    """The limits as the sidecar stores them (the fields that are set)."""
    return {k: v for k, v in lim.as_json().items() if v not in (None, [])}


def limits_from_json(data: dict[str, object]) -> BudgetLimits:
    """``limits_json`` read back; a value of the wrong type is dropped."""

    def whole(name: str) -> int | None:
        value = data.get(name)
        return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None

    usd = data.get("max_usd")
    try:
        amount = Decimal(usd) if isinstance(usd, str) else None
    except ArithmeticError:
        amount = None
    tools = data.get("deny_tools")
    overshoot = data.get("allow_overshoot")
    return BudgetLimits(
        max_tokens=whole("max_tokens"),
        max_usd=amount if amount is not None and amount.is_finite() and amount >= 0 else None,
        max_depth=whole("max_depth"),
        max_calls=whole("max_calls"),
        max_repeat=whole("max_repeat"),
        deny_tools=tuple(t for t in tools if isinstance(t, str) and t) if isinstance(tools, list) else (),
        max_agents=whole("max_agents"),
        max_agents_per_minute=whole("max_agents_per_minute"),
        allow_overshoot=overshoot if isinstance(overshoot, bool) else None,
    )


def why(exc: BaseException) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)


def scopes_text(keys: Sequence[str]) -> str:
    named = ", ".join(keys[:3]) + (f" and {len(keys) - 3} more" if len(keys) > 3 else "")
    return f"{len(keys)} scope(s) ({named})"
