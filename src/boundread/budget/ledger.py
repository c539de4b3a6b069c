"""The budget ledger: a small interface, and SQLite behind it (WAL, busy timeout, one transaction per change).

Standard library only. The hook path reads and records through hookpath.py (same SQL, from schema.py) and
comes here to migrate, to explain an unusable file, or to decide when a limit may trip. Money is stored as
integer nano-dollars so sums are exact.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from decimal import Decimal
from pathlib import Path
from typing import Protocol, TypeVar

from boundread.budget import sidecar
from boundread.budget.errors import LedgerError
from boundread.budget.model import (
    BudgetLimits,
    CallView,
    Scope,
    ScopeView,
    Totals,
    UsageRecord,
    from_nanos,
    to_nanos,
)
from boundread.budget.schema import (
    BUSY_MS,
    COUNT_CALL,
    CURRENT_VERSION,
    LIMIT_COLS,
    MIGRATIONS,
    RECENT_DIGESTS,
    RECORD_CALL,
    SCOPE_WHERE,
    TOUCH_SESSION,
)

FILENAME = "budget.sqlite3"
_T = TypeVar("_T")


def state_dir() -> Path:
    """``$BOUNDREAD_STATE_DIR``, else ``$XDG_STATE_HOME/boundread``, else ``~/.local/state/boundread``."""
    explicit = os.environ.get("BOUNDREAD_STATE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_STATE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "state"
    return base / "boundread"


def ledger_path() -> Path:
    return state_dir() / FILENAME


class Ledger(Protocol):
    """What the guards need from a store. SQLite backs it today; another store can later."""

    def set_limits(self, scope: Scope, limits: BudgetLimits) -> BudgetLimits: ...
    def limits(self, scope: Scope) -> BudgetLimits: ...
    def add_usage(
        self,
        session: str,
        records: Sequence[UsageRecord],
        *,
        project: str | None = None,
        transcript: tuple[str, int] | None = None,
        warnings: int = 0,
    ) -> int: ...
    def offset(self, transcript: str) -> int: ...
    def offsets(self, transcripts: Sequence[str]) -> dict[str, int]: ...
    def totals(self, scope: Scope) -> Totals: ...
    def record_call(
        self,
        session: str,
        project: str | None,
        tool: str,
        digest: str,
        depth: int,
        decide: Callable[[CallView], _T | None],
    ) -> _T | None: ...
    def reset(self, scope: Scope, *, limits: bool = False) -> None: ...
    def sessions(self) -> list[str]: ...
    def projects(self) -> list[str]: ...


def limits_from_row(row: Sequence[object]) -> BudgetLimits:
    tokens, usd, depth, calls, repeat, deny = row
    return BudgetLimits(
        max_tokens=tokens if isinstance(tokens, int) else None,
        max_usd=Decimal(str(usd)) if usd is not None else None,
        max_depth=depth if isinstance(depth, int) else None,
        max_calls=calls if isinstance(calls, int) else None,
        max_repeat=repeat if isinstance(repeat, int) else None,
        deny_tools=tuple(t for t in str(deny or "").split(",") if t),
    )


_TOTALS = (
    "COALESCE(SUM(input),0), COALESCE(SUM(output),0), COALESCE(SUM(cache_read),0), "
    "COALESCE(SUM(cache_write),0), COALESCE(SUM(cost_nanos),0), COALESCE(SUM(calls),0), "
    "COALESCE(MAX(depth),0), COALESCE(SUM(warnings),0)"
)


def _where(scope: Scope) -> tuple[str, tuple[str, ...]]:
    where = SCOPE_WHERE.get(scope.kind, "")
    return where, (scope.name,) if where else ()


class SqliteLedger:
    """The ledger in one SQLite file. Safe for many hook processes at once.

    Its limits are repeated in ``budget.limits.json`` beside it (``sidecar``). A ledger that lacks limits the
    sidecar lists was emptied or replaced: opening it raises ``LedgerError`` naming ``budget recover``, unless
    ``recovering`` (the recovery itself).
    """

    def __init__(self, path: Path | str | None = None, *, recovering: bool = False) -> None:
        self.path = Path(path) if path is not None else ledger_path()
        self.sidecar = Path(sidecar.path_for(str(self.path)))
        if not recovering and not self.path.exists() and sidecar.lists_any(str(self.sidecar)):
            raise LedgerError(
                f"the budget ledger {self.path} is missing, but {self.sidecar} lists limits",
                f"run `{sidecar.RECOVER}` (it recreates the ledger with the limits; spend is recounted"
                " from the transcripts)",
            )
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None)
            self._db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
            if self._db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            if hasattr(self._db, "setconfig"):  # Python 3.12+: skip the checkpoint (fsync) every close costs
                no_ckpt = getattr(sqlite3, "SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE", None)
                if no_ckpt is not None:
                    self._db.setconfig(no_ckpt, True)
            self._migrate()
            if not recovering:
                self._check_sidecar()
        except sqlite3.Error as exc:
            self._close_quietly()
            raise ledger_error(self.path, exc) from exc
        except OSError as exc:
            self._close_quietly()
            raise LedgerError(
                f"cannot open the budget ledger {self.path}: {exc.strerror}",
                "set BOUNDREAD_STATE_DIR to a writable folder",
            ) from exc
        except LedgerError:
            self._close_quietly()
            raise

    def _close_quietly(self) -> None:
        db = getattr(self, "_db", None)
        if db is not None:
            db.close()

    def _check_sidecar(self) -> None:
        """Refuse a ledger that lost limits the sidecar lists; bring a stale or missing sidecar up to date."""
        try:
            known = sidecar.read(str(self.sidecar))
        except (OSError, ValueError) as exc:
            raise LedgerError(
                f"the budget limits file {self.sidecar} is unreadable ({_why(exc)})",
                f"run `{sidecar.RECOVER}` (it rebuilds the file from the ledger)",
            ) from None
        held = self.all_limits()
        lost = sorted(set(known or {}) - set(held))
        if lost:
            raise LedgerError(
                f"the budget ledger {self.path} was emptied or replaced: it lacks the limits of {_scopes(lost)}"
                f" that {self.sidecar.name} lists",
                f"run `{sidecar.RECOVER}` (it puts the limits back; spend is recounted from the transcripts)",
            )
        if known is None and not held:
            return  # budgets never set: nothing to keep
        if known != {key: limits_json(lim) for key, lim in held.items()}:
            with suppress(OSError):  # read-only state: the next change of limits reports it
                self.sync_sidecar(held)

    def all_limits(self) -> dict[str, BudgetLimits]:
        """Every scope that has limits, by key."""
        rows = self._guarded(lambda: self._db.execute(f"SELECT scope, {LIMIT_COLS} FROM limits").fetchall())
        found = {str(row[0]): limits_from_row(row[1:]) for row in rows}
        return {key: lim for key, lim in found.items() if not lim.empty}

    def sync_sidecar(self, held: dict[str, BudgetLimits] | None = None) -> None:
        """Write ``budget.limits.json`` from the ledger's limits (OSError when it cannot be written)."""
        held = self.all_limits() if held is None else held
        sidecar.write(str(self.sidecar), {key: limits_json(lim) for key, lim in held.items()})

    def _sidecar_after_change(self) -> None:
        try:
            self.sync_sidecar()
        except OSError as exc:
            raise LedgerError(
                f"the limits are in the ledger, but {self.sidecar} could not be written ({exc.strerror})",
                "make the state folder writable and repeat the command (a lost ledger would forget them)",
            ) from exc

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> SqliteLedger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; any SQLite failure inside it (a damaged page, a full disk) is a LedgerError."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise ledger_error(self.path, exc) from exc
        try:
            yield self._db
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback()
            raise ledger_error(self.path, exc) from exc
        except OverflowError as exc:  # a count past SQLite's 64-bit integers: refuse it whole
            self._rollback()
            raise LedgerError(f"a count is too large for the budget ledger ({exc})",
                              "pass counts below 2**63") from exc
        except BaseException:
            self._rollback()
            raise

    def _rollback(self) -> None:
        with suppress(sqlite3.Error):
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version == CURRENT_VERSION:
            return
        if version > CURRENT_VERSION:
            raise LedgerError(
                f"the budget ledger {self.path} has schema v{version}, newer than this boundread",
                "upgrade boundread, or point BOUNDREAD_STATE_DIR elsewhere",
            )
        with self._tx() as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]  # another process may have migrated
            for target in range(version + 1, CURRENT_VERSION + 1):
                for statement in MIGRATIONS[target - 1]:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {target}")

    def set_limits(self, scope: Scope, limits: BudgetLimits) -> BudgetLimits:
        with self._tx() as db:
            merged = self._limits(db, scope).merged(limits)
            db.execute(
                f"INSERT OR REPLACE INTO limits(scope, {LIMIT_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    scope.key,
                    merged.max_tokens,
                    None if merged.max_usd is None else str(merged.max_usd),
                    merged.max_depth,
                    merged.max_calls,
                    merged.max_repeat,
                    ",".join(merged.deny_tools),
                ),
            )
        self._sidecar_after_change()
        return merged

    def limits(self, scope: Scope) -> BudgetLimits:
        return self._guarded(lambda: self._limits(self._db, scope))

    @staticmethod
    def _limits(db: sqlite3.Connection, scope: Scope) -> BudgetLimits:
        return limits_of(db, scope)

    def add_usage(
        self,
        session: str,
        records: Sequence[UsageRecord],
        *,
        project: str | None = None,
        transcript: tuple[str, int] | None = None,
        warnings: int = 0,
    ) -> int:
        """Record usage and the transcript offset, atomically; each model request once in the whole ledger.

        A record whose key (``<message.id>:<requestId>``) is already in the ledger, in any session, is a repeat:
        a streamed message's later line, a resumed session's or a compaction's copy. The main chain's entry
        wins over a sub-agent's (sidechain) copy, then the larger count, and stays with the session that
        recorded it first. A sidechain copy of a message recorded under another request id is a repeat too
        (ccusage's rule).
        """
        added = 0
        deltas: dict[str, list[int]] = {session: [0, 0, 0, 0, 0]}
        with self._tx() as db:
            _touch(db, session, project)
            for rec in records:
                row = (rec.input, rec.output, rec.cache_read, rec.cache_write, to_nanos(rec.cost))
                old = _same_request(db, rec)
                if old is None:
                    cur = db.execute(
                        "INSERT INTO usage(session, key, model, input, output, cache_read, cache_write, cost_nanos,"
                        " flagged, price_source, message, sidechain) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
                        " ON CONFLICT(session, key) DO NOTHING",
                        (session, rec.key, rec.model, *row, int(rec.flagged), rec.price_source, rec.message,
                         int(rec.sidechain)),
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
            if transcript:
                db.execute(
                    "INSERT INTO offsets(path, offset, session) VALUES (?, ?, ?) ON CONFLICT(path)"
                    " DO UPDATE SET offset = MAX(offset, excluded.offset)",
                    (*transcript, session),
                )
        return added

    def offset(self, transcript: str) -> int:
        row = self._guarded(
            lambda: self._db.execute("SELECT offset FROM offsets WHERE path = ?", (transcript,)).fetchone()
        )
        return int(row[0]) if row else 0

    def offsets(self, transcripts: Sequence[str]) -> dict[str, int]:
        """The byte offset reached in each of ``transcripts`` that was ingested before."""
        found: dict[str, int] = {}
        for i in range(0, len(transcripts), 500):  # well under SQLite's limit on bound parameters
            chunk = tuple(transcripts[i : i + 500])
            query = f"SELECT path, offset FROM offsets WHERE path IN ({','.join('?' * len(chunk))})"
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
    ) -> _T | None:
        """Record a tool call and return ``decide``'s verdict in one transaction. No limits: no write."""
        scopes = [Scope("session", session), Scope("global")] + ([Scope("project", project)] if project else [])
        keys = tuple(s.key for s in scopes)
        marks = ",".join("?" * len(keys))
        query = f"SELECT COUNT(*) FROM limits WHERE scope IN ({marks})"
        if not self._guarded(lambda: self._db.execute(query, keys).fetchone()[0]):
            return None
        with self._tx() as db:
            _touch(db, session, project)
            views = tuple(ScopeView(s, lim, totals_of(db, s)) for s in scopes if not (lim := self._limits(db, s)).empty)
            repeat = max((v.limits.max_repeat or 0 for v in views), default=0)
            recent = tuple(r[0] for r in db.execute(RECENT_DIGESTS, (session, max(repeat, 1))))
            verdict = decide(CallView(session, tool, digest, depth, views, recent))
            db.execute(RECORD_CALL, (session, tool, digest, depth, int(verdict is None)))
            db.execute(COUNT_CALL, (int(verdict is None), depth, session))
        return verdict

    def reset(self, scope: Scope, *, limits: bool = False) -> None:
        """Forget what ``scope`` spent (and its limits when asked). Transcript offsets stay: no recount."""
        where, args = _where(scope)
        with self._tx() as db:
            ids = [r[0] for r in db.execute(f"SELECT id FROM sessions {where}", args)]
            for sid in ids:
                db.execute("DELETE FROM usage WHERE session = ?", (sid,))
                db.execute("DELETE FROM calls WHERE session = ?", (sid,))
            db.execute(f"DELETE FROM sessions {where}", args)
            if limits:
                db.execute("DELETE FROM limits WHERE scope = ?", (scope.key,))
        if limits:
            self._sidecar_after_change()

    def sessions(self) -> list[str]:
        return self._guarded(lambda: [r[0] for r in self._db.execute("SELECT id FROM sessions ORDER BY rowid")])

    def projects(self) -> list[str]:
        """Every project folder that has sessions or limits, sorted."""
        query = (
            "SELECT project FROM sessions WHERE project IS NOT NULL"
            " UNION SELECT substr(scope, 9) FROM limits WHERE scope LIKE 'project:%' ORDER BY 1"
        )
        return self._guarded(lambda: [r[0] for r in self._db.execute(query)])

    def _guarded(self, read: Callable[[], _T]) -> _T:
        try:
            return read()
        except sqlite3.Error as exc:
            raise ledger_error(self.path, exc) from exc


