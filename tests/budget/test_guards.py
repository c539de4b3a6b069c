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
