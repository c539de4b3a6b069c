"""Other read tools (issue 9): NotebookRead, MCP file servers, Gemini read_many_files, PowerShell
Get-Content, argv-list commands; and reads of things that are not files."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from boundread import agents
from boundread.agents import dialect
from boundread.guard import check_read
from boundread.hook.main import run


def _claude(tool: str, cwd: Path, **tool_input: object) -> dict[str, object]:
    return {"session_id": "s", "transcript_path": "/t", "cwd": str(cwd), "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input, "tool_use_id": "toolu_1"}


def _gemini(tool: str, cwd: Path, **tool_input: object) -> dict[str, object]:
    return {"session_id": "g", "transcript_path": "/t", "cwd": str(cwd), "hook_event_name": "BeforeTool",
            "timestamp": "2026-12-01T05:51:05.205Z", "tool_name": tool, "tool_input": tool_input}


def _copilot(tool: str, cwd: Path, **tool_args: object) -> dict[str, object]:
    return {"timestamp": 1, "cwd": str(cwd), "toolName": tool, "toolArgs": json.dumps(tool_args)}


def _reason(payload: dict[str, object], capsys: pytest.CaptureFixture[str]) -> str | None:
    """The deny reason, or None for an allow (whatever the dialect)."""
    assert run([], io.StringIO(json.dumps(payload))) == 0
    out, err = capsys.readouterr()
    assert "error" not in err, err
    if not out.strip() or out.strip() == "{}":
        return None
    body = json.loads(out)
    reason = body.get("permissionDecisionReason") or body.get("reason") or \
        body.get("hookSpecificOutput", {}).get("permissionDecisionReason")
    assert reason, body
    return str(reason)


@pytest.fixture(scope="module")
def notebooks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("notebooks")
    cell = {"cell_type": "code", "source": ["print(1)\n"], "outputs": [{"text": ["x" * 1000 + "\n"] * 400}]}
    (root / "big.ipynb").write_text(json.dumps({"cells": [cell], "nbformat": 4}))
    (root / "small.ipynb").write_text(json.dumps({"cells": [], "nbformat": 4}))
    return root


def test_notebook_read(notebooks: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reason = _reason(_claude("NotebookRead", notebooks, notebook_path=str(notebooks / "big.ipynb")), capsys)
    assert reason is not None and "boundread extract big.ipynb" in reason
    assert _reason(_claude("NotebookRead", notebooks, notebook_path=str(notebooks / "small.ipynb")), capsys) is None


@pytest.mark.parametrize("tool", ["mcp__filesystem__read_text_file", "mcp__fs__read_file", "mcp_fs_read_text_file",
                                  "filesystem-read_text_file"])
def test_mcp_read_text_file(tool: str, project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reason = _reason(_claude(tool, project, path=str(project / "big.log")), capsys)
    assert reason is not None and "head/tail" in reason
    assert _reason(_claude(tool, project, path=str(project / "big.log"), head=200), capsys) is None
    assert _reason(_claude(tool, project, path=str(project / "big.log"), tail="100"), capsys) is None
    assert _reason(_claude(tool, project, path=str(project / "report.pdf"), head=5), capsys) is not None
    assert _reason(_claude(tool, project, path=str(project / "one-line.txt"), head=1), capsys) is not None


def test_mcp_read_media_file(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool = "mcp__filesystem__read_media_file"
    assert _reason(_claude(tool, project, path=str(project / "huge.png")), capsys) is not None
    assert _reason(_claude(tool, project, path=str(project / "logo.png")), capsys) is None


def test_mcp_read_multiple_files(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool = "mcp__filesystem__read_multiple_files"
    one_pdf = _reason(_claude(tool, project, paths=[str(project / "small.txt"), str(project / "report.pdf")]), capsys)
    assert one_pdf is not None and "40 pages" in one_pdf  # any denied file denies the call
    assert _reason(_claude(tool, project, paths=[str(project / "small.txt"), "notes.pdf"]), capsys) is None


def test_many_small_files_together(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for number in range(4):
        (tmp_path / f"part{number}.log").write_text("y" * 100_000)  # each under the 256 KB cap
    paths = [str(tmp_path / f"part{number}.log") for number in range(4)]
    reason = _reason(_claude("mcp__fs__read_multiple_files", tmp_path, paths=paths), capsys)
    assert reason is not None and "together they are over 256.0 kB" in reason
    assert _reason(_claude("mcp__fs__read_multiple_files", tmp_path, paths=paths[:2]), capsys) is None


def test_gemini_read_many_files(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _reason(_gemini("read_many_files", project, paths=["*.log"]), capsys) is not None
    assert _reason(_gemini("read_many_files", project, paths=["small.txt"], include=["report.pdf"]), capsys) \
        is not None
    assert _reason(_gemini("read_many_files", project, paths=["**/*.pdf"]), capsys) is not None  # named by extension
    assert _reason(_gemini("read_many_files", project, paths=["small.*"]), capsys) is None


def test_gemini_read_many_files_skips_binaries_a_glob_does_not_name(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.md").write_text("# notes\n")
    (tmp_path / "b.pdf").write_bytes(b"%PDF-1.4\n" + b"0" * 300_000 + b"\n%%EOF\n")
    assert _reason(_gemini("read_many_files", tmp_path, paths=["*"]), capsys) is None  # Gemini skips b.pdf
    assert _reason(_gemini("read_many_files", tmp_path, paths=["*.pdf"]), capsys) is not None


def test_gemini_read_many_files_over_the_match_cap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from boundread.guard import tools

    for number in range(tools.MAX_MATCHES + 1):
        (tmp_path / f"n{number}.txt").write_text("z\n")
    reason = _reason(_gemini("read_many_files", tmp_path, paths=["*.txt"]), capsys)
    assert reason is not None and f"over {tools.MAX_MATCHES} files" in reason


@pytest.mark.parametrize(("command", "denied"), [
    ("Get-Content big.log", True),
    ("Get-Content -Path big.log -TotalCount 100", False),
    ("gc big.log -Head 50", False),
    ("gc big.log -Tail 20", False),
    ("gc -Tot 10 big.log", False),
    ("type big.log", True),
    ("cat report.pdf", True),
    ("Get-Content big.log | Select-Object -First 40", False),
    ("Get-Content big.log | Select-Object -Last 40", False),
    ("Get-Content big.log > copy.txt", False),
    ("Get-Content big.log | Out-File copy.txt", False),
    ("Get-Content big.log | Measure-Object -Line", False),
    ("Get-Content big.log | Select-String ERROR", False),
    ("Get-Content big.log | Select-String .", True),
    ("Get-Content big.log 2>&1", True),
    ("Get-Content big.log -Wait -Tail 5", True),  # follows the file forever
    ("Get-Content 'Estados financieros.pdf'", True),
    ("Get-Content -LiteralPath small.txt, report.pdf", True),
    ("Get-Content small.txt", False),
    ("Set-Location folder; Get-Content ..\\big.log", True),
    ("Write-Output hello", False),
])
def test_copilot_powershell(command: str, denied: bool, project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reason = _reason(_copilot("powershell", project, command=command), capsys)
    assert (reason is not None) is denied, reason
    if command == "Get-Content big.log":
        assert reason is not None and "pass -TotalCount N or -Tail N" in reason


def test_claude_powershell_tool(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _reason(_claude("PowerShell", project, command="Get-Content report.pdf"), capsys) is not None


@pytest.mark.parametrize("argv", [
    ["cat", "Estados financieros.pdf"],  # one word with a space: a plain join made it two missing files
    ["cat", "it's $HOME `x`.pdf"],
])
def test_argv_list_commands(argv: list[str], project: Path) -> None:
    import shlex

    call = agents.parse(_claude("Bash", project, command=argv), "codex")
    assert call.action == dialect.COMMAND
    assert shlex.split(call.command) == argv


def test_codex_local_shell_argv(project: Path) -> None:
    payload = {"session_id": "x", "turn_id": "t", "cwd": str(project), "hook_event_name": "PreToolUse",
               "tool_name": "local_shell", "tool_input": {"command": ["bash", "-lc", "cat report.pdf"]}}
    call = agents.parse(payload, agents.detect(payload))
    assert call.command == "bash -lc 'cat report.pdf'"


# --- things that are not files ----------------------------------------------------------------------


@pytest.mark.parametrize(("path", "rule"), [
    ("/dev/zero", "not-a-regular-file"),
    ("/dev/urandom", "not-a-regular-file"),
    ("/dev/stdin", "process-stream"),
    ("/dev/./stdin", "process-stream"),
    ("/dev/fd/0", "process-stream"),
    ("/proc/self/fd/0", "process-stream"),
    ("/proc/self/maps", "proc-unsized"),
    ("/proc/cpuinfo", "proc-unsized"),
])
def test_devices_and_proc(path: str, rule: str) -> None:
    if not Path(path.replace("/./", "/")).exists() and "fd" not in path:
        pytest.skip(f"no {path} here")
    decision = check_read(path)
    assert (decision.decision, decision.rule) == ("deny", rule)
    assert decision.reason.startswith("Not an error: boundread refused this on purpose - ")


def test_a_symlink_to_a_device_and_dev_null(tmp_path: Path) -> None:
    (tmp_path / "data.bin").symlink_to("/dev/zero")
    assert check_read(str(tmp_path / "data.bin")).decision == "deny"
    assert check_read("/dev/null").decision == "allow"


def test_an_allow_glob_still_wins(tmp_path: Path) -> None:
    from boundread.guard.config import GuardConfig

    assert check_read("/proc/cpuinfo", config=GuardConfig(allow=("/proc/*",))).decision == "allow"


def test_devices_are_denied_without_being_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    """Quick because nothing is opened: stat and the name decide (an endless /dev/zero read would hang the hook).
    bench/hook_deadlines.py times it."""
    import builtins
    import io
    import os

    opened: list[str] = []
    real_open, real_os_open = builtins.open, os.open

    def watched_open(file: object, *args: object, **kwargs: object) -> object:
        opened.append(str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    def watched_os_open(path: object, *args: object, **kwargs: object) -> int:
        opened.append(str(path))
        return real_os_open(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "open", watched_open)
    monkeypatch.setattr(io, "open", watched_open)
    monkeypatch.setattr(os, "open", watched_os_open)
    for device in ("/dev/zero", "/dev/stdin", "/dev/urandom"):
        assert check_read(device).decision == "deny", device
    assert [path for path in opened if path.startswith(("/dev/", "/proc/self/fd"))] == []


def test_gemini_read_many_files_a_glob_that_walks_too_long(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    import glob
    import time

    from boundread.guard import tools

    def slow(*_args: object, **_kwargs: object) -> list[str]:
        time.sleep(0.5)  # as if the tree were huge and nothing matched
        return []

    monkeypatch.setattr(glob, "iglob", slow)
    monkeypatch.setattr(tools, "GLOB_SECONDS", 0.05)
    reason = _reason(_gemini("read_many_files", tmp_path, paths=["**/*.nothing"]), capsys)
    assert reason is not None and "over 500 files" in reason
