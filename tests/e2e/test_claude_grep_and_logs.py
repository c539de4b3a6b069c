"""Inside the real Claude Code: a grep of a common word in a big log, and a log with no bound (issue 19).

Deny mode: the model gets the reason, with the bounded grep to run; redirect mode: the first tool result is the
bounded grep's output itself, under 30,000 characters where the grep would have printed 5.7 MB.
"""

from __future__ import annotations

import pytest

from tests.e2e import claude
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, Turn
from tests.e2e.files import project_files


def _prepare(workspace: Workspace, mode: str) -> Workspace:
    project_files(workspace.project)
    done = workspace.boundread("init")
    assert done.returncode == 0, done.stderr
    (workspace.project / ".boundread.toml").write_text(f'[guard]\nmode = "{mode}"\n', encoding="utf-8")
    return workspace


def _first_result(workspace: Workspace, command: str) -> str:
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Bash", {"command": command, "description": "search"}),)), Turn(text="ok"))
        claude.run(workspace, model, "Search the log")
        (result,) = claude.results(model)
    return result


def test_a_common_grep_is_refused_with_the_bounded_grep(workspace: Workspace) -> None:
    result = _first_result(_prepare(workspace, "deny"), "grep served huge.log")
    assert "Not an error: boundread refused this on purpose" in result
    assert "boundread extract huge.log --grep served --max-matches 200 --max-chars 20000 --stdout" in result


def test_a_rare_grep_runs(workspace: Workspace) -> None:
    result = _first_result(_prepare(workspace, "deny"), "grep 'request 00004242 ' huge.log")
    assert "request 00004242 served" in result and "boundread" not in result


def test_redirect_runs_the_bounded_grep_in_the_same_call(workspace: Workspace) -> None:
    result = _first_result(_prepare(workspace, "redirect"), "grep served huge.log")
    assert "request 00000001 served" in result
    assert len(result) < 30_000


@pytest.mark.parametrize("command", ["docker logs web", "journalctl --no-pager"])
def test_a_log_with_no_bound_is_refused_with_its_bound(workspace: Workspace, command: str) -> None:
    result = _first_result(_prepare(workspace, "deny"), command)
    assert "Not an error: boundread refused this on purpose" in result
    assert "--tail 200" in result or "-n 200" in result
