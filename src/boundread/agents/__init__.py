"""One room per agent: what each client needs - its hook payload and answer (its dialect), its settings and trust
files, its ``init`` registration, its ``doctor`` checks, its log reader - in the files of that client.

    claude.py   Claude Code, and the Agent SDK's hooks (claude-sdk); claudelog.py: its transcripts;
                claude_settings.py: the settings layers that switch its hooks off; claudeplugin.py: its plugin
    codex.py    Codex CLI; codex_trust.py: its config.toml trust; codexlog.py: its rollouts; codex_settings.py:
                the config that switches hooks off; codex_mcp.py: its MCP server table
    gemini.py   Gemini CLI; gemini_trust.py: its trusted folders; geminilog.py: its chat files;
                gemini_settings.py: hooksConfig as it merges its settings
    copilot.py  GitHub Copilot CLI; copilot_trust.py: its trusted folders; copilotlog.py: its session events
    qwen.py     Qwen Code; qwen_trust.py: its folder trust and hook switch
    opencode.py opencode (our plugin, data/opencode-plugin.js); opencode_doctor.py: doctor's checks of it
    cursor.py   Cursor            cline.py   Cline            windsurf.py   Windsurf

Every client module has the same names (the :class:`boundread.agents.base.Agent` Protocol; mypy checks each
module against it in agents/checked.py): ``NAME``, ``LABEL``, ``parse`` (its payload as a
:class:`~boundread.agents.dialect.Call`), ``reply`` (a decision in its words), ``target`` (where ``init`` registers
the hooks), ``checks`` (its own ``doctor`` checks), ``INGEST_EVENTS`` (where ``init --budget`` registers
``budget ingest``), ``REDIRECT`` and ``PRE_MATCHER``; a client with a post-tool backstop has ``post_output``,
``post_cut`` and ``post_reply`` (hook/posttool.py asks them), one whose answer can rewrite a call ``user_rules``
(what a rewrite must not step around: hook/permissions.py). What they share is beside them: dialect.py (the
normalised call, the shared shape of a pre-tool answer, the generic dialect), install.py (the settings writer),
rulefiles.py (the settings readers ``user_rules`` share), stopanswer.py (how each client is told to end a
session: ``budget ingest``'s answer), doctor.py (doctor_probe.py: its live run of the guard hook; doctor_mcp.py:
its start of a registered MCP server), locate.py. A client's own heavier files
(its trust, its log reader) carry its name and load only when used: the log readers when ``budget ingest`` reads
a session's files (agents/sessionfiles.py), the trust files for ``init --trust`` and ``doctor``.

This module is the registry guard-check, ``init`` and ``doctor`` iterate over: adding a client is adding its
module, its line in :data:`MODULES` (and, for hook payloads, its shape in :func:`detect`) and its e2e test; a
client with a log ``budget ingest`` reads adds its ``<name>log.py`` (the :class:`~boundread.agents.base.Logger`
Protocol) and its place in :data:`LOGGERS`; a client that runs a project's hooks only in a folder the user trusts
adds its ``<name>_trust.py`` (the :class:`~boundread.agents.base.Truster` Protocol: what ``init --trust`` records)
and its place in :data:`TRUSTED`.

Standard library only and nothing loaded at import: guard-check reads this before every agent tool call, and
then loads the one module of the agent that sent the payload. The layers: guard/ (the decision, which knows no
client) < budget/ < agents/ < hook/ (the guard-check entry) < adapters/ (the frameworks' in-process hooks).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from boundread.agents.base import Agent, Backstop, Dialect, Logger, Rewriter, Truster
    from boundread.agents.dialect import Call, Reply
    from boundread.guard.decide import Decision

#: Each name ``--agent`` takes -> the module that speaks its dialect. claude-sdk is Claude Code's dialect from
#: the Agent SDK's hooks (no rewrite); generic answers a deny with exit 2 and the reason on stderr.
MODULES = {"claude": "claude", "claude-sdk": "claude", "codex": "codex", "gemini": "gemini", "cursor": "cursor",
           "copilot": "copilot", "qwen": "qwen", "opencode": "opencode", "cline": "cline", "windsurf": "windsurf",
           "generic": "dialect"}
AGENTS = tuple(MODULES)
#: The clients ``init`` registers and ``doctor`` checks, in that order (Cline's and Windsurf's hooks are
#: written by hand).
INSTALLABLE = ("claude", "codex", "gemini", "cursor", "copilot", "qwen", "opencode")
#: The clients whose session logs ``budget ingest`` reads (each has a ``<name>log.py``), in the order a file's
#: client is told (agents/sessionfiles.py): Claude Code last, as it claims any file no other client does.
LOGGERS = ("codex", "gemini", "copilot", "claude")
#: The clients that run a project's hooks only where the user trusts them (each has a ``<name>_trust.py``): what
#: ``init --trust`` records.
TRUSTED = ("codex", "gemini", "copilot", "qwen")


def module(agent: str) -> Agent:
    """The module of ``agent`` (one of :data:`INSTALLABLE`), imported on first use."""
    return __import__(f"boundread.agents.{MODULES[agent]}", fromlist=["NAME"])


def logger_of(agent: str) -> Logger:
    """The log module of ``agent`` (one of :data:`LOGGERS`), imported on first use: ``budget ingest`` only."""
    return __import__(f"boundread.agents.{agent}log", fromlist=["session_of"])


def truster_of(agent: str) -> Truster:
    """The trust module of ``agent`` (one of :data:`TRUSTED`), imported on first use: ``init --trust`` only."""
    return __import__(f"boundread.agents.{agent}_trust", fromlist=["trust_change"])


def dialect_of(agent: str) -> Dialect:
    """The module that reads ``agent``'s payload and writes its answer (any name in :data:`AGENTS`)."""
    return __import__(f"boundread.agents.{MODULES[agent]}", fromlist=["parse"])


