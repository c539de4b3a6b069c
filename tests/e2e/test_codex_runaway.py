"""A runaway inside the real Codex CLI ends at the cap (issue 18).

Codex 0.171 honours ``continue: false`` only from UserPromptSubmit: from PostToolUse it logs "Stopped" and sends
the next request, from PreToolUse it is a failed hook (the call runs). So where the budget ends a Codex session
mid-turn, the hook also interrupts the Codex process, as Ctrl-C does (agents/codex_interrupt.py): "turn interrupted",
exit 1. The scripted model never gives up on its own; the server counts what was spent.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e import codex
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import FakeModel, Turn

TURNS = 40


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    codex.configure(workspace)
    done = workspace.boundread("init", "--agent", "codex", "--budget", "--trust")
    assert done.returncode == 0, done.stderr
    return workspace


def runaway(model: FakeModel, command: str | None = None) -> None:
    model.script(*(Turn(calls=(codex.shell(command or f"echo step {n}"),)) for n in range(TURNS)))


def cap(workspace: Workspace, *args: str) -> None:
    done = workspace.boundread("budget", "set", "--project", *args)
    assert done.returncode == 0, done.stderr


def exec_codex(workspace: Workspace, model: FakeModel, prompt: str, *args: str) -> codex.CodexRun:
    """``codex exec`` as codex.run runs it, whose exit status may be 1: an interrupted turn."""
    exe = codex.client("codex", codex.PACKAGE)
    codex.configure(workspace)
    argv = [str(exe), "exec", "--skip-git-repo-check", "--color", "never",
            "-c", f'model_providers.fake.base_url="{model.url}/v1"', *args, prompt]
    process = workspace.run(argv, **codex.secrets(workspace))
    assert process.returncode in (0, 1), f"codex exited {process.returncode}: {process.stderr[-2000:]}"
    return codex.CodexRun(process)


def stopped(workspace: Workspace, run: codex.CodexRun, why: str) -> bool:
    """Whether the turn was interrupted, and the ledger holds the session ended with ``why`` in the reason."""
    if run.process.returncode != 1 or "turn interrupted" not in run.process.stderr:
        return False
    prompt = {"session_id": run.session_id, "turn_id": "t", "transcript_path": str(run.rollout(workspace)),
              "cwd": str(workspace.project), "hook_event_name": "UserPromptSubmit", "model": "gpt-5.5",
              "permission_mode": "bypassPermissions", "prompt": "go on"}
    answer = workspace.boundread("budget", "ingest", stdin=json.dumps(prompt)).stdout  # what a resume would get
    return why in json.loads(answer or "{}").get("stopReason", "")


def test_without_a_cap_the_runaway_runs_all_its_turns(project: Workspace) -> None:
    with codex.fake_model() as model:
        runaway(model)
        exec_codex(project, model, "Keep going")
        assert len(model.loop("")) == TURNS + 1


def test_a_token_cap_ends_the_session_before_the_request_that_would_cross_it(project: Workspace) -> None:
    cap(project, "--max-tokens", "1000")
    with codex.fake_model() as model:
        runaway(model)
        run = exec_codex(project, model, "Keep going")
        requests, spent = len(model.loop("")), model.spent()
    assert (requests, spent) == (6, 900), run.process.stderr[-3000:]
    assert stopped(project, run, "the next request would pass the token cap")


def test_a_call_limit_ends_the_session_after_the_last_allowed_call(project: Workspace) -> None:
    cap(project, "--max-calls", "4")
    with codex.fake_model() as model:
        runaway(model)
        run = exec_codex(project, model, "Keep going")
        requests = len(model.loop(""))
    assert requests == 4, run.process.stderr[-3000:]
    assert stopped(project, run, "call limit reached")


def test_a_repeat_ends_the_session_at_the_refused_call(project: Workspace) -> None:
    """The third identical call is refused, and the turn interrupted from the pre-tool hook."""
    cap(project, "--max-repeat", "3")
    with codex.fake_model() as model:
        model.script(*(Turn(calls=(codex.shell("echo same"),)) for _ in range(TURNS)))
        run = exec_codex(project, model, "Keep going")
        requests = len(model.loop(""))
    assert requests == 3, run.process.stderr[-3000:]
    assert stopped(project, run, "repeat policy")


def test_a_new_prompt_in_a_capped_session_reaches_no_model(project: Workspace) -> None:
    cap(project, "--max-tokens", "1000")
    with codex.fake_model() as model:
        runaway(model)
        first = exec_codex(project, model, "Keep going")
        model.log.clear()
        again = exec_codex(project, model, "Carry on", "resume", first.session_id)
        requests = len(model.loop(None))
    assert requests == 0, again.process.stderr[-3000:]
    assert "hook: UserPromptSubmit Stopped" in again.process.stderr


def test_the_ledger_and_the_stop_agree(project: Workspace) -> None:
    cap(project, "--max-tokens", "1000")
    with codex.fake_model() as model:
        runaway(model)
        run = exec_codex(project, model, "Keep going")
        spent = model.spent()
    done = project.boundread("budget", "status", "--json", "--session", run.session_id)
    (scope,) = json.loads(done.stdout)["scopes"]
    assert scope["spent"]["tokens"] == spent
