"""guard-check's budget check on the PostgreSQL ledger: libpq through ctypes, without psycopg.

``import psycopg`` costs 100-130 ms (its adapters, typing, the pq wrapper), about 13x ``python -c pass``, on
every tool call; ``psycopg.pq`` alone still imports the package. ``ctypes`` and ``libpq.so.5`` (``libpq5``,
which psycopg's pure-Python build needs anyway) cost ~3 ms; the rest is the connection and four round trips:
the version and the limits (one trip), then BEGIN + lock + record + COMMIT. The SQL, ``policy.decide`` and
the integer pre-check are hookpath.py's, the same as for SQLite. A libpq that cannot be loaded (a psycopg
binary wheel brings its own) or a schema to create or migrate raises ``NeedsLedger``: enforce then goes
through ``PostgresLedger``. A server that cannot be reached in ``CONNECT_S`` or fails mid-call raises
``Unusable`` with one line, and enforce applies the error policy over the limits last seen (``CACHE``).
"""

from __future__ import annotations

import ctypes  # ~3 ms; psycopg: ~120 ms
import os
import select
import time

from boundread.budget.hookpath import NeedsLedger, Unusable, _record, _set, own_project, scopes_of
from boundread.budget.pgschema import ANSWER_S, CONNECT_S, LOCK_SCOPES, STATEMENT_MS, VERSION
from boundread.budget.schema import COUNT_CALL_PG, CURRENT_VERSION, LIMIT_COLS, WITH_SESSION_PROJECT, clean

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

LIBPQ = ("libpq.so.5", "libpq.5.dylib", "libpq.dll")
_INTS = (20, 21, 23)  # int8, int2, int4
_NUMERIC = 1700
_OK = (1, 2)  # PGRES_COMMAND_OK, PGRES_TUPLES_OK
UNDEFINED_TABLE = "42P01"


class PgError(Exception):
    def __init__(self, text: str, state: str = "") -> None:
        super().__init__(text)
        self.state = state


def _load() -> Any:
    for name in LIBPQ:
        try:
            lib = ctypes.CDLL(name)
            break
        except OSError:
            continue
    else:
        raise NeedsLedger("no libpq for ctypes")
    p, c, i = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
    for fn, res, args in (
        ("PQconnectdbParams", p, [ctypes.POINTER(c), ctypes.POINTER(c), i]),
        ("PQstatus", i, [p]), ("PQerrorMessage", c, [p]), ("PQfinish", None, [p]),
        ("PQsendQuery", i, [p, c]),
        ("PQsendQueryParams", i, [p, c, i, p, ctypes.POINTER(c), p, p, i]),
        ("PQsocket", i, [p]), ("PQconsumeInput", i, [p]), ("PQisBusy", i, [p]), ("PQgetResult", p, [p]),
        ("PQresultStatus", i, [p]), ("PQresultErrorMessage", c, [p]), ("PQresultErrorField", c, [p, i]),
        ("PQntuples", i, [p]), ("PQnfields", i, [p]), ("PQgetvalue", c, [p, i, i]),
        ("PQgetisnull", i, [p, i, i]), ("PQftype", ctypes.c_uint, [p, i]), ("PQclear", None, [p]),
    ):
        f = getattr(lib, fn)
        f.restype, f.argtypes = res, args
    return lib


def _strings(values: list[bytes | None]) -> Any:
    return (ctypes.c_char_p * len(values))(*values)


class Rows:
    def __init__(self, rows: list[tuple[object, ...]]) -> None:
        self.rows = rows

    def fetchone(self) -> tuple[object, ...] | None:
        return self.rows[0] if self.rows else None

    def fetchall(self) -> list[tuple[object, ...]]:
        return self.rows

    def __iter__(self) -> Any:
        return iter(self.rows)


