"""A sub-agent's real nesting depth, from the meta files Claude Code writes, and the gate every spawn passes
(issue 18 parts 4 and 5): --max-depth refuses a grandchild, --max-agents and --max-agents-per-minute count spawns."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boundread.budget.agentmeta import read_meta, spawn_depth
from boundread.budget.agents import gate, sync
from boundread.cli.budget import budget_app
from boundread.hook import main as guard_main
from boundread.hook.ingest import open_budget_ledger

SESSION = "s-agents"


def budget(*args: str) -> None:
    result = CliRunner().invoke(budget_app, list(args))
    assert result.exit_code == 0, result.output


def meta(transcript: Path, agent: str, depth: int, parent: str | None, tool_use: str) -> None:
    """What Claude Code 2.1.332 writes beside a sub-agent's transcript (a real file's keys, in its order)."""
    folder = transcript.with_suffix("") / "subagents"
    folder.mkdir(parents=True, exist_ok=True)
    body: dict[str, Any] = {"agentType": "general-purpose", "isBuiltIn": True, "description": "d",
                            "toolUseId": tool_use}
    if parent:
        body["parentAgentId"] = parent
    body.update(spawnDepth=depth, requestShape="foreground", model="claude-opus-5-5", finished=False)
    (folder / f"agent-{agent}.meta.json").write_text(json.dumps(body, separators=(",", ":")), encoding="utf-8")


def spawn(transcript: Path, caller: str | None = None, call: str = "toolu_1") -> dict[str, Any]:
    payload = {"session_id": SESSION, "transcript_path": str(transcript), "cwd": str(transcript.parent),
               "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Agent",
               "tool_input": {"description": "d", "prompt": "go", "subagent_type": "general-purpose"},
               "tool_use_id": call}
    if caller:
        payload.update(agent_id=caller, agent_type="general-purpose")
    return payload


def guard(payload: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert guard_main.run([], stdin=io.StringIO(json.dumps(payload))) == 0
    out = capsys.readouterr().out
    return json.loads(out) if out else {}


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("", encoding="utf-8")
    return path


def test_the_depth_is_the_clients_own_record(transcript: Path) -> None:
    meta(transcript, "kid", 1, None, "toolu_1")
    meta(transcript, "grandkid", 2, "kid", "toolu_2")
    assert spawn_depth({"transcript_path": str(transcript)}) == 0, "the main agent"
    assert spawn_depth({"transcript_path": str(transcript), "agent_id": "kid"}) == 1
    assert spawn_depth({"transcript_path": str(transcript), "agent_id": "grandkid"}) == 2
    assert spawn_depth({"transcript_path": str(transcript), "agent_id": "unknown"}) == 1, "no meta: one level"
    assert read_meta(str(transcript.with_suffix("") / "subagents" / "agent-grandkid.meta.json")) == {
        "spawnDepth": 2, "parentAgentId": "kid", "toolUseId": "toolu_2"}


@pytest.mark.parametrize("text", ["", "{", '{"spawnDepth": "x"}', '{"spawnDepth": -3}', "\0" * 100_000,
                                  '{"spawnDepth":' + "9" * 5000 + "}", '{"toolUseId":"a\\"b"}'])
def test_a_hostile_meta_file_counts_as_one_level(transcript: Path, text: str) -> None:
    folder = transcript.with_suffix("") / "subagents"
    folder.mkdir(parents=True)
    (folder / "agent-x.meta.json").write_text(text, encoding="utf-8")
    assert spawn_depth({"transcript_path": str(transcript), "agent_id": "x"}) == 1
    assert spawn_depth({"transcript_path": str(transcript), "agent_id": "../x"}) == 1, "no path out of the folder"


def test_max_depth_1_refuses_a_sub_agents_own_sub_agent(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    budget("set", "--session", SESSION, "--max-depth", "1")
    assert guard(spawn(transcript), capsys) == {}, "the main agent's child is depth 1"
    meta(transcript, "kid", 1, None, "toolu_1")
    answer = guard(spawn(transcript, caller="kid", call="toolu_2"), capsys)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny" and answer["continue"] is False
    assert "depth limit reached: depth 2 of max 1" in answer["hookSpecificOutput"]["permissionDecisionReason"]


def test_max_agents_counts_the_spawns_of_a_session_and_of_its_project(
        backend: str, transcript: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the payloads' folder: the project `budget set --project` names
    budget("set", "--session", SESSION, "--max-agents", "2")
    for n in range(2):
        assert guard(spawn(transcript, call=f"toolu_{n}"), capsys) == {}
    third = guard(spawn(transcript, call="toolu_2"), capsys)
    assert "sub-agent limit reached: sub-agent 3 of max 2 in session s-agents" in third["stopReason"]
    budget("set", "--project", "--max-agents", "3")
    other = {**spawn(transcript, call="toolu_9"), "session_id": "s-other"}
    assert guard(other, capsys) == {}, "the project's third"
    fourth = guard({**other, "tool_use_id": "toolu_10"}, capsys)
    assert "sub-agent 4 of max 3 in project" in fourth["stopReason"]


def test_a_spawn_the_call_limit_refuses_is_not_counted(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    budget("set", "--session", SESSION, "--max-agents", "5", "--max-calls", "1")
    assert guard(spawn(transcript, call="toolu_a"), capsys) == {}
    assert guard(spawn(transcript, call="toolu_b"), capsys)["continue"] is False
    with open_budget_ledger() as ledger:
        rows = ledger._db.execute("SELECT agent FROM agents").fetchall()
    assert [r[0] for r in rows] == ["toolu_a"]


def test_max_agents_per_minute_counts_the_last_60_seconds(
        backend: str, transcript: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    budget("set", "--project", "--max-agents-per-minute", "2")
    project = str(tmp_path.resolve())
    with open_budget_ledger() as ledger:
        assert gate(ledger, spawn(transcript, call="a"), SESSION, project, 1000.0) == (None, "a")
        assert gate(ledger, spawn(transcript, call="b"), SESSION, project, 1030.0) == (None, "b")
        refused, recorded = gate(ledger, spawn(transcript, call="c"), SESSION, project, 1059.0)
        assert refused is not None and "3 started within a minute, max 2 in project" in refused and not recorded
        assert gate(ledger, spawn(transcript, call="d"), SESSION, project, 1061.0) == (None, "d"), "the first is past"


def test_sync_gives_each_spawn_its_sub_agents_own_id(backend: str, transcript: Path) -> None:
    budget("set", "--session", SESSION, "--max-agents", "9")
    with open_budget_ledger() as ledger:
        assert gate(ledger, spawn(transcript, call="toolu_1"), SESSION, None, 1.0) == (None, "toolu_1")
        meta(transcript, "kid", 1, None, "toolu_1")
        meta(transcript, "other", 2, "kid", "toolu_unseen")
        assert sync(ledger, SESSION, str(transcript)) == 2
        assert sync(ledger, SESSION, str(transcript)) == 0, "known ids are not read again"
        rows = sorted(ledger._db.execute("SELECT agent, parent, depth FROM agents").fetchall())
    assert [tuple(r) for r in rows] == [("kid", None, 1), ("other", "kid", 2)]


def test_a_spawn_whose_requests_would_pass_a_cap_is_refused(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each sub-agent at work sends requests of its own: a spawn adds one to the next round. 600 of 1,000 spent,
    the main agent's next request 200: a sub-agent's first (about 200 too) still fits, a second one would not."""
    from boundread.budget.model import UsageRecord

    budget("set", "--session", SESSION, "--max-tokens", "1000")
    with open_budget_ledger() as ledger:
        ledger.add_usage(SESSION, [UsageRecord("m", 200, key=f"r{n}") for n in range(3)])
    assert guard(spawn(transcript, call="toolu_a"), capsys) == {}, "600 + 200 + 200: at the cap, not past it"
    refused = guard(spawn(transcript, call="toolu_b"), capsys)
    assert refused["continue"] is False
    assert "the next request would pass the token cap of session s-agents" in refused["stopReason"]
    with open_budget_ledger() as ledger:
        rows = ledger._db.execute("SELECT agent FROM agents").fetchall()
    assert [r[0] for r in rows] == ["toolu_a"], "the refused spawn is not counted"


