"""A row slice whose last rows are blank holds them back (a blank line at the end says nothing) - but it read
them, so its summary names the whole range the marker named, and ``next`` goes on right after it: the marker
said "rows 1-5 of 22", the summary "rows 1-4" (tests/realfiles/csv-tika-testCSV.csv)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import run_json


def test_blank_rows_at_the_end_of_the_range_are_counted_as_read(tmp_path: Path) -> None:
    path = tmp_path / "gaps.csv"
    path.write_text("name,size\nalpha,1\nbeta,2\n,\n,\ngamma,3\ndelta,4\n", encoding="utf-8")
    code, data = run_json("sheets", str(path), "--rows", "1-5", "--stdout")
    assert code == 0
    assert "(rows 1-5 of 7)" in data["text"] and "gamma" not in data["text"]
    assert data["done"].startswith("rows 1-5 of sheet 'gaps'"), data["done"]
    assert any(step.endswith("--rows 6-10") for step in data["next"]), data["next"]


def test_a_range_of_values_still_names_the_last_row_written(tmp_path: Path) -> None:
    path = tmp_path / "plain.csv"
    path.write_text("name,size\nalpha,1\nbeta,2\ngamma,3\n", encoding="utf-8")
    code, data = run_json("sheets", str(path), "--rows", "1-9", "--stdout")
    assert code == 0 and data["done"].startswith("rows 1-4 of sheet 'plain' (4 rows)"), data["done"]
