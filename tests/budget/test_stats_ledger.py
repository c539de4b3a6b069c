"""What guard-check records for ``boundread stats``: a row per call it decided, on SQLite and on PostgreSQL.

Each row comes from a real guard-check run (the console script's entry, in a subprocess, as a client runs it) on a
payload: a deny of a whole PDF read, a redirect of a whole read of a big log, a backstop replacement of a big
output. A plain allow records nothing, and recording never changes the answer.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_hook_path import CONSOLE, _env
from typer.testing import CliRunner

from boundread.budget.decided import Row, from_line
from boundread.budget.ledger import open_decisions
from boundread.budget.rows import FILENAME
from boundread.budget.schema import DECISIONS_FILE, DECISIONS_JOURNAL
from boundread.budget.sqlite import SqliteDecisions
from boundread.budget.stats import summarize
from boundread.cli.app import app

LINES = 20_000  # a log of ~1.1 MB: over the guard's text cap, so a whole read is refused or redirected


def _pdf(path: Path, pages: int) -> Path:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("helvetica", size=12)
    for number in range(pages):
        pdf.add_page()
        pdf.cell(text=f"STATS-SENTINEL page {number + 1}")
    pdf.output(str(path))
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    _pdf(root / "report.pdf", 30)
    with (root / "big.log").open("w", encoding="utf-8") as fh:
        for n in range(LINES):
            fh.write(f"2026-12-02 10:{n % 60:02d}:00 INFO request {n} served in {n % 97} ms\n")
    (root / "small.txt").write_text("hello\n", encoding="utf-8")
    return root


def _pre(project: Path, tool: str, tool_input: dict[str, Any], call: str, session: str = "s1") -> dict[str, Any]:
    return {"session_id": session, "transcript_path": "/t.jsonl", "cwd": str(project), "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": tool_input, "tool_use_id": call}


def _post(project: Path, stdout: str) -> dict[str, Any]:
    return {"session_id": "s1", "transcript_path": "/t.jsonl", "cwd": str(project), "hook_event_name": "PostToolUse",
            "tool_name": "Bash", "tool_input": {"command": "python3 gen.py"},
            "tool_response": {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False},
            "tool_use_id": "toolu_post"}


def guard_check(payload: dict[str, Any], *args: str, env: dict[str, str] | None = None,
                ) -> subprocess.CompletedProcess[str]:
    """guard-check as a client runs it: the console script's entry, the payload on stdin."""
    code = CONSOLE.replace("['guard-check']", repr(["guard-check", *args]))
    return subprocess.run([sys.executable, "-c", code], input=json.dumps(payload), capture_output=True, text=True,
                          env=env or _hook_env(), cwd=payload["cwd"], timeout=60, check=True)


