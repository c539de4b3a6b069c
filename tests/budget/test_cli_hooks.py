from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers_budget import pre_tool_use, write_transcript
from typer.testing import CliRunner

from boundread.budget import enforce
from boundread.cli.budget import budget_app

runner = CliRunner()
SRC = str(Path(__file__).resolve().parents[2] / "src")


def run(*args: str, stdin: str | None = None) -> object:
    return runner.invoke(budget_app, list(args), input=stdin)


def test_set_add_status_prices_reset(backend: str) -> None:
    assert run("set", "--session", "abc", "--max-usd", "0.50", "--max-tokens", "100000").exit_code == 0
    added = run(
        "add", "--session", "abc", "--model", "claude-sonnet-4-5", "--input", "1000", "--output", "34000", "--json"
    )
    assert added.exit_code == 0 and json.loads(added.stdout)["usd"] == "0.513"
    check = run("check", "--session", "abc")
    assert check.exit_code == 2
    assert "cost cap reached: $0.51 of $0.50 in session abc" in check.stderr
    status = json.loads(run("status", "--session", "abc", "--json").stdout)
    assert status["scopes"][0]["spent"]["usd"] == "0.513"
    assert "cost (USD)" in run("status", "--session", "abc").stdout
    prices = run("prices", "no-such-model-zz", "--json")
    assert json.loads(prices.stdout)["known"] is False
    assert run("reset", "--session", "abc").exit_code == 0
    assert run("check", "--session", "abc").exit_code == 0
    bad = run("set", "--session", "abc", "--global", "--max-calls", "3")
    assert bad.exit_code == 2 and "exclude each other" in bad.stderr


def test_exec_goes_one_level_deeper_and_refuses_beyond_the_limit(monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    assert run("set", "--session", "d", "--max-depth", "1").exit_code == 0
    ok = run(
        "exec",
        "--session",
        "d",
        "--",
        sys.executable,
        "-c",
        "import os,sys; sys.exit(int(os.environ['BOUNDREAD_DEPTH'])+40)",
    )
    assert ok.exit_code == 41
    monkeypatch.setenv("BOUNDREAD_DEPTH", "1")
    deep = run("exec", "--session", "d", "--", sys.executable, "-c", "pass")
    assert deep.exit_code == 2 and "depth limit reached: depth 2 of max 1" in deep.stderr


def test_hook_flow_until_the_cost_cap_denies(tmp_path: Path, backend: str) -> None:
    transcript = tmp_path / "sess-1.jsonl"
    transcript.touch()
    assert run("set", "--session", "sess-1", "--max-usd", "0.05").exit_code == 0
    denied = None
    for turn in range(40):
        payload = pre_tool_use("sess-1", transcript, f"echo {turn}")
        denied = enforce.check_tool_call(payload, "Bash", payload["tool_input"])
        if denied:
            break
        write_transcript(transcript, turn * 2, 2)  # the agent answers: two streamed requests per turn
        post = {**payload, "hook_event_name": "PostToolUse", "tool_response": {"stdout": "x"}}
        assert run("ingest", stdin=json.dumps(post)).exit_code == 0
    assert denied is not None and "cost cap reached" in denied and "of $0.05 in session sess-1" in denied
    hook = run("check", stdin=json.dumps(pre_tool_use("sess-1", transcript, "echo again")))
    assert hook.exit_code == 0
    assert json.loads(hook.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_repeat_policy_and_depth_from_hooks(tmp_path: Path, backend: str) -> None:
    assert run("set", "--session", "r", "--max-repeat", "3", "--max-depth", "0").exit_code == 0
    sub = {**pre_tool_use("r", tmp_path / "t.jsonl", "x"), "agent_id": "agent-1", "agent_type": "general-purpose"}
    assert "depth limit reached: depth 1 of max 0" in (enforce.check_tool_call(sub, "Bash", {"command": "x"}) or "")
    verdicts = []
    for _ in range(3):  # the same command three times: three calls, each with its own id
        payload = pre_tool_use("r", tmp_path / "t.jsonl", "ls")
        verdicts.append(enforce.check_tool_call(payload, "Bash", payload["tool_input"]))
    assert verdicts[:2] == [None, None]
    assert verdicts[2] is not None and "3 times in a row" in verdicts[2]


def test_no_ledger_means_no_work() -> None:
    assert not Path(os.environ["BOUNDREAD_STATE_DIR"]).exists()
    assert enforce.check_tool_call({"session_id": "x"}, "Bash", {"command": "ls"}) is None
    assert not Path(os.environ["BOUNDREAD_STATE_DIR"]).exists()


def test_guard_check_subprocess_denies_on_the_repeat_policy(tmp_path: Path) -> None:
    pytest.importorskip("boundread.hook.main")
    assert run("set", "--session", "g", "--max-repeat", "3").exit_code == 0
    code = "import sys; from boundread.hook.main import run; sys.exit(run(sys.argv[1:]))"
    env = {**os.environ, "PYTHONPATH": SRC}
    outs = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60,
                       input=json.dumps(pre_tool_use("g", tmp_path / "t.jsonl", "ls -la")))
        for _ in range(3)
    ]
    assert [o.stdout for o in outs[:2]] == ["", ""]
    answer = json.loads(outs[2].stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"
    # a decision, not a fault, whatever prefix the client puts in front ("PreToolUse:Bash hook error: ...")
    reason = answer["permissionDecisionReason"]
    assert reason.startswith("Not an error: boundread's budget stopped this on purpose - ")
    assert "repeat policy" in reason


@pytest.mark.parametrize("stdin", ["", "not json", json.dumps({"hook_event_name": "Stop", "session_id": "s"})])
def test_ingest_as_a_hook_never_exits_2(stdin: str) -> None:
    """Claude Code reads exit 2 from a Stop hook as "keep going": a broken payload must not trap the agent."""
    result = run("ingest", stdin=stdin)
    assert result.exit_code == 1
    assert result.stderr.startswith("boundread: error: ") and result.stderr.count("\n") == 1


def test_ingest_with_a_named_transcript_keeps_the_usage_exit_code(tmp_path: Path) -> None:
    result = run("ingest", "--transcript", str(tmp_path / "missing.jsonl"))
    assert result.exit_code not in (0, 1)


def test_the_registered_ingest_hook_runs_without_typer(tmp_path: Path) -> None:
    """`boundread budget ingest` (bare, as init --budget registers it) skips the Typer app: it runs per tool call."""
    transcript = tmp_path / "t.jsonl"
    write_transcript(transcript, 0, 1)
    payload = json.dumps({"session_id": "fast", "transcript_path": str(transcript), "hook_event_name": "Stop"})
    probe = ("import sys; sys.argv = ['boundread', 'budget', 'ingest']\n"
             "from boundread.__main__ import main\n"
             "try:\n    main()\nexcept SystemExit as exc:\n    code = exc.code\n"
             "print('typer' in sys.modules, code, file=sys.stderr)")
    env = {**os.environ, "PYTHONPATH": SRC}
    done = subprocess.run([sys.executable, "-c", probe], input=payload, capture_output=True, text=True, env=env,
                          timeout=60, check=True)
    assert done.stdout == "" and done.stderr.startswith("session fast: 1 new request(s)"), "stdout is the agent's"
    assert done.stderr.strip().endswith("False 0")
    bad = subprocess.run([sys.executable, "-c", probe], input="{oops", capture_output=True, text=True, env=env,
                         timeout=60, check=True)
    assert bad.stderr.startswith("boundread: error: stdin is not a JSON hook payload")
    assert bad.stderr.strip().endswith("False 1")
