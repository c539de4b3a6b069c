"""Code a pipeline hands a shell (``... | sh``) is judged by the own-ground judge, whichever stage before it printed
it: the judge works out what a stage prints only when a later one runs it, and still finds it there."""

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
    (root / "s.txt").write_text("echo {} > .claude/settings.json\n", encoding="utf-8")
    (root / "notes.txt").write_text("b\na\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("command", [
    "printf 'echo {} > .claude/settings.json' | cat | sh",  # printed two stages before the shell
    "cat s.txt | sh",  # a file's text
    "cat s.txt | tr a a | bash",
    "cat <<EOF | sh\necho {} > .claude/settings.json\nEOF",  # a here-document's
])
def test_code_piped_into_a_shell_is_judged(command: str, work: Path) -> None:
    why = judge(command, str(work), Ground(command))
    assert why is not None and "Claude Code's settings" in why, why


def test_a_pipeline_without_a_shell_is_allowed(work: Path) -> None:
    command = "cat s.txt | sort | uniq -c | tee counts.txt"
    assert judge(command, str(work), Ground(command)) is None
