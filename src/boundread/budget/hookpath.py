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

from boundread.budget.digest import action_digest
from boundread.budget.schema import (
    BUSY_MS,
    COUNT_CALL,
    CURRENT_VERSION,
    LIMIT_COLS,
    RECENT_DIGESTS,
    RECORD_CALL,
    SCOPE_WHERE,
    SESSION_PROJECT,
    TOUCH_SESSION,
    WITH_SESSION_PROJECT,
    scope_key,
)
from boundread.budget.sidecar import has_scope, path_for

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3 as sqlite
    from typing import Any
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
CHECKPOINT_BYTES = 100 * 4120  # ~100 WAL frames of a 4 KiB page


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


def check(path: str, session: str, project: str | None, tool: str, tool_input: Any, depth: int) -> str | None:
    """Record the call when a limit applies to it and return the deny reason, or None to allow."""
    scopes, keys, select = scopes_of(session, project)
    try:
        db = sqlite.connect(path, timeout=BUSY_MS / 1000, isolation_level=None)
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
        except sqlite.Error as exc:
            raise NeedsLedger(str(exc)) from exc
        try:
            db.execute("BEGIN IMMEDIATE")  # closing without COMMIT rolls back
            verdict = _record(db, select, scopes, keys, session, project, tool, action_digest(tool, tool_input), depth,
                              settled=settled)
            db.execute("COMMIT")
            if os.stat(f"{path}-wal").st_size > CHECKPOINT_BYTES:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite.Error as exc:
            from boundread.budget.sqlite import ledger_error

            raise Unusable(str(ledger_error(path, exc))) from None
        except OSError:  # no WAL file to measure: nothing to fold
            pass
        return verdict
    finally:
        db.close()  # the writer first: while the keeper is open, this close does not checkpoint
        if keeper is not None:
            keeper.close()  # read-only: cannot checkpoint either


def _keeper(path: str) -> sqlite.Connection | None:
    """A read-only connection that holds the database open (see CHECKPOINT_BYTES for why)."""
    uri = path.replace("%", "%25").replace("?", "%3F").replace("#", "%23")
    try:
        keeper = sqlite.connect(f"file:{uri}?mode=ro", uri=True, isolation_level=None)
        keeper.execute("PRAGMA user_version").fetchone()  # a read takes the shared lock it keeps till closed
    except sqlite.Error:
        return None  # then the close checkpoints, as before: slower, still correct
    return keeper


def _record(
    db: Any,
    select: str,
    scopes: list[tuple[str, str]],
    keys: tuple[str, ...],
    session: str,
    project: str | None,
    tool: str,
    digest: str,
    depth: int,
    count_call: str = COUNT_CALL,
    *,
    settled: bool = True,
    lock: str | None = None,
) -> str | None:
    """``SqlLedger.record_call`` with ``policy.decide``, in integers while every limit is clearly far.

    ``db``: a sqlite3 connection, or pghook's libpq one (``count_call``: PostgreSQL's spelling, ``lock``: the
    query that locks the limits rows of the scopes). ``settled``: the session had its first project when the
    limits were read; if not, another first call of it, from another folder, may have set it since.
    """
    db.execute(TOUCH_SESSION, (session, project))
    now = None if settled else db.execute(SESSION_PROJECT, (session,)).fetchone()
    if now and now[0] and str(now[0]) != project:  # under the write lock now: the project the session has
        project = str(now[0])
        scopes, keys, select = scopes_of(session, project)
        if lock is not None:
            db.execute(lock.format(marks=",".join("?" * len(keys))), tuple(sorted(keys)))
    rows = {row[0]: row[1:] for row in db.execute(select, keys)}
    limited = [(kind, name, rows[key]) for (kind, name), key in zip(scopes, keys, strict=True) if key in rows]
    limited = [(kind, name, row) for kind, name, row in limited if _set(row)]
    repeat = max((row[4] if isinstance(row[4], int) else 0 for _, _, row in limited), default=0)
    recent = tuple(r[0] for r in db.execute(RECENT_DIGESTS, (session, max(repeat, 1))))
    run = 1 + next((i for i, d in enumerate(recent) if d != digest), len(recent))
    verdict = None
    if any(_may_trip(db, kind, name, row, tool, depth, run) for kind, name, row in limited):
        verdict = _decide(db, scopes, session, tool, digest, depth, recent)
    allowed = int(verdict is None)
    db.execute(RECORD_CALL, (session, tool, digest, depth, allowed))
    db.execute(count_call, (allowed, depth, session))
    return verdict


def _set(row: tuple[object, ...]) -> bool:
    """Not ``BudgetLimits.empty``, read from the ``limits`` row as ``ledger.limits_from_row`` reads it."""
    tokens, usd, max_depth, calls, repeat, deny, agents, per_minute, _overshoot = row
    ints = (tokens, max_depth, calls, repeat, agents, per_minute)
    return usd is not None or any(isinstance(v, int) for v in ints) or bool(_tools(deny))


def _tools(deny: object) -> list[str]:
    return [t for t in str(deny or "").split(",") if t]


def _may_trip(
    db: Any, kind: str, name: str, row: tuple[object, ...], tool: str, depth: int, run: int
) -> bool:
    """Whether any of ``policy.decide``'s checks could trip in this scope; a False is exact, a True is re-decided."""
    tokens, usd, max_depth, calls, repeat, deny, _agents, _per_minute, _overshoot = row
    if isinstance(max_depth, int) and depth > max_depth:
        return True
    if tool.casefold() in [t.casefold() for t in _tools(deny)]:  # as policy.check_sequence: Bash, bash: one tool
        return True
    if isinstance(repeat, int) and repeat > 0 and run >= repeat:
        return True
    if usd is None and not isinstance(tokens, int) and not isinstance(calls, int):
        return False
    where = SCOPE_WHERE.get(kind, "")
    spent, nanos, allowed = db.execute(
        "SELECT CAST(COALESCE(SUM(input + output + cache_read + cache_write), 0) AS BIGINT),"
        f" CAST(COALESCE(SUM(cost_nanos), 0) AS BIGINT), CAST(COALESCE(SUM(calls), 0) AS BIGINT) FROM sessions {where}",
        (name,) if where else (),
    ).fetchone()
    if usd is not None:
        cap = _nanos(str(usd))
        if cap is None or nanos >= cap:  # reached at equality; an odd amount goes to policy.decide
            return True
    return (isinstance(tokens, int) and spent >= tokens) or (isinstance(calls, int) and allowed + 1 > calls)


def _nanos(usd: str) -> int | None:
    """``0.50`` -> 500000000: a plain decimal with at most 9 places, exactly; anything else None."""
    whole, _, frac = usd.partition(".")
    digits = whole + frac
    if not digits or len(frac) > 9 or not (digits.isascii() and digits.isdigit()):
        return None
    return int(whole or "0") * 1_000_000_000 + int(frac.ljust(9, "0"))


def _decide(
    db: Any,
    scopes: list[tuple[str, str]],
    session: str,
    tool: str,
    digest: str,
    depth: int,
    recent: tuple[str, ...],
) -> str | None:
    """A limit may trip: the full model and ``policy.decide`` give the verdict and its reason."""
    from boundread.budget.model import CallView, Scope, ScopeView
    from boundread.budget.policy import decide
    from boundread.budget.rows import limits_of, totals_of

    views = []
    for kind, name in scopes:
        scope = Scope(kind, name)
        limits = limits_of(db, scope)
        if not limits.empty:
            views.append(ScopeView(scope, limits, totals_of(db, scope)))
    error = decide(CallView(session, tool, digest, depth, tuple(views), recent))
    return None if error is None else str(error)
