"""The guard against the command sets in tests/guard/sets (issue 19 parts 2 and 5): the share of dumps it lets
through in deny mode (the pre-tool bypass) and the everyday commands it refuses (false denies), on the tuning part
the models were fixed against, the held-out part split from it before any fix, and the fresh part written after
the fixes by someone who had not seen the guard's code. The held-out and fresh parts were first measured untouched
(held-out 19/281 bypass, 4/132 false denies; fresh 24/262 and 5/150); the false denies they found were then fixed by
principle, so both are tuning sets now. The fresh2 part was written on 2026-12-04 by helpers that saw neither the
guard's code nor the other parts, in three rounds, each label checked by running the command, each round measured
before any fix for it: 8/130 dumps passed and 1/94 everyday commands were refused; then 15/141; then (the rounds'
70 dumps and 33 everyday commands already in other parts dropped first) 13/133 and 5/92. What they found was fixed
by principle (small documents, code printing a listing's files, names reached another way, counts
in code, `fold | head`, `xxd -s -N`, members of a JSON document printed by name, code glued to perl's `-e`, jq's
`--slurpfile`, `git ls-files | xargs`): 23/334 and 0/153 after. A new fresh set measures the next change.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sets import cases, workspace

#: The most dumps each part may let through in deny mode (issue 19: at most 10%); no everyday command may be
#: refused (issue 19: none). A rise above these is a regression.
BYPASS_MOST = {"tuning": 0.10, "heldout": 0.10, "fresh": 0.10, "fresh2": 0.10}


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return workspace.build(tmp_path_factory.mktemp("sets") / "work")


@pytest.mark.parametrize("part", cases.PARTS)
def test_everyday_commands_are_allowed(work: Path, part: str) -> None:
    refused = [(case.command, answer.reason[:200]) for case in cases.load("everyday", part)
               if (answer := cases.ask(case, work)).decision == "deny"]
    assert not refused, "\n".join(f"{cmd}\n    {why}" for cmd, why in refused)


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
        earlier = {(case.tool, case.command) for part in ("tuning", "heldout", "fresh")
                   for case in cases.load(kind, part)}
        assert not earlier & {(case.tool, case.command) for case in cases.load(kind, "fresh2")}  # measured fresh
