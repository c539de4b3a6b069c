"""The four guards for agents written in Python: depth, tokens, cost and policy.

    guard = Guard(tokens=TokenBudget(200_000), cost=CostCap(Decimal("0.50")), policy=Policy(max_repeat=3))
    guard.allow(("Bash", {"command": "ls"}))          # raises PolicyDenied
    guard.step(model="claude-sonnet-4-5", usage={"input": 1200, "output": 300})   # raises when over

The depth counter is a ContextVar: each asyncio task and each ``contextvars.copy_context().run`` carries its
own chain (a thread started plainly starts at depth 0 - or at ``BOUNDREAD_DEPTH`` - as a new chain).
"""

from __future__ import annotations

import functools
import inspect
import os
import threading
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, ParamSpec, TypeVar, cast

from boundread.budget.errors import DepthExceeded
from boundread.budget.ledger import Ledger
from boundread.budget.model import BudgetLimits, Scope, Totals, UsageRecord
from boundread.budget.policy import action_digest, check_sequence, check_spend, decide
from boundread.budget.prices import Pricer
from boundread.errors import UsageError

P = ParamSpec("P")
R = TypeVar("R")
_DEPTH: ContextVar[int] = ContextVar("boundread_budget_depth")  # a ContextVar, not state: one per context


def current_depth() -> int:
    """How deep this call chain is (``BOUNDREAD_DEPTH`` from ``budget exec`` when nothing is guarded yet)."""
    depth = _DEPTH.get(None)
    if depth is not None:
        return depth
    try:
        return max(int(os.environ.get("BOUNDREAD_DEPTH", "0") or 0), 0)
    except ValueError:
        return 0


def max_depth(limit: int) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a function (sync or async) so that chains of guarded calls deeper than ``limit`` raise."""

    def wrap(fn: Callable[P, R]) -> Callable[P, R]:
        def enter() -> Any:
            depth = current_depth() + 1
            if depth > limit:
                raise DepthExceeded(depth, limit, fn.__qualname__)
            return _DEPTH.set(depth)

        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def run_async(*args: P.args, **kwargs: P.kwargs) -> Any:
                token = enter()
                try:
                    return await fn(*args, **kwargs)
                finally:
                    _DEPTH.reset(token)

            return cast("Callable[P, R]", run_async)

        @functools.wraps(fn)
        def run(*args: P.args, **kwargs: P.kwargs) -> R:
            token = enter()
            try:
                return fn(*args, **kwargs)
            finally:
                _DEPTH.reset(token)

        return run

    return wrap


@dataclass(frozen=True)
class TokenBudget:
    limit: int


@dataclass(frozen=True)
class CostCap:
    limit: Decimal
    pricer: Pricer | None = None  # None: config, genai-prices, the flagged default (loaded on first use)


@dataclass(frozen=True)
class Policy:
    max_repeat: int | None = None  # the same action this many times in a row is denied
    max_calls: int | None = None
    deny_tools: tuple[str, ...] = ()


Action = str | tuple[str, Any]


@dataclass
class Guard:
    """The guards together. With a ledger, limits and spend are shared with hooks and other processes."""

    tokens: TokenBudget | None = None
    cost: CostCap | None = None
    policy: Policy | None = None
    depth: int | None = None  # checked against current_depth() on each allow()
    ledger: Ledger | None = None
    session: str = "python"
    _spent: Totals = field(default_factory=Totals)
    _recent: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _pricer: Pricer | None = None

    def __post_init__(self) -> None:
        if self.ledger is not None and not self.limits.empty:
            self.ledger.set_limits(Scope("session", self.session), self.limits)

    @property
    def limits(self) -> BudgetLimits:
        pol = self.policy or Policy()
        return BudgetLimits(
            max_tokens=self.tokens.limit if self.tokens else None,
            max_usd=self.cost.limit if self.cost else None,
            max_depth=self.depth,
            max_calls=pol.max_calls,
            max_repeat=pol.max_repeat,
            deny_tools=pol.deny_tools,
        )

    @property
    def spent(self) -> Totals:
        if self.ledger is not None:
            return self.ledger.totals(Scope("session", self.session))
        return self._spent

    def step(self, *, model: str, usage: Mapping[str, int]) -> Totals:
        """Record one model call's usage (keys input, output, cache_read, cache_write); raise when over."""
        counts = [int(usage.get(k, 0)) for k in ("input", "output", "cache_read", "cache_write")]
        if min(counts) < 0:
            raise UsageError(f"negative token count in {dict(usage)}", "pass counts of zero or more")
        rec = UsageRecord(model, counts[0], counts[1], counts[2], counts[3])
        if self.cost is not None or self.ledger is not None:
            if self._pricer is None:
                self._pricer = (self.cost.pricer if self.cost else None) or Pricer.load()
            rec = self._pricer.cost(rec)
        with self._lock:
            if self.ledger is not None:
                self.ledger.add_usage(self.session, [rec])
                totals = self.ledger.totals(Scope("session", self.session))
            else:
                t = self._spent
                totals = self._spent = Totals(
                    t.input + rec.input,
                    t.output + rec.output,
                    t.cache_read + rec.cache_read,
                    t.cache_write + rec.cache_write,
                    t.cost + rec.cost,
                    t.calls,
                    t.depth,
                    t.warnings,
                )
        error = check_spend(totals, self.limits, f"session {self.session}")
        if error is not None:
            raise error
        return totals

    def allow(self, action: Action) -> None:
        """Record an action (a name, or (tool, input)); raise PolicyDenied or DepthExceeded on a trip."""
        tool, payload = (action, None) if isinstance(action, str) else action
        digest = action_digest(tool, payload)
        depth = current_depth()
        if self.ledger is not None:
            error = self.ledger.record_call(self.session, None, tool, digest, depth, decide)
        else:
            where = f"session {self.session}"
            with self._lock:
                limits = self.limits
                error = (
                    limits.max_depth is not None
                    and depth > limits.max_depth
                    and DepthExceeded(depth, limits.max_depth, where)
                ) or None
                error = error or check_sequence(tool, digest, self._recent[::-1], self._spent.calls, limits, where)
                self._recent = [*self._recent[-50:], digest]
                if error is None:
                    t = self._spent
                    self._spent = Totals(
                        t.input,
                        t.output,
                        t.cache_read,
                        t.cache_write,
                        t.cost,
                        t.calls + 1,
                        max(t.depth, depth),
                        t.warnings,
                    )
        if error is not None:
            raise error
