"""Qwen Code: its payload (Claude Code's shape, captured from 0.24.4), its deny, `init --agent qwen [--trust]`, and
what doctor says when Qwen would not run the hook (disableAllHooks, its folder trust).

That Qwen Code really sends this payload, gives the model the deny's reason and ignores a rewrite is checked
against the real client in tests/e2e/test_qwen.py.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boundread import agents
from boundread.agents import qwen_trust
from boundread.cli.app import app
from tests.hookproject import guard_argv, guard_env

VARIABLES = ("QWEN_HOME", "QWEN_CODE_TRUSTED_FOLDERS_PATH", "QWEN_CODE_SYSTEM_SETTINGS_PATH",
             "QWEN_CODE_SYSTEM_DEFAULTS_PATH")


@pytest.fixture(autouse=True)
def _no_qwen_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(qwen_trust, "SYSTEM_SETTINGS", str(tmp_path / "etc-qwen-code" / "settings.json"))


def payload(tool: str, tool_input: dict[str, Any], cwd: Path) -> dict[str, Any]:
    """A PreToolUse payload as Qwen Code 0.24.4 sent it to a hook (ids shortened)."""
    return {"session_id": "f8487542", "transcript_path": "/home/u/.qwen/projects/-p/chats/f8487542.jsonl",
            "cwd": str(cwd), "hook_event_name": "PreToolUse", "timestamp": "2026-12-02T11:33:14.012Z",
            "permission_mode": "yolo", "prompt_id": "f8487542########0", "tool_name": tool, "tool_input": tool_input,
            "tool_use_id": "toolu_1796211194011_oh24048pm", "tool_call_id": "call_fake000002"}


def guard(body: dict[str, Any], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(guard_argv(*args), input=json.dumps(body), capture_output=True, text=True, env=guard_env(),
                          cwd=cwd, timeout=60, check=False)


def test_its_payload_is_told_from_claude_codes() -> None:
    here = Path("/p")
    assert agents.detect(payload("read_file", {"file_path": "/p/a.txt"}, here)) == "qwen"
    claude = {key: value for key, value in payload("Read", {"file_path": "/p/a.txt"}, here).items()
              if key not in ("timestamp", "tool_call_id")}
    assert agents.detect(claude) == "claude"


@pytest.mark.parametrize("args", [[], ["--agent", "qwen"]], ids=["detected", "as-init-writes-it"])
def test_a_whole_read_of_a_big_pdf_is_denied_in_claudes_words(project: Path, args: list[str]) -> None:
    result = guard(payload("read_file", {"file_path": str(project / "report.pdf")}, project), project, *args)
    assert result.returncode == 0, result.stderr
    hook = json.loads(result.stdout)["hookSpecificOutput"]
    assert hook["hookEventName"] == "PreToolUse" and hook["permissionDecision"] == "deny"
    assert "boundread pages" in hook["permissionDecisionReason"]


def test_a_small_file_and_a_ranged_read_pass_silently(project: Path) -> None:
    small = guard(payload("read_file", {"file_path": str(project / "small.txt")}, project), project)
    ranged = guard(payload("read_file", {"file_path": str(project / "big.log"), "offset": 1, "limit": 100}, project),
                   project)
    assert (small.returncode, small.stdout, ranged.returncode, ranged.stdout) == (0, "", 0, "")


def test_redirect_mode_still_denies_as_qwen_takes_no_rewrite(project: Path) -> None:
    assert agents.rewrites("qwen") is False
    result = guard(payload("run_shell_command", {"command": "cat report.pdf"}, project), project,
                   "--mode", "redirect", "--agent", "qwen")
    hook = json.loads(result.stdout)["hookSpecificOutput"]
    assert hook["permissionDecision"] == "deny" and "updatedInput" not in hook


def test_the_shell_runs_in_its_directory(project: Path, tmp_path: Path) -> None:
    """run_shell_command's ``directory``: `cat report.pdf` there is the project's report, from anywhere."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    body = payload("run_shell_command", {"command": "cat report.pdf", "directory": str(project)}, elsewhere)
    assert agents.parse(body, "qwen").cwd == str(project)
    result = guard(body, elsewhere)
    assert json.loads(result.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def _init(root: Path, *args: str) -> Any:
    return CliRunner().invoke(app, ["init", "--agent", "qwen", "--dir", str(root), *args])


def _doctor(root: Path) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["doctor", "--agent", "qwen", "--dir", str(root), "--json"])
    (report,) = json.loads(result.stdout)["agents"]
    return {check["name"]: check for check in report["checks"]} | {"ready": report["ready"]}


