"""doctor is never wrong about "ready": every settings layer or variable that switches a client's hooks off is a
problem naming the file (or variable) and the fix (agents/claude_settings.py, agents/gemini_settings.py)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boundread.agents import claude_settings, codex_settings, gemini_settings, gemini_trust, install, locate
from boundread.cli.app import app

SCRIPT = Path(sys.executable).parent / "boundread"
needs_script = pytest.mark.skipif(not SCRIPT.is_file(), reason="needs the installed console script (pip install -e .)")


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """This installation's boundread on PATH; the managed and system settings in the test's folder, not /etc."""
    monkeypatch.setenv("PATH", f"{SCRIPT.parent}{os.pathsep}/usr/bin{os.pathsep}/bin")
    monkeypatch.setattr(claude_settings, "MANAGED_DIR", tmp_path / "managed")
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(tmp_path / "system" / "settings.json"))
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", str(tmp_path / "system" / "system-defaults.json"))
    for variable in ("CLAUDE_CONFIG_DIR", "CLAUDE_CODE_SIMPLE", "CLAUDE_CODE_SAFE_MODE", "GEMINI_CLI_HOME",
                     "GEMINI_CLI_TRUST_WORKSPACE"):
        monkeypatch.delenv(variable, raising=False)


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    return root


def _init(root: Path, agent: str) -> None:
    install.apply(install.plan(agent, root, home=Path.home(), program=locate.Program("boundread")))
    if agent == "gemini":
        gemini_trust.apply(gemini_trust.change(root))


def _write(path: Path, data: dict[str, Any] | str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    old = json.loads(path.read_text()) if path.is_file() and not isinstance(data, str) else {}
    path.write_text(data if isinstance(data, str) else json.dumps({**old, **data}), encoding="utf-8")


def _doctor(root: Path, agent: str) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(app, ["doctor", "--dir", str(root), "--agent", agent, "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    (entry,) = json.loads(result.stdout)["agents"]
    return result.exit_code, entry


def _problems(entry: dict[str, Any]) -> list[dict[str, Any]]:
    return [check for check in entry["checks"] if check["ok"] is False]


def _claude_file(tmp_path: Path, root: Path, where: str) -> Path:
    return {"user": Path.home() / ".claude" / "settings.json",
            "config dir": tmp_path / "claude-config" / "settings.json",
            "project": root / ".claude" / "settings.json",
            "local": root / ".claude" / "settings.local.json",
            "managed": tmp_path / "managed" / "managed-settings.json",
            "drop-in": tmp_path / "managed" / "managed-settings.d" / "50-policy.json"}[where]


CLAUDE_OFF = [
    ("user", {"disableAllHooks": True}, "remove disableAllHooks from {file}"),
    ("config dir", {"disableAllHooks": True}, "remove disableAllHooks from {file}"),
    ("project", {"disableAllHooks": True}, "remove disableAllHooks from {file}"),
    ("local", {"disableAllHooks": True}, "remove disableAllHooks from {file}"),
    ("managed", {"disableAllHooks": True}, "ask whoever manages this machine to remove it"),
    ("drop-in", {"disableAllHooks": True}, "ask whoever manages this machine to remove it"),
    ("managed", {"allowManagedHooksOnly": True}, "put boundread's hooks in the managed settings"),
    ("drop-in", {"allowManagedHooksOnly": True}, "put boundread's hooks in the managed settings"),
    ("drop-in", {"strictPluginOnlyCustomization": ["hooks", "skills"]}, "ask whoever manages this machine"),
]


@needs_script
@pytest.mark.parametrize(("where", "setting", "fix"), CLAUDE_OFF,
                         ids=[f"{where}-{next(iter(setting))}" for where, setting, _ in CLAUDE_OFF])
def test_each_claude_code_layer_that_switches_hooks_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       where: str, setting: dict[str, Any], fix: str) -> None:
    root = _project(tmp_path)
    _init(root, "claude")
    assert _doctor(root, "claude")[0] == 0, "ready before"
    if where == "config dir":
        monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude-config"))
    file = _claude_file(tmp_path, root, where)
    _write(file, setting)
    code, entry = _doctor(root, "claude")
    assert code == 2 and entry["ready"] is False
    (problem,) = _problems(entry)
    assert problem["name"] == "hooks enabled"
    assert str(file) in problem["detail"] and next(iter(setting)) in problem["detail"]
    assert fix.format(file=file) in problem["fix"]
    answers = [check for check in entry["checks"] if check["name"] == "guard answers"]
    assert [check["ok"] for check in answers] == [True], "the hook itself works: the settings switch it off"


@needs_script
@pytest.mark.parametrize(("variable", "value"), [("CLAUDE_CODE_SIMPLE", "1"), ("CLAUDE_CODE_SAFE_MODE", "true")])
def test_bare_and_safe_mode_variables_switch_claude_hooks_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              variable: str, value: str) -> None:
    root = _project(tmp_path)
    _init(root, "claude")
    monkeypatch.setenv(variable, value)
    code, entry = _doctor(root, "claude")
    assert code == 2
    (problem,) = _problems(entry)
    assert f"{variable}={value} in this environment" in problem["detail"]
    assert problem["fix"].startswith(f"unset {variable} where you start claude")
    monkeypatch.setenv(variable, "0")  # Claude Code's false
    assert _doctor(root, "claude")[0] == 0


@needs_script
def test_ignoring_persisted_trust_skips_the_projects_hooks_not_the_users(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``claude -p`` with CLAUDE_CODE_IGNORE_PERSISTED_TRUST runs no hook of the project's settings."""
    root = _project(tmp_path)
    _init(root, "claude")
    monkeypatch.setenv("CLAUDE_CODE_IGNORE_PERSISTED_TRUST", "true")
    code, entry = _doctor(root, "claude")
    assert code == 2
    (problem,) = _problems(entry)
    assert "`claude -p` runs no hook of the project's or local settings" in problem["detail"]
    assert "boundread init --user" in problem["fix"]
    install.apply(install.plan("claude", root, user=True, home=Path.home(), program=locate.Program("boundread")))
    monkeypatch.chdir(root)
    result = CliRunner().invoke(app, ["doctor", "--user", "--agent", "claude", "--json"])
    assert result.exit_code == 0, result.stdout


