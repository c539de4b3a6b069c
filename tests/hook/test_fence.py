"""What one guard-check call loads stays inside the fence declared in hook/fence.py (issue 20 part 4).

Each client's captured payloads (tests/payloads: Claude Code, Codex, Gemini CLI, Copilot CLI, Cursor, Cline,
Windsurf) run through guard-check as the client's settings call it, pre-tool, post-tool, PostToolBatch, in
redirect mode and with a budget; the modules each run imported (``python -X importtime``) must be the
standard library, the fence's boundread modules and its few third-party ones - never Typer, rich or a format
reader on the plain hook path. test_guard_speed.py pins the slow standard modules on the hottest calls.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from decimal import Decimal
from functools import cache
from pathlib import Path

import pytest

from boundread.budget.model import BudgetLimits, Scope
from boundread.budget.sqlite import SqliteLedger
from boundread.hook import fence
from tests.hookproject import guard_env

PAYLOADS = Path(__file__).resolve().parents[1] / "payloads"
CASES = sorted(PAYLOADS.glob("*/*.json"))
CONSOLE = "import sys; sys.argv[1:] = ['guard-check', *sys.argv[1:]]; from boundread.__main__ import main; main()"
BIG = "2026-11-29T08:00:00Z INFO worker request served in 12 ms\n" * 4000  # ~230 KB: over the backstop cap


def _names(stderr: str) -> set[str]:
    return {line.split("|")[-1].strip() for line in stderr.splitlines()
            if line.startswith("import time:") and "imported package" not in line}


@cache
def _at_start_up() -> frozenset[str]:
    """What the interpreter loads before boundread runs (site, .pth hooks): not the guard's doing."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", "pass"], capture_output=True, text=True,
                          env=guard_env(), timeout=60, check=True)
    return frozenset(_names(done.stderr))


def _loaded(stdin: str, args: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[set[str], str]:
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", CONSOLE, *args], input=stdin,
                          capture_output=True, text=True, env=env or guard_env(), cwd=cwd, timeout=60, check=False)
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    said = "".join(line for line in done.stderr.splitlines(keepends=True) if not line.startswith("import time:"))
    return _names(done.stderr) - _at_start_up(), done.stdout + said  # Windsurf and Cline deny on stderr


def _outside(names: set[str], ours: tuple[str, ...], theirs: tuple[str, ...] | None) -> list[str]:
    """The modules loaded outside the fence: boundread's not in ``ours``, others neither standard nor in ``theirs``
    (None: any that fence.NEVER does not name). A name Python only tried (copy.py tries Jython's
    ``org.python.core``) is not a load."""
    out = {name for name in names if fence.within(name, fence.NEVER)}
    for name in names:
        top = name.partition(".")[0]
        if top == "boundread":
            out |= set() if fence.within(name, ours) else {name}
        elif theirs is not None and top not in sys.stdlib_module_names and not fence.within(name, theirs) \
                and importlib.util.find_spec(top) is not None:
            out.add(name)
    return sorted(out)


def _args(case: Path) -> list[str]:
    return [] if case.parent.name == "claude" else ["--agent", case.parent.name]  # as init registers the hook


def _payload(case: Path, project: Path) -> str:
    return case.read_text(encoding="utf-8").replace("__DIR__", str(project))


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.parent.name}/{c.stem}")
def test_each_client_payload_stays_on_the_hook_path(case: Path, project: Path) -> None:
    names, out = _loaded(_payload(case, project), _args(case), project)
    assert "boundread.hook.main" in names  # it really ran
    if case.name.startswith("deny-"):
        assert "boundread" in out, out  # the reason names the bounded command
    assert _outside(names, fence.HOOK_PATH, fence.HOOK_THIRD_PARTY) == []


@pytest.mark.parametrize("case", [c for c in CASES if c.name.startswith("deny-")],
                         ids=lambda c: f"{c.parent.name}/{c.stem}")
def test_redirect_mode_adds_only_the_slicing(case: Path, project: Path) -> None:
    """A refused read in redirect mode may run the extraction (the slice it is pointed at), nothing more."""
    names, _ = _loaded(_payload(case, project), ["--mode", "redirect", *_args(case)], project)
    assert _outside(names, fence.HOOK_PATH + fence.REDIRECT, None) == []


