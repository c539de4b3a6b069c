"""Cap marks, written on a deny: which of a call's scopes reached a cap that only grows (calls, tokens, USD).

guard-check calls ``note`` when the SQLite ledger denies a call. For each scope of the call (its session, the
session's project, the global scope) whose spend has reached its ``--max-calls``, ``--max-tokens`` or
``--max-usd``, the sidecar notes the limits and the deny (``sidecar.mark``). Spend only grows, so a later call
that the ledger allows in a noted scope means the ledger's counters went down - edited, emptied, rebuilt by
``budget recover`` - and enforce denies it with the noted reason (see budget/selfcap.py for the model).
Depth, repeat, a forbidden tool and the spawn rate are per call, not reached once for all: never noted.

Off the allowed path: only a deny pays for this (sqlite3 read-only, the ledger's model); and an allowed call
only when a project is marked (its session's first project, ``first_project``).
"""

from __future__ import annotations

import sqlite3
from contextlib import closing

from boundread.budget import sidecar
from boundread.budget.model import BudgetLimits, Scope, Totals
from boundread.budget.rows import limits_of, totals_of
from boundread.budget.schema import SESSION_PROJECT


def reached(limits: BudgetLimits, totals: Totals) -> bool:
    """Whether a cap that only grows is reached (as ``policy`` decides it: at equality)."""
    return ((limits.max_calls is not None and totals.calls >= limits.max_calls)
            or (limits.max_tokens is not None and totals.tokens >= limits.max_tokens)
            or (limits.max_usd is not None and totals.cost >= limits.max_usd))


def first_project(path: str, session: str) -> str | None:
    """The session's first project, which the ledger keeps (a later call from a subfolder stays in it)."""
    try:
        with closing(sqlite3.connect(f"file:{_uri(path)}?mode=ro", uri=True, timeout=1)) as db:
            row = db.execute(SESSION_PROJECT, (session,)).fetchone()
    except sqlite3.Error:
        return None
    return str(row[0]) if row and row[0] else None


def _uri(path: str) -> str:
    return path.replace("%", "%25").replace("?", "%3F").replace("#", "%23")


def note(path: str, side: str, session: str, project: str | None, verdict: str) -> list[str]:
    """Mark each scope of the call that reached its cap, with ``verdict`` as the reason; the keys marked."""
    marked: list[str] = []
    try:
        with closing(sqlite3.connect(f"file:{_uri(path)}?mode=ro", uri=True, timeout=1)) as db:
            first = db.execute(SESSION_PROJECT, (session,)).fetchone()
            project = str(first[0]) if first and first[0] else project
            scopes = [Scope("session", session), Scope("global")] + ([Scope("project", project)] if project else [])
            for scope in scopes:
                limits = limits_of(db, scope)
                if not limits.empty and reached(limits, totals_of(db, scope)):
                    marked.append(scope.key)
    except (sqlite3.Error, OSError, ValueError, ArithmeticError):
        return []  # a mark is a second line of defence: the deny stands without it
    return [key for key in marked if sidecar.mark(side, key, verdict)]
