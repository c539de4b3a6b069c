"""Open a SQLite database read-only, writing nothing: not the file, not a -journal, -wal or -shm beside it.

``immutable=1`` (no locks, no -shm) when no -wal or -journal lies beside the file; with a -wal and its -shm
(a database in use), ``mode=ro`` reads the WAL's commits through the existing -shm; a -wal without a -shm, or a
hot -journal, would need a file written to be read: the database is read immutable and a warning says what
was left out. A progress handler and a timer (``interrupt``) stop any statement at the deadline.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from boundread.contract.model import Source
from boundread.errors import Corrupt, Unsupported
from boundread.limits import Deadline

PROGRESS_STEPS = 20_000  # SQLite VM instructions between deadline checks (~0.1-1 ms)


@dataclass
class Opened:
    conn: sqlite3.Connection
    warnings: list[str] = field(default_factory=list)
    immutable: bool = True
    #: what the progress handler checks: the command's deadline, or a shorter one while a count runs
    deadline: Deadline = field(default_factory=lambda: Deadline(None))
    bad_text: int = 0  # TEXT values that were not UTF-8, shown with U+FFFD

    def text(self, raw: bytes) -> str:
        """The connection's text_factory: a TEXT value that is not UTF-8 is shown with U+FFFD, and counted."""
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            self.bad_text += 1
            return raw.decode("utf-8", errors="replace")

    @contextlib.contextmanager
    def budget(self, seconds: float) -> Iterator[Deadline]:
        """A shorter deadline for one statement (a COUNT(*) that may scan a big table), never past the
        command's."""
        outer = self.deadline
        left = outer.remaining
        self.deadline = Deadline(seconds if left is None else min(seconds, left))
        timer = alarm(self.conn, self.deadline)
        try:
            yield self.deadline
        finally:
            if timer is not None:
                timer.cancel()
            self.deadline = outer


def alarm(conn: sqlite3.Connection, deadline: Deadline) -> threading.Timer | None:
    """``conn.interrupt()`` at the deadline: COUNT(*) is one VDBE instruction (a walk of every page) that the
    progress handler never gets between, but that checks the interrupt flag."""
    if deadline.remaining is None:
        return None
    timer = threading.Timer(deadline.remaining, conn.interrupt)
    timer.daemon = True
    timer.start()
    return timer


def sidecars(path: Path) -> tuple[bool, bool, bool]:
    """Whether ``F-wal``, ``F-shm`` and ``F-journal`` exist beside the database."""
    wal, shm, journal = (path.with_name(path.name + suffix).exists() for suffix in ("-wal", "-shm", "-journal"))
    return wal, shm, journal


def uri(path: Path, immutable: bool) -> str:
    return f"file:{quote(str(path.resolve()))}?mode=ro" + ("&immutable=1" if immutable else "")


@contextlib.contextmanager
def opened(src: Source, deadline: Deadline) -> Iterator[Opened]:
    """The database read-only with ``query_only`` on and the deadline enforced; Corrupt when SQLite cannot read
    its header or schema."""
    result = _open(src)
    result.deadline = deadline
    conn = result.conn
    conn.text_factory = result.text
    conn.set_progress_handler(lambda: 1 if result.deadline.expired else 0, PROGRESS_STEPS)
    try:
        conn.execute("PRAGMA query_only=ON")
        conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()  # reads the header and the schema
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # SQLite's message may quote bytes that are not UTF-8
        conn.close()
        raise damaged(src, exc) from None
    timer = alarm(conn, deadline)
    try:
        yield result
    finally:
        if timer is not None:
            timer.cancel()
        conn.close()


def _open(src: Source) -> Opened:
    if src.path is None:  # an archive member, held in memory: a private copy SQLite may not write back
        conn = sqlite3.connect(":memory:", check_same_thread=False)
        load = getattr(conn, "deserialize", None)  # Python 3.11+
        if load is None:
            conn.close()
            raise Unsupported(f"{src.name}: a database inside an archive needs Python 3.11 or later",
                              "extract the member to a file, then run boundread on it")
        try:
            load(src.data or b"")
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise damaged(src, exc) from None
        return Opened(conn)
    wal, shm, journal = sidecars(src.path)
    warnings: list[str] = []
    immutable = True
    if wal and shm and not journal:
        immutable = False  # a database in use: its -wal's commits are read through the -shm that exists
    elif wal:
        warnings.append(f"{src.path.name}-wal beside it was not read (no -shm: reading it would create one): "
                        "commits still in the WAL are not shown")
    if journal:
        warnings.append(f"{src.path.name}-journal beside it (an interrupted write?) was not rolled back: what is "
                        "shown may be part of an unfinished transaction")
    try:
        conn = sqlite3.connect(uri(src.path, immutable), uri=True, check_same_thread=False)
    except sqlite3.Error as exc:
        raise damaged(src, exc) from None
    return Opened(conn, warnings, immutable)


def damaged(src: Source, exc: sqlite3.Error | UnicodeDecodeError) -> Corrupt:
    """SQLite's refusal as one line: not a database, malformed, or cannot be opened."""
    why = "a message or name that is not UTF-8" if isinstance(exc, UnicodeDecodeError) else str(exc) or \
        type(exc).__name__
    return Corrupt(f"{src.name}: SQLite cannot read it ({why})",
                   "it is damaged or not SQLite: check a copy with `sqlite3 COPY 'PRAGMA quick_check'`")


def interrupted(exc: sqlite3.Error) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and "interrupt" in str(exc)
