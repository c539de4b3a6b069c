"""The checked-in Claude Code plugin and marketplace match the code: the hooks and the MCP server are what
``boundread init --agent claude`` (``--mcp``) writes, the skill is the one init installs, the version is
boundread's. tests/e2e/test_claude_plugin.py installs them into the real Claude Code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boundread import __version__
from boundread.agents import install, install_mcp
from boundread.agents.locate import Program
from boundread.cli import plugin

ROOT = Path(__file__).resolve().parents[1]
REGENERATE = "out of date: run `python -m boundread.cli.plugin` and commit the result"
BARE = Program("boundread")  # what a hook calls once boundread is on PATH (pipx or uv tool install)


def _on_disk(path: str) -> Any:
    return json.loads((ROOT / path).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def generated() -> dict[str, str]:
    return plugin.generate()


def test_checked_in_files_match_the_code(generated: dict[str, str]) -> None:
    assert set(generated) == {plugin.MARKETPLACE, plugin.MANIFEST, plugin.HOOKS, plugin.MCP, plugin.SKILL}
    for path, text in generated.items():
        on_disk = (ROOT / path).read_text(encoding="utf-8") if (ROOT / path).is_file() else None
        assert on_disk == text, f"{path} {REGENERATE}"


def test_generation_is_deterministic(generated: dict[str, str]) -> None:
    assert plugin.generate() == generated


def test_the_hooks_are_what_init_registers_for_claude_code(tmp_path: Path) -> None:
    (change,) = [c for c in install.plan("claude", tmp_path / "project", home=tmp_path / "home", program=BARE)
                 if c.path.name == "settings.json"]
    assert change.after is not None
    registered = json.loads(change.after)["hooks"]
    assert _on_disk(plugin.HOOKS)["hooks"] == registered
    pre = registered["PreToolUse"][0]
    assert pre["matcher"] == "Read|Bash|Write|Edit|MultiEdit|NotebookEdit|mcp__.*"
    assert pre["hooks"][0]["command"] == "boundread guard-check --mode redirect"
    assert {"PostToolBatch", "PostToolUse"} <= set(registered)


def test_the_mcp_server_is_what_init_mcp_registers(tmp_path: Path) -> None:
    change = install_mcp.mcp_change("claude", tmp_path, program=BARE)
    assert change.after is not None
    assert _on_disk(plugin.MCP)["mcpServers"] == json.loads(change.after)["mcpServers"]
    assert _on_disk(plugin.MCP)["mcpServers"]["boundread"]["command"] == "boundread"


def test_the_skill_is_the_one_init_installs(tmp_path: Path) -> None:
    changes = install.plan("claude", tmp_path / "project", home=tmp_path / "home", program=BARE)
    (skill,) = [c for c in changes if c.path.name == "SKILL.md"]
    assert (ROOT / plugin.SKILL).read_text(encoding="utf-8") == skill.after
    assert "name: boundread" in (skill.after or "")


def test_the_marketplace_lists_the_plugin_at_its_folder() -> None:
    market, manifest = _on_disk(plugin.MARKETPLACE), _on_disk(plugin.MANIFEST)
    (entry,) = market["plugins"]
    assert (ROOT / entry["source"] / ".claude-plugin" / "plugin.json").is_file()
    assert entry["source"].startswith("./")  # Claude Code reads a relative source from the marketplace's root
    assert entry["name"] == manifest["name"] == market["name"] == "boundread"  # boundread@boundread
    assert manifest["version"] == __version__


def test_check_mode_names_the_stale_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert plugin.main(["--root", str(tmp_path)]) == 0
    assert plugin.main(["--check", "--root", str(tmp_path)]) == 0
    (tmp_path / plugin.HOOKS).write_text('{"hooks": {}}\n', encoding="utf-8")
    (tmp_path / plugin.SKILL).unlink()
    capsys.readouterr()
    assert plugin.main(["--check", "--root", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"{plugin.HOOKS} (+" in err and f"{plugin.SKILL} (missing)" in err
    assert "python -m boundread.cli.plugin" in err and plugin.MANIFEST not in err
