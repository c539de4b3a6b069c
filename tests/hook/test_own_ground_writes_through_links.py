"""The own-ground check (hook/ground.py) follows what a command writes as the disk and bash see it: a write
through a link into a protected place, and the words tree-sitter hangs on a redirection after its target (which
bash passes to the command), are refused; a ``tee`` to a plain log passes the cheap test, without the judge's
second walk of the command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from boundread.budget.selfwords import suspect
from tests.hookproject import bash_deny_reason as _reason
from tests.hookproject import guard_env

#: issue 24's loop: a tee to a log, what agents write every day
LOOP = 'for f in $(ls *.log | sort); do cat "$f" | grep -v DEBUG | tee -a all.txt > /dev/null; done'


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A project with Claude Code's hook settings, and ``notes.txt``: a link to them."""
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text('{"hooks": {}}\n')
    (tmp_path / "notes.txt").symlink_to(Path(".claude") / "settings.json")
    (tmp_path / "app.log").write_text("INFO ok\n")
    return tmp_path


@pytest.mark.parametrize("command", [
    "echo '{\"disableAllHooks\": true}' > notes.txt",
    "printf x >> notes.txt",
    "echo x | tee notes.txt",
    "echo x | tee -a 'notes.txt'",
    "echo x | stdbuf -oL tee -a ok.txt notes.txt",
    "echo x | tee -- notes.txt > /dev/null",
])
def test_a_write_through_a_link_into_the_hook_settings_is_refused(command: str, work: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    reason = _reason(command, work, capsys)
    assert "Claude Code's settings" in reason, command


@pytest.mark.parametrize("command", [
    "cp /etc/hostname 2>/dev/null .claude/settings.json",
    "echo '{}' | tee >/dev/null .claude/settings.json",
    "true && cp /etc/hostname 2>&1 .claude/settings.json",
    "rm 2>/dev/null -rf .claude",
])
def test_the_words_after_a_redirections_target_are_the_commands_arguments(
        command: str, work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """bash runs ``cp a 2>/dev/null b`` as ``cp a b``; tree-sitter hangs ``b`` on the redirection."""
    assert "Claude Code's settings" in _reason(command, work, capsys), command


@pytest.mark.parametrize("command", [
    LOOP, "grep INFO app.log | tee -a all.txt", "echo x | tee out.txt > /dev/null", "echo x > out.txt 2>&1",
    "ls 2>/dev/null .claude",
])
def test_everyday_writes_beside_the_link_stay_allowed(command: str, work: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert _reason(command, work, capsys) == "", command


class _Words:
    triggers = (".claude", "settings.json", "boundread")
    url_env = False


@pytest.mark.parametrize(("command", "judged"), [
    (LOOP, False),
    ("grep x a.log | tee -a run.log", False),
    ("echo x > out.txt", False),
    ("echo x | tee notes.txt", True),  # the link
    ("echo x > notes.txt", True),
    ('echo x | tee "a b.txt"', True),  # a quoted name with a space: the judge parses it
    ("echo x | tee $F", True),  # built by the shell
    ("echo x | tee out-*.txt", True),
    ("echo $(echo tee) out.txt", True),  # a tee that is not where a program runs
    ("echo x | tee >(cat) out.txt", False),  # what cat is given, and out.txt
    ("echo x | tee >(cat) notes.txt", True),
    ("echo x | tee `echo out.txt`", True),
    ("(cat a.log | tee notes.txt)", True),
    ("{ cat a.log | tee out.txt; }", False),
    ("echo x | tee a.txt; rm b.txt", True),  # rm: judged as before
])
def test_a_tee_to_a_plain_file_is_not_judged(command: str, judged: bool, work: Path) -> None:
    """Only a suspect command gets the judge's second walk (and its imports) on the hook path."""
    assert suspect(command, _Words(), str(work)) is judged, command


def test_without_a_folder_tee_stays_suspect() -> None:
    """A file tool's text (no shell folder to resolve names in) is looked at as before."""
    assert suspect("x | tee -a run.log", _Words()) is True


def test_the_loop_does_not_load_the_judge(work: Path) -> None:
    from tests.hook.test_speed import CONSOLE

    payload = {"session_id": "s", "cwd": str(work), "tool_name": "Bash", "tool_input": {"command": LOOP},
               "hook_event_name": "PreToolUse"}
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", CONSOLE], input=json.dumps(payload),
                          cwd=work, capture_output=True, text=True, env=guard_env(), timeout=60, check=True)
    names = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "boundread.hook.ground" in names and "boundread.budget.selfcmd" not in names
