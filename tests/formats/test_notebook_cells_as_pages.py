"""Jupyter notebooks: cells in order like slides (``pages nb.ipynb 2-3``), sources and text outputs kept, images
and big outputs summarised as ``[image/png 120.0 kB]`` instead of base64; info counts the cells. Fixtures are
generated (tests/formats/nb_fixtures.py)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.formats.nb_fixtures import PNG, code, display, markdown, notebook, sample, stream
from tests.helpers import run, run_json

from boundread.errors import ExitCode


def test_info_names_the_kind_and_counts_cells(tmp_path: Path) -> None:
    code_, data = run_json("info", str(sample(tmp_path)))
    assert code_ == 0 and data["kind"] == "ipynb"
    fields = data["fields"]
    assert fields["cells"] == 5 and fields["code_cells"] == 3 and fields["markdown_cells"] == 2
    assert fields["outputs"] == 3 and fields["language"] == "python" and fields["nbformat"] == 4
    assert data["est_tokens"] < 1000  # the base64 image is not counted as text to read
    assert any(s.startswith("boundread pages") for s in data["next"])


def test_extract_writes_every_cell_in_order_with_outputs(tmp_path: Path) -> None:
    code_, data = run_json("extract", str(sample(tmp_path)), "--stdout")
    assert code_ == 0
    text = data["text"]
    order = ["--- cell 1 / 5: markdown ---", "MD_ONE", "--- cell 2 / 5: code [1] ---", "CODE_TWO", "OUT_TWO",
             "--- cell 3 / 5: code [2] ---", "FIG_THREE", "[image/png 120.0 kB]", "ZeroDivisionError: ERR_FOUR",
             "----> 1 1/0", "--- cell 5 / 5: markdown ---", "MD_FIVE"]
    positions = [text.index(s) for s in order]
    assert positions == sorted(positions)
    assert PNG[:100] not in text and "\x1b[" not in text  # no base64, no terminal colours
    assert data["totals"] == {"cells": 5} and data["done"] == "cells 1-5 of 5"
    assert any("1 non-text output summarised" in w for w in data["warnings"])


def test_pages_reads_only_the_cells_asked_for(tmp_path: Path) -> None:
    code_, data = run_json("pages", str(sample(tmp_path)), "2-3", "--stdout")
    assert code_ == 0
    assert "CODE_TWO" in data["text"] and "FIG_THREE" in data["text"]
    assert "MD_ONE" not in data["text"] and "ERR_FOUR" not in data["text"]
    assert data["done"] == "cells 2-3 of 5"
    assert any("pages" in s and "4-5" in s for s in data["next"])


def test_several_ranges_come_in_file_order(tmp_path: Path) -> None:
    code_, data = run_json("extract", str(sample(tmp_path)), "--pages", "5,1", "--stdout")
    assert code_ == 0 and data["text"].index("MD_ONE") < data["text"].index("MD_FIVE")
    assert "CODE_TWO" not in data["text"] and data["done"] == "2 cells of 5"


def test_a_range_past_the_end_is_a_usage_error_naming_the_cells(tmp_path: Path) -> None:
    result = run("pages", str(sample(tmp_path)), "9-12")
    assert result.exit_code == ExitCode.USAGE and result.stdout == ""
    assert "has 5 cells" in result.stderr and "ask for cells 1-5" in result.stderr
    assert result.stderr.count("\n") == 1


def test_a_big_output_is_cut_and_says_its_size(tmp_path: Path) -> None:
    lines = ["z" * 99 + "\n"] * 50_000  # 5 MB of stdout, as Jupyter stores it: a list of lines
    path = notebook(tmp_path, [code("loop()", stream(lines)), markdown("AFTER_BIG")])
    code_, data = run_json("extract", str(path), "--stdout")
    assert code_ == 0 and "AFTER_BIG" in data["text"] and data["chars"] < 10_000
    # its size as the notebook holds it (5.0 MB of text, plus the quotes and escapes of 50,000 JSON strings)
    assert re.search(r"\[stdout 5\.\d MB: first [\d,]+ characters shown\]\n", data["text"])
    assert any("1 output longer than 4,000 characters cut" in w for w in data["warnings"])


def test_html_beside_plain_text_is_summarised_and_markdown_source_kept(tmp_path: Path) -> None:
    path = notebook(tmp_path, [code("df", display({"text/html": "<table>" + "<tr><td>1</td></tr>" * 100,
                                                   "text/plain": "   a\n0  1"})),
                               markdown(["## Section SECT\n", "![img](attachment:a.png)"])])
    code_, data = run_json("extract", str(path), "--stdout")
    assert code_ == 0 and "   a\n0  1" in data["text"] and "[text/html 1.9 kB]" in data["text"]
    assert "<table>" not in data["text"] and "## Section SECT" in data["text"]


def test_max_chars_cuts_at_a_cell_and_resumes_with_pages(tmp_path: Path) -> None:
    cells = [markdown(f"cell number {n} " + "w" * 200) for n in range(1, 41)]
    path = notebook(tmp_path, cells)
    code_, data = run_json("extract", str(path), "--max-chars", "1000", "--stdout")
    assert code_ == 0 and data["truncated"] and data["chars"] <= 1000
    resume = [s for s in data["next"] if " pages " in f" {s} "]
    assert resume and "cell number 40" not in data["text"]


def test_a_one_line_notebook_reads_the_same(tmp_path: Path) -> None:
    """nbformat writers differ: no indentation at all must give the same text."""
    one = run_json("extract", str(notebook(tmp_path, [markdown("SAME"), code("x", stream("y"))], "a.ipynb",
                                                    indent=None)), "--stdout")[1]["text"]
    two = run_json("extract", str(notebook(tmp_path, [markdown("SAME"), code("x", stream("y"))], "b.ipynb")),
                   "--stdout")[1]["text"]
    assert one == two and "SAME" in one
