"""Cline: its hook payload nests the call in ``preToolUse`` (``toolName``, ``parameters``) beside ``hookName``
and ``clineVersion``; a deny is ``{"cancel": true, "errorMessage": ...}``. ``init`` does not write Cline's hooks:
they are set up by hand (the README's hook section)."""

from __future__ import annotations

from boundread.agents import dialect
from boundread.agents.dialect import Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from boundread.agents.dialect import Call
    from boundread.guard.decide import Decision

NAME = "cline"
LABEL = "Cline"
RANGE_PARAMS = "offset/limit"  # how its read tool takes a range, for a deny reason


def parse(payload: Mapping[str, Any], agent: str) -> Call:
    """The call in ``preToolUse``; the folder is the first workspace root."""
    body = dialect.as_dict(payload.get("preToolUse"), "preToolUse")
    roots = payload.get("workspaceRoots") or [""]
    cwd = str(roots[0] if isinstance(roots, list) and roots else "")
    params = dialect.as_dict(body.get("parameters"), "parameters")
    return dialect.tool_call(agent, str(body.get("toolName") or ""), params, cwd)


def reply(decision: Decision, event: str, agent: str) -> Reply:
    """``cancel``, with the reason as ``errorMessage`` on a deny."""
    if decision.denied:
        return Reply(dialect.dump({"cancel": True, "errorMessage": dialect.why(decision)}))
    return Reply(dialect.dump({"cancel": False}))
