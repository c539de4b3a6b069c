"""What a session spent, request by request, and which agent spent it: the reads behind ``budget status``'s curve.

Bounded whatever the session's size: the requests (``usage`` rows, in id order, the order they were recorded)
are cut into at most N buckets of near-equal counts by SQL's ``NTILE`` and summed there, so a session of
100,000 requests reads N rows; the per-agent sums are one ``GROUP BY``, at most ``AGENT_ROWS`` of them. Any
connection whose ``execute`` takes ``?`` placeholders will do (either store's, as in rows.py). Standard library
only.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from boundread.budget.errors import LedgerError
from boundread.budget.model import from_nanos, to_nanos

if TYPE_CHECKING:
    from boundread.budget.ledger import Ledger

BUCKETS = 40  # the JSON's columns, and the most a chart draws
AGENT_ROWS = 100  # agents listed per session; the rest are summed as one row
_TOKENS = "input + output + cache_read + cache_write"  # what a token cap counts (Totals.tokens)
_CURVE = (
    "SELECT bucket, COUNT(*), CAST(SUM(tokens) AS BIGINT), CAST(SUM(cost_nanos) AS BIGINT),"
    " CAST(SUM(CASE WHEN agent IS NULL THEN 0 ELSE tokens END) AS BIGINT), MIN(at), MAX(at)"
    f" FROM (SELECT NTILE(CAST(? AS INTEGER)) OVER (ORDER BY id) AS bucket, {_TOKENS} AS tokens, cost_nanos, agent,"
    " at FROM usage WHERE session = ?) AS ranked GROUP BY bucket ORDER BY bucket"
)
_BY_AGENT = (
    f"SELECT agent, COUNT(*), CAST(SUM({_TOKENS}) AS BIGINT), CAST(SUM(cost_nanos) AS BIGINT), MIN(id), MIN(at)"
    " FROM usage WHERE session = ? GROUP BY agent ORDER BY CASE WHEN agent IS NULL THEN 0 ELSE 1 END, 3 DESC, 5 LIMIT ?"
)
_AGENT_COUNT = "SELECT COUNT(*) FROM (SELECT agent FROM usage WHERE session = ? GROUP BY agent) AS spenders"
_TREE = "SELECT agent, parent, depth, started FROM agents WHERE session = ? ORDER BY started, agent LIMIT ?"


@dataclass(frozen=True)
class Bucket:
    """Consecutive requests of a session: how many, the first one's number (from 1), what they spent."""

    first: int
    requests: int
    tokens: int
    cost: Decimal
    subagent_tokens: int  # of ``tokens``, what sub-agents spent
    first_at: float | None
    last_at: float | None


@dataclass(frozen=True)
class AgentSpend:
    """One agent of a session (``agent`` None: the main agent) and what it spent.

    ``depth`` is the ``agents`` table's (0 for the main agent; None when no row says); ``level`` is its place in
    the tree drawn (parent's + 1), which holds without those rows: a sub-agent of unknown parent is the main's.
    """

    agent: str | None
    requests: int
    tokens: int
    cost: Decimal
    parent: str | None = None
    depth: int | None = None
    level: int = 0
    first_at: float | None = None


@dataclass(frozen=True)
class MoreAgents:
    """The agents past ``AGENT_ROWS`` (the smallest spenders), summed."""

    count: int
    requests: int
    tokens: int
    cost: Decimal


@dataclass(frozen=True)
class SessionHistory:
    session: str
    buckets: tuple[Bucket, ...]
    agents: tuple[AgentSpend, ...]  # depth-first from the main agent, each parent before its sub-agents
    more_agents: MoreAgents | None = None
    depth_known: bool = False  # the ``agents`` table has rows for this session (its sub-agents' depth and parent)

    @property
    def requests(self) -> int:
        return sum(b.requests for b in self.buckets)

    @property
    def tokens(self) -> int:
        return sum(b.tokens for b in self.buckets)

    @property
    def cost(self) -> Decimal:
        return from_nanos(sum(to_nanos(b.cost) for b in self.buckets))  # as the ledger sums: one exact figure


def curve(db: Any, session: str, buckets: int = BUCKETS) -> tuple[Bucket, ...]:
    """The session's requests in id order, in at most ``buckets`` groups of near-equal counts, summed in SQL."""
    _need_window_functions(db)
    found, first = [], 1
    for _, count, tokens, nanos, sub, start, end in db.execute(_CURVE, (max(1, buckets), session)).fetchall():
        found.append(Bucket(first, int(count), int(tokens), from_nanos(int(nanos)), int(sub), _time(start),
                            _time(end)))
        first += int(count)
    return tuple(found)


