"""``budget ingest`` of real Gemini CLI 0.61 chat files (fixtures/README.md): rewritten records count once."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from captured import Case, case, lines
from typer.testing import CliRunner

from boundread.agents import sessionfiles
from boundread.agents.sessionfiles import ingest_all
from boundread.budget import transcript
from boundread.budget.ledger import ledger_path, open_ledger
from boundread.budget.model import Scope, Totals
from boundread.cli.budget import budget_app
from boundread.hook import ingest as ingest_hook

runner = CliRunner()


@pytest.fixture
def resumed(tmp_path: Path) -> Case:
    return case("gemini-resume", tmp_path)


@pytest.fixture
def spawning(tmp_path: Path) -> Case:
    return case("gemini-subagent", tmp_path)


def _totals(session: str) -> Totals:
    with open_ledger() as ledger:
        return ledger.totals(Scope("session", session))


def _rows() -> list[tuple[str, str, str | None, float | None]]:
    db = sqlite3.connect(ledger_path())
    try:
        return db.execute("SELECT key, model, agent, at FROM usage ORDER BY at").fetchall()
    finally:
        db.close()


def _ingest_file(path: Path) -> transcript.SessionIngest:
    files = sessionfiles.files_of(path)
    with open_ledger() as ledger:
        return ingest_all(ledger, files.paths, session=files.session, readers=files.readers)


def test_a_chat_file_is_counted_as_the_server_billed_it(resumed: Case, backend: str) -> None:
    """Prompt 130 holds 30 cached; thoughts 10 are output, tool-use prompt 7 is input: 197 per request."""
    lines_with_tokens = [line for line in lines(resumed.main) if b'"tokens"' in line]
    assert len(lines_with_tokens) == 8  # 5 requests: 3 of them written twice (a tool call added)
    result = _ingest_file(resumed.main)
    each = resumed.expected["ledger_each"]
    n = resumed.expected["requests"]
    assert (result.session, result.records) == (resumed.expected["session"], n)
    spent = _totals(result.session)
    assert (spent.input, spent.output, spent.cache_read, spent.cache_write) == tuple(n * each[k] for k in each)
    assert spent.tokens == n * resumed.expected["server_usage_each"]["totalTokenCount"] == resumed.tokens
    assert spent.cost > 0 and not spent.unpriced


def test_each_request_says_its_model_and_time(resumed: Case) -> None:
    _ingest_file(resumed.main)
    rows = _rows()
    assert len(rows) == 5 and {r[1] for r in rows} == {"gemini-2.5-pro"} and {r[2] for r in rows} == {None}
    assert all(r[0].startswith("gemini:") for r in rows)
    times = [r[3] for r in rows]
    assert all(t is not None and 1.7e9 < t < 1.9e9 for t in times) and times == sorted(times)


def test_ingested_after_every_line_each_message_counts_once(resumed: Case, backend: str) -> None:
    whole = lines(resumed.main)
    resumed.main.write_bytes(b"")
    hook = {**resumed.events("AfterTool")[0], "transcript_path": str(resumed.main)}
    for line in whole:
        with resumed.main.open("ab") as f:
            f.write(line)
        ingest_hook.ingest_payload(json.dumps(hook))
    assert _totals(resumed.expected["session"]).tokens == resumed.tokens


def test_the_hook_payloads_as_captured_count_the_session(resumed: Case) -> None:
    for payload in resumed.payloads:
        ingest_hook.ingest_payload(json.dumps(payload))
    assert _totals(resumed.expected["session"]).tokens == resumed.tokens


def test_a_sub_agent_file_is_found_from_the_parents_payload(spawning: Case, backend: str) -> None:
    """Gemini's hooks inside a sub-agent name the parent's file; the sub-agent's is chats/<session>/<id>.jsonl."""
    (end,) = spawning.events("SessionEnd")
    result = ingest_hook.ingest_payload(json.dumps(end))
    assert (result.session, result.records, len(result.files)) == (spawning.expected["session"], 6, 2)
    assert _totals(spawning.expected["session"]).tokens == spawning.tokens
    if backend == "sqlite":
        agents = [r[2] for r in _rows()]
        assert agents.count(spawning.expected["agent"]) == 4 and agents.count(None) == 2


def test_a_sub_agent_file_given_alone_names_the_parent_session(spawning: Case) -> None:
    child = next(p for p in spawning.files() if p != spawning.main)
    out = runner.invoke(budget_app, ["ingest", "--transcript", str(child)])
    assert out.exit_code == 0, out.stderr
    assert out.stdout.startswith(f"session {spawning.expected['session']}: 4 new request(s)")
    both = runner.invoke(budget_app, ["ingest", "--transcript", str(spawning.main)])
    assert both.stdout.startswith(f"session {spawning.expected['session']}: 2 new request(s)")


# Rewrites ----------------------------------------------------------------------------------------------
def _messages(path: Path) -> list[dict[str, object]]:
    """The conversation as Gemini CLI loads it: the last record of each message id, in order."""
    found: dict[str, dict[str, object]] = {}
    for line in lines(path):
        obj = json.loads(line)
        if isinstance(obj.get("id"), str):
            found[obj["id"]] = obj
    return list(found.values())