def test_a_meta_file_that_is_a_fifo_is_not_waited_for(transcript: Path) -> None:
    """An agent can make one with mkfifo: opened without blocking and never read, it counts as no record."""
    import os

    folder = transcript.with_suffix("") / "subagents"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "agent-x.meta.json")
    assert spawn_depth({"transcript_path": str(transcript), "agent_id": "x"}) == 1


@pytest.mark.parametrize("description", ["spawnDepth", "toolUseId", '"spawnDepth": 0'])
def test_a_description_that_names_a_key_is_not_taken_for_it(transcript: Path, description: str) -> None:
    """The model chooses the description, which Claude Code writes before spawnDepth."""
    folder = transcript.with_suffix("") / "subagents"
    folder.mkdir(parents=True)
    body = {"agentType": "general-purpose", "description": description, "toolUseId": "toolu_9", "spawnDepth": 2}
    (folder / "agent-x.meta.json").write_text(json.dumps(body, separators=(",", ":")), encoding="utf-8")
    assert spawn_depth({"transcript_path": str(transcript), "agent_id": "x"}) == 2
    assert read_meta(str(folder / "agent-x.meta.json")) == {"spawnDepth": 2, "parentAgentId": None,
                                                            "toolUseId": "toolu_9"}


@pytest.mark.parametrize("path", ["/tmp/x" + chr(0) + ".jsonl", "/tmp/x" + chr(0xD800) + ".jsonl"],
                         ids=["nul", "lone-surrogate"])
