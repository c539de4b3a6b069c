"""Every client module, typed as :class:`~boundread.agents.base.Agent`: mypy checks each one's names and
signatures against the Protocol here. Imported only by the test that checks this list against the registry,
never by a command (it would load every client)."""

from __future__ import annotations

from boundread.agents import claude, codex, copilot, cursor, gemini
from boundread.agents.base import Agent

#: In the registry's order (agents.MODULES).
AGENTS: tuple[Agent, ...] = (claude, codex, gemini, cursor, copilot)
