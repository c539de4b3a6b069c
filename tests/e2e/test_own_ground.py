"""The guard protects its own ground inside the real clients (issue 19 part 4): the model tries to switch the guard
off through the client's own tools - its hook settings, ``disableAllHooks``, a project config that allows
everything - and each attempt is refused with the reason, the files stay as the user left them, and the next whole
read of a PDF is still refused. A file tool reaches the guard where its pre-tool hook is registered for it: plain
``init`` registers it for the read, shell, file-writing and MCP tools (``install.PRE_MATCHERS``), ``init --budget``
for every tool."""

from __future__ import annotations

import json

from tests.e2e import claude, codex, gemini
from tests.e2e.conftest import Workspace, client
from tests.e2e.fakemodel.server import Call, Turn
from tests.e2e.files import project_files

REFUSED = "may not change the guard that watches it"
LOOSE = "printf '[guard]\\nallow = [\"**\"]\\n' > .boundread.toml"


def _files(workspace: Workspace, *names: str) -> dict[str, str]:
    return {name: (workspace.project / name).read_text(encoding="utf-8") for name in names}


def test_claude_code_cannot_switch_its_guard_off(workspace: Workspace) -> None:
    """(Claude Code asks the user itself before its Write tool changes .claude/settings.json: the shell is the way
    around that, and the guard's check.)"""
    project_files(workspace.project)
    assert workspace.boundread("init").returncode == 0  # the pre-tool hook on the file-writing tools too
    workspace.deny_mode()
    before = _files(workspace, ".claude/settings.json", ".boundread.toml")
    with claude.fake_model() as model:
        model.script(
            Turn(calls=(Call("Write", {"file_path": str(workspace.project / ".boundread.toml"),
                                       "content": '[guard]\nallow = ["**"]\n'}),)),
            Turn(calls=(Call("Bash", {"command": "echo '{\"disableAllHooks\": true}' > .claude/settings.json",
                                      "description": "hooks"}),)),
            Turn(calls=(Call("Read", {"file_path": str(workspace.project / "report.pdf")}),)),
            Turn(text="Done."),
        )
        exe = client("claude", claude.PACKAGE)
        process = workspace.run([str(exe), "-p", "Go", "--allowedTools", "Read,Bash,Write", "--output-format",
                                 "json"], ANTHROPIC_BASE_URL=model.url, ANTHROPIC_API_KEY="sk-ant-e2e-fake")
        assert process.returncode == 0, process.stderr[-2000:]
        write, bash, read = claude.results(model)
    assert REFUSED in write and "boundread's project config" in write, write
    assert REFUSED in bash and "Claude Code's settings" in bash, bash
    assert "boundread pages report.pdf 1-5" in read, read
    assert _files(workspace, ".claude/settings.json", ".boundread.toml") == before


def test_gemini_cli_cannot_switch_its_guard_off(workspace: Workspace) -> None:
    project_files(workspace.project)
    assert workspace.boundread("init", "--agent", "gemini").returncode == 0  # write_file too
    workspace.deny_mode()
    before = _files(workspace, ".gemini/settings.json", ".boundread.toml")
    with gemini.fake_model() as model:
        model.script(
            Turn(calls=(Call("write_file", {"file_path": str(workspace.project / ".gemini" / "settings.json"),
                                            "content": "{}"}),)),
            Turn(calls=(Call("run_shell_command", {"command": LOOSE, "description": "config"}),)),
            Turn(calls=(Call("read_file", {"file_path": str(workspace.project / "report.pdf")}),)),
            Turn(text="Done."),
        )
        gemini.run(workspace, model, "Go")
        write, shell, read = gemini.results(model)
    assert REFUSED in write and "Gemini CLI's settings" in write, write
    assert REFUSED in shell and "boundread's project config" in shell, shell
    assert "boundread pages report.pdf 1-5" in read, read
    assert _files(workspace, ".gemini/settings.json", ".boundread.toml") == before


def test_codex_cannot_switch_its_guard_off(workspace: Workspace) -> None:
    project_files(workspace.project)
    assert workspace.boundread("init", "--agent", "codex").returncode == 0
    workspace.deny_mode()
    codex.trust_project(workspace)
    codex.trust_hooks(workspace)
    before = _files(workspace, ".codex/hooks.json", ".boundread.toml")
    with codex.fake_model() as model:
        model.script(Turn(calls=(codex.shell("echo '{}' > .codex/hooks.json"),)),
                     Turn(calls=(codex.shell(f"export BOUNDREAD_STATE_DIR=/tmp/x; {LOOSE}"),)),
                     Turn(calls=(codex.shell("cat report.pdf"),)), Turn(text="Done."))
        codex.run(workspace, model, "Go")
        hooks, config, pdf = codex.results(model)
    assert REFUSED in hooks and "Codex's hook settings" in hooks, hooks
    assert REFUSED in config and "BOUNDREAD_STATE_DIR" in config, config
    assert "boundread pages report.pdf 1-5" in pdf, pdf
    assert _files(workspace, ".codex/hooks.json", ".boundread.toml") == before
    assert json.loads(before[".codex/hooks.json"])["hooks"]  # the hook the user set up is still there
