"""Issue 23: the fix a budget stop names is a command that works - run as written (with its N or X filled in),
it raises the limit that stopped the call, for a session's, a project's and the global limit alike."""

from __future__ import annotations

import json
import os
import re
import shlex
from pathlib import Path

import pytest
from helpers_budget import pre_tool_use, write_transcript
from typer.testing import CliRunner

from boundread.budget.errors import set_command
from boundread.cli.budget import budget_app

runner = CliRunner()


def _fix_of(stderr: str) -> list[str]:
    """The command in backticks of a `budget check` refusal, with its placeholder filled in, as argv."""
    command = re.search(r"`([^`]+)`", stderr)
    assert command is not None, stderr
    words = shlex.split(command.group(1).replace(" N", " 1000").replace(" X", " 100"))
    if words[0] == "cd":  # a project's limit is set from inside its folder
        os.chdir(words[1])
        words = words[3:]
    assert words[:3] == ["boundread", "budget", "set"], words
    return words[3:]


@pytest.mark.parametrize("scope", [["--session", "s 1"], ["--project"], ["--global"]])
def test_the_named_fix_lifts_a_spent_cost_cap(scope: list[str], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    folder = tmp_path / "a project"
    folder.mkdir()
    monkeypatch.chdir(folder)
    assert runner.invoke(budget_app, ["set", *scope, "--max-usd", "0.01"]).exit_code == 0
    transcript = tmp_path / "t.jsonl"
    write_transcript(transcript, 0, 10)
    post = {**pre_tool_use("s 1", transcript, "ls"), "cwd": str(folder), "hook_event_name": "PostToolUse"}
    assert runner.invoke(budget_app, ["ingest"], input=json.dumps(post)).exit_code == 0
    stopped = runner.invoke(budget_app, ["check", "--session", "s 1"])
    assert stopped.exit_code == 2 and "cost cap reached" in stopped.stderr

    monkeypatch.chdir(tmp_path)  # the fix works from anywhere: a project's carries its own cd
    raised = runner.invoke(budget_app, ["set", *_fix_of(stopped.stderr)])
    assert raised.exit_code == 0, raised.stderr
    monkeypatch.chdir(folder)
    assert runner.invoke(budget_app, ["check", "--session", "s 1"]).exit_code == 0


def test_the_call_limit_fix_names_its_scope(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(budget_app, ["set", "--session", "c", "--max-calls", "0"]).exit_code == 0
    stopped = runner.invoke(budget_app, ["check", "--session", "c"])
    assert stopped.exit_code == 2 and "`boundread budget set --session c --max-calls N`" in stopped.stderr
    assert runner.invoke(budget_app, ["set", *_fix_of(stopped.stderr)]).exit_code == 0
    assert runner.invoke(budget_app, ["check", "--session", "c"]).exit_code == 0


def test_a_scope_it_cannot_name_is_never_given_without_one() -> None:
    assert set_command("--max-usd X", "") == "boundread budget set --global --max-usd X"
    assert set_command("--max-usd X", "project /a b") == "cd '/a b' && boundread budget set --project --max-usd X"
