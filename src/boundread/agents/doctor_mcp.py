"""doctor's check of the MCP server ``init --mcp`` registered: a registered server that cannot start (the mcp
extra missing where the registered program runs, a program gone) leaves the client without the tools while
everything looks set up. The server is started as the client would start it (its command and args from the
client's config, stdio) and asked for its tools; it is ready when it lists them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

from boundread.agents import install, install_mcp
from boundread.agents.base import Check

TIMEOUT = 30.0  # seconds for the server to list its tools (the SDK loads in ~0.6 s; a loaded machine is slower)
NAME = "mcp server"
HANDSHAKE = (
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "boundread-doctor", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
)


def registered(agent: str, root: Path, home: Path, user: bool) -> tuple[Path, dict[str, Any]] | None:
    """Our server entry in ``agent``'s MCP config, and that config; None when there is none."""
    if agent not in install_mcp.MCP_AGENTS:
        return None
    path = install_mcp.mcp_config(agent, root, home, user)
    try:
        if agent == "codex":
            from boundread.agents import codex_mcp

            servers = codex_mcp.load(path)[1].get("mcp_servers", {})
        else:
            servers = install.load(path)[1].get("mcpServers", {})
    except (OSError, ValueError):  # a broken file is the settings check's to report
        return None
    entry = servers.get(install_mcp.MCP_NAME) if isinstance(servers, dict) else None
    if not isinstance(entry, dict) or (entry.get("args") or [None])[0] != "mcp":
        return None
    return path, entry


def checks(agent: str, root: Path, home: Path, user: bool, path: str | None = None) -> list[Check]:
    """One check when ``agent`` has boundread's MCP server registered: it starts and lists its tools."""
    found = registered(agent, root, home, user)
    if found is None:
        return []
    config, entry = found
    command, args = str(entry.get("command", "")), [str(arg) for arg in entry.get("args") or []]
    program = shutil.which(command, path=path) if command else None
    if program is None:
        return [Check(NAME, False, f"{config} starts `{command}`, which is not found", "run `boundread init --mcp` "
                      "again from the installation the client should use")]
    return [_started(config, [program, *args], root)]


def _started(config: Path, argv: list[str], root: Path) -> Check:
    shown = " ".join(argv)
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, cwd=root if root.is_dir() else None)
    except OSError as exc:
        return Check(NAME, False, f"`{shown}` (from {config}) did not start: {exc}", "check the program")
    answer: list[list[str]] = []
    reader = threading.Thread(target=lambda: answer.append(_answer(proc)), daemon=True)
    try:
        assert proc.stdin is not None
        proc.stdin.write("".join(json.dumps(message) + "\n" for message in HANDSHAKE))
        proc.stdin.flush()  # and kept open: a server reading the end of its input stops before it answers
        reader.start()
        reader.join(TIMEOUT)
    except OSError:
        pass  # it exited before reading: its stderr says why
    finally:
        proc.kill()
        _, errors = proc.communicate()
    tools = answer[0] if answer else []
    if tools:
        return Check(NAME, True, f"`{shown}` answers with {len(tools)} tools ({', '.join(tools)})")
    if reader.is_alive():
        return Check(NAME, False, f"`{shown}` (from {config}) listed no tools in {TIMEOUT:g} s",
                     f"run `{shown}` by hand to see why")
    error = (errors.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
    fix = ("pip install 'boundread[mcp]' where that boundread runs" if "boundread[mcp]" in errors
           else f"run `{shown}` by hand to see why")
    return Check(NAME, False, f"`{shown}` (from {config}) cannot serve: {error}", fix)


def _answer(proc: subprocess.Popen[str]) -> list[str]:
    """The tool names of the tools/list answer, read from the server's stdout ([] when it ends without one)."""
    assert proc.stdout is not None
    for line in proc.stdout:
        tools = _tools(line)
        if tools:
            return tools
    return []


def _tools(stdout: str) -> list[str]:
    """The tool names of the tools/list answer in ``stdout``."""
    for line in stdout.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict) and message.get("id") == 2 and isinstance(message.get("result"), dict):
            return [str(tool.get("name")) for tool in message["result"].get("tools", []) if isinstance(tool, dict)]
    return []
