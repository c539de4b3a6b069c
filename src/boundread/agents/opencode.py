"""opencode: no shell hooks, only JavaScript plugins - ``init`` writes ours, ``.opencode/plugin/boundread.js`` (the
user's: ``~/.config/opencode/plugin/boundread.js``), from data/opencode-plugin.js; the skill text in AGENTS.md.

opencode 1.18 loads every ``{plugin,plugins}/*.{js,ts}`` of its config folders at start and runs each plugin's
``tool.execute.before(input, output)`` before every tool call, with ``input = {tool, sessionID, callID}`` and
``output = {args}``. Our plugin pipes one JSON payload to ``boundread guard-check --agent opencode``::

    {"hook_event_name": "tool.execute.before", "client": "opencode", "tool": "read", "cwd": "/project",
     "session_id": "ses_...", "call_id": "toolu_...", "args": {"filePath": "/project/report.pdf"}}

and acts on the answer: ``{"decision": "deny", "reason": R}`` throws, so the tool fails and the model gets R;
``{"decision": "allow", "args": {...}, "context": C}`` rewrites the call in place (opencode runs the tool with the
very ``args`` object the plugin was handed, so a changed key changes the call - verified with 1.18.33), and its
``tool.execute.after`` adds C to the tool's output; ``{}`` allows. A guard that cannot be run or does not answer
lets the call through, as a failing hook does in the other clients. opencode asks its own permission rules after
the plugin, on the rewritten call.

opencode's tools: ``read`` (``filePath``, ``offset`` 1-based, ``limit`` lines), ``bash`` (``command``, ``workdir``),
``edit``/``write`` (``filePath``), ``grep``, ``glob``, ``list``... A ``filePath`` is read as ``file_path``, and a
rewrite's ``file_path`` answered as ``filePath``.
"""

from __future__ import annotations

import os

from boundread.agents import dialect
from boundread.agents.dialect import Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path
    from typing import Any

    from boundread.agents.base import Check, Target
    from boundread.agents.dialect import Call
    from boundread.guard.decide import Decision

NAME = "opencode"
LABEL = "opencode"
EVENT = "tool.execute.before"
PRE_MATCHER = "*"  # the plugin asks about every tool: the guard allows those it does not judge
REDIRECT = True
INGEST_EVENTS: tuple[str, ...] = ()  # budget ingest reads no opencode log (yet)
RANGE_PARAMS = "offset/limit"  # how its read tool takes a range, for a deny reason
READ_RANGE: tuple[str, ...] = ("offset", "limit")  # what a redirect sets on read: the first line, how many
#: Its own hard limits (1.18.33, read from its binary), which no suggestion or rewrite may exceed
#: (tests/hook/test_qwen_opencode_limits.py): read with no ``limit`` gives the first 2,000 lines, each cut
#: at 2,000 characters, and at most 50 KB of output (a cut, not a refusal); a PDF or an image is attached whole,
#: whatever its size (the model gets every byte); .zip/.xlsx/.docx/... and other binary files are refused. A bash or
#: MCP output over 2,000 lines or 50 KB is cut, the rest kept in a file.
READ_MAX_BYTES: int | None = None  # a whole read is cut, not refused
READ_FILE_MAX_BYTES: int | None = None
READ_MAX_LINES: int | None = 2000
READ_MAX_CHARS: int | None = 51_200  # bytes of one read's output
READ_MAX_TOKENS: int | None = None
SHELL_MAX_CHARS: int | None = 51_200
MCP_MAX_CHARS: int | None = 51_200
PLUGIN = "boundread.js"
_PATH_KEY, _OWN_PATH_KEY = "file_path", "filePath"


def parse(payload: Mapping[str, Any], agent: str) -> Call:
    """Our plugin's payload: ``tool``, ``args`` (opencode's own, ``filePath`` read as ``file_path``), ``cwd``."""
    tool = str(payload.get("tool") or "")
    if not tool:
        raise dialect.PayloadError("missing tool")
    args = dialect.as_dict(payload.get("args"), "args")
    if _OWN_PATH_KEY in args and _PATH_KEY not in args:
        args = {(_PATH_KEY if key == _OWN_PATH_KEY else key): value for key, value in args.items()}
    return dialect.tool_call(agent, tool, args, str(payload.get("cwd") or ""),
                             str(payload.get("hook_event_name") or EVENT))


