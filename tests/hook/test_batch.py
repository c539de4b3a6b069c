"""Claude Code PostToolBatch: the model hears which boundread commands read what Read refused.

Claude Code refuses a Read of .xlsx/.docx/.zip/... before any PreToolUse hook runs; PostToolBatch
still fires, and its answer's additionalContext reaches the model. It never denies and never errors.
"""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import pytest

from boundread.guard.config import GuardConfig
from boundread.guard.reason import OPENING
from boundread.hook import batch
from boundread.hook.main import run
from tests.hookproject import guard_argv, guard_env

CAPTURED = Path(__file__).resolve().parents[1] / "payloads" / "claude" / "post_tool_batch.json"
REFUSAL = ("<tool_use_error>This tool cannot read binary files. The file appears to be a binary .xlsx file. "
           "Use a skill for this file type if one is available, or a shell command or script that can read "
           "the format.</tool_use_error>")


def _payload(project: Path, *calls: dict[str, object]) -> dict[str, object]:
    return {"session_id": "s", "transcript_path": "/t", "cwd": str(project), "prompt_id": "p",
            "permission_mode": "default", "effort": {"level": "medium"}, "hook_event_name": "PostToolBatch",
            "tool_calls": list(calls)}


def _read(path: Path | str, response: object = REFUSAL, **extra: object) -> dict[str, object]:
    return {"tool_name": "Read", "tool_input": {"file_path": str(path), **extra}, "tool_use_id": "toolu_1",
            "tool_response": response}


def _context(payload: object, capsys: pytest.CaptureFixture[str]) -> str | None:
    """Run guard-check in-process; the additionalContext it answered, or None for no output."""
    assert run([], io.StringIO(json.dumps(payload))) == 0
    out, _ = capsys.readouterr()
    if not out:
        return None
    body = json.loads(out)
    assert list(body) == ["hookSpecificOutput"]
    hook = body["hookSpecificOutput"]
    assert hook["hookEventName"] == "PostToolBatch" and set(hook) == {"hookEventName", "additionalContext"}
    return str(hook["additionalContext"])


def test_the_captured_payload_as_settings_run_it(project: Path, tmp_path: Path) -> None:
    text = CAPTURED.read_text(encoding="utf-8").replace("__DIR__", str(project))
    result = subprocess.run(guard_argv(), input=text, capture_output=True, text=True, env=guard_env(),
                            cwd=tmp_path, timeout=60, check=False)
    assert (result.returncode, result.stderr) == (0, "")
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "prices.xlsx (Excel workbook" in context and "'Lista 2024'" in context
    assert "  boundread info prices.xlsx\n" in context
    assert "  boundread sheets prices.xlsx 'Lista 2024' --max-rows 50 --max-chars 20000 --stdout\n" in context


@pytest.mark.parametrize("response", [
    REFUSAL,
    [{"type": "text", "text": REFUSAL}],
    {"type": "error", "error": REFUSAL},
    {"content": [{"type": "text", "text": REFUSAL}], "is_error": True},
])
def test_any_shape_of_tool_response(project: Path, response: object, capsys: pytest.CaptureFixture[str]) -> None:
    context = _context(_payload(project, _read(project / "memo.docx", response)), capsys)
    assert context is not None and "boundread info memo.docx" in context


