"""The ledger's logic, once for both stores: SQL with ``?`` placeholders over a connection's ``execute``.

A store (``sqlite.SqliteLedger``, ``postgres.PostgresLedger``) brings the connection, ``_tx`` (one
transaction per change; any failure inside is a ``LedgerError``), ``_guarded`` (a read, its failures mapped
the same way) and ``_lock`` (what keeps concurrent writers exact: SQLite's ``BEGIN IMMEDIATE`` already
serializes them, PostgreSQL takes row and advisory locks). The few words the two dialects spell differently
are class attributes.

Every write is idempotent by a key chosen before it is sent: a usage row's request key (``budget add --id``, a
transcript's message and request ids), a tool call's id (the payload's ``tool_use_id``, else one drawn here). So
a write that meets a lock, or whose COMMIT went unanswered (``LedgerBusy``), is simply done again (``_again``),
within ``RETRY_S``: it counts once, and a lost answer loses no count.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, TypeVar

from boundread.budget.connection import LedgerConnection
from boundread.budget.decided import Row
from boundread.budget.errors import LedgerBusy
from boundread.budget.model import BudgetLimits, CallView, Scope, ScopeView, Totals, UsageRecord, from_nanos, to_nanos
from boundread.budget.rows import (
    limits_from_row,
    limits_of,
    limits_params,
    scope_where,
    totals_of,
)
from boundread.budget.schema import (
    CALL_BY_ID,
    COUNT_CALL,
    LIMIT_COLS,
    LIMIT_MARKS,
    RECENT_DIGESTS,
    RECORD_CALL_ID,
    RECORD_DECISION,
    SESSION_PROJECT,
    TOUCH_SESSION,
)

if TYPE_CHECKING:
    from boundread.budget.stats import Decided

_T = TypeVar("_T")
_SAME = "SELECT id, session, sidechain, input, output, cache_read, cache_write, cost_nanos FROM usage"
_SET = ", ".join(f"{col} = excluded.{col}" for col in LIMIT_COLS.split(", "))


class SqlLedger:
    """Everything a ledger does, in SQL both SQLite and PostgreSQL take."""

    _db: LedgerConnection  # each store narrows it to its own connection (mypy checks it against the protocol)
    GREATEST = "MAX"  # the two-argument maximum
    COUNT_CALL = COUNT_CALL
    SESSION_ORDER = "rowid"  # insertion order of `sessions`
    RETRY_S = 0.0  # how long a write that meets a lock or loses its COMMIT's answer is tried again
    CALL_RETRY_S = 0.0  # the same for a tool call's record (the hook's fallback: its own bound applies)

    def _tx(self) -> AbstractContextManager[LedgerConnection]:
        raise NotImplementedError

    def _guarded(self, read: Callable[[], _T]) -> _T:
        raise NotImplementedError

    def _lock(self, db: LedgerConnection, what: str, keys: Sequence[str] = ()) -> None:
        """Serialize writers that decide on what they read: ``usage`` (ingest, reset) or ``limits`` rows."""

    def _after_limits_change(self) -> None:
        """Hook for a store that repeats its limits elsewhere (SQLite's sidecar)."""

    def _reconnect(self) -> None:
        """Hook for a store whose connection a lost answer left unusable (PostgreSQL)."""

    def _again(self, work: Callable[[], _T], *, keyed: bool, seconds: float) -> _T:
        """``work`` (one transaction), done again after a ``LedgerBusy`` until ``seconds`` have passed. An ambiguous
        failure (the COMMIT may have landed) is repeated only when ``keyed``: the write counts once by its keys."""
        deadline, pause = time.monotonic() + seconds, 0.02
        while True:
            try:
                return work()
            except LedgerBusy as exc:
                if (exc.ambiguous and not keyed) or time.monotonic() + pause >= deadline:
                    raise
            time.sleep(pause * (0.5 + int.from_bytes(os.urandom(1), "big") / 255))  # jittered: no herd
            pause = min(pause * 2, 0.5)
            self._reconnect()

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> SqlLedger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def all_limits(self) -> dict[str, BudgetLimits]:
        """Every scope that has limits, by key."""
        rows = self._guarded(lambda: self._db.execute(f"SELECT scope, {LIMIT_COLS} FROM limits").fetchall())
        found = {str(row[0]): limits_from_row(row[1:]) for row in rows}
        return {key: lim for key, lim in found.items() if not lim.empty}

    def set_limits(self, scope: Scope, limits: BudgetLimits) -> BudgetLimits:
        def work() -> BudgetLimits:
            with self._tx() as db:
                self._lock(db, "limits")
                merged = limits_of(db, scope).merged(limits)
                db.execute(
                    f"INSERT INTO limits(scope, {LIMIT_COLS}) VALUES ({LIMIT_MARKS})"
                    f" ON CONFLICT(scope) DO UPDATE SET {_SET}",
                    limits_params(scope, merged),
                )
                where, args = scope_where(scope)  # new limits: the scope's ended sessions are judged again
                db.execute(f"UPDATE sessions SET halted = NULL {where}{' AND' if where else ' WHERE'}"
                           " halted IS NOT NULL", args)
            return merged

        merged = self._again(work, keyed=True, seconds=self.RETRY_S)  # the same merge twice is the same row
        self._after_limits_change()
        return merged

    def limits(self, scope: Scope) -> BudgetLimits:
        return self._guarded(lambda: limits_of(self._db, scope))

    def add_usage(
        self,
        session: str,
        records: Sequence[UsageRecord],
        *,
        project: str | None = None,
        transcript: tuple[str, int] | None = None,
        warnings: int = 0,
        rewind: bool = False,
    ) -> int:
        """Record usage and the transcript offset, atomically; each model request once in the whole ledger.

        A record whose key (``<message.id>:<requestId>``) is already in the ledger, in any session, is a repeat:
        a streamed message's later line, a resumed session's or a compaction's copy. The main chain's entry
        wins over a sub-agent's (sidechain) copy, then the larger count, and stays with the session that
        recorded it first. A sidechain copy of a message recorded under another request id is a repeat too
        (ccusage's rule).
        """
        keyed = all(records[i].key is not None for i in range(len(records)))
        return self._again(lambda: self._add_usage(session, records, project, transcript, warnings, rewind),
                           keyed=keyed, seconds=self.RETRY_S)

    def _add_usage(
        self,
        session: str,
        records: Sequence[UsageRecord],
        project: str | None,
        transcript: tuple[str, int] | None,
        warnings: int,
        rewind: bool = False,
    ) -> int:
        added = 0
        deltas: dict[str, list[int]] = {session: [0, 0, 0, 0, 0]}
        with self._tx() as db:
            self._lock(db, "usage")
            db.execute(TOUCH_SESSION, (session, project))
            for rec in records:
                row = (rec.input, rec.output, rec.cache_read, rec.cache_write, to_nanos(rec.cost))
                old = _same_request(db, rec)
                if old is None:
                    cur = db.execute(
                        "INSERT INTO usage(session, key, model, input, output, cache_read, cache_write, cost_nanos,"
                        " flagged, price_source, message, sidechain, agent, at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
                        " ON CONFLICT(session, key) DO NOTHING",
                        (session, rec.key, rec.model, *row, int(rec.flagged), rec.price_source, rec.message,
                         int(rec.sidechain), rec.agent, time.time() if rec.at is None else rec.at),
                    )
                    if cur.rowcount == 1:
                        added += 1
                        _grow(deltas, session, row)
                    continue
                rowid, owner, side, *counts = old
                main_wins = bool(side) and not rec.sidechain
                if main_wins or (bool(side) == rec.sidechain and rec.tokens > sum(counts[:4])):
                    db.execute(
                        "UPDATE usage SET input=?, output=?, cache_read=?, cache_write=?, cost_nanos=?, sidechain=?"
                        " WHERE id = ?",
                        (*row, int(rec.sidechain), rowid),
                    )
                    _grow(deltas, owner, [a - b for a, b in zip(row, counts, strict=True)])
            for sid, delta in deltas.items():
                db.execute(
                    "UPDATE sessions SET input=input+?, output=output+?, cache_read=cache_read+?,"
                    " cache_write=cache_write+?, cost_nanos=cost_nanos+?, warnings=warnings+? WHERE id = ?",
                    (*delta, warnings if sid == session else 0, sid),
                )
            if transcript:  # the offset only grows, unless the file was cut or rewritten and read again (rewind)
                kept = 'excluded."offset"' if rewind else f'{self.GREATEST}(offsets."offset", excluded."offset")'
                db.execute(
                    'INSERT INTO offsets(path, "offset", session) VALUES (?, ?, ?) ON CONFLICT(path)'
                    f' DO UPDATE SET "offset" = {kept}',
                    (*transcript, session),
                )
        return added

    def last_usage(self, session: str) -> UsageRecord | None:
        """The session's most recent model request (the last recorded), or None before the first."""
        query = ("SELECT model, input, output, cache_read, cache_write, cost_nanos, key, agent, at FROM usage"
                 " WHERE session = ? ORDER BY id DESC LIMIT 1")
        row = self._guarded(lambda: self._db.execute(query, (session,)).fetchone())
        if row is None:
            return None
        model, inp, out, read, write, nanos, key, agent, at = row
        return UsageRecord(str(model), int(inp), int(out), int(read), int(write), from_nanos(int(nanos)),
                           key=key, agent=agent, at=None if at is None else float(at))

    def offset(self, transcript: str) -> int:
        row = self._guarded(
            lambda: self._db.execute('SELECT "offset" FROM offsets WHERE path = ?', (transcript,)).fetchone()
        )
        return int(row[0]) if row else 0

    def offsets(self, transcripts: Sequence[str]) -> dict[str, int]:
        """The byte offset reached in each of ``transcripts`` that was ingested before."""
        found: dict[str, int] = {}
        for i in range(0, len(transcripts), 500):  # well under SQLite's limit on bound parameters
            chunk = tuple(transcripts[i : i + 500])
            query = f'SELECT path, "offset" FROM offsets WHERE path IN ({",".join("?" * len(chunk))})'
            found.update(self._guarded(lambda q=query, c=chunk: self._db.execute(q, c).fetchall()))  # type: ignore[misc]
        return found

    def totals(self, scope: Scope) -> Totals:
        return self._guarded(lambda: totals_of(self._db, scope))

    def record_call(
        self,
        session: str,
        project: str | None,
        tool: str,
        digest: str,
        depth: int,
        decide: Callable[[CallView], _T | None],
        *,
        call_id: str | None = None,
    ) -> _T | None:
        """Record a tool call and return ``decide``'s verdict in one transaction. No limits: no write.

        The project is the session's first (``TOUCH_SESSION``), whatever ``project`` a later call names.
        ``call_id`` (the payload's ``tool_use_id``; else one is drawn): a call recorded under it before is not
        counted again - allowed, it is allowed; denied, it is decided again and counted only if it passes now."""
        first = self._guarded(lambda: self._db.execute(SESSION_PROJECT, (session,)).fetchone())
        settled = bool(first and first[0])  # a session's first project, once set, never changes
        project = str(first[0]) if first and first[0] else project
        scopes = _scopes(session, project)
        keys = tuple(s.key for s in scopes)
        query = f"SELECT COUNT(*) FROM limits WHERE scope IN ({','.join('?' * len(keys))})"
        if not self._guarded(lambda: self._db.execute(query, keys).fetchone()[0]):
            return None
        key = call_id or "@" + os.urandom(12).hex()
        return self._again(lambda: self._record_call(session, project, settled, tool, digest, depth, decide, key),
                           keyed=True, seconds=self.CALL_RETRY_S)

    def _record_call(
        self, session: str, project: str | None, settled: bool, tool: str, digest: str, depth: int,
        decide: Callable[[CallView], _T | None], call_id: str,
    ) -> _T | None:
        scopes = _scopes(session, project)
        with self._tx() as db:
            self._lock(db, "limits", tuple(s.key for s in scopes))  # one decision at a time per limited scope
            db.execute(TOUCH_SESSION, (session, project))
            now = None if settled else db.execute(SESSION_PROJECT, (session,)).fetchone()
            if now and now[0] and str(now[0]) != project:  # another first call of the session got in first
                project = str(now[0])
                scopes = _scopes(session, project)
                self._lock(db, "limits", tuple(s.key for s in scopes))
            views = tuple(ScopeView(s, lim, totals_of(db, s)) for s in scopes if not (lim := limits_of(db, s)).empty)
            repeat = max((v.limits.max_repeat or 0 for v in views), default=0)
            recent = tuple(r[0] for r in db.execute(RECENT_DIGESTS, (session, max(repeat, 1))))
            stored = db.execute(CALL_BY_ID, (session, call_id)).fetchone()
            if stored is not None and stored[0]:
                return None  # recorded and allowed before: the same call, counted once
            verdict = decide(CallView(session, tool, digest, depth, views, recent))
            allowed = int(verdict is None)
            if stored is None:
                db.execute(RECORD_CALL_ID, (session, tool, digest, depth, allowed, call_id,
                                            None if verdict is None else str(verdict)))
            elif allowed:  # denied before, allowed now (a limit was raised): counted from now on
                db.execute("UPDATE calls SET allowed = 1, reason = NULL WHERE session = ? AND call_id = ?",
                           (session, call_id))
            if stored is None or allowed:
                db.execute(self.COUNT_CALL, (allowed, depth, session))
        return verdict

    def reset(self, scope: Scope, *, limits: bool = False) -> None:
        """Forget what ``scope`` spent (and its limits when asked). Transcript offsets stay: no recount."""
        where, args = scope_where(scope)
        with self._tx() as db:
            self._lock(db, "usage")
            if limits:  # the limits row before the sessions: the order record_call locks them in
                self._lock(db, "limits", (scope.key,))
                db.execute("DELETE FROM limits WHERE scope = ?", (scope.key,))
            ids = [r[0] for r in db.execute(f"SELECT id FROM sessions {where}", args)]
            for sid in ids:
                db.execute("DELETE FROM usage WHERE session = ?", (sid,))
                db.execute("DELETE FROM calls WHERE session = ?", (sid,))
                db.execute("DELETE FROM agents WHERE session = ?", (sid,))  # the spawns --max-agents counted
            db.execute(f"DELETE FROM sessions {where}", args)
        if limits:
            self._after_limits_change()

    def add_decision(self, row: Row) -> None:
        """Record one decided call (budget/decisions.py): what the guard refused, redirected or replaced."""

        def work() -> None:
            with self._tx() as db:
                db.execute(RECORD_DECISION, row.params())

        self._again(work, keyed=False, seconds=self.RETRY_S)

    def decisions(self, *, session: str | None = None, project: str | None = None,
                  since: float | None = None) -> list[Decided]:
        """The decided calls of a session, of a project (its folder and below), or all; ``since``: Unix seconds."""
        from boundread.budget.stats import read  # the CLI's: the hook's and the budget's paths never load it

        return self._guarded(lambda: read(lambda sql, args: self._db.execute(sql, args).fetchall(),
                                          session, project, since))

    def sessions(self) -> list[str]:
        query = f"SELECT id FROM sessions ORDER BY {self.SESSION_ORDER}"
        return self._guarded(lambda: [r[0] for r in self._db.execute(query, ())])

    def projects(self) -> list[str]:
        """Every project folder that has sessions or limits, sorted."""
        query = (
            "SELECT project FROM sessions WHERE project IS NOT NULL"
            " UNION SELECT substr(scope, 9) FROM limits WHERE scope LIKE 'project:%' ORDER BY 1"
        )
        return self._guarded(lambda: [r[0] for r in self._db.execute(query, ())])


def _scopes(session: str, project: str | None) -> list[Scope]:
    """The scopes a call of ``session`` in ``project`` counts in."""
    return [Scope("session", session), Scope("global")] + ([Scope("project", project)] if project else [])


def _same_request(db: Any, rec: UsageRecord) -> tuple[int, str, int, int, int, int, int, int] | None:
    """The row that already holds ``rec``'s request, in any session, or None."""
    if rec.key is not None:
        row = db.execute(f"{_SAME} WHERE key = ? ORDER BY id LIMIT 1", (rec.key,)).fetchone()
        if row is not None:
            return tuple(row)
    if rec.message:  # a sidechain copy under another request id, either way round
        row = db.execute(
            f"{_SAME} WHERE message = ? AND (sidechain = 1 OR ? = 1) ORDER BY id LIMIT 1",
            (rec.message, int(rec.sidechain)),
        ).fetchone()
        return None if row is None else tuple(row)
    return None


def _grow(deltas: dict[str, list[int]], session: str, row: Sequence[int]) -> None:
    old = deltas.setdefault(session, [0, 0, 0, 0, 0])
    deltas[session] = [a + b for a, b in zip(old, row, strict=True)]


