"""Issue 19 part 1: no input outruns the hook. Each of these once took 11-19 s (past the client's 10 s timeout,
after which the command runs unguarded), ran out of memory and then allowed, or grew to 12.5 GB. Now each is
answered by guard-check - the real command, a Claude Code payload on stdin - with a deny and a reason, in bounded
memory (its peak RSS is read from the kernel). Time is measured in bench/guard_hostile.py, not asserted here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hookproject import guard_argv, guard_env

MEMORY_MB = 200  # issue 19: every decision within 200 MB whatever the input


def _nested_bash(depth: int) -> str:
    command = "cat big.log"
    for _ in range(depth):
        command = "bash -c '" + command.replace("'", "'\\''") + "'"
    return command


HOSTILE = {
    "a value doubled 32 times, then a dump": "x=a; " + "x=$x$x; " * 32 + "cat big.log",
    "a value doubled 40 times": "x=a; " + "x=$x$x; " * 40 + "echo done",
    "10,000 nested braces": "echo " + "{" * 10_000 + "a,b" + "}" * 10_000,
    "10 MB of true;": "true;" * (2 * 1024 * 1024),
    "13 nested bash -c of a dump": _nested_bash(13),
    "5,000 nested sub-shells around a dump": "(" * 5_000 + "cat big.log" + ")" * 5_000,
    "3,000 nested command substitutions": "echo " + "$(" * 3_000 + "echo" + ")" * 3_000,
    "a here-document of 5 MB": "cat <<'EOF'\n" + "data line\n" * 500_000 + "EOF",
}

# Runs guard-check as a child and prints its answer, then the child's peak RSS in KB (Linux's ru_maxrss).
_MEASURE = """
import resource, subprocess, sys
payload = sys.stdin.buffer.read()
done = subprocess.run(sys.argv[1:], input=payload, capture_output=True)
sys.stdout.write(done.stdout.decode() + "\\n" + str(done.returncode) + "\\n" +
                 str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    (root / "big.log").write_text("".join(f"2026-12-02 INFO request {n} served\n" for n in range(40_000)))
    return root


def _guard(command: str, cwd: Path) -> tuple[dict[str, object], int]:
    """guard-check's hookSpecificOutput for a Claude Code Bash call, and its peak memory in MB."""
    payload = {"session_id": "s", "transcript_path": "/dev/null", "cwd": str(cwd), "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "toolu_1"}
    done = subprocess.run([sys.executable, "-c", _MEASURE, *guard_argv("--agent", "claude")],
                          input=json.dumps(payload).encode(), capture_output=True, env=guard_env(), check=True,
                          timeout=120)
    answer, code, peak_kb = done.stdout.decode().rsplit("\n", 2)
    assert code == "0", answer
    body = json.loads(answer)["hookSpecificOutput"] if answer.strip() else {}  # an allow prints nothing
    return body, int(peak_kb) // 1024


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_command_is_denied_with_a_reason_in_bounded_memory(project: Path, name: str) -> None:
    answer, peak_mb = _guard(HOSTILE[name], project)
    assert answer["permissionDecision"] == "deny", answer
    reason = str(answer["permissionDecisionReason"])
    assert "big.log" in reason or "more than boundread can check" in reason, reason
    assert peak_mb < MEMORY_MB, f"guard-check peaked at {peak_mb} MB"


def test_the_same_harness_lets_an_everyday_command_through(project: Path) -> None:
    """The measure above can tell: an ordinary command is allowed by the same real guard-check."""
    answer, peak_mb = _guard("grep -c INFO big.log && tail -n 20 big.log", project)
    assert answer.get("permissionDecision", "allow") == "allow", answer
    assert peak_mb < MEMORY_MB


def test_a_budget_run_out_says_how_to_shorten_the_command(project: Path) -> None:
    answer, _ = _guard(HOSTILE["10 MB of true;"], project)
    reason = str(answer["permissionDecisionReason"])
    assert "split it into several calls" in reason and "write long data or a long script to a file" in reason
    assert len(reason) < 1_200  # the command is shown cut, not whole