@needs_script
def test_a_later_claude_layer_undoes_an_earlier_disable(tmp_path: Path) -> None:
    """The merged settings decide: the project's false wins over the user's true; the local file's true wins over
    both."""
    root = _project(tmp_path)
    _init(root, "claude")
    _write(_claude_file(tmp_path, root, "user"), {"disableAllHooks": True})
    _write(_claude_file(tmp_path, root, "project"), {"disableAllHooks": False})
    code, entry = _doctor(root, "claude")
    assert code == 0, _problems(entry)
    local = _claude_file(tmp_path, root, "local")
    _write(local, {"disableAllHooks": True})
    code, entry = _doctor(root, "claude")
    assert code == 2 and str(local) in _problems(entry)[0]["detail"]


@needs_script
def test_claude_settings_that_are_not_json_switch_nothing_off(tmp_path: Path) -> None:
    root = _project(tmp_path)
    _init(root, "claude")
    _write(_claude_file(tmp_path, root, "local"), '{"disableAllHooks": true')  # Claude Code cannot read it either
    _write(_claude_file(tmp_path, root, "drop-in"), "[1, 2]")
    code, entry = _doctor(root, "claude")
    assert code == 0, _problems(entry)
    (enabled,) = [check for check in entry["checks"] if check["name"] == "hooks enabled"]
    assert enabled["ok"] is True and "no settings file or variable switches" in enabled["detail"]


