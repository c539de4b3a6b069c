"""Codex CLI: its hooks in ``.codex/hooks.json``, the skill text in AGENTS.md, its trust in the user's
``config.toml`` (codex_trust.py: Codex skips an untrusted hook without a word).

guard-check answers PreToolUse (Bash and apply_patch: a deny as ``hookSpecificOutput``, a rewrite as
``updatedInput``) and PostToolUse for Bash, where ``{"decision": "block"}`` replaces the output the model sees.
Codex takes ``continue: false`` from PreToolUse as a failed hook: a budget stop interrupts its turn instead
(budget/interrupt.py).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

    from boundread.agents.base import Check, Target

NAME = "codex"
LABEL = "Codex"
PRE_MATCHER = "Bash|apply_patch"
POST_MATCHER = "Bash"
REDIRECT = True
#: Codex has no SubagentStop or SessionEnd: its Stop ends the turn, the parent's rollout names its sub-agents'.
INGEST_EVENTS: tuple[str, ...] = ("PostToolUse", "UserPromptSubmit", "Stop")


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
    """Whether Codex trusts the folder and the hook as it is now: it skips an untrusted one without a word."""
    from boundread.agents.base import Check
    from boundread.agents.doctor import codex_trust_hint

    trusted = _trusted(settings, home)
    if trusted is None:
        return [Check("trusted", None, "cannot tell whether Codex trusts the hook", codex_trust_hint(settings))]
    if trusted:
        return [Check("trusted", True, "Codex trusts the hook")]
    return [Check("trusted", False, "Codex does not trust the folder or the hook as it is now, and skips the hook "
                  "without a word", codex_trust_hint(settings))]


def _trusted(settings: Path, home: Path) -> bool | None:
    """Whether Codex runs the boundread hooks in ``settings``; None: cannot tell (the user's config.toml does not
    parse)."""
    from boundread.agents import codex_trust

    user_level = settings.parent.resolve() == codex_trust.config_path(home).parent.resolve()
    trust = codex_trust.check(settings.parent.parent, home)
    if user_level and trust.folder is not None:  # the user's own hooks: no folder to trust
        return bool(trust.hooks) and all(ok for _, ok in trust.hooks)
    return trust.ready