def agents(db: Any, session: str, limit: int = AGENT_ROWS) -> tuple[tuple[AgentSpend, ...], MoreAgents | None, bool]:
    """Each agent's sums (the main agent, then the biggest spenders: at most ``limit``), in tree order; the rest summed;
    whether the ``agents`` table knows any of them (their depth and parent)."""
    spent = {row[0]: row for row in db.execute(_BY_AGENT, (session, limit)).fetchall()}
    tree = {row[0]: row for row in db.execute(_TREE, (session, limit)).fetchall()}
    rest = None
    if len(spent) == limit:
        (count,) = db.execute(_AGENT_COUNT, (session,)).fetchone()
        if int(count) > limit:
            rest = _rest(db, session, int(count) - limit, spent)
    rows = {agent: _spend(agent, spent.get(agent), tree.get(agent)) for agent in [None, *spent, *tree]}
    return _tree_order(rows), rest, bool(tree)


def read(db: Any, session: str, buckets: int = BUCKETS) -> SessionHistory:
    """The curve and the agents of ``session``: a few bounded queries, whatever its size."""
    listed, rest, known = agents(db, session)
    return SessionHistory(session, curve(db, session, buckets), listed, rest, known)


def session_history(ledger: Ledger, session: str, buckets: int = BUCKETS) -> SessionHistory:
    """``read`` over an open ledger, its failures reported as the ledger's own (one line, the fix)."""
    store: Any = ledger  # both stores are sqlbase.SqlLedger: a connection and the guard that maps its errors
    result: SessionHistory = store._guarded(lambda: read(store._db, session, buckets))
    return result


def _spend(agent: str | None, spent: Any, known: Any) -> AgentSpend:
    requests, tokens, nanos, first_at = (int(spent[1]), int(spent[2]), int(spent[3]), spent[5]) if spent else (
        0, 0, 0, None)
    parent = None if known is None or known[1] is None else str(known[1])
    depth = 0 if agent is None else None if known is None else int(known[2])
    started = first_at if known is None else known[3]
    return AgentSpend(agent, requests, tokens, from_nanos(nanos), parent, depth, 0, _time(started))


def _rest(db: Any, session: str, count: int, shown: dict[str | None, Any]) -> MoreAgents:
    """The agents not listed, as one sum: the session's totals less the listed agents'."""
    (requests, tokens, nanos), = db.execute(
        f"SELECT COUNT(*), CAST(COALESCE(SUM({_TOKENS}), 0) AS BIGINT), CAST(COALESCE(SUM(cost_nanos), 0) AS BIGINT)"
        " FROM usage WHERE session = ?", (session,)).fetchall()
    requests -= sum(int(r[1]) for r in shown.values())
    tokens -= sum(int(r[2]) for r in shown.values())
    nanos -= sum(int(r[3]) for r in shown.values())
    return MoreAgents(count, int(requests), int(tokens), from_nanos(int(nanos)))


def _tree_order(rows: dict[str | None, AgentSpend]) -> tuple[AgentSpend, ...]:
    """Depth-first from the main agent; siblings by start. A parent not listed (or a loop) hangs under main."""
    children: dict[str | None, list[AgentSpend]] = {}
    for row in rows.values():
        if row.agent is not None:
            parent = row.parent if row.parent in rows and row.parent != row.agent else None
            children.setdefault(parent, []).append(row)
    ordered: list[AgentSpend] = []
    seen: set[str | None] = set()

    def visit(row: AgentSpend, level: int) -> None:
        seen.add(row.agent)
        ordered.append(AgentSpend(row.agent, row.requests, row.tokens, row.cost, row.parent, row.depth, level,
                                  row.first_at))
        kids = sorted(children.get(row.agent, []), key=lambda r: (r.first_at is None, r.first_at or 0, r.agent))
        for kid in kids:
            if kid.agent not in seen:
                visit(kid, level + 1)

    visit(rows[None], 0)
    for row in rows.values():  # in a loop of parents: none reached from main
        if row.agent not in seen:
            visit(row, 1)
    return tuple(ordered)


def _time(value: Any) -> float | None:
    return None if value is None else float(value)


def _need_window_functions(db: Any) -> None:
    """``NTILE`` came in SQLite 3.25 (2018): an older one gets a clear error, not 'the ledger is unusable'."""
    if isinstance(db, sqlite3.Connection) and sqlite3.sqlite_version_info < (3, 25):
        raise LedgerError(f"the spend curve needs SQLite 3.25 or later; this Python has {sqlite3.sqlite_version}",
                          "use a Python built with a newer SQLite, or a PostgreSQL ledger")
