"""opencode: our plugin's payload and the answers it acts on (deny, a rewrite in opencode's own keys, allow),
`init --agent opencode` writing the plugin whole and uninstall removing it, and doctor's checks of it.

That opencode loads the plugin, gives the model the deny's reason and runs the rewritten call is checked against
the real client in tests/e2e/test_opencode.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boundread import agents
from boundread.agents import install, opencode
from boundread.cli.app import app
from tests.hookproject import guard_argv, guard_env


def payload(tool: str, args: dict[str, Any], cwd: Path) -> dict[str, Any]:
    """What data/opencode-plugin.js sends."""
    return {"hook_event_name": "tool.execute.before", "client": "opencode", "tool": tool, "cwd": str(cwd),
            "session_id": "ses_dc977c5c6ffe", "call_id": "toolu_fake000003", "args": args}


def guard(body: dict[str, Any], cwd: Path, *args: str) -> dict[str, Any]:
    result = subprocess.run(guard_argv(*args), input=json.dumps(body), capture_output=True, text=True,
                            env=guard_env(), cwd=cwd, timeout=60, check=False)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    answer: dict[str, Any] = json.loads(result.stdout)
    return answer


def test_the_plugins_payload_is_detected_and_its_file_path_read() -> None:
    body = payload("read", {"filePath": "/p/report.pdf", "offset": 3}, Path("/p"))
    assert agents.detect(body) == "opencode"
    call = agents.parse(body, "opencode")
    assert (call.action, call.path, call.offset) == ("read", "/p/report.pdf", 3)


def test_a_whole_read_of_a_big_pdf_is_denied_with_the_reason(project: Path) -> None:
    answer = guard(payload("read", {"filePath": str(project / "report.pdf")}, project), project,
                   "--agent", "opencode")
    assert answer["decision"] == "deny" and "boundread pages" in answer["reason"]


def test_a_small_file_is_allowed_without_a_word(project: Path) -> None:
    assert guard(payload("read", {"filePath": str(project / "small.txt")}, project), project) == {}
    assert guard(payload("bash", {"command": "head -n 5 big.log", "description": "x"}, project), project) == {}


def test_redirect_rewrites_in_opencodes_own_keys(project: Path) -> None:
    """A read of a big log: the same read with a range (``filePath`` kept, never ``file_path``); a `cat` of the
    PDF: the bounded boundread command."""
    read = guard(payload("read", {"filePath": str(project / "big.log")}, project), project,
                 "--mode", "redirect", "--agent", "opencode")
    assert read["decision"] == "allow" and "file_path" not in read["args"]
    assert read["args"]["filePath"] == str(project / "big.log") and read["args"]["offset"] == 1
    assert 0 < read["args"]["limit"] <= opencode.READ_MAX_LINES
    assert "Next part" in read["context"]
    cat = guard(payload("bash", {"command": "cat report.pdf", "description": "Show it"}, project), project,
                "--mode", "redirect", "--agent", "opencode")
    assert cat["decision"] == "allow" and set(cat["args"]) == {"command", "description"}
    assert "--stdout" in cat["args"]["command"] and "report.pdf" in cat["args"]["command"]


def test_a_permission_rule_for_the_tool_keeps_the_deny(project: Path, tmp_path: Path) -> None:
    """opencode checks its permission rules on the rewritten call: a rule for bash would be stepped around."""
    work = tmp_path / "work"
    shutil.copytree(project, work, symlinks=True)
    (work / "opencode.json").write_text(json.dumps({"permission": {"bash": {"cat *": "deny"}}}), encoding="utf-8")
    answer = guard(payload("bash", {"command": "cat report.pdf"}, work), work, "--mode", "redirect", "--agent",
                   "opencode")
    assert answer["decision"] == "deny"
    assert opencode.user_rules("read", str(work)) is False and opencode.user_rules("bash", str(work)) is True


def _init(root: Path, *args: str) -> Any:
    return CliRunner().invoke(app, ["init", "--agent", "opencode", "--dir", str(root), *args])


def _doctor(root: Path, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["doctor", "--agent", "opencode", "--dir", str(root), "--json", *args])
    (report,) = json.loads(result.stdout)["agents"]
    return {check["name"]: check for check in report["checks"]} | {"ready": report["ready"]}


def test_init_writes_the_plugin_whole_and_uninstall_removes_it(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    assert _init(root).exit_code == 0
    plugin = root / ".opencode" / "plugin" / "boundread.js"
    text = plugin.read_text(encoding="utf-8")
    command = install.plugin_command(text)
    assert command is not None and command.endswith("guard-check --mode redirect --agent opencode")
    assert '"tool.execute.before"' in text and "__COMMAND__" not in text
    assert "boundread" in (root / "AGENTS.md").read_text(encoding="utf-8")
    assert _init(root).stdout.count("unchanged") == 2  # a second init changes nothing
    report = _doctor(root)
    assert report["ready"] is True and "a whole read of a 12-page PDF" in report["guard answers"]["detail"]
    assert _init(root, "--uninstall").exit_code == 0
    assert not (root / ".opencode").exists() and not (root / "AGENTS.md").exists()


def test_the_users_plugin_goes_in_opencodes_config_folder(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    assert _init(root, "--user").exit_code == 0
    assert (tmp_path / "home" / ".config" / "opencode" / "plugin" / "boundread.js").is_file()
    assert (tmp_path / "home" / ".config" / "opencode" / "AGENTS.md").is_file()
    assert _doctor(root, "--user")["ready"] is True


def test_a_plugin_of_the_same_name_that_is_not_ours_is_left_alone(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    theirs = root / ".opencode" / "plugin" / "boundread.js"
    theirs.parent.mkdir(parents=True)
    theirs.write_text("export const Mine = async () => ({})\n", encoding="utf-8")
    result = _init(root)
    assert result.exit_code != 0 and "not boundread's plugin" in result.stderr
    assert _init(root, "--uninstall").exit_code == 0
    assert theirs.read_text(encoding="utf-8") == "export const Mine = async () => ({})\n"
    report = _doctor(root)
    assert report["ready"] is False and report["plugin"]["ok"] is False


def test_doctor_flags_a_stale_plugin_and_a_command_that_is_gone(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    _init(root)
    plugin = root / ".opencode" / "plugin" / "boundread.js"
    text = plugin.read_text(encoding="utf-8")
    plugin.write_text(text.replace("const TIMEOUT_MS = 30000", "const TIMEOUT_MS = 5000"), encoding="utf-8")
    stale = _doctor(root)
    assert stale["ready"] is False and "another version" in stale["plugin"]["detail"]
    command = install.plugin_command(text)
    assert command is not None
    moved = command.replace(command.split()[0], str(tmp_path / "gone" / "boundread"))
    gone = text.replace(json.dumps(command), json.dumps(moved))
    plugin.write_text(gone, encoding="utf-8")
    missing = _doctor(root)
    assert missing["ready"] is False and missing["command found"]["ok"] is False


@pytest.mark.skipif(shutil.which("node") is None, reason="node checks the plugin's syntax")
def test_the_plugin_is_valid_javascript(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    _init(root)
    module = tmp_path / "plugin.mjs"
    module.write_text((root / ".opencode" / "plugin" / "boundread.js").read_text(encoding="utf-8"), encoding="utf-8")
    node = shutil.which("node")
    assert node is not None
    checked = subprocess.run([node, "--check", str(module)], capture_output=True, text=True, check=False, timeout=60)
    assert checked.returncode == 0, checked.stderr


def test_doctor_runs_the_plugins_command_with_a_real_payload(tmp_path: Path) -> None:
    """A plugin whose command answers in another client's words lets every read through: not ready."""
    root = tmp_path / "proj"
    root.mkdir()
    _init(root)
    plugin = root / ".opencode" / "plugin" / "boundread.js"
    text = plugin.read_text(encoding="utf-8")
    plugin.write_text(text.replace("--mode redirect --agent opencode", "--mode redirect --agent claude"),
                      encoding="utf-8")
    report = _doctor(root)
    assert report["ready"] is False and report["guard answers"]["ok"] is False
