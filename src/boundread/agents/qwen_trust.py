"""Qwen Code's switches that keep its hooks from running: ``disableAllHooks`` and its folder trust.

Qwen Code 0.24.4 (read from its bundle; tests/e2e/test_qwen.py checks it against the real client) merges its
settings in this order, the later winning: the system defaults (``system-defaults.json`` beside the system
settings, or ``$QWEN_CODE_SYSTEM_DEFAULTS_PATH``), the user's (``~/.qwen/settings.json``, ``$QWEN_HOME``), the
project's (``.qwen/settings.json``, only in a trusted folder), the system settings (``/etc/qwen-code/settings.json``,
``$QWEN_CODE_SYSTEM_SETTINGS_PATH``). ``disableAllHooks: true`` in the merged settings switches every hook off.

Folder trust is off unless ``security.folderTrust.enabled`` is true (in the system defaults, the user's or the
system settings: not the project's). When it is on, Qwen loads no project settings - so runs no project hook - in
a folder that ``~/.qwen/trustedFolders.json`` (``$QWEN_CODE_TRUSTED_FOLDERS_PATH``) does not trust:
``{"/abs/project": "TRUST_FOLDER"}`` (also ``TRUST_PARENT``, the folder's parent, and ``DO_NOT_TRUST``); the
deepest rule whose folder holds the project wins, ``DO_NOT_TRUST`` on a tie; no rule is "not trusted".
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boundread.agents.base import Check, Trust
from boundread.errors import Corrupt, UsageError

if TYPE_CHECKING:
    from boundread.agents import install

LEVELS = ("TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST")
SYSTEM_SETTINGS = ("/Library/Application Support/QwenCode/settings.json" if sys.platform == "darwin" else
                   "C:\\ProgramData\\qwen-code\\settings.json" if sys.platform == "win32" else
                   "/etc/qwen-code/settings.json")  # Qwen Code's getSystemSettingsPath()
MOST = 4 * 1024 * 1024  # bytes of a settings or trust file read at most


def qwen_dir(home: Path) -> Path:
    return Path(os.environ.get("QWEN_HOME") or home / ".qwen")


def folders_path(home: Path) -> Path:
    return Path(os.environ.get("QWEN_CODE_TRUSTED_FOLDERS_PATH") or qwen_dir(home) / "trustedFolders.json")


def _system() -> Path:
    return Path(os.environ.get("QWEN_CODE_SYSTEM_SETTINGS_PATH") or SYSTEM_SETTINGS)


def _layers(home: Path) -> list[Path]:
    """The settings that decide the folder trust, in Qwen's merge order (the later winning)."""
    defaults = os.environ.get("QWEN_CODE_SYSTEM_DEFAULTS_PATH")
    return [Path(defaults) if defaults else _system().parent / "system-defaults.json",
            qwen_dir(home) / "settings.json", _system()]


def _read(path: Path) -> dict[str, Any] | None:
    """A JSON object file; {} when missing; None when it cannot be read or is not one."""
    try:
        if path.stat().st_size > MOST:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None


def _get(data: dict[str, Any], *keys: str) -> object:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)  # type: ignore[assignment]
    return data


def trust_enabled(home: Path) -> tuple[bool | None, str]:
    """Is Qwen's folder trust on, and the file that said so (None: a layer cannot be read)."""
    enabled, where = False, "the default"
    for path in _layers(home):
        data = _read(path)
        if data is None:
            return None, f"{path} cannot be read"
        value = _get(data, "security", "folderTrust", "enabled")
        if isinstance(value, bool):
            enabled, where = value, str(path)
    return enabled, where


