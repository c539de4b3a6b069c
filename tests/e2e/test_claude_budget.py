"""The budget inside the real Claude Code: what the ledger records is what the model server reported."""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.e2e import claude
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, Turn
from tests.e2e.files import project_files

SUBTASK = "SUBTASK-ALPHA"


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    project_files(workspace.project)
    done = workspace.boundread("init", "--budget")
    assert done.returncode == 0, done.stderr
    return workspace


def _spin(until: float) -> None:
    while time.time() < until:
        pass


@contextmanager
def load(busy: bool) -> Iterator[None]:
    """Both cores busy for the run (bounded: the spinners stop by themselves after 90 s)."""
    if not busy:
        yield
        return
    until = time.time() + 90
    spinners = [multiprocessing.Process(target=_spin, args=(until,), daemon=True) for _ in range(os.cpu_count() or 2)]
    for spinner in spinners:
        spinner.start()
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.terminate()
            spinner.join()


def _status(workspace: Workspace, *args: str) -> dict[str, object]:
    done = workspace.boundread("budget", "status", "--json", *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def _session_tokens(workspace: Workspace, session: str) -> int:
    (scope,) = _status(workspace, "--session", session)["scopes"]  # type: ignore[misc]
    return int(scope["spent"]["tokens"])


@pytest.mark.parametrize("busy", [False, True], ids=["idle", "under-load"])
def test_every_answer_is_counted_the_last_one_too(project: Workspace, busy: bool) -> None:
    with claude.fake_model() as model, load(busy):
        model.script(Turn(calls=(Call("Bash", {"command": "echo one", "description": "one"}),)),
                     Turn(calls=(Call("Bash", {"command": "echo two", "description": "two"}),)),
                     Turn(text="Both ran."))
        run = claude.run(project, model, "Run two commands")
        spent = model.spent()
    assert spent == 3 * 150
    assert _session_tokens(project, run.session_id) == spent


def test_what_sub_agents_spend_is_counted(project: Workspace) -> None:
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Agent", {"description": "look at the report", "subagent_type":
                                                "general-purpose", "prompt": f"{SUBTASK}: say what report.pdf is"}),)),
                     Turn(text="The sub-agent looked."))
        model.script(Turn(calls=(Call("Bash", {"command": "boundread info report.pdf", "description": "info"}),)),
                     Turn(calls=(Call("Bash", {"command": "echo checked", "description": "echo"}),)),
                     Turn(text="It is a 12-page PDF."), marker=SUBTASK)
        run = claude.run(project, model, "Have a sub-agent look at report.pdf")
        parent, child = len(model.loop("")), len(model.loop(SUBTASK))
        spent = model.spent()
    # 2.1.332 runs the sub-agent in the background: the parent answers once more when it is told it ended.
    assert child == 3 and parent >= 2, "the script ran as written in both agents"
    assert any("subagents" in str(p) for p in claude.transcripts(project)), "the sub-agent wrote its own transcript"
    assert _session_tokens(project, run.session_id) == spent


@pytest.mark.parametrize("fork", [False, True], ids=["same-session", "forked"])
def test_a_resumed_session_is_not_counted_twice(project: Workspace, fork: bool) -> None:
    """A resumed or forked session re-logs the earlier messages; the project pays for them once."""
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Bash", {"command": "echo one", "description": "one"}),)), Turn(text="First."))
        first = claude.run(project, model, "Run one command")
        model.log.clear()
        argv = ["--resume", first.session_id, *(["--fork-session"] if fork else []), "-p", "Carry on"]
        resumed = claude.run_args(project, model, argv)
        assert (resumed.session_id != first.session_id) == fork
        second_spent = model.spent()
    project_total = _status(project, "--project")
    (scope,) = project_total["scopes"]  # type: ignore[misc]
    assert int(scope["spent"]["tokens"]) == 2 * 150 + second_spent, (resumed.session_id, project_total)


def test_a_token_cap_on_the_project_ends_the_session_at_the_request_that_reached_it(project: Workspace) -> None:
    capped = project.boundread("budget", "set", "--project", "--max-tokens", "100")
    assert capped.returncode == 0, capped.stderr
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Bash", {"command": "echo one", "description": "one"}),)),
                     Turn(calls=(Call("Bash", {"command": "echo two", "description": "two"}),)),
                     Turn(text="Stopped."))
        run = claude.run(project, model, "Run two commands")
        requests = len(model.loop(""))
    assert requests == 1, "the first request's 150 tokens reach the cap: the session ends after its call"
    assert run.result["terminal_reason"] == "hook_stopped"
    assert any("token cap reached in project" in r for r in claude.stop_reasons(project))
    check = project.boundread("budget", "check")
    assert check.returncode == 2, "budget check in the over-cap project, no payload on stdin, denies too"
    assert "token budget reached" in check.stderr


def test_an_over_cap_project_stops_an_agent_spawn(project: Workspace) -> None:
    """The runaway the budget exists for: once the project is over its cap, the next sub-agent never starts."""
    capped = project.boundread("budget", "set", "--project", "--max-tokens", "100")
    assert capped.returncode == 0, capped.stderr
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Bash", {"command": "echo one", "description": "one"}),)),
                     Turn(calls=(Call("Agent", {"description": "spawn", "subagent_type": "general-purpose",
                                                "prompt": f"{SUBTASK}: spawn another"}),)),
                     Turn(text="Stopped."))
        model.script(Turn(text="The sub-agent ran."), marker=SUBTASK)
        claude.run(project, model, "Run a command, then spawn a sub-agent")
        child = len(model.loop(SUBTASK))
    assert any("token cap reached in project" in r for r in claude.stop_reasons(project))
    assert child == 0, "the sub-agent never reached the model"


def test_a_forbidden_tool_is_denied_with_the_reason(project: Workspace) -> None:
    """`budget set --deny-tool WebFetch` (the README's example): the hook sees WebFetch and says why."""
    denied = project.boundread("budget", "set", "--project", "--deny-tool", "WebFetch")
    assert denied.returncode == 0, denied.stderr
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("WebFetch", {"url": "http://127.0.0.1:9/page", "prompt": "summarise"}),)),
                     Turn(text="Not fetched."))
        claude.run(project, model, "Fetch the page")
        fetched = claude.results(model)
    assert fetched == [], "the refusal ends the session: the model is not asked again"
    assert any("WebFetch is forbidden" in r for r in claude.stop_reasons(project))
