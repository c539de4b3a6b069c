"""The budget's value types: limits, usage records, totals and scopes. Standard library only."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal

from boundread.budget.schema import scope_key

NANOS = Decimal(1_000_000_000)  # the ledger stores money as integer nano-dollars: exact sums in SQL


def to_nanos(usd: Decimal) -> int:
    return int((usd * NANOS).to_integral_value())


def from_nanos(nanos: int) -> Decimal:
    return Decimal(nanos) / NANOS


@dataclass(frozen=True)
class Scope:
    """Where a limit applies: ``session:<id>``, ``project:<dir>`` or ``global``."""

    kind: str  # "session" | "project" | "global"
    name: str = ""

    @property
    def key(self) -> str:
        return scope_key(self.kind, self.name)

    @classmethod
    def from_key(cls, key: str) -> Scope:
        """The scope a ``limits.scope`` key names (``scope_key`` read back)."""
        kind, _, name = key.partition(":")
        return cls(kind, name)

    @property
    def label(self) -> str:
        return {"session": f"session {self.name}", "project": f"project {self.name}"}.get(self.kind, "all sessions")


@dataclass(frozen=True)
class BudgetLimits:
    """The four guards' limits; ``None`` means no limit on that dimension.

    ``max_agents``: sub-agents a session (or every session of the scope) may start; ``max_agents_per_minute``:
    how many may start in any 60 seconds. ``allow_overshoot``: True lets the request that would cross a token
    or USD cap go out (the session still ends once it has); None and False end the session before it.
    """

    max_tokens: int | None = None
    max_usd: Decimal | None = None
    max_depth: int | None = None
    max_calls: int | None = None
    max_repeat: int | None = None
    deny_tools: tuple[str, ...] = ()
    max_agents: int | None = None
    max_agents_per_minute: int | None = None
    allow_overshoot: bool | None = None

    @property
    def empty(self) -> bool:
        """No limit is set (``allow_overshoot`` alone limits nothing)."""
        return replace(self, allow_overshoot=None) == BudgetLimits()

    def as_json(self) -> dict[str, object]:
        """Every limit by name, JSON-ready (USD as a string: no float rounding); None for no limit."""
        return {"max_tokens": self.max_tokens, "max_usd": None if self.max_usd is None else str(self.max_usd),
                "max_depth": self.max_depth, "max_calls": self.max_calls, "max_repeat": self.max_repeat,
                "deny_tools": list(self.deny_tools), "max_agents": self.max_agents,
                "max_agents_per_minute": self.max_agents_per_minute, "allow_overshoot": self.allow_overshoot}

    def merged(self, other: BudgetLimits) -> BudgetLimits:
        """These limits with every field that ``other`` sets replaced."""
        return BudgetLimits(
            max_tokens=other.max_tokens if other.max_tokens is not None else self.max_tokens,
            max_usd=other.max_usd if other.max_usd is not None else self.max_usd,
            max_depth=other.max_depth if other.max_depth is not None else self.max_depth,
            max_calls=other.max_calls if other.max_calls is not None else self.max_calls,
            max_repeat=other.max_repeat if other.max_repeat is not None else self.max_repeat,
            deny_tools=other.deny_tools or self.deny_tools,
            max_agents=other.max_agents if other.max_agents is not None else self.max_agents,
            max_agents_per_minute=other.max_agents_per_minute if other.max_agents_per_minute is not None
            else self.max_agents_per_minute,
            allow_overshoot=other.allow_overshoot if other.allow_overshoot is not None else self.allow_overshoot,
        )


@dataclass(frozen=True)
class UsageRecord:
    """One model request's tokens and its cost (computed when recorded, so the hook path needs no prices)."""

    model: str
    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    cost: Decimal = Decimal(0)
    key: str | None = None  # dedupe key, e.g. "<message.id>:<requestId>"; None: never deduped
    message: str | None = None  # the API's message.id: a sidechain copy of it under another request counts once
    sidechain: bool = False  # logged by a sub-agent (``isSidechain``): on a tie the main chain's copy stays
    flagged: bool = False  # priced by the default price (unknown model)
    price_source: str = ""
    agent: str | None = None  # the sub-agent that made the request (None: the session's main agent)
    at: float | None = None  # when the request was made (Unix seconds), if the source says

    @property
    def tokens(self) -> int:
        return self.input + self.output + self.cache_read + self.cache_write


@dataclass(frozen=True)
class Totals:
    """What a scope has spent so far."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    cost: Decimal = Decimal(0)
    calls: int = 0
    depth: int = 0
    warnings: int = 0
    unpriced: tuple[str, ...] = ()  # models priced by the default price

    @property
    def tokens(self) -> int:
        return self.input + self.output + self.cache_read + self.cache_write


@dataclass(frozen=True)
class ScopeView:
    scope: Scope
    limits: BudgetLimits
    totals: Totals


@dataclass(frozen=True)
class CallView:
    """What the policy sees when a tool call arrives: the call, the scopes with limits, the recent calls."""

    session: str
    tool: str
    digest: str
    depth: int
    scopes: tuple[ScopeView, ...]
    recent: tuple[str, ...] = field(default=())  # digests of the previous calls, most recent first
