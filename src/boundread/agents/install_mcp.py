"""``boundread init --mcp``: register ``boundread mcp`` as an MCP server in the client's own config.

Claude Code's .mcp.json (user: ~/.claude.json), Cursor's mcp.json, Codex's config.toml and Gemini CLI's
settings.json. Each server gets a ``--max-chars`` that fits its client's cap on one MCP result. The JSON files
are merged the way :mod:`boundread.agents.install` merges hook settings (nothing else lost or reordered).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from boundread import agents
from boundread.agents import locate
from boundread.agents.base import Change
from boundread.agents.install import AGENTS, agent_name, json_indent, load
from boundread.errors import Corrupt, UsageError

MCP_AGENTS = ("claude", "cursor", "codex", "gemini")
MCP_NAME = "boundread"
#: the clients' caps on one MCP result, in characters, where their own module does not say it (MCP_MAX_CHARS):
#: Codex 0.171 cuts a tool output at its model's truncation_policy, 10,000 tokens for gpt-5.5 in its built-in
#: catalog, counted at 4 bytes a token
MCP_CAPS: dict[str, int] = {"codex": 40_000}
#: Each client's server gets a --max-chars of four fifths of that client's cap on one MCP result (its module's
#: MCP_MAX_CHARS), in thousands: the server keeps the whole result (footer and envelope) within --max-chars, and
#: the fifth is for the client's own wrapping and the resource link. Claude Code 2.1.332 saves a result over
#: 50,000 characters to a file and shows the model a 2 KB preview (tests/e2e/test_mcp.py): 40,000.
MCP_SHARE = 0.8


def mcp_args(agent: str) -> list[str]:
    """``boundread mcp`` with the --max-chars that fits ``agent``'s cap on one MCP result (none known: the
    server's default)."""
    cap = getattr(agents.module(agent), "MCP_MAX_CHARS", None) if agent in AGENTS else None
    cap = cap or MCP_CAPS.get(agent)
    return ["mcp", "--max-chars", str(int(cap * MCP_SHARE) // 1000 * 1000)] if cap else ["mcp"]


def mcp_config(agent: str, root: Path, home: Path, user: bool) -> Path:
    """Where ``agent`` lists its MCP servers: Claude Code's .mcp.json (user: ~/.claude.json), Cursor's mcp.json,
    Codex's .codex/config.toml (a trusted project's; user: ~/.codex/config.toml), Gemini CLI's settings.json."""
    base = home if user else root
    if agent == "claude":
        return home / ".claude.json" if user else root / ".mcp.json"
    if agent == "cursor":
        return base / ".cursor" / "mcp.json"
    if agent == "codex":
        return base / ".codex" / "config.toml"
    if agent == "gemini":
        return base / ".gemini" / "settings.json"
    raise UsageError(f"--mcp works with --agent {', '.join(MCP_AGENTS)}, not {agent}",
                     "register the server by hand: command `boundread`, args [\"mcp\"] (see the README)")


def with_mcp(changes: list[Change], agent: str = "claude", root: Path | None = None, *, user: bool = False,
             uninstall: bool = False, home: Path | None = None, program: locate.Program | None = None,
             ) -> list[Change]:
    """``changes`` (init's plan) with the MCP server (un)registered too: a file the plan changes already (Gemini's
    settings.json holds its hooks and its servers) gets one change holding both. Uninstall removes our server of
    a client that has one, if it is there."""
    if agent not in MCP_AGENTS and uninstall:
        return changes
    planned = {change.path: n for n, change in enumerate(changes)}
    path = mcp_config(agent, (root or Path.cwd()).absolute(), home or Path.home(), user)
    at = planned.get(path)
    server = mcp_change(agent, root, user=user, uninstall=uninstall, home=home, program=program,
                        base=changes[at].after if at is not None else None)
    if at is None:
        return [*changes, server] if server.changed or not uninstall else changes
    merged = [*changes]
    merged[at] = Change(path, changes[at].before, server.after)
    return merged


def mcp_change(agent: str = "claude", root: Path | None = None, *, user: bool = False, uninstall: bool = False,
               home: Path | None = None, program: locate.Program | None = None, base: str | None = None) -> Change:
    """The change that adds (or, ``uninstall``, removes) the boundread server running ``boundread mcp``:
    ``mcpServers.boundread`` in JSON, ``[mcp_servers.boundread]`` in Codex's TOML. ``base``: the file's text as
    init's plan leaves it (default: as it is on disk).

    The program is a plain path here (no shell reads this file). Another server named boundread is kept;
    uninstall removes ours only. Registering needs the mcp extra here: a server that cannot start is refused."""
    from boundread.mcp import extra

    path = mcp_config(agent, (root or Path.cwd()).absolute(), home or Path.home(), user)
    if not uninstall and (absent := extra.missing()) is not None:
        raise UsageError(f"`boundread mcp` needs the mcp extra ({absent} is not installed): {agent_name(agent)} "
                         "would start a server that cannot run; nothing was written",
                         "pip install 'boundread[mcp]' (pipx: pipx inject boundread mcp), then run init --mcp again")
    words = (program or locate.program()).command
    command = shlex.split(words)[0] if words.startswith("'") else words
    args = mcp_args(agent)
    if agent == "codex":
        from boundread.agents import codex_mcp

        before, after = codex_mcp.changed(path, MCP_NAME, command, args, uninstall=uninstall, base=base)
        return Change(path, before, after)
    before, data = load(path)
    if base is not None:
        data = json.loads(base) if base.strip() else {}
    servers = data.get("mcpServers", {})
    if not isinstance(servers, dict):
        raise Corrupt(f"{path}: \"mcpServers\" is not an object; left untouched", "fix it by hand")
    entry: dict[str, Any] = {**({"type": "stdio"} if agent == "claude" else {}), "command": command, "args": args}
    current = base if base is not None else before
    old = servers.get(MCP_NAME)
    is_ours = (isinstance(old, dict) and (old.get("args") or [None])[0] == "mcp"
               and "boundread" in str(old.get("command", "")))
    if uninstall:
        if not is_ours:
            return Change(path, before, current)
        servers.pop(MCP_NAME)
    elif old is not None and not is_ours:
        raise UsageError(f"{path} already has an MCP server named {MCP_NAME} that is not `boundread mcp`",
                         "rename or remove it, then run init --mcp again")
    elif old == entry:
        return Change(path, before, current)
    else:
        servers[MCP_NAME] = entry
    data = {**data, "mcpServers": servers} if servers or not uninstall else {k: v for k, v in data.items()
                                                                           if k != "mcpServers"}
    if uninstall and not data and path.name not in (".claude.json", "settings.json"):
        return Change(path, before, None)
    return Change(path, before, json.dumps(data, indent=json_indent(current), ensure_ascii=False) + "\n")