def reply(decision: Decision, event: str, agent: str) -> Reply:
    """What our plugin acts on: a deny (thrown with its reason), a rewrite (``args``, in opencode's own keys, and
    ``context`` for the tool's output), or ``{}``."""
    if decision.denied:
        return Reply(dialect.dump({"decision": "deny", "reason": dialect.why(decision)}))
    if decision.updated is not None:
        args = {(_OWN_PATH_KEY if key == _PATH_KEY else key): value for key, value in decision.updated.items()}
        return Reply(dialect.dump({"decision": "allow", "args": args, "context": decision.context or ""}))
    return Reply("{}\n")


def user_rules(tool: str, root: str) -> bool:
    """Does an opencode config (the user's, the project's ``opencode.json``/``opencode.jsonc``, or one named by
    ``$OPENCODE_CONFIG``) hold a ``permission`` rule for ``tool`` other than a plain allow? opencode checks its
    rules on the rewritten call, so a ``deny`` of ``cat *`` would no longer match ``boundread extract``: such a
    call is not rewritten (hook/permissions.py). A file that cannot be read counts as rules."""
    from boundread.agents.rulefiles import settings_of

    config = os.environ.get("XDG_CONFIG_HOME") or os.environ.get("HOME", "") + "/.config"
    files = [f"{config}/opencode/{name}" for name in ("opencode.json", "opencode.jsonc", "config.json")]
    files += [f"{root}/{name}" for name in ("opencode.json", "opencode.jsonc")]
    files += [f"{root}/.opencode/{name}" for name in ("opencode.json", "opencode.jsonc")]
    files += [os.environ["OPENCODE_CONFIG"]] if os.environ.get("OPENCODE_CONFIG") else []
    if os.environ.get("OPENCODE_PERMISSION") or os.environ.get("OPENCODE_CONFIG_CONTENT"):
        return True
    for file in files:
        data = settings_of(file)
        if data is True:
            return True
        if isinstance(data, dict) and _restricts(data.get("permission"), tool):
            return True
        agents = data.get("agent") if isinstance(data, dict) else None
        if isinstance(agents, dict) and any(isinstance(one, dict) and _restricts(one.get("permission"), tool)
                                            for one in agents.values()):
            return True
    return False


def _restricts(permission: object, tool: str) -> bool:
    if permission is None:
        return False
    if isinstance(permission, str):  # one action for every tool
        return permission != "allow"
    if not isinstance(permission, dict):
        return True
    rule = permission.get(tool, permission.get("*"))
    return rule is not None and rule != "allow"


def config_dir(home: Path) -> Path:
    """opencode's user config folder: ``$XDG_CONFIG_HOME/opencode`` for this user, else ``~/.config/opencode``."""
    from pathlib import Path

    xdg = os.environ.get("XDG_CONFIG_HOME")
    return (Path(xdg) if xdg and home == Path.home() else home / ".config") / "opencode"


def target(root: Path, home: Path, user: bool, program: str, budget: bool) -> Target:
    """Our plugin file (written whole from data/opencode-plugin.js, removed whole on uninstall); the skill text in
    AGENTS.md (the user's: ~/.config/opencode/AGENTS.md)."""
    from boundread.agents import install
    from boundread.agents.base import Target

    base = config_dir(home) if user else root / ".opencode"
    return Target(base / "plugin" / PLUGIN, ((EVENT, {"command": install.command(NAME, program)}),),
                  base / "AGENTS.md" if user else root / "AGENTS.md", True, {})


def checks(settings: Path, root: Path, home: Path) -> list[Check]:
    """Our plugin: there, ours and as this version writes it; its command found and run; the guard answering a
    payload as the plugin sends it."""
    from boundread.agents import opencode_doctor

    return opencode_doctor.checks(settings, root, home, settings.parent.parent == config_dir(home))
