"""A cap ends the session (issue 18): the hook answers that stop the agent, and the stop before the request that
would cross a cap. Real hook payloads in, the agent's own answer out; each on SQLite and PostgreSQL."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from helpers_budget import pre_tool_use, write_transcript
from typer.testing import CliRunner

from boundread.cli.budget import budget_app
from boundread.hook import ingest as ingest_hook
from boundread.hook import main as guard_main

REQUEST = 10 + 100 + 1000 + 50  # the tokens of one request of write_transcript


def budget(*args: str) -> Any:
    result = CliRunner().invoke(budget_app, list(args))
    assert result.exit_code == 0, result.output
    return result


def hook(payload: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any] | None, str]:
    """Run the ingest hook on ``payload``: exit code, the JSON answer (None: none), stderr."""
    code = ingest_hook.main(io.StringIO(json.dumps(payload)))
    out, err = capsys.readouterr()
    answer = json.loads(out) if out.startswith("{") else None
    return code, answer, err


def guard(payload: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert guard_main.run([], stdin=io.StringIO(json.dumps(payload))) == 0
    out = capsys.readouterr().out
    return json.loads(out) if out else {}


def post_tool_use(session: str, transcript: Path, **extra: Any) -> dict[str, Any]:
    return {**pre_tool_use(session, transcript, "echo hi"), "hook_event_name": "PostToolUse",
            "tool_response": {"stdout": "hi"}, **extra}


def prompt(session: str, transcript: Path) -> dict[str, Any]:
    return {"session_id": session, "transcript_path": str(transcript), "cwd": str(transcript.parent),
            "permission_mode": "default", "hook_event_name": "UserPromptSubmit", "prompt": "go on"}


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    return tmp_path / "s.jsonl"


def test_a_request_that_reaches_the_token_cap_ends_the_session_at_the_next_hook(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    budget("set", "--session", "s", "--max-tokens", str(2 * REQUEST), "--allow-overshoot")
    write_transcript(transcript, 0, 2)
    code, answer, err = hook(post_tool_use("s", transcript), capsys)
    assert code == 0 and answer is not None
    assert answer["continue"] is False
    stop = answer["stopReason"]
    assert f"token cap reached in session s: {2 * REQUEST:,} tokens of {2 * REQUEST:,} tokens" in stop
    assert "`boundread budget set --session s --max-tokens N`" in stop
    assert "2 new request(s)" in err, "the summary goes to stderr when stdout carries the answer"


def test_the_session_ends_before_the_request_that_would_cross_the_cap(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The next request carries at least the last one's tokens: 2 of them spent, a third would pass the cap."""
    budget("set", "--session", "s", "--max-tokens", str(3 * REQUEST - 1))
    write_transcript(transcript, 0, 1)
    _, first, _ = hook(post_tool_use("s", transcript), capsys)
    assert first is None or "continue" not in first, "one of three requests: far from the cap"
    write_transcript(transcript, 1, 1)
    _, second, _ = hook(post_tool_use("s", transcript), capsys)
    assert second is not None and second["continue"] is False
    assert "the next request would pass the token cap of session s" in second["stopReason"]
    assert f"adds at least {REQUEST:,} tokens" in second["stopReason"]


