"""Windsurf (Cascade hooks): ``agent_action_name`` (pre_read_code, pre_run_command) and ``tool_info``; a deny is
exit 2 with the reason on stderr, the generic answer. ``init`` does not write Windsurf's hooks: they are set up by
hand (the README's hook section)."""

from __future__ import annotations

from boundread.agents import dialect
from boundread.agents.dialect import reply as reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from boundread.agents.dialect import Call

NAME = "windsurf"
LABEL = "Windsurf"
RANGE_PARAMS = "offset/limit"  # how its read tool takes a range, for a deny reason
_TOOLS = {"pre_read_code": "read", "pre_run_command": "shell"}  # its actions, as the tools they are


def parse(payload: Mapping[str, Any], agent: str) -> Call:
    """The action as a read or shell tool; its arguments and folder in ``tool_info``."""
    name = str(payload.get("agent_action_name") or "")
    info = dialect.as_dict(payload.get("tool_info"), "tool_info")
    return dialect.tool_call(agent, _TOOLS.get(name, name), info, str(info.get("cwd") or ""), name)
