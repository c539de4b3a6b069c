"""The budget ledger: one interface (``Ledger``), the factory that picks its store, and the rows both stores share.

Two stores implement it: SQLite, one file per machine (``sqlite.SqliteLedger``, the default), and PostgreSQL,
one database for a fleet (``postgres.PostgresLedger``, when ``BOUNDREAD_LEDGER_URL`` or ``ledger_url`` in the
user config names one). Their logic is one class (``sqlbase.SqlLedger``); only connections, transactions and
locks differ. Standard library only; money is stored as integer nano-dollars so sums are exact.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any, Protocol, TypeVar

from boundread.budget.model import (
    BudgetLimits,
    CallView,
    Scope,
    Totals,
    UsageRecord,
    from_nanos,
)
from boundread.budget.schema import LIMIT_COLS, SCOPE_WHERE

FILENAME = "budget.sqlite3"
URL_ENV = "BOUNDREAD_LEDGER_URL"
_T = TypeVar("_T")


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


def ledger_url() -> str | None:
    """The PostgreSQL ledger's URL (``BOUNDREAD_LEDGER_URL``, else the user config's), or None for SQLite."""
    from boundread.budget.ledgerurl import find

    return find()


class Ledger(Protocol):
    """What the guards, the CLI and the hooks need from a store (``open_ledger`` gives one)."""

    def set_limits(self, scope: Scope, limits: BudgetLimits) -> BudgetLimits: ...
    def limits(self, scope: Scope) -> BudgetLimits: ...
    def all_limits(self) -> dict[str, BudgetLimits]: ...
    def add_usage(
        self,
        session: str,
        records: Sequence[UsageRecord],
        *,
        project: str | None = None,
        transcript: tuple[str, int] | None = None,
        warnings: int = 0,
    ) -> int: ...
    def offset(self, transcript: str) -> int: ...
    def offsets(self, transcripts: Sequence[str]) -> dict[str, int]: ...
    def totals(self, scope: Scope) -> Totals: ...
    def record_call(
        self,
        session: str,
        project: str | None,
        tool: str,
        digest: str,
        depth: int,
        decide: Callable[[CallView], _T | None],
    ) -> _T | None: ...
    def reset(self, scope: Scope, *, limits: bool = False) -> None: ...
    def sessions(self) -> list[str]: ...
    def projects(self) -> list[str]: ...
    def close(self) -> None: ...
    def __enter__(self) -> Ledger: ...
    def __exit__(self, *exc: object) -> None: ...


def open_ledger(url: str | None = None) -> Ledger:
    """The configured ledger: PostgreSQL when a URL is given or configured (``ledger_url``), else SQLite."""
    url = url or ledger_url()
    if url:
        from boundread.budget.postgres import PostgresLedger

        return PostgresLedger(url)
    from boundread.budget.sqlite import SqliteLedger

    return SqliteLedger()


def where_label() -> str:
    """Where the configured ledger is, for messages: the file, or the database URL without its password."""
    url = ledger_url()
    if url:
        from boundread.budget.ledgerurl import redact

        return redact(url)
    return str(ledger_path())


def limits_from_row(row: Sequence[object]) -> BudgetLimits:
    tokens, usd, depth, calls, repeat, deny = row
    return BudgetLimits(
        max_tokens=tokens if isinstance(tokens, int) else None,
        max_usd=Decimal(str(usd)) if usd is not None else None,
        max_depth=depth if isinstance(depth, int) else None,
        max_calls=calls if isinstance(calls, int) else None,
        max_repeat=repeat if isinstance(repeat, int) else None,
        deny_tools=tuple(t for t in str(deny or "").split(",") if t),
    )


def limits_params(scope: Scope, lim: BudgetLimits) -> tuple[object, ...]:
    """The ``limits`` row of ``scope``, in ``LIMIT_COLS`` order after the key."""
    usd = None if lim.max_usd is None else str(lim.max_usd)
    deny = ",".join(lim.deny_tools)
    return (scope.key, lim.max_tokens, usd, lim.max_depth, lim.max_calls, lim.max_repeat, deny)


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
    return BudgetLimits(
        max_tokens=whole("max_tokens"),
        max_usd=amount if amount is not None and amount.is_finite() and amount >= 0 else None,
        max_depth=whole("max_depth"),
        max_calls=whole("max_calls"),
        max_repeat=whole("max_repeat"),
        deny_tools=tuple(t for t in tools if isinstance(t, str) and t) if isinstance(tools, list) else (),
    )


def why(exc: BaseException) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)


def scopes_text(keys: Sequence[str]) -> str:
    named = ", ".join(keys[:3]) + (f" and {len(keys) - 3} more" if len(keys) > 3 else "")
    return f"{len(keys)} scope(s) ({named})"