def limits_of(db: sqlite3.Connection, scope: Scope) -> BudgetLimits:
    row = db.execute(f"SELECT {LIMIT_COLS} FROM limits WHERE scope = ?", (scope.key,)).fetchone()
    return limits_from_row(row) if row else BudgetLimits()


_SAME = "SELECT id, session, sidechain, input, output, cache_read, cache_write, cost_nanos FROM usage"


def _same_request(db: sqlite3.Connection, rec: UsageRecord) -> tuple[int, str, int, int, int, int, int, int] | None:
    """The row that already holds ``rec``'s request, in any session, or None."""
    if rec.key is not None:
        row = db.execute(f"{_SAME} WHERE key = ? ORDER BY id LIMIT 1", (rec.key,)).fetchone()
        if row is not None:
            return row  # type: ignore[no-any-return]
    if rec.message:  # a sidechain copy under another request id, either way round
        return db.execute(  # type: ignore[no-any-return]
            f"{_SAME} WHERE message = ? AND (sidechain = 1 OR ? = 1) ORDER BY id LIMIT 1",
            (rec.message, int(rec.sidechain)),
        ).fetchone()
    return None


def _grow(deltas: dict[str, list[int]], session: str, row: Sequence[int]) -> None:
    old = deltas.setdefault(session, [0, 0, 0, 0, 0])
    deltas[session] = [a + b for a, b in zip(old, row, strict=True)]