def test_an_unlistable_managed_folder_is_cannot_tell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A drop-in folder that cannot be listed may hold a disableAllHooks: neither ready nor a problem."""
    folder = tmp_path / "managed" / "managed-settings.d"
    folder.mkdir(parents=True)

    def refuse(path: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(claude_settings.os, "scandir", refuse)
    (check,) = claude_settings.checks(tmp_path / "s.json", tmp_path, tmp_path, env={},
                                      managed_dir=tmp_path / "managed")
    assert check.ok is None and f"cannot list {folder}: Permission denied" in check.detail


def _gemini_file(tmp_path: Path, root: Path, where: str) -> Path:
    return {"user": Path.home() / ".gemini" / "settings.json",
            "project": root / ".gemini" / "settings.json",
            "system": tmp_path / "system" / "settings.json",
            "system defaults": tmp_path / "system" / "system-defaults.json"}[where]


@pytest.fixture
def _secure_system(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test's system settings taken as Gemini takes /etc/gemini-cli (root's, writable by none else): the test
    folder is under /tmp, which Gemini would skip (test_a_system_file_others_can_write_is_skipped)."""
    monkeypatch.setattr(gemini_settings, "insecure", lambda path: "")


@needs_script
@pytest.mark.usefixtures("_secure_system")
@pytest.mark.parametrize("where", ["user", "project", "system", "system defaults"])
def test_each_gemini_layer_with_hooks_config_enabled_false(tmp_path: Path, where: str) -> None:
    root = _project(tmp_path)
    _init(root, "gemini")
    assert _doctor(root, "gemini")[0] == 0, "ready before"
    file = _gemini_file(tmp_path, root, where)
    if where == "project":  # beside our hooks
        _write(file, {"hooksConfig": {"enabled": False}})
    else:  # Gemini strips comments
        _write(file, '// hooks off for now\n{"hooksConfig": {"enabled": false /* off */}}')
    code, entry = _doctor(root, "gemini")
    assert code == 2 and entry["ready"] is False
    (problem,) = _problems(entry)
    assert problem["name"] == "hooks enabled" and str(file) in problem["detail"]
    assert '"hooksConfig": {"enabled": false}' in problem["detail"] and f"({where} settings)" in problem["detail"]
    assert problem["fix"] == f"remove hooksConfig.enabled from {file} (or set it to true)"


@needs_script
@pytest.mark.usefixtures("_secure_system")
def test_gemini_system_settings_override_the_project(tmp_path: Path) -> None:
    """The system settings come last in Gemini's merge: their true wins over the project's false, and the other
    way round."""
    root = _project(tmp_path)
    _init(root, "gemini")
    project, system = _gemini_file(tmp_path, root, "project"), _gemini_file(tmp_path, root, "system")
    _write(project, {"hooksConfig": {"enabled": False}})
    _write(system, {"hooksConfig": {"enabled": True}})
    assert _doctor(root, "gemini")[0] == 0
    _write(project, {"hooksConfig": {"enabled": True}})
    _write(system, {"hooksConfig": {"enabled": False}})
    code, entry = _doctor(root, "gemini")
    assert code == 2 and str(system) in _problems(entry)[0]["detail"]


@needs_script
def test_gemini_disabled_hook_names(tmp_path: Path) -> None:
    """``hooksConfig.disabled`` is the union of every layer's list; a hook is named by its ``name``."""
    root = _project(tmp_path)
    _init(root, "gemini")
    user = _gemini_file(tmp_path, root, "user")
    _write(user, {"hooksConfig": {"disabled": ["some-other-hook"]}})
    assert _doctor(root, "gemini")[0] == 0
    _write(user, {"hooksConfig": {"disabled": ["some-other-hook", "boundread-guard"]}})
    code, entry = _doctor(root, "gemini")
    assert code == 2
    (problem,) = _problems(entry)
    assert "lists 'boundread-guard'" in problem["detail"] and str(user) in problem["detail"]
    assert problem["fix"] == f"remove 'boundread-guard' from hooksConfig.disabled in {user}"


