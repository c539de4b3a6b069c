"""Codex hook trust: the keys and hashes Codex 0.171 records, and a config.toml edited without loss.

That the hash is the one Codex computes is checked against the real client in tests/e2e/test_codex_trust.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from boundread.agents import codex_trust, install

pytestmark = pytest.mark.skipif(sys.version_info < (3, 11), reason="reading config.toml needs tomllib (3.11+)")

HOOKS = {"hooks": {"PreToolUse": [
    {"matcher": "Bash", "hooks": [{"type": "command", "command": "other-tool check"}]},
    {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "echo x"},
        {"type": "command", "command": "boundread guard-check --agent codex", "timeout": 10},
    ]},
]}}


def _project(tmp_path: Path, hooks: object = HOOKS) -> Path:
    folder = tmp_path / "proj" / ".codex"
    folder.mkdir(parents=True)
    (folder / "hooks.json").write_text(json.dumps(hooks), encoding="utf-8")
    return folder / "hooks.json"


def test_only_our_handler_is_keyed_by_its_group_and_index(tmp_path: Path) -> None:
    hooks = _project(tmp_path)
    (ours,) = codex_trust.our_hooks(hooks)
    assert ours.key == f"{hooks.resolve()}:pre_tool_use:1:1"
    assert ours.hash.startswith("sha256:") and len(ours.hash) == 7 + 64
    changed = json.loads(json.dumps(HOOKS))
    changed["hooks"]["PreToolUse"][1]["hooks"][1]["timeout"] = 11
    assert codex_trust.our_hooks(hooks, json.dumps(changed))[0].hash != ours.hash, "any change: a new hash"


def test_the_defaults_are_part_of_the_identity() -> None:
    bare = codex_trust.hook_hash("pre_tool_use", "Bash", {"type": "command", "command": "c"})
    explicit = codex_trust.hook_hash("pre_tool_use", "Bash", {"type": "command", "command": "c", "timeout": 600,
                                                              "async": False})
    assert bare == explicit
    assert bare != codex_trust.hook_hash("pre_tool_use", None, {"type": "command", "command": "c"})


def test_trusting_keeps_the_users_config_and_is_idempotent(tmp_path: Path) -> None:
    hooks = _project(tmp_path)
    home = tmp_path / "home"
    config = home / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    mine = 'model = "gpt-5.5"  # mine\n\n[projects."/elsewhere"]\ntrust_level = "untrusted"\n'
    config.write_text(mine, encoding="utf-8")
    assert codex_trust.check(hooks.parent.parent, home).ready is False
    change = install.codex_trust_change(install.Change(hooks, None, hooks.read_text(encoding="utf-8")), home=home)
    install.apply([change])
    text = config.read_text(encoding="utf-8")
    assert text.startswith(mine)
    assert codex_trust.check(hooks.parent.parent, home).ready is True
    again = install.codex_trust_change(install.Change(hooks, None, hooks.read_text(encoding="utf-8")), home=home)
    assert not again.changed


def test_a_stale_hash_is_replaced_in_place(tmp_path: Path) -> None:
    hooks = _project(tmp_path)
    home = tmp_path / "home"
    (ours,) = codex_trust.our_hooks(hooks)
    config = home / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'[hooks.state.{json.dumps(ours.key)}]\ntrusted_hash = "sha256:old"\nenabled = true\n\n'
                      '[other]\nkey = 1\n', encoding="utf-8")
    path, _, after = codex_trust.trusted_config(hooks, home, folder=False)
    assert after.count("trusted_hash") == 1 and ours.hash in after and "sha256:old" not in after
    assert "enabled = true" in after and "[other]\nkey = 1" in after
    path.write_text(after, encoding="utf-8")
    trust = codex_trust.check(hooks.parent.parent, home)
    assert trust.hooks[0][1] is True and trust.folder is False  # the folder was not asked for


def test_an_unreadable_config_cannot_tell(tmp_path: Path) -> None:
    hooks = _project(tmp_path)
    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    (home / ".codex" / "config.toml").write_text("[unclosed", encoding="utf-8")
    assert codex_trust.check(hooks.parent.parent, home).ready is None
