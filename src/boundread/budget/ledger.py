"""The budget ledger: one interface (``Ledger``) and the factory that picks its store (``open_ledger``).

Two stores implement it: SQLite, one file per machine (``sqlite.SqliteLedger``, the default), and PostgreSQL,
one database for a fleet (``postgres.PostgresLedger``, when ``BOUNDREAD_LEDGER_URL`` or ``ledger_url`` in the
user config names one). Their logic is one class (``sqlbase.SqlLedger``) over the rows of ``rows.py``; only
connections, transactions and locks differ. Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

from boundread.budget.decided import Row
from boundread.budget.model import BudgetLimits, CallView, Scope, Totals, UsageRecord
from boundread.budget.rows import (
    FILENAME,
    ledger_path,
    limits_from_json,
    limits_from_row,
    limits_json,
    state_dir,
)

if TYPE_CHECKING:
    from boundread.budget.stats import Decided

__all__ = ["FILENAME", "Decisions", "Ledger", "ledger_path", "ledger_url", "limits_from_json", "limits_from_row",
           "limits_json", "open_decisions", "open_ledger", "state_dir"]
URL_ENV = "BOUNDREAD_LEDGER_URL"
_T = TypeVar("_T")


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
        rewind: bool = False,
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
        *,
        call_id: str | None = None,
    ) -> _T | None: ...
    def reset(self, scope: Scope, *, limits: bool = False) -> None: ...
    def sessions(self) -> list[str]: ...
    def projects(self) -> list[str]: ...
    def add_decision(self, row: Row) -> None: ...
    def decisions(self, *, session: str | None = None, project: str | None = None,
                  since: float | None = None) -> list[Decided]: ...
    def close(self) -> None: ...
    def __enter__(self) -> Ledger: ...
    def __exit__(self, *exc: object) -> None: ...


class Decisions(Protocol):
    """Where the guard's decisions are kept (``boundread stats``): a ledger, or SQLite's file of them."""

    def add_decision(self, row: Row) -> None: ...
    def decisions(self, *, session: str | None = None, project: str | None = None,
                  since: float | None = None) -> list[Decided]: ...
    def close(self) -> None: ...
    def __enter__(self) -> Decisions: ...
    def __exit__(self, *exc: object) -> None: ...


def open_ledger(url: str | None = None) -> Ledger:
    """The configured ledger: PostgreSQL when a URL is given or configured (``ledger_url``), else SQLite."""
    url = url or ledger_url()
    if url:
        from boundread.budget.postgres import PostgresLedger

        return PostgresLedger(url)
    from boundread.budget.schema import WRITE_WAIT_S
    from boundread.budget.sqlite import SqliteLedger

    return SqliteLedger(wait=WRITE_WAIT_S)  # many first uses at once: each waits its turn to create the file


def open_decisions(url: str | None = None) -> Decisions:
    """The guard's decisions: the PostgreSQL ledger when a URL is given or configured, else their SQLite file beside
    the budget ledger - reading them never creates the budget ledger (its presence turns the budget check on)."""
    url = url or ledger_url()
    if url:
        from boundread.budget.postgres import PostgresLedger

        return PostgresLedger(url)
    from boundread.budget.sqlite import SqliteDecisions

    return SqliteDecisions()