def backstop_of(agent: str) -> Backstop:
    """The module that reads ``agent``'s post-tool payload and replaces an output (claude, codex, gemini)."""
    return __import__(f"boundread.agents.{MODULES[agent]}", fromlist=["post_reply"])


def rewrites(agent: str) -> bool:
    """Does ``agent``'s pre-tool answer carry a rewritten input (its module's ``REDIRECT``; verified with the real
    clients in tests/e2e/test_redirect.py)? Not from the Agent SDK's hooks (claude-sdk)."""
    return agent in INSTALLABLE and MODULES[agent] == agent and module(agent).REDIRECT


def rewriter_of(agent: str) -> Rewriter:
    """The module of a client whose pre-tool answer can rewrite a call (its ``REDIRECT``): the rules a rewrite must
    not step around."""
    return __import__(f"boundread.agents.{MODULES[agent]}", fromlist=["user_rules"])


def parse(payload: Mapping[str, Any], agent: str) -> Call:
    """``payload`` as sent by ``agent``, as one normalised tool call."""
    return dialect_of(agent).parse(payload, agent)


def reply(agent: str, decision: Decision, event: str = "") -> Reply:
    """``decision`` in the words ``agent`` understands (``event``: the payload's hook event)."""
    return dialect_of(agent).reply(decision, event, agent)


def range_params(agent: str) -> str:
    """The range parameters of ``agent``'s read tool, as a deny reason names them."""
    return dialect_of(agent).RANGE_PARAMS


def label(agent: str) -> str:
    """How the agent calls itself, for messages."""
    return module(agent).LABEL if MODULES.get(agent, "dialect") != "dialect" else agent


def budgeted() -> tuple[str, ...]:
    """The clients whose logs ``budget ingest`` reads: those with events to register it on."""
    return tuple(agent for agent in INSTALLABLE if module(agent).INGEST_EVENTS)


def detect(payload: Mapping[str, Any]) -> str:
    """The agent that sent ``payload``, from its shape (raises PayloadError when unknown).

    One table for all clients, in this order, because the shapes overlap: the snake_case shape
    (``hook_event_name`` + ``tool_name`` + ``tool_input``) wins over Copilot's ``toolName``: a Claude payload
    that also carries a ``toolName`` key is still Claude's.
    """
    event = str(payload.get("hook_event_name") or payload.get("hookEventName") or "")
    if "preToolUse" in payload and ("hookName" in payload or "clineVersion" in payload):
        return "cline"
    if "agent_action_name" in payload or "tool_info" in payload:
        return "windsurf"
    if event == "tool.execute.before":  # what our opencode plugin sends
        return "opencode"
    snake = "hook_event_name" in payload and "tool_name" in payload and "tool_input" in payload
    if "toolName" in payload and not snake:
        return "copilot"
    if event in ("beforeReadFile", "beforeShellExecution", "preToolUse") or "conversation_id" in payload \
            or "cursor_version" in payload:
        return "cursor"
    if event == "BeforeTool":
        return "gemini"
    if event == "PostToolBatch":  # Claude Code only (main.py answers it before parse)
        return "claude"
    if event == "PreToolUse":
        if "turn_id" in payload:
            return "codex"
        if "tool_call_id" in payload or ("timestamp" in payload and "tool_use_id" in payload):
            return "qwen"  # Claude's shape, with the model's call id and a timestamp
        if "timestamp" in payload and "tool_use_id" not in payload:
            return "copilot"
        return "claude"
    if "toolName" in payload:
        return "copilot"
    from boundread.agents.dialect import PayloadError

    raise PayloadError("unknown payload shape (no hook_event_name, toolName, preToolUse or tool_info) - "
                       "pass --agent NAME, or use --path/--command")
