"""May redirect mode rewrite this call? Only where the rewrite cannot grant what the client would have refused.

Claude Code evaluates its permission rules on the input a hook hands back: a ``deny`` rule on ``Bash(cat
report.pdf)`` no longer matches once the hook rewrote the command to ``boundread extract report.pdf``, and an
``allow`` answer skips the prompt the original call would have raised (verified with Claude Code 2.1.332; its
Read rules are checked before the hook, and held). So a call is rewritten only when:

- every file the rewrite reads is inside the project (``$CLAUDE_PROJECT_DIR``, else the payload's ``cwd``, never
  the folder a command asks to run in: Codex's ``workdir``, Gemini's ``dir_path``), the folder the client lets
  the agent read without asking (Gemini refuses files outside its workspace);
- and no rule of the user's could be stepped around: for Claude Code, no ``deny`` or ``ask`` rule in its
  settings (managed, its drop-in ``managed-settings.d/*.json``, user, project, local) names the tool; for Gemini
  CLI, no tool exclusion or core-tool list (``tools.exclude``, ``tools.core``, the older
  ``excludeTools``/``coreTools``), no policy path setting (``policyPaths``, ``adminPolicyPaths``) in its system
  defaults, system (``$GEMINI_CLI_SYSTEM_SETTINGS_PATH``), user or project settings, and no policy file (the
  system's, the user's, the project's); for Codex, no execution-policy ``.rules`` file. (Whether Gemini and
  Codex check their rules again on the rewritten input was not verified; where such rules exist, boundread
  does not find out by stepping around them.)

Otherwise the deny stands: a deny grants nothing. Runs only on the redirect path (a call about to be denied).
Which rules each client has, and where, is its module's ``user_rules`` (agents/claude.py, agents/gemini.py,
agents/codex.py); the readers they share are agents/rulefiles.py.
"""

from __future__ import annotations

import os


def project_root(cwd: str) -> str:
    """The folder the agent works in, as the client declared it."""
    return os.path.realpath(os.environ.get("CLAUDE_PROJECT_DIR") or cwd or ".")


def inside(path: str, root: str) -> bool:
    """Is ``path`` (resolved, links followed) inside ``root``?"""
    real = os.path.realpath(path)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def may_rewrite(agent: str, tool: str, paths: list[str], cwd: str) -> bool:
    """May the call of ``tool`` that reads ``paths`` be rewritten (see the module's docstring)?"""
    root = project_root(cwd)
    if not paths or not all(inside(path, root) for path in paths):
        return False
    from boundread import agents

    if not agents.rewrites(agent):  # its answer carries no rewrite
        return False
    return not agents.rewriter_of(agent).user_rules(tool, root)
