"""The ledger in one SQLite file per machine (WAL, busy timeout, one transaction per change).

Standard library only. The hook path reads and records through hookpath.py (same SQL, from schema.py) and
comes here to migrate, to explain an unusable file, or to decide when a limit may trip.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from boundread.budget import sidecar
from boundread.budget.decided import Row, from_line
from boundread.budget.errors import LedgerBusy, LedgerError
from boundread.budget.model import BudgetLimits
from boundread.budget.rows import ledger_path, limits_json, scopes_text, why
from boundread.budget.schema import (
    BUSY_MS,
    CURRENT_VERSION,
    DECISION_STEPS,
    DECISIONS_FILE,
    DECISIONS_JOURNAL,
    MIGRATIONS,
    RECORD_DECISION,
    WRITE_WAIT_S,
    clean_params,
)
from boundread.budget.sqlbase import SqlLedger

if TYPE_CHECKING:
    from boundread.budget.stats import Decided

_T = TypeVar("_T")
FULL_BYTES = 1 << 20  # less free space than this on the state folder's disk: full, for a ledger


class _Connection(sqlite3.Connection):
    """Text parameters as every store keeps them (``schema.clean``): a lone surrogate is no UTF-8 for sqlite3."""

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        return super().execute(sql, clean_params(parameters) if isinstance(parameters, (tuple, list)) else parameters)


class SqliteLedger(SqlLedger):
    """The ledger in one SQLite file. Safe for many hook processes at once.

    Its limits are repeated in ``budget.limits.json`` beside it (``sidecar``). A ledger that lacks limits the
    sidecar lists was emptied or replaced: opening it raises ``LedgerError`` naming ``budget recover``, unless
    ``recovering`` (the recovery itself).

    One statement waits ``BUSY_MS`` for another writer (guard-check's fallback opens and records within its
    budget); a write that still finds the ledger locked is tried again, by its keys, for ``WRITE_WAIT_S``
    (128 ``budget add`` at once all land). A tool call's record is not: the hook has its own bound.
    """

    RETRY_S = WRITE_WAIT_S
    _db: _Connection

    def __init__(self, path: Path | str | None = None, *, recovering: bool = False, wait: float = 0.0) -> None:
        """``wait``: how long to try again an opening that meets a lock (many first uses at once create and migrate
        the file); 0, as for guard-check's fallback, which has its own bound: one lock wait only."""
        self.path = Path(path) if path is not None else ledger_path()
        self.sidecar = Path(sidecar.path_for(str(self.path)))
        if not recovering and not self.path.exists() and sidecar.lists_any(str(self.sidecar)):
            raise LedgerError(
                f"the budget ledger {self.path} is missing, but {self.sidecar} lists limits",
                f"run `{sidecar.RECOVER}` (it recreates the ledger with the limits; spend is recounted"
                " from the transcripts)",
            )
        deadline, pause = time.monotonic() + wait, 0.05
        while True:
            try:
                self._open(recovering)
                return
            except LedgerBusy:
                if time.monotonic() + pause >= deadline:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, 0.5)

    def _open(self, recovering: bool) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None, factory=_Connection)
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

    def __enter__(self) -> SqliteLedger:
        return self

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
                f"the budget limits file {self.sidecar} is unreadable ({why(exc)})",
                f"run `{sidecar.RECOVER}` (it rebuilds the file from the ledger)",
            ) from None
        held = self.all_limits()
        lost = sorted(set(known or {}) - set(held))
        if lost:
            raise LedgerError(
                f"the budget ledger {self.path} was emptied or replaced: it lacks the limits of {scopes_text(lost)}"
                f" that {self.sidecar.name} lists",
                f"run `{sidecar.RECOVER}` (it puts the limits back; spend is recounted from the transcripts)",
            )
        if known is None and not held:
            return  # budgets never set: nothing to keep
        if known != {key: limits_json(lim) for key, lim in held.items()}:
            with suppress(OSError):  # read-only state: the next change of limits reports it
                self.sync_sidecar(held)

    def sync_sidecar(self, held: dict[str, BudgetLimits] | None = None) -> None:
        """Write ``budget.limits.json`` from the ledger's limits (OSError when it cannot be written)."""
        held = self.all_limits() if held is None else held
        sidecar.write(str(self.sidecar), {key: limits_json(lim) for key, lim in held.items()})

    def _after_limits_change(self) -> None:
        try:
            self.sync_sidecar()
        except OSError as exc:
            raise LedgerError(
                f"the limits are in the ledger, but {self.sidecar} could not be written ({exc.strerror})",
                "make the state folder writable and repeat the command (a lost ledger would forget them)",
            ) from exc

    @contextmanager
    def _tx(self) -> Iterator[_Connection]:
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

    def _guarded(self, read: Callable[[], _T]) -> _T:
        try:
            return read()
        except sqlite3.Error as exc:
            raise ledger_error(self.path, exc) from exc

    def add_decision(self, row: Row) -> None:
        """In the decisions file beside the ledger (schema.py, V6: not in the ledger itself)."""
        with SqliteDecisions(self.path.with_name(DECISIONS_FILE)) as store:
            store.add_decision(row)

    def decisions(self, *, session: str | None = None, project: str | None = None,
                  since: float | None = None) -> list[Decided]:
        with SqliteDecisions(self.path.with_name(DECISIONS_FILE)) as store:
            return store.decisions(session=session, project=project, since=since)


