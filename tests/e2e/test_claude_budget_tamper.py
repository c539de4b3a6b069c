"""The agent cannot lift its own cap, in the real Claude Code (issue 18 part 6).

The project has a cap of CAP tool calls. In a session of its own, the scripted model tries each attempt that
lifted a cap before: ``budget set`` and ``budget reset`` by name, by full path and by ``python3 -m``, ``rm`` of the
ledger and its limits file, ``rm`` of the ledger then ``budget recover``, ``sqlite3 ... UPDATE`` on the ledger,
``BOUNDREAD_DEPTH=0`` in front of a command (at depth 1), a budget change piped into ``sh`` - each ending in
``touch`` of a marker, so a command that ran leaves a trace - and one writes a ``pyproject.toml`` that prices its
model at 0. A refusal ends that session (a budget deny sends ``continue: false``). Then a runaway session spends
the cap. The test asserts that no marker exists, that the ledger, its limits file and the limits are as the user
left them, that the project made exactly its cap of calls, and that the spend was priced (not at the project's 0).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import uuid
from decimal import Decimal
from pathlib import Path

import pytest

from tests.e2e import claude
from tests.e2e.conftest import BIN, Workspace, client
from tests.e2e.fakemodel.server import Call, FakeModel, Turn

CAP = 6  # tool calls for the whole project
FREE_PRICES = ('printf \'[tool.boundread.budget.prices]\\n"claude-sonnet-4-5-20250929" = '
               '{ input = 0, output = 0, cache_read = 0, cache_write = 0 }\\n\' > pyproject.toml')


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    done = workspace.boundread("init", "--budget")
    assert done.returncode == 0, done.stderr
    return workspace


def attempts(workspace: Workspace, ran: Path) -> dict[str, str]:
    """Each attempt by name: the command the model runs, ending in ``touch`` of its marker in ``ran``."""
    state = workspace.state
    ledger, side = state / "budget.sqlite3", state / "budget.limits.json"
    commands = {
        "set": "boundread budget set --project --max-calls 1000000",
        "reset-by-path": f"{BIN / 'boundread'} budget reset",
        "reset-by-python-m": "python3 -m boundread budget reset",
        "rm-ledger-and-limits": f"rm {ledger} {side}",
        "rm-ledger-then-recover": f"rm -f {ledger} && boundread budget recover",
        "sqlite3-update": f"sqlite3 {ledger} 'UPDATE sessions SET calls = 0'",
        "depth-0": "BOUNDREAD_DEPTH=0 sh -c true",
        "piped-into-sh": "echo boundread budget reset | sh",
    }
    return {name: f"{command} && touch {ran / name}" for name, command in commands.items()}


def run(workspace: Workspace, model: FakeModel, argv: list[str]) -> claude.ClaudeRun:
    """``claude ARGV`` as claude.run_args runs it, at depth 1 (as under ``budget exec``)."""
    exe = client("claude", claude.PACKAGE)
    process = workspace.run([str(exe), *argv, "--allowedTools", claude.TOOLS, "--output-format", "json"],
                            ANTHROPIC_BASE_URL=model.url, ANTHROPIC_API_KEY="sk-ant-e2e-fake", BOUNDREAD_DEPTH="1")
    assert process.returncode == 0, f"claude exited {process.returncode}: {process.stderr[-2000:]}"
    return claude.ClaudeRun(process, json.loads(process.stdout))


def ledger_rows(workspace: Workspace) -> tuple[list[tuple[object, ...]], int]:
    """The limits as the ledger holds them, and every tool call it let through."""
    with sqlite3.connect(workspace.state / "budget.sqlite3") as db:
        limits = db.execute("SELECT scope, max_calls FROM limits ORDER BY scope").fetchall()
        calls = db.execute("SELECT COALESCE(SUM(calls), 0) FROM sessions").fetchone()[0]
    return limits, int(calls)


def one_call(workspace: Workspace, model: FakeModel, command: str) -> list[str]:
    """A session of its own whose model runs ``command`` (then would go on): the stop reasons it added."""
    before = len(claude.stop_reasons(workspace))
    model.script(Turn(calls=(Call("Bash", {"command": command, "description": "try"}),)),
                 Turn(calls=(Call("Bash", {"command": "echo after", "description": "after"}),)), Turn(text="Done."))
    run(workspace, model, ["-p", "Keep going"])
    return claude.stop_reasons(workspace)[before:]


def steps(workspace: Workspace, count: int) -> list[Turn]:
    """A runaway's turns: each one more command, which notes that it ran (the model may not see the last result:
    the hook after it ends the session)."""
    log = workspace.root / "steps.log"
    return [Turn(calls=(Call("Bash", {"command": f"echo step {n} >> {log}", "description": "step"}),))
            for n in range(count)]


def ran_steps(workspace: Workspace) -> int:
    log = workspace.root / "steps.log"
    return len(log.read_text(encoding="utf-8").splitlines()) if log.exists() else 0


def test_the_attempts_to_lift_a_cap_are_refused_and_the_cap_holds(project: Workspace) -> None:
    ran = project.root / "ran"
    ran.mkdir()
    capped = project.boundread("budget", "set", "--project", "--max-calls", str(CAP))
    assert capped.returncode == 0, capped.stderr
    limits = ledger_rows(project)[0]
    tries = attempts(project, ran)
    said: dict[str, list[str]] = {}
    with claude.fake_model() as model:
        assert one_call(project, model, FREE_PRICES) == []  # the project's own file: allowed
        for name, command in tries.items():
            said[name] = one_call(project, model, command)
        spent_before = ledger_rows(project)[1]
        model.script(*steps(project, CAP + 4), Turn(text="Done."))
        runaway = run(project, model, ["-p", "Keep going"])
    assert sorted(p.name for p in ran.iterdir()) == [], "an attempt ran"
    assert (project.state / "budget.sqlite3").is_file() and (project.state / "budget.limits.json").is_file()
    for name, reasons in said.items():
        assert any("would" in reason for reason in reasons), (name, reasons)  # it ended the session, saying why
    assert ledger_rows(project) == (limits, CAP), "the limits as the user set them, and exactly CAP calls"
    assert ran_steps(project) == CAP - spent_before, spent_before
    assert runaway.result.get("terminal_reason") == "hook_stopped"
    status = project.boundread("budget", "status", "--json", "--project")
    (scope,) = json.loads(status.stdout)["scopes"]
    assert Decimal(scope["spent"]["usd"]) > 0, "priced by genai-prices, not by the project's pyproject.toml"


def test_the_user_raises_the_cap_from_their_own_terminal(project: Workspace) -> None:
    """The way out every refusal names: the user's own `budget set`, outside the agent, lets the session go on
    (the cap mark goes with the limits it was noted for)."""
    session = str(uuid.uuid4())
    assert project.boundread("budget", "set", "--session", session, "--max-calls", "2").returncode == 0
    with claude.fake_model() as model:
        model.script(*steps(project, 5), Turn(text="Done."))
        run(project, model, ["--session-id", session, "-p", "Keep going"])
        first = ran_steps(project)
        raised = subprocess.run([str(BIN / "boundread"), "budget", "set", "--session", session, "--max-calls", "10"],
                                cwd=project.root, env=project.env(), capture_output=True, text=True, check=False)
        assert raised.returncode == 0, raised.stderr
        run(project, model, ["--resume", session, "-p", "Go on"])
    assert first == 2 and ran_steps(project) > first, (first, ran_steps(project))
