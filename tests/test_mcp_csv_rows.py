"""The MCP sheets tool takes a CSV: without a sheet, its one sheet (named after the file) and size; rows A-B
need no sheet name (it has one), and a later slice carries the header row."""

from __future__ import annotations

from pathlib import Path

from boundread.mcp import tools


def _project(tmp_path: Path) -> tuple[tools.Config, tools.Target]:
    (tmp_path / "data.csv").write_text("id,name\n" + "".join(f"{n},item{n}\n" for n in range(1, 301)),
                                       encoding="utf-8")
    config = tools.Config(roots=(str(tmp_path),))
    return config, tools.Target(tmp_path / "data.csv", "data.csv", tmp_path / "boundread-out")


def test_the_listing_names_the_one_sheet(tmp_path: Path) -> None:
    config, target = _project(tmp_path)
    listed = tools.settle(tools.sheets(config, target))
    assert listed.envelope["kind"] == "csv"
    assert [(s["name"], s["rows"], s["cols"]) for s in listed.envelope["sheets"]] == [("data", 301, 2)]


def test_rows_without_a_sheet_read_the_csv_with_its_header(tmp_path: Path) -> None:
    config, target = _project(tmp_path)
    reply = tools.settle(tools.sheets(config, target, None, "101-102"))
    assert "id,name\n100,item100\n101,item101\n" in reply.text, reply.text
    named = tools.settle(tools.sheets(config, target, "data", "101-102"))
    assert "id,name\n100,item100\n101,item101\n" in named.text
