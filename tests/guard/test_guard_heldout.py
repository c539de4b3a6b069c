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
in code, `fold | head`, `xxd -s -N`): 26/334 and 1/153 after, that one named below. A new fresh set measures the
next change.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sets import cases, workspace

#: The most dumps each part may let through in deny mode (issue 19: at most 10%). Everyday commands may not be
#: refused (issue 19: none), but for the ones named here, each with why it is refused still.
BYPASS_MOST = {"tuning": 0.10, "heldout": 0.10, "fresh": 0.10, "fresh2": 0.10}
KNOWN_FALSE_DENIES = {
    # a member of a parsed JSON document printed by name (`d.count`) is judged as the document: what one member
    # holds is not sized (python's `print(d['count'])` alike); `jq .count` is
    ("fresh2", "node - <<'EOF'\nconst d = require('./data.json');\nconst active = d.items.filter((i) => i.active)"
               ".length;\nconsole.log(`${d.count} items, ${active} active`);\nEOF"),
}


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return workspace.build(tmp_path_factory.mktemp("sets") / "work")


@pytest.mark.parametrize("part", cases.PARTS)
def test_everyday_commands_are_allowed(work: Path, part: str) -> None:
    refused = [(case.command, answer.reason[:200]) for case in cases.load("everyday", part)
               if (answer := cases.ask(case, work)).decision == "deny" and (part, case.command) not in
               KNOWN_FALSE_DENIES]
    assert not refused, "\n".join(f"{cmd}\n    {why}" for cmd, why in refused)


def test_the_known_false_denies_are_still_refused_and_still_in_the_sets(work: Path) -> None:
    """A known false deny that is fixed, or gone from its set, is taken off the list (it would hide nothing)."""
    for part, command in KNOWN_FALSE_DENIES:
        case = next((case for case in cases.load("everyday", part) if case.command == command), None)
        assert case is not None, command
        assert cases.ask(case, work).decision == "deny", command


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
