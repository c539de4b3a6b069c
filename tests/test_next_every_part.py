"""A read that cuts several parts names where each goes on: `next` holds one continuation per cut (or never
reached) sheet, the first one first, and running them, and theirs, reads every row once - none is skipped.

Also: a grep or an archive member, which `sheets`/`pages` cannot name, is kept in the continuation (said with
`extract`), and a workbook with more unread sheets than `next` names ends in the sheet list.
"""

from __future__ import annotations

import json
import re
import shlex
import zipfile
from pathlib import Path
from typing import Any

import pytest

import boundread
from boundread.formats.sheets.handler import MORE_SHEETS
from tests.helpers import run

SHEETS = ("Sales 2025", "Costs")
ROWS = 5000


def workbook(path: Path, names: tuple[str, ...] = SHEETS, rows: int = ROWS) -> Path:
    import xlsxwriter  # type: ignore[import-untyped]

    wb = xlsxwriter.Workbook(str(path))
    for index, name in enumerate(names):
        sheet = wb.add_worksheet(name)
        for r in range(rows):
            sheet.write_row(r, 0, [f"s{index}r{r + 1}", r + 1])  # small cells; each row says where it is from
    wb.close()
    return path


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return workbook(tmp_path_factory.mktemp("book") / "book.xlsx")


def answer(command: str, out: Path) -> dict[str, Any]:
    """Run a printed `boundread ...` line in-process with --json, its text to a file of its own."""
    words = shlex.split(command)
    assert words[0] == "boundread", command
    target = out / f"{len(list(out.iterdir()))}.txt"
    result = run(*words[1:3], "-o", str(target), "--json", *words[3:])  # before any `--` that ends the options
    assert result.exit_code == 0 and result.stderr == "", (command, result.stderr)
    data: dict[str, Any] = json.loads(result.stdout)
    data["text"] = target.read_text(encoding="utf-8")
    return data


def rows_in(text: str) -> list[tuple[int, int]]:
    """(sheet index, row number) of every data row in an extract's text (a grep's has line numbers)."""
    return [(int(m[1]), int(m[2])) for m in re.finditer(r"^(?:\d+:)?s(\d+)r(\d+),", text, re.MULTILINE)]


def test_every_cut_sheet_is_named_and_its_command_reads_the_rows_that_follow(book: Path, tmp_path: Path) -> None:
    data = answer(f"boundread extract {shlex.quote(str(book))}", tmp_path)
    name = shlex.quote(str(book))
    assert data["next"] == [f"boundread sheets {name} 'Sales 2025' --rows 201-400",  # the first cut sheet first
                            f"boundread sheets {name} Costs --rows 201-400"]
    assert rows_in(data["text"]) == [(s, r) for s in (0, 1) for r in range(1, 201)]
    for index, step in enumerate(data["next"]):
        assert rows_in(answer(step, tmp_path)["text"]) == [(index, r) for r in range(201, 401)]
    lib = boundread.extract(book, output=tmp_path / "lib.txt")  # the library says the same
    assert list(lib.next) == data["next"]


def test_following_every_next_reads_each_row_of_each_sheet_once(tmp_path: Path) -> None:
    rows = 1000
    pending = [f"boundread extract {workbook(tmp_path / 'small.xlsx', rows=rows)} --max-rows 250"]
    seen: list[tuple[int, int]] = []
    while pending:
        assert len(seen) <= 2 * rows, "the continuations go round in circles"
        data = answer(pending.pop(0), tmp_path)
        seen += rows_in(data["text"])
        pending += data["next"]
    assert sorted(seen) == [(s, r) for s in (0, 1) for r in range(1, rows + 1)]  # every row, none twice


def test_a_full_sink_names_the_sheets_it_never_reached(book: Path, tmp_path: Path) -> None:
    name = shlex.quote(str(book))
    data = answer(f"boundread extract {name} --max-chars 1000 --format tsv", tmp_path)
    assert "Costs" not in data["done"] and data["truncated_reasons"] == ["max_chars 1,000 reached"]
    cut = max(r for _, r in rows_in(data["text"].replace("\t", ","))) + 1  # the first row not (fully) written
    assert data["next"] == [f"boundread sheets {name} 'Sales 2025' --rows {cut}-{cut + 199} --format tsv",
                            f"boundread sheets {name} Costs --rows 1-200 --format tsv"]
    assert any("1 sheet not read (max_chars 1,000 reached first): 'Costs'" in w for w in data["warnings"])
    costs = answer(data["next"][1], tmp_path)["text"]
    assert rows_in(costs.replace("\t", ",")) == [(1, r) for r in range(1, 201)]


