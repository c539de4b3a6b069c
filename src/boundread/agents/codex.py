"""Codex CLI: its hooks in ``.codex/hooks.json``, the skill text in AGENTS.md, its trust in the user's
``config.toml`` (codex_trust.py: Codex skips an untrusted hook without a word).

guard-check answers PreToolUse (Bash and apply_patch: a deny as ``hookSpecificOutput``, a rewrite as
``updatedInput``) and PostToolUse for Bash, where ``{"decision": "block"}`` replaces the output the model sees.
Codex takes ``continue: false`` from PreToolUse as a failed hook: a budget stop interrupts its turn instead
(agents/codex_interrupt.py).
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
    from boundread.guard.postsave import Output

NAME = "codex"
LABEL = "Codex"
PRE_MATCHER = "Bash|apply_patch"
POST_MATCHER = "Bash"
REDIRECT = True
#: Codex has no SubagentStop or SessionEnd: its Stop ends the turn, the parent's rollout names its sub-agents'.
INGEST_EVENTS: tuple[str, ...] = ("PostToolUse", "UserPromptSubmit", "Stop")
RANGE_PARAMS = "offset/limit"  # how its read tool takes a range, for a deny reason
READ_RANGE: tuple[str, ...] = ()  # no read tool a redirect rewrites: Codex reads with shell commands
#: Its own hard limits (0.171; tests/hook/test_suggestions_fit_client_limits.py): no read tool, and a shell output
#: reaches the model up to ``tool_output_token_limit`` (1 MB did in a real run): none to fit.
READ_MAX_BYTES: int | None = None
READ_FILE_MAX_BYTES: int | None = None
READ_MAX_LINES: int | None = None
READ_MAX_TOKENS: int | None = None
SHELL_MAX_CHARS: int | None = None
MCP_MAX_CHARS: int | None = None


def parse(payload: Mapping[str, Any], agent: str) -> Call:
    """Claude Code's snake_case payload, with a ``turn_id``; a command may be an argv list."""
    return dialect.snake(payload, agent)


def reply(decision: Decision, event: str, agent: str) -> Reply:
    """Claude Code's answers, without ``continue: false``: Codex takes it from PreToolUse as a failed hook (a budget
    stop interrupts the turn instead)."""
    if decision.denied:
        return Reply(dialect.dump({"hookSpecificOutput": dialect.pre_tool_deny(dialect.why(decision))}))
    if decision.updated is not None:
        return dialect.pre_tool_rewrite(decision)
    return Reply()



#: How Codex opens the hook's copy of a shell output it cut (the model may get more of it).
_CUT = "Warning: truncated output (original token count: "


def post_output(payload: Mapping[str, Any]) -> Output | None:
    """PostToolUse's ``tool_response``: a shell output as one string; an MCP result as ``{"content": [...]}``."""
    from boundread.guard.postsave import parts, whole

    response = payload.get("tool_response")
    if isinstance(response, str):
        return whole(response)
    return parts(response.get("content")) if isinstance(response, dict) else None


def post_cut(text: str) -> int:
    """The tokens of the whole output when Codex cut the hook's copy: it cuts a shell output to its default policy
    (about 10,000 tokens) for the hook, while the model gets up to ``tool_output_token_limit`` of it (1 MB reached
    the model in a real run), and says so in a first line that counts the whole; 0 when not cut."""
    if not text.startswith(_CUT):
        return 0
    digits = text[len(_CUT):len(_CUT) + 20].split(")", 1)[0]
    return int(digits) if digits.isdigit() else 0


def post_reply(text: str, payload: Mapping[str, Any]) -> str:
    """``{"decision": "block", "reason": R}``: R is what the model gets in place of the output (Codex refuses
    ``updatedMCPToolOutput`` and has no ``updatedToolOutput``)."""
    return dialect.dump({"decision": "block", "reason": text})


def user_rules(tool: str, root: str) -> bool:
    """Is there an execution-policy ``.rules`` file (the user's, the project's)? Whether Codex checks it again on a
    rewritten input was not verified: where one exists, no rewrite steps around it (hook/permissions.py)."""
    from boundread.agents.rulefiles import any_file

    home = os.environ.get("CODEX_HOME") or os.environ.get("HOME", "") + "/.codex"
    return any_file(f"{home}/rules", ".rules") or any_file(f"{root}/.codex/rules", ".rules")


def target(root: Path, home: Path, user: bool, program: str, budget: bool) -> Target:
    """PreToolUse and PostToolUse in hooks.json; the skill text in AGENTS.md (the user's: ~/.codex/AGENTS.md)."""
    from boundread.agents import install
    from boundread.agents.base import Target

    nested = {"type": "command", "command": install.command(NAME, program), "timeout": 10}
    return Target((home if user else root) / ".codex" / "hooks.json",
                          (("PreToolUse", {"matcher": install.pre_matcher(NAME, budget), "hooks": [nested]}),
                           ("PostToolUse", {"matcher": POST_MATCHER, "hooks": [dict(nested)]})),
                          (home / ".codex" / "AGENTS.md") if user else root / "AGENTS.md", True, {},
                          install.ingest_hooks(INGEST_EVENTS, lambda: install.ingest_handler(program)))


def checks(settings: Path, root: Path, home: Path) -> list[Check]:
    """Whether Codex trusts the folder and the hook as it is now: it skips an untrusted one without a word; and
    whether a config layer switches its hooks off (agents/codex_settings.py)."""
    from boundread.agents import codex_settings, codex_trust
    from boundread.agents.base import Check
    from boundread.agents.doctor import codex_trust_hint

    switched = codex_settings.checks(codex_trust.config_path(home), root)  # [features] codex_hooks = false
    trusted = _trusted(settings, home)
    if trusted is None:
        return [Check("trusted", None, "cannot tell whether Codex trusts the hook", codex_trust_hint(settings)),
                *switched]
    if trusted:
        return [Check("trusted", True, "Codex trusts the hook"), *switched]
    return [Check("trusted", False, "Codex does not trust the folder or the hook as it is now, and skips the hook "
                  "without a word", codex_trust_hint(settings)), *switched]


def _trusted(settings: Path, home: Path) -> bool | None:
    """Whether Codex runs the boundread hooks in ``settings``; None: cannot tell (the user's config.toml does not
    parse)."""
    from boundread.agents import codex_trust

    user_level = settings.parent.resolve() == codex_trust.config_path(home).parent.resolve()
    trust = codex_trust.check(settings.parent.parent, home)
    if user_level and trust.folder is not None:  # the user's own hooks: no folder to trust
        return bool(trust.hooks) and all(ok for _, ok in trust.hooks)
    return trust.ready