def test_redirect_fence_is_tight_where_nothing_is_sliced(project: Path) -> None:
    """A redirected shell command (cat big.log as a bounded one) needs no engine: it stays on the hook path
    plus the redirect's own modules."""
    payload = {"session_id": "f", "transcript_path": "/t", "cwd": str(project), "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": "cat big.log"}, "tool_use_id": "t1"}
    names, out = _loaded(json.dumps(payload), ["--mode", "redirect"], project)
    assert "boundread.hook.redirect" in names and "updatedInput" in out
    redirect_only = tuple(entry for entry in fence.REDIRECT
                          if entry.startswith(("boundread.hook.", "boundread.agents.")))
    assert _outside(names, fence.HOOK_PATH + redirect_only + ("boundread.contract", "boundread.contract.kinds"),
                    fence.HOOK_THIRD_PARTY) == []


@pytest.mark.parametrize("event", ["PostToolUse", "AfterTool"])
def test_the_post_tool_backstop_stays_on_the_hook_path(event: str, project: Path) -> None:
    if event == "PostToolUse":  # Claude Code, Codex
        payload = {"session_id": "f", "transcript_path": "/t", "cwd": str(project), "hook_event_name": event,
                   "tool_name": "Bash", "tool_input": {"command": "seq"}, "tool_use_id": "t1",
                   "tool_response": {"stdout": BIG, "stderr": "", "interrupted": False}}
    else:  # Gemini CLI
        payload = {"session_id": "f", "transcript_path": "/t", "cwd": str(project), "hook_event_name": event,
                   "timestamp": "2026-12-01T07:30:51.776Z", "tool_name": "run_shell_command",
                   "tool_input": {"command": "seq"}, "tool_response": {"llmContent": BIG, "returnDisplay": BIG}}
    names, out = _loaded(json.dumps(payload), [] if event == "PostToolUse" else ["--agent", "gemini"], project)
    assert "boundread.hook.posttool" in names and out  # it really replaced the output
    assert _outside(names, fence.HOOK_PATH, fence.HOOK_THIRD_PARTY) == []


def _budgeted(tmp_path: Path) -> dict[str, str]:
    env = {**guard_env(), "BOUNDREAD_STATE_DIR": str(tmp_path / "state"), "XDG_CONFIG_HOME": str(tmp_path / "x")}
    env.pop("BOUNDREAD_LEDGER_URL", None)
    return env


def test_a_budgeted_call_stays_on_the_hook_path(project: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    env = _budgeted(tmp_path)
    monkeypatch.setenv("BOUNDREAD_STATE_DIR", env["BOUNDREAD_STATE_DIR"])
    with SqliteLedger() as ledger:
        ledger.set_limits(Scope("session", "fenced"), BudgetLimits(max_usd=Decimal(100), max_calls=100))
    payload = {"session_id": "fenced", "transcript_path": "/t", "cwd": str(project), "hook_event_name": "PreToolUse",
               "tool_name": "Read", "tool_input": {"file_path": str(project / "small.txt")}, "tool_use_id": "t1"}
    names, out = _loaded(json.dumps(payload), [], project, env)
    assert "boundread.budget.hookpath" in names and out == ""  # it consulted the ledger, and allowed
    assert _outside(names, fence.HOOK_PATH, fence.HOOK_THIRD_PARTY) == []


def test_a_budgeted_spawn_adds_only_the_ledger(project: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    env = _budgeted(tmp_path)
    monkeypatch.setenv("BOUNDREAD_STATE_DIR", env["BOUNDREAD_STATE_DIR"])
    with SqliteLedger() as ledger:
        ledger.set_limits(Scope("session", "spawner"), BudgetLimits(max_calls=100, max_depth=3))
    payload = {"session_id": "spawner", "transcript_path": "/t", "cwd": str(project), "hook_event_name": "PreToolUse",
               "tool_name": "Task", "tool_input": {"prompt": "look", "subagent_type": "general"}, "tool_use_id": "t2"}
    names, _ = _loaded(json.dumps(payload), [], project, env)
    assert "boundread.budget.agents" in names  # the spawn gate ran
    assert _outside(names, fence.HOOK_PATH + fence.SPAWN, fence.HOOK_THIRD_PARTY + fence.SPAWN_THIRD_PARTY) == []


def test_the_fence_catches_a_heavy_import() -> None:
    """The check itself: Typer, a format reader or a CLI module would be reported."""
    names = {"boundread.hook.main", "typer", "typer.main", "pdfminer", "boundread.cli.app", "json", "re"}
    assert _outside(names, fence.HOOK_PATH, fence.HOOK_THIRD_PARTY) == ["boundread.cli.app", "pdfminer", "typer",
                                                                       "typer.main"]
    assert _outside(names, fence.HOOK_PATH, None) == ["boundread.cli.app", "typer", "typer.main"]