def test_more_unread_sheets_than_next_names_end_in_the_sheet_list(tmp_path: Path) -> None:
    names = tuple(f"S{n}" for n in range(MORE_SHEETS + 5))
    path = workbook(tmp_path / "many.xlsx", names, rows=50)
    data = answer(f"boundread extract {path} --max-chars 300", tmp_path)
    assert len(data["next"]) == 1 + MORE_SHEETS + 1  # the cut one, the first unread ones, the list
    assert [shlex.split(step)[3] for step in data["next"][1:-1]] == list(names[1:MORE_SHEETS + 1])
    assert data["next"][-1] == f"boundread sheets {path}"
    assert any(f"{len(names) - 1} sheets not read" in w for w in data["warnings"])


def test_a_grep_is_kept_in_each_sheets_continuation(book: Path, tmp_path: Path) -> None:
    name = shlex.quote(str(book))
    data = answer(f"boundread extract {name} --grep 'r2[0-9]{{2}},' -i", tmp_path)
    assert data["next"] == [f"boundread extract {name} --sheet 'Sales 2025' --grep 'r2[0-9]{{2}},' -i "
                            "--rows 201-400",
                            f"boundread extract {name} --sheet Costs --grep 'r2[0-9]{{2}},' -i --rows 201-400"]
    for index, step in enumerate(data["next"]):
        assert rows_in(answer(step, tmp_path)["text"]) == [(index, r) for r in range(201, 300)]


def test_a_workbook_in_an_archive_names_each_sheet_as_a_member(book: Path, tmp_path: Path) -> None:
    bundle = tmp_path / "bundle.zip"
    with zipfile.ZipFile(bundle, "w") as zf:
        zf.write(book, "data/book.xlsx")
    data = answer(f"boundread extract {bundle} --member data/book.xlsx", tmp_path)
    assert data["next"] == [f"boundread extract {bundle} --member data/book.xlsx --sheet 'Sales 2025' --rows 201-400",
                            f"boundread extract {bundle} --member data/book.xlsx --sheet Costs --rows 201-400"]
    for index, step in enumerate(data["next"]):
        assert rows_in(answer(step, tmp_path)["text"])[0] == (index, 201)


#: sheet names a command line can misread: an option's dash, an option itself, a comma, spaces and quotes
ODD = ("First", "-neg", "--rows", "a,b", "it's \"q\" x", "Last")


@pytest.mark.parametrize("where", ["file", "member"])
@pytest.mark.parametrize("grep", [None, "r1"])
def test_every_continuation_of_an_odd_sheet_name_runs_and_reads_the_rows_that_follow(
        tmp_path: Path, where: str, grep: str | None) -> None:
    from boundread.mcp.calls import tool_args

    path = workbook(tmp_path / "wb.xlsx", ODD, rows=50)
    if where == "member":
        bundle = tmp_path / "b.zip"
        with zipfile.ZipFile(bundle, "w") as zf:
            zf.write(path, "d/wb.xlsx")
        start = f"boundread extract {bundle} --member d/wb.xlsx --max-rows 10"
    else:
        start = f"boundread extract {path} --max-rows 10"
    start += f" --grep {grep}" if grep else ""
    data = answer(start, tmp_path)
    assert len(data["next"]) == len(ODD)  # one for each sheet: none is dropped
    follows = [(s, r) for s in range(len(ODD)) for r in range(11, 21) if grep is None or str(r).startswith("1")]
    seen = []
    for index, step in enumerate(data["next"]):
        call = tool_args(step, "wb")  # an agent without a shell makes the same step
        assert call is not None and call[1]["sheet"] == ODD[index], step
        assert (call[1].get("grep"), call[1].get("member")) == (grep, "d/wb.xlsx" if where == "member" else None)
        seen += rows_in(answer(step, tmp_path)["text"])
    assert seen == follows


def test_following_every_next_of_odd_sheet_names_reads_each_row_once(tmp_path: Path) -> None:
    rows = 50
    pending = [f"boundread extract {workbook(tmp_path / 'odd.xlsx', ODD, rows=rows)} --max-rows 20"]
    seen: list[tuple[int, int]] = []
    while pending:
        assert len(seen) <= len(ODD) * rows, "the continuations go round in circles"
        data = answer(pending.pop(0), tmp_path)
        seen += rows_in(data["text"])
        pending += data["next"]
    assert sorted(seen) == [(s, r) for s in range(len(ODD)) for r in range(1, rows + 1)]


def test_the_sheets_info_suggests_read_even_when_a_name_starts_with_a_dash(tmp_path: Path) -> None:
    path = workbook(tmp_path / "dash.xlsx", ("-neg", "--rows"), rows=60)
    result = run("info", str(path), "--json")
    steps = json.loads(result.stdout)["next"]
    assert steps == [f"boundread sheets {path} --max-rows 50 -- -neg",
                     f"boundread sheets {path} --max-rows 50 -- --rows"]
    for index, step in enumerate(steps):
        assert rows_in(answer(step, tmp_path)["text"]) == [(index, r) for r in range(1, 51)]