def check(root: Path, home: Path) -> Trust:
    """Does Qwen Code trust ``root`` (and so load its project settings)?"""
    enabled, where = trust_enabled(home)
    if enabled is None:
        return Trust(None, where)
    if not enabled:
        return Trust(True, f"folder trust is off ({where})")
    path = folders_path(home)
    rules = _read(path)
    if rules is None:
        return Trust(None, f"{path} cannot be read")
    folder = Path(os.path.realpath(root))
    winner: tuple[int, bool] | None = None
    for rule, level in rules.items():
        if level not in LEVELS:
            continue
        base = Path(os.path.realpath(Path(rule).parent if level == "TRUST_PARENT" else rule))
        if folder != base and base not in folder.parents:
            continue
        depth = len(base.parts)
        trusted = level != "DO_NOT_TRUST"
        if winner is None or depth > winner[0] or (depth == winner[0] and not trusted):
            winner = (depth, trusted)
    if winner is None:
        return Trust(False, f"folder trust is on ({where}) and {path} has no rule for it")
    return Trust(winner[1], f"{path} {'trusts' if winner[1] else 'does not trust'} it")


def hooks_off(settings: Path, root: Path, home: Path, trusted: bool) -> str:
    """Where ``disableAllHooks: true`` wins in Qwen's merged settings ('' when hooks run)."""
    layers = _layers(home)
    order = [layers[0], layers[1], *([root / ".qwen" / "settings.json"] if trusted else []), layers[2]]
    if settings not in order:
        order.insert(2, settings)
    off = ""
    for path in order:
        data = _read(path) or {}
        value = data.get("disableAllHooks")
        if isinstance(value, bool):
            off = str(path) if value else ""
    return off


def checks(settings: Path, root: Path, home: Path) -> list[Check]:
    """doctor's lines: hooks switched off, and the folder trust when it is on."""
    trust = check(root, home)
    out: list[Check] = []
    off = hooks_off(settings, root, home, trust.trusted is not False)
    if off:
        out.append(Check("hooks enabled", False, f'"disableAllHooks": true in {off}: Qwen Code runs no hook',
                         f"remove it from {off} (or set it to false)"))
    if trust.trusted:
        return [*out, Check("trusted", True, f"Qwen Code trusts {root}: {trust.detail}")]
    if trust.trusted is None:
        return [*out, Check("trusted", None, f"cannot tell whether Qwen Code trusts {root}: {trust.detail}",
                            hint(root))]
    return [*out, Check("trusted", False, f"Qwen Code does not trust {root} ({trust.detail}): it loads none of its "
                        "project settings there, so runs no project hook, without a word", hint(root))]


def hint(root: Path) -> str:
    from boundread.agents import locate

    return (f"run `boundread init --agent qwen --trust` in {locate.quote(str(root))}, or trust the folder in Qwen "
            "Code (/trust)")


def trust_change(root: Path, home: Path, user: bool, hooks: install.Change) -> install.Change:
    """The change to trustedFolders.json that trusts ``root`` (TRUST_FOLDER); Corrupt when the file is not a JSON
    object (it is left as it is). The user's own hooks run in every folder: --user has nothing to trust."""
    from boundread.agents import install

    if user:
        raise UsageError("--trust trusts a folder, and Qwen Code runs the user's own hooks in every folder",
                         "drop --trust, or run `boundread init --agent qwen --trust` in the project")
    path = folders_path(home)
    before = path.read_text(encoding="utf-8") if path.exists() else None
    data = _read(path)
    if data is None:
        raise Corrupt(f"{path} is not a JSON object; left untouched", "fix it by hand, then run init --trust again")
    folder = str(root.absolute())
    if data.get(folder) == "TRUST_FOLDER":
        return install.Change(path, before, before)
    return install.Change(path, before, json.dumps({**data, folder: "TRUST_FOLDER"}, indent=2) + "\n")


def trust_apply(change: install.Change) -> None:
    from boundread.agents import install

    install.apply([change])


def trust_hint(root: Path, home: Path, user: bool, hooks: Path) -> str:
    """What init says without --trust: nothing unless Qwen Code's folder trust is on and does not trust ``root``."""
    if user or check(root, home).trusted is not False:
        return ""
    return f"Qwen Code's folder trust is on and it does not trust {root}: {hint(root)}"
