"""The commands a deny reason names run as written, whatever the names in them: a workbook whose first sheet
starts with ``-`` is named after ``--``, where it cannot be read as an option."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
import xlsxwriter
from tests.helpers import run

from boundread.guard import check_read


@pytest.mark.parametrize("first", ["-neg", "--rows", "plain name"])
def test_the_sheets_command_in_a_reason_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first: str) -> None:
    book = tmp_path / "book.xlsx"
    workbook = xlsxwriter.Workbook(str(book))
    sheet = workbook.add_worksheet(first)
    for row in range(60):
        sheet.write_row(row, 0, [f"r{row}", row])
    workbook.add_worksheet("Other").write(0, 0, "x")
    workbook.close()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOUNDREAD_OUT_DIR", str(tmp_path / "out"))
    decision = check_read(str(book), cwd=str(tmp_path), config=None)
    assert decision.decision == "deny"
    (line,) = [ln.strip() for ln in decision.reason.splitlines() if ln.strip().startswith("boundread sheets")]
    argv = shlex.split(line)[1:]
    result = run(*argv, "--stdout") if "--" not in argv else run(*argv[:argv.index("--")], "--stdout",
                                                                  *argv[argv.index("--"):])
    assert result.exit_code == 0, (line, result.stderr)
    assert "r0" in result.stdout and "r49" in result.stdout
