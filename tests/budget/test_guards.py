from __future__ import annotations

import asyncio
import contextvars
import threading
from decimal import Decimal

import pytest

from boundread.budget import (
    CostCap,
    CostCapExceeded,
    DepthExceeded,
    Guard,
    Policy,
    PolicyDenied,
    TokenBudget,
    TokenBudgetExceeded,
    current_depth,
    max_depth,
)
from boundread.budget.ledger import open_ledger
from boundread.budget.model import Scope
from boundread.budget.nextrequest import CostCapWouldPass, TokenBudgetWouldPass


@max_depth(3)
def recurse(n: int) -> int:
    return n if n == 0 else recurse(n - 1) + 1


@max_depth(2)
async def agent(steps: int, seen: list[int]) -> None:
    seen.append(current_depth())
    await asyncio.sleep(0)
    if steps:
        await agent(steps - 1, seen)


def test_max_depth_counts_the_chain_and_raises_with_the_figures() -> None:
    assert recurse(2) == 2
    with pytest.raises(DepthExceeded) as info:
        recurse(5)
    assert (info.value.depth, info.value.limit) == (4, 3)
    assert current_depth() == 0


def test_depth_is_per_asyncio_task_and_per_thread() -> None:
    async def main() -> list[list[int]]:
        runs: list[list[int]] = [[] for _ in range(8)]
        await asyncio.gather(*(agent(1, runs[i]) for i in range(8)))  # parallel tasks do not add up
        return runs

    assert asyncio.run(main()) == [[1, 2]] * 8

    async def too_deep() -> None:
        await agent(2, [])

    with pytest.raises(DepthExceeded):
        asyncio.run(too_deep())
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            recurse(2)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=contextvars.copy_context().run, args=(worker,)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_guard_tokens_cost_and_policy() -> None:
    guard = Guard(tokens=TokenBudget(1000))
    guard.step(model="claude-sonnet-4-5", usage={"input": 400, "output": 500})
    with pytest.raises(TokenBudgetExceeded) as tok:
        guard.step(model="claude-sonnet-4-5", usage={"input": 100})
    assert (tok.value.spent, tok.value.limit) == (1000, 1000)

    cap = Guard(cost=CostCap(Decimal("0.05")))
    cap.step(model="claude-sonnet-4-5", usage={"output": 2000})  # $0.03
    with pytest.raises(CostCapExceeded, match=r"\$0.06 of \$0.05"):
        cap.step(model="claude-sonnet-4-5", usage={"output": 2000})

    pol = Guard(policy=Policy(max_repeat=3, deny_tools=("Write",)))
    pol.allow(("Bash", {"command": "ls"}))
    pol.allow(("Bash", {"command": "ls"}))
    with pytest.raises(PolicyDenied, match="3 times in a row"):
        pol.allow(("Bash", {"command": "ls"}))
    with pytest.raises(PolicyDenied, match="forbidden"):
        pol.allow("Write")


def test_guards_share_a_ledger(backend: str) -> None:
    with open_ledger() as ledger:
        a = Guard(policy=Policy(max_calls=2), ledger=ledger, session="shared")
        b = Guard(ledger=ledger, session="shared")
        a.allow("one")
        b.allow("two")
        with pytest.raises(PolicyDenied, match="call 3 of max 2"):
            a.allow("three")
        b.step(model="claude-sonnet-4-5", usage={"input": 10})
        assert ledger.totals(Scope("session", "shared")).input == 10


def _runaway(guard: Guard, usage: dict[str, int], turns: int = 40) -> tuple[int, list[str | None], Exception]:
    """A model that never stops: before_request, then step, until the guard raises; (requests made, notes,
    the error)."""
    notes: list[str | None] = []
    for made in range(turns):
        try:
            notes.append(guard.before_request())
            guard.step(model="claude-sonnet-4-5", usage=usage)
        except Exception as exc:  # the answer is the error: compared below
            return made, notes, exc
    raise AssertionError(f"{turns} requests and no stop")


def test_before_request_stops_a_steady_runaway_before_the_request_that_would_pass_the_token_cap() -> None:
    made, notes, error = _runaway(Guard(tokens=TokenBudget(1000)), {"input": 100, "output": 50})
    assert made == 6 and isinstance(error, TokenBudgetWouldPass) and isinstance(error, TokenBudgetExceeded)
    assert (error.spent, error.limit, error.next) == (900, 1000, 150), "overshoot 0: 900 spent, the 7th is not sent"
    assert str(error).startswith("the next request would pass the token budget: 900 of 1,000 tokens spent in"
                                 " session python, and the next request adds at least 150 - stop here")
    assert notes[:4] == [None] * 4, "below half of the cap: nothing to say"
    assert notes[4] == ("boundread budget: 60% of the token cap of session python used (600 tokens of 1,000 tokens;"
                        " 400 tokens left, about 2 request(s) at the last one's size).")
    assert notes[5] is not None and notes[5].startswith("boundread budget: finish up now - 75% of the token cap")


def test_before_request_stops_before_the_request_that_would_pass_the_cost_cap() -> None:
    made, _, error = _runaway(Guard(cost=CostCap(Decimal("0.05"))), {"input": 1000, "output": 500})  # $0.0105 each
    assert made == 4 and isinstance(error, CostCapWouldPass) and isinstance(error, CostCapExceeded)
    assert (error.spent, error.limit, error.next) == (Decimal("0.042"), Decimal("0.05"), Decimal("0.0105"))


def test_with_overshoot_allowed_the_request_that_crosses_goes_out_and_the_cap_then_stops() -> None:
    guard = Guard(tokens=TokenBudget(1000), allow_overshoot=True)
    made, notes, error = _runaway(guard, {"input": 100, "output": 50})
    assert made == 6 and type(error) is TokenBudgetExceeded, "step raised: the 7th request reached the cap"
    assert (error.spent, error.limit) == (1050, 1000)
    assert notes[-1] is not None and notes[-1].endswith("The session ends when it is reached.")
    with pytest.raises(TokenBudgetExceeded, match="1,050 of 1,000"):
        guard.before_request()  # a caller that went on after step raised is stopped before the next request
    assert guard.limits.allow_overshoot is True


def test_before_the_first_request_nothing_is_known_and_a_spent_cap_still_stops() -> None:
    assert Guard(tokens=TokenBudget(10)).before_request() is None
    assert Guard().before_request() is None
    guard = Guard(tokens=TokenBudget(10))
    with pytest.raises(TokenBudgetExceeded):
        guard.step(model="m", usage={"input": 10})
    with pytest.raises(TokenBudgetExceeded) as caught:
        guard.before_request()
    assert type(caught.value) is TokenBudgetExceeded


def test_before_request_reads_the_sessions_last_request_from_a_shared_ledger(backend: str) -> None:
    """Another process's request in the same session is the one the next request is sized by."""
    with open_ledger() as ledger:
        mine = Guard(tokens=TokenBudget(1000), ledger=ledger, session="shared")
        other = Guard(ledger=ledger, session="shared")
        mine.step(model="claude-sonnet-4-5", usage={"input": 100})
        other.step(model="claude-sonnet-4-5", usage={"input": 500})
        with pytest.raises(TokenBudgetWouldPass) as caught:
            mine.before_request()
    assert (caught.value.spent, caught.value.next) == (600, 500)
