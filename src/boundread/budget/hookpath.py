"""The budget check on the guard-check hot path: ``sqlite3`` and integers, nothing more on an allowed call.

guard-check runs before every agent tool call (issue 3: its p50 at most 2x ``python -c pass``, issue 4: with
the ledger on too). The ledger's Python API (ledger.py, model.py, policy.py) stands on dataclasses, Decimal,
pathlib, typing and json: ~40 ms of imports. This path opens the SQLite file and records the call in one
transaction, with the SQL of schema.py and the integer decision of hookrules.py, which pghook.py shares.
Anything unusual (an old schema to migrate, a file that is not a database) raises ``NeedsLedger``: the caller
then goes through ``SqliteLedger``, which migrates or explains.
"""

from __future__ import annotations

# Hot path: no typing, json (it imports re), hashlib (OpenSSL), pathlib, contextlib or decimal at run time.
import os
import sys
import time

from boundread.budget.digest import action_digest
from boundread.budget.hookrules import (
    NeedsLedger,
    Preload,
    Unusable,
    decide_and_record,
    hint_reads,
    may_trip_soon,
    new_call_id,
    own_project,
    preload,
    scopes_of,
)
from boundread.budget.schema import (
    CURRENT_VERSION,
    WAIT_S,
    WITH_SESSION_PROJECT,
)
from boundread.budget.sidecar import has_scope, path_for

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3 as sqlite
    from typing import Any

    from boundread.budget.connection import Connection
else:
    try:  # the C module: the sqlite3 package also imports datetime & co. for adapters never used here
        import _sqlite3 as sqlite

        sqlite.connect  # noqa: B018 - a Python whose _sqlite3 lacks it falls back below
    except (ImportError, AttributeError):
        import sqlite3 as sqlite

