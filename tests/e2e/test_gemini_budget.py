"""The budget inside the real Gemini CLI: ``init --agent gemini --budget``, and the ledger holds what the model
server reported, each request once, though Gemini rewrites a message's record as it grows."""

from __future__ import annotations

import json

import pytest

from tests.e2e import gemini
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, Turn
from tests.e2e.files import project_files

SUBTASK = "SUBTASK-ALPHA"


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    project_files(workspace.project)
    done = workspace.boundread("init", "--agent", "gemini", "--budget")
    assert done.returncode == 0, done.stderr
    gemini.user_settings(workspace)  # API-key auth, the project folder trusted
    return workspace


def _tokens(workspace: Workspace, session: str) -> int:
    done = workspace.boundread("budget", "status", "--json", "--session", session)
    assert done.returncode == 0, done.stderr
    (scope,) = json.loads(done.stdout)["scopes"]
    return int(scope["spent"]["tokens"])


def _shell(command: str) -> Call:
    return Call("run_shell_command", {"command": command, "description": command})


def _chats(workspace: Workspace) -> list[str]:
    return sorted(str(p.relative_to(workspace.home)) for p in (workspace.home / ".gemini").rglob("chats/**/*.jsonl"))


def test_what_a_session_spends_is_counted(project: Workspace) -> None:
    with gemini.fake_model() as model:
        model.script(Turn(calls=(_shell("echo one"),)), Turn(text="Next", calls=(_shell("echo two"),)),
                     Turn(text="Both ran."))
        run = gemini.run(project, model, "Run two commands")
        spent = model.spent()
    assert run.response.endswith("Both ran.") and spent == 3 * 150
    (chat,) = _chats(project)
    records = [line for line in (project.home / chat).read_text().splitlines() if '"tokens"' in line]
    assert len(records) > 3, "Gemini wrote some answers twice (a tool call added): each still counts once"
    assert _tokens(project, run.session_id) == spent


def test_a_resumed_session_and_a_second_ingest_count_nothing_twice(project: Workspace) -> None:
    """``gemini --resume`` appends to the same chat file; its earlier answers are not counted again."""
    turns = (Turn(calls=(_shell("echo one"),)), Turn(text="First."),
             Turn(calls=(_shell("echo two"),)), Turn(text="Second."))
    with gemini.fake_model() as model:
        model.script(*turns)
        first = gemini.run(project, model, "Run one command")
        resumed = gemini.run(project, model, "Run another", "--resume", "latest")
        spent = model.spent()
    assert resumed.session_id == first.session_id and spent == 4 * 150
    # a resume may leave the empty file of the session it started before it resumed (Gemini deletes it on exit,
    # asynchronously), and under load a second file of the same session: each ingested again adds nothing
    chats = [c for c in _chats(project) if c.endswith(f"-{first.session_id[:8]}.jsonl")]
    assert chats
    assert _tokens(project, first.session_id) == spent
    for chat in chats:
        again = project.boundread("budget", "ingest", "--transcript", str(project.home / chat))
        assert again.returncode == 0 and again.stdout.startswith(f"session {first.session_id}: 0 new request(s)"), \
            (chat, again.stdout)
    assert _tokens(project, first.session_id) == spent


def test_what_a_sub_agent_spends_is_counted(project: Workspace) -> None:
    """invoke_agent: the sub-agent writes chats/<session>/<its id>.jsonl, and its hooks name the parent's file."""
    with gemini.fake_model() as model:
        model.script(Turn(calls=(Call("invoke_agent", {"agent_name": "generalist",
                                                       "prompt": f"{SUBTASK}: run echo child"}),)),
                     Turn(text="Parent done."))
        model.script(Turn(calls=(_shell("echo child"),)),
                     Turn(calls=(Call("complete_task", {"result": "Child done."}),)), marker=SUBTASK)
        run = gemini.run(project, model, "Have a helper run echo")
        parent, child = len(model.loop("")), len(model.loop(SUBTASK))
        spent = model.spent()
    assert parent == 2 and child >= 2, "the script ran in both agents"
    assert len(_chats(project)) == 2 and any(f"/{run.session_id}/" in chat for chat in _chats(project))
    assert _tokens(project, run.session_id) == spent
