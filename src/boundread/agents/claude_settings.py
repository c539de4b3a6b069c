"""Claude Code's settings layers that switch its hooks off, for ``doctor`` (read from the 2.1.332 binary).

Claude Code merges its settings files - the user's (``$CLAUDE_CONFIG_DIR/settings.json``, else
``~/.claude/settings.json``), the project's ``.claude/settings.json``, its ``.claude/settings.local.json``, and
the managed settings (``/etc/claude-code/managed-settings.json`` on Linux, then the drop-ins of
``managed-settings.d/*.json`` in name order on top of it) - the later winning a key, the managed ones last and
over all. Then, before it runs a hook of the settings files:

- managed ``disableAllHooks: true``: no hook runs at all;
- managed ``allowManagedHooksOnly: true`` (or ``strictPluginOnlyCustomization`` naming ``hooks``): only the
  managed settings' hooks run, the user's and the project's are ignored without a word;
- ``disableAllHooks: true`` as the merged settings have it (the user's, the project's or the local file's, a
  later file's ``false`` undoing an earlier ``true``): only the managed settings' hooks run;
- ``CLAUDE_CODE_SIMPLE`` (what ``--bare`` sets) in the environment: no settings hook runs;
  ``CLAUDE_CODE_SAFE_MODE`` (``--safe-mode``): only the managed ones; ``CLAUDE_CODE_IGNORE_PERSISTED_TRUST``
  (``--ignore-persisted-trust``): ``claude -p`` runs none of the project's or local settings (each checked
  with the real client, tests/e2e/test_doctor_truth.py).

Each is a problem naming the file (or variable) that does it and the fix. A file that is not JSON is not read
by Claude Code either: it cannot switch hooks off, and is left to the ``settings`` check.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boundread.agents.base import Check

#: Where Claude Code keeps the managed settings (its getManagedFilePath(); 2.1.332 has no variable to move it).
MANAGED_DIR = Path("/Library/Application Support/ClaudeCode" if sys.platform == "darwin" else
                   "C:\\Program Files\\ClaudeCode" if sys.platform == "win32" else "/etc/claude-code")
MOST_DROPINS = 256
#: Truthy as Claude Code reads a variable: 1, true, yes, on.
TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
#: In print mode (``claude -p``) with this set (or ``--ignore-persisted-trust``), Claude Code runs no hook of the
#: project's or local settings (the user's and the managed ones still run).
IGNORE_TRUST = "CLAUDE_CODE_IGNORE_PERSISTED_TRUST"
ENV_OFF = {
    "CLAUDE_CODE_SIMPLE": "bare mode (what `claude --bare` sets): no hook from a settings file runs",
    "CLAUDE_CODE_SAFE_MODE": "safe mode (what `claude --safe-mode` sets): only the managed settings' hooks run",
}


@dataclass(frozen=True)
class Layer:
    """One settings file as Claude Code reads it: ``data`` None when it is missing or not a JSON object."""

    name: str  # managed, local, project, user
    path: Path
    data: dict[str, Any] | None
    unreadable: str = ""  # why it could not be read (not missing)


def config_dir(home: Path, env: Mapping[str, str]) -> Path:
    override = env.get("CLAUDE_CONFIG_DIR")
    return Path(override) if override else home / ".claude"


def _read(name: str, path: Path) -> Layer:
    from boundread.agents.rulefiles import settings_object

    return Layer(name, path, *settings_object(path))


def managed(folder: Path) -> tuple[list[Layer], str]:
    """The managed settings file and its drop-ins, in the order Claude Code merges them; the second value says why
    the drop-in folder could not be listed ('' when it could, or is not there)."""
    layers = [_read("managed", folder / "managed-settings.json")]
    dropins = folder / "managed-settings.d"
    try:
        names = sorted(entry.name for entry in os.scandir(dropins)
                       if entry.name.endswith(".json") and not entry.name.startswith("."))
    except (FileNotFoundError, NotADirectoryError):
        return layers, ""
    except OSError as exc:
        return layers, f"cannot list {dropins}: {exc.strerror or exc}"
    return layers + [_read("managed", dropins / name) for name in names[:MOST_DROPINS]], ""


def layers(root: Path, home: Path, env: Mapping[str, str], managed_dir: Path) -> tuple[list[Layer], str]:
    """Every settings file in the order Claude Code merges them (the later wins a key), and a note of a managed
    drop-in folder it could not list."""
    found, note = managed(managed_dir)
    own = [_read("user", config_dir(home, env) / "settings.json"),
           _read("project", root / ".claude" / "settings.json"),
           _read("local", root / ".claude" / "settings.local.json")]
    return own + found, note


def _last(layers: list[Layer], key: str) -> Layer | None:
    """The layer whose boolean ``key`` the merge keeps (the last that sets one), when that value is true."""
    decided = None
    for layer in layers:
        value = layer.data.get(key) if layer.data else None
        if isinstance(value, bool):
            decided = layer if value else None
    return decided


def _plugin_only(layer: Layer) -> bool:
    value = layer.data.get("strictPluginOnlyCustomization") if layer.data else None
    return value is True or (isinstance(value, list) and "hooks" in value)


def checks(settings: Path, root: Path, home: Path, *, env: Mapping[str, str] | None = None,
           managed_dir: Path | None = None) -> list[Check]:
    """Whether Claude Code runs the hooks of ``settings`` (the user's or the project's file doctor checks), started
    in ``root`` with the environment ``env`` (default: this one). ``managed_dir``: where the managed settings are
    (default: MANAGED_DIR)."""
    env = os.environ if env is None else env
    every, note = layers(root, home, env, MANAGED_DIR if managed_dir is None else managed_dir)
    policy = [layer for layer in every if layer.name == "managed"]
    ask = "ask whoever manages this machine to remove it (managed settings override every other file)"
    off = _last(policy, "disableAllHooks")
    if off is not None:
        return [Check("hooks enabled", False, f'"disableAllHooks": true in {off.path} (managed settings): Claude '
                      "Code runs no hook at all", ask)]
    problems = []
    only = _last(policy, "allowManagedHooksOnly")
    if only is not None:
        problems.append(Check("hooks enabled", False, f'"allowManagedHooksOnly": true in {only.path} (managed '
                              f"settings): Claude Code runs only the managed settings' hooks, not those in "
                              f"{settings}", f"{ask}, or to put boundread's hooks in the managed settings"))
    plugin = next((layer for layer in reversed(policy) if _plugin_only(layer)), None)
    if plugin is not None:
        problems.append(Check("hooks enabled", False, f'"strictPluginOnlyCustomization" in {plugin.path} '
                              f"(managed settings) keeps hooks to managed settings and plugins: the hooks in "
                              f"{settings} do not run", ask))
    merged = _last(every, "disableAllHooks")
    if merged is not None:
        problems.append(Check("hooks enabled", False, f'"disableAllHooks": true in {merged.path} ({merged.name} '
                              "settings): Claude Code runs no hook from the user's, project or local settings",
                              f"remove disableAllHooks from {merged.path} (or set it to false)"))
    for variable, what in ENV_OFF.items():
        if env.get(variable, "").strip().lower() in TRUE_WORDS:
            problems.append(Check("hooks enabled", False, f"{variable}={env[variable]} in this environment: {what}",
                                  f"unset {variable} where you start claude (and start it without --bare or "
                                  "--safe-mode)"))
    trust = env.get(IGNORE_TRUST, "").strip().lower()
    if trust in TRUE_WORDS and settings != config_dir(home, env) / "settings.json":
        problems.append(Check("hooks enabled", False, f"{IGNORE_TRUST}={env[IGNORE_TRUST]} in this environment: "
                              f"`claude -p` runs no hook of the project's or local settings ({settings})",
                              f"unset {IGNORE_TRUST} where you start claude (and start it without "
                              "--ignore-persisted-trust), or register the hooks for the user: `boundread init "
                              "--user`"))
    if problems:
        return problems
    unknown = [layer.unreadable for layer in every if layer.unreadable] + ([note] if note else [])
    if unknown:
        return [Check("hooks enabled", None, f"cannot tell whether a setting switches hooks off: {unknown[0]}",
                      "check its permissions")]
    read = ", ".join(dict.fromkeys(str(layer.path) for layer in every if layer.data is not None))
    return [Check("hooks enabled", True, "no settings file or variable switches Claude Code's hooks off"
                  + (f" (read: {read})" if read else ""))]
