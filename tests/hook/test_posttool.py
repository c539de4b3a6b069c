"""The second line (issue 9): a binary or over-cap tool output that slipped past PreToolUse is saved in the
output folder and replaced by a short answer; anything else gets no answer at all.

The payloads are the shapes the real clients send (tests/e2e/test_posttool.py checks the clients' side):
Claude Code Bash ``{"stdout", "stderr", "interrupted", "isImage", "noOutputExpected"}`` plus
``persistedOutputPath``/``persistedOutputSize`` when it kept the output in its own file; Gemini CLI
``{"llmContent", "returnDisplay"}``.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boundread.guard.config import GuardConfig
from boundread.hook import main, posttool
from tests.hookproject import guard_env

LINE = "2026-11-29T08:00:00Z INFO worker request {n:08d} served in 12 ms"
BIG = "".join(LINE.format(n=n) + "\n" for n in range(1, 8001))  # ~540 KB: over the 100 kB cap
ELF = "\x7fELF\x02\x01\x01" + "\x00\ufffd\x03\x01" * 600  # what Claude Code hands over for `head -c N /bin/ls`


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for key in list(os.environ):
        if key.startswith("BOUNDREAD_GUARD_") or key == "BOUNDREAD_OUT_DIR":
            monkeypatch.delenv(key)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))


def claude(cwd: Path, stdout: str, **response: Any) -> dict[str, Any]:
    return {"session_id": "s1", "transcript_path": "/t.jsonl", "cwd": str(cwd), "permission_mode": "default",
            "prompt_id": "p1", "hook_event_name": "PostToolUse", "tool_name": "Bash",
            "tool_input": {"command": "python3 gen.py", "description": "x"},
            "tool_response": {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False,
                              "noOutputExpected": False, **response},
            "tool_use_id": "toolu_1", "duration_ms": 12}


def gemini(cwd: Path, output: str, tool: str = "run_shell_command") -> dict[str, Any]:
    wrapped = f"<untrusted_context>\nOutput: {output}\nProcess Group PGID: 7\n</untrusted_context>"
    return {"session_id": "s1", "transcript_path": "/t.jsonl", "cwd": str(cwd), "hook_event_name": "AfterTool",
            "timestamp": "2026-12-01T07:30:51.776Z", "tool_name": tool, "tool_input": {"command": "seq"},
            "tool_response": {"llmContent": wrapped, "returnDisplay": output}}


def hook(payload: dict[str, Any]) -> tuple[int, str]:
    """guard-check as the client runs it (main.run, the real dispatch), stdout captured."""
    out = io.StringIO()
    real, sys.stdout = sys.stdout, out
    try:
        code = main.run([], io.StringIO(json.dumps(payload)))
    finally:
        sys.stdout = real
    return code, out.getvalue()


def saved_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name != ".gitignore") if folder.is_dir() else []


@pytest.mark.parametrize("payload", [
    lambda cwd: claude(cwd, "hello\n"),
    lambda cwd: claude(cwd, LINE.format(n=1) * 100),  # 6 KB of text: under the cap
    lambda cwd: gemini(cwd, "hello"),
    lambda cwd: claude(cwd, "a\x00b\n"),  # a few NULs (find -print0): under the floor
])
def test_an_ordinary_output_gets_no_answer(tmp_path: Path, payload: Any) -> None:
    assert hook(payload(tmp_path)) == (0, "")
    assert not (tmp_path / "boundread-out").exists()


def test_a_small_output_never_reads_the_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_: object) -> None:
        raise AssertionError("config read for a small output")

    monkeypatch.setattr(posttool, "load_config", boom)
    assert posttool.answer(claude(tmp_path, "x" * posttool.FLOOR)) == ""


def test_claude_over_the_cap_is_saved_whole_and_replaced_in_the_tools_shape(tmp_path: Path) -> None:
    code, out = hook(claude(tmp_path, BIG))
    assert code == 0
    (saved,) = saved_files(tmp_path / "boundread-out")
    assert saved.read_text(encoding="utf-8") == BIG
    assert saved.name.startswith("Bash-output.") and saved.suffix == ".txt"
    assert (tmp_path / "boundread-out" / ".gitignore").read_text() == "*\n"
    answer = json.loads(out)["hookSpecificOutput"]
    assert answer["hookEventName"] == "PostToolUse"
    replaced = answer["updatedToolOutput"]
    assert set(replaced) == {"stdout", "stderr", "interrupted", "isImage", "noOutputExpected"}
    text = replaced["stdout"]
    assert replaced["stderr"] == "" and len(text) < 1500
    assert text.startswith("Not an error: the Bash call ran")
    assert "8,000 lines" in text and "text" in text and "over the 100.0 kB cap" in text
    assert f"Full output saved to: {saved}" in text
    assert f"boundread extract {saved} --lines 1-200" in text
    assert f"boundread extract {saved} --grep PATTERN --context 2" in text
    assert "request 00000001 served" in text and "request 00000006 " not in text  # a five-line preview


def test_claude_persisted_output_is_copied_from_its_own_file(tmp_path: Path) -> None:
    """Over 30,000 characters Claude Code keeps Bash output in a file; the payload holds the first 30,000."""
    full = tmp_path / "tool-results" / "b1.txt"
    full.parent.mkdir()
    full.write_text(BIG, encoding="utf-8")
    payload = claude(tmp_path, BIG[:30000], persistedOutputPath=str(full), persistedOutputSize=len(BIG))
    _, out = hook(payload)
    (saved,) = saved_files(tmp_path / "boundread-out")
    assert saved.read_bytes() == full.read_bytes()
    replaced = json.loads(out)["hookSpecificOutput"]["updatedToolOutput"]
    assert "persistedOutputPath" not in replaced and "persistedOutputSize" not in replaced
    assert "8,000 lines" in replaced["stdout"]


def test_a_persisted_path_that_is_not_a_regular_file_is_never_opened(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # opening it would hang the hook
    payload = claude(tmp_path, BIG[:30000], persistedOutputPath=str(fifo), persistedOutputSize=len(BIG))
    _, out = hook(payload)
    (saved,) = saved_files(tmp_path / "boundread-out")
    assert saved.read_text(encoding="utf-8") == BIG[:30000]  # what there is
    assert "Not an error" in json.loads(out)["hookSpecificOutput"]["updatedToolOutput"]["stdout"]


def test_binary_output_is_replaced_however_small(tmp_path: Path) -> None:
    _, out = hook(claude(tmp_path, ELF))
    (saved,) = saved_files(tmp_path / "boundread-out")
    assert saved.suffix == ".bin"
    text = json.loads(out)["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
    assert "binary data" in text and "binary output" in text
    assert f"boundread info {saved}" in text
    assert "--lines" not in text and "\x00" not in text  # extract reads text only; no byte of it shown


def test_binary_is_left_alone_when_the_config_does_not_deny_binaries(tmp_path: Path) -> None:
    user = Path(os.environ["XDG_CONFIG_HOME"]) / "boundread" / "config.toml"  # the user's: a project may only add
    user.parent.mkdir(parents=True)
    user.write_text('[guard]\ndeny_kinds = ["pdf"]\n')
    assert hook(claude(tmp_path, ELF)) == (0, "")


def test_the_cap_is_the_guards_text_max_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small = LINE.format(n=1) * 100  # 6 KB
    assert hook(claude(tmp_path, small)) == (0, "")
    monkeypatch.setenv("BOUNDREAD_GUARD_TEXT_MAX_BYTES", "4KB")
    _, out = hook(claude(tmp_path, small))
    stdout = json.loads(out)["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
    assert "over the 4.0 kB cap" in stdout  # 4KB is 4,000 bytes, and reads back as written
    monkeypatch.setenv("BOUNDREAD_GUARD_TEXT_MAX_BYTES", "4KiB")
    _, out = hook(claude(tmp_path, small))
    assert "over the 4 KiB cap" in json.loads(out)["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
    assert posttool.answer(claude(tmp_path, small), config=GuardConfig(text_max_bytes=100)) != ""
    assert posttool.answer(claude(tmp_path, "x" * 900), config=GuardConfig(text_max_bytes=100)) == ""  # floor


def test_gemini_is_answered_with_a_deny_whose_reason_is_the_short_answer(tmp_path: Path) -> None:
    _, out = hook(gemini(tmp_path, BIG))
    answer = json.loads(out)
    assert set(answer) == {"decision", "reason"} and answer["decision"] == "deny"
    (saved,) = saved_files(tmp_path / "boundread-out")
    assert saved.read_text(encoding="utf-8") == BIG  # the raw output, not Gemini's wrapper
    assert saved.name.startswith("run_shell_command-output.")
    assert answer["reason"].startswith("Not an error: the run_shell_command call ran")
    assert f"boundread extract {saved} --lines 1-200" in answer["reason"]


def test_a_gemini_payload_of_a_6_mb_output_fits_the_payload_cap(tmp_path: Path) -> None:
    """Gemini sends the output twice (llmContent and returnDisplay): a 6 MB output is a 12 MB payload."""
    output = "".join(f"line {n:08d} of a big output\n" for n in range(220_000))
    assert len(output) > 6_000_000
    _, out = hook(gemini(tmp_path, output))
    assert json.loads(out)["decision"] == "deny"
    (saved,) = saved_files(tmp_path / "boundread-out")
    assert saved.stat().st_size == len(output)


def test_gemini_parts_content_is_measured_too(tmp_path: Path) -> None:
    payload = gemini(tmp_path, "", tool="mcp_files_read")
    payload["tool_response"] = {"llmContent": [{"text": BIG}], "returnDisplay": "read"}
    assert json.loads(hook(payload)[1])["decision"] == "deny"


@pytest.mark.parametrize("change", [
    {"tool_response": {"filePath": "/x", "success": True}},  # Write: not an output shape we know
    {"tool_response": {"stdout": BIG, "isImage": True}},
    {"tool_response": None},
])
def test_shapes_it_cannot_replace_get_no_answer(tmp_path: Path, change: dict[str, Any]) -> None:
    assert hook({**claude(tmp_path, BIG), **change}) == (0, "")


def test_the_same_output_lands_in_the_same_file(tmp_path: Path) -> None:
    first, again = hook(claude(tmp_path, BIG))[1], hook(claude(tmp_path, BIG))[1]
    assert first == again and len(saved_files(tmp_path / "boundread-out")) == 1
    hook(claude(tmp_path, BIG + "one more line\n"))
    assert len(saved_files(tmp_path / "boundread-out")) == 2


def test_the_out_dir_comes_from_the_environment_relative_to_the_payloads_cwd(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOUNDREAD_OUT_DIR", "reads/out")
    monkeypatch.chdir(tmp_path.parent)
    hook(claude(tmp_path, BIG))
    assert len(saved_files(tmp_path / "reads" / "out")) == 1


def test_a_hostile_tool_name_still_saves_inside_the_folder(tmp_path: Path) -> None:
    payload = {**claude(tmp_path, BIG), "tool_name": "../../../etc/passwd\x00/.."}
    hook(payload)
    (saved,) = saved_files(tmp_path / "boundread-out")
    assert saved.parent == tmp_path / "boundread-out" and "/" not in saved.name and ".." not in saved.name[:8]
    assert not any(p.name.endswith(".tmp") for p in (tmp_path / "boundread-out").iterdir())


def test_an_unwritable_folder_still_bounds_the_output(tmp_path: Path) -> None:
    (tmp_path / "boundread-out").write_text("a file, not a folder")
    _, out = hook(claude(tmp_path, BIG))
    text = json.loads(out)["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
    assert "could not be saved" in text and "CMD > out.txt" in text and len(text) < 800
    full = tmp_path / "kept.txt"
    full.write_text(BIG)
    _, out = hook(claude(tmp_path, BIG[:30000], persistedOutputPath=str(full), persistedOutputSize=len(BIG)))
    assert f"Full output saved to: {full}" in json.loads(out)["hookSpecificOutput"]["updatedToolOutput"]["stdout"]


def test_a_huge_single_line_gives_a_short_answer(tmp_path: Path) -> None:
    _, out = hook(gemini(tmp_path, "{" + "\"k\": 1, " * 300_000 + "}"))
    assert len(json.loads(out)["reason"]) < 1500


def test_anything_unexpected_is_no_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_: object, **__: object) -> None:
        raise RuntimeError("bug")

    monkeypatch.setattr(posttool, "summary", boom)
    assert hook(claude(tmp_path, BIG)) == (0, "")


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=0, max_size=3000))
def test_any_output_gives_nothing_or_a_short_valid_answer(text: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        out = posttool.answer(claude(Path(folder), text), config=GuardConfig(text_max_bytes=2048))
        if out:
            replaced = json.loads(out)["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
            assert len(replaced) < 2000 and replaced.startswith("Not an error")


def test_the_pre_tool_path_does_not_import_it(tmp_path: Path) -> None:
    payload = {"session_id": "s", "transcript_path": "/t", "cwd": str(tmp_path), "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t1"}
    code = "import sys; sys.argv[1:] = ['guard-check']; from boundread.__main__ import main; main()"
    # -X importtime: guard-check ends with os._exit, so nothing runs after main() to look at sys.modules
    result = subprocess.run([sys.executable, "-X", "importtime", "-c", code], input=json.dumps(payload),
                            capture_output=True, text=True, env=guard_env(), cwd=tmp_path, timeout=60, check=False)
    loaded = {line.split("|")[-1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}
    assert result.returncode == 0 and "boundread.hook.main" in loaded and "boundread.hook.posttool" not in loaded
