"""Codex's MCP servers in its config.toml: ``[mcp_servers.boundread]`` added, replaced or removed as text, so
that nothing else of the user's file changes (comments, order, spacing, other servers).

The file is read with :mod:`boundread.tomlread` to know what is there; the edit is line-based: our table is its
header line up to the next table header (or the end), its sub-tables (``[mcp_servers.boundread.env]``) with it.
A table named boundread that does not run ``boundread mcp`` is someone else's and is refused, as in JSON.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from boundread import tomlread
from boundread.errors import Corrupt, UsageError

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def load(path: Path) -> tuple[str | None, dict[str, Any]]:
    """The text of a config.toml (None: missing) and its table; Corrupt when it is not TOML."""
    if not path.exists():
        return None, {}
    text = path.read_text(encoding="utf-8")
    try:
        return text, tomlread.loads(text)
    except tomlread.TOMLError as exc:
        raise Corrupt(f"{path} is not valid TOML ({exc}); left untouched",
                      "fix it by hand, then run boundread init again") from None


def ours(entry: object) -> bool:
    """Whether a server entry runs ``boundread mcp`` (any program path in front)."""
    return (isinstance(entry, dict) and (entry.get("args") or [None])[0] == "mcp"
            and "boundread" in str(entry.get("command", "")))


def _names(header: str) -> list[str]:
    """The dotted names of a table header (``mcp_servers."bound read".env`` -> three names)."""
    names: list[str] = []
    for match in re.finditer(r'"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([A-Za-z0-9_-]+)', header):
        quoted, literal, bare = match.groups()
        names.append(json.loads(f'"{quoted}"') if quoted is not None else literal if literal is not None else bare)
    return names


def _without(text: str, name: str) -> str:
    """``text`` without the table ``[mcp_servers.<name>]`` and its sub-tables."""
    kept: list[str] = []
    dropping = False
    for line in text.splitlines(keepends=True):
        header = _HEADER.match(line)
        if header is not None:
            names = _names(header.group(1))
            dropping = names[:2] == ["mcp_servers", name]
        if not dropping:
            kept.append(line)
    return "".join(kept)


def table(name: str, command: str, args: Sequence[str]) -> str:
    return (f"[mcp_servers.{name}]\ncommand = {json.dumps(command)}\n"
            f"args = [{', '.join(json.dumps(arg) for arg in args)}]\n")


def changed(path: Path, name: str, command: str, args: Sequence[str], *, uninstall: bool,
            base: str | None = None) -> tuple[str | None, str | None]:
    """(text before, text after) of the config.toml at ``path`` with our server (un)registered; after is None
    when the file would be left empty by an uninstall (it is removed). ``base``: the text to start from, when
    another change of the same run wrote it (default: the file)."""
    before, data = load(path)
    if base is not None:
        data = tomlread.loads(base)
    start = base if base is not None else before
    servers = data.get("mcp_servers", {})
    if not isinstance(servers, dict):
        raise Corrupt(f"{path}: mcp_servers is not a table; left untouched", "fix it by hand")
    old = servers.get(name)
    if old is not None and not ours(old):
        if uninstall:
            return before, start
        raise UsageError(f"{path} already has an MCP server named {name} that is not `boundread mcp`",
                         "rename or remove it, then run init --mcp again")
    if uninstall:
        if old is None:
            return before, start
        after = _without(start or "", name).rstrip("\n")
        return before, (after + "\n") if after.strip() else None
    if old == {"command": command, "args": list(args)}:
        return before, start
    rest = _without(start or "", name).rstrip("\n")
    after = (rest + "\n\n" if rest.strip() else "") + table(name, command, args)
    try:  # a server written inline (mcp_servers = { ... }) is not a table this edit can replace
        written = tomlread.loads(after).get("mcp_servers", {}).get(name)
    except tomlread.TOMLError:
        written = None
    if written != {"command": command, "args": list(args)}:
        raise Corrupt(f"{path}: mcp_servers.{name} is not a [mcp_servers.{name}] table init can replace; left "
                      "untouched", f"write it as a [mcp_servers.{name}] table, or remove it and run init again")
    return before, after
