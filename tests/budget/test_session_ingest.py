"""Issue 8, section 2: every transcript of a session, each request once in the ledger, the final message too."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from helpers_budget import assistant_line, write_transcript

from boundread.agents import sessionfiles
from boundread.agents.sessionfiles import ingest_all
from boundread.budget.ledger import ledger_path, open_ledger
from boundread.budget.model import Scope, UsageRecord
from boundread.budget.schema import CURRENT_VERSION, V1, V2
from boundread.budget.sqlite import SqliteLedger
from boundread.hook import ingest as ingest_hook

SID = "0d5f-session"


def _layout(tmp_path: Path, agents: int = 2) -> tuple[Path, list[Path]]:
    """``<project-dir>/<session>.jsonl`` and ``<project-dir>/<session>/subagents/agent-<id>.jsonl``."""
    parent = tmp_path / "projects" / "-work-proj" / f"{SID}.jsonl"
    parent.parent.mkdir(parents=True)
    write_transcript(parent, 0, 2)
    subs = []
    for a in range(agents):
        sub = parent.with_suffix("") / "subagents" / f"agent-a{a}.jsonl"
        sub.parent.mkdir(parents=True, exist_ok=True)
        sub.write_text("".join(_side(100 * (a + 1) + i) for i in range(3)), encoding="utf-8")
        (sub.parent / f"agent-a{a}.meta.json").write_text("{}", encoding="utf-8")  # not a transcript
        subs.append(sub)
    return parent, subs


def _side(i: int, **kw: Any) -> str:
    line = json.loads(assistant_line(i, **kw))
    line["isSidechain"] = True
    return json.dumps(line) + "\n"


def _payload(parent: Path, event: str = "PostToolUse", **extra: Any) -> str:
    return json.dumps({"session_id": SID, "transcript_path": str(parent), "cwd": "/work/proj",
                       "hook_event_name": event, **extra})


def _output(session: str = SID) -> int:
    with open_ledger() as ledger:
        return ledger.totals(Scope("session", session)).output


def test_a_post_tool_use_from_a_sub_agent_counts_every_sub_agent(tmp_path: Path, backend: str) -> None:
    """The payload names only the parent's transcript (as Claude Code sends it from inside a sub-agent)."""
    parent, subs = _layout(tmp_path)
    result = ingest_hook.ingest_payload(_payload(parent, agent_id="a0", agent_type="general-purpose"))
    assert (result.records, len(result.files), result.unchanged) == (2 + 6, 3, 0)
    assert _output() == 8 * 100
    with open(subs[1], "a", encoding="utf-8") as f:  # one sub-agent goes on; the others are only stat'ed
        f.write(_side(999))
    again = ingest_hook.ingest_payload(_payload(parent))
    assert (again.records, again.unchanged, [f.transcript for f in again.files]) == (1, 2, [str(subs[1])])
    assert again.new_bytes == len(_side(999))
    said = ingest_hook.describe(again)
    assert "1 new request(s), 0 repeat(s)" in said and "in 3 transcript(s)" in said


def test_subagent_stop_names_the_agent_transcript_and_waits_for_its_final_line(tmp_path: Path) -> None:
    parent, _ = _layout(tmp_path, agents=0)
    agent = parent.with_suffix("") / "subagents" / "agent-late.jsonl"
    agent.parent.mkdir(parents=True)
    agent.write_text(_side(500), encoding="utf-8")
    final = json.loads(_side(501))
    final["message"]["content"] = [{"type": "text", "text": "sub-agent  finished\nits work"}]

    def late_flush() -> None:  # Claude Code's 100 ms flush timer, slowed by load
        time.sleep(0.25)
        with open(agent, "a", encoding="utf-8") as f:
            f.write(json.dumps(final) + "\n")

    writer = threading.Thread(target=late_flush)
    writer.start()
    result = ingest_hook.ingest_payload(_payload(parent, "SubagentStop", agent_id="late",
                                                 agent_transcript_path=str(agent),
                                                 last_assistant_message="sub-agent finished its work"))
    writer.join()
    assert 0.2 < result.waited < sessionfiles.LIMIT
    assert result.records == 2 + 2 and _output() == 4 * 100


def test_stop_without_the_final_text_waits_for_quiet_and_a_whole_line(tmp_path: Path) -> None:
    parent, _ = _layout(tmp_path, agents=0)
    line = assistant_line(7)

    def two_writes() -> None:  # a line written in two pieces, the second after the first quiet check
        with open(parent, "a", encoding="utf-8") as f:
            f.write(line[:30])
            f.flush()
            time.sleep(0.4)
            f.write(line[30:])

    writer = threading.Thread(target=two_writes)
    writer.start()
    time.sleep(0.05)
    result = ingest_hook.ingest_payload(_payload(parent, "Stop", last_assistant_message=""))
    writer.join()
    assert result.waited >= 0.35 + sessionfiles.QUIET - 0.1
    assert result.records == 3


