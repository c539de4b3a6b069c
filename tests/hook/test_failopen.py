"""No fail-open flips (issue 9): input the guard can parse is decided; on_error is for the unforeseen.

Each case here once turned the deny of a 40-page PDF into an allow through ``on_error=allow``.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from boundread.guard import config
from boundread.hook import stdin as hook_stdin
from boundread.hook.main import run
from tests.hookproject import guard_argv, guard_env

needs_tomllib = pytest.mark.skipif(sys.version_info < (3, 11), reason="tomllib needs Python 3.11+")


def _claude(path: Path, **tool_input: object) -> dict[str, object]:
    return {"session_id": "s", "transcript_path": "/t", "cwd": str(path.parent), "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": str(path), **tool_input},
            "tool_use_id": "toolu_1"}


def _denied(out: str) -> bool:
    return bool(out) and json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "deny"


def _answer(stdin: str, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[str, str]:
    assert run(list(args), io.StringIO(stdin)) == 0
    return capsys.readouterr()


def test_a_utf8_bom_before_the_payload(project: Path, tmp_path: Path) -> None:
    payload = b"\xef\xbb\xbf" + json.dumps(_claude(project / "report.pdf")).encode()
    result = subprocess.run(guard_argv(), input=payload, capture_output=True, env=guard_env(), cwd=tmp_path,
                            timeout=60, check=False)
    assert _denied(result.stdout.decode()) and result.stderr == b""


def test_a_deeply_nested_extra_field(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    payload = json.dumps(_claude(project / "report.pdf"))
    deep = payload.replace('"tool_use_id"', '"extra": ' + "[" * 100_000 + "]" * 100_000 + ', "tool_use_id"')
    deep = deep.replace('"file_path"', '"meta": ' + '{"a": ' * 50_000 + "1" + "}" * 50_000 + ', "file_path"')
    out, err = _answer(deep, capsys)
    assert _denied(out) and err == ""


DIGITS = "9" * 5000


@pytest.mark.parametrize(("extra", "denied"), [
    (f'"pages": {DIGITS}', True),  # a JSON number of 5,000 digits: int() refuses over 4,300
    (f'"pages": "1-{DIGITS}"', True),
    (f'"pages": -{DIGITS}', True),
    (f'"pages": "1-5", "offset": {DIGITS}, "limit": {DIGITS}', False),  # a page range that fits
])
def test_five_thousand_digits(project: Path, extra: str, denied: bool, capsys: pytest.CaptureFixture[str]) -> None:
    payload = json.dumps(_claude(project / "report.pdf")).replace('"file_path"', extra + ', "file_path"')
    out, err = _answer(payload, capsys)
    assert _denied(out) is denied and err == ""


def test_five_thousand_digit_limit_on_a_big_log(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for limit in (f'"{DIGITS}"', DIGITS):
        payload = json.dumps(_claude(project / "big.log")).replace('"file_path"', f'"limit": {limit}, "file_path"')
        out, _ = _answer(payload, capsys)
        assert _denied(out)


def test_a_claude_payload_that_also_carries_tool_name_in_camel_case(project: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    payload = {**_claude(project / "report.pdf"), "toolName": "Read"}
    out, err = _answer(json.dumps(payload), capsys)
    assert _denied(out) and err == ""


def _pipe_stdin(monkeypatch: pytest.MonkeyPatch) -> int:
    read, write = os.pipe()
    monkeypatch.setattr(sys, "stdin", os.fdopen(read, "r"))
    return write


def test_stdin_left_open_after_the_payload(project: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(hook_stdin, "STDIN_DEADLINE", 60.0)  # a wait for the deadline would take a minute
    write = _pipe_stdin(monkeypatch)
    os.write(write, json.dumps(_claude(project / "report.pdf")).encode() + b"\n")
    started = time.monotonic()
    try:
        assert run([]) == 0
    finally:
        os.close(write)
    assert time.monotonic() - started < 30  # decided on the complete value, not at the deadline
    out, err = capsys.readouterr()
    assert _denied(out) and err == ""  # at the deadline it would be on_error's allow and a line on stderr


def test_stdin_left_open_as_a_real_client_does(project: Path, tmp_path: Path) -> None:
    with subprocess.Popen(guard_argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=guard_env(), cwd=tmp_path) as child:
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(json.dumps(_claude(project / "report.pdf")).encode())
        child.stdin.flush()
        out = child.stdout.read()  # the answer comes while stdin is still open
        child.stdin.close()
        assert child.wait(timeout=30) == 0
        err = child.stderr.read() if child.stderr else b""
    # a deny, and no "stdin gave no complete JSON payload within" line: decided on the payload, not at the deadline
    # (which would be on_error's allow); bench/hook_deadlines.py times it
    assert _denied(out.decode()) and b"within" not in err, err


def test_a_payload_split_at_a_brace_is_read_whole(project: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A pause right after an inner "}" is not the end: the probe fails and reading goes on."""
    write = _pipe_stdin(monkeypatch)
    text = json.dumps(_claude(project / "report.pdf"))
    cut = text.index("}") + 1  # the end of tool_input

    def writer() -> None:
        os.write(write, text[:cut].encode())
        time.sleep(0.3)
        os.write(write, text[cut:].encode())

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert run([]) == 0
    finally:
        thread.join()
        os.close(write)
    assert _denied(capsys.readouterr().out)


