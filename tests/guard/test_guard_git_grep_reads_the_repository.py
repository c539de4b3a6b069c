"""``git grep`` is judged as rg and ack are: by what it prints of the repository's own files under the folder,
``-C``'s when given (it went unmodelled: ``cd repo && git grep -n value`` printed 1.5 MB unchecked). A count, a
list of names or a small result passes, and the counting command a deny names runs where the grep would have."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from boundread.guard.command import check_command
from boundread.guard.config import GuardConfig

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
CFG = GuardConfig(text_max_bytes=16_384)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "data").mkdir(parents=True)
    (repo / "data" / "fixtures.json").write_text('{"id": 1, "value": "x"}\n' * 5_000, encoding="utf-8")
    (repo / "README.md").write_text("a value or two\n", encoding="utf-8")
    for command in (["init", "-q"], ["add", "."],
                    ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-m", "fixtures"]):
        subprocess.run(["git", *command], cwd=repo, check=True, capture_output=True)
    return tmp_path


@pytest.mark.parametrize("command", ["cd repo && git grep -n value", "git -C repo grep -n value",
                                     "git -C repo --no-pager grep value"])
def test_a_big_result_is_denied_with_commands_that_run(folder: Path, command: str) -> None:
    verdict = check_command(command, cwd=folder, config=CFG)
    assert verdict.decision == "deny", verdict.reason
    assert "fixtures.json" in verdict.reason
    suggested = [line.strip() for line in verdict.reason.splitlines() if line.strip().startswith("git ")]
    assert suggested and "grep -c" in suggested[0], verdict.reason
    counted = subprocess.run(shlex.split(suggested[0].partition("   (")[0]), cwd=folder, capture_output=True,
                             text=True, check=False)
    assert counted.returncode == 0 and "fixtures.json:5000" in counted.stdout, counted


@pytest.mark.parametrize("command", ["cd repo && git grep -c value", "cd repo && git grep -l value",
                                     "git -C repo grep -n value -- README.md", "git -C repo grep -n nosuchword"])
def test_counts_names_and_small_results_pass(folder: Path, command: str) -> None:
    assert check_command(command, cwd=folder, config=CFG).decision == "allow", command
