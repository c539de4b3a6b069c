"""Every client module, typed as :class:`~boundread.agents.base.Agent` (or, set up by hand, ``Client``): mypy
checks each one's names and signatures against the Protocol here. Imported only by the test that checks this
list against the registry, never by a command (it would load every client)."""

from __future__ import annotations

from boundread.agents import (
    claude,
    claudelog,
    cline,
    codex,
    codex_trust,
    codexlog,
    copilot,
    copilot_trust,
    copilotlog,
    cursor,
    gemini,
    gemini_trust,
    geminilog,
    opencode,
    qwen,
    qwen_trust,
    windsurf,
)
from boundread.agents.base import Agent, Backstop, Client, Logger, Rewriter, Truster

#: In the registry's order (agents.MODULES).
AGENTS: tuple[Agent, ...] = (claude, codex, gemini, cursor, copilot, qwen, opencode)
#: The clients whose hooks are set up by hand: their dialect only.
CLIENTS: tuple[Client, ...] = (cline, windsurf)
#: The clients whose post-tool hook replaces an output (guard/posttool.py).
BACKSTOPS: tuple[Backstop, ...] = (claude, codex, gemini)
#: The clients whose pre-tool answer can rewrite a call (their REDIRECT): the rules a rewrite keeps to.
REWRITERS: tuple[Rewriter, ...] = (claude, codex, gemini, copilot, opencode)
#: The clients that run a project's hooks only where the user trusts them, in the registry's order (agents.TRUSTED).
TRUSTERS: tuple[Truster, ...] = (codex_trust, gemini_trust, copilot_trust, qwen_trust)
#: The clients whose session logs ``budget ingest`` reads, in the registry's order (agents.LOGGERS).
LOGGERS: tuple[Logger, ...] = (codexlog, geminilog, copilotlog, claudelog)

