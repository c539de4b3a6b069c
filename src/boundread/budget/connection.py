"""The one connection protocol the ledger's three ways to a database share, as the code uses them.

The ledger talks to SQLite (``sqlite3``, budget/sqlite.py, and its C module ``_sqlite3`` on the hook path,
budget/hookpath.py), to PostgreSQL through psycopg (budget/postgres.py) and, on the hook path, to PostgreSQL
through libpq and ctypes (budget/pghook.py, no psycopg: ~120 ms of imports on every tool call). All of them run
the same SQL (``?`` placeholders, schema.py) through ``execute`` and read rows back with ``fetchone``,
``fetchall`` or by iterating. A transaction is statements too (``BEGIN``/``BEGIN IMMEDIATE``, ``COMMIT``,
``ROLLBACK``): SQLite is opened with ``isolation_level=None`` and psycopg with ``autocommit=True``, so no store
calls a driver's ``commit()``, and none is in the protocol. mypy checks each store's connection against it.

The hook path imports this module only for type checking (``typing`` costs milliseconds at start-up).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Protocol


class Rows(Protocol):
    """What a statement gives back: its rows, one or all."""

    def fetchone(self) -> Any: ...  # a row (a tuple, index by position), or None

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """A connection that runs the ledger's SQL: what the hook path needs (budget/hookpath.py, budget/pghook.py)."""

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Rows: ...

    def close(self) -> None: ...


class Written(Rows, Protocol):
    """A statement's result where the full ledger reads how many rows it wrote (an ``INSERT ... DO NOTHING``)."""

    @property
    def rowcount(self) -> int: ...

    def fetchmany(self, size: int = ..., /) -> list[Any]: ...


class LedgerConnection(Connection, Protocol):
    """The full ledger's connection (budget/sqlbase.py over sqlite3 or psycopg): ``execute`` says what it wrote."""

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Written: ...
