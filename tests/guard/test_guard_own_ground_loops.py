"""The own-ground judge (budget/selfcmd.py over hook/groundset.py's set) sees a loop's body once per value; runs and
writes that repeat are judged once (guard-check's cost on a loop), and a value that differs is still judged."""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.budget.selfcmd import judge
from boundread.hook.groundset import Ground


@pytest.fixture
def work(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "settings.json").write_text('{"hooks": {}}\n', encoding="utf-8")
    (root / "src").mkdir()
    for n in range(3):
        (root / f"app{n}.log").write_text("2026-12-02 INFO ok\n", encoding="utf-8")
    return root


def _judged(command: str, cwd: Path) -> str | None:
    return judge(command, str(cwd), Ground(command))


def test_the_issue_24_loop_is_allowed(work: Path) -> None:
    loop = 'for f in $(ls *.log | sort); do cat "$f" | grep -v DEBUG | tee -a all.txt > /dev/null; done'
    assert _judged(loop, work) is None


@pytest.mark.parametrize("command", [
    'for d in src src .claude; do echo x | tee -a "$d/settings.json" > /dev/null; done',  # the last value differs
    'for d in src src .claude; do echo x > "$d/settings.json"; done',
    "for n in 1 2 3; do echo x >> .claude/settings.json; done",  # the same write three times
    "for n in 1 2 3; do tee -a .claude/settings.json < /dev/null; done",  # the same run three times
])
def test_a_repeated_body_still_refuses_a_write_to_the_hook_settings(command: str, work: Path) -> None:
    why = _judged(command, work)
    assert why is not None and "Claude Code's settings" in why, why


def test_repeated_writes_outside_the_ground_are_allowed(work: Path) -> None:
    assert _judged("for d in src src src; do echo x | tee -a \"$d/notes.txt\" > /dev/null; done", work) is None
