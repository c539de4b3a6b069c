"""Issue 8, section 2: the in-memory Guard and the ledger-backed one answer alike; depth across executors."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from boundread.budget import (
    CostCap,
    DepthExceeded,
    Guard,
    Policy,
    PolicyDenied,
    SqliteLedger,
    TokenBudget,
    carry_depth,
    current_depth,
    max_depth,
)
from boundread.budget.ledger import open_ledger
from boundread.budget.model import Scope
from boundread.errors import UsageError

Step = tuple[str, Any]


def _run(guard: Guard, steps: list[Step]) -> list[str]:
    """Each step's answer: "ok" or the error's class and text."""
    answers = []
    for kind, arg in steps:
        try:
            if kind == "allow":
                guard.allow(arg)
            elif kind == "before":
                note = guard.before_request()
                answers.append(f"ok: {note}" if note else "ok")
                continue
            else:
                guard.step(model=arg[0], usage=arg[1])
            answers.append("ok")
        except Exception as exc:  # the answer is what is compared
            answers.append(f"{type(exc).__name__}: {exc}")
    return answers


BASH = ("Bash", {"command": "ls"})
SCENARIOS: dict[str, tuple[Callable[[], dict[str, Any]], list[Step]]] = {
    "a spent budget denies the next action": (
        lambda: {"tokens": TokenBudget(1000)},
        [("allow", BASH), ("step", ("claude-sonnet-4-5", {"input_tokens": 999, "output_tokens": 1})),
         ("allow", ("Read", {"file_path": "/a"})), ("allow", BASH)],
    ),
    "a cost cap denies the next action": (
        lambda: {"cost": CostCap(Decimal("0.01"))},
        [("step", ("claude-sonnet-4-5", {"output_tokens": 2000})), ("allow", "Bash")],
    ),
    "max_repeat above 51 trips": (
        lambda: {"policy": Policy(max_repeat=60)},
        [("allow", BASH)] * 61,
    ),
    "call limit and forbidden tools, in any case": (
        lambda: {"policy": Policy(max_calls=3, deny_tools=("webfetch",))},
        [("allow", "WebFetch"), ("allow", "a"), ("allow", "b"), ("allow", "c"), ("allow", "d")],
    ),
    "a cost in nanos reads the same": (  # in memory: $0.003730 of $0.001, the ledger: $0.00373
        lambda: {"cost": CostCap(Decimal("0.001"))},
        [("step", ("gpt-4o", {"input_tokens": 362, "output_tokens": 65}))] * 2,
    ),
    "the next request would pass the token budget": (  # 150 a request: 900 spent, a 7th would make 1,050
        lambda: {"tokens": TokenBudget(1000)},
        [("before", None), ("step", ("claude-sonnet-4-5", {"input_tokens": 100, "output_tokens": 50}))] * 7,
    ),
    "the next request would pass the cost cap": (
        lambda: {"cost": CostCap(Decimal("0.05"))},
        [("before", None), ("step", ("claude-sonnet-4-5", {"input_tokens": 1000, "output_tokens": 500}))] * 5,
    ),
    "with overshoot allowed the request goes out and the cap is reached": (
        lambda: {"tokens": TokenBudget(1000), "allow_overshoot": True},
        [("before", None), ("step", ("claude-sonnet-4-5", {"input_tokens": 100, "output_tokens": 50}))] * 8,
    ),
    "depth": (
        lambda: {"depth": 0},
        [("allow", "x")],
    ),
}


@dataclass
class Deep:
    guard: Guard

    @max_depth(5)
    def allow(self, action: Any) -> None:
        self.guard.allow(action)


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_same_inputs_same_answers_with_and_without_a_ledger(name: str, backend: str) -> None:
    make, steps = SCENARIOS[name]
    alone = Guard(**make(), session="p")
    with open_ledger() as ledger:
        shared = Guard(**make(), ledger=ledger, session="p")
        if name == "depth":
            assert _run_deep(alone) == _run_deep(shared)
            assert "DepthExceeded" in _run_deep(alone)[0]
            return
        expected, got = _run(alone, steps), _run(shared, steps)
        assert got == expected
        assert any(a != "ok" for a in got), got
        t1, t2 = alone.spent, shared.spent
        assert (t1.tokens, t1.cost, t1.calls, t1.unpriced) == (t2.tokens, t2.cost, t2.calls, t2.unpriced)


def _run_deep(guard: Guard) -> list[str]:
    return _run(Deep(guard), [("allow", "x")])  # type: ignore[arg-type]


def test_the_answers_read_as_expected() -> None:
    answers = _run(Guard(policy=Policy(max_repeat=60)), [("allow", BASH)] * 61)
    assert answers[:59] == ["ok"] * 59 and "60 times in a row" in answers[59] and "61 times" in answers[60]
    spent = _run(Guard(tokens=TokenBudget(1000)), SCENARIOS["a spent budget denies the next action"][1])
    assert spent[:2] == ["ok", "TokenBudgetExceeded: token budget reached: 1,000 of 1,000 tokens in session python"
                         " - stop, or raise tokens=TokenBudget(N) given to this Guard"]
    assert spent[2].startswith("TokenBudgetExceeded") and spent[3].startswith("TokenBudgetExceeded")
    with pytest.raises(PolicyDenied, match="forbidden"):
        Guard(policy=Policy(deny_tools=("Bash",))).allow("bash")


def test_an_unknown_model_is_shown_in_both(backend: str) -> None:
    alone = Guard()
    alone.step(model="no-such-model-zz", usage={"input": 10})
    with open_ledger() as ledger:
        shared = Guard(ledger=ledger, session="u")
        shared.step(model="no-such-model-zz", usage={"input": 10})
        assert alone.spent.unpriced == shared.spent.unpriced == ("no-such-model-zz",)
        assert alone.spent.cost == shared.spent.cost > 0


USAGES: list[tuple[Any, tuple[int, int, int, int]]] = [
    ({"input": 1, "output": 2, "cache_read": 3, "cache_write": 4}, (1, 2, 3, 4)),
    ({"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 100, "cache_creation_input_tokens": 7,
      "cache_creation": {"ephemeral_5m_input_tokens": 3, "ephemeral_1h_input_tokens": 5}, "service_tier": "standard",
      "server_tool_use": None}, (10, 5, 100, 8)),  # Anthropic Messages
    ({"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150,
      "prompt_tokens_details": {"cached_tokens": 100, "audio_tokens": 0}}, (20, 30, 100, 0)),  # OpenAI chat
    ({"input_tokens": 50, "output_tokens": 9, "total_tokens": 59, "input_tokens_details": {"cached_tokens": 40},
      "output_tokens_details": {"reasoning_tokens": 4}}, (10, 9, 40, 0)),  # OpenAI responses
    ({"prompt_token_count": 80, "candidates_token_count": 6, "thoughts_token_count": 4,
      "cached_content_token_count": 50, "total_token_count": 90}, (30, 10, 50, 0)),  # Gemini
    ({"input_tokens": 3, "cache_creation_input_tokens": None}, (3, 0, 0, 0)),
    ({"input_tokens": 100, "output_tokens": 9, "total_tokens": 109,  # OpenAI responses, cache writes (openai 2.x)
      "input_tokens_details": {"cached_tokens": 40, "cache_write_tokens": 30, "cache_write_tokens_details": None},
      "output_tokens_details": {"reasoning_tokens": 4}}, (30, 9, 40, 30)),
    ({"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150,  # OpenAI chat, cache writes
      "prompt_tokens_details": {"cached_tokens": 50, "cache_write_tokens": 20}}, (50, 30, 50, 20)),
    ({"input_tokens": 350, "output_tokens": 240, "total_tokens": 590,  # LangChain usage_metadata: the sum of all
      "input_token_details": {"audio": 10, "cache_creation": 200, "cache_read": 100},  # input types
      "output_token_details": {"audio": 10, "reasoning": 200}}, (50, 240, 100, 200)),
    ({"input_tokens": 12, "output_tokens": 3, "total_tokens": 15, "input_token_details": {}}, (12, 3, 0, 0)),
    ({"prompt_token_count": 100, "candidates_token_count": 50, "tool_use_prompt_token_count": 3000,
      "total_token_count": 3150}, (3100, 50, 0, 0)),  # Gemini with a tool call: its prompt is billed as input
    ({"promptTokenCount": 900, "candidatesTokenCount": 20, "thoughtsTokenCount": 30, "toolUsePromptTokenCount": 50,
      "cachedContentTokenCount": 600, "totalTokenCount": 1000}, (350, 50, 600, 0)),  # Gemini REST (camelCase)
    ({"prompt_token_count": 40, "cached_content_token_count": None, "response_token_count": 8,
      "tool_use_prompt_token_count": None, "thoughts_token_count": None, "total_token_count": 48},
     (40, 8, 0, 0)),  # Gemini Live API, model_dump()'d
]


@pytest.mark.parametrize(("usage", "expected"), USAGES)
def test_step_reads_the_names_real_sdks_return(usage: Any, expected: tuple[int, int, int, int]) -> None:
    t = Guard().step(model="claude-sonnet-4-5", usage=usage)
    assert (t.input, t.output, t.cache_read, t.cache_write) == expected


def test_step_reads_an_sdk_object() -> None:
    class Usage:  # the shape of anthropic.types.Usage (a pydantic model)
        def model_dump(self) -> dict[str, Any]:
            return {"input_tokens": 7, "output_tokens": 3, "cache_read_input_tokens": None}

    @dataclass
    class Plain:
        prompt_tokens: int
        completion_tokens: int

    assert Guard().step(model="m", usage=Usage()).tokens == 10
    assert Guard().step(model="m", usage=Plain(4, 2)).tokens == 6


def test_step_reads_the_real_sdk_classes() -> None:
    responses = pytest.importorskip("openai.types.responses.response_usage")  # the frameworks extra brings it
    messages = pytest.importorskip("langchain_core.messages")
    usage = responses.ResponseUsage(
        input_tokens=100, output_tokens=9, total_tokens=109,
        input_tokens_details=responses.InputTokensDetails(cached_tokens=40, cache_write_tokens=30),
        output_tokens_details=responses.OutputTokensDetails(reasoning_tokens=4))
    t = Guard().step(model="gpt-4o", usage=usage)
    assert (t.input, t.output, t.cache_read, t.cache_write) == (30, 9, 40, 30)
    metadata = {"input_tokens": 350, "output_tokens": 240, "total_tokens": 590,
                "input_token_details": {"cache_creation": 200, "cache_read": 100}}
    message = messages.AIMessage("hi", usage_metadata=metadata)
    t = Guard().step(model="claude-sonnet-4-5", usage=message.usage_metadata)
    assert (t.input, t.output, t.cache_read, t.cache_write) == (50, 240, 100, 200)


@pytest.mark.parametrize("usage", [{"input": 1.9}, {"output_tokens": "12"}, {"input": True}, {"input": -1},
                                   {"inputs": 5}, {"prompt_tokens": 5, "prompt_tokens_details": {"cached_tokens": 9}},
                                   42, {"total_tokens": 500}, {}, {"service_tier": "x"},
                                   {"input_tokens": 5, "input_token_details": {"cache_read": 4, "cache_creation": 2}},
                                   {"input_tokens": 5, "input_token_details": {"cache_read": 1.5}},
                                   {"input_tokens": None, "output_tokens": None, "cache_read_input_tokens": None},
                                   {"prompt_tokens": None, "completion_tokens": None, "total_tokens": 70}])
def test_step_refuses_what_is_not_a_count(usage: Any) -> None:
    guard = Guard()
    with pytest.raises(UsageError) as info:
        guard.step(model="m", usage=usage)
    assert " - " in str(info.value) and "\n" not in str(info.value)
    assert guard.spent.tokens == 0


@pytest.mark.parametrize(("usage", "given", "counted"), [
    ({"prompt_token_count": None, "candidates_token_count": 7, "total_token_count": 50_000}, "50,000", "7"),
    ({"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 3150}, "3,150", "150"),
    ({"promptTokenCount": 10, "candidatesTokenCount": 5, "liveTokenCount": 900, "totalTokenCount": 915}, "915", "15"),
])
def test_a_total_above_its_counts_is_refused_not_charged_short(usage: Any, given: str, counted: str) -> None:
    guard = Guard()
    key = next(k for k in usage if "total" in k.lower())
    with pytest.raises(UsageError, match=f"usage {key} is {given} but its counts add up to {counted} - pass"):
        guard.step(model="gemini-2.5-pro", usage=usage)
    assert guard.spent.tokens == 0


def test_a_total_below_its_counts_is_let_be() -> None:  # a total that leaves out what is billed apart
    t = Guard().step(model="m", usage={"input_tokens": 10, "output_tokens": 5, "total_tokens": 12})
    assert (t.input, t.output) == (10, 5)


def test_a_dumped_usage_whose_counts_are_all_none_is_refused_as_a_total_alone() -> None:
    class Metadata:  # the shape of Gemini's usage metadata after pydantic model_dump(): every field, None when unset
        def model_dump(self) -> dict[str, Any]:
            return {"prompt_token_count": None, "candidates_token_count": None, "thoughts_token_count": None,
                    "cached_content_token_count": None, "total_token_count": 50_000, "traffic_type": None}

    guard = Guard()
    with pytest.raises(UsageError, match="usage has total_token_count but no input/output count - pass"):
        guard.step(model="gemini-2.5-pro", usage=Metadata())
    assert guard.spent.tokens == 0
    with pytest.raises(UsageError, match=r"no value in prompt_tokens \(all None\)"):
        guard.step(model="m", usage={"prompt_tokens": None, "total_tokens": None})
    t = guard.step(model="m", usage={"prompt_token_count": None, "candidates_token_count": 0})  # a known 0 counts
    assert t.tokens == 0


def test_a_str_path_opens_the_ledger(tmp_path: Path) -> None:
    with SqliteLedger(str(tmp_path / "l.sqlite3")) as ledger:
        ledger.set_limits(Scope("global"), Guard(tokens=TokenBudget(5)).limits)
    assert (tmp_path / "l.sqlite3").is_file()


@pytest.mark.parametrize("limit", [-1, 1.5, True, "2"])
def test_max_depth_refuses_a_limit_that_is_not_a_depth(limit: Any) -> None:
    with pytest.raises(UsageError, match="0 or more"):
        max_depth(limit)


@max_depth(2)
def level(n: int) -> int:
    return current_depth() if n == 0 else level(n - 1)


def test_carry_depth_counts_through_a_thread_pool_and_run_in_executor() -> None:
    @max_depth(2)
    def spawn(n: int, carry: bool = True) -> int:
        with ThreadPoolExecutor(2) as pool:
            return pool.submit(carry_depth(level) if carry else level, n).result()

    assert spawn(0, carry=False) == 1  # a plain submit starts a new chain: the documented pitfall
    assert spawn(0) == 2
    with pytest.raises(DepthExceeded):
        spawn(1)

    @max_depth(2)
    async def agent(n: int) -> int:
        return await asyncio.get_running_loop().run_in_executor(None, carry_depth(level), n)

    assert asyncio.run(agent(0)) == 2
    with pytest.raises(DepthExceeded):
        asyncio.run(agent(1))

    @max_depth(2)
    async def to_thread(n: int) -> int:  # asyncio.to_thread copies the context by itself
        return await asyncio.to_thread(level, n)

    assert asyncio.run(to_thread(0)) == 2

    @max_depth(2)
    def copied(n: int) -> int:  # and so does submitting through a copied context
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(contextvars.copy_context().run, level, n).result()

    assert copied(0) == 2


def test_generators_count_while_they_run_and_not_between_items() -> None:
    @max_depth(2)
    def walk(n: int) -> Iterator[int]:
        yield current_depth()
        if n:
            yield from walk(n - 1)
        got = yield current_depth()
        assert got is None

    assert list(walk(1)) == [1, 2, 2, 1]
    with pytest.raises(DepthExceeded):
        list(walk(2))
    gen = walk(0)
    assert next(gen) == 1 and current_depth() == 0  # the caller's depth between items
    gen.close()

    @max_depth(1)
    def echo() -> Iterator[int]:
        try:
            while True:
                value = yield current_depth()
                yield value * 10
        except KeyError:
            yield -1

    e = echo()
    assert next(e) == 1 and e.send(4) == 40 and e.throw(KeyError()) == -1

    @max_depth(2)
    async def stream(n: int) -> AsyncIterator[int]:
        yield current_depth()
        if n:
            async for d in stream(n - 1):
                yield d

    async def collect(n: int) -> list[int]:
        out = [d async for d in stream(n)]
        assert current_depth() == 0
        return out

    assert asyncio.run(collect(1)) == [1, 2]
    with pytest.raises(DepthExceeded):
        asyncio.run(collect(2))


def test_a_decorated_generator_is_still_a_generator_function() -> None:
    import inspect

    @max_depth(1)
    def items() -> Iterator[int]:
        yield current_depth()

    @max_depth(1)
    async def stream() -> AsyncIterator[int]:
        yield current_depth()

    assert inspect.isgeneratorfunction(items) and inspect.isasyncgenfunction(stream)
    assert items.__name__ == "items" and list(items()) == [1]


def test_the_decorator_names_its_own_limit() -> None:
    """`budget set --max-depth` sets the ledger's limit, not a decorator's or a Guard's: the fix names the one that
    set it."""
    with pytest.raises(DepthExceeded) as info:
        level(5)
    assert "@max_depth(2) on level" in info.value.fix and "budget set" not in info.value.fix
    with pytest.raises(DepthExceeded) as ledger_limit:
        Deep(Guard(depth=0)).allow("x")  # the Guard's own depth limit: it sets it again on each start
    assert ledger_limit.value.fix == "stop recursing, or raise depth=N given to this Guard"
