"""Claude Code's boundread plugin (plugins/boundread in this repository): is it enabled for a project, where does
Claude Code read its files, and does it run the guard? For ``doctor``: a user who installed the plugin instead of
running ``init`` has no hooks in settings.json, and the guard runs all the same.

Found with Claude Code 2.1.332 (tests/e2e/test_claude_plugin.py):

- ``claude plugin install boundread@<marketplace> [--scope user|project|local]`` sets ``enabledPlugins``
  ``{"boundread@<marketplace>": true}`` in that scope's settings (``~/.claude/settings.json``,
  ``.claude/settings.json``, ``.claude/settings.local.json``); ``claude plugin disable`` sets it to false. The
  settings layers merge as for any key: local over project over user, managed over all.
- ``~/.claude/plugins/installed_plugins.json``: ``{"version": 2, "plugins": {id: [{"scope", "installPath",
  "version", "projectPath" (project and local scope)}]}}``; the files are copied to ``installPath``
  (``~/.claude/plugins/cache/<marketplace>/<plugin>/<version>``).
- ``~/.claude/plugins/known_marketplaces.json``: ``{name: {"source": {"source": "directory", "path"},
  "installLocation"}}``. For a marketplace added from a folder, Claude Code reads the plugin from that folder
  (``readFromFolder`` in ``claude plugin list --json``), not from the cache: emptying the cached hooks.json
  changed nothing, emptying the folder's switched the guard off.

Standard library only; not on guard-check's path.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boundread.agents.base import Check

NAME = "boundread"  # the plugin's name in any marketplace that lists it
INSTALL = "pipx install 'boundread[mcp]', or from a checkout pipx install '.[mcp]' (uv tool install works the same)"
_MANAGED = ("/etc/claude-code/managed-settings.json", "/Library/Application Support/ClaudeCode/managed-settings.json")


@dataclass(frozen=True)
class Plugin:
    id: str  # boundread@<marketplace>
    enabled: bool
    setting: Path  # the settings file whose enabledPlugins decided it
    folder: Path | None  # where Claude Code reads its files; None: not installed for this project

    @property
    def hooks(self) -> Path | None:
        return self.folder / "hooks" / "hooks.json" if self.folder else None

    @property
    def skill(self) -> Path | None:
        return self.folder / "skills" / NAME / "SKILL.md" if self.folder else None


def config_dir(home: Path) -> Path:
    """Claude Code's user folder: ``CLAUDE_CONFIG_DIR``, else ``~/.claude``."""
    return Path(os.environ.get("CLAUDE_CONFIG_DIR") or home / ".claude")


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def _layers(root: Path, home: Path) -> list[Path]:
    """The settings files that may set enabledPlugins, the weakest first."""
    managed = [Path(path) for path in _MANAGED]
    return [config_dir(home) / "settings.json", root / ".claude" / "settings.json",
            root / ".claude" / "settings.local.json", *managed]


def find(root: Path, home: Path) -> Plugin | None:
    """The boundread plugin as a Claude Code session in ``root`` sees it; None when no settings name it."""
    decided: dict[str, tuple[bool, Path]] = {}
    for layer in _layers(root, home):
        data = _json(layer)
        enabled = data.get("enabledPlugins") if isinstance(data, dict) else None
        if not isinstance(enabled, dict):
            continue
        for key, value in enabled.items():
            if isinstance(key, str) and key.split("@", 1)[0] == NAME:
                decided[key] = (value is True, layer)
    if not decided:
        return None
    key = next((key for key, (on, _) in decided.items() if on), next(iter(decided)))
    on, layer = decided[key]
    return Plugin(key, on, layer, _folder(key, root, home))


