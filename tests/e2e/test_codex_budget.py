"""The budget inside the real Codex CLI: ``init --agent codex --budget --trust``, and the ledger holds what the model
server reported, each request once (issue 18: a Codex runaway spent 11,550 tokens and the ledger showed 0)."""

from __future__ import annotations

import json

import pytest

from tests.e2e import codex
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Turn
from tests.e2e.files import project_files

SUBTASK = "SUBTASK-ALPHA"
WAIT_FOR_CHILD = "for i in $(seq 150); do [ -f child.done ] && break; sleep 0.1; done; sleep 3"


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    """The provider config first (init --trust adds to it), then init with the budget, every hook trusted."""
    project_files(workspace.project)
    codex.configure(workspace)
    done = workspace.boundread("init", "--agent", "codex", "--budget", "--trust")
    assert done.returncode == 0, done.stderr
    return workspace


def _tokens(workspace: Workspace, session: str) -> int:
    done = workspace.boundread("budget", "status", "--json", "--session", session)
    assert done.returncode == 0, done.stderr
    (scope,) = json.loads(done.stdout)["scopes"]
    return int(scope["spent"]["tokens"])


def test_init_trust_makes_codex_run_every_budget_hook(project: Workspace) -> None:
    """What /hooks lists for the project: the guard (before and after a tool) and the three ingest hooks, each
    trusted as init wrote it."""
    with codex.AppServer(project) as server:
        listed = server.call("hooks/list", {"cwds": [str(project.project)]})
    hooks = [h for entry in listed["data"] for h in entry["hooks"]]
    assert sorted(h["eventName"] for h in hooks) == ["postToolUse", "postToolUse", "preToolUse", "stop",
                                                     "userPromptSubmit"]
    assert {h["trustStatus"] for h in hooks} == {"trusted"}, hooks


def test_what_a_session_spends_is_counted(project: Workspace) -> None:
    with codex.fake_model() as model:
        model.script(Turn(calls=(codex.shell("echo one"),)), Turn(calls=(codex.shell("echo two"),)),
                     Turn(text="Both ran."))
        run = codex.run(project, model, "Run two commands")
        spent = model.spent()
    assert spent == 3 * 150
    said = run.process.stderr
    assert said.count("hook: PostToolUse Completed") == 4  # per call: the backstop and budget ingest
    assert "hook: UserPromptSubmit Completed" in said
    assert "hook: Stop Completed" in said  # the last answer is counted there
    assert _tokens(project, run.session_id) == spent


def test_a_resumed_session_and_a_second_ingest_count_nothing_twice(project: Workspace) -> None:
    """``codex exec resume`` appends to the same rollout; its earlier requests are not counted again."""
    turns = (Turn(calls=(codex.shell("echo one"),)), Turn(text="First."),
             Turn(calls=(codex.shell("echo two"),)), Turn(text="Second."))
    with codex.fake_model() as model:
        model.script(*turns)
        first = codex.run(project, model, "Run one command")
        resumed = codex.run(project, model, "Run another", "resume", first.session_id)
        spent = model.spent()
    assert resumed.session_id == first.session_id and spent == 4 * 150
    assert _tokens(project, first.session_id) == spent
    again = project.boundread("budget", "ingest", "--transcript", str(first.rollout(project)))
    assert again.returncode == 0 and again.stdout.startswith(f"session {first.session_id}: 0 new request(s)")
    assert _tokens(project, first.session_id) == spent


def test_what_a_sub_agent_spends_is_counted(project: Workspace) -> None:
    """multi_agent_v2: the sub-agent has its own rollout; its last answer comes after its last hook, and the
    parent's rollout names it, so the parent's Stop reads it."""
    with codex.multi_agent_model() as model:
        model.script(Turn(calls=(codex.spawn(f"{SUBTASK}: make child.done"),)),
                     Turn(calls=(codex.shell(WAIT_FOR_CHILD),)), Turn(text="Parent done."))
        model.script(Turn(calls=(codex.shell("echo child > child.done"),)), Turn(text="Child done."),
                     marker=SUBTASK)
        run = codex.run(project, model, "Have a helper make child.done", *codex.MULTI_AGENT)
        parent, child = len(model.loop("")), len(model.loop(SUBTASK))
        spent = model.spent()
    assert (parent, child) == (3, 2), "the script ran as written in both agents"
    rollouts = list((project.home / ".codex" / "sessions").rglob("rollout-*.jsonl"))
    assert len(rollouts) == 2, "the sub-agent wrote its own rollout"
    assert _tokens(project, run.session_id) == spent
