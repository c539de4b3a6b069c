"""A --grep of chosen pages, cells or chapters cut by --max-matches goes on at the line after its last match,
in the same parts' text (``extract F --pages 2-5 --grep X --lines N-``), as a web page's sections do: the next
step by parts (``--pages 2-2``, ``--pages 2-4``) read the cut part again, said its matches twice, and left the
asked range; a PDF's or a deck's whole-file grep stepped to ``--pages 1`` and said the same matches for ever."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from tests.formats.nb_fixtures import code, markdown, notebook, stream
from tests.helpers import run_json

REAL = Path(__file__).resolve().parents[1] / "realfiles"


def _book(tmp_path: Path) -> Path:
    return REAL / "epub-tika-testEPUB.epub"


def _notebook(tmp_path: Path) -> Path:
    cells = [markdown("intro"), *(code(f"print('hit {n}a')\nprint('hit {n}b')", stream(f"hit {n}c\n"))
                                  for n in range(2, 7))]
    return notebook(tmp_path, cells)


def _pdf(tmp_path: Path) -> Path:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=10)
    for page in range(1, 7):
        pdf.add_page()
        for line in range(4):
            pdf.cell(0, 6, f"page {page} line {line} needle", new_x="LMARGIN", new_y="NEXT")
    path = tmp_path / "doc.pdf"
    pdf.output(str(path))
    return path


def _deck(tmp_path: Path) -> Path:
    from pptx import Presentation

    deck = Presentation()
    for number in range(1, 6):
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = f"slide {number} needle"
        slide.placeholders[1].text = f"first needle {number}\nsecond needle {number}"
    path = tmp_path / "deck.pptx"
    deck.save(str(path))
    return path


@pytest.mark.parametrize(("make", "pages", "pattern"), [
    (_book, "2-3", "e"), (_notebook, "2-5", "hit"), (_pdf, "2-5", "needle"), (_pdf, None, "needle"),
    (_deck, "2-4", "needle"), (_deck, None, "needle")])
def test_the_matches_go_on_where_they_stopped_and_stay_in_the_range(tmp_path: Path, make: Callable[[Path], Path],
                                                                    pages: str | None, pattern: str) -> None:
    path = str(make(tmp_path))
    asked = ["--pages", pages] if pages else []
    code_, whole = run_json("extract", path, *asked, "--grep", pattern, "--stdout")
    assert code_ == 0 and not whole["truncated"]
    every = whole["text"].splitlines()
    assert len(every) >= 5
    seen: list[str] = []
    words = ["extract", path, *asked, "--grep", pattern]
    for _ in range(len(every)):
        code_, data = run_json(*words, "--max-matches", "2", "--stdout")
        assert code_ == 0
        seen += data["text"].splitlines()
        if not data["next"]:
            break
        step = data["next"][0].split()
        if "--lines" not in step:  # the range is read: a PDF or a deck names the pages after it
            assert pages is not None and f"{pages.split('-')[1]} of " in data["done"], (step, data["done"])
            break
        assert step[step.index("--pages") + 1] == pages if pages else "--pages" not in step, step  # the same parts
        words = ["extract", path, *asked, "--grep", pattern, "--lines", step[step.index("--lines") + 1]]
    assert seen == every  # each match once, in order, none lost