class SqliteDecisions:
    """The guard's decisions in their own SQLite file (``schema.DECISIONS_FILE``), never the budget ledger's.

    guard-check appends its rows to the journal beside it (budget/decided.py); reading folds the journal in first,
    under the journal's exclusive lock: each row by its key (folded twice, it counts once), then the journal is
    emptied. With no file and no journal, reading finds no rows and creates nothing.
    """

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else ledger_path().with_name(DECISIONS_FILE)
        self.journal = self.path.with_name(DECISIONS_JOURNAL)
        self._db: sqlite3.Connection | None = None

    def __enter__(self) -> SqliteDecisions:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _open(self) -> sqlite3.Connection:
        if self._db is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(self.path, timeout=WRITE_WAIT_S, isolation_level=None,
                                           factory=_Connection)
                self._migrate(self._db)
            except sqlite3.Error as exc:
                self.close()
                raise decisions_error(self.path, exc) from exc
            except OSError as exc:
                self.close()
                raise LedgerError(f"cannot open {self.path}: {exc.strerror}",
                                  "set BOUNDREAD_STATE_DIR to a writable folder") from exc
        return self._db

    def _migrate(self, db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version == len(DECISION_STEPS):
            return
        if version > len(DECISION_STEPS):
            raise LedgerError(f"{self.path} has schema v{version}, newer than this boundread", "upgrade boundread")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("BEGIN IMMEDIATE")
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]  # another process may have migrated
            for target in range(version + 1, len(DECISION_STEPS) + 1):
                for statement in DECISION_STEPS[target - 1]:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {target}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def add_decision(self, row: Row) -> None:
        db = self._open()
        try:
            db.execute(RECORD_DECISION, row.params())
        except sqlite3.Error as exc:
            raise decisions_error(self.path, exc) from exc

    def fold(self) -> int:
        """Move the journal's rows into the file; how many lines it held."""
        try:
            fd = os.open(self.journal, os.O_RDWR)
        except FileNotFoundError:
            return 0
        except OSError as exc:
            raise LedgerError(f"cannot read {self.journal}: {exc.strerror}", "make it readable and writable") from exc
        try:
            _flock(fd)
            with os.fdopen(os.dup(fd), "rb") as fh:
                lines = fh.read().splitlines(keepends=True)
            rows = [row for row in map(from_line, (ln for ln in lines if ln.endswith(b"\n"))) if row is not None]
            if rows:
                db = self._open()
                try:
                    with self._tx(db):
                        for row in rows:
                            db.execute(RECORD_DECISION, row.params())
                except sqlite3.Error as exc:
                    raise decisions_error(self.path, exc) from exc
            os.ftruncate(fd, 0)  # only once they are in: a failure before leaves the journal for the next fold
        except OSError as exc:
            raise LedgerError(f"cannot fold {self.journal}: {exc.strerror}", "make it writable") from exc
        finally:
            os.close(fd)
        return len(lines)

    @staticmethod
    @contextmanager
    def _tx(db: sqlite3.Connection) -> Iterator[None]:
        db.execute("BEGIN IMMEDIATE")
        try:
            yield
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def decisions(self, *, session: str | None = None, project: str | None = None,
                  since: float | None = None) -> list[Decided]:
        self.fold()
        if self._db is None and not self.path.exists():
            return []
        db = self._open()
        from boundread.budget.stats import read

        try:
            return read(lambda sql, args: db.execute(sql, args).fetchall(), session, project, since)
        except sqlite3.Error as exc:
            raise decisions_error(self.path, exc) from exc


