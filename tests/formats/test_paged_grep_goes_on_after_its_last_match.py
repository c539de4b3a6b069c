"""A --grep of chosen cells or chapters cut by --max-matches goes on at the line after its last match, in the
same cells' text (``extract F --pages 2-5 --grep X --lines N-``), as a web page's sections do: the next step
by parts (``--pages 2-2``, ``--pages 2-4``) read the cut part again, said its matches twice, and left the asked
range."""

from __future__ import annotations

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


@pytest.mark.parametrize(("make", "pages", "pattern"), [(_book, "2-3", "e"), (_notebook, "2-5", "hit")])
def test_the_matches_go_on_where_they_stopped_and_stay_in_the_range(tmp_path: Path, make, pages: str,
                                                                    pattern: str) -> None:
    path = str(make(tmp_path))
    code_, whole = run_json("extract", path, "--pages", pages, "--grep", pattern, "--stdout")
    assert code_ == 0 and not whole["truncated"]
    every = whole["text"].splitlines()
    assert len(every) >= 5
    seen: list[str] = []
    words = ["extract", path, "--pages", pages, "--grep", pattern]
    for _ in range(len(every)):
        code_, data = run_json(*words, "--max-matches", "2", "--stdout")
        assert code_ == 0
        seen += data["text"].splitlines()
        if not data["next"]:
            break
        step = data["next"][0].split()
        assert step[step.index("--pages") + 1] == pages and "--lines" in step, step  # the same parts, on by lines
        words = ["extract", path, "--pages", pages, "--grep", pattern, "--lines", step[step.index("--lines") + 1]]
    assert seen == every  # each match once, in order, none lost
