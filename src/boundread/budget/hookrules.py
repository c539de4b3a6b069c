"""The lean budget decision on the guard-check hot path, in integers, for both ledgers: the SQLite file
(hookpath.py) and PostgreSQL through libpq (pghook.py) run the same reads and writes through it.

It reads the limits and the spend as integers (money is stored as integer nano-dollars), and only when a limit
may trip loads the model and lets ``policy.decide`` give the verdict and its reason, so the rules and their
wording live in one place. ``NeedsLedger`` and ``Unusable`` are how both paths say they cannot decide here.
"""

from __future__ import annotations

# Hot path: no typing, json (it imports re), hashlib (OpenSSL), pathlib, contextlib or decimal at run time.
import os
import sys

from boundread.budget.schema import (
    CALL_BY_ID,
    COUNT_CALL,
    LIMIT_COLS,
    RECENT_DIGESTS,
    RECORD_CALL_ID,
    SCOPE_WHERE,
    SESSION_PROJECT,
    SPENT,
    TOUCH_SESSION,
    scope_key,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


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
