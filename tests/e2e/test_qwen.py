"""The guard inside the real Qwen Code 0.24.4, registered as a user would: ``boundread init --agent qwen``.

What is asserted is what reached the model: the tool messages Qwen Code sent back to the fake Chat Completions
server. Qwen Code is deny-only (agents/qwen.py): a rewrite in a PreToolUse answer is ignored, which the last
tests pin down so that a Qwen that starts honouring one is noticed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e import qwen
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, Turn
from tests.e2e.files import project_files

PAGES = 100


def big_pdf(path: Path, pages: int = PAGES) -> Path:
    """A PDF of ``pages`` pages, each with its sentinel ``PAGE-N.`` and a paragraph of text."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("helvetica", size=11)
    for number in range(1, pages + 1):
        pdf.add_page()
        pdf.multi_cell(0, 5, text=f"PAGE-{number}. " + "Quarterly figures and their commentary. " * 40)
    pdf.output(str(path))
    return path


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    project_files(workspace.project)
    big_pdf(workspace.project / "big.pdf")
    done = workspace.boundread("init", "--agent", "qwen")
    assert done.returncode == 0, done.stderr
    assert "guard-check --agent qwen" in (workspace.project / ".qwen" / "settings.json").read_text(encoding="utf-8")
    return workspace


def test_a_whole_read_of_a_100_page_pdf_is_denied_and_the_model_gets_the_reason(project: Workspace) -> None:
    pdf = str(project.project / "big.pdf")
    with qwen.fake_model() as model:
        model.script(
            Turn(calls=(Call("read_file", {"file_path": pdf}),)),
            Turn(calls=(Call("run_shell_command", {"command": "boundread pages big.pdf 1-5",
                                                   "description": "Extract pages 1-5"}),)),
            Turn(text="The report opens with quarterly figures."),
        )
        run = qwen.run(project, model, "Summarise big.pdf")
        refused, extracted = qwen.results(model)
    assert run.response == "The report opens with quarterly figures."
    assert "boundread pages big.pdf 1-5" in refused and f"{PAGES} pages" in refused
    assert "PAGE-1." not in refused
    assert "wrote " in extracted and f"pages 1-5 of {PAGES}" in extracted


def test_cat_of_the_pdf_is_denied(project: Workspace) -> None:
    with qwen.fake_model() as model:
        model.script(Turn(calls=(Call("run_shell_command", {"command": "cat big.pdf", "description": "Show"}),)),
                     Turn(text="ok"))
        qwen.run(project, model, "Show big.pdf")
        (refused,) = qwen.results(model)
    assert "boundread pages big.pdf" in refused and "%PDF-1." not in refused


def test_the_guard_stays_silent_for_a_small_file(project: Workspace) -> None:
    small = project.project / "notes.txt"
    small.write_text("SMALL-SENTINEL\n", encoding="utf-8")
    with qwen.fake_model() as model:
        model.script(Turn(calls=(Call("read_file", {"file_path": str(small)}),)),
                     Turn(calls=(Call("run_shell_command", {"command": "head -n 3 huge.log", "description": "x"}),)),
                     Turn(text="ok"))
        qwen.run(project, model, "Read the notes")
        read, head = qwen.results(model)
    assert "SMALL-SENTINEL" in read and "boundread" not in read
    assert "request 00000001 served" in head and "boundread" not in head


@pytest.mark.parametrize("mode", ["yolo", "default", "auto-edit"])
def test_qwen_ignores_a_rewrite_so_boundread_gives_it_deny_only(workspace: Workspace, mode: str) -> None:
    """A hand-written hook answers with Claude Code's ``updatedInput`` pointing read_file at another file: Qwen
    Code runs the original call in every approval mode (hence REDIRECT = False in agents/qwen.py)."""
    (workspace.project / "asked.txt").write_text("ASKED-FILE\n", encoding="utf-8")
    (workspace.project / "other.txt").write_text("REWRITTEN-FILE\n", encoding="utf-8")
    answer = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                     "updatedInput": {"file_path": str(workspace.project / "other.txt")}}}
    (workspace.root / "answer.json").write_text(json.dumps(answer), encoding="utf-8")
    hook = {"type": "command", "command": f"cat > /dev/null; cat {workspace.root / 'answer.json'}"}
    settings = workspace.project / ".qwen" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "read_file", "hooks": [hook]}]}}),
                        encoding="utf-8")
    with qwen.fake_model() as model:
        model.script(Turn(calls=(Call("read_file", {"file_path": str(workspace.project / "asked.txt")}),)),
                     Turn(text="ok"))
        qwen.run(workspace, model, "Read asked.txt", mode=mode)
        (result,) = qwen.results(model)
    assert "ASKED-FILE" in result and "REWRITTEN-FILE" not in result


