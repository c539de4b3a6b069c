"""A ranged read over the caps is refused naming the part it asked for, not as a read of the whole file."""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.guard.decide import check_read


@pytest.mark.parametrize(("offset", "limit", "part"), [
    (None, 5000, "reading lines 1-5000 of big.log ("),
    (100, 5000, "reading lines 100-5099 of big.log ("),
    ("7", "3000", "reading lines 7-3006 of big.log ("),
])
def test_a_ranged_read_over_the_line_cap_names_its_lines(project: Path, offset: object, limit: object,
                                                         part: str) -> None:
    decision = check_read(str(project / "big.log"), offset=offset, limit=limit, cwd=project)
    assert decision.denied
    assert part in decision.reason and "whole" not in decision.reason.split("\n")[0]


def test_a_whole_read_still_says_whole(project: Path) -> None:
    decision = check_read(str(project / "big.log"), cwd=project)
    assert decision.denied and "reading big.log whole (" in decision.reason


def test_one_page_is_not_pages(project: Path) -> None:
    decision = check_read(str(project / "memo.docx"), cwd=project)
    assert decision.denied and "1 page)" in decision.reason and "1 pages" not in decision.reason
