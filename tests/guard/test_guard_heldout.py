"""The guard against the command sets in tests/guard/sets (issue 19 parts 2 and 5): the share of dumps it lets
through in deny mode (the pre-tool bypass) and the everyday commands it refuses (false denies), on the tuning part
the models were fixed against, the held-out part split from it before any fix, and the fresh part written after
the fixes by someone who had not seen the guard's code. The held-out and fresh parts were first measured untouched
(held-out 19/281 bypass, 4/132 false denies; fresh 24/262 and 5/150); the false denies they found were then fixed by
principle, so both are tuning sets now, and a new fresh set is what measures the next change.

Each command goes to guard-check's own entry point as a Claude Code PreToolUse payload, from the folder
tests/guard/sets/workspace.py builds. bench/guard_sets.py prints the same rates per class, with each failure.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sets import cases, workspace

#: The most dumps each part may let through in deny mode (issue 19: at most 10%), and the most everyday commands
#: it may refuse (issue 19: none). A rise above these is a regression.
BYPASS_MOST = {"tuning": 0.10, "heldout": 0.10, "fresh": 0.10}
FALSE_DENIES_MOST = {"tuning": 0, "heldout": 0, "fresh": 0}


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return workspace.build(tmp_path_factory.mktemp("sets") / "work")


@pytest.mark.parametrize("part", cases.PARTS)
def test_everyday_commands_are_allowed(work: Path, part: str) -> None:
    refused = [(case.command, answer.reason[:200]) for case in cases.load("everyday", part)
               if (answer := cases.ask(case, work)).decision == "deny"]
    assert len(refused) <= FALSE_DENIES_MOST[part], "\n".join(f"{cmd}\n    {why}" for cmd, why in refused)


@pytest.mark.parametrize("part", cases.PARTS)
def test_dumps_are_refused(work: Path, part: str) -> None:
    dumps = cases.load("dumps", part)
    passed = [case.command for case in dumps if cases.ask(case, work).decision == "allow"]
    assert len(dumps) >= 250, "the set is larger than any one bug"
    assert len(passed) / len(dumps) <= BYPASS_MOST[part], (
        f"{len(passed)} of {len(dumps)} dumps passed:\n" + "\n".join(passed))


def test_the_parts_do_not_overlap() -> None:
    """A command tuned on is not also counted as held out."""
    for kind in cases.KINDS:
        tuning = {(case.tool, case.command) for case in cases.load(kind, "tuning")}
        assert not tuning & {(case.tool, case.command) for case in cases.load(kind, "heldout")}
