"""Redirect mode for Copilot CLI: a refused whole ``view`` or ``bash`` read answered with ``modifiedArgs`` (the input
Copilot runs instead) and ``additionalContext``, in Copilot's own parameters and within its own limits.

That Copilot CLI 1.0.102 runs the modified input (view and bash) and hands the context to the model is checked
with the real client in tests/e2e/test_copilot.py.
"""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from boundread.agents import copilot
from boundread.guard.decide import ALLOW, Decision
from boundread.hook import main as guard_main
from tests.hookproject import SENTINEL


@pytest.fixture(autouse=True)
def _out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("BOUNDREAD_GUARD_MODE", "BOUNDREAD_OUT_DIR", "COPILOT_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    out = tmp_path / "out"
    monkeypatch.setenv("BOUNDREAD_OUT_DIR", str(out))
    return out


def payload(tool: str, args: dict[str, Any], cwd: Path) -> dict[str, Any]:
    """What Copilot CLI 1.0.102 sends a preToolUse hook (captured from the real client)."""
    return {"sessionId": "s", "timestamp": 1796211117798, "cwd": str(cwd), "toolName": tool, "toolArgs": args}


def hook(body: dict[str, Any], capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code = guard_main.run(["--agent", "copilot", *argv], io.StringIO(json.dumps(body)))
    out = capsys.readouterr().out
    assert code == 0
    answer: dict[str, Any] = json.loads(out) if out.strip() else {}
    return answer


def test_a_whole_view_of_a_pdf_views_its_first_part_whole(project: Path, _out: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    answer = hook(payload("view", {"path": str(project / "report.pdf")}, project), capsys, "--mode", "redirect")
    assert answer["permissionDecision"] == "allow"
    args = answer["modifiedArgs"]
    assert set(args) == {"path", "forceReadLargeFiles"} and args["forceReadLargeFiles"] is True
    sliced = Path(args["path"])
    text = sliced.read_text(encoding="utf-8")
    assert sliced.parent == _out and f"{SENTINEL} page 1" in text and "[boundread redirect] report.pdf" in text


def test_a_whole_view_of_a_big_log_is_a_view_range_that_fits_copilots_view(project: Path,
                                                                            capsys: pytest.CaptureFixture[str]
                                                                            ) -> None:
    log = project / "big.log"
    answer = hook(payload("view", {"path": str(log)}, project), capsys, "--mode", "redirect")
    args = answer["modifiedArgs"]
    assert set(args) == {"path", "view_range"} and args["path"] == str(log)
    first, last = args["view_range"]
    assert first == 1 and last > 1
    shown = b"".join(log.read_bytes().splitlines(keepends=True)[:last])
    assert copilot.READ_MAX_BYTES is not None and len(shown) <= copilot.READ_MAX_BYTES
    context = answer["additionalContext"]
    assert f"view_range=[{last + 1}, {2 * last}]" in context and "start_line" not in context


def test_cat_of_a_big_log_runs_a_command_whose_output_fits_copilots_shell(project: Path,
                                                                           capsys: pytest.CaptureFixture[str]
                                                                           ) -> None:
    answer = hook(payload("bash", {"command": "cat big.log", "description": "show"}, project), capsys,
                  "--mode", "redirect")
    args = answer["modifiedArgs"]
    assert set(args) == {"command", "description"} and args["command"] != "cat big.log"
    ran = subprocess.run(["bash", "-c", args["command"]], cwd=project, capture_output=True, text=True, check=False,
                         timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert copilot.SHELL_MAX_CHARS is not None and 0 < len(ran.stdout) <= copilot.SHELL_MAX_CHARS
    assert "2024-01-01 INFO something happened here" in ran.stdout


def test_deny_mode_and_a_ranged_view_keep_the_deny(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole = hook(payload("view", {"path": str(project / "report.pdf")}, project), capsys)
    assert whole["permissionDecision"] == "deny" and "modifiedArgs" not in whole
    assert "Not an error: boundread refused this on purpose" in whole["permissionDecisionReason"]
    ranged = hook(payload("view", {"path": str(project / "one-line.txt"), "view_range": [1, 1]}, project), capsys,
                  "--mode", "redirect")
    assert ranged["permissionDecision"] == "deny", "the agent asked for that part: the deny says why"


def test_a_settings_rule_of_the_users_keeps_the_deny(project: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "copilot-home"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"permissions": {"deny": ["shell(cat)"]}}), encoding="utf-8")
    monkeypatch.setenv("COPILOT_HOME", str(home))
    answer = hook(payload("bash", {"command": "cat big.log", "description": "show"}, project), capsys,
                  "--mode", "redirect")
    assert answer["permissionDecision"] == "deny"
    assert copilot.user_rules("bash", str(project)) is True
    monkeypatch.delenv("COPILOT_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "empty-home"))
    assert copilot.user_rules("bash", str(project)) is False
    assert copilot.user_rules("Read", str(project)) is True, "the VS Code-compatible payload: no rewrite verified"


def test_the_reply_folds_a_range_into_view_range_and_forces_only_a_whole_view() -> None:
    ranged = Decision(ALLOW, rule="redirect-text-range", path="/p/a.log",
                      updated={"path": "/p/a.log", "start_line": 1, "end_line": 180},
                      context="lines 1-180. Next part: the same Read with start_line=181 end_line=360. Search")
    body = json.loads(copilot.reply(ranged, "", "copilot").stdout)
    assert body["modifiedArgs"] == {"path": "/p/a.log", "view_range": [1, 180]}
    assert "view_range=[181, 360]" in body["additionalContext"]
    whole = Decision(ALLOW, rule="redirect-pdf", path="/p/r.pdf", updated={"path": "/out/r.pdf.first-part.txt"})
    body = json.loads(copilot.reply(whole, "", "copilot").stdout)
    assert body["modifiedArgs"] == {"path": "/out/r.pdf.first-part.txt", "forceReadLargeFiles": True}
    assert "additionalContext" not in body
    assert copilot.reply(Decision(ALLOW), "", "copilot").stdout == ""


def test_a_rewrite_for_the_vs_code_compatible_payload_is_a_deny() -> None:
    """Copilot's snake_case payload (``PreToolUse``): whether it runs a rewritten input was not verified, and an allow
    it does not rewrite would run the whole read - so a deny, with what the redirect would have said."""
    rewrite = Decision(ALLOW, rule="redirect-text-range", path="/p/a.log",
                       updated={"path": "/p/a.log", "start_line": 1, "end_line": 180}, context="lines 1-180 of a.log")
    body = json.loads(copilot.reply(rewrite, "PreToolUse", "copilot").stdout)
    assert body["permissionDecision"] == "deny" and "modifiedArgs" not in body
    assert body["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "lines 1-180 of a.log" in body["permissionDecisionReason"]
