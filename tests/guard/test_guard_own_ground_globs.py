"""A redirection's target that bash builds - a glob it matches on the disk (bash expands one in a redirection), a
variable, ``$(ls -d ...)`` - reaches the own-ground judge, which matches the glob as bash would: ``echo {} >
.cla*/set*.json`` overwrote Claude Code's hook settings unseen (no trigger word, no program that changes files)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.hookproject import bash_deny_reason as _reason

from boundread.budget.selfwords import _built_target


@pytest.fixture
def work(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "settings.json").write_text('{"hooks": {}}\n', encoding="utf-8")
    (root / "notes.txt").write_text("x\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("command", [
    "echo {} > .cla*/set*.json",
    "echo {} >.cla*/set*.json",
    "cd .cla*; echo {} > set*.json",
    "echo {} >> .c?aude/settings.js[o]n",
    "echo {} >& .cla*/set*.json",
    'echo {} > "$(ls -d .c*)/settings.json"',  # ls -d prints the folder's name, not what it holds
])
def test_a_built_target_that_is_the_hook_settings_is_refused(command: str, work: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert "Claude Code's settings" in _reason(command, work, capsys)


@pytest.mark.parametrize("command", [
    "echo x > note*.txt",  # a glob that matches notes.txt
    "echo x > missing*.txt",  # none: bash writes the name as it is
    "ls > out.txt 2>&1",
    "ls -d */ > dirs.txt",
    "echo $HOME > /dev/null",
])
def test_everyday_redirections_stay_allowed(command: str, work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _reason(command, work, capsys) == ""


@pytest.mark.parametrize(("text", "built"), [
    ("echo x > out.txt", False), ("cmd 2>&1 | tee log", False), ("cmd >&2", False), ("cmd >&- 2>&1", False),
    ("echo x > *.txt", True), ("echo x >> $log", True), ("echo x >| ~/f", True), ("echo x >& .c*/s", True),
    ("echo x > `pwd`/f", True), ("echo x > {a,b}", True), ("echo > b; echo $x", False),
    ("a" + "> x;" * 600 + " $x", True),  # past the redirections looked at: suspect
])
def test_which_redirections_the_cheap_test_hands_to_the_judge(text: str, built: bool) -> None:
    assert _built_target(text) is built
