"""One room per agent: what each client needs - its hook payload and answer (its dialect), its settings and trust
files, its ``init`` registration, its ``doctor`` checks - in one module per client.

    claude.py   Claude Code (and the Agent SDK's hooks: claude-sdk)    cursor.py    Cursor
    codex.py    Codex CLI (codex_trust.py: its config.toml trust)      cline.py     Cline
    gemini.py   Gemini CLI (gemini_trust.py: its trusted folders)      windsurf.py  Windsurf
    copilot.py  GitHub Copilot CLI                                     sdk.py       OpenAI Agents SDK, LangChain

Every client module has the same names (the :class:`boundread.agents.base.Agent` Protocol; mypy checks each
module against it in agents/checked.py): ``NAME``, ``LABEL``, ``parse`` (its payload as a
:class:`~boundread.agents.dialect.Call`), ``reply`` (a decision in its words), ``target`` (where ``init`` registers
the hooks), ``checks`` (its own ``doctor`` checks), ``INGEST_EVENTS`` (where ``init --budget`` registers
``budget ingest``), ``REDIRECT`` and ``PRE_MATCHER``. What they share is beside them: dialect.py (the normalised
call, the shared shape of a pre-tool answer), install.py (the settings writer), doctor.py, locate.py.

This module is the registry guard-check, ``init``, ``doctor`` and ``budget ingest`` iterate over: adding a
client is adding its module, its line in :data:`MODULES` (and, for hook payloads, its shape in :func:`detect`)
and its e2e test. Standard library only and nothing loaded at import: guard-check reads this before every agent
tool call, and then loads the one module of the agent that sent the payload.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.agents.base import Agent

#: Each name ``--agent`` takes -> the module that speaks its dialect. claude-sdk is Claude Code's dialect from
#: the Agent SDK's hooks (no rewrite); generic answers a deny with exit 2 and the reason on stderr.
MODULES = {"claude": "claude", "codex": "codex", "gemini": "gemini", "cursor": "cursor", "copilot": "copilot"}
AGENTS = tuple(MODULES)
#: The clients ``init`` registers and ``doctor`` checks, in that order (Cline's and Windsurf's hooks are
#: written by hand).
INSTALLABLE = ("claude", "codex", "gemini", "cursor", "copilot")


def module(agent: str) -> Agent:
    """The module of ``agent`` (a name in :data:`AGENTS`), imported on first use."""
    return __import__(f"boundread.agents.{MODULES[agent]}", fromlist=["NAME"])


def label(agent: str) -> str:
    """How the agent calls itself, for messages."""
    return module(agent).LABEL if agent in MODULES else agent


def budgeted() -> tuple[str, ...]:
    """The clients whose logs ``budget ingest`` reads: those with events to register it on."""
    return tuple(agent for agent in INSTALLABLE if module(agent).INGEST_EVENTS)