def test_overshoot_allowed_warns_the_model_instead(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    budget("set", "--session", "s", "--max-tokens", str(3 * REQUEST - 1), "--allow-overshoot")
    write_transcript(transcript, 0, 2)
    _, answer, _ = hook(post_tool_use("s", transcript), capsys)
    assert answer is not None and "continue" not in answer
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert answer["hookSpecificOutput"]["hookEventName"] == "PostToolUse"
    assert context.startswith("boundread budget: finish up now - 67% of the token cap of session s used")
    assert f"{REQUEST - 1:,} tokens left" in context


def test_past_half_the_model_is_told_what_is_left_once_per_request(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    budget("set", "--session", "s", "--max-tokens", str(10 * REQUEST))
    write_transcript(transcript, 0, 4)
    _, quiet, _ = hook(post_tool_use("s", transcript), capsys)
    assert quiet is None, "40% of the cap: nothing to say"
    write_transcript(transcript, 4, 2)
    _, told, _ = hook(post_tool_use("s", transcript), capsys)
    assert told is not None
    assert told["hookSpecificOutput"]["additionalContext"] == (
        f"boundread budget: 60% of the token cap of session s used ({6 * REQUEST:,} tokens of {10 * REQUEST:,}"
        f" tokens; {4 * REQUEST:,} tokens left, about 4 request(s) at the last one's size).")
    _, again, _ = hook(post_tool_use("s", transcript), capsys)
    assert again is None, "a second tool call of the same request: said already"


def test_the_last_allowed_tool_call_ends_the_session(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    budget("set", "--session", "s", "--max-calls", "2")
    write_transcript(transcript, 0, 1)
    for n in range(2):
        assert guard(pre_tool_use("s", transcript, f"echo {n}"), capsys) == {}
        _, answer, _ = hook(post_tool_use("s", transcript), capsys)
    assert answer is not None and answer["continue"] is False
    assert "call limit reached in session s: 2 tool calls of 2 tool calls" in answer["stopReason"]


def test_a_new_prompt_in_an_ended_session_is_refused(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    budget("set", "--session", "s", "--max-tokens", "100")
    write_transcript(transcript, 0, 1)
    code, answer, _ = hook(prompt("s", transcript), capsys)
    assert code == 0 and answer is not None
    assert answer["decision"] == "block" and answer["continue"] is False
    assert answer["reason"] == answer["stopReason"] and "token cap reached" in answer["reason"]


def test_a_first_prompt_in_a_capped_project_is_refused_without_an_error(
        backend: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A new session has no transcript yet: nothing to ingest, no error line, and the project's cap still holds."""
    older = tmp_path / "older.jsonl"
    write_transcript(older, 0, 1)
    hook(post_tool_use("older", older), capsys)
    CliRunner().invoke(budget_app, ["set", "--global", "--max-tokens", "100"])
    code, answer, err = hook(prompt("new", tmp_path / "not-yet.jsonl"), capsys)
    assert code == 0 and answer is not None and answer["decision"] == "block"
    assert "token cap reached in all sessions" in answer["reason"]
    assert "error" not in err


def test_a_budget_deny_in_claude_code_ends_the_session(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    budget("set", "--session", "s", "--max-calls", "1")
    assert guard(pre_tool_use("s", transcript, "echo 1"), capsys) == {}
    answer = guard(pre_tool_use("s", transcript, "echo 2"), capsys)
    assert answer["continue"] is False
    assert answer["stopReason"].startswith("boundread budget: call limit reached: call 2 of max 1 in session s")
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_codex_gets_the_deny_alone_and_its_next_hook_ends_the_session(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Codex takes continue:false from PreToolUse as a failed hook (the call would run): the deny goes alone, and
    the session, marked ended, is stopped by the next post-tool hook."""
    budget("set", "--session", "s", "--max-repeat", "2")
    codex = {"turn_id": "t1", "model": "gpt-5.5"}
    assert guard(pre_tool_use("s", transcript, "ls", **codex), capsys) == {}
    denied = guard(pre_tool_use("s", transcript, "ls", **codex), capsys)
    assert set(denied) == {"hookSpecificOutput"}
    assert "repeat policy" in denied["hookSpecificOutput"]["permissionDecisionReason"]
    write_transcript(transcript, 0, 1)
    _, answer, _ = hook(post_tool_use("s", transcript, **codex), capsys)
    assert answer is not None and answer["continue"] is False and "repeat policy" in answer["stopReason"]


def test_changed_limits_let_an_ended_session_go_on(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    budget("set", "--session", "s", "--max-repeat", "2")
    guard(pre_tool_use("s", transcript, "ls"), capsys)
    assert guard(pre_tool_use("s", transcript, "ls"), capsys)["continue"] is False
    write_transcript(transcript, 0, 1)
    assert hook(prompt("s", transcript), capsys)[1] is not None
    budget("set", "--session", "s", "--max-repeat", "5")
    assert hook(prompt("s", transcript), capsys)[1] is None


def test_gemini_stops_its_agent_loop_on_a_budget_deny(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    budget("set", "--session", "s", "--deny-tool", "web_fetch")
    payload = {"session_id": "s", "transcript_path": str(transcript), "cwd": str(transcript.parent),
               "hook_event_name": "BeforeTool", "timestamp": "2026-12-02T00:00:00Z", "tool_name": "web_fetch",
               "tool_input": {"prompt": "http://127.0.0.1:9/"}}
    answer = guard(payload, capsys)
    assert answer["decision"] == "deny" and answer["continue"] is False
    assert "web_fetch is forbidden" in answer["stopReason"]


def test_no_budget_no_answer(transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_transcript(transcript, 0, 1)
    code, answer, err = hook(post_tool_use("s", transcript), capsys)
    assert code == 0 and answer is None and err.startswith("session s: 1 new request(s)")


def test_with_sub_agents_at_work_the_next_round_counts_each_of_them(backend: str) -> None:
    """Each agent sends its whole context again: the next round is every working agent's last request."""
    from boundread.budget.model import UsageRecord
    from boundread.budget.verdict import after_request
    from boundread.hook.ingest import open_budget_ledger

    budget("set", "--session", "s", "--max-tokens", "950")
    with open_budget_ledger() as ledger:
        ledger.add_usage("s", [UsageRecord("m", 200, key="main-1", at=1000.0),
                               UsageRecord("m", 150, key="sub-1", agent="a1", at=1001.0),
                               UsageRecord("m", 100, key="old", agent="a0", at=900.0)])  # done a while ago
        assert after_request(ledger, "s", None).stop is None, "450 spent, 350 next: 800 of 950"
        ledger.add_usage("s", [UsageRecord("m", 160, key="sub-2", agent="a1", at=1002.0)])
        verdict = after_request(ledger, "s", None)
    assert verdict.stop is not None and "adds at least 360 tokens" in verdict.stop, "610 spent, 200 + 160 next: 970"


def test_a_prompt_hook_prints_nothing_but_its_answer(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Claude Code and Codex add a UserPromptSubmit hook's plain stdout to the prompt: the summary is not for the
    model. With a budget far from its caps there is no answer at all."""
    budget("set", "--session", "s", "--max-tokens", "1000000")
    write_transcript(transcript, 0, 1)
    code = ingest_hook.main(io.StringIO(json.dumps(prompt("s", transcript))))
    out, err = capsys.readouterr()
    assert (code, out) == (0, "") and "1 new request(s)" in err



def test_an_attempt_on_the_budget_ends_the_session_too(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An agent that tries to lift its own cap is the runaway the budget is for: refused, and its session ends."""
    budget("set", "--session", "s", "--max-calls", "10")
    answer = guard(pre_tool_use("s", transcript, "boundread budget set --session s --max-calls 1000"), capsys)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny" and answer["continue"] is False
    assert "would change the limits of a budget - the session ends here" in answer["stopReason"]


def test_the_cli_hook_waits_for_the_request_its_tool_call_came_in(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Claude Code flushes its transcript on a 100 ms timer: the PostToolUse hook may start before the request that
    asked for the tool is in the file. The hook waits for the call's id, so the verdict counts that request."""
    import threading
    import time

    budget("set", "--session", "s", "--max-tokens", str(2 * REQUEST - 1))
    write_transcript(transcript, 0, 1)
    late = json.loads(assistant_line_with_call(1, "toolu_late"))

    def flush() -> None:
        time.sleep(0.3)
        with transcript.open("a", encoding="utf-8") as f:
            f.write(json.dumps(late) + "\n")

    writer = threading.Thread(target=flush)
    writer.start()
    _, answer, err = hook(post_tool_use("s", transcript, tool_use_id="toolu_late"), capsys)
    writer.join()
    assert answer is not None and answer["continue"] is False, err
    assert f"token cap reached in session s: {2 * REQUEST:,} tokens" in answer["stopReason"]


def assistant_line_with_call(i: int, call: str) -> str:
    from helpers_budget import assistant_line

    line = json.loads(assistant_line(i))
    line["message"]["content"] = [{"type": "tool_use", "id": call, "name": "Bash", "input": {"command": "ls"}}]
    return json.dumps(line)


def test_a_retried_pre_tool_hook_counts_its_call_once(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A client that runs the hook again for the same call (the same tool_use_id) gets the same answer, and the
    call counts once."""
    budget("set", "--session", "s", "--max-calls", "2")
    first = pre_tool_use("s", transcript, "echo 1", tool_use_id="toolu_a")
    for _ in range(3):
        assert guard(first, capsys) == {}
    assert guard(pre_tool_use("s", transcript, "echo 2", tool_use_id="toolu_b"), capsys) == {}
    third = guard(pre_tool_use("s", transcript, "echo 3", tool_use_id="toolu_c"), capsys)
    assert "call limit reached: call 3 of max 2" in third["stopReason"]


def test_waiting_for_a_call_finds_it_in_a_line_longer_than_the_tail(tmp_path: Path) -> None:
    """A Write of a big file: the request's line is longer than the 256 KiB searched at first, and the call's id
    comes first in it. It is found at once, not after the whole wait."""
    from boundread.agents import sessionfiles

    line = json.loads(assistant_line_with_call(0, "toolu_big"))
    line["message"]["content"][0]["input"] = {"file_path": "big.txt", "content": "x" * 600_000}
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    payload = {"tool_use_id": "toolu_big", "transcript_path": str(path)}
    assert sessionfiles.settle_call(payload, limit=5) < 1


def test_with_no_budget_anywhere_the_hook_does_not_wait_for_the_call(
        transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_transcript(transcript, 0, 1)
    code, answer, err = hook(post_tool_use("s", transcript, tool_use_id="toolu_never_written"), capsys)
    assert (code, answer) == (0, None) and "waited" not in err


def test_a_prompt_is_refused_when_a_locked_ledger_cannot_say_what_was_spent(
        transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Another process holds the ledger: the hook gives up within its bound (the agent waits for it), and a new
    prompt of a session with a budget is refused rather than let through with its spend unknown."""
    import subprocess
    import sys
    import time

    from boundread.budget.ledger import ledger_path

    budget("set", "--session", "s", "--max-tokens", "1000000")
    write_transcript(transcript, 0, 1)
    holder = subprocess.Popen([sys.executable, "-c", "import sqlite3, sys, time\n"
                               f"db = sqlite3.connect({str(ledger_path())!r}, isolation_level=None)\n"
                               "db.execute('BEGIN EXCLUSIVE'); print('held', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        begin = time.monotonic()
        code, answer, err = hook(prompt("s", transcript), capsys)
        took = time.monotonic() - begin
    finally:
        holder.kill()
        holder.wait()
    # the holder keeps the lock for 60 s: a hook that ended well before that gave up at its own bound (HOOK_S, 8 s),
    # as the answer's reason says; 3x the bound holds on a loaded machine (bench/hook_deadlines.py times it)
    assert took < 3 * ingest_hook.HOOK_S, f"{took:.1f} s: the hook's bound is {ingest_hook.HOOK_S:g} s"
    assert code == 0 and answer is not None and answer["decision"] == "block", err
    assert "spend is unknown" in answer["reason"]


def test_a_session_refused_at_its_first_call_stays_ended(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The refused call may be the session's first: its end is still noted, and a new prompt is refused."""
    budget("set", "--global", "--deny-tool", "WebFetch")
    payload = {**pre_tool_use("fresh", transcript, "x"), "tool_name": "WebFetch", "tool_input": {"url": "u"}}
    assert guard(payload, capsys)["continue"] is False
    write_transcript(transcript, 0, 1)
    _, answer, _ = hook(prompt("fresh", transcript), capsys)
    assert answer is not None and answer["decision"] == "block" and "WebFetch is forbidden" in answer["reason"]


def test_new_limits_let_only_their_scopes_ended_sessions_go_on(backend: str, transcript: Path) -> None:
    """Through the Python API as through the CLI; a session of another scope stays ended."""
    from boundread.budget.model import BudgetLimits, Scope
    from boundread.budget.verdict import after_request, halt
    from boundread.hook.ingest import open_budget_ledger

    with open_budget_ledger() as ledger:
        for session in ("a", "b"):
            ledger.set_limits(Scope("session", session), BudgetLimits(max_repeat=2))
            halt(ledger, session, f"{session} ended")
        ledger.set_limits(Scope("session", "a"), BudgetLimits(max_repeat=3))
        assert after_request(ledger, "a", None).stop is None
        assert after_request(ledger, "b", None).stop == "b ended"


def test_a_huge_tool_use_id_is_one_call_on_either_store(
        backend: str, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A 10 MB id: SQLite took it, PostgreSQL's index refused it (the call was then denied as a ledger fault)."""
    budget("set", "--session", "s", "--max-calls", "5")
    huge = "toolu_" + "x" * 10_000_000
    assert guard(pre_tool_use("s", transcript, "ls", tool_use_id=huge), capsys) == {}
    assert guard(pre_tool_use("s", transcript, "ls", tool_use_id=huge), capsys) == {}, "the same call again"
