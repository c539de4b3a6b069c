"""`boundread init --mcp` for Codex (config.toml, merged as text) and Gemini CLI (settings.json, with its hooks in
one change): each client's server gets a --max-chars under its cap, the user's content stays as it was, uninstall
removes ours only, and without the mcp extra nothing is written."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from boundread import tomlread
from boundread.agents import install_mcp
from tests.helpers import run

USER_TOML = """\
# my settings
model = "o3"  # the one I like

[mcp_servers.docs]
command = "docs-server"
args = ["--port", "1"]

[mcp_servers.docs.env]
TOKEN_VAR = "X"

[projects."/somewhere"]
trust_level = "trusted"
"""


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    return folder


def test_each_client_gets_a_max_chars_under_its_cap() -> None:
    assert install_mcp.mcp_args("claude") == ["mcp", "--max-chars", "40000"]  # Claude Code: 50,000
    assert install_mcp.mcp_args("gemini") == ["mcp", "--max-chars", "32000"]  # Gemini CLI: 40,000
    assert install_mcp.mcp_args("codex") == ["mcp", "--max-chars", "32000"]  # Codex: 10,000 tokens of gpt-5.5
    assert install_mcp.mcp_args("cursor") == ["mcp"]  # no cap known: the server's default


def test_codex_config_toml_is_merged_and_restored(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".codex").mkdir(parents=True)
    config = project / ".codex" / "config.toml"
    config.write_text(USER_TOML, encoding="utf-8")
    done = run("init", "--agent", "codex", "--mcp", "--dir", str(project))
    assert done.exit_code == 0, done.stderr
    text = config.read_text(encoding="utf-8")
    assert text.startswith(USER_TOML)  # every byte of the user's, ours after
    data = tomlread.loads(text)
    ours = data["mcp_servers"]["boundread"]
    assert ours["args"] == ["mcp", "--max-chars", "32000"] and ours["command"].endswith("boundread")
    assert data["mcp_servers"]["docs"] == {"command": "docs-server", "args": ["--port", "1"], "env": {"TOKEN_VAR": "X"}}
    again = run("init", "--agent", "codex", "--mcp", "--dir", str(project))
    assert f"unchanged: {config}" in again.stdout and config.read_text(encoding="utf-8") == text
    gone = run("init", "--agent", "codex", "--uninstall", "--dir", str(project))
    assert gone.exit_code == 0, gone.stderr
    assert config.read_text(encoding="utf-8") == USER_TOML


def test_codex_user_config_and_a_foreign_or_inline_server_is_left_alone(tmp_path: Path, home: Path) -> None:
    done = run("init", "--agent", "codex", "--mcp", "--user")
    assert done.exit_code == 0, done.stderr
    assert tomlread.loads((home / ".codex" / "config.toml").read_text(encoding="utf-8"))["mcp_servers"]["boundread"]
    for text in ('[mcp_servers.boundread]\ncommand = "other"\nargs = []\n',
                 'mcp_servers = { boundread = { command = "boundread", args = ["mcp", "--root", "/x"] } }\n'):
        config = tmp_path / "p" / ".codex" / "config.toml"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(text, encoding="utf-8")
        refused = run("init", "--agent", "codex", "--mcp", "--dir", str(tmp_path / "p"))
        assert refused.exit_code != 0 and refused.stderr.startswith("boundread: error: ")
        assert refused.stderr.count("\n") == 1 and config.read_text(encoding="utf-8") == text


def test_gemini_settings_hold_the_hooks_and_the_server_in_one_write(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".gemini").mkdir(parents=True)
    settings = project / ".gemini" / "settings.json"
    settings.write_text(json.dumps({"theme": "dark", "mcpServers": {"docs": {"command": "docs-server"}}}),
                        encoding="utf-8")
    done = run("init", "--agent", "gemini", "--mcp", "--dir", str(project))
    assert done.exit_code == 0, done.stderr
    assert done.stdout.count(str(settings)) == 1
    data = json.loads(settings.read_text(encoding="utf-8"))
    assert data["theme"] == "dark" and data["mcpServers"]["docs"] == {"command": "docs-server"}
    assert data["mcpServers"]["boundread"]["args"] == ["mcp", "--max-chars", "32000"]
    assert "BeforeTool" in data["hooks"]  # the hooks of the same run were not lost
    gone = run("init", "--agent", "gemini", "--uninstall", "--dir", str(project))
    assert gone.exit_code == 0, gone.stderr
    left = json.loads(settings.read_text(encoding="utf-8"))
    assert left == {"theme": "dark", "mcpServers": {"docs": {"command": "docs-server"}}}


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_without_the_mcp_extra_init_mcp_writes_nothing(tmp_path: Path, agent: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)  # not importable, as on a machine without the extra
    project = tmp_path / "project"
    project.mkdir()
    refused = run("init", "--agent", agent, "--mcp", "--dir", str(project))
    assert refused.exit_code == 2 and refused.stdout == ""
    assert "pip install 'boundread[mcp]'" in refused.stderr and refused.stderr.count("\n") == 1
    assert list(project.rglob("*")) == []  # not the hooks either: every change is planned before any is written
    assert run("init", "--agent", agent, "--dir", str(project)).exit_code == 0  # without --mcp it installs


def test_codex_user_mcp_and_trust_land_in_one_config_together(home: Path) -> None:
    """`init --agent codex --mcp --user --trust` writes both into ~/.codex/config.toml: the trust was planned from
    the file before the MCP table was written and then written over it, so the server was lost."""
    done = run("init", "--agent", "codex", "--mcp", "--user", "--trust")
    assert done.exit_code == 0, done.stderr
    data = tomlread.loads((home / ".codex" / "config.toml").read_text(encoding="utf-8"))
    assert data["mcp_servers"]["boundread"]["args"][0] == "mcp"
    states = data["hooks"]["state"]
    assert states and all(entry["trusted_hash"] for entry in states.values())
