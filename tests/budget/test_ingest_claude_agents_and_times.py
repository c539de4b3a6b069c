"""A Claude Code request in the ledger says which sub-agent made it and when (issue 18: per-agent view, spend curve)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from helpers_budget import assistant_line

from boundread.agents.sessionfiles import ingest_all
from boundread.budget.ledger import ledger_path, open_ledger
from boundread.budget.logline import unix_seconds


def _line(i: int, *, agent: str | None = None, at: str = "2026-12-02T00:49:08.268Z") -> str:
    obj = json.loads(assistant_line(i))
    obj["timestamp"] = at
    if agent:
        obj["isSidechain"], obj["agentId"] = True, agent
    return json.dumps(obj) + "\n"


def _rows() -> dict[str, tuple[str | None, float | None]]:
    db = sqlite3.connect(ledger_path())
    try:
        return {key: (agent, at) for key, agent, at in db.execute("SELECT key, agent, at FROM usage")}
    finally:
        db.close()


def test_the_main_agent_and_each_sub_agent_are_told_apart(tmp_path: Path) -> None:
    """2.1.332 writes ``agentId`` on a sub-agent's lines in ``<session>/subagents/agent-<id>.jsonl``; a line
    without it is the file's agent."""
    parent = tmp_path / "s1.jsonl"
    parent.write_text(_line(1, at="2026-12-02T00:49:07.589Z"), encoding="utf-8")
    subs = tmp_path / "s1" / "subagents"
    subs.mkdir(parents=True)
    (subs / "agent-ae625c11754e51141.jsonl").write_text(_line(2, agent="ae625c11754e51141") + assistant_line(3),
                                                        encoding="utf-8")
    with open_ledger() as ledger:
        ingest_all(ledger, [parent, *sorted(subs.glob("*.jsonl"))], session="s1")
    rows = _rows()
    assert rows["msg_1:req_1"] == (None, pytest.approx(1796172547.589))
    assert rows["msg_2:req_2"] == ("ae625c11754e51141", pytest.approx(1796172548.268))
    assert rows["msg_3:req_3"][0] == "ae625c11754e51141"


def test_a_transcript_without_usage_leaves_no_session(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text(json.dumps({"type": "user", "message": {"role": "user", "content": "hi"}}) + "\n", encoding="utf-8")
    with open_ledger() as ledger:
        assert ingest_all(ledger, [path], session="empty").records == 0
        assert ledger.sessions() == []
    with path.open("a", encoding="utf-8") as f:
        f.write(_line(1))
    with open_ledger() as ledger:
        assert ingest_all(ledger, [path], session="empty").records == 1
        assert ledger.sessions() == ["empty"]


@pytest.mark.parametrize(("text", "seconds"), [
    ("2026-12-02T00:49:08.268Z", 1796172548.268),
    ("2026-12-02T01:49:08+01:00", 1796172548.0),
    ("2026-12-02T00:49:08", 1796172548.0),
    ("2026-12-02 00:49:08.5-0030", 1796174348.5),
    ("2026-13-02T00:49:08Z", None),
    ("yesterday", None),
    (1796172548, None),
    ("9" * 100, None),
])
def test_times_are_read_as_iso_8601_or_not_at_all(text: object, seconds: float | None) -> None:
    assert unix_seconds(text) == (None if seconds is None else pytest.approx(seconds))