def test_a_transcript_path_no_file_can_have_counts_as_one_level(backend: str, path: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A hostile path in a sub-agent's payload: the call is still checked and counted, not let through."""
    budget("set", "--session", SESSION, "--max-calls", "1")
    calls = [{**spawn(Path("/tmp/t.jsonl"), call=f"toolu_{n}"), "tool_name": "Bash", "transcript_path": path,
              "tool_input": {"command": "ls"}, "agent_id": "kid"} for n in range(2)]
    assert guard(calls[0], capsys) == {}
    assert "call limit reached" in guard(calls[1], capsys)["stopReason"]


def test_a_hook_run_again_for_the_same_spawn_counts_it_once(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A client that runs the hook twice for one call (guard-check registered twice, a retry): one spawn."""
    budget("set", "--session", SESSION, "--max-agents", "1")
    assert guard(spawn(transcript, call="toolu_a"), capsys) == {}
    assert guard(spawn(transcript, call="toolu_a"), capsys) == {}
    with open_budget_ledger() as ledger:
        assert [r[0] for r in ledger._db.execute("SELECT agent FROM agents").fetchall()] == ["toolu_a"]


def test_a_session_without_a_budget_records_no_spawn(backend: str, transcript: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    budget("set", "--session", "someone-else", "--max-agents", "1")
    for n in range(3):
        assert guard(spawn(transcript, call=f"toolu_{n}"), capsys) == {}
    with open_budget_ledger() as ledger:
        assert ledger._db.execute("SELECT COUNT(*) FROM agents").fetchone()[0] == 0


def test_a_reset_forgets_the_sessions_spawns(backend: str, transcript: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    budget("set", "--session", SESSION, "--max-agents", "1")
    assert guard(spawn(transcript, call="toolu_a"), capsys) == {}
    budget("reset", "--session", SESSION)
    budget("set", "--session", SESSION, "--max-agents", "1")
    assert guard(spawn(transcript, call="toolu_b"), capsys) == {}, "the spawn before the reset is not counted"


def test_a_spawn_the_ledger_cannot_check_is_denied_in_a_budgeted_session(
        transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Another process holds the ledger: the spawn is doubt, denied without ending the session."""
    import subprocess
    import sys

    from boundread.budget.ledger import ledger_path

    budget("set", "--session", SESSION, "--max-agents", "5")
    holder = subprocess.Popen([sys.executable, "-c", "import sqlite3, time\n"
                               f"db = sqlite3.connect({str(ledger_path())!r}, isolation_level=None)\n"
                               "db.execute('BEGIN EXCLUSIVE'); print('held', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        answer = guard(spawn(transcript, call="toolu_locked"), capsys)
    finally:
        holder.kill()
        holder.wait()
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny" and "continue" not in answer


def test_a_finished_sub_agent_is_not_in_the_next_round(backend: str, transcript: Path) -> None:
    """Its SubagentStop came: the next round holds only the agents still at work."""
    from boundread.budget.model import UsageRecord
    from boundread.budget.verdict import after_request, agent_ended

    budget("set", "--session", SESSION, "--max-tokens", "1000")
    with open_budget_ledger() as ledger:
        ledger._db.execute("INSERT INTO agents(session, agent, parent, depth, started) VALUES (?, 'done', NULL, 1,"
                           " 1.0)", (SESSION,))
        ledger.add_usage(SESSION, [UsageRecord("m", 300, key="main", at=10.0),
                                   UsageRecord("m", 300, key="sub", agent="done", at=11.0)])
        assert after_request(ledger, SESSION, None).stop is not None, "600 spent, 600 next: it would pass"
        agent_ended(ledger, SESSION, "done", 12.0)
        assert after_request(ledger, SESSION, None).stop is None, "600 spent, 300 next: it fits"
