"""doctor runs the registered guard hook once with the client's own payload for a whole read of a PDF, and says
ready only when the answer stops the read in that client's format (agents/doctor_probe.py)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boundread import __version__
from boundread.agents import claude_settings, doctor_probe, gemini_trust, install, locate
from boundread.cli.app import app

SCRIPT = Path(sys.executable).parent / "boundread"
needs_script = pytest.mark.skipif(not SCRIPT.is_file(), reason="needs the installed console script (pip install -e .)")
posix = pytest.mark.skipif(os.name == "nt", reason="a /bin/sh script stands in for boundread")


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", f"{SCRIPT.parent}{os.pathsep}/usr/bin{os.pathsep}/bin")
    monkeypatch.setattr(claude_settings, "MANAGED_DIR", tmp_path / "managed")
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(tmp_path / "system" / "settings.json"))
    for variable in ("CLAUDE_CONFIG_DIR", "CLAUDE_CODE_SIMPLE", "CLAUDE_CODE_SAFE_MODE", "GEMINI_CLI_TRUST_WORKSPACE"):
        monkeypatch.delenv(variable, raising=False)


def _setup(tmp_path: Path, agent: str) -> Path:
    root = tmp_path / "project"
    root.mkdir(exist_ok=True)
    install.apply(install.plan(agent, root, home=Path.home(), program=locate.Program("boundread")))
    if agent == "gemini":
        gemini_trust.apply(gemini_trust.change(root))
    return root


def _answers(root: Path, agent: str) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(app, ["doctor", "--dir", str(root), "--agent", agent, "--json"])
    (entry,) = json.loads(result.stdout)["agents"]
    (check,) = [check for check in entry["checks"] if check["name"] == "guard answers"]
    return result.exit_code, check


@needs_script
@pytest.mark.parametrize("agent", ["claude", "gemini", "codex", "copilot"])
def test_the_real_guard_stops_a_whole_read_in_each_clients_format(tmp_path: Path, agent: str) -> None:
    """The probe's PDF is outside the project, where redirect mode refuses too (a rewrite stays in the project):
    its hook line is the one init wrote."""
    root = _setup(tmp_path, agent)
    _, check = _answers(root, agent)
    assert check["ok"] is True, check
    flag = "" if agent == "claude" else f" --agent {agent}"
    label = {"claude": "Claude Code", "gemini": "Gemini CLI", "codex": "Codex", "copilot": "GitHub Copilot CLI"}[agent]
    assert check["detail"] == (f"`boundread guard-check --mode redirect{flag}` refused a whole read of a 12-page PDF "
                               f"(the payload {label} sends), in {label}'s format")
    assert check["fix"] == ""


def _fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str) -> Path:
    """A boundread on PATH that knows its version, saves the payload and its environment, then runs ``body``."""
    folder = tmp_path / "fake-bin"
    folder.mkdir(exist_ok=True)
    fake = folder / "boundread"
    seen = tmp_path / "seen"
    fake.write_text(f'#!/bin/sh\nif [ "$1" = "--version" ]; then echo "boundread {__version__}"; exit 0; fi\n'
                    f'cat > {seen}.json\nenv > {seen}.env\n'
                    f'ls "$(dirname "$BOUNDREAD_STATE_DIR")" > {seen}.ls\n{body}\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}/usr/bin{os.pathsep}/bin")
    return seen


@posix
@pytest.mark.parametrize(("body", "detail"), [
    ("exit 0", "answered nothing to a whole read of a 12-page PDF (the payload Claude Code sends): the read "
               "goes through whole"),
    ("echo '{}'", "allowed a whole read of a 12-page PDF (the payload Claude Code sends) ({})"),
    ('echo \'{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}\'', "allowed"),
    ("echo 'Traceback: boom' >&2; exit 1", "exited 1 on a whole read of a 12-page PDF (the payload Claude Code "
                                           "sends): Traceback: boom: Claude Code takes that as allow"),
    ("echo 'not json'", "with 'not json', not JSON Claude Code reads"),
])
def test_a_hook_that_does_not_stop_the_read_is_not_ready(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         body: str, detail: str) -> None:
    root = _setup(tmp_path, "claude")
    _fake(tmp_path, monkeypatch, body)
    code, check = _answers(root, "claude")
    assert code == 2
    assert check["ok"] is False and detail in check["detail"], check
    assert check["fix"]


@posix
def test_a_hook_that_outlasts_the_timeout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _setup(tmp_path, "claude")
    _fake(tmp_path, monkeypatch, "sleep 30 & sleep 30")  # a child holding the pipes: killed with its group
    monkeypatch.setattr(doctor_probe, "MOST", 0.5)
    code, check = _answers(root, "claude")
    assert code == 2 and check["ok"] is False
    assert "did not answer a whole read of a 12-page PDF" in check["detail"] and "in 0.5 s" in check["detail"]


@posix
def test_exit_2_is_a_refusal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _setup(tmp_path, "gemini")
    _fake(tmp_path, monkeypatch, "echo 'refused: read it in parts' >&2; exit 2")
    _, check = _answers(root, "gemini")
    assert check["ok"] is True and "refused a whole read of a 12-page PDF (the payload Gemini CLI sends) with " \
        "exit 2: refused: read it in parts" in check["detail"]


@posix
@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_the_payload_is_the_clients_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent: str) -> None:
    """Captured shapes (reference/agent-hooks.md): the hook runs in the project with the payload on stdin; the
    guard's ledger and output folder are a temporary folder, gone after the run."""
    root = _setup(tmp_path, agent)
    seen = _fake(tmp_path, monkeypatch, "exit 0")
    _answers(root, agent)
    payload = json.loads((tmp_path / "seen.json").read_text())
    env = dict(line.split("=", 1) for line in (tmp_path / "seen.env").read_text().splitlines() if "=" in line)
    assert payload["cwd"] == str(root) and payload["session_id"] == doctor_probe.SESSION
    tool_input = payload["tool_input"]
    if agent == "claude":
        assert (payload["hook_event_name"], payload["tool_name"]) == ("PreToolUse", "Read")
        pdf = Path(tool_input["file_path"])
        assert env["CLAUDE_PROJECT_DIR"] == str(root)
    elif agent == "codex":
        assert (payload["hook_event_name"], payload["tool_name"]) == ("PreToolUse", "Bash")
        assert tool_input["command"].startswith("cat ") and "turn_id" in payload
        pdf = Path(tool_input["command"][4:])
    else:
        assert (payload["hook_event_name"], payload["tool_name"]) == ("BeforeTool", "read_file")
        assert payload["timestamp"].endswith("Z")
        pdf = Path(tool_input["file_path"])
        assert env["GEMINI_PROJECT_DIR"] == str(root)
    assert pdf.name == "report.pdf" and pdf.parent.name.startswith("boundread-doctor-")
    assert env["BOUNDREAD_STATE_DIR"] == str(pdf.parent / "state")
    assert env["BOUNDREAD_OUT_DIR"] == str(pdf.parent / "out")
    assert "report.pdf" in seen.with_suffix(".ls").read_text()
    assert not pdf.parent.exists(), "the probe's folder is removed"


@needs_script
def test_settings_that_allow_every_read_are_not_ready(tmp_path: Path) -> None:
    """The user's own config may allow every path: then the guard stops nothing, and doctor says so."""
    from boundread.guard import config

    root = _setup(tmp_path, "claude")
    user = Path(config.user_file())
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text('[guard]\nallow = ["**"]\n', encoding="utf-8")
    code, check = _answers(root, "claude")
    assert code == 2 and check["ok"] is False and "answered nothing to a whole read" in check["detail"]
    assert "allow globs" in check["fix"]
