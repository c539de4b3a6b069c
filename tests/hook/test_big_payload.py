"""A post-tool payload too big to hold, cut short or broken is answered with the bounded replacement (issue 19).

guard-check refuses stdin over MAX_PAYLOAD (32 MiB) and JSON it cannot parse, with ``on_error`` (allow by
default): Gemini CLI's AfterTool sends a shell output twice (``llmContent`` and ``returnDisplay``), so its
biggest outputs passed unreplaced. A post-tool payload is now read as it streams (hook/bigpayload.py): its
big strings spilled to files, what could be read answered as any over-cap output. A pre-tool payload gets
the refusal it always had.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boundread.hook import bigpayload, main, posttool
from boundread.hook import stdin as hook_stdin
from tests.hookproject import guard_env

LINE = "2026-12-02T05:00:00Z INFO worker request {n:08d} served in 12 ms\n"


def lines(count: int) -> str:
    return "".join(LINE.format(n=n) for n in range(count))


def gemini(cwd: Path, output: str) -> dict[str, Any]:
    return {"session_id": "s", "transcript_path": "/t.jsonl", "cwd": str(cwd), "hook_event_name": "AfterTool",
            "timestamp": "2026-12-02T05:00:00Z", "tool_name": "run_shell_command",
            "tool_input": {"command": "cat app.log"},
            "tool_response": {"llmContent": f"Output: {output}", "returnDisplay": output}}


def claude(cwd: Path, stdout: str) -> dict[str, Any]:
    return {"session_id": "s", "cwd": str(cwd), "hook_event_name": "PostToolUse", "tool_name": "Bash",
            "tool_input": {"command": "cat app.log"},
            "tool_response": {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False}}


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for key in list(os.environ):
        if key.startswith("BOUNDREAD_GUARD_") or key == "BOUNDREAD_OUT_DIR":
            monkeypatch.delenv(key)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    spills = tmp_path / "tmp"
    spills.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spills))
    return spills


def hook(text: str, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    assert main.run([], io.StringIO(text)) == 0
    got = capsys.readouterr()
    return got.out, got.err


def saved(cwd: Path) -> Path:
    (path,) = (cwd / "boundread-out").glob("*-output.*.txt")
    return path


def test_a_gemini_payload_over_the_stdin_cap_is_replaced_not_passed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(hook_stdin, "MAX_PAYLOAD", 1_000_000)
    output = lines(12_000)  # 780 kB, twice in the payload: over the (lowered) cap
    out, err = hook(json.dumps(gemini(tmp_path, output)), capsys)
    answer = json.loads(out)
    assert answer["decision"] == "deny" and answer["reason"].startswith("Not an error") and err == ""
    assert len(answer["reason"]) < 1500 and "12,000 lines" in answer["reason"]
    assert saved(tmp_path).read_text(encoding="utf-8") == output  # copied whole from the spilled string
    assert not list(Path(tempfile.gettempdir()).iterdir())  # the spill folder is gone


def test_a_pre_tool_payload_over_the_stdin_cap_is_refused_as_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(hook_stdin, "MAX_PAYLOAD", 100_000)
    payload = {"session_id": "s", "cwd": str(tmp_path), "hook_event_name": "PreToolUse", "tool_name": "Write",
               "tool_input": {"file_path": str(tmp_path / "a.txt"), "content": "x" * 200_000}}
    out, err = hook(json.dumps(payload), capsys)
    assert out == "" and err.startswith("boundread: error: stdin is over") and err.count("\n") == 1
    assert not list(Path(tempfile.gettempdir()).iterdir())


@pytest.mark.parametrize("client", [gemini, claude])
def test_a_post_tool_payload_cut_inside_the_output_gets_the_short_answer(
        tmp_path: Path, client: Any, capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps(client(tmp_path, lines(4_000)))
    out, _ = hook(text[:len(text) // 2], capsys)
    body = json.loads(out)
    reason = body.get("reason") or body["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
    assert reason.startswith("Not an error") and "the hook could not read the rest" in reason
    assert "Output read saved to:" in reason and len(reason) < 1500
    kept = saved(tmp_path).read_text(encoding="utf-8")
    assert LINE.format(n=0) in kept[:100] and len(kept) < len(lines(4_000))  # Gemini: cut in llmContent


@pytest.mark.parametrize("client", [gemini, claude])
def test_a_post_tool_payload_cut_before_the_output_still_gets_the_short_answer(
        tmp_path: Path, client: Any, capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps(client(tmp_path, lines(4_000)))
    out, _ = hook(text[:text.index('"tool_response"')], capsys)
    body = json.loads(out)
    reason = body.get("reason") or body["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
    assert "too big for the hook to read" in reason and "CMD > out.txt" in reason
    if client is claude:  # Bash's own shape, as Claude Code requires
        assert set(body["hookSpecificOutput"]["updatedToolOutput"]) == {"stdout", "stderr", "interrupted", "isImage"}


def test_broken_json_in_a_post_tool_payload_is_not_passed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps(gemini(tmp_path, lines(4_000)))
    broken = text.replace('"returnDisplay": ', '"returnDisplay" ')
    out, _ = hook(broken, capsys)
    assert json.loads(out)["decision"] == "deny"


def test_a_stalled_writer_is_answered_at_the_deadline(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(hook_stdin, "STDIN_DEADLINE", 0.6)
    read, write = os.pipe()
    monkeypatch.setattr(sys, "stdin", os.fdopen(read, "r"))
    text = json.dumps(gemini(tmp_path, lines(4_000))).encode()
    done = threading.Event()

    def writer() -> None:  # half the payload, then nothing (stdin left open)
        os.write(write, text[:len(text) // 2])
        done.wait(5)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert main.run([]) == 0
    finally:
        done.set()
        thread.join()
        os.close(write)
    reason = json.loads(capsys.readouterr().out)["reason"]
    assert "the hook could not read the rest: stdin gave no more within" in reason


def test_a_real_gemini_payload_over_32_mib_through_the_console_script(tmp_path: Path) -> None:
    """The fd path at full size: a 17 MB shell output, sent twice, is a 35 MB payload."""
    output = lines(262_000)
    assert len(output) > 17_000_000
    data = json.dumps(gemini(tmp_path, output)).encode()
    assert len(data) > hook_stdin.MAX_PAYLOAD
    env = {**guard_env(), "XDG_CONFIG_HOME": str(tmp_path / "xdg"), "TMPDIR": str(tmp_path / "tmp")}
    code = "import sys; sys.argv[1:] = ['guard-check']; from boundread.__main__ import main; main()"
    done = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True, env=env, cwd=tmp_path,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["decision"] == "deny", done.stderr
    assert saved(tmp_path).stat().st_size == len(output)
    assert not list((tmp_path / "tmp").glob("boundread-payload-*"))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=200),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)


def _whole(value: Any) -> Any:
    if isinstance(value, bigpayload.Spill):
        return Path(value.path).read_bytes().decode("utf-8", "surrogatepass")
    if isinstance(value, dict):
        return {key: _whole(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_whole(item) for item in value]
    return value


@settings(max_examples=150, deadline=None)
@given(JSON, st.booleans(), st.integers(1, 64))
def test_the_streaming_reader_reads_what_json_reads(value: Any, ascii_only: bool, size: int) -> None:
    payload = {"hook_event_name": "AfterTool", "v": value, "big": "é\n\"x\\" * 40}
    data = json.dumps(payload, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
    chunks = [data[at:at + size] for at in range(0, len(data), size)]
    rest = iter(chunks[1:])
    with tempfile.TemporaryDirectory() as folder:
        old = bigpayload.SPILL_OVER
        bigpayload.SPILL_OVER = 64  # spill all but the smallest strings
        try:
            got = bigpayload.Reader(chunks[:1], lambda: next(rest, b""), folder).payload()
            assert _whole(got) == json.loads(data)
        finally:
            bigpayload.SPILL_OVER = old


def test_posttool_removes_the_spill_folder_even_on_a_fault(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = json.dumps(gemini(tmp_path, lines(4_000))).encode()
    payload = bigpayload.read([data], bytes)
    assert payload is not None
    folder = Path(payload[posttool.SPILLS])
    assert folder.is_dir() and any(folder.iterdir())

    def boom(*_: object, **__: object) -> None:
        raise RuntimeError("bug")

    monkeypatch.setattr(posttool, "summary", boom)
    assert posttool.run(payload, None) == 0
    assert not folder.exists()
