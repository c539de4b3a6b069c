"""Token counts from the usage a model SDK returns: Anthropic, OpenAI (chat and responses), Gemini, or ours.

``Guard.step(usage=...)`` takes the SDK's object or dict as it comes. Each name maps to one of our four
counts (input without cache, output, cache read, cache write); where an SDK counts cached tokens inside its
input (OpenAI, Gemini), the cached part is moved out so nothing is counted twice. A value that is not a
whole number of tokens, or a mapping with no name we know, is refused: a silent 0 would let a runaway run.
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
    # Gemini: prompt_token_count includes the cached content; thoughts are billed as output
    "prompt_token_count": "input", "candidates_token_count": "output", "thoughts_token_count": "output",
    "cached_content_token_count": "cache_read",
    "promptTokenCount": "input", "candidatesTokenCount": "output", "thoughtsTokenCount": "output",
    "cachedContentTokenCount": "cache_read",
}
# Names that carry no count of their own (totals, tiers, details read below): accepted, not added.
IGNORED = {
    "total_tokens", "total_token_count", "totalTokenCount", "service_tier", "server_tool_use", "cache_creation",
    "prompt_tokens_details", "completion_tokens_details", "input_tokens_details", "output_tokens_details",
    "tool_use_prompt_token_count", "toolUsePromptTokenCount", "prompt_tokens_details_list", "speed",
    "inference_geo", "cache_tokens_details", "candidates_tokens_details", "promptTokensDetails",
    "cacheTokensDetails", "candidatesTokensDetails", "traffic_type", "trafficType",
}


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


def _cached(details: object) -> int:
    """``cached_tokens`` inside OpenAI's ``prompt_tokens_details`` / ``input_tokens_details``."""
    if details is None:
        return 0
    return _count("cached_tokens", as_mapping(details).get("cached_tokens"))


def counts(usage: object) -> tuple[int, int, int, int]:
    """(input, output, cache_read, cache_write) from ``usage``; UsageError for what is not a count."""
    data = as_mapping(usage)
    unknown = sorted(str(k) for k in data if k not in NAMES and k not in IGNORED)
    if unknown and not any(k in NAMES for k in data):
        raise UsageError(
            f"usage names no token count I know ({', '.join(unknown[:4])})",
            "pass input/output/cache_read/cache_write, or the SDK's usage (input_tokens, prompt_tokens, ...)",
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
    # OpenAI: cached tokens are part of prompt_tokens (chat) or input_tokens (responses, which has the details)
    cached = _cached(data.get("prompt_tokens_details")) + _cached(data.get("input_tokens_details"))
    if "cached_content_token_count" in data or "cachedContentTokenCount" in data:  # Gemini: inside the prompt
        cached += total["cache_read"]
        total["cache_read"] = 0
    if cached:
        if cached > total["input"]:
            raise UsageError(f"usage has {cached:,} cached tokens in {total['input']:,} input tokens",
                             "pass the SDK's usage as it came")
        total["input"] -= cached
        total["cache_read"] += cached
    return total["input"], total["output"], total["cache_read"], total["cache_write"]