# The fsync on close - chosen: a read-only "keeper" connection (``_keeper``). When the last connection to a
# WAL database closes, SQLite checkpoints the WAL into the database and fsyncs (strace: 4 syncs per hook
# call; ~0.5 ms each on an idle disk, ~19 ms per close measured under load), and Python 3.11 has no
# ``Connection.setconfig`` for SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE. A read-only connection cannot checkpoint, and
# while it is open the writer's close is not the last, so neither close checkpoints: 7 syncs in 40 calls.
# Durability stays as before (WAL + synchronous=NORMAL: a power loss may drop the last calls, never corrupts
# the file); ``PRAGMA synchronous=OFF`` costs the same but an OS crash mid-checkpoint could corrupt the
# ledger, and every hook would then deny until it is moved aside. Skipping the write when no call-based limit
# is set would not help the usual budget (--max-calls) and would change `budget status`. Measured p50 of
# guard-check with --max-calls/--max-usd set (python -c pass = 1.00x): keeper 1.79x, synchronous=OFF 1.80x,
# checkpoint on close 1.89x. The WAL must not grow for ever: the next open's recovery reads all of it and
# forgets what was checkpointed, so it never restarts (10 MB after 600 calls, p50 5.5 ms per call). Past
# CHECKPOINT_BYTES the hook folds it into the database with ``wal_checkpoint(TRUNCATE)``: one fsync'd
# checkpoint every ~30 calls (in-process p50 0.9 ms, mean 1.1 ms per call; 1,000 frames: 1.7 / 2.1 ms).
# Under load (issue 18) that checkpoint waited, with the busy handler, for every other hook's read to end while
# it kept new writers out: a convoy (64 hooks at once: p99 13.5 s with a cap reached). It now runs after COMMIT
# with no busy wait: a PASSIVE checkpoint copies what it can without taking the write lock, and only once all of
# the WAL is in the database does TRUNCATE cut the file, if no other hook is reading it; while hooks overlap, the
# connection that restarts the WAL cuts it to ``journal_size_limit``. Its failure never changes the verdict: the
# call is recorded by then.
CHECKPOINT_BYTES = 100 * 4120  # ~100 WAL frames of a 4 KiB page
BUSY = (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED: another connection holds what this one waits for


def check(
    path: str, session: str, project: str | None, tool: str, tool_input: Any, depth: int, call_id: str | None = None
) -> str | None:
    """Record the call when a limit applies to it and return the deny reason, or None to allow.

    ``call_id``: the payload's ``tool_use_id`` where it has one: a retried hook is then answered from the row
    the first one wrote, and counted once. Every wait ends by ``WAIT_S`` from here: a ledger that another
    process keeps locked is ``Unusable`` then (the error policy denies the calls with a budget), never a second
    wait through ``SqliteLedger``.
    """
    deadline = time.monotonic() + WAIT_S
    scopes, keys, select = scopes_of(session, project)
    try:
        db = sqlite.connect(path, timeout=WAIT_S, isolation_level=None)
    except sqlite.Error as exc:
        raise NeedsLedger(str(exc)) from exc
    keeper = None
    try:
        try:
            if db.execute("PRAGMA user_version").fetchone()[0] != CURRENT_VERSION:
                raise NeedsLedger("the schema needs a migration")
            if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                raise NeedsLedger("the ledger is not in WAL mode")
            keeper = _keeper(path)
            first, found, settled = own_project(
                db.execute(select + WITH_SESSION_PROJECT, (*keys, session, session)).fetchall(), project)
            if first != project:
                project = first
                scopes, keys, select = scopes_of(session, project)
            if not found:
                if has_scope(path_for(path), keys):  # the ledger lost them: it was emptied
                    raise NeedsLedger("limits missing")  # SqliteLedger says so, enforce decides
                return None  # no limit applies: nothing to record (as SqliteLedger.record_call)
            if not os.path.exists(path_for(path)):  # noqa: PTH110 - limits, not yet repeated beside the ledger
                raise NeedsLedger("no limits file")  # SqliteLedger writes it
            db.execute("PRAGMA synchronous = NORMAL")
            db.execute(f"PRAGMA journal_size_limit = {CHECKPOINT_BYTES}")  # what a restarted WAL is cut to
        except sqlite.Error as exc:
            if _code(exc) in BUSY:  # locked for WAIT_S (an exclusive lock): no second wait elsewhere
                raise Unusable(_explain(path, exc), limited=False) from None
            raise NeedsLedger(str(exc)) from exc
        digest = action_digest(tool, tool_input)
        if "boundread.budget.policy" not in sys.modules and may_trip_soon(
                _runner(db)(hint_reads(session, scopes)), found, scopes, keys, tool, digest, depth):
            preload()  # before the lock, not under it
        verdict = _write(db, deadline, path, found, scopes, keys, session, project, tool, digest, depth,
                         call_id or new_call_id(), settled)
        _fold(db, path)
        return verdict
    finally:
        db.close()  # the writer first: while the keeper is open, this close does not checkpoint
        if keeper is not None:
            keeper.close()  # read-only: cannot checkpoint either


def _write(
    db: Connection, deadline: float, path: str, found: list[Any], scopes: list[tuple[str, str]], keys: tuple[str, ...],
    session: str, project: str | None, tool: str, digest: str, depth: int, call_id: str, settled: bool,
) -> str | None:
    """The write transaction: short, and nothing imported in it (``Preload``: roll back, import, once more)."""
    while True:
        try:
            db.execute(f"PRAGMA busy_timeout = {max(int((deadline - time.monotonic()) * 1000), 0)}")
            db.execute("BEGIN IMMEDIATE")  # closing without COMMIT rolls back
            verdict, writes = decide_and_record(_runner(db), found, scopes, keys, session, project, tool, digest,
                                                depth, call_id, settled=settled)
            for sql, params in writes:
                db.execute(sql, params)
            db.execute("COMMIT")
            return verdict
        except Preload:
            db.execute("ROLLBACK")
            preload()
        except sqlite.Error as exc:
            raise Unusable(_explain(path, exc)) from None


def _runner(db: Connection) -> Any:
    def run(batch: list[tuple[str, tuple[object, ...]]]) -> list[list[Any]]:
        return [db.execute(sql, params).fetchall() for sql, params in batch]

    return run


def _fold(db: Any, path: str) -> None:
    """Fold a long WAL into the database without waiting for anyone (see CHECKPOINT_BYTES); never fails the call."""
    try:
        if os.stat(f"{path}-wal").st_size > CHECKPOINT_BYTES:
            db.execute("PRAGMA busy_timeout = 0")
            _, frames, copied = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()  # no writer kept out
            if frames == copied:  # all in the database: cut the file, if no reader is in it (else the next call)
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    except (OSError, sqlite.Error):
        pass  # readers or a writer in the way, or no WAL file: the next call tries again


def _code(exc: BaseException) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF
    text = str(exc)
    return 5 if "locked" in text or "busy" in text else None


def _explain(path: str, exc: BaseException) -> str:
    if _code(exc) in BUSY:
        return (f"the budget ledger {path} stayed locked for {WAIT_S:g}s - another boundread holds it; retry, or"
                " check for a stuck process")
    from boundread.budget.sqlite import ledger_error

    return str(ledger_error(path, exc))  # type: ignore[arg-type]


def _keeper(path: str) -> sqlite.Connection | None:
    """A read-only connection that holds the database open (see CHECKPOINT_BYTES for why)."""
    uri = path.replace("%", "%25").replace("?", "%3F").replace("#", "%23")
    try:
        keeper = sqlite.connect(f"file:{uri}?mode=ro", uri=True, isolation_level=None, timeout=0)  # optional: no wait
        keeper.execute("PRAGMA user_version").fetchone()  # a read takes the shared lock it keeps till closed
    except sqlite.Error:
        return None  # then the close checkpoints, as before: slower, still correct
    return keeper
