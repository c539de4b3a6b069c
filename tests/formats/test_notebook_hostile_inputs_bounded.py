"""Hostile notebooks give one line and a distinct exit code, or a bounded answer: an output of 20 MB in one
string, a million output lines, a notebook cut short, one that is not an object, one with neither cells nor
worksheets, metadata nested a million deep, bytes cut or changed anywhere (hypothesis). The 200 MB output is
measured in bench/notebook_bench.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.formats.nb_fixtures import code, markdown, notebook, sample, stream
from tests.helpers import run, run_json

from boundread.errors import ExitCode


def test_an_output_of_20_mb_in_one_string_is_cut_not_held(tmp_path: Path) -> None:
    path = notebook(tmp_path, [code("x", stream("q" * 20_000_000)), markdown("AFTER")])
    code_, data = run_json("extract", str(path), "--stdout")
    assert code_ == 0 and data["chars"] < 10_000 and "AFTER" in data["text"]
    assert "[stdout 20.0 MB: first 4,000 characters shown]" in data["text"]


def test_a_million_output_lines_are_stepped_over_past_the_cells_budget(tmp_path: Path) -> None:
    path = notebook(tmp_path, [code("x", stream(["line\n"] * 1_000_000)), markdown("AFTER")], indent=None)
    code_, data = run_json("extract", str(path), "--stdout")
    assert code_ == 0 and data["chars"] < 10_000 and "AFTER" in data["text"]
    assert "characters shown]" in data["text"]
    code_, data = run_json("info", str(path))
    assert code_ == 0 and data["fields"]["cells"] == 2


@pytest.mark.parametrize(("data", "code", "why"), [
    (b'{"cells": [{"cell_type": "markdown", "source": "unfinished', ExitCode.CORRUPT, "a string that never closes"),
    (b'{"cells": [{"cell_type": "code", "source": @}]}', ExitCode.CORRUPT, "unexpected b'@'"),
    (b'[1, 2, 3]', ExitCode.CORRUPT, "it is not a JSON object"),
    (b'{"cells": [' + b'{"cell_type": "markdown", "source": "a"},' * 3, ExitCode.CORRUPT, "the file ends"),
    (b'{"metadata": {}, "nbformat": 3}', ExitCode.UNSUPPORTED, "has no list of cells (nbformat 3)"),
    (b'{"metadata": ' + b"[" * 1_000_000, ExitCode.CORRUPT, "open brackets"),
])
def test_broken_notebooks_are_one_line_and_a_distinct_exit(tmp_path: Path, data: bytes, code: int, why: str) -> None:
    path = tmp_path / "bad.ipynb"
    path.write_bytes(data)
    result = run("extract", str(path), "--stdout")
    assert result.exit_code == code and result.stdout == ""
    assert result.stderr.count("\n") == 1 and why in result.stderr and "Traceback" not in result.stderr
    code_, info = run_json("info", str(path))  # info describes the problem instead of failing
    assert code_ == 0 and info["problem"]["exit_code"] == code and why in info["problem"]["message"]


def test_metadata_nested_a_million_deep_is_stepped_over(tmp_path: Path) -> None:
    path = tmp_path / "deep.ipynb"
    path.write_bytes(b'{"metadata": {"x": ' + b"[" * 1_000_000 + b"]" * 1_000_000 + b'}, "cells": ['
                     + json.dumps(markdown("DEEP_OK")).encode() + b'], "nbformat": 4}')
    code_, data = run_json("extract", str(path), "--stdout")
    assert code_ == 0 and "DEEP_OK" in data["text"]


def test_a_notebook_without_cells_has_nothing_to_page(tmp_path: Path) -> None:
    path = notebook(tmp_path, [])
    code_, data = run_json("info", str(path))
    assert code_ == 0 and data["fields"]["cells"] == 0
    result = run("pages", str(path), "1")
    assert result.exit_code == ExitCode.USAGE and "it has no cells to read" in result.stderr


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_cut_or_changed_bytes_never_raise(tmp_path: Path, data: st.DataObject) -> None:
    raw = bytearray(sample(tmp_path).read_bytes())
    cut = data.draw(st.integers(0, len(raw)))
    del raw[cut:]
    if raw and data.draw(st.booleans()):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    path = tmp_path / "mutated.ipynb"
    path.write_bytes(bytes(raw))
    for args in (("extract", str(path), "--stdout"), ("pages", str(path), "2-3")):
        result = run(*args)
        assert result.exit_code in (ExitCode.OK, ExitCode.USAGE, ExitCode.UNSUPPORTED, ExitCode.CORRUPT)
        assert "Traceback" not in result.stderr
        if result.exit_code:
            assert result.stderr.count("\n") == 1
