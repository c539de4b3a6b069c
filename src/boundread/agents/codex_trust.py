"""Codex's hook trust: a project hook runs only when the folder and the hook itself are trusted.

Codex 0.171 loads ``<project>/.codex/hooks.json`` only when the user's ``~/.codex/config.toml`` (or
``$CODEX_HOME/config.toml``) holds both, and skips the hook without a word otherwise:

    [projects."/abs/project"]
    trust_level = "trusted"                                    # the folder prompt, or `codex exec --trust`

    [hooks.state."/abs/project/.codex/hooks.json:pre_tool_use:0:0"]
    trusted_hash = "sha256:..."                                # what `/hooks` records

The key names the hooks file, the event, the group and the handler index; the hash is sha256 of the
sorted, compact JSON of ``{event_name, matcher, hooks: [handler]}`` with the handler's defaults
(``timeout`` 600, ``async`` false) filled in (no ``matcher`` for an event that takes none: UserPromptSubmit,
Stop). Any change to the hook (its timeout included) makes the old hash stale and the hook silent again.
Entries in a project's own config are ignored: trust is the user's. Every boundread hook needs it: the
guard-check on PreToolUse and, with ``init --budget``, ``budget ingest`` on PostToolUse, UserPromptSubmit and
Stop. Verified against Codex 0.171 in tests/e2e/test_codex.py and tests/e2e/test_codex_budget.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boundread.agents import locate
from boundread.agents.base import Change

EVENTS = {"PreToolUse": "pre_tool_use", "PostToolUse": "post_tool_use", "UserPromptSubmit": "user_prompt_submit",
          "Stop": "stop"}


@dataclass(frozen=True)
class HookTrust:
    key: str  # the hooks.state key
    hash: str  # the trusted_hash the hook has now


@dataclass(frozen=True)
class Trust:
    folder: bool | None  # None: cannot tell (no TOML reader, or an unreadable config)
    hooks: tuple[tuple[HookTrust, bool], ...]  # each boundread hook, and whether its current hash is trusted

    @property
    def ready(self) -> bool | None:
        if self.folder is None:
            return None
        return self.folder and bool(self.hooks) and all(ok for _, ok in self.hooks)


def config_path(home: Path) -> Path:
    codex_home = os.environ.get("CODEX_HOME")
    return (Path(codex_home) if codex_home else home / ".codex") / "config.toml"


def hook_hash(event: str, matcher: str | None, handler: dict[str, Any]) -> str:
    full = {"type": "command", "async": False, "timeout": 600, **handler}
    identity: dict[str, Any] = {"event_name": event, "hooks": [full]}
    if matcher is not None:
        identity["matcher"] = matcher
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def our_hooks(hooks_file: Path, text: str | None = None) -> list[HookTrust]:
    """The key and current hash of each boundread handler in a Codex hooks.json (``text``: its content
    as it will be, else as it is on disk)."""
    try:
        data = json.loads(hooks_file.read_text(encoding="utf-8") if text is None else text)
    except (OSError, ValueError):
        return []
    found = []
    hooks = data.get("hooks") if isinstance(data, dict) else None
    for event, groups in (hooks or {}).items():
        if event not in EVENTS or not isinstance(groups, list):
            continue
        for g, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for h, handler in enumerate(handlers or []):
                if isinstance(handler, dict) and locate.ours(str(handler.get("command", ""))):
                    key = f"{os.path.realpath(hooks_file)}:{EVENTS[event]}:{g}:{h}"
                    found.append(HookTrust(key, hook_hash(EVENTS[event], group.get("matcher"), handler)))
    return found


def _load(path: Path) -> dict[str, Any] | None:
    """The parsed config.toml ({} when there is none); None when it cannot be read."""
    from boundread import tomlread

    try:
        data: dict[str, Any] = tomlread.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, tomlread.TOMLError):
        return None
    return data


def check(project: Path, home: Path) -> Trust:
    """Whether Codex will run boundread's hooks in ``project`` for the user whose home is ``home``."""
    hooks = our_hooks(project / ".codex" / "hooks.json")
    config = _load(config_path(home))
    if config is None:
        return Trust(None, tuple((hook, False) for hook in hooks))
    folder = config.get("projects", {}).get(os.path.realpath(project), {}).get("trust_level") == "trusted"
    state = config.get("hooks", {}).get("state", {})
    return Trust(folder, tuple((hook, state.get(hook.key, {}).get("trusted_hash") == hook.hash) for hook in hooks))


def hint(project: Path) -> str:
    return (f"Codex runs a project's hooks only once you trust the folder and each hook: open `codex` in {project}, "
            "trust the folder, then run `/hooks` and trust boundread's hooks (again after every change to "
            "them), or run `boundread init --agent codex --trust` to record both in ~/.codex/config.toml")


def _set_key(text: str, table: str, key: str, value: str) -> str:
    """Set ``key = "value"`` in ``[table]`` of a TOML text, adding the table at the end if it is missing."""
    header = re.compile(rf"^\[{re.escape(table)}\][ \t]*(#.*)?$", re.M)
    line = f"{key} = {json.dumps(value)}"
    match = header.search(text)
    if match is None:
        sep = "" if not text or text.endswith("\n\n") else ("\n" if text.endswith("\n") else "\n\n")
        return f"{text}{sep}[{table}]\n{line}\n"
    start = match.end()
    nxt = re.compile(r"^\s*\[", re.M).search(text, start)
    end = nxt.start() if nxt else len(text)
    body = text[start:end]
    existing = re.compile(rf"^{re.escape(key)}\s*=.*$", re.M)
    body = existing.sub(line, body, count=1) if existing.search(body) else f"\n{line}" + body
    return text[:start] + body + text[end:]


def trusted_config(hooks_file: Path, home: Path, *, hooks_text: str | None = None,
                   folder: bool = True) -> tuple[Path, str | None, str]:
    """The user's Codex config with every boundread hook of ``hooks_file`` trusted, and (``folder``) the
    project that holds it: (path, text before or None, text after). Only boundread's entries change."""
    path = config_path(home)
    before = path.read_text(encoding="utf-8") if path.exists() else None
    text = before or ""
    if folder:
        project = os.path.realpath(hooks_file.parent.parent)
        text = _set_key(text, f"projects.{json.dumps(project)}", "trust_level", "trusted")
    for hook in our_hooks(hooks_file, hooks_text):
        text = _set_key(text, f"hooks.state.{json.dumps(hook.key)}", "trusted_hash", hook.hash)
    return path, before, text


# init --trust (the Truster Protocol, agents/base.py) ---------------------------------------------------------
def trust_change(root: Path, home: Path, user: bool, hooks: Change) -> Change:
    """The config.toml change that trusts the boundread hooks of ``hooks`` (the planned .codex/hooks.json), and the
    project folder unless ``user`` (the user's own hooks have none)."""
    return Change(*trusted_config(hooks.path, home, hooks_text=hooks.after, folder=not user))


def trust_apply(change: Change) -> None:
    """As init writes every settings file: atomically, keeping the file's mode (a new one 0644)."""
    from boundread.agents import install

    install.apply([change])


def trust_hint(root: Path, home: Path, user: bool, hooks: Path) -> str:
    """Codex asks about each new hook: always said (doctor tells whether it did)."""
    return hint(hooks.parent.parent)
