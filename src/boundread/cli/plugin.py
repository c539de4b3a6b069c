"""Generate the Claude Code plugin and the marketplace that lists it, from the code ``init`` runs.

    python -m boundread.cli.plugin            write .claude-plugin/marketplace.json and plugins/boundread/
    python -m boundread.cli.plugin --check    exit 1, naming the files that differ from the code

The repository is a Claude Code plugin marketplace: ``claude plugin marketplace add <repo or path>`` then
``claude plugin install boundread@boundread`` registers what ``boundread init --agent claude`` writes into
settings.json, the plugin's way:

- ``hooks/hooks.json``: the hooks of ``agents/claude.py``'s ``target`` (PreToolUse with its matcher, PostToolBatch,
  the PostToolUse backstop), the guard-check command ``install.command`` builds (``--mode redirect``), calling
  ``boundread`` from the PATH (the plugin carries no Python: the user installs boundread itself);
- ``.mcp.json``: the server ``init --mcp`` registers (``boundread mcp`` with Claude Code's ``--max-chars``);
- ``skills/boundread/SKILL.md``: the skill ``init`` installs (``boundread/data/SKILL.md``), copied, since Claude
  Code copies a plugin's own folder into its cache and nothing outside it;
- ``.claude-plugin/plugin.json`` with boundread's version: Claude Code keys its cache by it.

Deterministic, checked in; tests/test_claude_plugin.py fails when a file drifts from the code. The plugin's
README.md is written by hand and left alone.
"""

from __future__ import annotations

import json
import sys
import tempfile
from importlib.resources import files
from pathlib import Path
from typing import Any

from boundread import __version__

NAME = "boundread"  # the plugin's and the marketplace's name: `claude plugin install boundread@boundread`
PLUGIN = f"plugins/{NAME}"
MARKETPLACE = ".claude-plugin/marketplace.json"
MANIFEST = f"{PLUGIN}/.claude-plugin/plugin.json"
HOOKS = f"{PLUGIN}/hooks/hooks.json"
MCP = f"{PLUGIN}/.mcp.json"
SKILL = f"{PLUGIN}/skills/{NAME}/SKILL.md"
AUTHOR = {"name": "boundread developers"}
DESCRIPTION = ("Bounded reads of big files: a hook refuses or redirects whole reads of PDFs, Office files, "
               "archives and huge logs to a bounded slice, a skill says how to read them in parts, and an MCP "
               "server extracts them. Needs boundread on PATH: pipx install 'boundread[mcp]', or from a checkout "
               "pipx install '.[mcp]' (uv tool install works the same).")
KEYWORDS = ["pdf", "xlsx", "docx", "archives", "logs", "hooks", "context"]


def _dump(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def hooks() -> dict[str, Any]:
    """hooks.json: the hook groups ``boundread init --agent claude`` merges into settings.json, by event."""
    from boundread.agents import install

    spec = install.target("claude", Path("/"), Path("/"), False, NAME)
    by_event: dict[str, list[dict[str, Any]]] = {}
    for event, group in spec.hooks:
        by_event.setdefault(event, []).append(group)
    return {"description": "boundread guard-check: bounded reads of big files (the hooks `boundread init` "
                           "registers; needs `boundread` on PATH)", "hooks": by_event}


def mcp() -> dict[str, Any]:
    """.mcp.json: the server ``boundread init --mcp`` adds for Claude Code, with the bare program name."""
    from boundread.agents import install_mcp
    from boundread.agents.locate import Program

    with tempfile.TemporaryDirectory() as empty:  # a project without an .mcp.json: only our entry
        change = install_mcp.mcp_change("claude", Path(empty), program=Program(NAME))
    assert change.after is not None
    servers = json.loads(change.after)["mcpServers"]
    return {"mcpServers": {install_mcp.MCP_NAME: servers[install_mcp.MCP_NAME]}}


def manifest() -> dict[str, Any]:
    return {"name": NAME, "version": __version__, "description": DESCRIPTION, "author": AUTHOR, "license": "MIT",
            "keywords": KEYWORDS}


def marketplace() -> dict[str, Any]:
    return {"name": NAME, "description": "boundread's own marketplace: the boundread plugin for Claude Code",
            "owner": AUTHOR,
            "plugins": [{"name": NAME, "source": f"./{PLUGIN}", "description": DESCRIPTION, "category": "productivity",
                         "keywords": KEYWORDS}]}


def generate() -> dict[str, str]:
    """Every generated file (path relative to the repo root -> text), built in memory."""
    skill = (files("boundread") / "data" / "SKILL.md").read_text(encoding="utf-8")
    return {MARKETPLACE: _dump(marketplace()), MANIFEST: _dump(manifest()), HOOKS: _dump(hooks()),
            MCP: _dump(mcp()), SKILL: skill}


def stale(root: Path) -> list[str]:
    """'path (+A -B lines)' or 'path (missing)' for each generated file that differs from the one on disk."""
    from boundread.cli.docs import stale_of

    return stale_of(generate(), root)


def main(argv: list[str] | None = None) -> int:
    from boundread.cli.docs import run_generator

    return run_generator("python -m boundread.cli.plugin", __doc__ or "", lambda _root: generate(), argv)


if __name__ == "__main__":
    sys.exit(main())
