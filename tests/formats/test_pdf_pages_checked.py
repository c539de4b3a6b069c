"""``info`` of a PDF: ``pages_without_text`` is always a count, and ``pages_checked`` says of how many pages;
the human line joins them (``0 of 20 checked``) only when not every page was looked at."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.helpers import run

from boundread.formats.pdf.info import NO_TEXT_CHECK


def _pdf(path: Path, pages: int) -> Path:
    from fpdf import FPDF

    doc = FPDF()
    doc.set_font("Helvetica", size=12)
    for number in range(pages):
        doc.add_page()
        doc.cell(text=f"page {number + 1} SENTINEL")
    doc.output(str(path))
    return path


@pytest.mark.parametrize("pages", [3, NO_TEXT_CHECK + 5])
def test_the_json_holds_two_counts(tmp_path: Path, pages: int) -> None:
    done = run("info", str(_pdf(tmp_path / "doc.pdf", pages)), "--json")
    assert done.exit_code == 0, done.stderr
    fields = json.loads(done.stdout)
    assert fields["fields"]["pages_without_text"] == 0
    assert fields["fields"]["pages_checked"] == min(pages, NO_TEXT_CHECK)


def test_the_human_line_says_how_many_were_checked_when_not_all(tmp_path: Path) -> None:
    done = run("info", str(_pdf(tmp_path / "long.pdf", NO_TEXT_CHECK + 5)))
    lines = [line.split() for line in done.stdout.splitlines() if line.startswith("pages without text")]
    assert lines == [["pages", "without", "text", "0", "of", str(NO_TEXT_CHECK), "checked"]]
    assert "pages checked" not in done.stdout


def test_a_fully_checked_file_shows_the_count_alone(tmp_path: Path) -> None:
    done = run("info", str(_pdf(tmp_path / "short.pdf", 3)))
    lines = [line.split() for line in done.stdout.splitlines() if line.startswith("pages without text")]
    assert lines == [["pages", "without", "text", "0"]]