def test_a_payload_as_qwen_sends_it(workspace: Workspace) -> None:
    """The PreToolUse payload agents/qwen.py reads and agents.detect tells from Claude Code's."""
    (workspace.project / "a.txt").write_text("A\n", encoding="utf-8")
    captured = workspace.root / "payload.json"
    hook = {"type": "command", "command": f"cat > {captured}"}
    settings = workspace.project / ".qwen" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "", "hooks": [hook]}]}}), encoding="utf-8")
    with qwen.fake_model() as model:
        model.script(Turn(calls=(Call("read_file", {"file_path": str(workspace.project / "a.txt")}),)),
                     Turn(text="ok"))
        qwen.run(workspace, model, "Read a.txt")
    from boundread import agents

    payload = json.loads(captured.read_text(encoding="utf-8"))
    assert payload["hook_event_name"] == "PreToolUse" and payload["tool_name"] == "read_file"
    assert payload["tool_input"] == {"file_path": str(workspace.project / "a.txt")}
    assert agents.detect(payload) == "qwen"


def test_with_folder_trust_on_an_untrusted_project_runs_no_hook_until_init_trusts_it(project: Workspace) -> None:
    """What doctor's "trusted" check says (agents/qwen_trust.py), in the real client."""
    qwen.user_settings(project, security={"auth": {"selectedType": "openai"}, "folderTrust": {"enabled": True}})
    pdf = str(project.project / "big.pdf")

    def first_result() -> str:
        with qwen.fake_model() as model:
            model.script(Turn(calls=(Call("read_file", {"file_path": pdf}),)), Turn(text="ok"))
            qwen.run(project, model, "Read big.pdf")
            return qwen.results(model)[0]

    assert "boundread" not in first_result()  # the project's hook did not run
    assert json.loads(project.boundread("doctor", "--agent", "qwen", "--json").stdout)["agents"][0]["ready"] is False
    trusted = project.boundread("init", "--agent", "qwen", "--trust")
    assert trusted.returncode == 0, trusted.stderr
    assert "boundread pages big.pdf" in first_result()
    assert json.loads(project.boundread("doctor", "--agent", "qwen", "--json").stdout)["agents"][0]["ready"] is True


def test_disable_all_hooks_in_the_users_settings_switches_the_guard_off_and_doctor_says_so(
        project: Workspace) -> None:
    qwen.user_settings(project, disableAllHooks=True)
    with qwen.fake_model() as model:
        model.script(Turn(calls=(Call("read_file", {"file_path": str(project.project / "big.pdf")}),)),
                     Turn(text="ok"))
        qwen.run(project, model, "Read big.pdf")
        (result,) = qwen.results(model)
    assert "boundread" not in result
    report = json.loads(project.boundread("doctor", "--agent", "qwen", "--json").stdout)["agents"][0]
    assert report["ready"] is False
    assert any(check["name"] == "hooks enabled" and check["ok"] is False for check in report["checks"])


def test_the_users_hook_guards_every_project(workspace: Workspace) -> None:
    """`init --agent qwen --user` merges the hook into ~/.qwen/settings.json beside the user's own settings."""
    qwen.user_settings(workspace)
    big_pdf(workspace.project / "big.pdf")
    done = workspace.boundread("init", "--agent", "qwen", "--user")
    assert done.returncode == 0, done.stderr
    settings = json.loads((workspace.home / ".qwen" / "settings.json").read_text(encoding="utf-8"))
    assert settings["security"]["auth"]["selectedType"] == "openai" and "PreToolUse" in settings["hooks"]
    with qwen.fake_model() as model:
        model.script(Turn(calls=(Call("read_file", {"file_path": str(workspace.project / "big.pdf")}),)),
                     Turn(text="ok"))
        qwen.run(workspace, model, "Read big.pdf")
        (refused,) = qwen.results(model)
    assert "boundread pages big.pdf" in refused
