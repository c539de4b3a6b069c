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
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_CLAUDE_SETTINGS = (".claude/settings.json", ".claude/settings.local.json")
_MANAGED = ("/etc/claude-code/managed-settings.json", "/Library/Application Support/ClaudeCode/managed-settings.json")
_MANAGED_DROPINS = ("/etc/claude-code/managed-settings.d", "/Library/Application Support/ClaudeCode/managed-settings.d")
_GEMINI_SYSTEM = ("/etc/gemini-cli", "/Library/Application Support/GeminiCli")  # Storage.getSystemConfigDir()
_MOST_DROPINS = 64  # files in a drop-in folder read at most: more are taken as rules
_MOST_BYTES = 4 << 20  # a settings file larger than this is not read: the rules are taken to exist


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
    if agent == "claude":
        return not _claude_rules(tool, root)
    if agent == "gemini":
        return not _gemini_rules(root)
    if agent == "codex":
        home = os.environ.get("CODEX_HOME") or os.environ.get("HOME", "") + "/.codex"
        return not (_any_file(f"{home}/rules", ".rules") or _any_file(f"{root}/.codex/rules", ".rules"))
    return False


def _claude_rules(tool: str, root: str) -> bool:
    """Does any deny or ask rule in Claude Code's settings name ``tool`` (``Bash``, ``Bash(cat:*)``)?"""
    config = os.environ.get("CLAUDE_CONFIG_DIR") or os.environ.get("HOME", "") + "/.claude"
    files = [*_MANAGED, f"{config}/settings.json", *(f"{root}/{name}" for name in _CLAUDE_SETTINGS)]
    for folder in _MANAGED_DROPINS:
        found = _json_files(folder)
        if found is None:
            return True  # a drop-in folder we cannot read (or list whole) may hold rules
        files += found
    return any(_names(file, tool) for file in files)


def _json_files(folder: str) -> list[str] | None:
    """The ``*.json`` files in ``folder`` ([] when there is none); None when it cannot be read or holds too many."""
    try:
        with os.scandir(folder) as entries:
            names = []
            for seen, entry in enumerate(entries):
                if seen >= _MOST_DROPINS * 4:
                    return None
                if entry.name.endswith(".json"):
                    names.append(entry.path)
            return None if len(names) > _MOST_DROPINS else sorted(names)
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError:
        return None


def _gemini_rules(root: str) -> bool:
    """Does Gemini CLI restrict its tools (exclusions, a core list) or run policy files here?"""
    home = os.environ.get("GEMINI_CLI_HOME") or os.environ.get("HOME", "")
    system = os.environ.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
    systems = [system] if system else [f"{folder}/settings.json" for folder in _GEMINI_SYSTEM]
    defaults = os.environ.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH")
    files = [*systems, *([defaults] if defaults else (f"{os.path.dirname(file)}/system-defaults.json"  # noqa: PTH120
                                                      for file in systems)),
             f"{home}/.gemini/settings.json", f"{root}/.gemini/settings.json"]
    policies = [*(f"{folder}/policies" for folder in _GEMINI_SYSTEM), f"{home}/.gemini/policies",
                f"{root}/.gemini/policies"]
    if any(_any_file(folder, ".toml") for folder in policies):
        return True
    return any(_gemini_restricts(file) for file in files)


def _gemini_restricts(file: str) -> bool:
    data = _settings(file)
    if isinstance(data, bool):
        return data
    tools = data.get("tools")
    lists = [data.get("excludeTools"), data.get("coreTools"), data.get("policyPaths"), data.get("adminPolicyPaths"),
             *((tools.get("exclude"), tools.get("core")) if isinstance(tools, dict) else ())]
    return any(bool(found) for found in lists)


def _any_file(folder: str, suffix: str) -> bool:
    try:
        with os.scandir(folder) as entries:
            return any(entry.name.endswith(suffix) for entry in entries)
    except FileNotFoundError:
        return False
    except OSError:
        return True  # a folder we cannot read may hold rules


def _settings(file: str) -> dict[str, Any] | bool:
    """A settings file's JSON object; False when there is no file, True (rules may hide there) when it is not one."""
    data = _load(file)
    if data is None:
        return False
    return data if isinstance(data, dict) else True


def _load(file: str) -> object | None:
    """The JSON in ``file``; None when there is none; ``True`` (taken as rules) when it cannot be read."""
    try:
        if os.stat(file).st_size > _MOST_BYTES:
            return True
        with open(file, encoding="utf-8") as fh:
            return json.load(fh)  # type: ignore[no-any-return]
    except FileNotFoundError:
        return None
    except (OSError, ValueError, RecursionError):
        return True  # a file we cannot read may hold rules: do not step around them


def _names(file: str, tool: str) -> bool:
    data = _settings(file)
    if isinstance(data, bool):
        return data
    permissions = data.get("permissions")
    if not isinstance(permissions, dict):
        return False
    for key in ("deny", "ask"):
        rules = permissions.get(key)
        if isinstance(rules, list) and any(isinstance(rule, str) and _rule_tool(rule) == tool for rule in rules):
            return True
    return False


def _rule_tool(rule: str) -> str:
    """``Bash(cat:*)`` -> ``Bash``; ``Read`` -> ``Read``."""
    return rule.split("(", 1)[0].strip()
