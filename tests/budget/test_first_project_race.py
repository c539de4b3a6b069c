"""A session's first project, read under the write lock: two first calls of one session from two folders.

Each path (``SqlLedger.record_call`` on both stores, the SQLite hook path, the libpq hook path) reads the
session's first project before its write transaction. When another call of the same session, from another
folder, records the session's first call in between, the call must be decided in the project the session now
has, not in its payload's. The interleaving is made exact: the other call runs at the last point before this
call's transaction (no threads, no timing).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from boundread.budget import hookpath, pghook
from boundread.budget.ledger import open_ledger
from boundread.budget.model import BudgetLimits, Scope
from boundread.budget.policy import decide
from boundread.budget.postgres import PostgresLedger
from boundread.budget.sqlite import SqliteLedger

CAPPED, ROOMY = "/capped", "/roomy"  # the first call's folder (1 call at most), the late call's (100)
DENIED = f"call limit reached: call 2 of max 1 in project {CAPPED}"


def _limits(ledger: Any) -> None:
    ledger.set_limits(Scope("project", CAPPED), BudgetLimits(max_calls=1))
    ledger.set_limits(Scope("project", ROOMY), BudgetLimits(max_calls=100))


def _once(first: Callable[[], object], then: Callable[..., Any]) -> Callable[..., Any]:
    """``then``, the first time after running ``first`` (the other call, which lands in between)."""
    done: list[bool] = []

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not done:
            done.append(True)
            first()
        return then(*args, **kwargs)

    return wrapped


def _projects(ledger: Any) -> tuple[int, int]:
    return ledger.totals(Scope("project", CAPPED)).calls, ledger.totals(Scope("project", ROOMY)).calls


def test_the_ledger_decides_in_the_project_a_concurrent_first_call_gave_the_session(backend: str) -> None:
    with open_ledger() as ledger, open_ledger() as other:
        _limits(ledger)
        tx = ledger._tx

        @contextlib.contextmanager
        def late_tx() -> Iterator[Any]:  # the other call commits after this one read the session (no project yet)
            other.record_call("s", CAPPED, "Bash", "a", 0, decide)
            with tx() as db:
                yield db

        ledger._tx = late_tx  # type: ignore[method-assign]
        verdict = ledger.record_call("s", ROOMY, "Bash", "b", 0, decide)
        assert str(verdict).startswith(DENIED)
        assert _projects(ledger) == (1, 0)


def test_the_sqlite_hook_decides_in_the_project_a_concurrent_first_call_gave_the_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(tmp_path / "l.sqlite3")
    with SqliteLedger(Path(path)) as ledger:
        _limits(ledger)
    other = _once(lambda: hookpath.check(path, "s", CAPPED, "Bash", {"command": "a"}, 0), hookpath.path_for)
    monkeypatch.setattr(hookpath, "path_for", other)  # asked after the read of the limits, before the write
    assert (hookpath.check(path, "s", ROOMY, "Bash", {"command": "b"}, 0) or "").startswith(DENIED)
    with SqliteLedger(Path(path)) as ledger:
        assert _projects(ledger) == (1, 0)


def test_the_libpq_hook_decides_in_the_project_a_concurrent_first_call_gave_the_session(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = str(tmp_path / "cache.json")
    with PostgresLedger(pg_url) as ledger:
        _limits(ledger)
    other = _once(lambda: pghook.check(pg_url, cache, "s", CAPPED, "Bash", {"command": "a"}, 0), pghook._remember)
    monkeypatch.setattr(pghook, "_remember", other)  # called after the read of the limits, before the write
    assert (pghook.check(pg_url, cache, "s", ROOMY, "Bash", {"command": "b"}, 0) or "").startswith(DENIED)
    with PostgresLedger(pg_url) as ledger:
        assert _projects(ledger) == (1, 0)
