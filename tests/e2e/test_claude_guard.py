"""The guard inside the real Claude Code: what the model sees when it reads a big file."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

import pytest

from tests.e2e import claude
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, Turn
from tests.e2e.files import project_files


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    project_files(workspace.project)
    done = workspace.boundread("init")
    workspace.deny_mode()
    assert done.returncode == 0, done.stderr
    return workspace


def test_read_of_a_pdf_is_refused_and_the_suggested_command_works(project: Workspace) -> None:
    pdf = str(project.project / "report.pdf")
    with claude.fake_model() as model:
        model.script(
            Turn(calls=(Call("Read", {"file_path": pdf}),)),
            Turn(calls=(Call("Bash", {"command": "boundread pages report.pdf 1-2", "description": "slice"}),)),
            Turn(text="The report covers two sections."),
        )
        run = claude.run(project, model, "Summarise report.pdf")
        refused, extracted = claude.results(model)
    assert run.result["result"] == "The report covers two sections."
    # Claude Code prefixes a deny with "PreToolUse:Read hook error:"; the reason itself says it is none.
    assert "Not an error: boundread refused this on purpose" in refused
    assert "boundread pages report.pdf 1-5" in refused
    assert "12 pages" in refused
    assert "wrote " in extracted and "pages 1-2 of 12" in extracted
    assert (project.out / "report.pdf.pages-1-2.txt").is_file()


def test_a_bounded_read_of_a_pdf_passes(project: Workspace) -> None:
    pdf = str(project.project / "report.pdf")
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Read", {"file_path": pdf, "pages": "1-2"}),)), Turn(text="ok"))
        claude.run(project, model, "Read two pages")
        exchanges = model.loop()
    (result,) = [b for e in exchanges for b in claude.tool_results(e.body)]
    # The guard let it through: whatever the client made of it (page images, or its own note that
    # pdftoppm is missing), no hook spoke.
    assert "boundread" not in json.dumps(result)
    assert "hook" not in json.dumps(result).lower()


@pytest.mark.parametrize("command", [
    "cat report.pdf",
    "cat huge.log",
    "head -c 100000000 huge.log",
    "cat huge.log | head -c 100000000",
    "sed -n '1,100000000p' huge.log",
    "awk 1 huge.log",
    "head -n 100000000 huge.log",  # a bound, but far over the caps: no bound at all
    "tail -c 2000000000 huge.log",
    "dd if=huge.log",
    "dd if=report.pdf",
])
def test_shell_dumps_are_refused_with_the_bounded_command(project: Workspace, command: str) -> None:
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Bash", {"command": command, "description": "read"}),)), Turn(text="ok"))
        claude.run(project, model, "Read the file")
        (answer,) = claude.results(model)
    assert "boundread" in answer
    assert "2026-11-29T08:00:00Z INFO" not in answer  # not one line of the log got through
    assert "%PDF-1." not in answer


def test_a_ranged_read_of_a_huge_log_passes(project: Workspace) -> None:
    log = str(project.project / "huge.log")
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Read", {"file_path": log, "offset": 1, "limit": 50}),)), Turn(text="ok"))
        claude.run(project, model, "Read the start of the log")
        (answer,) = claude.results(model)
    assert "request 00000001 served" in answer
    assert "request 00000051 " not in answer


def _memo_docx(folder: Path) -> None:
    import docx

    document = docx.Document()
    document.add_paragraph("Quarterly memo. " * 200)
    document.save(str(folder / "memo.docx"))


def _logs_tar_gz(folder: Path) -> None:
    with tarfile.open(folder / "logs.tar.gz", "w:gz") as archive:
        archive.add(folder / "server.log", arcname="server.log")


@pytest.mark.parametrize(("name", "advice"), [
    ("prices.xlsx", "boundread sheets prices.xlsx"),
    ("catalogue.zip", "boundread list-zip catalogue.zip"),
    ("memo.docx", "boundread info memo.docx"),
    ("logs.tar.gz", "boundread list-zip logs.tar.gz"),
])
def test_a_read_claude_code_refuses_by_itself_still_gets_the_commands(project: Workspace, name: str,
                                                                      advice: str) -> None:
    """Claude Code refuses Read of Office files and archives before PreToolUse runs; PostToolBatch answers it."""
    _memo_docx(project.project)
    _logs_tar_gz(project.project)
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Read", {"file_path": str(project.project / name)}),)), Turn(text="ok"))
        claude.run(project, model, f"Read {name}")
        (refusal,) = claude.results(model)
        after = json.dumps(model.loop()[-1].body.get("messages"))
    assert "cannot read binary files" in refusal, "the client's own refusal, not our hook's"
    assert advice in after, "the next request carries boundread's commands for that file"
