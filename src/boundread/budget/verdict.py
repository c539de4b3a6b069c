"""What the budget says once a model request is counted: go on, go on with a word to the model, or end the session.

A refused tool call is one more billed turn: a model told "no" tries something else, and a $1 cap ended at $5.28
in a real runaway. So the budget does not wait for the next tool call to say no; at every hook after a request is
counted (post-tool, a new prompt) it asks:

- is a limit of a scope the session counts in (the session, its project, all sessions) reached: tokens or USD
  spent at the cap, the tool calls all used? Then the session ends.
- would the next request cross a token or USD cap? It carries at least the last request's context: its input,
  cache reads and writes, plus the last answer, all sent again. So the next request costs at least as many tokens
  as the last one did, and (a steady runaway) about as many dollars; with sub-agents at work, each of them sends
  one too. Unless the scope allows overshoot, the
  session ends before that request, not after it.
- was the session ended before (``sessions.halted``: a repeat, a forbidden tool, the depth)? It stays ended until
  the limits change.
- past half of a cap, the model is told what is left, and past 80% of it (counting the next request) to finish up.

Standard library only. The figures and the command that lifts the cap go into every reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from boundread.budget.errors import fmt_usd
from boundread.budget.model import BudgetLimits, Scope, Totals, from_nanos
from boundread.budget.schema import SESSION_PROJECT
from boundread.budget.sqlbase import SqlLedger

WARN = Decimal("0.8")  # past this share of a cap, counting the next request, the model is told to finish
SHOW = Decimal("0.5")  # past this share, the model is told what is left
OPENING = "boundread budget: "
# The denies whose cause every later verdict sees again in the ledger's totals: no mark needed (on PostgreSQL the
# mark is a psycopg connection, ~300 ms of CPU, on every denied call of a capped fleet)
JUDGED_AGAIN = ("token budget reached", "cost cap reached", "call limit reached")
ACTIVE_S = 60.0  # an agent whose last request is this much older than the session's last one is done
_SILENT = ("SELECT COUNT(*) FROM agents a WHERE a.session = ? AND a.started > ? AND a.ended IS NULL AND NOT EXISTS"
           " (SELECT 1 FROM usage u WHERE u.session = a.session AND u.agent = a.agent)")  # started, not heard from
_RECENT = ("SELECT u.agent, u.input + u.output + u.cache_read + u.cache_write, u.cost_nanos, u.at FROM usage u"
           " WHERE u.session = ? AND NOT EXISTS (SELECT 1 FROM agents a WHERE a.session = u.session"
           " AND a.agent = u.agent AND a.ended IS NOT NULL) ORDER BY u.id DESC LIMIT 200")  # agents still at work


@dataclass(frozen=True)
class Verdict:
    """``stop``: why the session must end now (figures and the fix), None to go on; ``context``: a line for the
    model (what is left, or that the end is near), None for nothing."""

    stop: str | None = None
    context: str | None = None


@dataclass(frozen=True)
class _Cap:
    """One capped dimension of one scope: what is spent, the cap, what the next request adds at least."""

    scope: Scope
    what: str  # "token cap", "cost cap", "call limit"
    spent: Decimal
    cap: Decimal
    next: Decimal  # the least the next request (or call) adds
    overshoot: bool  # the scope lets the request that crosses it go out

    def show(self, amount: Decimal) -> str:
        if self.what == "cost cap":
            return fmt_usd(amount)
        unit = "tokens" if self.what == "token cap" else "tool calls"
        return f"{int(amount):,} {unit}"

    @property
    def share(self) -> Decimal:
        return self.spent / self.cap if self.cap else Decimal(1)

    @property
    def reached(self) -> bool:
        return self.spent >= self.cap

    @property
    def crossed_next(self) -> bool:
        return not self.overshoot and self.next > 0 and self.spent + self.next > self.cap

    def left(self) -> str:
        rest = max(self.cap - self.spent, Decimal(0))
        if self.next <= 0 or self.what == "call limit":
            return f"{self.show(rest)} left"
        return f"{self.show(rest)} left, about {int(rest / self.next):,} request(s) at the last one's size"


def after_request(ledger: SqlLedger, session: str, project: str | None, *, fresh: bool = True) -> Verdict:
    """The verdict for ``session`` (in ``project``, unless the ledger knows its first one) as the ledger stands.

    ``fresh``: a request was just counted, so the model may be told what is left (once per request, not once per
    hook: parallel tool calls of one request share it).
    """
    project = _first_project(ledger, session) or project
    scopes = [Scope("session", session), Scope("global")] + ([Scope("project", project)] if project else [])
    limited = [(scope, limits) for scope in scopes if not (limits := ledger.limits(scope)).empty]
    if not limited:
        return Verdict()
    halted = halted_reason(ledger, session)
    if halted:  # its own reason says what to do
        return Verdict(stop=halted)
    after = _next_round(ledger, session)
    caps = [cap for scope, limits in limited for cap in caps_of(scope, limits, ledger.totals(scope), after)]
    for cap in caps:
        if cap.reached:
            return Verdict(stop=f"{OPENING}{cap.what} reached in {_label(cap.scope, session)}: {cap.show(cap.spent)}"
                                f" of {cap.show(cap.cap)} - the session ends here.{_raise(cap, session)}")
    for cap in caps:
        if cap.crossed_next:
            return Verdict(stop=f"{OPENING}the next request would pass the {cap.what} of "
                                f"{_label(cap.scope, session)}: {cap.show(cap.spent)} of {cap.show(cap.cap)} spent,"
                                f" and the next request adds at least {cap.show(cap.next)} - the session ends before"
                                f" it.{_raise(cap, session)}")
    return Verdict(context=context_line(caps, session) if fresh else None)


def _next_round(ledger: SqlLedger, session: str) -> tuple[Decimal, Decimal]:
    """What the session's next requests add, in tokens and USD: for each of its agents still at work (its last
    request within ``ACTIVE_S`` of the session's last, and no SubagentStop for it since), what that agent's last
    request cost - an agent sends its whole context again with each request, so a runaway's next round costs at
    least its last one; and for each sub-agent started but not heard from yet (``agents`` rows with no request), a
    request the size of the mean of those (a guess: a new sub-agent starts with a fresh context). The USD part is
    an estimate: a request that wrote much to the cache costs more than the next one that reads it."""
    rows = ledger._guarded(lambda: ledger._db.execute(_RECENT, (session,)).fetchall())
    newest = max((float(r[3]) for r in rows if r[3] is not None), default=None)
    seen: set[object] = set()
    tokens, nanos = 0, 0
    for agent, count, cost, at in rows:  # newest first: each agent's latest request
        if agent in seen or (newest is not None and at is not None and newest - float(at) > ACTIVE_S):
            continue
        seen.add(agent)
        tokens, nanos = tokens + int(count), nanos + int(cost)
    since = (newest if newest is not None else 0.0) - ACTIVE_S
    silent = ledger._guarded(lambda: ledger._db.execute(_SILENT, (session, since)).fetchone())
    more = int(silent[0] if silent else 0)
    if seen and more:
        tokens, nanos = tokens + more * tokens // len(seen), nanos + more * nanos // len(seen)
    return Decimal(tokens), from_nanos(nanos)


def caps_of(scope: Scope, limits: BudgetLimits, totals: Totals, after: tuple[Decimal, Decimal]) -> list[_Cap]:
    next_tokens, next_cost = after
    overshoot = bool(limits.allow_overshoot)
    found = []
    if limits.max_tokens is not None:
        found.append(_Cap(scope, "token cap", Decimal(totals.tokens), Decimal(limits.max_tokens), next_tokens,
                          overshoot))
    if limits.max_usd is not None:
        found.append(_Cap(scope, "cost cap", totals.cost, limits.max_usd, next_cost, overshoot))
    if limits.max_calls is not None:
        found.append(_Cap(scope, "call limit", Decimal(totals.calls), Decimal(limits.max_calls), Decimal(0), True))
    return found


def context_line(caps: list[_Cap], session: str) -> str | None:
    """What the model is told past half of a cap: the cap nearest its end, what is left, and whether to finish."""
    shown = [cap for cap in caps if cap.share >= SHOW]
    if not shown:
        return None
    cap = max(shown, key=lambda c: (c.spent + c.next) / c.cap if c.cap else Decimal(1))
    near = (cap.spent + cap.next) / cap.cap >= WARN if cap.cap else True
    head = "finish up now - " if near else ""
    ending = (" The session ends before a request that would pass it." if near and not cap.overshoot
              else " The session ends when it is reached." if near else "")
    return (f"{OPENING}{head}{cap.share:.0%} of the {cap.what} of {_label(cap.scope, session)} used"
            f" ({cap.show(cap.spent)} of {cap.show(cap.cap)}; {cap.left()}).{ending}")


def _label(scope: Scope, session: str) -> str:
    return f"session {session}" if scope.kind == "session" else scope.label


def _flag(scope: Scope) -> str:
    if scope.kind == "session":
        return f"--session {scope.name}"
    if scope.kind == "project":
        return "--project"
    return "--global"


def _raise(cap: _Cap, session: str) -> str:
    option = {"token cap": "--max-tokens N", "cost cap": "--max-usd X", "call limit": "--max-calls N"}[cap.what]
    where = f" in {cap.scope.name}" if cap.scope.kind == "project" else ""
    return (f" To go on, raise it from outside the session{where}: `boundread budget set {_flag(cap.scope)}"
            f" {option}`, then resume it.")


def _read(ledger: SqlLedger, query: str, session: str) -> str | None:
    """One text value about ``session`` (the budget package reads its own ledger's rows), or None."""
    row = ledger._guarded(lambda: ledger._db.execute(query, (session,)).fetchone())
    return str(row[0]) if row and row[0] else None


def _first_project(ledger: SqlLedger, session: str) -> str | None:
    return _read(ledger, SESSION_PROJECT, session)


def halted_reason(ledger: SqlLedger, session: str) -> str | None:
    """Why the budget ended ``session`` before (a repeat, a forbidden tool, the depth), or None."""
    return _read(ledger, "SELECT halted FROM sessions WHERE id = ?", session)


def halt(ledger: SqlLedger, session: str, reason: str) -> None:
    """Mark ``session`` as ended by the budget, with ``reason`` (its first call may be the one refused: the row may
    not be there yet): every later hook answer ends it again."""
    with ledger._tx() as db:
        db.execute("INSERT INTO sessions(id, halted) VALUES (?, ?)"
                   " ON CONFLICT(id) DO UPDATE SET halted = COALESCE(sessions.halted, excluded.halted)",
                   (session, reason))


def agent_ended(ledger: SqlLedger, session: str, agent: str, now: float) -> None:
    """A sub-agent stopped (SubagentStop): the next round of the session's requests holds none of its."""
    with ledger._tx() as db:
        db.execute("UPDATE agents SET ended = ? WHERE session = ? AND agent = ? AND ended IS NULL",
                   (now, session, agent))


def end_session(payload: dict[str, object], why: str) -> str:
    """A budget deny (``why``: what tripped, with the figures) ends the session too: mark it ended in the ledger,
    so every later hook of it ends it again (a client that cannot stop at this hook stops at the next one), and
    return the reason shown to the user. A ledger that cannot be written still ends the session here."""
    from boundread.budget.enforce import session_of
    from boundread.budget.errors import LedgerError
    from boundread.budget.ledger import open_ledger

    what = why.rpartition(" - ")[0] or why  # the figures, without the fix for the model (a path may hold " - ")
    stop = (f"{OPENING}{what} - the session ends here. To go on, change the limits from outside the session"
            " (`boundread budget set`), then resume it.")
    if not payload or why.startswith(JUDGED_AGAIN):  # no session; or a cap every later hook finds reached again
        return stop
    try:
        with open_ledger() as ledger:
            assert isinstance(ledger, SqlLedger)
            halt(ledger, session_of(payload) or "default", stop)
    except LedgerError:
        pass
    return stop
