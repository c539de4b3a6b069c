"""The guard protects its own ground (hook/ground.py): from inside a guarded session, no client's tool may change
the hook settings, boundread's config or state, or the environment the hooks run with - and reading them, or
everyday work beside them, stays allowed. Each payload is in its client's own shape and tool names."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from boundread.hook.main import run

ACTION = "ask the user to do it from their own terminal"


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A project with Claude Code, Codex and Gemini hook settings, a boundread project config in its pyproject,
    and a user config."""
    root = tmp_path / "proj"
    for folder in (".claude", ".codex", ".gemini", "src"):
        (root / folder).mkdir(parents=True)
    (root / ".claude" / "settings.json").write_text('{"hooks": {}}\n')
    (root / ".codex" / "hooks.json").write_text('{"hooks": {}}\n')
    (root / ".gemini" / "settings.json").write_text('{"hooks": {}}\n')
    (root / "pyproject.toml").write_text('[project]\nname = "app"\n\n[tool.boundread.guard]\nline_cap = 100\n')
    (root / "src" / "app.py").write_text("print('hi')\n")
    user = Path(os.environ["XDG_CONFIG_HOME"]) / "boundread" / "config.toml"
    user.parent.mkdir(parents=True)
    user.write_text("[guard]\nline_cap = 500\n")
    return root


def _payload(agent: str, tool: str, tool_input: dict[str, Any], cwd: Path) -> dict[str, Any]:
    """A PreToolUse payload in ``agent``'s shape (tests/payloads has a captured one of each)."""
    if agent == "cline":
        return {"clineVersion": "3.36.0", "hookName": "PreToolUse", "workspaceRoots": [str(cwd)],
                "preToolUse": {"toolName": tool, "parameters": tool_input}}
    if agent == "copilot":
        return {"timestamp": 1, "cwd": str(cwd), "toolName": tool, "toolArgs": json.dumps(tool_input)}
    if agent == "cursor":
        return {"conversation_id": "c", "hook_event_name": "preToolUse", "workspace_roots": [str(cwd)],
                "tool_name": tool, "tool_input": tool_input}
    payload = {"session_id": "s", "transcript_path": "/t", "cwd": str(cwd), "tool_name": tool,
               "tool_input": tool_input, "hook_event_name": "BeforeTool" if agent == "gemini" else "PreToolUse"}
    if agent == "codex":
        payload["turn_id"] = "turn-1"
    return payload


def _check(agent: str, tool: str, tool_input: dict[str, Any], cwd: Path,
           capsys: pytest.CaptureFixture[str]) -> str:
    """The deny reason guard-check gives ('' when it allows), in the client's own answer."""
    run([], io.StringIO(json.dumps(_payload(agent, tool, tool_input, cwd))))
    out = capsys.readouterr().out
    if not out.strip():
        return ""
    body = json.loads(out)
    if body.get("permission") == "allow" or body.get("cancel") is False or body == {}:
        return ""
    return str(body.get("reason") or body.get("agent_message") or body.get("permissionDecisionReason")
               or body.get("errorMessage")
               or body.get("hookSpecificOutput", {}).get("permissionDecisionReason", ""))


