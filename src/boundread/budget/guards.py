"""The four guards for agents written in Python: depth, tokens, cost and policy.

    guard = Guard(tokens=TokenBudget(200_000), cost=CostCap(Decimal("0.50")), policy=Policy(max_repeat=3))
    note = guard.before_request()      # raises before a request that would pass a cap; past half, what is left
    guard.step(model="claude-sonnet-4-5", usage=response.usage)   # raises when a cap is reached
    guard.allow(("Bash", {"command": "ls"}))          # raises PolicyDenied

The depth counter is a ContextVar: each asyncio task (and ``asyncio.to_thread``) inherits its chain. A plain
thread, ``ThreadPoolExecutor.submit`` and ``loop.run_in_executor`` do not copy the context, so their work would
start a new chain at 0 (or ``BOUNDREAD_DEPTH``): hand them ``carry_depth(fn)`` instead of ``fn``. Generators
and async generators count while their body runs, not while they wait between items; their limit is checked
when the body starts (the first ``next()``), and the decorated function is still a generator function.

With or without a ledger, a Guard gives the same answers: the verdict on each action is ``policy.decide``'s.
"""

from __future__ import annotations

import functools
import inspect
import os
import threading
from collections.abc import AsyncGenerator, Callable, Generator
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, ParamSpec, TypeVar, cast

from boundread.budget.digest import action_digest
from boundread.budget.errors import BudgetError, DepthExceeded
from boundread.budget.ledger import Ledger
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
from boundread.budget.policy import check_spend, decide
from boundread.budget.prices import Pricer
from boundread.budget.sqlbase import SqlLedger
from boundread.budget.usage import counts
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