def _folder(plugin: str, root: Path, home: Path) -> Path | None:
    """Where Claude Code reads ``plugin``'s files for a session in ``root``: the marketplace's folder for one added
    from a path, else the install's copy; None when it is not installed there."""
    plugins = config_dir(home) / "plugins"
    installed = _json(plugins / "installed_plugins.json")
    entries = installed.get("plugins", {}).get(plugin) if isinstance(installed, dict) else None
    here = [entry for entry in entries or () if isinstance(entry, dict) and isinstance(entry.get("installPath"), str)
            and (entry.get("scope") == "user" or _same(entry.get("projectPath"), root))]
    if not here:
        return None
    marketplace = plugin.split("@", 1)[1] if "@" in plugin else ""
    known = _json(plugins / "known_marketplaces.json")
    place = known.get(marketplace) if isinstance(known, dict) else None
    source = place.get("source") if isinstance(place, dict) else None
    if isinstance(source, dict) and source.get("source") == "directory" and isinstance(source.get("path"), str):
        listed = _listed(Path(source["path"]))
        if listed is not None:
            return listed
    return Path(str(here[0]["installPath"]))


def _listed(marketplace: Path) -> Path | None:
    """The folder of the boundread plugin a marketplace folder lists (a relative source)."""
    data = _json(marketplace / ".claude-plugin" / "marketplace.json")
    for entry in data.get("plugins", []) if isinstance(data, dict) else []:
        if isinstance(entry, dict) and entry.get("name") == NAME and isinstance(entry.get("source"), str):
            return (marketplace / str(entry["source"])).resolve()
    return None


def _same(path: object, root: Path) -> bool:
    return isinstance(path, str) and os.path.realpath(path) == os.path.realpath(root)


def hooks_of(found: Plugin) -> dict[str, Any]:
    """The ``hooks`` object of the plugin's hooks.json ({} when it has none or cannot be read)."""
    data = _json(found.hooks) if found.hooks is not None else None
    hooks = data.get("hooks") if isinstance(data, dict) else None
    return hooks if isinstance(hooks, dict) else {}


def checks(found: Plugin, path: str | None = None) -> list[Check]:
    """``doctor``'s lines for the plugin: enabled, installed, its hooks run guard-check on the events init
    registers, and the ``boundread`` they call is on ``path`` (default: this PATH)."""
    from boundread.agents import install

    if not found.enabled:
        return [Check("plugin", False, f"{found.id} is disabled in {found.setting}",
                      f"run `claude plugin enable {found.id}`")]
    if found.folder is None or found.hooks is None:
        return [Check("plugin", False, f"{found.id} is enabled in {found.setting} but not installed for this project",
                      f"run `claude plugin install {found.id}`")]
    out = [Check("plugin", True, f"{found.id} enabled in {found.setting}; Claude Code reads it from {found.folder}")]
    data = _json(found.hooks)
    hooks = data.get("hooks") if isinstance(data, dict) else None
    hooks = hooks if isinstance(hooks, dict) else {}
    wanted = install.target("claude", Path("/"), Path("/"), False, NAME).hooks
    missing = [event for event, _ in wanted
               if not any(install.ours(entry, "guard-check") for entry in hooks.get(event) or [])]
    out.append(Check("plugin hooks", not missing,
                     f"{found.hooks}: guard-check on " + ", ".join(event for event, _ in wanted) if not missing
                     else f"{found.hooks} has no guard-check on {', '.join(missing)}",
                     "" if not missing else f"run `claude plugin update {found.id}` (or reinstall it)"))
    program = shutil.which(NAME, path=path)
    out.append(Check("plugin command", program is not None,
                     f"the plugin's hooks call `{NAME}`: {program}" if program else
                     f"the plugin's hooks call `{NAME}`, which is not on PATH: a hook whose command is not found "
                     "fails open (Claude Code allows the read)", "" if program else f"install it: {INSTALL}"))
    skill = found.skill
    out.append(Check("plugin skill", skill is not None and skill.is_file(), f"{skill}",
                     "" if skill is not None and skill.is_file() else f"run `claude plugin update {found.id}`"))
    return out
