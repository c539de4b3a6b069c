"""Inside the real Claude Code: a converter's print of a workbook is refused with the bounded reader, a field of a
big log counted with uniq -c runs, and a member of an archive read back after unzip -d is judged (issue 19 parts 2
and 5).
"""

from __future__ import annotations

from tests.e2e import claude
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, Turn
from tests.e2e.files import project_files


def _first_result(workspace: Workspace, command: str) -> str:
    project_files(workspace.project)
    done = workspace.boundread("init")
    assert done.returncode == 0, done.stderr
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Bash", {"command": command, "description": "look"}),)), Turn(text="ok"))
        claude.run(workspace, model, "Look at the data")
        (result,) = claude.results(model)
    return result


def test_a_converter_of_a_workbook_is_refused_with_the_sheets_command(workspace: Workspace) -> None:
    result = _first_result(workspace, "xlsx2csv prices.xlsx | cat")
    assert "Not an error: boundread refused this on purpose" in result
    assert "`xlsx2csv` would print prices.xlsx" in result and "boundread sheets prices.xlsx" in result


def test_a_column_counted_with_uniq_runs(workspace: Workspace) -> None:
    result = _first_result(workspace, "awk '{print $3}' huge.log | sort | uniq -c")
    assert "worker-0" in result and "worker-3" in result and "boundread" not in result
    assert len(result) < 1_000


def test_a_pdf_converted_to_a_file_and_read_back_is_refused(workspace: Workspace) -> None:
    result = _first_result(workspace, "pdftotext report.pdf /tmp/r.txt; cat /tmp/r.txt")
    assert "Not an error: boundread refused this on purpose" in result
    assert "`pdftotext` would print report.pdf" in result and "boundread pages report.pdf" in result