def carry_depth(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` bound to the current depth chain, for a thread, an executor or ``run_in_executor``.

        pool.submit(carry_depth(agent), task)   # not pool.submit(agent, task): that starts a new chain
    """
    depth = current_depth()

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        token = _DEPTH.set(depth)
        try:
            return fn(*args, **kwargs)
        finally:
            _DEPTH.reset(token)

    return run


def max_depth(limit: int) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a function (sync, async, generator or async generator) so that chains of guarded calls
    deeper than ``limit`` raise ``DepthExceeded`` when called."""
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise UsageError(f"max_depth({limit!r}): the limit must be a whole number, 0 or more", "pass e.g. max_depth(3)")

    def wrap(fn: Callable[P, R]) -> Callable[P, R]:
        def enter() -> int:
            depth = current_depth() + 1
            if depth > limit:
                raise DepthExceeded(depth, limit, fn.__qualname__,
                                    f"stop recursing, or raise the limit in @max_depth({limit}) on {fn.__qualname__}")
            return depth

        # A generator's wrapper is a generator function too (inspect and frameworks tell them apart by that): its
        # depth is taken when the body first runs, at the first next(), as the body's own code would be.
        if inspect.isasyncgenfunction(fn):

            @functools.wraps(fn)
            async def run_agen(*args: P.args, **kwargs: P.kwargs) -> AsyncGenerator[Any, Any]:
                depth = enter()
                agen = fn(*args, **kwargs)
                sent: Any = None
                thrown: BaseException | None = None
                while True:  # _deep_gen's loop: an async generator has no `yield from`
                    token = _DEPTH.set(depth)
                    try:
                        item = await (agen.athrow(thrown) if thrown is not None else agen.asend(sent))
                    except StopAsyncIteration:
                        return
                    finally:
                        _DEPTH.reset(token)
                    sent, thrown = None, None
                    try:
                        sent = yield item
                    except GeneratorExit:
                        await agen.aclose()
                        raise
                    except BaseException as exc:  # noqa: BLE001 - handed to the wrapped generator
                        thrown = exc

            return cast("Callable[P, R]", run_agen)

        if inspect.isgeneratorfunction(fn):

            @functools.wraps(fn)
            def run_gen(*args: P.args, **kwargs: P.kwargs) -> Generator[Any, Any, Any]:
                return (yield from _deep_gen(enter(), fn(*args, **kwargs)))

            return cast("Callable[P, R]", run_gen)

        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def run_async(*args: P.args, **kwargs: P.kwargs) -> Any:
                token = _DEPTH.set(enter())
                try:
                    return await fn(*args, **kwargs)
                finally:
                    _DEPTH.reset(token)

            return cast("Callable[P, R]", run_async)

        @functools.wraps(fn)
        def run(*args: P.args, **kwargs: P.kwargs) -> R:
            token = _DEPTH.set(enter())
            try:
                return fn(*args, **kwargs)
            finally:
                _DEPTH.reset(token)

        return run

    return wrap


def _deep_gen(depth: int, gen: Generator[Any, Any, Any]) -> Generator[Any, Any, Any]:
    """Run ``gen`` one step at a time at ``depth``; between items the caller keeps its own depth."""
    sent: Any = None
    thrown: BaseException | None = None
    while True:
        token = _DEPTH.set(depth)
        try:
            item = gen.throw(thrown) if thrown is not None else gen.send(sent)
        except StopIteration as stop:
            return stop.value
        finally:
            _DEPTH.reset(token)
        sent, thrown = None, None
        try:
            sent = yield item
        except GeneratorExit:
            gen.close()
            raise
        except BaseException as exc:  # noqa: BLE001 - handed to the wrapped generator, as `yield from` does
            thrown = exc


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


#: The Guard parameter that sets each ``budget set`` option's limit, for a fix that names it.
_GUARD_PARAMS = {"--max-tokens": "tokens=TokenBudget(N)", "--max-usd": "cost=CostCap(X)", "--max-depth": "depth=N",
                 "--max-calls": "policy=Policy(max_calls=N)"}


@dataclass
class Guard:
    """The guards together. With a ledger, limits and spend are shared with hooks and other processes."""

    tokens: TokenBudget | None = None
    cost: CostCap | None = None
    policy: Policy | None = None
    depth: int | None = None  # checked against current_depth() on each allow()
    ledger: Ledger | None = None
    session: str = "python"
    allow_overshoot: bool = False  # before_request lets the request that would pass a cap go out
    _spent: Totals = field(default_factory=Totals)
    _last: UsageRecord | None = None  # the last request step() recorded (in memory; the ledger keeps its own)
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
            allow_overshoot=True if self.allow_overshoot else None,
        )

    @property
    def spent(self) -> Totals:
        if self.ledger is not None:
            return self.ledger.totals(Scope("session", self.session))
        return self._spent

    def step(self, *, model: str, usage: object) -> Totals:
        """Record one model call's usage; raise when a budget is over.

        ``usage``: the SDK's usage object or dict as returned (Anthropic ``input_tokens``/``output_tokens``/
        ``cache_*_input_tokens``, OpenAI ``prompt_tokens``/``completion_tokens``, Gemini ``*_token_count``) or
        our names (input, output, cache_read, cache_write). Anything that is not a token count raises UsageError.
        """
        inp, out, read, write = counts(usage)
        rec = UsageRecord(model, inp, out, read, write)
        if self._pricer is None:  # always priced, so that cost and unknown models read the same with a ledger
            self._pricer = (self.cost.pricer if self.cost else None) or Pricer.load()
        rec = self._pricer.cost(rec)
        rec = replace(rec, cost=from_nanos(to_nanos(rec.cost)))  # the ledger's precision: the same sums and text
        with self._lock:
            self._last = rec
            if self.ledger is not None:
                self.ledger.add_usage(self.session, [rec])
                totals = self.ledger.totals(Scope("session", self.session))
            else:
                t = self._spent
                unpriced = tuple(sorted({*t.unpriced, rec.model})) if rec.flagged else t.unpriced
                totals = self._spent = replace(
                    t,
                    input=t.input + rec.input,
                    output=t.output + rec.output,
                    cache_read=t.cache_read + rec.cache_read,
                    cache_write=t.cache_write + rec.cache_write,
                    cost=t.cost + rec.cost,
                    unpriced=unpriced,
                )
        error = check_spend(totals, self.limits, f"session {self.session}")
        if error is not None:
            raise self._own(error)
        return totals

    def before_request(self) -> str | None:
        """Call before each model request: raise when a token or USD cap is reached, or when this request would
        pass one (it costs at least what the last one did: ``TokenBudgetWouldPass``, ``CostCapWouldPass``) unless
        ``allow_overshoot``; else return the note for the model past half of a cap (what is left; past 80%,
        counting this request, to finish up), None below. Asked before the request, not in ``step``: the answer
        just received may be the final one, and needs no next request."""
        from boundread.budget.nextrequest import look_ahead

        if self.ledger is not None:
            totals = self.ledger.totals(Scope("session", self.session))
            last = self.ledger.last_usage(self.session) if isinstance(self.ledger, SqlLedger) else self._last
        else:
            with self._lock:
                totals, last = self._spent, self._last
        error, note = look_ahead(self.session, totals, self.limits, last)
        if error is not None:
            raise self._own(error)
        return note

    def allow(self, action: Action) -> None:
        """Record an action (a name, or (tool, input)); raise the guard that trips: the depth, a spent budget,
        the call limit, a forbidden tool or a repeat (``policy.decide``, as the ledger and the hooks decide)."""
        tool, payload = (action, None) if isinstance(action, str) else action
        digest = action_digest(tool, payload)
        depth = current_depth()
        if self.ledger is not None:
            error = self.ledger.record_call(self.session, None, tool, digest, depth, decide)
        else:
            with self._lock:
                error = self._allow_here(tool, digest, depth)
        if error is not None:
            raise self._own(error)

    def _own(self, error: BudgetError) -> BudgetError:
        """``error`` with a fix that works: a limit of this Guard's own session is the one given to the Guard (it
        sets it again on each start), so ``budget set`` would not raise it; a project's or the global limit from
        the ledger keeps its ``budget set`` fix."""
        raises = _GUARD_PARAMS.get(error.option)
        if raises is None or error.where != f"session {self.session}":
            return error
        first = error.fix.split(", or ", 1)[0] if ", or " in error.fix else "stop"
        note = error.fix[error.fix.rindex(" ("):] if error.fix.endswith(")") else ""  # the overshoot note
        error.fix = f"{first}, or raise {raises} given to this Guard{note}"
        error.args = (f"{error.what} - {error.fix}",)
        return error

    def _allow_here(self, tool: str, digest: str, depth: int) -> BudgetError | None:
        """``SqliteLedger.record_call`` in memory: no limits, no record; else decide, then record the call."""
        limits = self.limits
        if limits.empty:
            return None
        scope = Scope("session", self.session)
        view = CallView(self.session, tool, digest, depth, (ScopeView(scope, limits, self._spent),),
                        tuple(reversed(self._recent)))
        error = decide(view)
        self._recent = [*self._recent, digest][-max(limits.max_repeat or 1, 1):]  # what a repeat check needs
        t = self._spent
        self._spent = replace(t, calls=t.calls + (error is None), depth=max(t.depth, depth))
        return error
