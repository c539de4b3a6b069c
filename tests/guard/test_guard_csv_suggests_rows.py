"""A big CSV or TSV denied whole: the reason names it as one and suggests its rows with the header
(``boundread sheets F STEM --rows 1-200``), not a window of lines that can cut a record in two."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from boundread.guard import check_read
from boundread.guard.command import check_command
from boundread.guard.config import GuardConfig

SMALL_CAP = GuardConfig(text_max_bytes=4_096)


def _table(path: Path, delimiter: str = ",") -> Path:
    path.write_text(delimiter.join(("id", "name", "note")) + "\n"
                    + "".join(delimiter.join((str(n), f"item{n}", "some note")) + "\n" for n in range(2_000)),
                    encoding="utf-8")
    return path


@pytest.mark.parametrize(("name", "label", "sheet"), [("data.csv", "CSV file", "data"),
                                                      ("Sales 2026.tsv", "TSV file", "'Sales 2026'")])
def test_a_whole_read_is_denied_with_the_rows_command(tmp_path: Path, name: str, label: str, sheet: str) -> None:
    path = _table(tmp_path / name, "\t" if name.endswith(".tsv") else ",")
    result = check_read(str(path), cwd=tmp_path, config=SMALL_CAP)
    assert result.decision == "deny", result.reason
    quoted = shlex.quote(name)
    assert f"({label}, " in result.reason
    assert f"boundread sheets {quoted} {sheet} --rows 1-200 --max-chars 20000" in result.reason, result.reason
    assert f"boundread extract {quoted} --grep PATTERN" in result.reason
    assert "--lines 1-" not in result.reason
    assert len(result.reason) <= 600


def test_a_stem_that_looks_like_an_option_goes_after_the_double_dash(tmp_path: Path) -> None:
    path = _table(tmp_path / "-x.csv")
    result = check_read(str(path), cwd=tmp_path, config=SMALL_CAP)
    assert "boundread sheets ./-x.csv --rows 1-200 --max-chars 20000 -- -x" in result.reason, result.reason


def test_cat_of_a_big_csv_names_the_rows_command(tmp_path: Path) -> None:
    _table(tmp_path / "data.csv")
    result = check_command("cat data.csv", cwd=tmp_path, config=SMALL_CAP)
    assert result.decision == "deny", result.reason
    assert "boundread sheets data.csv data --rows 1-200" in result.reason, result.reason


def test_a_log_keeps_its_line_window(tmp_path: Path) -> None:
    _table(tmp_path / "data.log")
    result = check_read(str(tmp_path / "data.log"), cwd=tmp_path, config=SMALL_CAP)
    assert "boundread extract data.log --lines 1-500" in result.reason and "sheets" not in result.reason
