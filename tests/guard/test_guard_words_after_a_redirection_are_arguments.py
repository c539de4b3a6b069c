"""tree-sitter hangs the words after a redirection's target on the redirection (``tee < access.log out.log``
parses as ``< access.log out.log``); bash reads the first word and passes the rest to the command. The guard took
the last word for the file: ``tee < access.log out.log`` read a missing out.log and let tee print access.log."""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.guard.command import check_command
from boundread.guard.config import GuardConfig

CFG = GuardConfig(text_max_bytes=4_096)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "access.log").write_text("GET /index.html 200\n" * 2_000, encoding="utf-8")
    (tmp_path / "small.txt").write_text("a few words\n", encoding="utf-8")
    (tmp_path / "out").mkdir()
    return tmp_path


@pytest.mark.parametrize(("command", "decision"), [
    ("tee < access.log out/a.log", "deny"),  # tee prints its stdin: access.log
    ("tee out/a.log < access.log", "deny"),
    ("cat < small.txt access.log", "deny"),  # cat prints its argument, access.log
    ("cat < access.log small.txt", "allow"),  # cat prints small.txt; its stdin is not read
    ("echo hi > out/x.txt access.log", "allow"),  # `echo hi access.log` into out/x.txt
    ("wc -l < access.log", "allow"),
])
def test_the_first_word_is_the_file_the_rest_are_arguments(folder: Path, command: str, decision: str) -> None:
    verdict = check_command(command, cwd=folder, config=CFG)
    assert verdict.decision == decision, (command, verdict.reason)
    if decision == "deny":
        assert "access.log" in verdict.reason


def test_a_write_is_recorded_at_the_first_word(folder: Path) -> None:
    """`cat access.log > out/copy.log small.txt` writes out/copy.log (cat prints access.log and small.txt into
    it): a later read of out/copy.log is a read of access.log's text, a read of small.txt is small."""
    verdict = check_command("cat access.log > out/copy.log small.txt && cat out/copy.log", cwd=folder, config=CFG)
    assert verdict.decision == "deny" and "access.log" in verdict.reason, verdict.reason
    assert check_command("cat access.log > out/copy.log small.txt && cat small.txt", cwd=folder,
                         config=CFG).decision == "allow"