def test_a_trickling_stdin_has_an_overall_deadline(project: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(hook_stdin, "STDIN_DEADLINE", 0.6)
    write = _pipe_stdin(monkeypatch)
    stop = threading.Event()

    def trickle() -> None:
        os.write(write, b'{"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": "')
        while not stop.is_set():
            os.write(write, b"x")
            time.sleep(0.05)

    thread = threading.Thread(target=trickle)
    thread.start()
    started = time.monotonic()
    try:
        assert run([]) == 0
    finally:
        stop.set()
        thread.join()
        os.close(write)
    assert time.monotonic() - started < 10 * hook_stdin.STDIN_DEADLINE  # the trickle never ends: only the deadline does
    err = capsys.readouterr().err
    assert err.startswith("boundread: error: stdin gave no complete JSON payload within") and err.count("\n") == 1


def test_a_truncated_payload_gives_the_one_line_message(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps(_claude(project / "report.pdf"))
    for cut in (10, len(text) // 2, len(text) - 1):
        out, err = _answer(text[:cut], capsys)
        assert out == "" and err.count("\n") == 1
        assert err.startswith("boundread: error: the JSON payload on stdin ends early") and " - " in err
        assert "SystemError" not in err and "internal error" not in err


@pytest.mark.parametrize(("name", "value"), [
    ("BOUNDREAD_GUARD_NOPE", "1"),
    ("BOUNDREAD_GUARD_TEXT_MAX_BYTES", "lots"),
    ("BOUNDREAD_GUARD_LINE_CAP", "-5"),
    ("BOUNDREAD_GUARD_PDF_PAGE_CAP", "9" * 5000),
    ("BOUNDREAD_GUARD_ON_ERROR", "maybe"),
    ("BOUNDREAD_GUARD_IMAGE_MAX_BYTES", "1e999GB"),
])
def test_an_invalid_or_unknown_variable_falls_back(name: str, value: str, project: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(name, value)
    out, err = _answer(json.dumps(_claude(project / "report.pdf")), capsys)
    assert _denied(out)
    assert err.startswith(f"boundread: warning: {name}: ") and err.count("\n") == 1 and " - " in err


def test_on_error_deny_in_capitals(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("BOUNDREAD_GUARD_ON_ERROR", "DENY")
    out, err = _answer("{not json", capsys, "--agent", "claude")
    assert _denied(out) and "on_error=deny" in err
    assert config.load().on_error == "deny"


def test_on_error_deny_in_the_user_config_covers_a_bad_payload(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    user = Path(config.user_file())
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text('[guard]\non_error = "deny"\n')
    out, _ = _answer("{not json", capsys, "--agent", "claude")
    assert _denied(out)


@needs_tomllib
@pytest.mark.parametrize("text", ["[guard\n", "[guard]\nline_cap = \n", "guard = 5\n", "[guard]\nline_cap = 'x'\n",
                                  "\xff\xfe"])
def test_an_invalid_project_file_falls_back(text: str, project: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / ".boundread.toml").write_bytes(text.encode("latin-1"))
    payload = {**_claude(project / "report.pdf"), "cwd": str(tmp_path)}
    out, err = _answer(json.dumps(payload), capsys)
    assert _denied(out)
    assert err.startswith("boundread: warning: ") and err.count("\n") == 1


# --- a project file may only tighten, unless the user's own config lets it loosen ---------------------


def _user(text: str) -> None:
    user = Path(config.user_file())
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text(text)


WEAKEN = ('[guard]\nallow = ["*"]\ndeny_kinds = []\ntext_max_bytes = "1GB"\nline_cap = 1000000\n'
          'pdf_page_cap = 100000\non_error = "allow"\nattachment_dirs = []\n')


@needs_tomllib
def test_only_the_users_own_config_lets_a_project_file_turn_the_guard_off(tmp_path: Path) -> None:
    (tmp_path / ".boundread.toml").write_text(WEAKEN)
    assert config.load(tmp_path).deny_kinds == config.GuardConfig().deny_kinds  # no user config: only tightens
    _user('[guard]\nproject_may_loosen = true\n')
    cfg = config.load(tmp_path)
    assert cfg.allow == ("*",) and cfg.deny_kinds == frozenset()  # the user opted in: the project is trusted
    assert cfg.notes == ()


@needs_tomllib
@pytest.mark.parametrize("user", ['[guard]\nlock = true\non_error = "deny"\n', '[guard]\non_error = "deny"\n',
                                  '[guard]\nproject_may_loosen = false\non_error = "deny"\n'])
def test_a_project_file_may_only_tighten(user: str, project: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    _user(user)
    (tmp_path / ".boundread.toml").write_text(WEAKEN)
    cfg = config.load(tmp_path)
    defaults = config.GuardConfig()
    assert cfg.allow == () and cfg.deny_kinds == defaults.deny_kinds
    assert (cfg.text_max_bytes, cfg.line_cap, cfg.pdf_page_cap) == (
        defaults.text_max_bytes, defaults.line_cap, defaults.pdf_page_cap)
    assert cfg.on_error == "deny" and cfg.attachment_dirs == defaults.attachment_dirs
    assert all("a project file may only tighten the guard" in note and "project_may_loosen = true" in note
               for note in cfg.notes) and len(cfg.notes) == 7
    payload = {**_claude(project / "report.pdf"), "cwd": str(tmp_path)}
    out, err = _answer(json.dumps(payload), capsys)
    assert _denied(out) and err.count("boundread: warning: ") == 7
    (tmp_path / ".boundread.toml").write_text('[guard]\nline_cap = 50\ndeny_kinds = ["image"]\n'
                                              'attachment_dirs = ["inbox"]\n')
    tighter = config.load(tmp_path)
    assert tighter.line_cap == 50 and "image" in tighter.deny_kinds and "pdf" in tighter.deny_kinds
    assert tighter.attachment_dirs == ("attachments", "inbox")
    assert len(tighter.notes) == 2 and "kinds stay denied: 7z" in tighter.notes[0]  # a list that drops some


@needs_tomllib
def test_a_lock_list_keeps_those_tight_whatever_the_project_may_loosen(tmp_path: Path) -> None:
    _user('[guard]\nproject_may_loosen = true\nlock = ["allow", "deny-kinds", "nonsense"]\n')
    (tmp_path / ".boundread.toml").write_text('[guard]\nallow = ["*.pdf"]\nline_cap = 5000\nlock = false\n'
                                              'project_may_loosen = true\n')
    cfg = config.load(tmp_path)
    assert cfg.allow == () and cfg.line_cap == 5000
    assert any("nonsense - not a setting that can loosen the guard" in note for note in cfg.notes)
    assert any("'lock' is read from the user config" in note for note in cfg.notes)
    assert any("'project_may_loosen' is read from the user config" in note for note in cfg.notes)


@needs_tomllib
def test_project_may_loosen_as_a_list_opens_only_those(tmp_path: Path) -> None:
    _user('[guard]\nproject-may-loosen = ["line_cap"]\n')
    (tmp_path / ".boundread.toml").write_text('[guard]\nallow = ["*.pdf"]\nline_cap = 5000\ntext_max_bytes = "1GB"\n')
    cfg = config.load(tmp_path)
    assert cfg.line_cap == 5000 and cfg.allow == () and cfg.text_max_bytes == config.GuardConfig().text_max_bytes


@needs_tomllib
def test_a_project_may_loosen_that_is_not_usable_opens_nothing(tmp_path: Path) -> None:
    _user('[guard]\nproject_may_loosen = "yes"\n')
    (tmp_path / ".boundread.toml").write_text('[guard]\nallow = ["*"]\n')
    cfg = config.load(tmp_path)
    assert cfg.allow == () and "project files may only tighten the guard" in cfg.notes[0]


@needs_tomllib
def test_an_unreadable_user_config_locks_everything(tmp_path: Path) -> None:
    _user("[guard\nlock = true\n")
    (tmp_path / ".boundread.toml").write_text('[guard]\nallow = ["*"]\n')
    cfg = config.load(tmp_path)
    assert cfg.allow == ()
    assert "project files may only tighten" in cfg.notes[0]


def test_the_environment_still_overrides_a_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook's environment is the user's (the client's), not a project file."""
    _user("[guard]\nlock = true\n")
    monkeypatch.setenv("BOUNDREAD_GUARD_LINE_CAP", "5000")
    assert config.load(tmp_path).line_cap == 5000
