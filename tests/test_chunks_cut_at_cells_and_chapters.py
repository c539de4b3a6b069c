"""``chunks`` of a notebook cuts between cells, and names them (``cells 1-4``), as it does pages and slides."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import run_json


def test_a_notebook_is_chunked_between_cells(tmp_path: Path) -> None:
    cells = [{"cell_type": "code", "source": [f"print('cell {n} ' * 200)\n"], "metadata": {}, "execution_count": n,
              "outputs": [{"output_type": "stream", "name": "stdout", "text": [f"cell {n} output " * 200]}]}
             for n in range(1, 30)]
    notebook = tmp_path / "nb.ipynb"
    notebook.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    code, data = run_json("chunks", str(notebook), "--tokens", "3000", "-o", str(tmp_path / "c"))
    assert code == 0 and data["complete"] is True
    spans = [chunk["span"] for chunk in data["chunks"]]
    assert spans[0].startswith("cells 1-") and all(span.startswith("cell") for span in spans)
    first = (tmp_path / "c" / data["chunks"][1]["file"]).read_text(encoding="utf-8")
    assert first.startswith("--- cell ")  # the second chunk begins at a cell, not inside one
