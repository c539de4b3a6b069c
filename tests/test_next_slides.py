"""Slides asked in several ranges and cut by the char cap: `next` names the rest of every range asked, not a
window from the cut that skips the later ranges; following it reads each slide asked once."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from tests.helpers import run


def deck(path: Path, slides: int = 20) -> Path:
    from pptx import Presentation  # type: ignore[import-untyped]

    prs = Presentation()
    for number in range(1, slides + 1):
        slide = prs.slides.add_slide(prs.slide_layouts[1])
        slide.shapes.title.text = f"TITLE-{number}"
        slide.placeholders[1].text = "word " * 300  # about 1,500 characters a slide
    prs.save(str(path))
    return path


def test_a_cut_in_the_first_range_names_the_later_ranges_too(tmp_path: Path) -> None:
    path = deck(tmp_path / "deck.pptx")
    pending, seen = [f"boundread pages {path} 1-3,10-12 --max-chars 3000"], []
    while pending:
        assert len(seen) < 20, seen
        command = pending.pop(0)
        out = tmp_path / f"{len(seen)}.txt"
        result = run(*shlex.split(command)[1:], "-o", str(out), "--json")
        assert result.exit_code == 0, result.stdout
        seen += [int(n) for n in re.findall(r"^# TITLE-(\d+)$", out.read_text(encoding="utf-8"), re.MULTILINE)]
        pending += [f"{step} --max-chars 3000" for step in json.loads(result.stdout)["next"]
                    if any(int(n) <= 12 for n in re.findall(r"\d+", step.split()[-1]))]  # only what was asked
        if seen == [1]:
            assert json.loads(result.stdout)["next"] == [f"boundread pages {path} 2-3,10-12"]
    assert {1, 2, 3, 10, 11, 12} <= set(seen) and not set(seen) & set(range(4, 10))  # all asked, none between
