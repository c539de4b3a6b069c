"""guard-check's budget check on the PostgreSQL ledger: libpq through ctypes, without psycopg.

``import psycopg`` costs 100-130 ms (its adapters, typing, the pq wrapper), about 13x ``python -c pass``, on
every tool call; ``psycopg.pq`` alone still imports the package. ``ctypes`` and ``libpq.so.5`` (``libpq5``,
which psycopg's pure-Python build needs anyway) cost ~3 ms; the rest is the connection and three round trips:
the version and the limits, then BEGIN + lock + everything the decision reads, then the record + COMMIT. Under
the scopes' row lock there are two round trips and no import (issue 18: 64 hooks at once queued behind a lock
held for ten round trips and the policy's imports). The statements go as one simple-query string each time,
their values quoted by libpq (``PQescapeLiteral``); nothing is prepared and every setting is ``SET LOCAL``, so
pgbouncer in transaction mode carries it. The SQL, ``policy.decide`` and the integer pre-check are
hookpath.py's, the same as for SQLite. A libpq that cannot be loaded (a psycopg binary wheel brings its own) or
a schema to create or migrate raises ``NeedsLedger``: enforce then goes through ``PostgresLedger``.

Every wait ends ``ANSWER_S`` after the check began (a server that stops answering, a lock held elsewhere, a
server out of connections, which is retried until then): ``Unusable`` with one line, and enforce applies the error
policy over the limits last seen (``CACHE``). A COMMIT whose answer never came may have landed: the call's row is
looked up again by its id on a new connection, and its answer is the one recorded; only when that cannot be known
in time is the call denied (its scopes have limits).
"""

from __future__ import annotations

import ctypes  # ~3 ms; psycopg: ~120 ms
import os
import select
import sys
import time

