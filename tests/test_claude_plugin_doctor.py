"""Finding the boundread plugin the way Claude Code 2.1.332 records an install (agents/claudeplugin.py), and
doctor's lines for it. The files are written here as `claude plugin marketplace add` / `install` / `disable`
wrote them in tests/e2e/test_claude_plugin.py's runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from boundread.agents import claudeplugin

ROOT = Path(__file__).resolve().parents[1]
ID = "boundread@boundread"


@pytest.fixture(autouse=True)
def _no_config_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)


def _write(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def _marketplace(tmp_path: Path) -> Path:
    """A copy of this repository's marketplace and plugin, as a folder a user adds."""
    folder = tmp_path / "checkout"
    shutil.copytree(ROOT / ".claude-plugin", folder / ".claude-plugin")
    shutil.copytree(ROOT / "plugins", folder / "plugins")
    return folder


def _install(home: Path, source: dict[str, str], scope: str = "user", project: Path | None = None) -> Path:
    """installed_plugins.json, known_marketplaces.json and the cached copy; the cache folder."""
    cache = home / ".claude" / "plugins" / "cache" / "boundread" / "boundread" / "0.1.0"
    shutil.copytree(ROOT / "plugins" / "boundread", cache)
    entry: dict[str, str] = {"scope": scope, "installPath": str(cache), "version": "0.1.0"}
    if project is not None:
        entry["projectPath"] = str(project)
    _write(home / ".claude" / "plugins" / "installed_plugins.json", {"version": 2, "plugins": {ID: [entry]}})
    location = source.get("path", str(home / ".claude" / "plugins" / "marketplaces" / "boundread"))
    _write(home / ".claude" / "plugins" / "known_marketplaces.json",
           {"boundread": {"source": source, "installLocation": location}})
    return cache


def _enable(settings: Path, on: bool = True) -> None:
    _write(settings, {"enabledPlugins": {ID: on}})


def _bin(tmp_path: Path) -> str:
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "boundread").write_text("#!/bin/sh\n", encoding="utf-8")
    (folder / "boundread").chmod(0o755)
    return str(folder)


def test_no_settings_name_the_plugin(tmp_path: Path) -> None:
    _write(tmp_path / "home" / ".claude" / "settings.json", {"enabledPlugins": {"other@somewhere": True}})
    assert claudeplugin.find(tmp_path / "project", tmp_path / "home") is None


def test_a_plugin_from_a_folder_is_read_from_that_folder_and_passes(tmp_path: Path) -> None:
    home, project, checkout = tmp_path / "home", tmp_path / "project", _marketplace(tmp_path)
    _install(home, {"source": "directory", "path": str(checkout)})
    _enable(home / ".claude" / "settings.json")
    found = claudeplugin.find(project, home)
    assert found is not None and found.enabled and found.id == ID
    assert found.folder == (checkout / "plugins" / "boundread").resolve()  # not the cache
    checks = claudeplugin.checks(found, path=_bin(tmp_path))
    assert [(c.name, c.ok) for c in checks] == [("plugin", True), ("plugin hooks", True), ("plugin command", True),
                                                 ("plugin skill", True)]
    assert "PreToolUse, PostToolBatch, PostToolUse" in checks[1].detail


def test_a_plugin_from_a_repository_is_read_from_its_install(tmp_path: Path) -> None:
    home = tmp_path / "home"
    cache = _install(home, {"source": "github", "repo": "example/boundread"})
    _enable(home / ".claude" / "settings.json")
    found = claudeplugin.find(tmp_path / "project", home)
    assert found is not None and found.folder == cache


def test_local_settings_that_disable_it_win_over_the_users(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    _install(home, {"source": "directory", "path": str(_marketplace(tmp_path))})
    _enable(home / ".claude" / "settings.json")
    _enable(project / ".claude" / "settings.local.json", on=False)
    found = claudeplugin.find(project, home)
    assert found is not None and not found.enabled
    (check,) = claudeplugin.checks(found)
    assert check.ok is False and "disabled" in check.detail and check.fix == f"run `claude plugin enable {ID}`"


def test_a_local_install_for_another_project_does_not_count(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    _install(home, {"source": "directory", "path": str(_marketplace(tmp_path))}, scope="local",
             project=tmp_path / "elsewhere")
    _enable(project / ".claude" / "settings.local.json")
    found = claudeplugin.find(project, home)
    assert found is not None and found.folder is None
    (check,) = claudeplugin.checks(found)
    assert check.ok is False and "not installed for this project" in check.detail


def test_hooks_without_an_event_and_no_boundread_on_path_are_problems(tmp_path: Path) -> None:
    home, project, checkout = tmp_path / "home", tmp_path / "project", _marketplace(tmp_path)
    hooks = checkout / "plugins" / "boundread" / "hooks" / "hooks.json"
    data = json.loads(hooks.read_text(encoding="utf-8"))
    del data["hooks"]["PostToolBatch"]
    _write(hooks, data)
    _install(home, {"source": "directory", "path": str(checkout)}, scope="project", project=project)
    _enable(project / ".claude" / "settings.json")
    found = claudeplugin.find(project, home)
    assert found is not None
    empty = tmp_path / "empty"
    empty.mkdir()
    checks = {c.name: c for c in claudeplugin.checks(found, path=str(empty))}
    assert checks["plugin hooks"].ok is False and "no guard-check on PostToolBatch" in checks["plugin hooks"].detail
    assert checks["plugin command"].ok is False and "fails open" in checks["plugin command"].detail
    assert "pipx install 'boundread[mcp]'" in checks["plugin command"].fix


def test_doctor_takes_the_plugin_for_the_setup_and_runs_its_hook(tmp_path: Path) -> None:
    """Only the plugin, no init: doctor finds Claude Code set up, runs the plugin's guard hook with a real payload
    (the boundread on this PATH) and says ready; with init's hooks too it says each call would be checked twice."""
    import os
    import sys

    from boundread.agents import doctor

    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    _install(home, {"source": "directory", "path": str(_marketplace(tmp_path))})
    _enable(home / ".claude" / "settings.json")
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    report = doctor.diagnose(None, project, home=home, path=path)
    (claude,) = [agent for agent in report.agents if agent.agent == "claude"]
    assert claude.ready, [c for c in claude.checks if c.ok is False]
    assert {"plugin", "plugin hooks", "guard answers"} <= {c.name for c in claude.checks}
    _write(project / ".claude" / "settings.json", {"hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [
        {"type": "command", "command": "boundread guard-check --mode redirect"}]}]}})
    twice = doctor.diagnose(["claude"], project, home=home, path=path).agents[0]
    assert not twice.ready and [c.name for c in twice.checks if c.ok is False] == ["one registration"]