@needs_script
@pytest.mark.skipif(os.name == "nt", reason="POSIX owners and modes")
def test_a_system_file_others_can_write_is_skipped(tmp_path: Path) -> None:
    """Gemini 0.61 skips a system settings file in a folder a group or others can write ("Security Warning:
    Skipping system settings file"), as /tmp is: its hooksConfig switches nothing off."""
    root = _project(tmp_path)
    _init(root, "gemini")
    system = _gemini_file(tmp_path, root, "system")
    _write(system, {"hooksConfig": {"enabled": False}})
    code, entry = _doctor(root, "gemini")
    assert code == 0, _problems(entry)
    (enabled,) = [check for check in entry["checks"] if check["name"] == "hooks enabled"]
    assert f"it skips {system} (" in enabled["detail"] and "writable by group or others" in enabled["detail"]


@pytest.mark.skipif(os.name == "nt" or Path("/etc").stat().st_uid != 0 or Path("/etc").stat().st_mode & 0o022 != 0,
                    reason="needs a root-owned /etc that only root writes")
def test_a_root_owned_system_file_is_read(tmp_path: Path) -> None:
    assert gemini_settings.insecure(Path("/etc/gemini-cli/settings.json")) == ""
    assert "writable by group or others" in gemini_settings.insecure(tmp_path / "settings.json")


def _codex(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with the guard registered for Codex and trusted; the system config folder in the test's folder."""
    monkeypatch.setattr(codex_settings, "SYSTEM_DIR", tmp_path / "etc-codex")
    monkeypatch.delenv("CODEX_HOME", raising=False)
    root = _project(tmp_path)
    done = CliRunner().invoke(app, ["init", "--dir", str(root), "--agent", "codex", "--trust"])
    assert done.exit_code == 0, done.output
    return root


def _toml(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as fh:
        fh.write("\n" + text + "\n")


CODEX_OFF = {
    "user": ("user", "[features]\ncodex_hooks = false"),
    "user, the older name": ("user", "[features]\nhooks = false"),
    "project": ("project", "[features]\ncodex_hooks = false"),
    "system": ("system", "[features]\ncodex_hooks = false"),
    "managed": ("managed", "[features]\ncodex_hooks = false"),
    "user's active profile": ("user", 'profile = "quiet"\n[profiles.quiet.features]\ncodex_hooks = false'),
}


@needs_script
@pytest.mark.parametrize("case", list(CODEX_OFF))
def test_each_codex_layer_with_codex_hooks_false(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    """Codex 0.171 runs no hook with the feature off (tests/e2e/test_doctor_truth.py checks it with the client)."""
    root = _codex(tmp_path, monkeypatch)
    assert _doctor(root, "codex")[0] == 0, "ready before"
    where, text = CODEX_OFF[case]
    file = {"user": Path.home() / ".codex" / "config.toml", "project": root / ".codex" / "config.toml",
            "system": tmp_path / "etc-codex" / "config.toml",
            "managed": tmp_path / "etc-codex" / "managed_config.toml"}[where]
    if text.startswith("profile"):  # a top-level key: before the tables the file has
        file.write_text(text.split("\n", 1)[0] + "\n" + file.read_text(encoding="utf-8") + "\n"
                        + text.split("\n", 1)[1] + "\n", encoding="utf-8")
    else:
        _toml(file, text)
    code, entry = _doctor(root, "codex")
    assert code == 2
    (problem,) = _problems(entry)
    assert problem["name"] == "hooks enabled" and str(file) in problem["detail"]
    assert f"({where} config): Codex runs no hook at all" in problem["detail"]
    assert ("ask whoever manages this machine" if where == "managed" else f"in {file}") in problem["fix"]


@needs_script
def test_a_later_codex_layer_undoes_an_earlier_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _codex(tmp_path, monkeypatch)
    _toml(tmp_path / "etc-codex" / "config.toml", "[features]\ncodex_hooks = false")
    _toml(root / ".codex" / "config.toml", "[features]\ncodex_hooks = true")
    assert _doctor(root, "codex")[0] == 0
    _toml(tmp_path / "etc-codex" / "managed_config.toml", "[features]\nhooks = false")
    code, entry = _doctor(root, "codex")
    assert code == 2 and "managed_config.toml" in _problems(entry)[0]["detail"]