def test_a_refused_file_the_guard_would_allow_still_gets_commands(project: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """notes.pdf is text (the guard allows it) - but if the client refused it, say what reads it."""
    context = _context(_payload(project, _read(project / "notes.pdf")), capsys)
    assert context is not None and "boundread info notes.pdf" in context


def test_a_whole_read_the_guard_would_deny_gets_commands(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without a PreToolUse hook, Read of a 40-page PDF went through: advise for the next call."""
    context = _context(_payload(project, _read(project / "report.pdf", "1\t%PDF-1.3 ...")), capsys)
    assert context is not None and "boundread pages report.pdf 1-5" in context and "40 pages" in context


def test_a_bash_dump_gets_commands(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    call = {"tool_name": "Bash", "tool_input": {"command": "cat big.log"}, "tool_use_id": "t",
            "tool_response": {"stdout": "2024-01-01 INFO ...", "stderr": "", "interrupted": False}}
    context = _context(_payload(project, call), capsys)
    assert context is not None and "boundread extract big.log --lines 1-500" in context


def test_one_block_per_file(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    calls = [_read(project / "prices.xlsx"), _read(project / "bundle.zip"), _read(project / "prices.xlsx"),
             _read(project / "small.txt", "1\tBOUNDREAD-SENTINEL-7")]
    context = _context(_payload(project, *calls), capsys)
    assert context is not None
    assert context.count("- prices.xlsx (") == 1 and context.count("- bundle.zip (") == 1
    assert "boundread list-zip bundle.zip" in context and "small.txt" not in context


def test_one_block_per_file_however_its_path_is_spelt(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "sheets").symlink_to(project)
    calls = [_read("prices.xlsx"), _read(project / "prices.xlsx"), _read("./prices.xlsx"),
             _read(project / "sheets" / "prices.xlsx"), _read("sheets/../prices.xlsx")]
    context = _context(_payload(project, *calls), capsys)
    assert context is not None
    assert context.count("prices.xlsx (") == 1, context


@pytest.mark.parametrize("calls", [
    [_read("/x/small.txt", "1\thello")],  # a read that went fine
    [{"tool_name": "Bash", "tool_input": {"command": "ls -la"}, "tool_use_id": "t", "tool_response": "a\nb"}],
    [{"tool_name": "Grep", "tool_input": {"pattern": "x"}, "tool_use_id": "t", "tool_response": REFUSAL}],
    [],
])
def test_nothing_to_say_prints_nothing(project: Path, calls: list[dict[str, object]],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert _context(_payload(project, *calls), capsys) is None


def test_the_guards_own_deny_is_not_repeated(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    response = f"<tool_use_error>{OPENING} - reading report.pdf whole (PDF ...)</tool_use_error>"
    assert _context(_payload(project, _read(project / "report.pdf", response)), capsys) is None


def test_a_refused_path_that_is_not_here(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    context = _context(_payload(tmp_path, _read("/elsewhere/Q3 report.xlsx")), capsys)
    assert context is not None and "boundread info '/elsewhere/Q3 report.xlsx'" in context


def test_a_path_with_a_nul_byte_does_not_lose_the_others_advice(project: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    calls = [_read("a\x00b.docx"), _read(project / "report.pdf", "1\tpage one")]
    context = _context(_payload(project, *calls), capsys)
    assert context is not None and "- report.pdf (PDF" in context
    assert "- 'a\x00b.docx':\n  boundread info 'a\x00b.docx'\n" in context  # the path as written


@pytest.mark.parametrize("tool_calls", [
    None, "Read", 7, [None, 3, "x"], [{"tool_name": "Read", "tool_input": "not json"}],
    [{"tool_name": "Read", "tool_input": {"file_path": 5}, "tool_response": REFUSAL}],
    [{"tool_name": "Read", "tool_input": {"file_path": ""}, "tool_response": REFUSAL}],
    [{"tool_name": "Bash", "tool_input": {"command": ["cat", "x"]}, "tool_response": REFUSAL}],
    [{"tool_name": "Read", "tool_input": {"file_path": "/dev/zero"}, "tool_response": {"a": [[[[[[REFUSAL]]]]]]}}],
])
def test_unparsable_says_nothing_and_never_denies(tool_calls: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("BOUNDREAD_GUARD_ON_ERROR", "deny")
    payload = {"hook_event_name": "PostToolBatch", "cwd": str(tmp_path), "tool_calls": tool_calls}
    assert run([], io.StringIO(json.dumps(payload))) == 0
    out, err = capsys.readouterr()
    assert "deny" not in out and "Traceback" not in err
    assert out == "" or "additionalContext" in out


def test_a_broken_setting_falls_back_and_the_advice_still_comes(project: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """An unusable setting is ignored (its default applies), never a reason to go quiet or to deny."""
    monkeypatch.setenv("BOUNDREAD_GUARD_TEXT_MAX_BYTES", "lots")
    monkeypatch.setenv("BOUNDREAD_GUARD_ON_ERROR", "deny")
    context = _context(_payload(project, _read(project / "prices.xlsx")), capsys)
    assert context is not None and "boundread sheets" in context


def test_the_context_stays_under_the_clients_cap(tmp_path: Path) -> None:
    calls = [_read(f"/elsewhere/{'n' * 200}-{number}.xlsx") for number in range(200)]
    context = batch.advice(_payload(tmp_path, *calls), GuardConfig())
    assert context.count("boundread info") == batch.MAX_FILES
    assert len(context) <= batch.MAX_CONTEXT


SLICED = ("1\t[boundread redirect] report.pdf: PDF, 9.2 kB, 40 pages. It was not read whole: this file holds its "
          "first part, pages 1-12 of 40.\n2\tNext part: boundread extract report.pdf --pages 13-24 --stdout")


def _redirect(capsys: pytest.CaptureFixture[str], payload: object, *argv: str) -> str | None:
    assert run(list(argv), io.StringIO(json.dumps(payload))) == 0
    out, _ = capsys.readouterr()
    return str(json.loads(out)["hookSpecificOutput"]["additionalContext"]) if out else None


@pytest.mark.parametrize("call", [
    _read("report.pdf", SLICED),  # a whole Read pointed at the slice file
    _read("big.log", "1\t2024-01-01 INFO first line\n2\t2024-01-01 INFO second line"),  # given a range
    {"tool_name": "Bash", "tool_input": {"command": "cat big.log"}, "tool_use_id": "t",  # run bounded
     "tool_response": {"stdout": "2024-01-01 INFO ...\nnext: boundread extract big.log --lines 243-", "stderr": ""}},
])
def test_silent_about_a_call_the_same_batch_redirected(project: Path, call: dict[str, object],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """The hook's own --mode redirect (what init writes): the model got the first part and the next step already."""
    assert _redirect(capsys, _payload(project, call), "--mode", "redirect") is None
    assert _redirect(capsys, _payload(project, call)) is not None  # deny mode: the same call went through unguarded


def test_redirect_mode_still_advises_on_what_the_client_refused(project: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Claude Code refuses a .xlsx before any PreToolUse hook, and a whole Read over its own size cap: no
    redirect happened, so the commands are still the news."""
    over = "<tool_use_error>File content (6.0MB) exceeds maximum allowed size (256KB).</tool_use_error>"
    calls = [_read(project / "prices.xlsx"), _read(project / "report.pdf", SLICED), _read("big.log", over)]
    context = _redirect(capsys, _payload(project, *calls), "--mode", "redirect")
    assert context is not None and "- prices.xlsx (" in context and "- big.log (" in context
    assert "report.pdf" not in context


def test_the_configs_mode_wins_over_the_hooks(project: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "configured"
    folder.mkdir()
    (folder / ".boundread.toml").write_text('[guard]\nmode = "deny"\n', encoding="utf-8")
    (folder / "report.pdf").write_bytes((project / "report.pdf").read_bytes())
    assert _redirect(capsys, _payload(folder, _read(folder / "report.pdf", SLICED)), "--mode", "redirect")


def test_the_advice_prints_a_bounded_part(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """After the client refused a read, the text comes in the next call, not in a file to read in another: each
    command that reads text prints it (--stdout) within its --max-chars; a sheet named like an option stays last."""
    import xlsxwriter

    book = xlsxwriter.Workbook(str(tmp_path / "odd.xlsx"))
    book.add_worksheet("-rows").write(0, 0, "x")
    book.close()
    context = _context(_payload(project, _read(project / "report.pdf", REFUSAL), _read(tmp_path / "odd.xlsx")),
                       capsys)
    assert context is not None
    assert "  boundread pages report.pdf 1-5 --max-chars 20000 --stdout\n" in context
    assert "  boundread info report.pdf\n" in context  # nothing to bound
    assert "--max-rows 50 --max-chars 20000 --stdout -- -rows\n" in context
    assert "next:" in context and "boundread-out" not in context
