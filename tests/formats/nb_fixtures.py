"""Generated Jupyter notebooks for the notebook tests: small, each cell with a sentinel to look for."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\x00" * 120_000).decode()  # 120 kB of image, base64 in the file


def code(source: str | list[str], *outputs: dict[str, Any], count: int | None = 1) -> dict[str, Any]:
    return {"cell_type": "code", "execution_count": count, "metadata": {}, "source": source,
            "outputs": list(outputs)}


def markdown(source: str | list[str]) -> dict[str, Any]:
    return {"cell_type": "markdown", "metadata": {}, "source": source}


def stream(text: str | list[str], name: str = "stdout") -> dict[str, Any]:
    return {"output_type": "stream", "name": name, "text": text}


def display(data: dict[str, Any]) -> dict[str, Any]:
    return {"output_type": "display_data", "data": data, "metadata": {}}


def notebook(tmp_path: Path, cells: list[dict[str, Any]], name: str = "nb.ipynb", *, indent: int | None = 1) -> Path:
    """Written as Jupyter does: cells first, then the metadata (a reader must not need it first)."""
    doc = {"cells": cells,
           "metadata": {"kernelspec": {"language": "python", "name": "python3"}, "language_info": {"name": "python"}},
           "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / name
    path.write_text(json.dumps(doc, indent=indent), encoding="utf-8")
    return path


def sample(tmp_path: Path) -> Path:
    """Five cells: markdown, code with stdout, code with an image, code with an error, markdown."""
    return notebook(tmp_path, [
        markdown(["# Title MD_ONE\n", "first words"]),
        code(["print('CODE_TWO')\n", "x = 1"], stream(["OUT_TWO\n"]), count=1),
        code("plot()", display({"image/png": PNG, "text/plain": ["<Figure FIG_THREE>"]}), count=2),
        code("1/0", {"output_type": "error", "ename": "ZeroDivisionError", "evalue": "ERR_FOUR",
                     "traceback": ["\x1b[0;31mZeroDivisionError\x1b[0m Traceback", "----> 1 1/0"]}, count=3),
        markdown("closing MD_FIVE"),
    ])