def _touch(db: sqlite3.Connection, session: str, project: str | None) -> None:
    db.execute(TOUCH_SESSION, (session, project))


def totals_of(db: sqlite3.Connection, scope: Scope) -> Totals:
    where, args = _where(scope)
    row = db.execute(f"SELECT {_TOTALS} FROM sessions {where}", args).fetchone()
    usage_where = where.replace("id =", "session =").replace(
        "project = ?", "session IN (SELECT id FROM sessions WHERE project = ?)"
    )
    joiner = " AND" if usage_where else "WHERE"
    unpriced = tuple(
        r[0]
        for r in db.execute(f"SELECT DISTINCT model FROM usage {usage_where}{joiner} flagged = 1 ORDER BY model", args)
    )
    return Totals(
        input=row[0],
        output=row[1],
        cache_read=row[2],
        cache_write=row[3],
        cost=from_nanos(row[4]),
        calls=row[5],
        depth=row[6],
        warnings=row[7],
        unpriced=unpriced,
    )


def ledger_error(path: Path | str, exc: sqlite3.Error) -> LedgerError:
    text = str(exc)
    if "locked" in text or "busy" in text:
        return LedgerError(
            f"the budget ledger {path} stayed locked for {BUSY_MS // 1000}s",
            "another boundread holds it; retry, or check for a stuck process",
        )
    return LedgerError(
        f"the budget ledger {path} is unusable ({text})",
        f"run `{sidecar.RECOVER}` (it moves the file aside and restores the limits)",
    )


