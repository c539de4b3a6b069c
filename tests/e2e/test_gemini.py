"""The guard inside the real Gemini CLI, registered as a user would: ``boundread init --agent gemini``.

What is asserted is what reached the model: the functionResponse parts Gemini CLI sent back.
"""

from __future__ import annotations

import pytest

from tests.e2e import gemini
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, Turn
from tests.e2e.files import project_files

LOG_LINE = "2026-11-29T08:00:00Z INFO"


def request(n: int) -> str:
    return f"request {n:08d} served"


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    project_files(workspace.project)
    done = workspace.boundread("init", "--agent", "gemini")
    workspace.deny_mode()
    assert done.returncode == 0, done.stderr
    assert "guard-check --mode redirect --agent gemini" in (workspace.project / ".gemini" / "settings.json").read_text()
    return workspace


def test_read_of_a_pdf_is_refused_and_the_suggested_command_works(project: Workspace) -> None:
    pdf = str(project.project / "report.pdf")
    with gemini.fake_model() as model:
        model.script(
            Turn(calls=(Call("read_file", {"file_path": pdf}),)),
            Turn(calls=(Call("run_shell_command", {"command": "boundread pages report.pdf 1-2",
                                                   "description": "Extract pages 1-2"}),)),
            Turn(text="The report covers two sections."),
        )
        run = gemini.run(project, model, "Summarise report.pdf")
        refused, extracted = gemini.results(model)
    assert run.response == "The report covers two sections."
    assert "boundread pages report.pdf 1-5" in refused
    assert "12 pages" in refused
    assert "wrote " in extracted and "pages 1-2 of 12" in extracted
    assert (project.out / "report.pdf.pages-1-2.txt").is_file()


def test_the_default_auto_model_is_routed_by_a_side_request_and_still_guarded(project: Workspace) -> None:
    pdf = str(project.project / "report.pdf")
    with gemini.fake_model() as model:
        model.script(Turn(calls=(Call("read_file", {"file_path": pdf}),)), Turn(text="ok"))
        run = gemini.run(project, model, "Summarise report.pdf", llm=None)
        (refused,) = gemini.results(model)
        side = gemini.side_requests(model)
    assert run.response == "ok"
    assert any(":generateContent" in path for path in side), side
    assert "boundread pages report.pdf 1-5" in refused


def test_whole_read_of_a_huge_log_is_refused_naming_geminis_range_parameters(project: Workspace) -> None:
    log = str(project.project / "huge.log")
    with gemini.fake_model() as model:
        model.script(Turn(calls=(Call("read_file", {"file_path": log}),)), Turn(text="ok"))
        gemini.run(project, model, "Read the log")
        (refused,) = gemini.results(model)
    assert "boundread" in refused
    assert LOG_LINE not in refused  # not one line of the log got through
    assert "start_line" in refused and "end_line" in refused
    assert "offset" not in refused and "offset/limit" not in refused  # Claude's names, not Gemini's


def test_a_ranged_read_of_a_huge_log_passes(project: Workspace) -> None:
    log = str(project.project / "huge.log")
    with gemini.fake_model() as model:
        model.script(Turn(calls=(Call("read_file", {"file_path": log, "start_line": 1, "end_line": 100}),)),
                     Turn(text="ok"))
        gemini.run(project, model, "Read the start of the log")
        (answer,) = gemini.results(model)
    assert "boundread" not in answer
    assert request(1) in answer and request(100) in answer
    assert request(101) not in answer


def test_shell_cat_of_a_huge_log_is_refused_and_head_passes(project: Workspace) -> None:
    with gemini.fake_model() as model:
        model.script(
            Turn(calls=(Call("run_shell_command", {"command": "cat huge.log", "description": "Show the log"}),)),
            Turn(calls=(Call("run_shell_command", {"command": "head -n 20 huge.log",
                                                   "description": "Show the start of the log"}),)),
            Turn(text="ok"),
        )
        gemini.run(project, model, "Read the log")
        refused, head = gemini.results(model)
    assert "boundread" in refused
    assert LOG_LINE not in refused
    assert "boundread" not in head
    assert request(1) in head and request(20) in head
    assert request(21) not in head


def test_shell_dumps_with_a_bound_over_the_caps_are_refused(project: Workspace) -> None:
    """`head -n 100000000` is bounded only in name; `dd if=F` has no bound at all (one session, two calls)."""
    with gemini.fake_model() as model:
        model.script(
            Turn(calls=(Call("run_shell_command", {"command": "head -n 100000000 huge.log",
                                                   "description": "Show the log"}),)),
            Turn(calls=(Call("run_shell_command", {"command": "dd if=report.pdf", "description": "Dump it"}),)),
            Turn(text="ok"),
        )
        gemini.run(project, model, "Read the files")
        log, pdf = gemini.results(model)
    assert "boundread" in log and LOG_LINE not in log
    assert "boundread pages report.pdf 1-5" in pdf and "%PDF-1." not in pdf
