"""Redirect mode (hook/redirect.py): a refused whole read answered with the bounded read to run instead."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from boundread import agents
from boundread.agents import install
from boundread.hook import main as guard_main
from boundread.hook import redirect, slices
from tests.hookproject import SENTINEL, guard_env


@pytest.fixture(autouse=True)
def _out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("BOUNDREAD_GUARD_MODE", "BOUNDREAD_OUT_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    out = tmp_path / "out"
    monkeypatch.setenv("BOUNDREAD_OUT_DIR", str(out))
    return out


def claude_read(path: Path, cwd: Path, **extra: object) -> dict[str, Any]:
    return {"session_id": "s", "transcript_path": "/t", "cwd": str(cwd), "hook_event_name": "PreToolUse",
            "tool_name": "Read", "tool_input": {"file_path": str(path), **extra}, "tool_use_id": "t1"}


def claude_bash(command: str, cwd: Path) -> dict[str, Any]:
    return {"session_id": "s", "transcript_path": "/t", "cwd": str(cwd), "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command, "description": "show it"}, "tool_use_id": "t1"}


def gemini_read(path: Path, cwd: Path) -> dict[str, Any]:
    return {"session_id": "s", "cwd": str(cwd), "hook_event_name": "BeforeTool", "timestamp": "2026-12-01T00:00:00Z",
            "tool_name": "read_file", "tool_input": {"file_path": str(path)}}


def hook(payload: dict[str, Any], capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code = guard_main.run(list(argv), io.StringIO(json.dumps(payload)))
    out = capsys.readouterr().out
    assert code == 0
    answer: dict[str, Any] = json.loads(out) if out.strip() else {}
    return answer


def specific(answer: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = answer["hookSpecificOutput"]
    return body


def test_a_whole_read_of_a_pdf_reads_its_first_part_instead(project: Path, _out: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    body = specific(hook(claude_read(project / "report.pdf", project), capsys, "--mode", "redirect"))
    assert body["permissionDecision"] == "allow"
    (key,) = body["updatedInput"]  # the whole input, replaced: no pages or offset left over
    sliced = Path(body["updatedInput"][key])
    assert sliced.parent == _out and sliced.name.startswith("report.pdf.")
    text = sliced.read_text(encoding="utf-8")
    header = text.split("-" * 72, 1)[0]
    assert header.startswith("[boundread redirect] report.pdf: PDF")
    assert "40 pages" in header and "pages 1-40 of 40 (all of it)" in header
    assert "extract report.pdf --grep PATTERN --context 2 --max-chars 19000 --stdout" in header
    assert f"{SENTINEL} page 1" in text
    assert "additionalContext" not in body  # the header says it: nothing said twice


def test_the_slice_is_cached_by_path_size_and_mtime(project: Path, _out: Path, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    first = specific(hook(claude_read(project / "memo.docx", project), capsys, "--mode", "redirect"))
    before = sorted(_out.iterdir())

    def no_extraction(*args: object) -> None:
        raise AssertionError("extracted again")

    monkeypatch.setattr(slices, "_extract", no_extraction)
    again = specific(hook(claude_read(project / "memo.docx", project), capsys, "--mode", "redirect"))
    assert again["updatedInput"] == first["updatedInput"]
    assert sorted(_out.iterdir()) == before
    index = json.loads((_out / slices.INDEX).read_text(encoding="utf-8"))
    memo = (project / "memo.docx").stat()
    assert list(index) == [f"{(project / 'memo.docx').resolve()}\0{memo.st_size}\0{memo.st_mtime_ns}\0"
                           f"{redirect.SLICE_CHARS}\0memo.docx\0{slices._LAYOUT}"]


def test_nothing_is_written_outside_the_output_folder(project: Path, _out: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    listed = sorted(p.name for p in project.iterdir())
    hook(claude_read(project / "deck.pptx", project), capsys, "--mode", "redirect")
    assert sorted(p.name for p in project.iterdir()) == listed
    assert {p.name for p in _out.iterdir()} <= {".gitignore", slices.INDEX} | {
        p.name for p in _out.glob("deck.pptx.*.first-part.txt")}


def test_the_output_folder_of_the_payloads_cwd_gets_its_gitignore(project: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("BOUNDREAD_OUT_DIR")
    work, elsewhere = tmp_path / "x" / "sub", tmp_path / "hook"
    work.mkdir(parents=True)
    elsewhere.mkdir()
    shutil.copy(project / "report.pdf", work / "report.pdf")
    monkeypatch.chdir(elsewhere)  # the hook process runs from another folder than the agent's
    body = specific(hook(claude_read(work / "report.pdf", work), capsys, "--mode", "redirect"))
    assert Path(body["updatedInput"]["file_path"]).parent == work / "boundread-out"
    assert (work / "boundread-out" / ".gitignore").read_text(encoding="utf-8") == "*\n"
    assert not (elsewhere / "boundread-out").exists()


def test_a_huge_text_keeps_its_file_and_gets_a_range_in_the_clients_own_words(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    claude = specific(hook(claude_read(project / "big.log", project), capsys, "--mode", "redirect"))
    assert claude["updatedInput"]["file_path"] == str(project / "big.log")
    assert claude["updatedInput"]["offset"] == 1
    lines = claude["updatedInput"]["limit"]
    assert 0 < lines * 40 <= redirect.SLICE_CHARS < (lines + 1) * 40  # 40 bytes a line in big.log
    assert f"lines 1-{lines:,}" in claude["additionalContext"] and f"offset={lines + 1}" in claude["additionalContext"]
    gemini = hook(gemini_read(project / "big.log", project), capsys, "--mode", "redirect", "--agent", "gemini")
    assert gemini["decision"] == "allow"
    assert gemini["hookSpecificOutput"]["tool_input"] == {"file_path": str(project / "big.log"), "start_line": 1,
                                                          "end_line": lines}  # the whole input: Gemini replaces it


# big.log: 10,000 lines of 40 bytes; a text gets what Claude Code shows of a big Bash output (its 2,000-character
# SHELL_PREVIEW_CHARS) less room for the summary: 1,100, so its last 27 lines; a PDF its first part, 19,000
# characters; many.zip: 1,200 entries, N of them fit 19,000 characters (test_an_archive_listing_fits_the_cap)
@pytest.mark.parametrize(("command", "rewritten", "what"), [
    ("cat report.pdf", "extract report.pdf --ocr never --max-chars 19000 --stdout", "the first part of report.pdf"),
    ("head -n 100000 big.log", "extract big.log --max-chars 1100 --stdout", "the first part of big.log"),
    ("tail -n 200000 big.log", "extract big.log --tail 27 --max-chars 1100 --stdout", "the last 27 lines"),
    ("tail -200000 big.log", "extract big.log --tail 27 --max-chars 1100 --stdout", "the last 27 lines"),
    ("tail --lines=200000 big.log", "extract big.log --tail 27 --max-chars 1100 --stdout", "the last 27 lines"),
    ("tail -c 9999999 big.log", "extract big.log --tail 27 --max-chars 1100 --stdout", "the last 27 lines"),
    ("tail -n +9000 big.log", "extract big.log --lines 9000- --max-chars 1100 --stdout", "big.log from line 9,000"),
    ("cat many.zip", "list-zip many.zip --max-entries N", "the first N entries of many.zip"),
    ("unzip -p many.zip", "list-zip many.zip --max-entries N", "the first N entries of many.zip"),
    ("unzip -p members.zip data/big.log", "extract members.zip --member data/big.log --max-chars 1100 --stdout",
     "the first part of data/big.log in members.zip"),
])
def test_a_shell_dump_becomes_the_bounded_command(project: Path, capsys: pytest.CaptureFixture[str], command: str,
                                                  rewritten: str, what: str) -> None:
    if "members.zip" in command and not (project / "members.zip").exists():  # a member over the cap: a dump
        with zipfile.ZipFile(project / "members.zip", "w", zipfile.ZIP_DEFLATED) as archive:
            archive.write(project / "big.log", "data/big.log")
            archive.writestr("small.txt", "small")
    body = specific(hook(claude_bash(command, project), capsys, "--mode", "redirect"))
    assert body["permissionDecision"] == "allow"
    new = body["updatedInput"]["command"]
    if " N" in rewritten:
        entries = new.rsplit(" ", 1)[-1]
        assert entries.isdigit() and 100 < int(entries) < 1200
        rewritten, what = rewritten.replace(" N", f" {entries}"), what.replace(" N ", f" {entries} ")
    assert new.endswith(rewritten) and "boundread" in new.removesuffix(rewritten)
    assert body["updatedInput"]["description"].startswith(f"boundread: {what}")


@pytest.mark.parametrize("command", [
    "cat report.pdf > copy.txt",  # a redirection: the rewrite would change what the command does
    "cat report.pdf big.log",
    "cat $F report.pdf",
    "cd sub && cat report.pdf",
    "strings report.pdf",
    "tac big.log",  # the end first: no bounded command prints that
    "tail -f big.log",
    "tail -n 100 report.pdf",  # the end of a PDF
    "tail -n 10K big.log",
])
def test_anything_more_than_a_dump_keeps_the_deny(project: Path, capsys: pytest.CaptureFixture[str],
                                                  command: str) -> None:
    redirected = hook(claude_bash(command, project), capsys, "--mode", "redirect")
    denied = hook(claude_bash(command, project), capsys)
    assert redirected == denied
    if denied:
        assert specific(denied)["permissionDecision"] == "deny"


@pytest.mark.parametrize("extra", [{"pages": "1-30"}, {"offset": 1, "limit": 100000}])
def test_a_refused_range_keeps_the_deny(project: Path, capsys: pytest.CaptureFixture[str],
                                        extra: dict[str, object]) -> None:
    name = "report.pdf" if "pages" in extra else "big.log"
    body = specific(hook(claude_read(project / name, project, **extra), capsys, "--mode", "redirect"))
    assert body["permissionDecision"] == "deny"


@pytest.mark.parametrize("agent", ["cursor", "copilot", "claude-sdk"])
def test_a_client_that_cannot_rewrite_gets_todays_deny(project: Path, agent: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    payload = claude_read(project / "report.pdf", project)
    code_r = guard_main.run(["--mode", "redirect", "--agent", agent], io.StringIO(json.dumps(payload)))
    redirected = capsys.readouterr()
    code_d = guard_main.run(["--agent", agent], io.StringIO(json.dumps(payload)))
    denied = capsys.readouterr()
    assert (code_r, redirected.out, redirected.err) == (code_d, denied.out, denied.err)
    assert "boundread pages report.pdf 1-5" in denied.out + denied.err


def test_the_config_mode_wins_over_the_hook_flag(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(project / "report.pdf", work)  # inside the folder the call comes from: redirect may rewrite it
    (work / ".boundread.toml").write_text('[guard]\nmode = "deny"\n', encoding="utf-8")
    payload = claude_read(work / "report.pdf", work)
    assert specific(hook(payload, capsys, "--mode", "redirect"))["permissionDecision"] == "deny"
    monkeypatch.setenv("BOUNDREAD_GUARD_MODE", "redirect")  # the environment over the project file
    assert specific(hook(payload, capsys))["permissionDecision"] == "allow"


def test_a_locking_user_config_does_not_hold_mode(project: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    user = tmp_path / "config" / "boundread" / "config.toml"
    user.parent.mkdir(parents=True)
    user.write_text('[guard]\nlock = true\nmode = "deny"\n', encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(project / "report.pdf", work)
    (work / ".boundread.toml").write_text('[guard]\nmode = "redirect"\n', encoding="utf-8")
    assert specific(hook(claude_read(work / "report.pdf", work), capsys))["permissionDecision"] == "allow"


def test_a_bad_mode_is_a_note_and_the_flag_applies(project: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(project / "report.pdf", work)
    (work / ".boundread.toml").write_text('[guard]\nmode = "sometimes"\n', encoding="utf-8")
    code = guard_main.run(["--mode", "redirect"], io.StringIO(json.dumps(claude_read(work / "report.pdf", work))))
    captured = capsys.readouterr()
    assert code == 0 and '"allow"' in captured.out
    assert ".boundread.toml [mode]: 'sometimes' is neither deny nor redirect; ignored" in captured.err
    assert "- use 'deny' or 'redirect'" in captured.err


@pytest.mark.parametrize("failure", ["no text", "error"])
def test_a_failed_or_late_extraction_keeps_the_deny(project: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch, failure: str) -> None:
    def broken(*args: object) -> None:
        if failure == "error":
            raise RuntimeError("boom")

    monkeypatch.setattr(slices, "_extract", broken)  # what a timed-out or scanned PDF gives: None
    body = specific(hook(claude_read(project / "Estados financieros.pdf", project), capsys, "--mode", "redirect"))
    assert body["permissionDecision"] == "deny" and "Not an error" in body["permissionDecisionReason"]


def test_the_extraction_has_a_deadline_under_the_hook_timeout() -> None:
    assert slices.DEADLINE <= 10 / 2  # init registers the hooks with a 10 s timeout


def test_json_shows_the_rewrite(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    payload = claude_bash("cat big.log", project)
    code = guard_main.run(["--mode", "redirect", "--agent", "claude"], io.StringIO(json.dumps(payload)))
    assert code == 0
    assert "updatedInput" in capsys.readouterr().out


def test_an_allowed_call_in_redirect_mode_loads_nothing_more(project: Path) -> None:
    console = ("import sys; sys.argv[1:] = ['guard-check', '--mode', 'redirect']; "
               "from boundread.__main__ import main; main()")
    result = subprocess.run([sys.executable, "-X", "importtime", "-c", console],
                            input=json.dumps(claude_read(project / "small.txt", project)), capture_output=True,
                            text=True, env=guard_env(), cwd=project, timeout=60, check=True)
    names = {line.split("|")[-1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}
    assert result.stdout == "" and "boundread.guard.decide" in names
    assert not names & {"boundread.hook.redirect", "boundread.hook.slices", "json", "re", "typing", "pathlib",
                        "dataclasses", "argparse"}


def test_init_writes_redirect_mode_for_the_verified_clients_and_updates_an_older_init(tmp_path: Path) -> None:
    def commands() -> list[str]:
        settings = json.loads((tmp_path / ".claude" / "settings.json").read_text(encoding="utf-8"))
        return [hook["command"] for group in settings["hooks"]["PreToolUse"] for hook in group["hooks"]]

    old = {"hooks": {"PreToolUse": [{"matcher": "Read|Bash", "hooks": [
        {"type": "command", "command": "boundread guard-check", "timeout": 10}]}]}}
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps(old), encoding="utf-8")
    plain = install.locate.Program("boundread")
    install.apply(install.plan("claude", tmp_path, home=tmp_path / "home", program=plain))
    assert commands() == ["boundread guard-check --mode redirect"]  # updated in place, not added
    for agent, settings in (("codex", ".codex/hooks.json"), ("gemini", ".gemini/settings.json"),
                            ("cursor", ".cursor/hooks.json")):
        install.apply(install.plan(agent, tmp_path, home=tmp_path / "home", program=plain))
        text = (tmp_path / settings).read_text(encoding="utf-8")
        assert ("--mode redirect" in text) is agents.module(agent).REDIRECT


@pytest.mark.parametrize(("command", "found"), [
    ("cat report.pdf", ("cat", "report.pdf", None, None)),
    ("cat -n 'my file.pdf'", ("cat", "my file.pdf", None, None)),  # cat's -n numbers lines: no count
    ("cat -- --x.pdf", ("cat", "--x.pdf", None, None)),
    ("tail -c 9999999 big.log", ("tail", "big.log", None, ("bytes", 9999999))),
    ("tail -n200 big.log", ("tail", "big.log", None, ("lines", 200))),
    ("tail -n +5 big.log", ("tail", "big.log", None, ("from", 5))),
    ("head --bytes=9 big.log", ("head", "big.log", None, ("bytes", 9))),
    ("tail -n", None),
    ("tail -qn 5 big.log", None),
    ("unzip -qp a.zip docs/x.txt", ("unzip", "a.zip", "docs/x.txt", None)),
    ("unzip a.zip", None),  # unpacking, not printing
    ("cat a b", None),
    ("cat report.pdf | head", None),
    ("cat ~/report.pdf", None),
    ("python x.py report.pdf", None),
    ("", None),
])
def test_what_counts_as_a_dump(command: str, found: tuple[str, str, str | None, tuple[str, int] | None] | None) -> None:
    assert redirect._dump(command) == found


@pytest.mark.parametrize("agent", ["codex", "gemini"])
def test_the_project_is_the_payloads_folder_not_the_folder_the_command_runs_in(
        project: Path, tmp_path: Path, agent: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no user rules of the clients
    for name in ("GEMINI_CLI_HOME", "CODEX_HOME", "GEMINI_CLI_SYSTEM_SETTINGS_PATH"):
        monkeypatch.delenv(name, raising=False)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(project / "report.pdf", elsewhere / "secret.pdf")
    shutil.copy(project / "report.pdf", project / "docs-copy.pdf")
    if agent == "codex":
        def payload(command: str, folder: Path) -> dict[str, Any]:
            return {"session_id": "s", "turn_id": "t", "cwd": str(project), "hook_event_name": "PreToolUse",
                    "tool_name": "exec_command", "tool_input": {"command": command, "workdir": str(folder)}}
    else:
        def payload(command: str, folder: Path) -> dict[str, Any]:
            return {"session_id": "s", "cwd": str(project), "hook_event_name": "BeforeTool",
                    "timestamp": "2026-12-01T00:00:00Z", "tool_name": "run_shell_command",
                    "tool_input": {"command": command, "dir_path": str(folder)}}

    def decided(answer: dict[str, Any]) -> str:
        return str(specific(answer)["permissionDecision"] if agent == "codex" else answer["decision"])

    outside = hook(payload("cat secret.pdf", elsewhere), capsys, "--mode", "redirect")
    assert decided(outside) == "deny"  # the file is outside the project, whatever folder the command runs in
    inside = hook(payload("cat docs-copy.pdf", project), capsys, "--mode", "redirect")
    assert decided(inside) == "allow"  # the same call inside the project is rewritten


def test_a_commands_probe_writes_to_the_projects_output_folder_not_its_workdirs(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.delenv("BOUNDREAD_OUT_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    root = tmp_path / "proj"
    (root / "sub").mkdir(parents=True)
    shutil.copy(project / "report.pdf", root / "sub" / "report.pdf")
    payload = {"session_id": "s", "turn_id": "t", "cwd": str(root), "hook_event_name": "PreToolUse",
               "tool_name": "exec_command", "tool_input": {"command": "cat report.pdf", "workdir": str(root / "sub")}}
    body = specific(hook(payload, capsys, "--mode", "redirect"))
    assert body["permissionDecision"] == "allow"
    assert body["updatedInput"]["command"].endswith("extract report.pdf --ocr never --max-chars 19000 --stdout")
    assert any((root / "boundread-out").glob("report.pdf.*.first-part.txt"))
    assert not (root / "sub" / "boundread-out").exists()
