"""Codex's config layers that switch its hooks off, for ``doctor`` (read from the 0.171 binary; checked with it).

Hooks are a Codex feature: ``[features] codex_hooks = false`` (or its older name ``hooks = false``) and Codex runs
no hook at all - a ``cat`` of a PDF reached the model whole, and ``doctor`` said ready. A feature is read from the
config layers the later winning: ``/etc/codex/config.toml``, the user's ``config.toml`` (``$CODEX_HOME``, else
``~/.codex``), the project's ``.codex/config.toml`` (Codex reads it in a trusted folder), then the managed
``/etc/codex/managed_config.toml`` over all; the active profile's ``[profiles.NAME.features]`` (``profile =
"NAME"``) wins over the plain tables below the managed one. A ``-c features.codex_hooks=false`` on the command line
is not visible here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boundread.agents.base import Check

SYSTEM_DIR = Path("/etc/codex")
NAMES = ("codex_hooks", "hooks")  # the feature's name, and the older alias Codex still reads
MOST_BYTES = 4 << 20


@dataclass(frozen=True)
class Layer:
    name: str
    path: Path
    data: dict[str, Any] | None


def _read(name: str, path: Path) -> Layer:
    from boundread import tomlread

    try:
        with path.open("rb") as fh:
            raw = fh.read(MOST_BYTES + 1)
        data = tomlread.loads(raw.decode("utf-8")) if len(raw) <= MOST_BYTES else None
    except (OSError, UnicodeDecodeError, tomlread.TOMLError, RecursionError):
        data = None  # missing, or a file Codex does not read either (codex_trust reports a broken user config)
    return Layer(name, path, data)


def _feature(table: object) -> tuple[bool, str] | None:
    """``codex_hooks`` (else ``hooks``) in a ``[features]`` table, and the name it has; None when it does not say."""
    if not isinstance(table, dict):
        return None
    for name in NAMES:
        if isinstance(table.get(name), bool):
            return bool(table[name]), name
    return None


def checks(config: Path, root: Path, *, system_dir: Path | None = None) -> list[Check]:
    """Whether Codex, with the user's ``config`` (``config.toml``) and started in ``root``, runs hooks at all."""
    folder = SYSTEM_DIR if system_dir is None else system_dir
    plain = [_read("system", folder / "config.toml"), _read("user", config),
             _read("project", root / ".codex" / "config.toml")]
    managed = _read("managed", folder / "managed_config.toml")
    decided: tuple[Layer, str, str] | None = None  # the layer, table and key whose value wins, when it is false
    profile = None
    for layer in (*plain, managed):
        if layer.data and isinstance(layer.data.get("profile"), str):
            profile = layer.data["profile"]
    for layer in plain:
        value = _feature(layer.data.get("features")) if layer.data else None
        if value is not None:
            decided = None if value[0] else (layer, "[features]", value[1])
    for layer in plain if profile else ():
        profiles = layer.data.get("profiles") if layer.data else None
        chosen = profiles.get(profile) if isinstance(profiles, dict) else None
        value = _feature(chosen.get("features")) if isinstance(chosen, dict) else None
        if value is not None:
            decided = None if value[0] else (layer, f"[profiles.{profile}.features]", value[1])
    value = _feature(managed.data.get("features")) if managed.data else None
    if value is not None:
        decided = None if value[0] else (managed, "[features]", value[1])
    if decided is None:
        return [Check("hooks enabled", True, "no config layer switches Codex's hooks off (features.codex_hooks)")]
    layer, table, key = decided
    fix = (f"remove {key} = false from {table} in {layer.path} (or set it to true)" if layer.name != "managed"
           else "ask whoever manages this machine to remove it (managed_config.toml overrides every other file)")
    return [Check("hooks enabled", False, f"{key} = false under {table} in {layer.path} ({layer.name} "
                  "config): Codex runs no hook at all", fix)]