def limits_json(lim: BudgetLimits) -> dict[str, object]:
    """The limits as the sidecar stores them (the fields that are set)."""
    return {k: v for k, v in lim.as_json().items() if v not in (None, [])}


def limits_from_json(data: dict[str, object]) -> BudgetLimits:
    """``limits_json`` read back; a value of the wrong type is dropped."""

    def whole(name: str) -> int | None:
        value = data.get(name)
        return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None

    usd = data.get("max_usd")
    try:
        amount = Decimal(usd) if isinstance(usd, str) else None
    except ArithmeticError:
        amount = None
    tools = data.get("deny_tools")
    return BudgetLimits(
        max_tokens=whole("max_tokens"),
        max_usd=amount if amount is not None and amount.is_finite() and amount >= 0 else None,
        max_depth=whole("max_depth"),
        max_calls=whole("max_calls"),
        max_repeat=whole("max_repeat"),
        deny_tools=tuple(t for t in tools if isinstance(t, str) and t) if isinstance(tools, list) else (),
    )


def _why(exc: BaseException) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)


def _scopes(keys: Sequence[str]) -> str:
    named = ", ".join(keys[:3]) + (f" and {len(keys) - 3} more" if len(keys) > 3 else "")
    return f"{len(keys)} scope(s) ({named})"