from boundread.budget.hookrules import (
    NeedsLedger,
    Preload,
    Unusable,
    decide_and_record,
    hint_reads,
    limits_set,
    may_trip_soon,
    new_call_id,
    own_project,
    preload,
    scopes_of,
)
from boundread.budget.libpq import Missing, load
from boundread.budget.pgschema import ANSWER_S, CONNECT_S, LOCK_SCOPES
from boundread.budget.schema import (
    CALL_BY_ID,
    COUNT_CALL_PG,
    CURRENT_VERSION,
    LIMIT_COLS,
    WITH_SESSION_PROJECT,
    clean,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from boundread.budget.connection import Connection

_INTS = (20, 21, 23)  # int8, int2, int4
_NUMERIC = 1700
_OK = (1, 2)  # PGRES_COMMAND_OK, PGRES_TUPLES_OK
UNDEFINED_TABLE, UNDEFINED_COLUMN = "42P01", "42703"
LOST, LATE = "08000", "57014"  # the connection failed; no answer by the deadline (both: the client's own verdict)
BUSY_SERVER = ("too many clients", "remaining connection slots", "too many connections", "starting up")
# the schema version as one more row of the limits query (scope '#<version>'): one round trip for both
VERSION_ROW = (f" UNION ALL SELECT '#' || version, {', '.join(['NULL'] * len(LIMIT_COLS.split(',')))}"
               " FROM boundread_schema")


class PgError(Exception):
    """``state``: the server's SQLSTATE, or ``LOST``/``LATE`` when the answer never came (``lost``)."""

    def __init__(self, text: str, state: str = "", *, lost: bool = False) -> None:
        super().__init__(text)
        self.state = state
        self.lost = lost


def libpq() -> Any:
    """libpq typed for ctypes (budget/libpq.py); ``NeedsLedger`` when it cannot be loaded: enforce then goes through
    ``PostgresLedger`` (psycopg)."""
    try:
        return load()
    except Missing as exc:
        raise NeedsLedger(str(exc)) from None


def _strings(values: list[bytes | None]) -> Any:
    return (ctypes.c_char_p * len(values))(*values)


class Rows:
    def __init__(self, rows: list[tuple[object, ...]]) -> None:
        self.rows = rows

    def fetchone(self) -> tuple[object, ...] | None:
        return self.rows[0] if self.rows else None

    def fetchall(self) -> list[tuple[object, ...]]:
        return self.rows

    def __iter__(self) -> Iterator[tuple[object, ...]]:
        return iter(self.rows)


class Conn:
    """One libpq connection whose ``execute`` takes the shared SQL (``?`` placeholders) and gives typed rows: the
    ledger's connection protocol (budget/connection.py), plus ``script`` and ``batch`` (one round trip for many).

    ``deadline`` (``time.monotonic``): every answer is waited for until then, and no longer."""

    def __init__(self, lib: Any, url: str, timeout: int = CONNECT_S, deadline: float | None = None) -> None:
        self.lib = lib
        self.deadline = time.monotonic() + ANSWER_S if deadline is None else deadline
        # the URL's own connect_timeout wins (later keywords override earlier ones); client_encoding comes after
        # it: the text below is UTF-8 whatever the database's encoding, as psycopg's (postgres.py)
        keys = _strings([b"connect_timeout", b"dbname", b"client_encoding", None])
        values = _strings([str(timeout).encode(), url.encode("utf-8", "surrogateescape"), b"UTF8", None])
        self.pg = lib.PQconnectdbParams(keys, values, 1)
        if self.pg is None or lib.PQstatus(self.pg) != 0:
            text = lib.PQerrorMessage(self.pg) if self.pg else b"out of memory"
            self.close()
            raise PgError(_line(text), LOST, lost=True)

    def close(self) -> None:
        if self.pg:
            self.lib.PQfinish(self.pg)
            self.pg = None

    def script(self, sql: str) -> Rows:
        """Several statements in one round trip (no parameters); the last one's rows."""
        return self._answer(self.lib.PQsendQuery(self.pg, sql.encode()))[-1]

    def batch(self, statements: list[tuple[str, tuple[object, ...]]]) -> list[list[tuple[object, ...]]]:
        """Statements of the shared SQL, their values quoted by libpq, in one round trip; each one's rows."""
        text = "; ".join(self._inline(sql, params) for sql, params in statements)
        return [rows.rows for rows in self._answer(self.lib.PQsendQuery(self.pg, text.encode()))]

    def _inline(self, sql: str, params: tuple[object, ...]) -> str:
        parts = sql.split("?")  # the shared SQL has no ? inside its own literals
        return parts[0] + "".join(self._literal(v) + part for v, part in zip(params, parts[1:], strict=True))

    def _literal(self, value: object) -> str:
        if value is None:
            return "NULL"
        if isinstance(value, (bool, int)):
            return str(int(value))
        raw = clean(str(value)).encode()
        quoted = self.lib.PQescapeLiteral(self.pg, raw, len(raw))
        if not quoted:
            raise PgError(_line(self.lib.PQerrorMessage(self.pg)), LOST, lost=True)
        try:
            return ctypes.string_at(quoted).decode()
        finally:
            self.lib.PQfreemem(quoted)

    def execute(self, sql: str, params: Any = ()) -> Rows:
        parts = sql.split("?")
        text = parts[0] + "".join(f"${n}{part}" for n, part in enumerate(parts[1:], 1))
        # text as every store keeps it: c_char_p would cut a NUL's id short, so the same id would not be one key
        values = [None if v is None else clean(str(int(v) if isinstance(v, bool) else v)).encode() for v in params]
        array = _strings(values) if values else None
        sent = self.lib.PQsendQueryParams(self.pg, text.encode(), len(values), None, array, None, None, 0)
        return self._answer(sent)[-1]

    def _answer(self, sent: int) -> list[Rows]:
        """Each statement's rows; the first error raises. Waits at most until the deadline in all: a server that stops
        answering mid-call must not hang the hook (``statement_timeout`` ends lock waits, but a frozen server enforces
        nothing). The wait comes before every ``PQgetResult``: each result of a script, and the ready message, may be
        late."""
        lib = self.lib
        if not sent:
            raise PgError(_line(lib.PQerrorMessage(self.pg)), LOST, lost=True)
        results: list[Rows] = []
        error: PgError | None = None
        while True:
            self._wait()
            res = lib.PQgetResult(self.pg)  # each statement's result, then NULL; the first error wins
            if not res:
                break
            if error is None:
                try:
                    results.append(self._result(res))
                except PgError as exc:
                    error = exc
            else:
                lib.PQclear(res)
        if error is not None:
            raise error
        if not results:
            raise PgError(_line(lib.PQerrorMessage(self.pg)), LOST, lost=True)
        return results

    def _wait(self) -> None:
        """Until ``PQgetResult`` would not block, or ``PgError`` at the deadline."""
        lib = self.lib
        sock = lib.PQsocket(self.pg)
        while True:
            if not lib.PQconsumeInput(self.pg):
                raise PgError(_line(lib.PQerrorMessage(self.pg)), LOST, lost=True)
            if not lib.PQisBusy(self.pg):
                return
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise PgError(f"no answer within {ANSWER_S:g} s", LATE, lost=True)
            select.select([sock], [], [], left)

    def _result(self, res: int) -> Rows:
        lib = self.lib
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
    url: str, cache: str, session: str, project: str | None, tool: str, tool_input: Any, depth: int,
    call_id: str | None = None,
) -> str | None:
    """Record the call when a limit applies to it and return the deny reason, or None to allow.

    ``call_id``: the payload's ``tool_use_id`` where it has one (else one drawn here): the call's row is found by it
    after a COMMIT whose answer was lost, and a retried hook gets the answer recorded, counted once."""
    from boundread.budget.digest import action_digest
    from boundread.budget.ledgerurl import mask, problem, redact

    deadline = time.monotonic() + ANSWER_S
    wrong = problem(url)
    if wrong:
        raise Unusable(wrong, limited=False)
    lib = libpq()
    digest, call_id = action_digest(tool, tool_input), call_id or new_call_id()
    while True:
        db = _connect(lib, url, cache, deadline)
        try:
            return _once(db, url, cache, session, project, tool, digest, depth, call_id)
        except _Lost as lost:
            db.close()
            known = _reread(lib, url, deadline, session, call_id)
            if known is not None:
                return known[0]  # the COMMIT landed: the answer it recorded
            if deadline - time.monotonic() < CONNECT_S + 1:  # not recorded, and no time to decide again
                raise Unusable(f"the budget ledger {redact(url)} did not confirm the call ({mask(str(lost), url)})"
                               " - retry, or check the server") from None
        finally:
            db.close()