def _settings(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_init_writes_its_hook_and_qwen_md_and_uninstall_takes_them_back(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "QWEN.md").write_text("# Our project\n", encoding="utf-8")
    assert _init(root).exit_code == 0
    settings = json.loads((root / ".qwen" / "settings.json").read_text(encoding="utf-8"))
    (group,) = settings["hooks"]["PreToolUse"]
    assert group["matcher"] == "read_file|run_shell_command|write_file|edit|mcp__.*"
    assert group["hooks"][0]["command"].endswith("guard-check --agent qwen")  # deny mode: Qwen takes no rewrite
    assert group["hooks"][0]["timeout"] == 10  # seconds
    assert "boundread" in (root / "QWEN.md").read_text(encoding="utf-8")
    report = _doctor(root)
    assert report["ready"] is True and "refused a whole read of a 12-page PDF" in report["guard answers"]["detail"]
    assert _init(root, "--uninstall").exit_code == 0
    assert json.loads((root / ".qwen" / "settings.json").read_text(encoding="utf-8")) == {}
    assert (root / "QWEN.md").read_text(encoding="utf-8") == "# Our project\n"


def test_doctor_finds_hooks_switched_off_in_the_users_settings(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    _init(root)
    _settings(tmp_path / "home" / ".qwen" / "settings.json", {"disableAllHooks": True})
    report = _doctor(root)
    assert report["ready"] is False and report["hooks enabled"]["ok"] is False
    assert "disableAllHooks" in report["hooks enabled"]["detail"]


def test_a_project_cannot_switch_off_what_the_system_settings_switch_on(tmp_path: Path) -> None:
    """The system settings merge last: their disableAllHooks wins over the project's false, and the other way."""
    root = tmp_path / "proj"
    root.mkdir()
    _init(root)
    system = tmp_path / "etc-qwen-code" / "settings.json"
    _settings(system, {"disableAllHooks": True})
    _settings(root / ".qwen" / "settings.json",
              {**json.loads((root / ".qwen" / "settings.json").read_text(encoding="utf-8")), "disableAllHooks": False})
    assert _doctor(root)["hooks enabled"]["ok"] is False
    _settings(system, {"disableAllHooks": False})
    assert _doctor(root)["ready"] is True


def test_with_folder_trust_on_an_untrusted_folder_is_not_ready_and_trust_fixes_it(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    _settings(tmp_path / "home" / ".qwen" / "settings.json", {"security": {"folderTrust": {"enabled": True}}})
    result = _init(root)
    assert "init --agent qwen --trust" in result.stdout  # init says how
    report = _doctor(root)
    assert report["ready"] is False and report["trusted"]["ok"] is False
    assert _init(root, "--trust").exit_code == 0
    rules = json.loads((tmp_path / "home" / ".qwen" / "trustedFolders.json").read_text(encoding="utf-8"))
    assert rules == {str(root): "TRUST_FOLDER"}
    assert _doctor(root)["ready"] is True


@pytest.mark.parametrize(("rules", "trusted"), [
    ({"{root}": "TRUST_FOLDER"}, True),
    ({"{root}/inner": "TRUST_PARENT"}, True),
    ({"{parent}": "TRUST_FOLDER", "{root}": "DO_NOT_TRUST"}, False),  # the deepest rule wins
    ({"{parent}": "DO_NOT_TRUST", "{root}": "TRUST_FOLDER"}, True),
    ({"{root}/inner": "TRUST_FOLDER"}, False),  # a folder inside it is not it
    ({}, False),
])
def test_which_rule_decides(tmp_path: Path, rules: dict[str, str], trusted: bool) -> None:
    root = tmp_path / "work" / "proj"
    root.mkdir(parents=True)
    home = tmp_path / "home"
    _settings(home / ".qwen" / "settings.json", {"security": {"folderTrust": {"enabled": True}}})
    _settings(home / ".qwen" / "trustedFolders.json",
              {rule.format(root=root, parent=root.parent): level for rule, level in rules.items()})
    assert qwen_trust.check(root, home).trusted is trusted


def test_trust_with_user_is_refused_and_a_broken_trust_file_is_left_alone(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    refused = _init(root, "--trust", "--user")
    assert refused.exit_code != 0 and "every folder" in refused.stderr
    broken = tmp_path / "home" / ".qwen" / "trustedFolders.json"
    broken.parent.mkdir(parents=True, exist_ok=True)
    broken.write_text("[1, 2", encoding="utf-8")
    result = _init(root, "--trust")
    assert result.exit_code != 0 and "not a JSON object" in result.stderr and "Traceback" not in result.stderr
    assert broken.read_text(encoding="utf-8") == "[1, 2"
    assert not (root / ".qwen" / "settings.json").exists()  # nothing written when the trust cannot be
