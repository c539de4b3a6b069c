"""``budget ingest`` under hostile transcripts (issue 9): devices and FIFOs are refused at once, an over-long
line is skipped, an impossible count skips its record; in each case the offset moves on and ingest goes on.

The device and FIFO cases run in a subprocess with a time bound: before, /dev/zero grew by 1.2 GB/s for ever.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers_budget import assistant_line, write_transcript
from typer.testing import CliRunner

from boundread.agents.sessionfiles import ingest
from boundread.budget import transcript as transcript_mod
from boundread.budget.ledger import open_ledger
from boundread.budget.model import Scope
from boundread.cli.budget import budget_app

runner = CliRunner()
SRC = str(Path(__file__).resolve().parents[2] / "src")
BOUND = 20  # seconds: every case below ends in well under one


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    code = "import sys; from boundread.__main__ import main; sys.argv[0] = 'boundread'; main()"
    return subprocess.run([sys.executable, "-c", code, "budget", "ingest", *args], input=stdin, text=True,
                          capture_output=True, env={**os.environ, "PYTHONPATH": SRC}, timeout=BOUND)


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.jsonl"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_a_device_or_fifo_transcript_is_refused_at_once(kind: str, fifo: Path) -> None:
    target = "/dev/zero" if kind == "device" else str(fifo)
    named = _cli("--transcript", target)
    assert named.returncode == 3 and named.stderr.count("\n") == 1
    assert "not a regular file" in named.stderr and "Traceback" not in named.stderr
    stop = {"hook_event_name": "Stop", "session_id": "s", "transcript_path": target, "last_assistant_message": "hi"}
    hook = _cli(stdin=json.dumps(stop))  # as the hook: never exit 2 (Claude Code: "do not stop")
    assert hook.returncode == 1 and hook.stderr.startswith("boundread: error: transcript ")
    assert "not a regular file" in hook.stderr and hook.stderr.count("\n") == 1


def test_a_sub_agent_fifo_is_skipped_with_a_warning(tmp_path: Path) -> None:
    parent = tmp_path / "s.jsonl"
    write_transcript(parent, 0, 2)
    subs = tmp_path / "s" / "subagents"
    subs.mkdir(parents=True)
    os.mkfifo(subs / "agent-x.jsonl")
    payload = {"hook_event_name": "SubagentStop", "session_id": "s", "transcript_path": str(parent),
               "agent_transcript_path": str(subs / "agent-x.jsonl")}
    result = _cli(stdin=json.dumps(payload))
    assert result.returncode == 0, result.stderr
    assert "2 new request(s)" in result.stderr and "is a FIFO, not a regular file; skipped" in result.stderr


def test_an_over_long_line_is_skipped_and_the_offset_moves_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    monkeypatch.setattr(transcript_mod, "MAX_LINE", 1000)
    monkeypatch.setattr(transcript_mod, "SKIP_CHUNK", 64)
    path = tmp_path / "t.jsonl"
    path.write_text(assistant_line(1) + '{"usage": "' + "x" * 5000 + '"}\n' + assistant_line(2) + "y" * 3000)
    with open_ledger() as ledger:
        result = ingest(ledger, path, session="t")
        assert result.records == 2 and result.end == path.stat().st_size  # the unended tail too: no re-read
        assert any("a line of 5,014 bytes (over 1,000); skipped" in w for w in result.warnings), result.warnings
        assert ingest(ledger, path, session="t").lines == 0


def test_a_count_of_10_to_the_30_skips_its_record_and_ingest_goes_on(tmp_path: Path, backend: str) -> None:
    path = tmp_path / "t.jsonl"
    huge = json.loads(assistant_line(1, inp=1))
    huge["message"]["usage"]["input_tokens"] = 10**30
    split = json.loads(assistant_line(3))
    split["message"]["usage"]["cache_creation"] = {"ephemeral_5m_input_tokens": 10**13, "ephemeral_1h_input_tokens": 1}
    path.write_text(json.dumps(huge) + "\n" + assistant_line(2, inp=7) + json.dumps(split) + "\n")
    result = runner.invoke(budget_app, ["ingest", "--transcript", str(path), "--session", "t"])
    assert result.exit_code == 0, result.stderr
    assert "input_tokens=~10**30 is not a possible token count; record skipped" in result.stderr
    assert "cache_creation=" in result.stderr and "1 new request(s)" in result.stdout
    with open_ledger() as ledger:
        assert ledger.totals(Scope("session", "t")).input == 7
        assert ledger.offset(str(path.resolve())) == path.stat().st_size  # not stuck on the bad line
    again = runner.invoke(budget_app, ["ingest", "--transcript", str(path), "--session", "t"])
    assert "0 new bytes" in again.stdout


@pytest.mark.parametrize("args", [("set", "--session", "s", "--max-tokens", str(2**70)),
                                  ("add", "--session", "s", "--model", "m", "--input", str(10**30))])
def test_huge_numbers_on_the_command_line_are_usage_errors(args: tuple[str, ...]) -> None:
    result = runner.invoke(budget_app, list(args))
    assert result.exit_code == 2 and "Traceback" not in result.output