class _Lost(Exception):
    """The COMMIT was sent and its answer never came: the call may be recorded, or not."""


def _connect(lib: Any, url: str, cache: str, deadline: float) -> Conn:
    """A connection, tried again while the server is out of connections (``max_connections``: other hooks end in
    milliseconds) until little is left of the deadline. A server still full then is doubt, not "no budget": a machine
    that has never seen the fleet's limits (no ``cache``) denies, as it would for a listed scope."""
    from boundread.budget.ledgerurl import mask, redact

    pause = 0.05
    while True:
        try:
            return Conn(lib, url, CONNECT_S, deadline)
        except PgError as exc:
            full = any(word in str(exc) for word in BUSY_SERVER)
            if full and deadline - time.monotonic() > CONNECT_S + pause:
                time.sleep(pause)
                pause = min(pause * 2, 0.4)
                continue
            raise Unusable(f"cannot reach the budget ledger {redact(url)} ({mask(str(exc), url)}) - check"
                           " BOUNDREAD_LEDGER_URL, that the server is up and the password",
                           limited=full and not os.path.exists(cache)) from None  # noqa: PTH110


def _once(
    db: Conn, url: str, cache: str, session: str, project: str | None, tool: str, digest: str, depth: int,
    call_id: str,
) -> str | None:
    from boundread.budget.ledgerurl import mask, redact

    scopes, keys, select = scopes_of(session, project)
    limited = False
    try:
        try:  # bounded on the server too; RESET: nothing stays on a connection pgbouncer hands to others
            first_trip = db.batch([(f"SET statement_timeout = {_ms_left(db)}", ()),
                                   (select + WITH_SESSION_PROJECT + VERSION_ROW, (*keys, session, session)),
                                   *hint_reads(session, scopes), ("RESET statement_timeout", ())])
            read, hint = first_trip[1], first_trip[2:-1]
        except PgError as exc:
            if exc.state not in (UNDEFINED_TABLE, UNDEFINED_COLUMN):  # late or failing: psycopg would wait again
                raise
            raise NeedsLedger(str(exc)) from None  # no tables yet, or older ones: PostgresLedger migrates
        version = next((str(row[0])[1:] for row in read if str(row[0]).startswith("#")), None)
        if version != str(CURRENT_VERSION):
            raise NeedsLedger("the schema needs a migration")
        first, found, settled = own_project([row for row in read if not str(row[0]).startswith("#")], project)
        if first != project:
            project = first
            scopes, keys, select = scopes_of(session, project)
            hint = []  # read for another project: Preload decides
        if not found:
            return None  # no limit applies: nothing to record (as SqlLedger.record_call)
        limited = True
        _remember(db, cache, [str(row[0]) for row in found if limits_set(row[1:])])
        if hint and "boundread.budget.policy" not in sys.modules and may_trip_soon(hint, found, scopes, keys, tool,
                                                                                   digest, depth):
            preload()  # before the lock, not under it
        return _decide_and_commit(db, found, scopes, keys, session, project, tool, digest, depth, call_id, settled)
    except PgError as exc:  # closing without COMMIT rolls back: nothing of this call is left
        what = "did not answer in time" if exc.state == LATE else "failed"
        raise Unusable(f"the budget ledger {redact(url)} {what} ({mask(str(exc), url)}) - retry, or check the server",
                       limited=limited) from None


