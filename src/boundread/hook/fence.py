"""The fence around guard-check: which modules one call may load, declared here and nowhere else.

guard-check runs before every tool call an agent makes, so what it imports is what every call pays (issue 3);
a heavy import that creeps in (typer, rich, click, a format reader, or dataclasses and typing on the hot path)
costs tens of milliseconds on each call without failing anything. tests/hook/test_fence.py runs
guard-check on each client's payloads (pre-tool, post-tool, PostToolBatch, redirect, with and without a
budget) and fails when a call loads a boundread module outside these lists, or anything outside the standard
library and ``HOOK_THIRD_PARTY``.

An entry names one module, or, ending in ``.``, a package and every module in it (``boundread.guard.shell.``);
``boundread`` alone is the package's ``__init__``, not all of boundread. guard-check never imports this
module: it is a declaration, read by the test.
"""

from __future__ import annotations

#: What any call may load: the decision core, the payload dialects, the post-tool backstop, the budget's lean
#: check (one SQLite or libpq round trip, budget/hookpath.py and budget/pghook.py, deciding in hookrules.py).
HOOK_PATH: tuple[str, ...] = (
    "boundread", "boundread.__main__", "boundread.units",
    "boundread.finder",  # where tree-sitter's compiled binding is installed, found without importlib.util
    "boundread.bytelevel.",  # reading the bytes a kind starts with, a zip's central directory: os and stat only
    "boundread.agents", "boundread.agents.dialect",  # the payload dialects: agents/__init__ imports no client
    "boundread.hook", "boundread.guard", "boundread.hook.main", "boundread.hook.options", "boundread.hook.stdin",
    "boundread.hook.budgetgate", "boundread.guard.config",
    "boundread.guard.jsonio", "boundread.guard.decide", "boundread.guard.command", "boundread.guard.facts",
    "boundread.guard.bounds", "boundread.guard.scripts", "boundread.guard.reason", "boundread.guard.shellquote",
    "boundread.guard.special",
    "boundread.guard.outputs", "boundread.guard.gunzipped",  # a gzip file's or a zip's text, measured
    "boundread.guard.record", "boundread.hook.ground", "boundread.hook.groundset", "boundread.guard.tools",
    "boundread.guard.shell.",
    "boundread.agents.claude", "boundread.agents.codex", "boundread.agents.gemini", "boundread.agents.cursor",
    "boundread.agents.copilot", "boundread.agents.cline", "boundread.agents.windsurf",  # the one client that sent it
    "boundread.hook.posttool", "boundread.guard.postsave", "boundread.hook.batch",
    "boundread.hook.saved", "boundread.budget.decisions", "boundread.budget.decided",  # counted for `boundread stats`
    "boundread.budget", "boundread.budget.enforce", "boundread.budget.ledgerurl", "boundread.budget.sidecar",
    "boundread.budget.digest", "boundread.budget.hookpath", "boundread.budget.hookrules", "boundread.budget.pghook",
    "boundread.budget.libpq",
    "boundread.budget.schema",
    "boundread.budget.pgschema", "boundread.budget.selfcap", "boundread.budget.selfargs",
    "boundread.budget.selfcmd", "boundread.budget.selfwords",
)
#: Outside the standard library, only the shell parser's tree-sitter binding and grammar (guard/shell/parser.py).
HOOK_THIRD_PARTY: tuple[str, ...] = ("tree_sitter.", "tree_sitter_bash.")

#: A refused read in redirect mode is answered with a bounded slice of the file (hook/redirect.py,
#: hook/slices.py): the extraction engine runs in the hook, with whatever its format needs, and an archive's
#: listing is printed by render.py (rich) exactly as `list-zip` prints it. Only then.
REDIRECT: tuple[str, ...] = (
    "boundread.hook.redirect", "boundread.hook.slices", "boundread.hook.shapes", "boundread.hook.permissions",
    "boundread.agents.rulefiles",  # the settings a rewrite must not step around
    "boundread.api", "boundread.errors", "boundread.limits", "boundread.ranges", "boundread.units", "boundread.render.",
    "boundread.record",  # the engine's result types (no dataclasses: start-up)
    "boundread.contract.", "boundread.core.", "boundread.formats.", "boundread.chunks.", "boundread.bytelevel.",
)

#: A sub-agent spawn where the session has a budget is checked against the whole ledger (budget/agents.py):
#: rare, so the full store, and psycopg when the ledger is PostgreSQL.
SPAWN: tuple[str, ...] = ("boundread.budget.", "boundread.errors", "boundread.hook.ingest",
                          "boundread.agents.claudelog",  # the session's transcript: the sub-agents so far
                          "boundread.agents.stopanswer")  # its answer when the spawn ends the session
SPAWN_THIRD_PARTY: tuple[str, ...] = ("psycopg.", "psycopg_binary.", "psycopg_c.", "typing_extensions.")

#: Never, on any path: the CLI's and the MCP server's frameworks and the modules built on them.
NEVER: tuple[str, ...] = ("typer.", "click.", "mcp.", "boundread.cli.", "boundread.mcp.")


def within(name: str, fence: tuple[str, ...]) -> bool:
    """True when module ``name`` is one of ``fence``, or inside (or is) a package it names with a trailing dot."""
    return any(name == entry or (entry.endswith(".") and (name + ".").startswith(entry)) for entry in fence)
