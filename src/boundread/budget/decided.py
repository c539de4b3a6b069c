"""One decided call as the stores keep it (``schema.DECISION_COLS``), and as a line of the decisions journal.

The leaf under the writer (budget/decisions.py, on the hook path) and the stores (sqlbase.py, sqlite.py), so that
neither imports the other. Standard library only, with no typing at run time.

The journal (``schema.DECISIONS_JOURNAL``) is where guard-check appends the rows of the SQLite store: one line
each, ``1`` (the format) then the fields, tab-separated, text escaped (``\\\\``, ``\\t``, ``\\n``, ``\\r``), an
empty field for NULL. An append is one ``write`` of one line under a shared lock, so that nothing on the hook path
imports ``sqlite3`` (it loads functools and collections: ~2.5 ms); ``boundread stats`` folds the lines into the
SQLite file under the exclusive lock, by each row's key, and empties the journal.
"""

from __future__ import annotations

import os
import time

from boundread.budget.schema import clean, clean_params

DENY, REDIRECT, BACKSTOP = "deny", "redirect", "backstop"
KINDS = (DENY, REDIRECT, BACKSTOP)
FORMAT = "1"
_ESCAPES = (("\\", "\\\\"), ("\t", "\\t"), ("\n", "\\n"), ("\r", "\\r"))
_UNESCAPE = {"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}


class Row:
    """One decided call, as the store keeps it (``schema.DECISION_COLS`` and its ``key``)."""

    __slots__ = ("session", "project", "agent", "tool", "kind", "target", "raw", "delivered", "at", "key")  # noqa: RUF023 - field order = column order

    def __init__(self, session: str, project: str | None, agent: str, tool: str, kind: str, target: str,
                 raw: int | None, delivered: int | None, at: float | None = None, key: str | None = None) -> None:
        self.session, self.project, self.agent, self.tool, self.kind = session, project, agent, tool, kind
        self.target, self.raw, self.delivered = target, raw, delivered
        self.at = time.time() if at is None else at
        self.key = key or os.urandom(12).hex()  # drawn before the write: written twice, it counts once

    def params(self) -> tuple[object, ...]:
        return clean_params((self.session, self.project, self.agent, self.tool, self.kind, self.target, self.raw,
                             self.delivered, self.at, self.key))

    def line(self) -> bytes:
        """The row as one journal line."""
        fields = [FORMAT, *(_text(v) for v in (self.session, self.project, self.agent, self.tool, self.kind,
                                                self.target)),
                  *("" if v is None else str(int(v)) for v in (self.raw, self.delivered)), repr(float(self.at)),
                  _text(self.key)]
        return ("\t".join(fields) + "\n").encode("utf-8")


def from_line(line: bytes) -> Row | None:
    """The row of one journal line; None for a line this boundread cannot read (cut short, another format)."""
    fields = line.decode("utf-8", "replace").rstrip("\n").split("\t")
    if len(fields) != 11 or fields[0] != FORMAT:
        return None
    session, project, agent, tool, kind, target, raw, delivered, at, key = (_untext(f) for f in fields[1:])
    try:
        return Row(session, project or None, agent, tool, kind, target, int(raw) if raw else None,
                   int(delivered) if delivered else None, float(at), key or None)
    except ValueError:
        return None


def _text(value: str | None) -> str:
    text = clean(value or "")
    for raw, escaped in _ESCAPES:
        text = text.replace(raw, escaped)
    return text


def _untext(field: str) -> str:
    if "\\" not in field:
        return field
    out, chars = [], iter(field)
    for ch in chars:
        out.append(_UNESCAPE.get(next(chars, ""), "") if ch == "\\" else ch)
    return "".join(out)


class NotRecorded(Exception):
    """The store refused the row: what went wrong, and the fix."""

    def __init__(self, what: str, fix: str) -> None:
        super().__init__(f"{what} - {fix}")
        self.what, self.fix = what, fix