class Conn:
    """One libpq connection whose ``execute`` takes the shared SQL (``?`` placeholders) and gives typed rows."""

    def __init__(self, lib: Any, url: str, timeout: int = CONNECT_S) -> None:
        self.lib = lib
        # the URL's own connect_timeout wins (later keywords override earlier ones); client_encoding comes after
        # it: the text below is UTF-8 whatever the database's encoding, as psycopg's (postgres.py)
        keys = _strings([b"connect_timeout", b"dbname", b"client_encoding", None])
        values = _strings([str(timeout).encode(), url.encode("utf-8", "surrogateescape"), b"UTF8", None])
        self.pg = lib.PQconnectdbParams(keys, values, 1)
        if self.pg is None or lib.PQstatus(self.pg) != 0:
            text = lib.PQerrorMessage(self.pg) if self.pg else b"out of memory"
            self.close()
            raise PgError(_line(text), "08000")

    def close(self) -> None:
        if self.pg:
            self.lib.PQfinish(self.pg)
            self.pg = None

    def script(self, sql: str) -> Rows:
        """Several statements in one round trip (no parameters); the last one's rows."""
        return self._answer(self.lib.PQsendQuery(self.pg, sql.encode()))

    def execute(self, sql: str, params: Any = ()) -> Rows:
        parts = sql.split("?")
        text = parts[0] + "".join(f"${n}{part}" for n, part in enumerate(parts[1:], 1))
        # text as every store keeps it: c_char_p would cut a NUL's id short, so the same id would not be one key
        values = [None if v is None else clean(str(int(v) if isinstance(v, bool) else v)).encode() for v in params]
        array = _strings(values) if values else None
        sent = self.lib.PQsendQueryParams(self.pg, text.encode(), len(values), None, array, None, None, 0)
        return self._answer(sent)

    def _answer(self, sent: int) -> Rows:
        """Wait for the answer at most ``ANSWER_S`` in all: a server that stops answering mid-call must not hang the
        hook (``statement_timeout`` ends lock waits, but a frozen server enforces nothing). The wait comes before
        every ``PQgetResult``: each statement of a script, and the final ready message, may be late."""
        lib = self.lib
        if not sent:
            raise PgError(_line(lib.PQerrorMessage(self.pg)), "08000")
        deadline = time.monotonic() + ANSWER_S
        chosen = None
        try:
            while True:
                self._wait(deadline)
                res = lib.PQgetResult(self.pg)  # each statement's result, then NULL; the first error wins
                if not res:
                    break
                if chosen is None or lib.PQresultStatus(chosen) in _OK:
                    if chosen is not None:
                        lib.PQclear(chosen)
                    chosen = res
                else:
                    lib.PQclear(res)
        except PgError:
            if chosen is not None:
                lib.PQclear(chosen)
            raise
        return self._result(chosen)

    def _wait(self, deadline: float) -> None:
        """Until ``PQgetResult`` would not block, or ``PgError`` at ``deadline``."""
        lib = self.lib
        sock = lib.PQsocket(self.pg)
        while True:
            if not lib.PQconsumeInput(self.pg):
                raise PgError(_line(lib.PQerrorMessage(self.pg)), "08000")
            if not lib.PQisBusy(self.pg):
                return
            left = deadline - time.monotonic()
            if left <= 0:
                raise PgError(f"no answer within {ANSWER_S:g} s", "57014")
            select.select([sock], [], [], left)

    def _result(self, res: int | None) -> Rows:
        lib = self.lib
        if not res:
            raise PgError(_line(lib.PQerrorMessage(self.pg)), "08000")
        try:
            if lib.PQresultStatus(res) not in _OK:
                state = lib.PQresultErrorField(res, ord("C")) or b""
                raise PgError(_line(lib.PQresultErrorMessage(res) or lib.PQerrorMessage(self.pg)), state.decode())
            width = lib.PQnfields(res)
            kinds = [lib.PQftype(res, c) for c in range(width)]
            rows = []
            for r in range(lib.PQntuples(res)):
                row: list[object] = []
                for c in range(width):
                    if lib.PQgetisnull(res, r, c):
                        row.append(None)
                        continue
                    raw = lib.PQgetvalue(res, r, c).decode()
                    row.append(int(raw) if kinds[c] in _INTS or (kinds[c] == _NUMERIC and raw.isdigit()) else raw)
                rows.append(tuple(row))
            return Rows(rows)
        finally:
            lib.PQclear(res)


