"""One read, one file name, whichever shell asked: the CLI, the Python API and the MCP tools name the file of
each request form by what it holds (core/naming.py), and the chunker's folder and the guard's redirect slices
by the same source name. Each row of the table is one request said three ways (a way that has no such request
is None)."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import boundread
from boundread.core.demo import write_samples
from boundread.core.output import member_slug
from tests.helpers import run

pytest.importorskip("mcp.server.mcpserver", reason="needs the mcp extra: pip install 'boundread[mcp]'")

from boundread.mcp import tools  # after the skip: it needs the mcp extra

README = "catalogue/README.txt"
Api = Callable[[Path], boundread.ExtractResult]

#: (CLI words after the command, the Python API call, the MCP tool call, the file name expected)
TABLE: list[tuple[list[str], Api | None, str | None, str]] = [
    (["extract", "server.log"], lambda d: boundread.extract(d / "server.log"),
     'extract(path="server.log")', "server.log.text.txt"),
    (["extract", "report.pdf", "--pages", "2-3"], lambda d: boundread.extract(d / "report.pdf", pages="2-3"),
     'extract(path="report.pdf", pages="2-3")', "report.pdf.pages-2-3.txt"),
    (["pages", "report.pdf", "2-3"], lambda d: boundread.pages(d / "report.pdf", "2-3"),
     'pages(path="report.pdf", range="2-3")', "report.pdf.pages-2-3.txt"),
    # the pages the file has (12), not those asked: the name says what the file holds
    (["pages", "report.pdf", "1-300"], lambda d: boundread.pages(d / "report.pdf", "1-300"),
     'pages(path="report.pdf", range="1-300")', "report.pdf.pages-1-12.txt"),
    (["extract", "report.pdf", "--pages", "10-300"], lambda d: boundread.extract(d / "report.pdf", pages="10-300"),
     'extract(path="report.pdf", pages="10-300")', "report.pdf.pages-10-12.txt"),
    (["pages", "report.pdf", "1-2", "--layout"], lambda d: boundread.pages(d / "report.pdf", "1-2", layout=True),
     'pages(path="report.pdf", range="1-2", layout=True)', "report.pdf.pages-1-2-layout.txt"),
    (["extract", "report.pdf", "--pages", "1-2", "--layout"],
     lambda d: boundread.extract(d / "report.pdf", pages="1-2", layout=True), None, "report.pdf.pages-1-2-layout.txt"),
    (["extract", "prices.xlsx", "--sheet", "Notes"], lambda d: boundread.extract(d / "prices.xlsx", sheets=("Notes",)),
     'extract(path="prices.xlsx", sheet="Notes")', "prices.xlsx.sheet-Notes.csv"),
    (["sheets", "prices.xlsx", "Notes"], lambda d: boundread.sheets(d / "prices.xlsx", "Notes"),
     'sheets(path="prices.xlsx", sheet="Notes")', "prices.xlsx.sheet-Notes.csv"),
    # one sheet's markdown rows: one name from extract, sheets and the library alike
    (["extract", "prices.xlsx", "--sheet", "Notes", "--format", "markdown"],
     lambda d: boundread.extract(d / "prices.xlsx", sheets=("Notes",), fmt="markdown"), None,
     "prices.xlsx.sheet-Notes.md"),
    (["sheets", "prices.xlsx", "Notes", "--format", "markdown"],
     lambda d: boundread.sheets(d / "prices.xlsx", "Notes", fmt="markdown"), None, "prices.xlsx.sheet-Notes.md"),
    (["sheets", "prices.xlsx", "Notes", "--format", "tsv"],
     lambda d: boundread.sheets(d / "prices.xlsx", "Notes", fmt="tsv"), None, "prices.xlsx.sheet-Notes.tsv"),
    # a sheet asked for by its index is the file of its name: one read, one file, however it was asked
    (["sheets", "prices.xlsx", "1", "--rows", "5-9"], lambda d: boundread.sheets(d / "prices.xlsx", "1", rows="5-9"),
     'sheets(path="prices.xlsx", sheet="1", rows="5-9")', "prices.xlsx.sheet-Prices_2026-rows-5-9.csv"),
    (["extract", "prices.xlsx", "--sheet", "1", "--rows", "5-9"],
     lambda d: boundread.extract(d / "prices.xlsx", sheets=("1",), rows="5-9"),
     'extract(path="prices.xlsx", sheet="1", rows="5-9")', "prices.xlsx.sheet-Prices_2026-rows-5-9.csv"),
    (["sheets", "prices.xlsx", "Prices 2026", "--rows", "5-9"],
     lambda d: boundread.sheets(d / "prices.xlsx", "Prices 2026", rows="5-9"),
     'sheets(path="prices.xlsx", sheet="Prices 2026", rows="5-9")', "prices.xlsx.sheet-Prices_2026-rows-5-9.csv"),
    (["extract", "server.log", "--lines", "10-20"], lambda d: boundread.extract(d / "server.log", lines="10-20"),
     'extract(path="server.log", lines="10-20")', "server.log.lines-10-20.txt"),
    (["extract", "server.log", "--grep", "ERROR"], lambda d: boundread.extract(d / "server.log", grep="ERROR"),
     'extract(path="server.log", grep="ERROR")', "server.log.grep-ERROR.txt"),
    (["extract", "server.log", "--grep", "ERROR", "--lines", "1-900"],
     lambda d: boundread.extract(d / "server.log", grep="ERROR", lines="1-900"),
     'extract(path="server.log", grep="ERROR", lines="1-900")', "server.log.grep-ERROR.lines-1-900.txt"),
    (["extract", "server.log", "--tail", "5"], lambda d: boundread.extract(d / "server.log", tail=5), None,
     "server.log.tail-5.txt"),
    (["extract", "catalogue.zip", "--member", README], lambda d: boundread.extract(d / "catalogue.zip", member=README),
     f'extract(path="catalogue.zip", member="{README}")', f"catalogue.zip.member-{member_slug(README)}.text.txt"),
    (["extract", "catalogue.zip", "--member", README, "--grep", "report"],
     lambda d: boundread.extract(d / "catalogue.zip", member=README, grep="report"),
     f'extract(path="catalogue.zip", member="{README}", grep="report")',
     f"catalogue.zip.member-{member_slug(README)}.grep-report.txt"),
]


@pytest.fixture
def samples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "project"
    write_samples(folder)
    monkeypatch.chdir(folder)
    return folder


def _mcp(folder: Path, expr: str, **config: Any) -> tools.Reply:
    """Make the tool call ``expr`` as the server would, its output folder the CLI's."""
    node = ast.parse(expr, mode="eval").body
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    args = {kw.arg: ast.literal_eval(kw.value) for kw in node.keywords if kw.arg}
    path = args.pop("path")
    target = tools.Target(folder / path, path, boundread_out())
    conf = tools.Config(roots=(str(folder),), **config)
    if node.func.id == "pages":
        return tools.settle(tools.pages(conf, target, args.pop("range"), **args))
    if node.func.id == "sheets":
        return tools.settle(tools.sheets(conf, target, args.pop("sheet", None), args.pop("rows", None), **args))
    if node.func.id == "list_zip":
        return tools.settle(tools.list_zip(conf, target, **args))
    if node.func.id == "chunks":
        return tools.settle(tools.chunks(conf, target, **args))
    assert node.func.id == "extract", expr
    return tools.settle(tools.extract(conf, target, **args))


