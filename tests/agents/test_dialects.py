"""Each agent's payloads round-trip through `python -m boundread guard-check` as its settings call it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from boundread.agents import detect
from tests.hookproject import guard_argv, guard_env

PAYLOADS = Path(__file__).resolve().parents[1] / "payloads"
CASES = sorted(PAYLOADS.glob("*/*.json"))
# how `boundread init` registers the hook for each agent
SETTINGS_ARGS = {"claude": [], "codex": ["--agent", "codex"], "gemini": ["--agent", "gemini"],
                 "cursor": ["--agent", "cursor"], "copilot": ["--agent", "copilot"],
                 "cline": ["--agent", "cline"], "windsurf": ["--agent", "windsurf"]}


def _payload(case: Path, project: Path) -> str:
    return case.read_text(encoding="utf-8").replace("__DIR__", str(project))


def _run(args: list[str], stdin: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(guard_argv(*args), input=stdin, capture_output=True, text=True, env=guard_env(),
                          cwd=cwd, timeout=60, check=False)


def test_every_agent_has_payloads() -> None:
    agents = {case.parent.name for case in CASES}
    assert agents == set(SETTINGS_ARGS)
    for agent in agents:
        names = [case.name for case in CASES if case.parent.name == agent]
        assert any(n.startswith("deny-") for n in names) and any(n.startswith("allow-") for n in names)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.parent.name}/{c.stem}")
def test_detected_from_shape(case: Path) -> None:
    assert detect(json.loads(case.read_text(encoding="utf-8"))) == case.parent.name


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.parent.name}/{c.stem}")
def test_round_trip(case: Path, project: Path, tmp_path: Path) -> None:
    agent, deny = case.parent.name, case.name.startswith("deny-")
    result = _run(SETTINGS_ARGS[agent], _payload(case, project), tmp_path)
    assert "Traceback" not in result.stderr
    out = result.stdout.strip()
    body = json.loads(out) if out else None
    if json.loads(case.read_text(encoding="utf-8")).get("hook_event_name") == "PostToolBatch":
        assert result.returncode == 0  # never a deny: advice for the next request (test_guard_batch.py)
        assert body["hookSpecificOutput"]["hookEventName"] == "PostToolBatch"
        assert "boundread " in body["hookSpecificOutput"]["additionalContext"]
    elif agent in ("claude", "codex"):
        assert result.returncode == 0
        if deny:
            hook = body["hookSpecificOutput"]
            assert hook["hookEventName"] == "PreToolUse" and hook["permissionDecision"] == "deny"
            assert "boundread " in hook["permissionDecisionReason"]
        else:
            assert out == ""
    elif agent == "gemini":
        assert result.returncode == 0
        assert body == ({"decision": "deny", "reason": body["reason"]} if deny else {})
        assert not deny or "boundread " in body["reason"]
    elif agent == "cursor":
        assert result.returncode == 0
        assert body["permission"] == ("deny" if deny else "allow")
        if deny:
            assert body["agent_message"] == body["agentMessage"] == body["user_message"] == body["userMessage"]
            assert "boundread " in body["agent_message"]
    elif agent == "copilot":
        assert result.returncode == 0  # exit 2 does not block on Copilot: JSON does
        if deny:
            assert body["permissionDecision"] == "deny" and "boundread " in body["permissionDecisionReason"]
        else:
            assert out == ""
    elif agent == "cline":
        assert result.returncode == 0
        assert body["cancel"] is deny
        assert not deny or "boundread " in body["errorMessage"]
    elif agent == "windsurf":
        assert result.returncode == (2 if deny else 0)
        assert out == ""
        assert ("boundread " in result.stderr) is deny


def test_detection_without_agent_flag(project: Path, tmp_path: Path) -> None:
    result = _run([], _payload(PAYLOADS / "cline" / "deny-read-file.json", project), tmp_path)
    assert json.loads(result.stdout)["cancel"] is True


def test_generic_path_and_command(project: Path) -> None:
    denied = _run(["--path", "report.pdf"], "", project)
    assert denied.returncode == 2 and denied.stdout == ""
    assert "boundread pages report.pdf 1-5" in denied.stderr
    allowed = _run(["--command", "cat small.txt"], "", project)
    assert (allowed.returncode, allowed.stdout, allowed.stderr) == (0, "", "")
    as_json = _run(["--command", "cat report.pdf", "--json"], "", project)
    body = json.loads(as_json.stdout)
    assert as_json.returncode == 2
    assert (body["decision"], body["kind"]) == ("deny", "pdf") and body["reason"]
    ok = json.loads(_run(["--path", "small.txt", "--json"], "", project).stdout)
    assert ok["decision"] == "allow"


def test_explain_names_the_rule(project: Path) -> None:
    result = _run(["--explain", "big.log"], "", project)
    assert result.returncode == 0
    assert "decision: deny" in result.stdout and "rule: text-size" in result.stdout
    assert "config: defaults" in result.stdout


def test_claude_reason_is_not_empty_and_bounded(project: Path, tmp_path: Path) -> None:
    result = _run(["--agent", "codex"], _payload(PAYLOADS / "claude" / "deny-read-pdf.json", project), tmp_path)
    reason = json.loads(result.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert 0 < len(reason) <= 600
    assert "40 pages" in reason
