"""``--sql``: one read-only statement, checked before it runs and bounded while it runs.

Three locks, any one enough: the file opened ``mode=ro`` (or immutable), ``PRAGMA query_only``, and an authorizer
that allows only reading (SELECT, reading columns, functions other than ``load_extension``/``readfile``/
``writefile``, recursive CTEs): no ATTACH, no PRAGMA, no write. The statement runs inside
``SELECT ... FROM (STATEMENT) LIMIT n OFFSET m`` so its rows come back bounded and its cells cut in SQL.
"""

from __future__ import annotations

import sqlite3

from boundread.errors import UsageError

_ALLOWED = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, sqlite3.SQLITE_RECURSIVE}
_DENIED_FUNCTIONS = frozenset({"load_extension", "readfile", "writefile", "edit", "fts3_tokenizer"})
_ACTIONS = ("CREATE_INDEX", "CREATE_TABLE", "CREATE_TEMP_INDEX", "CREATE_TEMP_TABLE", "CREATE_TEMP_TRIGGER",
            "CREATE_TEMP_VIEW", "CREATE_TRIGGER", "CREATE_VIEW", "DELETE", "DROP_INDEX", "DROP_TABLE",
            "DROP_TEMP_INDEX", "DROP_TEMP_TABLE", "DROP_TEMP_TRIGGER", "DROP_TEMP_VIEW", "DROP_TRIGGER", "DROP_VIEW",
            "INSERT", "PRAGMA", "READ", "SELECT", "TRANSACTION", "UPDATE", "ATTACH", "DETACH", "ALTER_TABLE",
            "REINDEX", "ANALYZE", "CREATE_VTABLE", "DROP_VTABLE", "FUNCTION", "SAVEPOINT", "RECURSIVE")
_NAMES = {getattr(sqlite3, "SQLITE_" + n): n.lower().replace("_", " ") for n in _ACTIONS
          if hasattr(sqlite3, "SQLITE_" + n)}
FIX = "--sql reads only: one SELECT (or WITH ... SELECT), e.g. --sql 'SELECT * FROM t WHERE x > 1'"


class Guard:
    """The authorizer: remembers the first thing it denied, for the message."""

    def __init__(self) -> None:
        self.denied: str | None = None

    def __call__(self, action: int, arg1: str | None, arg2: str | None, _db: str | None,
                 _trigger: str | None) -> int:
        if action in _ALLOWED and not (action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower()
                                       in _DENIED_FUNCTIONS):
            return sqlite3.SQLITE_OK
        if self.denied is None:
            what = _NAMES.get(action, f"action {action}")
            self.denied = f"{what} {arg2 or arg1 or ''}".strip() if action == sqlite3.SQLITE_FUNCTION \
                else f"{what} {arg1 or ''}".strip()
        return sqlite3.SQLITE_DENY


def statement(sql: str) -> str:
    """The statement without its trailing semicolons and blanks; a usage error when it is empty."""
    text = sql.strip()
    while text.endswith(";"):
        text = text[:-1].rstrip()
    if not text:
        raise UsageError("--sql is empty", FIX)
    return text


def check(conn: sqlite3.Connection, sql: str) -> list[str]:
    """Install the authorizer and prepare the statement (nothing runs); its result columns' names. A usage error
    for a write, a PRAGMA, an ATTACH, two statements or a syntax error."""
    guard = Guard()
    conn.set_authorizer(guard)
    try:
        conn.execute("EXPLAIN " + sql).fetchone()
        described = conn.execute(f"SELECT * FROM ({sql}) LIMIT 0").description
    except sqlite3.ProgrammingError as exc:  # "You can only execute one statement at a time."
        raise UsageError(f"--sql: {exc}", FIX) from None
    except sqlite3.DatabaseError as exc:
        if guard.denied is not None:
            raise UsageError(f"--sql may only read: {guard.denied} is not allowed", FIX) from None
        raise UsageError(f"--sql: {exc}", FIX) from None
    return [str(d[0]) for d in described or ()]