def _decide_and_commit(
    db: Conn, found: list[Any], scopes: list[tuple[str, str]], keys: tuple[str, ...], session: str,
    project: str | None, tool: str, digest: str, depth: int, call_id: str, settled: bool,
) -> str | None:
    """BEGIN, then two round trips under the scopes' row lock: lock + reads, decision, record + COMMIT."""
    db.script("BEGIN")
    while True:
        try:
            verdict, writes = decide_and_record(_first_sets(db), found, scopes, keys, session, project, tool, digest,
                                                depth, call_id, COUNT_CALL_PG, settled=settled, lock=LOCK_SCOPES)
        except Preload:  # imports outside the lock, then once more
            db.script("ROLLBACK")
            preload()
            db.script("BEGIN")
            continue
        try:
            db.batch([*writes, ("COMMIT", ())])
        except PgError as exc:
            if exc.lost:
                raise _Lost(str(exc)) from None
            raise
        return verdict


def _first_sets(db: Conn) -> Any:
    """``db.batch`` that opens the transaction's first batch with its time limits (``SET LOCAL``: they end with it)."""
    left = _ms_left(db)  # the server ends the transaction of a hook that vanished mid-way: its locks go with it
    local = [(f"SET LOCAL {name} = {left}", ()) for name in ("statement_timeout", "lock_timeout",
                                                               "idle_in_transaction_session_timeout")]

    def run(batch: list[tuple[str, tuple[object, ...]]]) -> list[list[tuple[object, ...]]]:
        lead = local[:]
        local.clear()
        return db.batch(lead + batch)[len(lead):]

    return run


def _reread(lib: Any, url: str, deadline: float, session: str, call_id: str) -> tuple[str | None] | None:
    """The answer recorded under ``call_id``, on a new connection; None when the call is not recorded. ``Unusable``
    when that cannot be known before the deadline: the call may have been counted, and is denied."""
    from boundread.budget.ledgerurl import mask, redact

    try:
        if deadline - time.monotonic() < CONNECT_S:
            raise PgError(f"no answer within {ANSWER_S:g} s", LATE, lost=True)
        db = Conn(lib, url, CONNECT_S, deadline)
        try:
            row = db.execute(CALL_BY_ID, (session, call_id)).fetchone()
        finally:
            db.close()
    except PgError as exc:
        raise Unusable(f"the budget ledger {redact(url)} did not confirm the call: its COMMIT went unanswered and"
                       f" the call is not found again ({mask(str(exc), url)}) - retry, or check the server") from None
    if row is None:
        return None
    return (None,) if row[0] else (str(row[1] or "denied before (the same call id)"),)


def _ms_left(db: Conn) -> int:
    return max(int((db.deadline - time.monotonic()) * 1000), 1)


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


if TYPE_CHECKING:
    def _a_connection(conn: Conn) -> Connection:
        """mypy checks the libpq connection against the protocol sqlite3's and psycopg's share (never called)."""
        return conn
