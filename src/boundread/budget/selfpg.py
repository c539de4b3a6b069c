"""Whether a session has a budget, asked of the PostgreSQL server, for the self-cap check (budget/selfcap.py).

On the SQLite ledger the sidecar beside it lists every scope with a limit, so "has this session a budget?" is a
file read. On PostgreSQL the local file (``budget.postgres.limits.json``) is only a cache of the scopes this
machine has met in a call: it is missing before the first one, and a session whose limit was set since is not in
it. So where the cache says no, and only for a call the judge would refuse, the server is asked - one
connection and one query, the same libpq path as the budget check (pghook.py). A server that cannot be asked in
time is doubt: the session is taken as having a budget, and the call is refused (the user runs it in their own
terminal).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def has_budget(url: str, keys: Sequence[str]) -> bool:
    """Whether the server's ``limits`` table sets a limit on any of ``keys`` (scope keys); True when unsure."""
    import time

    from boundread.budget.hookrules import NeedsLedger, limits_set
    from boundread.budget.pghook import UNDEFINED_TABLE, Conn, PgError, libpq
    from boundread.budget.pgschema import CONNECT_S
    from boundread.budget.schema import LIMIT_COLS

    if not keys:
        return False
    try:
        db = Conn(libpq(), url, CONNECT_S, time.monotonic() + 2 * CONNECT_S)
    except (NeedsLedger, PgError, OSError):
        return True
    try:
        rows = db.execute(f"SELECT scope, {LIMIT_COLS} FROM limits WHERE scope IN ({','.join('?' * len(keys))})",
                          tuple(keys)).rows
    except PgError as exc:  # no table yet is no budget yet; anything else is doubt
        return exc.state != UNDEFINED_TABLE
    finally:
        db.close()
    return any(limits_set(row[1:]) for row in rows)
