"""The ledger in one PostgreSQL database for a fleet of machines, on psycopg 3 (``boundread[postgres]``).

The logic is ``sqlbase.SqlLedger``'s, the same as SQLite's; this module brings the connection and what keeps
many machines exact: increments are ``UPDATE ... SET x = x + ?`` (atomic per row), a tool call's decision
holds its scopes' ``limits`` rows (``FOR UPDATE``) so two machines never both take the last allowed call,
and ingest and reset take one advisory lock (their dedup reads then writes). Each change is one transaction:
a connection dropped before COMMIT leaves nothing behind, and the next ingest reads the same bytes again.
psycopg is imported only here, when a URL is configured; guard-check does not import it (see pghook.py).

pgbouncer in transaction mode hands each transaction to any server connection: nothing here is prepared on the
server (``prepare_threshold=None``) and every setting is ``SET LOCAL`` inside the transaction it bounds, so no
statement name or ``statement_timeout`` outlives it. No statement waits more than ``STATEMENT_MS``: the server's
own timeouts end lock waits, and a watch (``_Watch``) shuts the socket of a server that stops answering (no
timeout of libpq's notices a peer that acknowledges and says nothing); a long transaction (an ingest) is fine.
A COMMIT whose answer never came is ``LedgerBusy(ambiguous=True)``: the write is done again on a new connection,
and its keys make it count once.

SQLite's sidecar (``budget.limits.json``) notices a ledger file that was lost or replaced; a database is
not lost that way (its server, backups and roles are the operator's), and another machine may legitimately
reset a limit, so there is no such check here and ``budget recover`` does not apply. What stays is a local
copy of the limits last seen (``pgschema.CACHE``): when the server is down, guard-check denies the calls of
the scopes listed there, as it does for a damaged SQLite ledger, and allows the others with a warning.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any, TypeVar

from boundread.budget import sidecar
from boundread.budget.errors import LedgerBusy, LedgerError
from boundread.budget.ledgerurl import mask, problem, redact
from boundread.budget.pgschema import (
    CACHE,
    COMMAND_S,
    CONNECT_S,
    LIMITS_LOCK,
    LOCK_SCOPES,
    MIGRATE_LOCK,
    MIGRATIONS,
    STATEMENT_MS,
    USAGE_LOCK,
    VERSION,
    VERSION_TABLE,
)
from boundread.budget.rows import limits_json, state_dir
from boundread.budget.schema import COUNT_CALL_PG, CURRENT_VERSION, clean_params
from boundread.budget.sqlbase import SqlLedger

if TYPE_CHECKING:
    import psycopg

_T = TypeVar("_T")
# SQLSTATEs of a passing failure: serialization, deadlock, lock_timeout, statement_timeout, too many connections
PASSING = ("40001", "40P01", "55P03", "57014", "53300")
FULL = ("too many clients", "remaining connection slots", "too many connections")
# idle_in_transaction_session_timeout: a client that vanished mid-transaction (a network that stopped answering)
# must not keep its locks till the server's TCP keepalive notices, hours later: every other writer would wait
BEGIN = (f"BEGIN; SET LOCAL statement_timeout = {STATEMENT_MS}; SET LOCAL lock_timeout = {STATEMENT_MS};"
         f" SET LOCAL idle_in_transaction_session_timeout = {STATEMENT_MS // 2}")


def placeholders(sql: str) -> str:
    """SQLite's ``?`` as psycopg's ``%s`` (a literal ``%`` doubled); the shared SQL has no ``?`` in strings."""
    return sql.replace("%", "%%").replace("?", "%s")


class _Db:
    """A psycopg connection whose ``execute`` takes the shared SQL, each statement watched (``_Watch``)."""

    def __init__(self, conn: psycopg.Connection[Any], watch: _Watch) -> None:
        self.conn = conn
        self.watch = watch

    def execute(self, sql: str, params: Sequence[object] = ()) -> psycopg.Cursor[Any]:
        """Text parameters cleaned (``schema.clean``): PostgreSQL refuses NUL, which would stop ingest for good."""
        self.watch.arm(self.conn)
        try:
            return self.conn.execute(placeholders(sql), clean_params(tuple(params)))
        finally:
            self.watch.disarm()

    def script(self, sql: str) -> None:
        """Statements without parameters, sent as one simple query (one round trip)."""
        self.watch.arm(self.conn)
        try:
            self.conn.execute(sql)
        finally:
            self.watch.disarm()

    def close(self) -> None:
        self.conn.close()


class _Watch:
    """One thread per ledger that shuts the socket of a connection whose statement has waited ``STATEMENT_MS``:
    a server that stops answering is noticed within that, whatever a transaction's length (ingest's are long)."""

    def __init__(self) -> None:
        self.conn: Any = None
        self.deadline: float | None = None
        self.fired = threading.Event()
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None

    def arm(self, conn: Any) -> None:
        self.conn, self.deadline = conn, time.monotonic() + STATEMENT_MS / 1000
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, daemon=True)
            self.thread.start()

    def disarm(self) -> None:
        self.deadline = None

    def _run(self) -> None:
        while not self.stop.wait(0.1):
            deadline = self.deadline
            if deadline is not None and time.monotonic() > deadline:
                self.deadline = None
                _cut(self.conn, self.fired)


def driver() -> Any:
    try:
        import psycopg
    except ImportError:
        raise LedgerError(
            "BOUNDREAD_LEDGER_URL names a PostgreSQL ledger, but psycopg is not installed",
            "pip install 'boundread[postgres]', or unset BOUNDREAD_LEDGER_URL for the local SQLite ledger",
        ) from None
    return psycopg


def cache_path() -> str:
    return str(state_dir() / CACHE)


class PostgresLedger(SqlLedger):
    """The ledger in the PostgreSQL database at ``url``; its tables are created on first use."""

    GREATEST = "GREATEST"
    COUNT_CALL = COUNT_CALL_PG
    SESSION_ORDER = "seq"
    RETRY_S = CALL_RETRY_S = STATEMENT_MS / 1000
    _db: _Db

    def __init__(self, url: str, *, connect_timeout: float = CONNECT_S) -> None:
        self.url = url
        self.where = redact(url)
        wrong = problem(url)
        if wrong:
            what, _, fix = wrong.partition(" - ")
            raise LedgerError(what, fix)
        self._pg = driver()
        self._watch = _Watch()
        self._connect_timeout = max(1, round(connect_timeout))
        self._db = self._connect()
        try:
            self._migrate()
            self._refresh_cache()
        except LedgerError:
            self.close()
            raise

    def __enter__(self) -> PostgresLedger:
        return self

    def _connect(self) -> _Db:
        """A connection; a server out of connections is asked again (others end in milliseconds) for a while."""
        give_up, pause = time.monotonic() + COMMAND_S - 2 * CONNECT_S, 0.05
        while True:
            try:
                # UTF-8 whatever the database's encoding, as pghook's libpq connection; nothing prepared (pgbouncer)
                conn = self._pg.connect(self.url, autocommit=True, prepare_threshold=None, client_encoding="UTF8",
                                        connect_timeout=self._connect_timeout, keepalives=1,
                                        keepalives_idle=COMMAND_S // 2, keepalives_interval=1, keepalives_count=3,
                                        tcp_user_timeout=COMMAND_S * 1000)
                return _Db(conn, self._watch)
            except self._pg.Error as exc:
                full = any(word in str(exc) for word in FULL)
                if full and time.monotonic() + pause < give_up:
                    time.sleep(pause)
                    pause = min(pause * 2, 0.5)
                    continue
                error = pg_error(self.where, exc, self.url)
                raise (LedgerBusy(error.what, error.fix) if full else error) from None  # full: doubt, not "down"

    def close(self) -> None:
        self._watch.stop.set()
        self._db.close()

    def _reconnect(self) -> None:
        if self._db.conn.closed or self._db.conn.broken:
            with suppress(Exception):
                self._db.close()
            self._db = self._connect()

    def backend_pid(self) -> int:
        """The server process of this connection (tests end it to drop the connection mid-transaction)."""
        return int(self._db.conn.info.backend_pid)

    @contextmanager
    def _bounded(self) -> Iterator[threading.Event]:
        """One operation; ``fired`` tells that the watch cut a statement that waited too long (psycopg then fails)."""
        if self._db.conn.closed or self._db.conn.broken:
            self._reconnect()
        self._watch.fired.clear()
        yield self._watch.fired

    @contextmanager
    def _tx(self) -> Iterator[_Db]:
        with self._bounded() as fired:
            db, committing = self._db, False
            try:
                db.script(BEGIN)  # no parameters: one simple query, one round trip
                yield db
                committing = True
                db.script("COMMIT")
            except self._pg.Error as exc:
                if not committing:
                    self._rollback()
                raise self._failure(exc, fired, ambiguous=committing) from None
            except BaseException:
                self._rollback()
                raise

    def _rollback(self) -> None:
        with suppress(Exception):
            if not self._db.conn.closed and self._db.conn.info.transaction_status != 0:  # not IDLE
                self._db.execute("ROLLBACK")

    def _guarded(self, read: Callable[[], _T]) -> _T:
        with self._bounded() as fired:
            try:
                return read()
            except self._pg.Error as exc:
                raise self._failure(exc, fired, ambiguous=False) from None

    def _failure(self, exc: BaseException, fired: threading.Event, *, ambiguous: bool) -> LedgerError:
        """The one line for ``exc``; ``LedgerBusy`` when the same write may simply be done again."""
        text = mask((str(exc).strip().splitlines() or [type(exc).__name__])[0].strip(), self.url)
        if fired.is_set():
            return LedgerBusy(f"the budget ledger {self.where} did not answer within {STATEMENT_MS // 1000}s",
                              "check the server and the network to it, then retry", ambiguous=ambiguous)
        if ambiguous and isinstance(exc, self._pg.OperationalError):
            return LedgerBusy(f"the budget ledger {self.where} did not confirm the write ({text})",
                              "retry: the same write counts once", ambiguous=True)
        if getattr(exc, "sqlstate", None) in PASSING:
            return LedgerBusy(f"the budget ledger {self.where} is busy ({text})",
                              "another machine holds a lock, or the server is overloaded; retry")
        return pg_error(self.where, exc, self.url)

    def _lock(self, db: Any, what: str, keys: Sequence[str] = ()) -> None:
        if what == "limits" and keys:
            db.execute(LOCK_SCOPES.format(marks=",".join("?" * len(keys))), tuple(sorted(keys))).fetchall()
        else:
            db.execute("SELECT pg_advisory_xact_lock(?)", (USAGE_LOCK if what == "usage" else LIMITS_LOCK,))

    def _version(self) -> int:
        with self._bounded() as fired:
            try:
                row = self._db.execute(VERSION).fetchone()
            except self._pg.errors.UndefinedTable:
                return 0
            except self._pg.Error as exc:
                raise self._failure(exc, fired, ambiguous=False) from None
        return int(row[0]) if row else 0

    def _migrate(self) -> None:
        version = self._version()
        if version == CURRENT_VERSION:
            return
        if version > CURRENT_VERSION:
            raise LedgerError(
                f"the budget ledger {self.where} has schema v{version}, newer than this boundread",
                "upgrade boundread on every machine of the fleet, or point BOUNDREAD_LEDGER_URL elsewhere",
            )
        with self._tx() as db:
            db.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATE_LOCK,))  # one machine migrates, the rest wait
            db.execute(VERSION_TABLE)
            row = db.execute(VERSION).fetchone()
            if row is None:
                db.execute("INSERT INTO boundread_schema(version) VALUES (0)")
            for target in range((int(row[0]) if row else 0) + 1, CURRENT_VERSION + 1):
                for statement in MIGRATIONS[target - 1]:
                    db.execute(statement)
                db.execute("UPDATE boundread_schema SET version = ?", (target,))

    def _refresh_cache(self) -> None:
        """Write the local copy of the limits (for guard-check when the server is down); a cache: best effort."""
        held = {key: limits_json(lim) for key, lim in self.all_limits().items()}
        path = cache_path()
        with suppress(OSError, ValueError):
            if sidecar.read(path) == held:
                return
        with suppress(OSError):
            state_dir().mkdir(parents=True, exist_ok=True)
            sidecar.write(path, held)

    def _after_limits_change(self) -> None:
        self._refresh_cache()


def pg_error(where: str, exc: BaseException, url: str) -> LedgerError:
    """One line for a psycopg error: the server's first line, never the URL or its password (``mask``)."""
    text = mask((str(exc).strip().splitlines() or [type(exc).__name__])[0].strip(), url)
    name = type(exc).__name__
    if name == "ProgrammingError":  # psycopg's word for a URL it cannot parse (a bad %-escape, an unknown option)
        return LedgerError(f"the budget ledger URL {where} cannot be used ({text})",
                           "fix BOUNDREAD_LEDGER_URL: percent-encode a %, @, : or / in the password as %25, %40,"
                           " %3A, %2F")
    if name in ("QueryCanceled", "LockNotAvailable"):
        return LedgerBusy(f"the budget ledger {where} did not answer within {STATEMENT_MS // 1000}s ({text})",
                          "another machine holds a lock, or the server is overloaded; retry")
    if name in ("OperationalError", "ConnectionTimeout") or "connection" in text:
        return LedgerError(f"cannot reach the budget ledger {where} ({text})",
                           "check BOUNDREAD_LEDGER_URL, that the server is up and the password")
    if getattr(exc, "sqlstate", None) == "42501":  # insufficient_privilege
        return LedgerError(f"the budget ledger {where} refused it ({text})", "grant the role CREATE on first use, then"
                           " SELECT/INSERT/UPDATE/DELETE on the boundread tables")
    return LedgerError(f"the budget ledger {where} failed ({text})",
                       "check the server's log for this error, then retry")


def _cut(conn: Any, fired: threading.Event) -> None:
    """Shut the connection's socket (through a duplicate of its descriptor): psycopg's wait ends with an error."""
    fired.set()
    with suppress(Exception):
        dup = socket.socket(fileno=os.dup(conn.fileno()))
        try:
            dup.shutdown(socket.SHUT_RDWR)
        finally:
            dup.close()