def boundread_out() -> Path:
    from boundread.core.output import out_dir

    return out_dir().resolve()


@pytest.mark.parametrize(("cli", "api", "mcp", "name"), TABLE, ids=[" ".join(row[0]) for row in TABLE])
def test_each_request_form_is_named_alike_by_the_cli_the_api_and_mcp(
    samples: Path, cli: list[str], api: Api | None, mcp: str | None, name: str,
) -> None:
    result = run(*cli, "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    written = Path(json.loads(result.stdout)["output"])
    assert written.name == name and written.is_file()
    if api is not None:
        library = api(samples)
        assert library.output is not None and Path(library.output).name == name
        assert Path(library.output).read_text(encoding="utf-8") == written.read_text(encoding="utf-8")
    if mcp is not None:
        reply = _mcp(samples, mcp)
        assert not reply.is_error, reply.text
        assert reply.saved is not None and reply.saved.name == name


def test_an_mcp_call_that_reads_on_from_an_offset_names_where_it_starts(samples: Path) -> None:
    reply = _mcp(samples, 'extract(path="server.log", offset=100)', max_chars=300)
    assert reply.saved is not None and reply.saved.name == "server.log.text.from-100.txt"


def test_a_listing_chunks_and_a_redirect_slice_are_named_by_the_source(samples: Path) -> None:
    listed = _mcp(samples, 'list_zip(path="catalogue.zip")')
    assert listed.saved is not None and listed.saved.name == "catalogue.zip.list.txt"
    cli = run("chunks", "report.pdf", "--tokens", "1000", "--json")
    assert cli.exit_code == 0, cli.stderr
    assert Path(json.loads(cli.stdout)["folder"]).name == "report.pdf.chunks"
    assert Path(boundread.chunk(samples / "report.pdf", 1000).folder).name == "report.pdf.chunks"
    chunked = _mcp(samples, 'chunks(path="report.pdf", tokens=1000)')
    assert chunked.saved is not None and chunked.saved.parent.name == "report.pdf.chunks"
    from boundread.hook import slices

    made = slices.first_part(str(samples / "report.pdf"), "report.pdf", str(samples), "document", "pdf")
    assert made is not None
    first, _context = made
    assert Path(first).name.startswith("report.pdf.") and Path(first).name.endswith(".first-part.txt")


def test_the_sheet_list_is_typed_and_sheets_names_what_it_reads(samples: Path) -> None:
    listed = boundread.sheet_list(samples / "prices.xlsx")
    assert [sheet["name"] for sheet in listed] == ["Prices 2026", "Notes", "Internal"]
    assert listed[0]["rows"] == 301 and listed[2]["hidden"] is True
    with pytest.raises(boundread.UsageError) as err:
        boundread.sheets(samples / "prices.xlsx")
    assert "sheet_list" in err.value.fix
    with pytest.raises(boundread.UsageError):
        boundread.extract(samples / "server.log", fmt="json")


def test_a_page_read_cut_short_is_named_for_the_pages_it_reached(samples: Path) -> None:
    """``pages 1-300`` cut by --max-chars inside page 4 holds pages 1-4: its name says so, as its summary does,
    and the next read (from page 4) names its own pages - in the CLI, the library and MCP alike."""
    result = run("pages", "report.pdf", "1-300", "--max-chars", "3000", "--json")
    envelope = json.loads(result.stdout)
    assert envelope["done"].startswith("pages 1-4 of 12") and envelope["next"] == ["boundread pages report.pdf 4-12"]
    assert Path(envelope["output"]).name == "report.pdf.pages-1-4.txt"
    library = boundread.pages(samples / "report.pdf", "1-300", limits=boundread.Limits(max_chars=3000))
    assert library.output is not None and Path(library.output).name == "report.pdf.pages-1-4.txt"
    reply = _mcp(samples, 'pages(path="report.pdf", range="1-300", max_chars=3000)')
    assert reply.saved is not None and reply.saved.name == "report.pdf.pages-1-4.txt"
    following = json.loads(run("pages", "report.pdf", "4-12", "--max-chars", "3000", "--json").stdout)
    assert Path(following["output"]).name == f"report.pdf.pages-{following['done'].split()[1]}.txt"


def test_the_sheet_listing_refuses_a_bad_rows_or_format_as_a_rows_read_does(samples: Path) -> None:
    for option in (["--rows", "abc"], ["--format", "json"]):
        listed = run("sheets", "prices.xlsx", *option)
        read = run("sheets", "prices.xlsx", "Notes", *option)
        assert listed.exit_code == read.exit_code == 2 and listed.stderr == read.stderr