def test_a_file_rewritten_whole_counts_nothing_twice(resumed: Case) -> None:
    """What rewriteConversationFile writes when it could not load a file: metadata, then each message once."""
    _ingest_file(resumed.main)
    meta = json.loads(lines(resumed.main)[0])
    rewritten = [json.dumps(meta)] + [json.dumps(m) for m in _messages(resumed.main)]
    resumed.main.write_text("\n".join(rewritten) + "\n", encoding="utf-8")
    result = _ingest_file(resumed.main)
    assert any("since the last ingest" in w for w in result.warnings), result.warnings
    assert result.records == 0
    assert _totals(resumed.expected["session"]).tokens == resumed.tokens


def test_a_set_of_all_messages_and_a_rewind_count_nothing_more(resumed: Case) -> None:
    _ingest_file(resumed.main)
    messages = _messages(resumed.main)
    with resumed.main.open("a", encoding="utf-8") as f:
        f.write(json.dumps({"$set": {"messages": messages}}) + "\n")
        f.write(json.dumps({"$rewindTo": messages[2]["id"]}) + "\n")
    assert _ingest_file(resumed.main).records == 0
    assert _totals(resumed.expected["session"]).tokens == resumed.tokens


def test_a_set_of_messages_counts_the_ones_never_seen(resumed: Case) -> None:
    """A legacy .json session converted on resume, or a $set from another writer: its new ids are requests."""
    _ingest_file(resumed.main)
    new = {"id": "5e1f7c1e-0000-4000-8000-000000000001", "type": "gemini", "model": "gemini-2.5-pro",
           "timestamp": "2026-12-02T01:00:00.000Z",
           "tokens": {"input": 10, "output": 5, "cached": 0, "thoughts": 0, "tool": 0, "total": 15}}
    with resumed.main.open("a", encoding="utf-8") as f:
        f.write(json.dumps({"$set": {"messages": [*_messages(resumed.main), new]}}) + "\n")
    assert _ingest_file(resumed.main).records == 1
    assert _totals(resumed.expected["session"]).tokens == resumed.tokens + 15


# Bad input ---------------------------------------------------------------------------------------------
def test_a_chat_without_answers_leaves_no_session(resumed: Case) -> None:
    resumed.main.write_bytes(b"".join(line for line in lines(resumed.main) if b'"tokens"' not in line))
    assert _ingest_file(resumed.main).records == 0
    with open_ledger() as ledger:
        assert ledger.sessions() == []


def test_a_half_written_last_line_waits_for_its_end(resumed: Case) -> None:
    whole = resumed.main.read_bytes()
    cut = whole.rindex(b'"tokens"') + 20
    resumed.main.write_bytes(whole[:cut])
    assert _ingest_file(resumed.main).records == 4
    resumed.main.write_bytes(whole)
    assert _ingest_file(resumed.main).records == 1
    assert _totals(resumed.expected["session"]).tokens == resumed.tokens


@pytest.mark.parametrize(("line", "warning"), [
    (b"\x00\xff garbage\n", "not JSON"),
    (b'{"id":"x","tokens":' + b"[" * 100_000 + b"\n", "not JSON"),
    (b'{"type":"gemini","tokens":{"input":5,"output":1}}\n', "without its message id"),
    (b'{"id":"big","type":"gemini","tokens":{"input":' + b"9" * 31 + b',"output":1}}\n', "not a possible token"),
    (b'{"id":"neg","type":"gemini","tokens":{"input":-3,"output":"many","cached":true}}\n', "is not a token count"),
    (b'{"id":"over","type":"gemini","tokens":{"input":3,"output":1,"cached":9}}\n', "exceed the prompt"),
    (b'{"$set":{"messages":[{"id":"deep","type":"gemini","tokens":{"input":' + b"9" * 5000 + b'}}]}}\n', "not JSON"),
])
def test_a_hostile_line_is_one_warning_and_the_rest_counts(resumed: Case, line: bytes, warning: str) -> None:
    whole = lines(resumed.main)
    resumed.main.write_bytes(whole[0] + line + b"".join(whole[1:]))
    result = _ingest_file(resumed.main)
    assert [w for w in result.warnings if warning in w], result.warnings
    assert all("\n" not in w and len(w) < 300 for w in result.warnings)
    assert _totals(resumed.expected["session"]).tokens >= resumed.tokens


def test_an_over_long_line_is_skipped(resumed: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(transcript, "MAX_LINE", 4000)
    whole = lines(resumed.main)
    huge = b'{"$set":{"tokens":"' + b"x" * 10_000 + b'"}}\n'
    resumed.main.write_bytes(whole[0] + huge + b"".join(whole[1:]))
    result = _ingest_file(resumed.main)
    assert any("over 4,000" in w for w in result.warnings)
    assert _totals(resumed.expected["session"]).tokens == resumed.tokens


def test_sub_agent_folders_are_looked_up_by_safe_names_only(spawning: Case) -> None:
    from boundread.agents.geminilog import session_files

    paths, _ = session_files(spawning.main, "../../..")
    assert paths == [spawning.main]