def _flock(fd: int) -> None:
    """The journal's exclusive lock: no hook appends while it is folded (none on Windows)."""
    try:
        import fcntl
    except ImportError:
        return
    fcntl.flock(fd, fcntl.LOCK_EX)


def decisions_error(path: Path | str, exc: sqlite3.Error) -> LedgerError:
    """``ledger_error`` for the decisions file: a lock, a read-only folder or a full disk as for the ledger; a damaged
    file is moved aside by hand (it holds only what ``boundread stats`` counts; no limits to recover)."""
    error = ledger_error(path, exc)
    if isinstance(error, LedgerBusy) or "budget recover" not in error.fix:
        return error
    return LedgerError(f"the decisions file {path} is unusable ({exc})",
                       "move it aside: the next `boundread stats` starts a new one (the old one keeps what it counted)")


def ledger_error(path: Path | str, exc: sqlite3.Error) -> LedgerError:
    """One line for a SQLite failure, naming the fix that helps: ``budget recover`` only where the file is at fault
    (damaged, replaced, its log unopenable); not for a lock (``LedgerBusy``), a read-only folder or a full disk."""
    text = str(exc)
    code = _code(exc)
    folder = Path(path).parent
    if code in (5, 6):  # SQLITE_BUSY, SQLITE_LOCKED
        return LedgerBusy(
            f"the budget ledger {path} stayed locked for {BUSY_MS / 1000:g}s",
            "another boundread holds it; retry, or check for a stuck process",
        )
    fault = _folder_fault(folder) if code in (8, 10, 13, 14) else None  # READONLY, IOERR, FULL, CANTOPEN
    if fault == "read-only" or code == 8:
        return LedgerError(f"the budget ledger {path} cannot be written: {folder} is read-only ({text})",
                           f"make {folder} writable, or set BOUNDREAD_STATE_DIR to a writable folder")
    if fault == "full" or code == 13:
        return LedgerError(f"the budget ledger {path} cannot be written: the disk that holds it is full ({text})",
                           "free space on it, or set BOUNDREAD_STATE_DIR to a folder on another disk")
    return LedgerError(
        f"the budget ledger {path} is unusable ({text})",
        f"run `{sidecar.RECOVER}` (it moves the file aside and restores the limits)",
    )


def _folder_fault(folder: Path) -> str | None:
    """``read-only`` or ``full`` when the state folder's file system is so - what ``budget recover`` cannot mend (it
    would fail to move the file aside) - else None. SQLite says "unable to open database file" or "disk I/O error"
    for both, when it cannot create or grow the ``-wal`` and ``-shm`` files."""
    try:
        info = os.statvfs(folder)
    except OSError:
        return None
    if info.f_flag & os.ST_RDONLY or not os.access(folder, os.W_OK):
        return "read-only"
    return "full" if info.f_bavail * info.f_frsize < FULL_BYTES else None


def _code(exc: sqlite3.Error) -> int | None:
    """SQLite's primary result code (Python 3.11+), else read from SQLite's own wording."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF
    text = str(exc)
    words = {"database is locked": 5, "database table is locked": 6, "attempt to write a readonly database": 8,
             "database or disk is full": 13}
    return next((n for phrase, n in words.items() if phrase in text), None)
