"""``boundread stats``: what the guard's decisions kept out of the context, summed from the rows it recorded.

Every figure comes from a call the guard decided (budget/decisions.py): the size of what the agent asked for
against the size of what the model got instead. Nothing is guessed about what an agent might have done; a row
whose size was not known (a command that names no file, a rewritten command whose output is known only after it
ran) counts as a call and adds no bytes. Tokens are the estimate the rest of boundread uses (``limits.est_tokens``,
4 characters a token), and every view labels them "est.".
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from boundread.budget.decided import KINDS
from boundread.budget.schema import DECISION_COLS
from boundread.limits import est_tokens

TOP = 5  # the files kept out most, by bytes


@dataclass(frozen=True)
class Decided:
    """One decided call read back from the store."""

    session: str
    project: str | None
    agent: str
    tool: str
    kind: str
    target: str
    raw_bytes: int | None
    delivered_bytes: int | None
    at: float

    @classmethod
    def of(cls, row: Sequence[Any]) -> Decided:
        session, project, agent, tool, kind, target, raw, delivered, at = row
        return cls(str(session), None if project is None else str(project), str(agent), str(tool), str(kind),
                   str(target), None if raw is None else int(raw), None if delivered is None else int(delivered),
                   float(at))

    @property
    def sized(self) -> bool:
        return self.raw_bytes is not None and self.delivered_bytes is not None


@dataclass(frozen=True)
class Tally:
    """The calls of one kind (deny, redirect, backstop), or all of them."""

    kind: str
    calls: int = 0
    sized: int = 0  # the calls whose raw and delivered sizes are both known: the bytes below are theirs
    raw_bytes: int = 0
    delivered_bytes: int = 0

    @property
    def kept_bytes(self) -> int:
        return self.raw_bytes - self.delivered_bytes

    @property
    def kept_tokens(self) -> int:
        """Estimated (``limits.est_tokens``): bytes as characters, 4 a token; negative as the bytes are (a redirect
        of a small file can give the model more than the file holds on disk)."""
        kept = self.kept_bytes
        return est_tokens(kept) if kept >= 0 else -est_tokens(-kept)

    def plus(self, row: Decided) -> Tally:
        if not row.sized:
            return Tally(self.kind, self.calls + 1, self.sized, self.raw_bytes, self.delivered_bytes)
        return Tally(self.kind, self.calls + 1, self.sized + 1, self.raw_bytes + (row.raw_bytes or 0),
                     self.delivered_bytes + (row.delivered_bytes or 0))


@dataclass(frozen=True)
class Stats:
    """A scope's summary: per kind, in all, the files kept out most, the sessions and the time span."""

    scope: str  # session, project or all
    name: str  # the session id, the project folder, or "" for all
    since: float | None
    kinds: tuple[Tally, ...]
    total: Tally
    top: tuple[tuple[str, int, int], ...]  # (path, calls, raw bytes), most bytes first
    sessions: int
    first: float | None
    last: float | None


def summarize(rows: Sequence[Decided], scope: str, name: str = "", since: float | None = None) -> Stats:
    tallies = {kind: Tally(kind) for kind in KINDS}
    total = Tally("all")
    files: dict[str, list[int]] = {}
    for row in rows:
        tallies[row.kind] = tallies.get(row.kind, Tally(row.kind)).plus(row)
        total = total.plus(row)
        if row.raw_bytes is not None and not row.target.startswith("sha256:"):
            seen = files.setdefault(row.target, [0, 0])
            seen[0] += 1
            seen[1] += row.raw_bytes
    top = sorted(((path, calls, raw) for path, (calls, raw) in files.items()), key=lambda t: (-t[2], t[0]))[:TOP]
    times = [row.at for row in rows]
    return Stats(scope, name, since, tuple(tallies.values()), total, tuple(top), len({row.session for row in rows}),
                 min(times, default=None), max(times, default=None))


def query(session: str | None = None, project: str | None = None, since: float | None = None,
          ) -> tuple[str, tuple[object, ...]]:
    """The SELECT of the rows in a scope (a project: its folder and every folder below it), oldest first."""
    where: list[str] = []
    args: list[object] = []
    if session is not None:
        where.append("session = ?")
        args.append(session)
    if project is not None:
        where.append("(project = ? OR substr(project, 1, ?) = ?)")
        below = project.rstrip("/") + "/"
        args += [project, len(below), below]
    if since is not None:
        where.append("at >= ?")
        args.append(since)
    clause = f" WHERE {' AND '.join(where)}" if where else ""
    return f"SELECT {DECISION_COLS} FROM decisions{clause} ORDER BY at, id", tuple(args)


def read(run: Callable[[str, tuple[object, ...]], list[Any]], session: str | None = None,
         project: str | None = None, since: float | None = None) -> list[Decided]:
    """The rows of a scope, through ``run`` (a store's guarded execute-and-fetch)."""
    sql, args = query(session, project, since)
    return [Decided.of(row) for row in run(sql, args)]


SPANS = {"m": 60, "h": 3600, "d": 86_400, "w": 604_800}


def since_of(text: str, now: float | None = None) -> float:
    """``--since``: a span back from now (``30m``, ``12h``, ``7d``, ``2w``) or a date (``2026-12-01``, UTC);
    ValueError with the accepted forms otherwise."""
    now = time.time() if now is None else now
    word = text.strip().lower()
    if word[:-1].isdigit() and word[-1:] in SPANS:
        return now - int(word[:-1]) * SPANS[word[-1]]
    from datetime import datetime, timezone

    try:
        day = datetime.strptime(word, "%Y-%m-%d").replace(tzinfo=timezone.utc)
    except ValueError:
        raise ValueError(f"--since {text!r} is neither a span nor a date") from None
    return day.timestamp()