def _line(text: bytes | None) -> str:
    lines = [ln.strip() for ln in (text or b"").decode(errors="replace").splitlines() if ln.strip()]
    return lines[0] if lines else "no answer"


def check(
    url: str, cache: str, session: str, project: str | None, tool: str, tool_input: Any, depth: int
) -> str | None:
    """Record the call when a limit applies to it and return the deny reason, or None to allow."""
    from boundread.budget.digest import action_digest
    from boundread.budget.ledgerurl import mask, problem, redact

    scopes, keys, select = scopes_of(session, project)
    wrong = problem(url)
    if wrong:
        raise Unusable(wrong, limited=False)
    lib = _load()
    limited = False
    try:
        db = Conn(lib, url)
    except PgError as exc:
        raise Unusable(f"cannot reach the budget ledger {redact(url)} ({mask(str(exc), url)}) - check"
                       " BOUNDREAD_LEDGER_URL, that the server is up and the password", limited=False) from None
    try:
        try:
            version = db.script(f"SET statement_timeout = {STATEMENT_MS}; {VERSION}").fetchone()
        except PgError as exc:
            if exc.state != UNDEFINED_TABLE:  # late or failing: no hand-over to psycopg, which would wait again
                raise
            raise NeedsLedger(str(exc)) from None  # no tables yet: PostgresLedger creates them
        if version is None or version[0] != CURRENT_VERSION:
            raise NeedsLedger("the schema needs a migration")
        first, found, settled = own_project(db.execute(select + WITH_SESSION_PROJECT, (*keys, session, session)).rows,
                                            project)
        if first != project:
            project = first
            scopes, keys, select = scopes_of(session, project)
        if not found:
            return None  # no limit applies: nothing to record (as SqlLedger.record_call)
        limited = True
        _remember(db, cache, [str(row[0]) for row in found if _set(row[1:])])
        db.script("BEGIN")
        db.execute(LOCK_SCOPES.format(marks=",".join("?" * len(keys))), tuple(sorted(keys)))
        verdict = _record(db, select, scopes, keys, session, project, tool, action_digest(tool, tool_input), depth,
                          count_call=COUNT_CALL_PG, settled=settled, lock=LOCK_SCOPES)
        db.script("COMMIT")
        return verdict
    except PgError as exc:  # closing without COMMIT rolls back: nothing of this call is left
        what = "did not answer in time" if exc.state == "57014" else "failed"
        raise Unusable(f"the budget ledger {redact(url)} {what} ({mask(str(exc), url)}) - retry, or check the server",
                       limited=limited) from None
    finally:
        db.close()


def _remember(db: Conn, cache: str, found: list[str]) -> None:
    """Keep the local copy of the limits (for when the server is down) up to date with scopes first seen now."""
    from boundread.budget.sidecar import has_scope

    if all(has_scope(cache, [key]) for key in found):  # found: the scopes with limits (the cache omits the empty)
        return
    from boundread.budget import sidecar
    from boundread.budget.rows import limits_from_row, limits_json

    rows = db.execute(f"SELECT scope, {LIMIT_COLS} FROM limits").rows
    held = {str(r[0]): limits_json(lim) for r in rows if not (lim := limits_from_row(r[1:])).empty}
    try:
        os.makedirs(os.path.dirname(cache), exist_ok=True)  # noqa: PTH103, PTH120
        sidecar.write(cache, held)
    except OSError:
        pass  # a cache: the next call tries again
