"""The guard inside the real Codex CLI, set up as a user does: ``boundread init --agent codex``, then trust.

Codex runs a project hook only when the project folder is trusted and the hook itself is trusted (its
hash recorded by ``/hooks``); otherwise it runs the command as if no hook were there. The first tests pin
that down, the rest show what the model sees once the hook runs.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e import codex
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Turn
from tests.e2e.files import project_files

PDF_BYTES = "%PDF-1."  # the first bytes of report.pdf: the whole file reached the model
LOG_LINE = "2026-11-29T08:00:00Z INFO"  # every line of huge.log starts so


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    """The test files and ``boundread init --agent codex``, nothing trusted yet."""
    project_files(workspace.project)
    done = workspace.boundread("init", "--agent", "codex")
    workspace.deny_mode()
    assert done.returncode == 0, done.stderr
    assert (workspace.project / ".codex" / "hooks.json").is_file()
    return workspace


@pytest.fixture
def trusted(project: Workspace) -> Workspace:
    """The project trusted (as ``codex exec --trust`` records it) and its hook trusted (as ``/hooks`` does)."""
    codex.trust_project(project)
    hooks = codex.trust_hooks(project)
    assert sorted(hook["eventName"] for hook in hooks) == ["postToolUse", "preToolUse"]  # the guard and its backstop
    for hook in hooks:
        assert hook["command"].endswith("--agent codex") and "guard-check" in hook["command"]
        assert hook["trustStatus"] == "untrusted"  # before: what /hooks showed
    return project


def said(workspace: Workspace, run: codex.CodexRun) -> str:
    """What Codex told the user (stderr), the test's own paths left out: their names say "hook" too."""
    return run.process.stderr.replace(str(workspace.root), "<tmp>").lower()


def cat_pdf(workspace: Workspace, *args: str) -> tuple[codex.CodexRun, list[str]]:
    with codex.fake_model() as model:
        model.script(Turn(calls=(codex.shell("cat report.pdf"),)), Turn(text="ok"))
        run = codex.run(workspace, model, "Read report.pdf", *args)
        return run, codex.results(model)


def test_the_shell_tool_takes_a_command_line_string(project: Workspace) -> None:
    """Codex 0.171 offers one shell tool, exec_command {"cmd": str}: no argv-list shape (``shell`` with
    ``command: [...]``, ``local_shell``) is offered, so the guard meets only strings from Codex."""
    with codex.fake_model() as model:
        model.script(Turn(text="ok"))
        codex.run(project, model, "Hello")
        (request,) = model.loop()
    tools = {tool.get("name"): tool for tool in request.body["tools"]}
    assert codex.SHELL in tools
    assert tools[codex.SHELL]["parameters"]["properties"]["cmd"]["type"] == "string"
    assert tools[codex.SHELL]["parameters"]["required"] == ["cmd"]
    assert not {"shell", "shell_command", "local_shell", "container.exec"} & set(tools)


# Trust -----------------------------------------------------------------------------------------------
def test_an_untrusted_project_runs_cat_on_the_whole_pdf(project: Workspace) -> None:
    """The issue as reported: the project's .codex/ is not loaded; the one warning is about project config."""
    run, (answer,) = cat_pdf(project)
    assert PDF_BYTES in answer
    assert "boundread" not in answer
    assert "Untrusted project-local configuration is disabled" in run.process.stderr
    assert "codex exec --trust" in run.process.stderr
    assert "hook" not in said(project, run)


def test_a_trusted_project_skips_an_unreviewed_hook_without_a_word(project: Workspace) -> None:
    """``codex exec --trust`` trusts the folder, not the hook: cat runs, and nothing says why."""
    run, (answer,) = cat_pdf(project, "--trust")
    assert PDF_BYTES in answer
    assert "hook" not in said(project, run)
    assert f'[projects."{project.project}"]\ntrust_level = "trusted"' in codex.config_file(project).read_text()


def test_bypassing_hook_trust_does_not_load_an_untrusted_project(project: Workspace) -> None:
    run, (answer,) = cat_pdf(project, "--dangerously-bypass-hook-trust")
    assert PDF_BYTES in answer
    assert "--dangerously-bypass-hook-trust` is enabled" in run.process.stderr


def test_bypassing_hook_trust_in_a_trusted_project_runs_the_hook(project: Workspace) -> None:
    codex.trust_project(project)
    run, (answer,) = cat_pdf(project, "--dangerously-bypass-hook-trust")
    assert answer.startswith("Command blocked by PreToolUse hook: ")
    assert "hook: PreToolUse Blocked" in run.process.stderr


