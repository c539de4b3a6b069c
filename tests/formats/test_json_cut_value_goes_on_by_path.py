"""A JSON value cut by --max-chars names a next read in the JSON, never ``--lines`` of the raw file (a one-line
JSON has one line): an array goes on as its elements (``--path '.items[0:]'``, then ``.items[K:]``), an object
points at ``info``, which lists its keys and paths."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tests.helpers import run_json


@pytest.fixture
def doc(tmp_path: Path) -> Path:
    path = tmp_path / "d.json"
    path.write_text(json.dumps({"meta": {"v": 1}, "items": [{"id": i, "name": f"n{i}"} for i in range(500)]}),
                    encoding="utf-8")
    return path


@pytest.mark.parametrize(("path", "nxt"), [(".items", "--path '.items[0:]'"), (".", "info"),
                                           ("[\"items\"]", "--path '[\"items\"][0:]'")])
def test_a_value_longer_than_max_chars_goes_on_in_the_json(doc: Path, path: str, nxt: str) -> None:
    code, data = run_json("extract", str(doc), "--path", path, "--max-chars", "400", "-o", str(doc.parent / "x"))
    assert code == 0 and data["truncated"]
    assert data["next"][0].endswith(nxt) or f" {nxt} " in data["next"][0], data["next"]
    assert not any("--lines" in step for step in data["next"])


def test_the_elements_go_on_where_the_cut_was(doc: Path) -> None:
    _, first = run_json("extract", str(doc), "--path", ".items[0:]", "--max-chars", "400", "-o", str(doc.parent / "x"))
    found = re.search(r"--path '\.items\[(\d+):\]'$", first["next"][0])
    assert found is not None, first["next"]
    ids = [int(n) for n in re.findall(r'"id": (\d+)', (doc.parent / "x").read_text(encoding="utf-8"))]
    assert int(found.group(1)) in (len(ids), len(ids) - 1) and ids == list(range(len(ids)))  # the cut one again


def test_a_top_level_array_goes_on_as_its_elements(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text(json.dumps(list(range(1000))), encoding="utf-8")
    _, data = run_json("extract", str(path), "--path", ".", "--max-chars", "100", "-o", str(tmp_path / "x"))
    assert data["next"][0].endswith("--path '.[0:]'"), data["next"]
