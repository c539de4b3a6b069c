"""Redirect mode: a big text printed whole (``cat huge.log``) becomes its overview - the first and the last lines, how
many lines, the time span, and the bounded commands for more - about as small as Claude Code's own 2 KB preview of
such an output, where the first part would be 19,000 characters. The rewritten command prints it from a
here-document: no file is written."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from boundread.hook import main as guard_main
from boundread.hook import redirect, slices


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("BOUNDREAD_GUARD_MODE", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("BOUNDREAD_OUT_DIR", str(tmp_path / "out"))
    project = tmp_path / "project"
    project.mkdir()
    with (project / "app.log").open("w", encoding="utf-8") as log:
        for n in range(40_000):  # 2.4 MB over 11 hours
            log.write(f"2026-11-29T{8 + n // 3600:02d}:{n // 60 % 60:02d}:{n % 60:02d}Z INFO request {n:06d} ok "
                      f"from backend-{n % 7}\n")
    return project


def _bash(command: str, project: Path) -> dict[str, Any]:
    payload = {"session_id": "s", "transcript_path": "/t", "cwd": str(project), "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": command, "description": "x"}, "tool_use_id": "u"}
    out = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out):
        assert guard_main.run(["--mode", "redirect"], io.StringIO(json.dumps(payload))) == 0
    answer: dict[str, Any] = json.loads(out.getvalue())["hookSpecificOutput"]
    return answer


@pytest.mark.parametrize("command", ["cat app.log", "less app.log", "more app.log", "nl app.log", "bat app.log"])
def test_a_log_printed_whole_becomes_its_overview(folder: Path, command: str) -> None:
    answer = _bash(command, folder)
    assert answer["permissionDecision"] == "allow"
    text = _ran(answer["updatedInput"]["command"], folder)
    assert not (folder.parent / "out").exists()
    assert len(text) < 2_000 and "additionalContext" not in answer  # Claude Code's own preview: 2,177
    header, body = text.split("-" * 72 + "\n")
    assert header.startswith("[boundread redirect] app.log: text file, 2.4 MB, ~3")
    assert "its first 6 and last 6 lines" in header
    assert "timestamps 2026-11-29T08:00:00Z to 2026-11-29T19:06:39Z" in header
    assert "--lines 7-206 --max-chars 19000 --stdout" in header and "--tail 200 --max-chars 19000 --stdout" in header
    assert "--grep PATTERN --context 2 --max-chars 19000 --stdout" in header
    lines = body.splitlines()
    assert lines[0].endswith("request 000000 ok from backend-0")
    assert lines[-1].endswith("request 039999 ok from backend-1")
    assert lines[6].startswith("[... ~39,") and lines[6].endswith(" lines not shown ...]")
    assert len(lines) == 13


def test_head_keeps_the_first_part(folder: Path) -> None:
    """``head -n 99999`` asks for the start: the start, as much as Claude Code shows of a big output (2 KB)."""
    new = _bash("head -n 99999 app.log", folder)["updatedInput"]["command"]
    assert new.endswith(f"extract app.log --max-chars {redirect.shown_chars('claude')} --stdout")


def test_a_line_longer_than_the_overview_is_cut(folder: Path) -> None:
    (folder / "one.json").write_text("[" + ",".join(f'{{"n": {n}}}' for n in range(60_000)) + "]\n", encoding="utf-8")
    (folder / "one.json").write_text((folder / "one.json").read_text(encoding="utf-8") * 2, encoding="utf-8")
    text = _ran(_bash("cat one.json", folder)["updatedInput"]["command"], folder)
    body = text.split("-" * 72 + "\n")[1].splitlines()
    assert body[0].endswith(" [line cut]") and len(body[0]) == slices.OVERVIEW_CHARS + len(" [line cut]")
    assert len(text) < 2_600


def test_a_line_like_the_end_word_does_not_end_it_early(folder: Path) -> None:
    (folder / "odd.log").write_text("BOUNDREAD_OVERVIEW\n" * 40_000, encoding="utf-8")
    text = _ran(_bash("cat odd.log", folder)["updatedInput"]["command"], folder)
    assert text.split("-" * 72 + "\n")[1].splitlines()[0] == "BOUNDREAD_OVERVIEW"
    assert text.endswith("BOUNDREAD_OVERVIEW\n")


def _ran(command: str, folder: Path) -> str:
    """What the rewritten command prints, run as the agent's shell runs it."""
    done = subprocess.run(["bash", "-c", command], cwd=folder, capture_output=True, text=True, check=True, timeout=30)
    assert done.stderr == ""
    return done.stdout
