"""The command sets (``dumps-*.txt``, ``everyday-*.txt`` here) and how each command is put to guard-check.

A case is sent as a Claude Code PreToolUse payload (Bash, or the MCP tool its ``@TOOL`` prefix names) to
``boundread.hook.main.run`` - guard-check's own entry point, in this process - in deny mode unless asked.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
KINDS = ("dumps", "everyday")
PARTS = ("tuning", "heldout", "fresh", "fresh2")


class Case(NamedTuple):
    kind: str  # dumps (should be denied) or everyday (must be allowed)
    part: str  # tuning or heldout
    cls: str  # the class, as the file's "## NAME" says
    command: str
    tool: str  # "Bash", or an MCP tool's name


class Answer(NamedTuple):
    decision: str  # allow or deny
    reason: str
    command: str  # what runs: the case's command, or the rewrite redirect mode gave


def load(kind: str, part: str) -> list[Case]:
    """The cases of one file, in order."""
    cases: list[Case] = []
    cls = ""
    for line in (HERE / f"{kind}-{part}.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            cls = line[3:].strip()
        elif line.startswith("> ") or line == ">":
            last = cases[-1]
            cases[-1] = last._replace(command=f"{last.command}\n{line[2:]}")
        elif line.strip() and not line.startswith("#"):
            tool, command = "Bash", line
            if line.startswith("@"):
                tool, _, command = line[1:].partition(" ")
            cases.append(Case(kind, part, cls, command, tool))
    return cases


def payload(case: Case, cwd: Path) -> dict[str, Any]:
    """The PreToolUse payload Claude Code sends for this call."""
    tool_input: dict[str, Any] = {"command": case.command}
    if case.tool == "Bash":
        tool_input["description"] = "run it"
    return {"session_id": "sets", "transcript_path": "/dev/null", "cwd": str(cwd), "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": case.tool, "tool_input": tool_input,
            "tool_use_id": "toolu_sets"}


def ask(case: Case, cwd: Path, mode: str = "deny") -> Answer:
    """guard-check's answer to the case (its stdout parsed as Claude Code parses it)."""
    from boundread.hook import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main.run(["--mode", mode, "--agent", "claude"], io.StringIO(json.dumps(payload(case, cwd))))
    if code != 0:
        raise AssertionError(f"guard-check exited {code} on {case.command!r}")
    text = out.getvalue()
    body = json.loads(text).get("hookSpecificOutput", {}) if text.strip() else {}
    decision = body.get("permissionDecision", "allow")
    updated = body.get("updatedInput") or {}
    return Answer(decision, str(body.get("permissionDecisionReason", "")), str(updated.get("command", case.command)))
