"""``boundread budget recover``: put a broken, emptied or lost ledger back in order, keeping every limit.

- A healthy ledger (``PRAGMA quick_check``) stays where it is: limits that ``budget.limits.json`` lists and the
  ledger lacks (it was emptied or replaced) are put back, and the sidecar is brought up to date.
- A ledger SQLite cannot use (a damaged page, not a database) is moved aside as ``budget.sqlite3.broken-<time>``
  (its ``-wal`` and ``-shm`` with it) after what can be read is salvaged, table by table; a new ledger gets the
  limits (from the sidecar, else from the salvaged ``limits`` table) and the salvaged rows.

Spend that is not salvaged is not lost for good: without the transcripts' offsets, the next ``budget ingest``
reads each transcript from its start and the ledger counts each request once (its ``message.id`` key). Only
the tool-call counts that guard-check records cannot be recounted; those of a readable ``sessions`` or
``calls`` table are kept.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing, suppress
from dataclasses import dataclass, field
from pathlib import Path

from boundread.budget import sidecar
from boundread.budget.errors import LedgerError
from boundread.budget.ledger import ledger_url
from boundread.budget.ledgerurl import redact
from boundread.budget.model import BudgetLimits, Scope
from boundread.budget.rows import ledger_path, limits_from_json, limits_from_row, limits_params
from boundread.budget.schema import LIMIT_COLS, LIMIT_MARKS
from boundread.budget.sqlite import SqliteLedger, ledger_error

# What is salvaged from a broken ledger: each table's columns as the current schema names them, then as older
# schemas did (a ledger broken before schema v4 or v5); the columns an older one lacks read as NULL.
TABLES: dict[str, tuple[str, ...]] = {
    "limits": (f"scope, {LIMIT_COLS}", "scope, max_tokens, max_usd, max_depth, max_calls, max_repeat, deny_tools"),
    "sessions": ("id, project, calls, depth, warnings, halted", "id, project, calls, depth, warnings"),
    "usage": ("session, key, model, input, output, cache_read, cache_write, cost_nanos, flagged, price_source,"
              " message, sidechain, agent, at",
              "session, key, model, input, output, cache_read, cache_write, cost_nanos, flagged, price_source,"
              " message, sidechain"),
    "calls": ("session, tool, digest, depth, allowed, call_id, reason", "session, tool, digest, depth, allowed"),
    "offsets": ("path, offset, session",),
    "agents": ("session, agent, parent, depth, started, ended",),  # the spawns --max-agents counts, the depth tree
}


@dataclass(frozen=True)
class Recovery:
    path: str
    sidecar: str
    problem: str | None  # what was wrong; None: nothing was
    moved_to: str | None = None  # where the broken file went
    restored: tuple[str, ...] = ()  # scopes whose limits were put back
    salvaged: dict[str, int] = field(default_factory=dict)  # rows kept per table
    lost: tuple[str, ...] = ()  # tables that could not be read whole
    recount: bool = False  # transcripts will be read again from their start

    @property
    def changed(self) -> bool:
        return self.problem is not None


def recover(path: Path | None = None) -> Recovery:
    """Repair the ledger at ``path`` (default: the state folder's); LedgerError when even that cannot be done.

    Not for the PostgreSQL ledger: a database is backed up and restored with PostgreSQL's tools.
    """
    if path is None and (url := ledger_url()):
        raise LedgerError(
            f"budget recover repairs the local SQLite ledger; this machine's ledger is {redact(url)}",
            "restore that database with PostgreSQL's tools (pg_dump / pg_restore), or unset BOUNDREAD_LEDGER_URL"
            " to repair the local file",
        )
    path = path or ledger_path()
    side = Path(sidecar.path_for(str(path)))
    try:
        known = sidecar.read(str(side))
        side_problem = None
    except (OSError, ValueError) as exc:
        known, side_problem = None, f"{side.name} was unreadable ({exc})"
    broken = _broken(path)
    if broken is None:
        return _repair_in_place(path, side, known, side_problem)
    rows, lost = _salvage(path)
    moved = _move_aside(path)
    limits = _limits(known, rows.get("limits", []))
    recount = "usage" in lost or "usage" not in rows
    with SqliteLedger(path, recovering=True) as ledger:
        db = ledger._db  # one transaction over rows the ledger API has no call for
        try:
            db.execute("BEGIN IMMEDIATE")
            for key, lim in limits.items():
                _put_limits(db, key, lim)
            kept = _restore_rows(db, rows, recount=recount)
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise ledger_error(path, exc) from exc
        _write_sidecar(ledger)
    return Recovery(str(path), str(side), broken, str(moved), tuple(sorted(limits)), kept, tuple(lost), recount)


def _broken(path: Path) -> str | None:
    """Why SQLite cannot use the ledger as it is, or None (missing counts as usable: a new one is made)."""
    try:
        with SqliteLedger(path, recovering=True) as ledger:
            verdict = ledger._db.execute("PRAGMA quick_check").fetchone()[0]
    except LedgerError as exc:
        if exc.what.startswith("cannot open the budget ledger"):  # the folder itself: nothing to move aside
            raise
        return exc.what
    except sqlite3.Error as exc:
        return f"the budget ledger {path} is unusable ({exc})"
    return None if verdict == "ok" else f"the budget ledger {path} is damaged ({verdict})"


def _repair_in_place(
    path: Path, side: Path, known: dict[str, dict[str, object]] | None, side_problem: str | None
) -> Recovery:
    with SqliteLedger(path, recovering=True) as ledger:
        held = ledger.all_limits()
        missing = {key: limits_from_json(value) for key, value in (known or {}).items() if key not in held}
        missing = {key: lim for key, lim in missing.items() if not lim.empty}
        if missing:
            db = ledger._db
            try:
                db.execute("BEGIN IMMEDIATE")
                for key, lim in missing.items():
                    _put_limits(db, key, lim)
                db.execute("COMMIT")
            except sqlite3.Error as exc:
                raise ledger_error(path, exc) from exc
        _write_sidecar(ledger)
    problem = side_problem
    if missing:
        problem = f"the budget ledger {path} lacked the limits of {len(missing)} scope(s) that {side.name} lists"
    # a ledger emptied or replaced has no offsets: the next ingest recounts every transcript from its start
    return Recovery(str(path), str(side), problem, restored=tuple(sorted(missing)), recount=bool(missing))


def _write_sidecar(ledger: SqliteLedger) -> None:
    try:
        ledger.sync_sidecar()
    except OSError as exc:
        raise LedgerError(f"cannot write {ledger.sidecar} ({exc.strerror})", "make the state folder writable") from exc


def _open_broken(path: Path) -> sqlite3.Connection:
    """The broken file, for reading: as it is (with its WAL), else the main file alone, immutable."""
    try:
        db = sqlite3.connect(path, timeout=1)
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.Error:
        pass
    uri = str(path).replace("%", "%25").replace("?", "%3F").replace("#", "%23")
    return sqlite3.connect(f"file:{uri}?immutable=1", uri=True)


def _salvage(path: Path) -> tuple[dict[str, list[tuple[object, ...]]], list[str]]:
    """The rows each table still gives up, and the tables that stopped (or never started) giving them."""
    rows: dict[str, list[tuple[object, ...]]] = {}
    lost: list[str] = []
    try:
        db = _open_broken(path)
    except sqlite3.Error:
        return rows, list(TABLES)
    with closing(db):
        for table, spellings in TABLES.items():
            got = _read_table(db, table, spellings)
            if got is None:
                lost.append(table)
            else:
                rows[table] = got
    return rows, lost


def _read_table(db: sqlite3.Connection, table: str, spellings: tuple[str, ...]) -> list[tuple[object, ...]] | None:
    """``table``'s rows by the newest spelling of its columns that reads whole, padded to the newest's width;
    None when none does (a damaged page stops it, or the table was never there)."""
    width = len(spellings[0].split(","))
    for cols in spellings:
        try:
            pad = (None,) * (width - len(cols.split(",")))
            return [(*row, *pad) for row in _rows(db, f"SELECT {cols} FROM {table}")]  # our own table names
        except sqlite3.Error:
            continue
    return None


def _rows(db: sqlite3.Connection, query: str) -> Iterator[tuple[object, ...]]:
    cur = db.execute(query)
    while batch := cur.fetchmany(500):
        yield from batch


def _move_aside(path: Path) -> Path:
    stamp = time.strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.broken-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.broken-{stamp}-{n}")
    try:
        if path.exists():
            os.replace(path, target)
        for tail in ("-wal", "-shm", "-journal"):
            extra = Path(f"{path}{tail}")
            if extra.exists() or extra.is_symlink():
                os.replace(extra, f"{target}{tail}")
    except OSError as exc:
        raise LedgerError(
            f"cannot move the broken budget ledger {path} aside ({exc.strerror})",
            "make the state folder writable, or set BOUNDREAD_STATE_DIR to another folder",
        ) from exc
    return target


def _limits(known: dict[str, dict[str, object]] | None, salvaged: list[tuple[object, ...]]) -> dict[str, BudgetLimits]:
    """The sidecar's limits when it was readable (it follows every change), else the salvaged table's."""
    if known is not None:
        found = {key: limits_from_json(value) for key, value in known.items()}
    else:
        found = {}
        for row in salvaged:
            with suppress(ArithmeticError, ValueError, TypeError):
                found[str(row[0])] = limits_from_row(row[1:])
    return {key: lim for key, lim in found.items() if not lim.empty}


def _put_limits(db: sqlite3.Connection, key: str, lim: BudgetLimits) -> None:
    db.execute(f"INSERT OR REPLACE INTO limits(scope, {LIMIT_COLS}) VALUES ({LIMIT_MARKS})",
               limits_params(Scope.from_key(key), lim))


def _restore_rows(
    db: sqlite3.Connection, rows: dict[str, list[tuple[object, ...]]], *, recount: bool
) -> dict[str, int]:
    """Copy the salvaged rows; each session's totals are summed again from the usage and calls kept."""
    kept: dict[str, int] = {}
    usage = 0
    for row in rows.get("usage", []):
        with suppress(sqlite3.Error, OverflowError):
            usage += db.execute(
                "INSERT INTO usage(session, key, model, input, output, cache_read, cache_write, cost_nanos, flagged,"
                " price_source, message, sidechain, agent, at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
                " ON CONFLICT(session, key) DO NOTHING", row).rowcount
    kept["usage"] = usage
    calls = 0
    for row in rows.get("calls", []):
        with suppress(sqlite3.Error, OverflowError):
            calls += db.execute("INSERT OR IGNORE INTO calls(session, tool, digest, depth, allowed, call_id, reason)"
                                " VALUES (?,?,?,?,?,?,?)", row).rowcount
    kept["calls"] = calls
    old = {str(r[0]): r for r in rows.get("sessions", [])}
    ids = set(old) | {str(r[0]) for r in db.execute("SELECT session FROM usage UNION SELECT session FROM calls")}
    for sid in sorted(ids):
        _, project, old_calls, old_depth, warnings, halted = old.get(sid, (sid, None, 0, 0, 0, None))
        counted, deepest = db.execute(
            "SELECT COALESCE(SUM(allowed), 0), COALESCE(MAX(depth), 0) FROM calls WHERE session = ?", (sid,)
        ).fetchone()
        spent = db.execute(
            "SELECT COALESCE(SUM(input),0), COALESCE(SUM(output),0), COALESCE(SUM(cache_read),0),"
            " COALESCE(SUM(cache_write),0), COALESCE(SUM(cost_nanos),0) FROM usage WHERE session = ?", (sid,)
        ).fetchone()
        db.execute(
            "INSERT INTO sessions(id, project, input, output, cache_read, cache_write, cost_nanos, calls, depth,"
            " warnings, halted) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (sid, project, *spent, max(_int(old_calls), counted), max(_int(old_depth), deepest), _int(warnings),
             halted if isinstance(halted, str) else None),
        )
    kept["sessions"] = len(ids)
    agents = 0
    for row in rows.get("agents", []):
        with suppress(sqlite3.Error, OverflowError):
            agents += db.execute("INSERT OR IGNORE INTO agents(session, agent, parent, depth, started, ended)"
                                 " VALUES (?,?,?,?,?,?)", row).rowcount
    kept["agents"] = agents
    offsets = 0
    if not recount:  # without the usage an offset would skip, the transcripts are read again from the start
        for row in rows.get("offsets", []):
            with suppress(sqlite3.Error, OverflowError):
                offsets += db.execute("INSERT OR IGNORE INTO offsets(path, offset, session) VALUES (?,?,?)",
                                      row).rowcount
    kept["offsets"] = offsets
    return kept


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