def test_the_trust_hash_is_what_codex_computes(project: Workspace) -> None:
    """What ``boundread doctor`` can check with no Codex: the key and hash ``/hooks`` records."""
    codex.trust_project(project)
    settings = json.loads((project.project / ".codex" / "hooks.json").read_text(encoding="utf-8"))
    (group,) = settings["hooks"]["PreToolUse"]
    (handler,) = group["hooks"]
    (hook,) = [h for h in codex.trust_hooks(project) if h["eventName"] == "preToolUse"]  # and the backstop's
    key = f"{project.project / '.codex' / 'hooks.json'}:pre_tool_use:0:0"
    assert hook["key"] == key
    assert hook["currentHash"] == codex.hook_hash("pre_tool_use", group["matcher"], handler)
    config = codex.config_file(project).read_text(encoding="utf-8")
    assert f'[hooks.state."{key}"]\ntrusted_hash = "{hook["currentHash"]}"' in config


def test_a_trust_written_by_hand_runs_the_hook(project: Workspace) -> None:
    """The same two entries, written without Codex: what ``boundread init`` could offer to do."""
    settings = json.loads((project.project / ".codex" / "hooks.json").read_text(encoding="utf-8"))
    (group,) = settings["hooks"]["PreToolUse"]
    key = f"{project.project / '.codex' / 'hooks.json'}:pre_tool_use:0:0"
    digest = codex.hook_hash("pre_tool_use", group["matcher"], group["hooks"][0])
    codex.trust_project(project)
    with codex.config_file(project).open("a", encoding="utf-8") as config:
        config.write(f'\n[hooks.state.{json.dumps(key)}]\ntrusted_hash = "{digest}"\n')
    _, (answer,) = cat_pdf(project)
    assert answer.startswith("Command blocked by PreToolUse hook: ")


def test_a_changed_hook_is_skipped_again(trusted: Workspace) -> None:
    """Trust is for the hook as it was: another timeout is another hash, and the hook silently stops."""
    path = trusted.project / ".codex" / "hooks.json"
    path.write_text(path.read_text(encoding="utf-8").replace('"timeout": 10', '"timeout": 11'), encoding="utf-8")
    run, (answer,) = cat_pdf(trusted)
    assert PDF_BYTES in answer
    assert "hook" not in said(trusted, run)


# What the model sees ---------------------------------------------------------------------------------
def test_cat_of_a_pdf_is_refused_and_the_suggested_command_works(trusted: Workspace) -> None:
    with codex.fake_model() as model:
        model.script(
            Turn(calls=(codex.shell("cat report.pdf"),)),
            Turn(calls=(codex.shell("boundread pages report.pdf 1-2"),)),
            Turn(text="The report covers two sections."),
        )
        run = codex.run(trusted, model, "Summarise report.pdf")
        refused, extracted = codex.results(model)
    assert run.last_message == "The report covers two sections."
    assert refused.startswith("Command blocked by PreToolUse hook: ")
    assert "boundread pages report.pdf 1-5" in refused
    assert "12 pages" in refused
    assert refused.endswith("Command: cat report.pdf")
    assert PDF_BYTES not in refused
    assert "wrote " in extracted and "pages 1-2 of 12" in extracted
    assert (trusted.out / "report.pdf.pages-1-2.txt").is_file()


@pytest.mark.parametrize("command", [
    "cat huge.log",
    "head -c 100000000 huge.log",  # refused once the guard counts head -c bytes
    "cat huge.log | head -c 100000000",
    "sed -n '1,100000000p' huge.log",
    "awk 1 huge.log",
    "head -n 100000000 huge.log",  # a bound, but far over the caps: no bound at all
    "tail -c 2000000000 huge.log",
    "dd if=huge.log",
    "dd if=report.pdf",
])
def test_shell_dumps_of_a_huge_log_are_refused(trusted: Workspace, command: str) -> None:
    with codex.fake_model() as model:
        model.script(Turn(calls=(codex.shell(command),)), Turn(text="ok"))
        codex.run(trusted, model, "Read the log")
        (answer,) = codex.results(model)
    assert answer.startswith("Command blocked by PreToolUse hook: ")
    assert "boundread" in answer
    assert LOG_LINE not in answer  # not one line of the log got through
    assert PDF_BYTES not in answer


def test_a_bounded_head_of_a_huge_log_passes(trusted: Workspace) -> None:
    with codex.fake_model() as model:
        model.script(Turn(calls=(codex.shell("head -n 20 huge.log"),)), Turn(text="ok"))
        run = codex.run(trusted, model, "Read the start of the log")
        (answer,) = codex.results(model)
    assert "hook: PreToolUse Completed" in run.process.stderr  # the hook ran, and let it through
    assert "Command blocked" not in answer
    assert "request 00000001 served" in answer
    assert "request 00000020 served" in answer
    assert "request 00000021 " not in answer
