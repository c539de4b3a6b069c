"""nbformat 2 and 3 notebooks (IPython 1.x-3.x: cells inside worksheets, ``input``/``prompt_number``, heading
cells, outputs ``pyout``/``pyerr`` whose forms are keys such as ``png``) read as nbformat 4 reads them, as
``nbformat.v4.upgrade`` would turn them: cells numbered across worksheets, headings as markdown, images
summarised. The real nbformat 3 file (tests/realfiles/ipynb-nbformat-test3-v3.ipynb) is in the manifest sweep."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.formats.nb_fixtures import PNG
from tests.helpers import run_json


def v3(tmp_path: Path, *worksheets: list[dict[str, Any]], indent: int | None = 1) -> Path:
    """Written as IPython 2 did: keys sorted, so the worksheets come after ``metadata`` and ``nbformat``."""
    doc = {"metadata": {"name": "old"}, "nbformat": 3, "nbformat_minor": 0,
           "worksheets": [{"cells": cells, "metadata": {}} for cells in worksheets]}
    path = tmp_path / "old.ipynb"
    path.write_text(json.dumps(doc, indent=indent, sort_keys=True), encoding="utf-8")
    return path


def heading(text: str, level: int) -> dict[str, Any]:
    return {"cell_type": "heading", "level": level, "metadata": {}, "source": [text]}


def code(source: str, *outputs: dict[str, Any], number: int = 1) -> dict[str, Any]:
    return {"cell_type": "code", "collapsed": False, "input": [source], "language": "python", "metadata": {},
            "outputs": list(outputs), "prompt_number": number}


def first_sheet() -> list[dict[str, Any]]:
    return [heading("TITLE_ONE", 1),
            code("print('CODE_TWO')", {"output_type": "stream", "stream": "stderr", "text": ["OUT_TWO\n"]}),
            code("plot()", {"output_type": "pyout", "prompt_number": 3, "metadata": {}, "png": PNG,
                            "text": ["<Figure FIG_THREE>"]}, number=3)]


def second_sheet() -> list[dict[str, Any]]:
    return [heading("SUB_FOUR", 3),
            code("1/0", {"output_type": "pyerr", "ename": "ZeroDivisionError", "evalue": "ERR_FIVE",
                         "traceback": ["\x1b[0;31m----> 1 1/0\x1b[0m"]}, number=5),
            {"cell_type": "markdown", "metadata": {}, "source": "MD_SIX"}]


def test_the_cells_of_every_worksheet_are_read_in_order_in_nbformat_4s_shape(tmp_path: Path) -> None:
    code_, data = run_json("extract", str(v3(tmp_path, first_sheet(), [], second_sheet())), "--stdout")
    assert code_ == 0 and data["done"] == "cells 1-6 of 6"
    text = data["text"]
    order = ["--- cell 1 / 6: markdown ---", "# TITLE_ONE", "--- cell 2 / 6: code [1] ---", "print('CODE_TWO')",
             "OUT_TWO", "--- cell 3 / 6: code [3] ---", "<Figure FIG_THREE>", "[image/png 120.0 kB]",
             "--- cell 4 / 6: markdown ---", "### SUB_FOUR", "ZeroDivisionError: ERR_FIVE", "----> 1 1/0",
             "--- cell 6 / 6: markdown ---", "MD_SIX"]
    positions = [text.index(s) for s in order]
    assert positions == sorted(positions)
    assert PNG[:100] not in text and "\x1b[" not in text


def test_info_counts_across_worksheets_and_names_the_version(tmp_path: Path) -> None:
    code_, data = run_json("info", str(v3(tmp_path, first_sheet(), second_sheet(), indent=None)))
    fields = data["fields"]
    assert code_ == 0 and data["kind"] == "ipynb" and fields["nbformat"] == 3
    assert (fields["cells"], fields["code_cells"], fields["markdown_cells"]) == (6, 3, 3)
    assert fields["outputs"] == 3 and fields["outputs_summarised"] == 1


def test_pages_cross_from_one_worksheet_to_the_next(tmp_path: Path) -> None:
    code_, data = run_json("pages", str(v3(tmp_path, first_sheet(), second_sheet())), "3-4", "--stdout")
    assert code_ == 0 and data["done"] == "cells 3-4 of 6"
    assert "FIG_THREE" in data["text"] and "SUB_FOUR" in data["text"]
    assert "CODE_TWO" not in data["text"] and "ERR_FIVE" not in data["text"]


def test_a_notebook_without_worksheets_is_empty_not_an_error(tmp_path: Path) -> None:
    code_, data = run_json("extract", str(v3(tmp_path)), "--stdout")
    assert code_ == 0 and data["done"] == "no cells of 0" and data["text"] == ""
