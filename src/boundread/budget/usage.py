"""Token counts from the usage a model SDK returns: Anthropic, OpenAI (chat and responses), Gemini, or ours.

``Guard.step(usage=...)`` takes the SDK's object or dict as it comes. Each name maps to one of our four
counts (input without cache, output, cache read, cache write); where an SDK counts cached tokens inside its
input (OpenAI's ``cached_tokens`` and ``cache_write_tokens``, Gemini, LangChain's ``usage_metadata`` with
``input_token_details``), the cached part is moved out so nothing is counted twice. A value that is not a
whole number of tokens, or a usage with no count of input or output (``{}``, ``{"service_tier": "x"}``, a
``total_tokens`` alone, which says nothing of what was input and what output, or counts that are all None, as
pydantic's ``model_dump()`` writes the fields an SDK left unset), or a total larger than its counts add up to
(one count left None, a name not read here), is refused: a silent 0 would let a runaway run.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boundread.errors import UsageError

# name -> our field. Inclusive names count cached tokens too (the cached part is subtracted below).
NAMES = {
    "input": "input", "output": "output", "cache_read": "cache_read", "cache_write": "cache_write",
    # Anthropic Messages: input_tokens excludes the cache
    "input_tokens": "input", "output_tokens": "output",
    "cache_read_input_tokens": "cache_read", "cache_creation_input_tokens": "cache_write",
    # OpenAI chat completions: prompt_tokens includes the cached ones
    "prompt_tokens": "input", "completion_tokens": "output",
    # Gemini: prompt_token_count includes the cached content; thoughts are billed as output, the prompt of its
    # tool calls (tool_use_prompt_token_count) as input; the Live API says response_token_count for candidates
    "prompt_token_count": "input", "candidates_token_count": "output", "thoughts_token_count": "output",
    "cached_content_token_count": "cache_read", "tool_use_prompt_token_count": "input",
    "response_token_count": "output",
    "promptTokenCount": "input", "candidatesTokenCount": "output", "thoughtsTokenCount": "output",
    "cachedContentTokenCount": "cache_read", "toolUsePromptTokenCount": "input", "responseTokenCount": "output",
}
# Names that carry no count of their own (totals, tiers, details read below): accepted, not added.
IGNORED = {
    "total_tokens", "total_token_count", "totalTokenCount", "service_tier", "server_tool_use", "cache_creation",
    "prompt_tokens_details", "completion_tokens_details", "input_tokens_details", "output_tokens_details",
    "prompt_tokens_details_list", "speed",
    "inference_geo", "cache_tokens_details", "candidates_tokens_details", "promptTokensDetails",
    "cacheTokensDetails", "candidatesTokensDetails", "traffic_type", "trafficType",
    "input_token_details", "output_token_details",  # LangChain usage_metadata
}
TOTALS = ("total_tokens", "total_token_count", "totalTokenCount")


def as_mapping(usage: object) -> Mapping[str, Any]:
    """A dict of an SDK usage object (pydantic ``model_dump``, a dataclass or plain attributes) or a mapping."""
    if isinstance(usage, Mapping):
        return usage
    dump = getattr(usage, "model_dump", None) or getattr(usage, "to_dict", None)
    if callable(dump):
        data = dump()
        if isinstance(data, Mapping):
            return data
    if hasattr(usage, "__dict__"):
        return {k: v for k, v in vars(usage).items() if not k.startswith("_")}
    raise UsageError(f"usage {usage!r} is not a mapping", "pass the SDK's usage object or a dict of token counts")


def _count(name: str, value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise UsageError(f"usage {name}={value!r} is not a token count", "pass whole numbers of tokens, 0 or more")
    return value


def _details(details: object, *names: str) -> tuple[int, ...]:
    """The counts ``names`` inside a details object (OpenAI's ``prompt_tokens_details``, LangChain's
    ``input_token_details``); 0 for each when there is none."""
    if details is None:
        return tuple(0 for _ in names)
    found = as_mapping(details)
    return tuple(_count(name, found.get(name)) for name in names)


def counts(usage: object) -> tuple[int, int, int, int]:
    """(input, output, cache_read, cache_write) from ``usage``; UsageError for what is not a count."""
    data = as_mapping(usage)
    # a count name whose value is None is absent: pydantic's model_dump() writes every field, None when unset
    if not any(k in NAMES and data[k] is not None for k in data):
        totals = [k for k in TOTALS if data.get(k) is not None]
        empty = sorted(str(k) for k in data if k in NAMES)
        named = ", ".join(sorted(str(k) for k in data)[:4]) or "nothing"
        raise UsageError(
            f"usage has {totals[0]} but no input/output count" if totals
            else f"usage has no value in {', '.join(empty[:4])} (all None)" if empty
            else f"usage names no token count ({named})",
            "pass input/output/cache_read/cache_write, or the SDK's usage as it came (input_tokens, prompt_tokens,"
            " ...)",
        )
    total = {"input": 0, "output": 0, "cache_read": 0, "cache_write": 0}
    for name, field in NAMES.items():
        if name in data:
            total[field] += _count(name, data[name])
    split = data.get("cache_creation")  # Anthropic: cache writes by lifetime; their sum is authoritative
    if split is not None and "cache_write" not in data:
        parts = as_mapping(split)
        five, hour = (_count(k, parts.get(k)) for k in ("ephemeral_5m_input_tokens", "ephemeral_1h_input_tokens"))
        if five + hour:
            total["cache_write"] = five + hour
    # Inside the input: OpenAI's cached and cache-write tokens (prompt_tokens of chat, input_tokens of responses),
    # Gemini's cached content, LangChain's cache_read and cache_creation (input_tokens is "the sum of all input
    # token types" there; Anthropic's own input_tokens, with no input_token_details, excludes the cache)
    read = write = 0
    for key in ("prompt_tokens_details", "input_tokens_details"):
        got_read, got_write = _details(data.get(key), "cached_tokens", "cache_write_tokens")
        read, write = read + got_read, write + got_write
    got_read, got_write = _details(data.get("input_token_details"), "cache_read", "cache_creation")
    read, write = read + got_read, write + got_write
    if "cached_content_token_count" in data or "cachedContentTokenCount" in data:  # Gemini: inside the prompt
        read += total["cache_read"]
        total["cache_read"] = 0
    if read + write:
        if read + write > total["input"]:
            raise UsageError(f"usage has {read + write:,} cached tokens in {total['input']:,} input tokens",
                             "pass the SDK's usage as it came")
        total["input"] -= read + write
        total["cache_read"] += read
        total["cache_write"] += write
    _check_totals(data, sum(total.values()))
    return total["input"], total["output"], total["cache_read"], total["cache_write"]


def _check_totals(data: Mapping[str, Any], counted: int) -> None:
    """A total the SDK gave that exceeds what its counts add up to means tokens this reading missed (a count left
    None, a name it does not know): refused rather than charged short. A total below the counts is let be."""
    for key in TOTALS:
        given = data.get(key)
        if given is not None and _count(key, given) > counted:
            raise UsageError(
                f"usage {key} is {given:,} but its counts add up to {counted:,}",
                "pass the SDK's usage as it came, with every count it gave (a count left None hides tokens)",
            )
