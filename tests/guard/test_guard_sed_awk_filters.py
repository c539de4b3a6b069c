"""sed and awk used as grep are sized as a grep's matches: ``sed -n '/INFO/p'`` of a log of INFO lines is most of
it (refused, with the bounded grep to run), ``sed -n '/ERROR/p'`` a few lines (allowed). A file is made in the
test: a 3 MB log where nine lines in ten are INFO and one in a thousand ERROR.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.guard import check_command


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("filters")
    level = ("ERROR" if n % 1000 == 0 else "WARN" if n % 10 == 0 else "INFO" for n in range(60_000))
    (root / "big.log").write_text("".join(f"2026-12-01T05:51:05Z {lvl} request {n} served\n"
                                          for n, lvl in enumerate(level)))
    return root


DUMPS = [
    "sed -n '/INFO/p' big.log",
    "sed -n -e '/INFO/p' -e '/WARN/p' big.log",
    "sed -nE '/INFO|WARN/p' big.log",
    "cat big.log | sed -n '/INFO/p'",
    "awk '/INFO/' big.log",
    "awk '/INFO/ {print $2, $4}' big.log",
    "awk '$0 ~ /INFO/' big.log",
]

ALLOWED = [
    "sed -n '/ERROR/p' big.log",
    "awk '/ERROR/' big.log",
    "awk '/ERROR/ {print $4}' big.log",
    "sed -n '/INFO/p' big.log | head -n 20",
    "awk '/INFO/ {n++} END {print n}' big.log",
]


@pytest.mark.parametrize("command", DUMPS)
def test_a_filter_that_keeps_most_lines_is_a_dump(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert "boundread extract big.log --grep" in decision.reason, decision.reason


@pytest.mark.parametrize("command", ALLOWED)
def test_a_filter_that_keeps_a_few_lines_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


@pytest.mark.parametrize("command", ["sed -n '/INFO/p' big.log", "awk '/INFO/' big.log"])
def test_the_refusal_names_only_commands_that_run(work: Path, command: str) -> None:
    """The bounded grep, and no `sed -c` or `awk -c` (neither counts matches: a next command that leads nowhere)."""
    reason = check_command(command, cwd=work).reason
    assert "boundread extract big.log --grep INFO --max-matches 200" in reason
    assert "sed -c" not in reason and "awk -c" not in reason