def test_the_wait_is_bounded_and_quiet_files_do_not_wait(tmp_path: Path) -> None:
    parent, _ = _layout(tmp_path, agents=0)
    began = time.monotonic()
    assert sessionfiles.settle(parent, "a message that never comes", limit=0.3) >= 0.3
    assert time.monotonic() - began < 3.0  # ended by its limit (the message never comes): 10x it, for a loaded machine
    clock = iter([0.0, 0.0, 0.1, 0.2, 0.31, 9.0])  # injected clock: settled once unchanged for QUIET
    assert sessionfiles.settle(parent, None, clock=lambda: next(clock), sleep=lambda _: None) == pytest.approx(0.31)
    assert sessionfiles.settle(tmp_path / "gone.jsonl", None, limit=0.05) >= 0.05


def test_session_end_is_accepted_and_catches_what_stop_missed(tmp_path: Path) -> None:
    parent, _ = _layout(tmp_path, agents=0)
    ingest_hook.ingest_payload(_payload(parent, "PostToolUse"))
    with open(parent, "a", encoding="utf-8") as f:  # the final message, flushed after Stop had read the file
        f.write(assistant_line(50))
    end = ingest_hook.ingest_payload(json.dumps({"session_id": SID, "transcript_path": str(parent), "cwd": "/work/proj",
                                             "hook_event_name": "SessionEnd", "reason": "other"}))
    assert end.records == 1 and _output() == 300


def test_a_resumed_session_copies_earlier_messages_and_they_count_once(tmp_path: Path, backend: str) -> None:
    """claude --resume (and compaction) writes a new file that repeats the earlier session's messages."""
    first = tmp_path / "first.jsonl"
    write_transcript(first, 0, 5)
    resumed = tmp_path / "resumed.jsonl"
    resumed.write_text(first.read_text(encoding="utf-8"), encoding="utf-8")
    write_transcript(resumed, 5, 2)
    with open_ledger() as ledger:
        a = ingest_all(ledger, [first], session="first", project="/p")
        b = ingest_all(ledger, [resumed], session="resumed", project="/p")
        assert (a.records, b.records) == (5, 2)
        assert ledger.totals(Scope("project", "/p")).output == 700
        assert ledger.totals(Scope("session", "resumed")).output == 200


def test_a_sidechain_copy_under_another_request_counts_once_and_the_main_chain_wins(
    tmp_path: Path, backend: str
) -> None:
    t = tmp_path / "s.jsonl"
    t.write_text(assistant_line(1, out=100) + _side(1, out=90, request="req_replayed") + _side(2, out=40)
                 + assistant_line(2, out=30, request="req_main"), encoding="utf-8")
    with open_ledger() as ledger:
        result = ingest_all(ledger, [t], session="s")
        assert (result.records, result.duplicates) == (2, 2)
        assert ledger.totals(Scope("session", "s")).output == 100 + 30  # the main chain's count for msg_2


def test_the_larger_count_moves_to_the_session_that_recorded_it_first(backend: str) -> None:
    with open_ledger() as ledger:
        ledger.add_usage("a", [UsageRecord("m", 5, key="msg_x:req_x", message="msg_x")])
        assert ledger.add_usage("b", [UsageRecord("m", 5, 7, key="msg_x:req_x", message="msg_x")]) == 0
        assert ledger.totals(Scope("session", "a")).tokens == 12
        assert ledger.totals(Scope("session", "b")).tokens == 0
        assert ledger.totals(Scope("global")).tokens == 12


def test_a_v2_ledger_migrates_and_keeps_deduplicating(tmp_path: Path) -> None:
    path = ledger_path()
    path.parent.mkdir(parents=True)
    db = sqlite3.connect(path)
    for statement in (*V1, *V2):
        db.execute(statement)
    db.execute("INSERT INTO sessions(id, output) VALUES ('old', 100)")
    db.execute("INSERT INTO usage(session, key, model, input, output, cache_read, cache_write, cost_nanos)"
               " VALUES ('old', 'msg_1:req_1', 'm', 0, 100, 0, 0, 0)")
    db.execute("PRAGMA user_version = 2")
    db.commit()
    db.close()
    t = tmp_path / "new.jsonl"
    t.write_text(assistant_line(1) + _side(1, request="req_other"), encoding="utf-8")
    with SqliteLedger() as ledger:
        assert ingest_all(ledger, [t], session="new").records == 0  # both lines repeat msg_1
        assert ledger.totals(Scope("global")).output == 100
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == CURRENT_VERSION == 6  # V6: stats


def test_the_transcript_option_takes_the_sub_agents_too_and_a_sub_agent_file_names_its_session(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from boundread.cli.budget import budget_app

    parent, subs = _layout(tmp_path)
    out = CliRunner().invoke(budget_app, ["ingest", "--transcript", str(parent), "--json"])
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["session"], data["records"], len(data["transcripts"])) == (SID, 8, 3)
    with open(subs[0], "a", encoding="utf-8") as f:
        f.write(_side(777))
    alone = CliRunner().invoke(budget_app, ["ingest", "--transcript", str(subs[0])])
    assert alone.stdout.startswith(f"session {SID}: 1 new request(s)")