def _hook_env() -> dict[str, str]:
    """The test's state folder, out folder and ledger URL (the backend fixture sets it), for the subprocess."""
    env = _env()
    for name in ("BOUNDREAD_STATE_DIR", "BOUNDREAD_OUT_DIR", "HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        env[name] = os.environ[name]
    env.pop("BOUNDREAD_LEDGER_URL", None)
    if os.environ.get("BOUNDREAD_LEDGER_URL"):
        env["BOUNDREAD_LEDGER_URL"] = os.environ["BOUNDREAD_LEDGER_URL"]
    return env


def _rows(**scope: Any) -> list[Any]:
    with open_decisions() as store:
        return store.decisions(**scope)


def test_each_decided_call_is_one_row_with_its_real_sizes(backend: str, project: Path) -> None:
    pdf, log = project / "report.pdf", project / "big.log"
    refused = guard_check(_pre(project, "Read", {"file_path": str(pdf)}, "t1"))
    assert '"permissionDecision": "deny"' in refused.stdout and refused.stderr == ""
    reason = json.loads(refused.stdout)["hookSpecificOutput"]["permissionDecisionReason"]

    redirected = guard_check(_pre(project, "Read", {"file_path": str(log)}, "t2"), "--mode", "redirect")
    answer = json.loads(redirected.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "allow" and redirected.stderr == ""
    first, count = answer["updatedInput"]["offset"], answer["updatedInput"]["limit"]
    with log.open("rb") as fh:
        lines = fh.readlines()[first - 1 : first - 1 + count]
    given = sum(len(line) for line in lines) + len(answer["additionalContext"].encode())

    output = "x" * 300_000
    replaced = guard_check(_post(project, output))
    text = json.loads(replaced.stdout)["hookSpecificOutput"]["updatedToolOutput"]["stdout"]

    rows = _rows(session="s1")
    assert [(r.kind, r.agent, r.tool) for r in rows] == [("deny", "claude", "Read"), ("redirect", "claude", "Read"),
                                                         ("backstop", "claude", "Bash")]
    deny, redirect, backstop = rows
    assert (deny.target, deny.raw_bytes, deny.delivered_bytes) == (str(pdf), pdf.stat().st_size, len(reason.encode()))
    assert (redirect.target, redirect.raw_bytes, redirect.delivered_bytes) == (str(log), log.stat().st_size, given)
    assert backstop.target.startswith("sha256:")  # a command: its digest, never its text
    assert (backstop.raw_bytes, backstop.delivered_bytes) == (len(output), len(text.encode()))
    assert {r.project for r in rows} == {os.path.realpath(project)}

    stats = summarize(rows, "session", "s1")
    assert stats.total.kept_bytes == sum(r.raw_bytes - r.delivered_bytes for r in rows)
    assert stats.total.kept_tokens == -(-stats.total.kept_bytes // 4)


def test_an_allow_records_nothing_and_creates_nothing(backend: str, project: Path) -> None:
    allowed = guard_check(_pre(project, "Read", {"file_path": str(project / "small.txt")}, "t1"))
    assert allowed.stdout == "" and allowed.stderr == ""
    pages = guard_check(_pre(project, "Read", {"file_path": str(project / "report.pdf"), "pages": "1-3"}, "t2"))
    assert pages.stdout == ""
    small = guard_check(_post(project, "short output"))
    assert small.stdout == ""
    state = Path(os.environ["BOUNDREAD_STATE_DIR"])
    assert not (state / DECISIONS_JOURNAL).exists() and not (state / DECISIONS_FILE).exists()
    assert _rows() == []


def test_a_deny_never_creates_the_budget_ledger(project: Path) -> None:
    """The budget ledger's presence turns the budget check on for every later call: stats keep to their own file."""
    guard_check(_pre(project, "Read", {"file_path": str(project / "report.pdf")}, "t1"))
    state = Path(os.environ["BOUNDREAD_STATE_DIR"])
    assert (state / DECISIONS_JOURNAL).stat().st_size > 0
    assert not (state / FILENAME).exists()
    assert len(_rows()) == 1 and not (state / FILENAME).exists()


def test_a_store_that_cannot_be_written_leaves_the_answer_and_one_warning(project: Path, tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the state folder should be\n", encoding="utf-8")
    env = {**_hook_env(), "BOUNDREAD_STATE_DIR": str(blocked)}
    payload = _pre(project, "Read", {"file_path": str(project / "report.pdf")}, "t1")
    result = guard_check(payload, env=env)
    assert result.stdout == guard_check(payload).stdout  # the same deny as with a store that works
    assert result.returncode == 0
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("boundread: warning: this call was not counted")
    assert "Traceback" not in result.stderr


def test_a_partial_range_counts_the_lines_asked_not_the_file(project: Path) -> None:
    log = project / "big.log"
    guard_check(_pre(project, "Read", {"file_path": str(log), "offset": 101, "limit": 9_000}, "t1"))
    (row,) = _rows()
    with log.open("rb") as fh:
        asked = sum(len(line) for line in fh.readlines()[100:9_100])
    assert row.kind == "deny" and row.raw_bytes == asked < log.stat().st_size


def test_a_grep_is_counted_without_bytes(project: Path) -> None:
    """Its output's size is estimated by the guard, not measured: the call counts, the bytes do not."""
    result = guard_check(_pre(project, "Bash", {"command": f"grep INFO {project / 'big.log'}"}, "t1"))
    assert "deny" in result.stdout
    (row,) = _rows()
    assert row.kind == "deny" and row.raw_bytes is None and not row.target.startswith("sha256:")
    stats = summarize([row], "all")
    assert (stats.total.calls, stats.total.sized, stats.total.raw_bytes) == (1, 0, 0)


def test_scopes_session_project_below_and_since(backend: str, tmp_path: Path) -> None:
    rows = [Row("a", "/w/p", "claude", "Read", "deny", "/w/p/x.pdf", 100, 10, at=1000.0),
            Row("b", "/w/p/sub", "codex", "Bash", "redirect", "/w/p/sub/y.log", 200, 20, at=2000.0),
            Row("c", "/w/pq", "gemini", "read_file", "deny", "/w/pq/z.pdf", 300, 30, at=3000.0)]
    with open_decisions() as store:
        for row in rows:
            store.add_decision(row)
        store.add_decision(rows[0])  # the same row (its key) twice: once in the store
        assert [r.session for r in store.decisions()] == ["a", "b", "c"]
        assert [r.session for r in store.decisions(session="b")] == ["b"]
        assert [r.session for r in store.decisions(project="/w/p")] == ["a", "b"]  # not /w/pq
        assert [r.session for r in store.decisions(since=1500.0)] == ["b", "c"]


def test_the_journal_folds_once_and_reads_back_odd_text(tmp_path: Path) -> None:
    odd = Row("tab\there\nnew\\line", None, "claude", "Read", "deny", "/p/a\tb.pdf", None, 5, at=12.5)
    back = from_line(odd.line())
    assert back is not None
    assert (back.session, back.project, back.target, back.raw, back.delivered, back.at, back.key) == (
        odd.session, None, odd.target, None, 5, 12.5, odd.key)
    assert from_line(b"2\tanother format\n") is None

    journal = tmp_path / DECISIONS_JOURNAL
    journal.write_bytes(odd.line() + b"1\tcut sh")  # a line cut short (a crash mid-write) is dropped
    with SqliteDecisions(tmp_path / DECISIONS_FILE) as store:
        assert [r.session for r in store.decisions()] == [odd.session]
        assert journal.read_bytes() == b""
        journal.write_bytes(odd.line())  # the same row again: its key counts it once
        assert len(store.decisions()) == 1


def test_stats_json_on_each_store(backend: str, project: Path) -> None:
    guard_check(_pre(project, "Read", {"file_path": str(project / "report.pdf")}, "t1"))
    guard_check(_pre(project, "Read", {"file_path": str(project / "big.log")}, "t2"), "--mode", "redirect")
    result = CliRunner().invoke(app, ["stats", "--project", str(project), "--json"])
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert (body["command"], body["scope"], body["sessions"]) == ("stats", "project", 1)
    assert (body["kinds"]["deny"]["calls"], body["kinds"]["redirect"]["calls"], body["total"]["calls"]) == (1, 1, 2)
    raw = (project / "report.pdf").stat().st_size + (project / "big.log").stat().st_size
    assert body["total"]["raw_bytes"] == raw


def test_a_hook_the_client_runs_again_counts_once(backend: str, project: Path) -> None:
    """Same session and tool_use_id: one row; another id: another row."""
    payload = _pre(project, "Read", {"file_path": str(project / "report.pdf")}, "toolu_same")
    first, again = guard_check(payload), guard_check(payload)
    assert first.stdout == again.stdout
    guard_check(_pre(project, "Read", {"file_path": str(project / "report.pdf")}, "toolu_other"))
    assert [r.kind for r in _rows()] == ["deny", "deny"]
