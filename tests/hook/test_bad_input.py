"""Bad input never hangs and never shows a traceback; on_error decides; the hook path is stdlib only."""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import pytest

from boundread.guard import check_read
from boundread.guard.config import GuardConfig
from boundread.hook.main import run
from tests.hookproject import guard_argv, guard_env

HEAVY = ("typer", "rich", "click", "pdfminer", "openpyxl", "mammoth", "py7zr", "magic", "pypdfium2",
         "python_calamine", "defusedxml", "docx", "pptx")


def _claude(path: str, cwd: Path) -> str:
    return json.dumps({"session_id": "s", "transcript_path": "/t", "cwd": str(cwd), "permission_mode": "default",
                       "hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": path},
                       "tool_use_id": "toolu_1"})


@pytest.mark.parametrize(("stdin", "message"), [
    ("", "empty stdin"),
    ("   \n", "empty stdin"),
    ("{not json", "invalid JSON"),
    ("[1, 2]", "not a JSON object"),
    ('{"hello": "world"}', "unknown payload shape"),
    ('{"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_use_id": "t"}', "tool_input"),
    ('{"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": "oops", "tool_use_id": "t"}',
     "tool_input"),
])
def test_bad_payload_allows_with_one_line(stdin: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run([], io.StringIO(stdin)) == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert message in err and "on_error=allow" in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_on_error_deny_blocks_in_the_agent_dialect(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("BOUNDREAD_GUARD_ON_ERROR", "deny")
    assert run(["--agent", "claude"], io.StringIO("{not json")) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "invalid JSON" in body["hookSpecificOutput"]["permissionDecisionReason"]
    assert run([], io.StringIO("")) == 2  # generic: exit 2 is deny


def test_bad_arguments_do_not_block(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--agent", "nobody"]) == 0
    assert "invalid choice" in capsys.readouterr().err


def test_forty_megabytes_of_stdin(tmp_path: Path) -> None:
    junk = '{"a": "' + "x" * (40 * 1024 * 1024) + '"}'
    result = subprocess.run(guard_argv(), input=junk, capture_output=True, text=True, env=guard_env(),
                            cwd=tmp_path, timeout=60, check=False)
    assert result.returncode == 0 and result.stdout == ""
    assert "over 32 MB" in result.stderr and "Traceback" not in result.stderr


def test_fifo_is_not_opened(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert run([], io.StringIO(_claude(str(fifo), tmp_path))) == 0  # would hang if it were opened
    out, err = capsys.readouterr()
    reason = json.loads(out)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "FIFO" in reason and err == ""  # a decision, not an error: on_error plays no part
    denied = check_read(str(fifo), config=GuardConfig(on_error="allow"))
    assert denied.decision == "deny" and denied.rule == "not-a-regular-file"


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
def test_dev_zero(tmp_path: Path) -> None:
    result = subprocess.run(guard_argv(), input=_claude("/dev/zero", tmp_path), capture_output=True, text=True,
                            env=guard_env(), cwd=tmp_path, timeout=60, check=False)
    assert result.returncode == 0 and result.stderr == ""
    assert "character device" in json.loads(result.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    command = subprocess.run(guard_argv("--command", "cat /dev/zero | head -c 10"), capture_output=True,
                             text=True, env=guard_env(), cwd=tmp_path, timeout=60, check=False)
    assert command.returncode == 0


def test_guard_path_imports_the_standard_library_only(project: Path) -> None:
    probe = ("import sys, io, json; from boundread.hook.main import run; "
             "run([], io.StringIO(sys.argv[1])); run(['--command', 'cat report.pdf | head']); "
             "print(json.dumps(sorted(sys.modules)))")
    payload = _claude(str(project / "report.pdf"), project)
    result = subprocess.run([*guard_argv()[:1], "-c", probe, payload], capture_output=True, text=True,
                            env=guard_env(), cwd=project, timeout=60, check=True)
    modules = json.loads(result.stdout.splitlines()[-1])
    assert "hookSpecificOutput" in result.stdout  # it really decided, on a real PDF
    loaded = {name.split(".")[0] for name in modules}
    assert not loaded & set(HEAVY), loaded & set(HEAVY)


def test_console_entry_point_dispatch_avoids_typer(project: Path) -> None:
    result = subprocess.run([*guard_argv()[:1], "-X", "importtime", "-m", "boundread", "guard-check",
                             "--path", "report.pdf"], capture_output=True, text=True, env=guard_env(),
                            cwd=project, timeout=60, check=False)
    assert result.returncode == 2
    imported = {line.split("|")[-1].strip().split(".")[0] for line in result.stderr.splitlines()
                if line.startswith("import time:")}
    assert "boundread" in imported
    assert not imported & set(HEAVY), imported & set(HEAVY)
