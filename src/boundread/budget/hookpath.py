"""The budget check on the guard-check hot path: ``sqlite3`` and integers, nothing more on an allowed call.

guard-check runs before every agent tool call (issue 3: its p50 at most 2x ``python -c pass``, issue 4: with
the ledger on too). The ledger's Python API (ledger.py, model.py, policy.py) stands on dataclasses, Decimal,
pathlib, typing and json: ~40 ms of imports. This path reads the limits and the spend as integers (money is
stored as integer nano-dollars) and records the call in one transaction, with the SQL of schema.py. Only when
a limit may trip does it load the model and let ``policy.decide`` give the verdict and its reason, so the
rules and their wording live in one place. Anything unusual (an old schema to migrate, a file that is not a
database) raises ``NeedsLedger``: the caller then goes through ``SqliteLedger``, which migrates or explains.
"""

from __future__ import annotations

# Hot path: no typing, json (it imports re), hashlib (OpenSSL), pathlib, contextlib or decimal at run time.
import os
import sys
import time

from boundread.budget.digest import action_digest
from boundread.budget.schema import (
    CALL_BY_ID,
    COUNT_CALL,
    CURRENT_VERSION,
    LIMIT_COLS,
    RECENT_DIGESTS,
    RECORD_CALL_ID,
    SCOPE_WHERE,
    SESSION_PROJECT,
    SPENT,
    TOUCH_SESSION,
    WAIT_S,
    WITH_SESSION_PROJECT,
    scope_key,
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


class NeedsLedger(Exception):
    """The lean path cannot take this ledger file as it is: open it with ``SqliteLedger``."""


class Unusable(Exception):
    """The ledger failed (a damaged page, a read-only folder, a server down): ``enforce`` decides who may go on.

    ``limited``: this call's limits were seen before the failure (a server that cannot be reached: not yet).
    """

    def __init__(self, what: str, *, limited: bool = True) -> None:
        super().__init__(what)
        self.limited = limited


def scopes_of(session: str, project: str | None) -> tuple[list[tuple[str, str]], tuple[str, ...], str]:
    """The scopes a call of ``session`` in ``project`` counts in, their keys, and the query of their limits."""
    scopes = [("session", session), ("global", "")] + ([("project", project)] if project else [])
    keys = tuple(scope_key(kind, name) for kind, name in scopes)
    return scopes, keys, f"SELECT scope, {LIMIT_COLS} FROM limits WHERE scope IN ({','.join('?' * len(keys))})"


def own_project(found: list[Any], project: str | None) -> tuple[str | None, list[Any], bool]:
    """The project a call counts in, the limits rows of its scopes, and whether the session has a first project
    already, from the limits query with ``WITH_SESSION_PROJECT``: the session's first project when it has one (a
    later payload from a subfolder stays in it, as ``SqlLedger.record_call`` decides), else the payload's."""
    first = next((str(row[0])[1:] for row in found if str(row[0]).startswith("@")), None)
    rows = [row for row in found if not str(row[0]).startswith("@")]
    if first is None or first == project:
        return project, rows, first is not None
    theirs = scope_key("project", project) if project else None
    return first, [row for row in rows if str(row[0]) != theirs], True


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


def new_call_id() -> str:
    """An id for a call whose payload has none, drawn before the write: a retry of the write is the same call."""
    return "@" + os.urandom(12).hex()


HINT_RECENT = 16  # the recent digests read before the lock: a longer run of one call is taken as a possible repeat


def hint_reads(session: str, scopes: list[tuple[str, str]]) -> list[tuple[str, tuple[object, ...]]]:
    """What is read before any lock, from a snapshot that may be a moment old: the recent digests and each scope's
    spend, enough to tell whether a limit may trip (``may_trip_soon``) and load the policy first."""
    return [(RECENT_DIGESTS, (session, HINT_RECENT)), *(_spent(kind, name) for kind, name in scopes)]


def may_trip_soon(
    results: list[list[Any]], seen: list[Any], scopes: list[tuple[str, str]], keys: tuple[str, ...], tool: str,
    digest: str, depth: int,
) -> bool:
    """``_may_trip`` over ``hint_reads``'s snapshot. Spend only grows, so a False is almost always still False under
    the lock (when it is not, ``Preload`` rolls back, imports, and decides again)."""
    recent = tuple(r[0] for r in results[0])
    spent = {key: rows[0] for key, rows in zip(keys, results[1:], strict=False) if rows}
    run = 1 + next((i for i, d in enumerate(recent) if d != digest), len(recent))
    limits = {str(row[0]): row[1:] for row in seen}
    for key in keys:
        row = limits.get(key)
        if row is None or not limits_set(row):
            continue
        repeat = row[4]
        if isinstance(repeat, int) and repeat > len(recent) == HINT_RECENT and run > HINT_RECENT:
            return True  # a run longer than the snapshot: maybe the K-th repeat
        if _may_trip(row, tool, depth, run, spent.get(key)):
            return True
    return False


class Preload(Exception):
    """A limit may trip: the policy's modules are imported outside the write lock, then the call is decided again."""


def preload() -> None:
    import boundread.budget.model
    import boundread.budget.policy
    import boundread.budget.rows  # noqa: F401


def _keeper(path: str) -> sqlite.Connection | None:
    """A read-only connection that holds the database open (see CHECKPOINT_BYTES for why)."""
    uri = path.replace("%", "%25").replace("?", "%3F").replace("#", "%23")
    try:
        keeper = sqlite.connect(f"file:{uri}?mode=ro", uri=True, isolation_level=None, timeout=0)  # optional: no wait
        keeper.execute("PRAGMA user_version").fetchone()  # a read takes the shared lock it keeps till closed
    except sqlite.Error:
        return None  # then the close checkpoints, as before: slower, still correct
    return keeper


def decide_and_record(  # the lean path's decision, for SQLite here and for libpq (pghook.py)
    run: Any,
    seen: list[Any],
    scopes: list[tuple[str, str]],
    keys: tuple[str, ...],
    session: str,
    project: str | None,
    tool: str,
    digest: str,
    depth: int,
    call_id: str,
    count_call: str = COUNT_CALL,
    *,
    settled: bool = True,
    lock: str | None = None,
) -> tuple[str | None, list[tuple[str, tuple[object, ...]]]]:
    """``SqlLedger.record_call`` with ``policy.decide``, in integers while every limit is clearly far: the verdict,
    and the statements that record it (the caller runs them, then COMMIT).

    ``run``: runs a batch of statements in the open transaction, in order, and gives each one's rows - one round
    trip on pghook's libpq connection (``lock``: the query that locks the scopes' limits rows, ``count_call``:
    PostgreSQL's spelling). ``seen``: the limits rows read before the transaction; they say which scopes' spend to
    read along (the rows read here decide). ``settled``: the session had its first project when the limits were
    read; if not, another first call of it, from another folder, may have set it since. A call id recorded
    before is the same call: its answer again, nothing written.
    """
    lead = _locking(lock, keys)
    lead.append((TOUCH_SESSION, (session, project)))
    if not settled:
        lead.append((SESSION_PROJECT, (session,)))  # under the write lock now: the project the session has
    results = run(lead + _reads(scopes, keys, session, call_id, seen))
    now, got = (None if settled else results[len(lead) - 1]), results[len(lead):]
    if now and now[0][0] and str(now[0][0]) != project:  # another first call of the session set its project
        project = str(now[0][0])
        scopes, keys, _ = scopes_of(session, project)
        relock = _locking(lock, keys)
        got = run(relock + _reads(scopes, keys, session, call_id, seen))[len(relock):]
    rows_now, recent_rows, stored, *spent_rows = got
    if stored:
        allowed, reason = stored[0]
        return (None if allowed else str(reason or "denied before (the same call id)")), []
    rows = {row[0]: row[1:] for row in rows_now}
    limited = [(kind, name, rows[key]) for (kind, name), key in zip(scopes, keys, strict=True) if key in rows]
    limited = [(kind, name, row) for kind, name, row in limited if limits_set(row)]
    spent = {key: found[0] for key, found in zip(_counted(scopes, keys, seen), spent_rows, strict=True)}
    missing = [(kind, name) for kind, name, row in limited if _counts(row) and scope_key(kind, name) not in spent]
    if missing:  # a limit set since the first read: its scope's spend too
        for (kind, name), got_rows in zip(missing, run([_spent(kind, name) for kind, name in missing]), strict=True):
            spent[scope_key(kind, name)] = got_rows[0]
    repeat = max((row[4] if isinstance(row[4], int) else 0 for _, _, row in limited), default=0)
    recent = tuple(r[0] for r in recent_rows)
    if repeat > max(_depth_of(seen), 1) and len(recent) == max(_depth_of(seen), 1):  # a larger --max-repeat since
        recent = tuple(r[0] for r in run([(RECENT_DIGESTS, (session, repeat))])[0])
    run_length = 1 + next((i for i, d in enumerate(recent) if d != digest), len(recent))
    verdict = None
    if any(_may_trip(row, tool, depth, run_length, spent.get(scope_key(kind, name))) for kind, name, row in limited):
        if "boundread.budget.policy" not in sys.modules:
            raise Preload
        verdict = _decide(limited, spent, session, tool, digest, depth, recent)
    allowed = int(verdict is None)
    return verdict, [(RECORD_CALL_ID, (session, tool, digest, depth, allowed, call_id, verdict)),
                     (count_call, (allowed, depth, session))]


def _locking(lock: str | None, keys: tuple[str, ...]) -> list[tuple[str, tuple[object, ...]]]:
    """The statement that locks the scopes' limits rows (PostgreSQL), or none (SQLite's BEGIN IMMEDIATE did)."""
    return [(lock.format(marks=",".join("?" * len(keys))), tuple(sorted(keys)))] if lock else []


def select_of(keys: tuple[str, ...]) -> str:
    return f"SELECT scope, {LIMIT_COLS} FROM limits WHERE scope IN ({','.join('?' * len(keys))})"


def _reads(
    scopes: list[tuple[str, str]], keys: tuple[str, ...], session: str, call_id: str, seen: list[Any]
) -> list[tuple[str, tuple[object, ...]]]:
    """What a decision reads under the lock: the limits, the recent digests, this call id's row, the spend."""
    spends = [_spent(kind, name) for kind, name in _counted_scopes(scopes, keys, seen)]
    return [(select_of(keys), keys), (RECENT_DIGESTS, (session, max(_depth_of(seen), 1))),
            (CALL_BY_ID, (session, call_id)), *spends]


def _depth_of(seen: list[Any]) -> int:
    """How many recent digests the limits seen ask for (``--max-repeat``)."""
    return max((row[5] if isinstance(row[5], int) else 0 for row in seen), default=0)


def _counted_scopes(scopes: list[tuple[str, str]], keys: tuple[str, ...], seen: list[Any]) -> list[tuple[str, str]]:
    """The scopes whose limits seen count spend or calls: their totals are read along."""
    counting = {str(row[0]) for row in seen if _counts(row[1:])}
    return [scope for scope, key in zip(scopes, keys, strict=True) if key in counting]


def _counted(scopes: list[tuple[str, str]], keys: tuple[str, ...], seen: list[Any]) -> list[str]:
    return [scope_key(kind, name) for kind, name in _counted_scopes(scopes, keys, seen)]


def _spent(kind: str, name: str) -> tuple[str, tuple[object, ...]]:
    where = SCOPE_WHERE.get(kind, "")
    return SPENT + where, (name,) if where else ()


def _counts(row: tuple[object, ...]) -> bool:
    """Whether a limits row has a cap on tokens, dollars or calls (the limits that read the spend)."""
    tokens, usd, _depth, calls = row[:4]
    return usd is not None or isinstance(tokens, int) or isinstance(calls, int)


def limits_set(row: tuple[object, ...]) -> bool:
    """Not ``BudgetLimits.empty``, read from the ``limits`` row as ``ledger.limits_from_row`` reads it."""
    tokens, usd, max_depth, calls, repeat, deny, agents, per_minute, _overshoot = row
    ints = (tokens, max_depth, calls, repeat, agents, per_minute)
    return usd is not None or any(isinstance(v, int) for v in ints) or bool(_tools(deny))


def _tools(deny: object) -> list[str]:
    return [t for t in str(deny or "").split(",") if t]


def _may_trip(row: tuple[object, ...], tool: str, depth: int, run: int, spent: tuple[int, ...] | None) -> bool:
    """Whether any of ``policy.decide``'s checks could trip in this scope; a False is exact, a True is re-decided.

    ``spent``: the scope's ``SPENT`` row (read whenever its limits count spend or calls)."""
    tokens, usd, max_depth, calls, repeat, deny, _agents, _per_minute, _overshoot = row
    if isinstance(max_depth, int) and depth > max_depth:
        return True
    if tool.casefold() in [t.casefold() for t in _tools(deny)]:  # as policy.check_sequence: Bash, bash: one tool
        return True
    if isinstance(repeat, int) and repeat > 0 and run >= repeat:
        return True
    if not _counts(row) or spent is None:
        return spent is None and _counts(row)
    used, nanos, allowed = sum(spent[:4]), spent[4], spent[5]
    if usd is not None:
        cap = _nanos(str(usd))
        if cap is None or nanos >= cap:  # reached at equality; an odd amount goes to policy.decide
            return True
    return (isinstance(tokens, int) and used >= tokens) or (isinstance(calls, int) and allowed + 1 > calls)


def _nanos(usd: str) -> int | None:
    """``0.50`` -> 500000000: a plain decimal with at most 9 places, exactly; anything else None."""
    whole, _, frac = usd.partition(".")
    digits = whole + frac
    if not digits or len(frac) > 9 or not (digits.isascii() and digits.isdigit()):
        return None
    return int(whole or "0") * 1_000_000_000 + int(frac.ljust(9, "0"))


def _decide(
    limited: list[tuple[str, str, tuple[object, ...]]],
    spent: dict[str, tuple[int, ...]],
    session: str,
    tool: str,
    digest: str,
    depth: int,
    recent: tuple[str, ...],
) -> str | None:
    """A limit may trip: the full model and ``policy.decide`` give the verdict and its reason, from the rows read
    under the lock (no further query: the lock is held)."""
    from boundread.budget.model import CallView, Scope, ScopeView, Totals, from_nanos
    from boundread.budget.policy import decide
    from boundread.budget.rows import limits_from_row

    views = []
    for kind, name, row in limited:
        limits = limits_from_row(row)
        got = spent.get(scope_key(kind, name))
        totals = Totals() if got is None else Totals(input=got[0], output=got[1], cache_read=got[2],
                                                     cache_write=got[3], cost=from_nanos(got[4]), calls=got[5],
                                                     depth=got[6], warnings=got[7])
        if not limits.empty:
            views.append(ScopeView(Scope(kind, name), limits, totals))
    error = decide(CallView(session, tool, digest, depth, tuple(views), recent))
    return None if error is None else str(error)