REFUSED = [
    ("claude", "Write", {"file_path": ".claude/settings.json", "content": '{"disableAllHooks": true}'},
     "Claude Code's settings"),
    ("claude", "Write", {"file_path": ".claude/settings.local.json", "content": "{}"}, "Claude Code's settings"),
    ("claude", "Edit", {"file_path": ".claude/settings.json", "old_string": "{}", "new_string": "[]"},
     "Claude Code's settings"),
    ("claude", "MultiEdit", {"file_path": "pyproject.toml",
                             "edits": [{"old_string": "line_cap = 100", "new_string": "line_cap = 100000"}]},
     "boundread's project config"),
    ("claude", "NotebookEdit", {"notebook_path": ".boundread.toml", "new_source": "x"}, "boundread's project config"),
    ("claude", "Write", {"file_path": ".boundread.toml", "content": "[guard]\nallow = ['**']\n"},
     "boundread's project config"),
    ("claude", "Bash", {"command": "echo '{\"disableAllHooks\": true}' > .claude/settings.json"},
     "Claude Code's settings"),
    ("claude", "Bash", {"command": "rm -rf .claude"}, "a folder that holds Claude Code's settings"),
    ("claude", "Bash", {"command": "export BOUNDREAD_GUARD_TEXT_MAX_BYTES=1GB && claude -p go"},
     "BOUNDREAD_GUARD_TEXT_MAX_BYTES"),
    ("claude", "Bash", {"command": "BOUNDREAD_STATE_DIR=/tmp/elsewhere claude -p go"}, "BOUNDREAD_STATE_DIR"),
    ("claude", "Bash", {"command": "python3 -c \"import json; json.dump({}, open('.claude/settings.json', 'w'))\""},
     "is code that names"),
    ("claude", "Bash", {"command": "sed -i s/100/100000/ pyproject.toml"}, "boundread's project config"),
    ("claude", "Bash", {"command": "echo '[guard]' > ~/.config/boundread/config.toml"}, "boundread's user config"),
    ("claude", "Bash", {"command": "boundread init --agent claude"}, "boundread init"),
    ("claude", "Bash", {"command": "claude --settings '{\"disableAllHooks\": true}' -p go"}, "disableAllHooks"),
    ("codex", "apply_patch", {"command": "*** Begin Patch\n*** Update File: .codex/hooks.json\n@@\n-{\"hooks\": {}}\n"
                                         "+{}\n*** End Patch"}, "Codex's hook settings"),
    ("codex", "apply_patch", {"command": "*** Begin Patch\n*** Update File: pyproject.toml\n@@\n [tool.boundread.guard]"
                                         "\n-line_cap = 100\n+line_cap = 99999\n*** End Patch"},
     "boundread's project config"),
    ("codex", "Bash", {"command": ["bash", "-lc", "echo '{}' > .codex/hooks.json"]}, "Codex's hook settings"),
    ("codex", "exec_command", {"cmd": "mv .codex/hooks.json /tmp/hooks.json"}, "Codex's hook settings"),
    ("gemini", "write_file", {"file_path": ".gemini/settings.json", "content": "{}"}, "Gemini CLI's settings"),
    ("gemini", "replace", {"file_path": "pyproject.toml", "old_string": "line_cap = 100", "new_string": ""},
     "boundread's project config"),
    ("gemini", "run_shell_command", {"command": "cp /tmp/x.json .gemini/settings.json"}, "Gemini CLI's settings"),
    ("gemini", "run_shell_command", {"command": "export XDG_CONFIG_HOME=/tmp/x"}, "XDG_CONFIG_HOME"),
    ("gemini", "run_shell_command", {"command": "find ~ -name '*.json' -delete"}, "could delete or change"),
    ("gemini", "run_shell_command", {"command": "cd ~ && rm -rf .config"}, "boundread's user config"),
    ("copilot", "create", {"path": ".github/hooks/hooks.json", "file_text": "{}"}, "Copilot's hooks"),
    ("copilot", "bash", {"command": "rm .claude/settings.json"}, "Claude Code's settings"),
    ("cursor", "Write", {"file_path": ".cursor/hooks.json", "contents": "{}"}, "Cursor's hooks"),
    ("cline", "write_to_file", {"path": ".boundread.toml", "content": "[guard]\n"}, "boundread's project config"),
    ("cline", "execute_command", {"command": "unset XDG_STATE_HOME; claude -p go"}, "XDG_STATE_HOME"),
    # the clients of issue 21: Qwen Code's settings and trust, opencode's plugin, Claude Code's plugin
    ("claude", "Write", {"file_path": ".qwen/settings.json", "content": "{}"}, "Qwen Code's settings"),
    ("claude", "Bash", {"command": "echo '{}' > ~/.qwen/trustedFolders.json"}, "Qwen Code's settings"),
    ("claude", "Bash", {"command": "rm .opencode/plugin/boundread.js"}, "opencode's plugins"),
    ("claude", "Write", {"file_path": ".opencode/plugin/boundread.js", "content": "export default {}"},
     "opencode's plugins"),
    ("claude", "Bash", {"command": "rm -rf ~/.claude/plugins"}, "Claude Code's plugins"),
    ("claude", "Write", {"file_path": "~/.claude/plugins/cache/boundread/boundread/0.1.0/hooks/hooks.json",
                         "content": "{}"}, "Claude Code's plugins"),
    ("claude", "Bash", {"command": "claude plugin disable boundread@boundread"}, "the boundread plugin off"),
    ("claude", "Bash", {"command": "claude plugin  uninstall 'boundread@boundread' --scope user"},
     "the boundread plugin off"),
    ("claude", "Bash", {"command": "claude plugin marketplace remove boundread"}, "the boundread plugin off"),
]


@pytest.mark.parametrize(("agent", "tool", "tool_input", "named"), REFUSED,
                         ids=[f"{agent}-{tool}-{index}" for index, (agent, tool, _, _) in enumerate(REFUSED)])
