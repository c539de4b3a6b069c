"""What the guard kept out of the context, as it decided it: one row per refused, redirected or backstopped call.

guard-check calls :func:`record` after it has its answer, only for a call it decided - a deny, a redirect, a
post-tool replacement - never on a plain allow, so the allow path loads nothing of this. The row holds what the
agent asked for (``raw``: the file's size on disk, the output's size) and what the model got instead
(``delivered``: the deny's reason, the slice and its note, the replacement); ``boundread stats`` sums them
(budget/stats.py). Recording never changes the answer and never fails the hook: a store that cannot be written
is one warning line, which the hook prints on stderr.

The store is the ledger's: PostgreSQL's ``decisions`` table when a ledger URL is configured (written through
pghook's libpq connection; psycopg only for a schema still to create or migrate), else a SQLite file of its own
in the state folder (``schema.DECISIONS_FILE``), never the budget ledger file: its presence turns the budget
check on for every later call (schema.py, V6). For SQLite the hook appends the row to a journal beside that file
(budget/decided.py: no ``sqlite3`` import on a deny), which ``boundread stats`` folds in.

Standard library only, with no typing, json or pathlib at run time: it runs inside guard-check.
"""

# os.path on purpose, not pathlib: importing pathlib costs milliseconds of start-up on the hook path.
# ruff: noqa: PTH103, PTH118, PTH120
from __future__ import annotations

import os
import time

from boundread.budget.decided import BACKSTOP, DENY, KINDS, REDIRECT, NotRecorded, Row
from boundread.budget.schema import DECISIONS_JOURNAL, RECORD_DECISION

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["BACKSTOP", "DENY", "KINDS", "NOT_RECORDED", "REDIRECT", "NotRecorded", "Row", "record", "row_of"]
WAIT_S = 2.0  # how long a row waits for another writer (or the server): a deny is answered well within the hook's 10 s
NOT_RECORDED = "boundread: warning: this call was not counted in `boundread stats`"


def row_of(payload: dict[str, Any], agent: str, tool: str, kind: str, target: str, raw: int | None,
           delivered: int | None) -> Row:
    """The row of a call from its hook payload: the session and project as the budget reads them (budget/enforce.py).
    Its key is the client's id of the call where it has one: a hook the client runs again counts once."""
    from boundread.budget.digest import action_digest
    from boundread.budget.enforce import call_id_of, project_of, session_of

    session, call = session_of(payload) or "default", call_id_of(payload)
    key = action_digest(kind, [session, call]) if call else None  # of a bounded length, whatever the ids' length
    return Row(session, project_of(payload), agent, tool, kind, target, raw, delivered, key=key)


def record(row: Row) -> str | None:
    """Write ``row`` to the configured store; None, or the warning line to print when it could not be written."""
    try:
        from boundread.budget.ledgerurl import find

        url = find()
        if url:
            _postgres(url, row)
        else:
            _append(journal_path(), row)
    except NotRecorded as exc:
        return f"{NOT_RECORDED}: {exc}"
    except Exception as exc:  # noqa: BLE001 - the answer stands whatever the store does
        return f"{NOT_RECORDED}: {type(exc).__name__}: {exc}"
    return None


def state_dir() -> str:
    """The state folder, as the budget ledger's (``BOUNDREAD_STATE_DIR``, else ``$XDG_STATE_HOME/boundread``)."""
    from boundread.budget.enforce import _state_dir

    return _state_dir()


def journal_path() -> str:
    """Where guard-check appends the SQLite store's rows: ``decisions.journal`` in the state folder."""
    return os.path.join(state_dir(), DECISIONS_JOURNAL)


def _append(path: str, row: Row) -> None:
    """One line at the journal's end, under its shared lock (``fold`` takes the exclusive one to empty it)."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError as exc:
        raise NotRecorded(f"cannot open {path} ({exc.strerror})", "set BOUNDREAD_STATE_DIR to a writable folder") \
            from None
    try:
        _lock(fd, exclusive=False)
        os.write(fd, row.line())
    except OSError as exc:
        raise NotRecorded(f"cannot write {path} ({exc.strerror})", "make it writable, or free space on its disk") \
            from None
    finally:
        os.close(fd)  # the lock goes with it


def _lock(fd: int, *, exclusive: bool) -> None:
    """flock, where there is one (not on Windows: an append is one write there too)."""
    try:
        import fcntl
    except ImportError:
        return
    fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)


def _postgres(url: str, row: Row) -> None:
    """One INSERT through libpq (pghook's connection); a schema to create or migrate goes through PostgresLedger."""
    from boundread.budget.ledgerurl import mask, redact
    from boundread.budget.libpq import Missing, load
    from boundread.budget.pghook import UNDEFINED_COLUMN, UNDEFINED_TABLE, Conn, PgError

    try:
        db = Conn(load(), url, deadline=time.monotonic() + WAIT_S)
    except Missing:  # no libpq to load: psycopg's own
        _full(url, row)
        return
    except PgError as exc:
        raise NotRecorded(f"cannot reach {redact(url)} ({mask(str(exc), url)})", "check the server") from None
    try:
        db.execute(RECORD_DECISION, row.params())
    except PgError as exc:
        if exc.state not in (UNDEFINED_TABLE, UNDEFINED_COLUMN):
            raise NotRecorded(f"{redact(url)} failed ({mask(str(exc), url)})", "check the server") from None
        _full(url, row)  # the ledger's schema is older (or not there yet): PostgresLedger migrates it
    finally:
        db.close()


def _full(url: str, row: Row) -> None:
    from boundread.budget.errors import LedgerError
    from boundread.budget.postgres import PostgresLedger

    try:
        with PostgresLedger(url) as ledger:
            ledger.add_decision(row)
    except LedgerError as exc:
        raise NotRecorded(exc.what, exc.fix) from None
