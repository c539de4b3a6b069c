"""A runaway inside the real Gemini CLI ends at the cap (issue 18).

Gemini CLI takes ``continue: false`` from AfterTool (after a call) and BeforeTool (a budget deny) and stops its
agent loop; a capped session's new prompt is refused at BeforeAgent. The scripted model never gives up on its
own; the server counts what was spent.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e import gemini
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, FakeModel, Turn

TURNS = 40


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    done = workspace.boundread("init", "--agent", "gemini", "--budget")
    assert done.returncode == 0, done.stderr
    gemini.user_settings(workspace)
    return workspace


def shell(command: str) -> Call:
    return Call("run_shell_command", {"command": command, "description": command})


def runaway(model: FakeModel) -> None:
    model.script(*(Turn(calls=(shell(f"echo step {n}"),)) for n in range(TURNS)))


def cap(workspace: Workspace, *args: str) -> None:
    done = workspace.boundread("budget", "set", "--project", *args)
    assert done.returncode == 0, done.stderr


def test_without_a_cap_the_runaway_runs_all_its_turns(project: Workspace) -> None:
    with gemini.fake_model() as model:
        runaway(model)
        gemini.run(project, model, "Keep going")
        assert len(model.loop("")) == TURNS + 1


def test_a_token_cap_ends_the_session_before_the_request_that_would_cross_it(project: Workspace) -> None:
    cap(project, "--max-tokens", "1000")
    with gemini.fake_model() as model:
        runaway(model)
        run = gemini.run(project, model, "Keep going")
        requests, spent = len(model.loop("")), model.spent()
    assert (requests, spent) == (6, 900), run.process.stderr[-3000:]


def test_a_call_limit_ends_the_session_after_the_last_allowed_call(project: Workspace) -> None:
    cap(project, "--max-calls", "4")
    with gemini.fake_model() as model:
        runaway(model)
        run = gemini.run(project, model, "Keep going")
        requests = len(model.loop(""))
    assert requests == 4, run.process.stderr[-3000:]


def test_a_repeat_ends_the_session_at_the_refused_call(project: Workspace) -> None:
    cap(project, "--max-repeat", "3")
    with gemini.fake_model() as model:
        model.script(*(Turn(calls=(shell("echo same"),)) for _ in range(TURNS)))
        run = gemini.run(project, model, "Keep going")
        requests = len(model.loop(""))
    assert requests == 3, run.process.stderr[-3000:]


def test_a_new_prompt_in_a_capped_session_reaches_no_model(project: Workspace) -> None:
    cap(project, "--max-tokens", "1000")
    with gemini.fake_model() as model:
        runaway(model)
        first = gemini.run(project, model, "Keep going")
        model.log.clear()
        again = gemini.run(project, model, "Carry on", "--resume", first.session_id)
        requests = len(model.loop(None))
    assert requests == 0, again.process.stderr[-3000:]


def test_the_ledger_and_the_stop_agree(project: Workspace) -> None:
    cap(project, "--max-tokens", "1000")
    with gemini.fake_model() as model:
        runaway(model)
        run = gemini.run(project, model, "Keep going")
        spent = model.spent()
    done = project.boundread("budget", "status", "--json", "--session", run.session_id)
    (scope,) = json.loads(done.stdout)["scopes"]
    assert scope["spent"]["tokens"] == spent