def test_a_change_of_the_guards_ground_is_refused_with_the_reason(agent: str, tool: str, tool_input: dict[str, Any],
                                                                  named: str, work: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    why = _check(agent, tool, tool_input, work, capsys)
    assert named in why and ACTION in why, why


def test_the_state_folder_and_ledger_are_protected(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = Path(os.environ["BOUNDREAD_STATE_DIR"])
    state.mkdir(parents=True)
    (state / "budget.sqlite3").write_bytes(b"")
    why = _check("claude", "Write", {"file_path": str(state / "budget.sqlite3"), "content": ""}, work, capsys)
    assert "boundread's state folder" in why
    assert "boundread's state folder" in _check("claude", "Bash", {"command": f"rm -rf {state}"}, work, capsys)


def test_a_link_into_the_hook_settings_is_followed(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "notes.json").symlink_to(work / ".claude" / "settings.json")
    why = _check("claude", "Write", {"file_path": "notes.json", "content": "{}"}, work, capsys)
    assert "Claude Code's settings" in why


ALLOWED = [
    ("claude", "Read", {"file_path": ".claude/settings.json"}),
    ("claude", "Bash", {"command": "cat .claude/settings.json"}),
    ("claude", "Bash", {"command": "git diff .claude/settings.json"}),
    ("claude", "Bash", {"command": "rm -rf build dist && ls"}),
    ("claude", "Bash", {"command": "cp src/app.py src/app2.py"}),
    ("claude", "Bash", {"command": "boundread init --agent claude --dry-run"}),
    ("claude", "Write", {"file_path": "src/app.py", "content": "# see .claude/settings.json\n"}),
    ("claude", "Edit", {"file_path": "pyproject.toml", "old_string": 'name = "app"', "new_string": 'name = "app2"'}),
    ("codex", "apply_patch", {"command": "*** Begin Patch\n*** Update File: src/app.py\n@@\n-print('hi')\n"
                                         "+print('ho')\n*** End Patch"}),
    ("codex", "apply_patch", {"command": "*** Begin Patch\n*** Update File: pyproject.toml\n@@\n [project]\n"
                                         "-name = \"app\"\n+name = \"app2\"\n*** End Patch"}),
    ("gemini", "write_file", {"file_path": "src/settings.py", "content": "X = 1\n"}),
    ("gemini", "run_shell_command", {"command": "echo $XDG_CONFIG_HOME"}),
    ("gemini", "run_shell_command", {"command": "find ~ -name '*.pyc' -delete"}),
    ("gemini", "run_shell_command", {"command": "cp src/app.py ~/ && tar czf /tmp/a.tgz src && tar xzf /tmp/a.tgz"}),
    ("copilot", "edit", {"path": "src/app.py", "old_str": "hi", "new_str": "ho"}),
    ("cline", "write_to_file", {"path": "src/hooks.json", "content": "{}"}),
    ("claude", "Bash", {"command": "claude plugin list && claude plugin install other@market"}),
    ("claude", "Read", {"file_path": ".opencode/plugin/boundread.js"}),
    ("claude", "Write", {"file_path": "src/plugin/app.js", "content": "x"}),
]


@pytest.mark.parametrize(("agent", "tool", "tool_input"), ALLOWED,
                         ids=[f"{agent}-{tool}-{index}" for index, (agent, tool, _) in enumerate(ALLOWED)])
def test_reading_the_ground_and_everyday_work_stay_allowed(agent: str, tool: str, tool_input: dict[str, Any],
                                                           work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _check(agent, tool, tool_input, work, capsys) == ""


@pytest.mark.parametrize("command", ["git status", "rm -rf build", "echo x > .claude/settings.json"])
def test_the_check_imports_nothing_slow(command: str, tmp_path: Path) -> None:
    """On the hook path (tests/hook/test_speed.py): an allowed command passes the check, and a suspect one
    is judged, with the standard library's light modules only (in a project without a config file: reading TOML
    loads re)."""
    import subprocess
    import sys

    from tests.hook.test_speed import CONSOLE, SLOW
    from tests.hookproject import guard_env

    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text("{}")
    payload = _payload("claude", "Bash", {"command": command}, tmp_path)
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", CONSOLE], input=json.dumps(payload), cwd=tmp_path,
                          capture_output=True, text=True, env={**guard_env(), "HOME": os.environ["HOME"]},
                          timeout=60, check=True)
    names = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "boundread.hook.ground" in names and not names & SLOW, sorted(names & SLOW)
    assert ("deny" in done.stdout) == (".claude" in command)
