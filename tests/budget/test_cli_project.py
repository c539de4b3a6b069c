"""Issue 8, section 2: `budget status` and `budget check` show and enforce the project scope guard-check uses."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers_budget import pre_tool_use, write_transcript
from typer.testing import CliRunner

from boundread.budget import enforce
from boundread.cli.budget import budget_app

runner = CliRunner()


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder (as the cwd) whose session "p1" spent past a project cap of $0.01."""
    folder = tmp_path / "proj"
    folder.mkdir()
    monkeypatch.chdir(folder)
    assert runner.invoke(budget_app, ["set", "--project", "--max-usd", "0.01", "--max-calls", "50"]).exit_code == 0
    transcript = tmp_path / "p1.jsonl"
    write_transcript(transcript, 0, 10)
    post = {**pre_tool_use("p1", transcript, "ls"), "cwd": str(folder), "hook_event_name": "PostToolUse"}
    assert runner.invoke(budget_app, ["ingest"], input=json.dumps(post)).exit_code == 0
    return Path(os.path.realpath(folder))


def test_check_without_a_payload_enforces_the_project_cap(project: Path) -> None:
    for args in (["check"], ["check", "--session", "another"]):
        result = runner.invoke(budget_app, args)
        assert result.exit_code == 2, result.stdout
        assert f"cost cap reached: $0.02 of $0.01 in project {project}" in result.stderr
    as_json = json.loads(runner.invoke(budget_app, ["check", "--json"]).stdout)
    assert as_json["allowed"] is False and "in project" in as_json["reason"]
    payload = pre_tool_use("another", project / "t.jsonl", "ls")  # and guard-check says the same
    assert f"in project {project}" in (enforce.check_tool_call(payload, "Bash", payload["tool_input"]) or "")


def test_check_elsewhere_is_not_held_by_the_project(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(budget_app, ["check"]).exit_code == 0


def test_check_denies_when_the_call_limit_is_used_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(budget_app, ["set", "--session", "c", "--max-calls", "1"]).exit_code == 0
    payload = pre_tool_use("c", tmp_path / "t.jsonl", "ls")
    assert enforce.check_tool_call(payload, "Bash", payload["tool_input"]) is None
    result = runner.invoke(budget_app, ["check", "--session", "c"])
    assert result.exit_code == 2 and "call limit reached: call 2 of max 1 in session c" in result.stderr


def test_status_shows_the_project(project: Path) -> None:
    here = json.loads(runner.invoke(budget_app, ["status", "--project", "--json"]).stdout)
    (scope,) = here["scopes"]
    assert scope["scope"] == f"project:{project}" and scope["limits"]["max_usd"] == "0.01"
    every = json.loads(runner.invoke(budget_app, ["status", "--json"]).stdout)
    scopes = {s["scope"]: s for s in every["scopes"]}
    assert list(scopes) == ["session:p1", f"project:{project}", "global"]
    assert scopes[f"project:{project}"]["spent"] == scopes["session:p1"]["spent"] == scope["spent"]
    human = runner.invoke(budget_app, ["status", "--project"])
    assert human.exit_code == 0 and f"project {project}" in human.stdout and "cost (USD)" in human.stdout
    both = runner.invoke(budget_app, ["status", "--project", "--session", "p1"])
    assert both.exit_code == 2 and "exclude each other" in both.stderr


def _check(session: str, cwd: Path, command: str = "ls") -> str | None:
    payload = {**pre_tool_use(session, cwd / "t.jsonl", command), "cwd": str(cwd)}
    return enforce.check_tool_call(payload, "Bash", payload["tool_input"])


def test_a_call_from_a_subfolder_stays_under_the_project_cap(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The over-cap session p1 sends cwd=proj/sub (the agent ran `cd sub`): still the project's, still denied."""
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    sub = project / "sub"
    sub.mkdir()
    assert f"cost cap reached: $0.02 of $0.01 in project {project}" in (_check("p1", sub) or "")
    assert _check("new", sub) is None  # a session that starts in the subfolder is the subfolder's
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))  # what Claude Code gives its hooks
    assert f"in project {project}" in (_check("newer", sub) or "")


def test_a_session_keeps_its_first_project_in_each_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    folder = tmp_path / "proj"
    (folder / "sub").mkdir(parents=True)
    monkeypatch.chdir(folder)
    assert runner.invoke(budget_app, ["set", "--project", "--max-calls", "2"]).exit_code == 0
    real = Path(os.path.realpath(folder))
    assert _check("s", folder, "one") is None
    assert _check("s", folder / "sub", "two") is None  # call 2 of 2, counted in the project
    assert f"call limit reached: call 3 of max 2 in project {real}" in (_check("s", folder / "sub", "three") or "")
    from boundread.budget.ledger import open_ledger
    from boundread.budget.model import Scope
    from boundread.budget.policy import decide

    with open_ledger() as ledger:  # the ledger API (what a hook falls back to) answers the same
        assert ledger.totals(Scope("project", str(real))).calls == 2
        verdict = ledger.record_call("s", str(real / "sub"), "Bash", "d", 0, decide)
        assert verdict is not None and f"in project {real}" in str(verdict)
        assert ledger.totals(Scope("project", str(real / "sub"))).calls == 0
    monkeypatch.chdir(folder / "sub")  # a folder with rules of its own: not for a session that began above it
    assert runner.invoke(budget_app, ["set", "--project", "--deny-tool", "Bash"]).exit_code == 0
    assert "forbidden" in (_check("below", folder / "sub") or "")
    assert f"call limit reached: call 3 of max 2 in project {real}" in (_check("s", folder / "sub", "four") or "")
    with open_ledger() as ledger:
        verdict = ledger.record_call("s", str(real / "sub"), "Bash", "e", 0, decide)
        assert verdict is not None and f"in project {real}" in str(verdict)


def _closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_with_the_ledger_lost_a_call_from_a_subfolder_is_under_the_project_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The ledger knows a session's first project; without it, a listed project that contains the folder applies."""
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    folder = tmp_path / "proj"
    (folder / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(folder)
    assert runner.invoke(budget_app, ["set", "--project", "--max-calls", "1"]).exit_code == 0
    assert _check("s", folder, "one") is None  # seen by the hook: the limits are kept beside it (or cached)
    if backend == "postgres":  # the server stops answering
        url = os.environ["BOUNDREAD_LEDGER_URL"]
        port = url.split("@", 1)[1].split("/", 1)[0].rsplit(":", 1)[1]
        monkeypatch.setenv("BOUNDREAD_LEDGER_URL", url.replace(f":{port}/", f":{_closed_port()}/"))
    else:  # the ledger file is deleted
        for tail in ("", "-wal", "-shm"):
            Path(f"{enforce._ledger_file()}{tail}").unlink(missing_ok=True)
    capsys.readouterr()
    for where in (folder, folder / "sub", folder / "sub" / "deeper"):
        reason = _check("s", where, "two") or ""
        assert reason.startswith(enforce.UNUSABLE) and "calls with a budget are denied" in reason, where
    assert _check("s", tmp_path / "elsewhere", "three") is None  # no listed project holds it: allowed, warned
    assert "this call has no budget: allowed" in capsys.readouterr().err
