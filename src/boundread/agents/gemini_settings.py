"""Gemini CLI's settings layers that switch its hooks off, for ``doctor`` (read from the 0.61 bundle).

Gemini merges its settings as ``mergeSettings`` does: the schema defaults, the system defaults
(``$GEMINI_CLI_SYSTEM_DEFAULTS_PATH``, else ``system-defaults.json`` beside the system settings), the user's
(``~/.gemini/settings.json``, or under ``$GEMINI_CLI_HOME``), the project's ``.gemini/settings.json`` (only in a
trusted folder, and not when the project is the home folder), then the system settings
(``$GEMINI_CLI_SYSTEM_SETTINGS_PATH``, else /etc/gemini-cli/settings.json), the later winning. Each file may hold
``//`` and ``/* */`` comments. Gemini skips a system file (settings or defaults) unless it and every folder above
it are root's and writable by no group or other: one in /tmp switches nothing.

- ``hooksConfig.enabled: false`` as merged ("Canonical toggle for the hooks system"): no hook runs;
- ``hooksConfig.disabled`` (the union of every layer's list): a hook whose name - its ``name``, else its
  ``command`` - is listed does not run.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boundread.agents import gemini_trust
from boundread.agents.base import Check


@dataclass(frozen=True)
class Layer:
    name: str  # system defaults, user, project, system
    path: Path
    data: dict[str, Any] | None  # None: missing, or not a JSON object (Gemini then reads it as {})
    unreadable: str = ""
    skipped: str = ""  # why Gemini skips this system file (a folder others can write, not root's)


def _read(name: str, path: Path) -> Layer:
    from boundread.agents.rulefiles import settings_object

    return Layer(name, path, *settings_object(
        path, lambda raw: gemini_trust.strip_comments(raw.decode("utf-8", "replace"))))


def insecure(path: Path) -> str:
    """Why Gemini CLI skips the system file ``path`` ('' when it reads it): the file, each folder above it and
    their resolved targets must be root's and writable by no group or other (``isFileAndDirectorySecureSync``;
    a linked folder above it must be root's link). POSIX only: on Windows it checks ACLs, here taken as secure."""
    if os.name == "nt":
        return ""
    real = Path(os.path.realpath(path))
    for item in dict.fromkeys([path, *path.parents, real, *real.parents]):
        try:
            if item.is_symlink() and item.lstat().st_uid != 0:
                return f"{item} is a link not owned by root"
            info = item.stat()
        except OSError:
            continue  # Gemini passes what it cannot stat
        if info.st_uid != 0:
            return f"{item} is not owned by root"
        if info.st_mode & 0o022:
            return f"{item} is writable by group or others"
    return ""


def layers(root: Path, home: Path, env: Mapping[str, str]) -> list[Layer]:
    """The settings files in the order Gemini merges them (the later wins); a system file Gemini skips as
    insecure has no data, and why in ``skipped``."""
    system = Path(env.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH") or gemini_trust.SYSTEM_SETTINGS)
    defaults = Path(env.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH") or system.parent / "system-defaults.json")
    user = gemini_trust.gemini_dir(home, env) / "settings.json"
    project = root / ".gemini" / "settings.json"
    found = [_system("system defaults", defaults), _read("user", user)]
    if os.path.realpath(project) != os.path.realpath(user):
        found.append(_read("project", project))
    return [*found, _system("system", system)]


def _system(name: str, path: Path) -> Layer:
    if not path.exists():
        return Layer(name, path, None)
    why = insecure(path)
    return Layer(name, path, None, skipped=why) if why else _read(name, path)


def _hooks_config(layer: Layer) -> dict[str, Any]:
    found = layer.data.get("hooksConfig") if layer.data else None
    return found if isinstance(found, dict) else {}


def names(settings: dict[str, Any]) -> set[str]:
    """The names Gemini gives our guard hooks in ``settings`` (its ``name``, else its ``command``)."""
    from boundread.agents import install

    found = set()
    hooks = settings.get("hooks")
    for groups in hooks.values() if isinstance(hooks, dict) else ():
        for group in groups if isinstance(groups, list) else ():
            for hook in group.get("hooks") or () if isinstance(group, dict) else ():
                if isinstance(hook, dict) and install.ours(hook, "guard-check"):
                    found.add(str(hook.get("name") or hook.get("command") or ""))
    return found - {""}


def checks(settings: Path, ours: dict[str, Any], root: Path, home: Path, *,
           env: Mapping[str, str] | None = None) -> list[Check]:
    """Whether Gemini CLI, started in ``root``, runs the guard hooks of ``settings`` (its data: ``ours``)."""
    env = os.environ if env is None else env
    every = layers(root, home, env)
    problems = []
    enabled: Layer | None = None  # the layer whose hooksConfig.enabled the merge keeps
    for layer in every:
        if isinstance(_hooks_config(layer).get("enabled"), bool):
            enabled = layer
    if enabled is not None and _hooks_config(enabled)["enabled"] is False:
        problems.append(Check("hooks enabled", False, f'"hooksConfig": {{"enabled": false}} in {enabled.path} '
                              f"({enabled.name} settings): Gemini CLI runs no hook at all",
                              f"remove hooksConfig.enabled from {enabled.path} (or set it to true)"))
    wanted = names(ours)
    for layer in every:
        listed = _hooks_config(layer).get("disabled")
        hit = sorted(wanted & {str(item) for item in listed}) if isinstance(listed, list) else []
        if hit:
            problems.append(Check("hooks enabled", False, f"hooksConfig.disabled in {layer.path} ({layer.name} "
                                  f"settings) lists {', '.join(map(repr, hit))}: Gemini CLI does not run it",
                                  f"remove {', '.join(map(repr, hit))} from hooksConfig.disabled in {layer.path}"))
    if problems:
        return problems
    unknown = [layer.unreadable for layer in every if layer.unreadable]
    if unknown:
        return [Check("hooks enabled", None, f"cannot tell whether a setting switches hooks off: {unknown[0]}",
                      "check its permissions")]
    read = ", ".join(str(layer.path) for layer in every if layer.data is not None)
    skipped = "".join(f"; it skips {layer.path} ({layer.skipped})" for layer in every if layer.skipped)
    return [Check("hooks enabled", True, "no settings file switches Gemini CLI's hooks off"
                  + (f" (read: {read})" if read else "") + skipped)]
