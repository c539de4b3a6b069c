"""A tool call's arguments that do not fit its input schema, said as one boundread error.

The SDK validates the arguments with pydantic and answers a mismatch with pydantic's own multi-line text (a
URL, no envelope); an argument the schema does not know it drops without a word, so ``page="3"`` for
``pages="3"`` would read from the first page. Here both become a :class:`~boundread.errors.UsageError`:
``max_rows=0: must be >= 1 - call sheets(path, sheet=null, ...)``, which the server turns into the same
``isError`` result as every other error.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from boundread.errors import UsageError

_BOUNDS = {"greater_than_equal": ("ge", ">="), "greater_than": ("gt", ">"), "less_than_equal": ("le", "<="),
           "less_than": ("lt", "<")}


def unknown(tool: str, arguments: Mapping[str, Any], schema: Mapping[str, Any]) -> UsageError | None:
    """The arguments the tool does not take, as an error; None when it takes them all."""
    known = schema.get("properties") or {}
    extra = [name for name in arguments if name not in known]
    if not extra:
        return None
    names = ", ".join(f"{name!r}" for name in extra)
    return UsageError(f"{tool} takes no argument {names}" if len(extra) == 1 else f"{tool} takes no arguments {names}",
                      f"call {signature(tool, schema)}")


def invalid(tool: str, errors: Iterable[Mapping[str, Any]], schema: Mapping[str, Any]) -> UsageError:
    """pydantic's ``ValidationError.errors()`` for a call, as one error that names each argument and the call."""
    problems = [_problem(error) for error in errors]
    return UsageError("; ".join(dict.fromkeys(problems)) or f"bad arguments for {tool}",
                      f"call {signature(tool, schema)}")


def signature(tool: str, schema: Mapping[str, Any]) -> str:
    """``pages(path, range, layout=false, ...)``: the required parameters, then the others with their defaults."""
    properties: Mapping[str, Any] = schema.get("properties") or {}
    required = [name for name in properties if name in set(schema.get("required") or ())]
    optional = [f"{name}={json.dumps(spec.get('default'))}" for name, spec in properties.items()
                if name not in required]
    return f"{tool}({', '.join(required + optional)})"


def _problem(error: Mapping[str, Any]) -> str:
    name = ".".join(str(part) for part in error.get("loc", ())) or "arguments"
    kind = str(error.get("type", ""))
    if kind == "missing":
        return f"{name}: required"
    value = _short(error.get("input"))
    if kind in _BOUNDS:
        key, sign = _BOUNDS[kind]
        return f"{name}={value}: must be {sign} {(error.get('ctx') or {}).get(key)}"
    message = str(error.get("msg", "not valid")).split("\n", 1)[0]
    return f"{name}={value}: {message[:1].lower()}{message[1:]}"


def _short(value: object) -> str:
    """The value as JSON, on one line and at most 40 characters."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except ValueError:  # a circular structure cannot come from JSON, but stay one line whatever comes
        text = repr(value)
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:37] + "..."
