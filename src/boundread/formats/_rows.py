"""A row of cell texts as a csv, tsv or markdown line: the line shapes of every reader of rows (workbooks,
CSV, database tables). A neutral helper (like ``_xml.py``), so the sheets and database families share it."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

FORMATS = ("csv", "tsv", "markdown")


class RowFormatter:
    """Turns rows of cell texts into lines; markdown gets a header rule after the first row."""

    def __init__(self, fmt: str, width: int | None = None) -> None:
        if fmt not in FORMATS:
            fmt = "csv"
        self.fmt = fmt
        self.width = width
        self._rows = 0

    def line(self, cells: Sequence[str]) -> str:
        self._rows += 1
        if self.fmt == "tsv":
            return "\t".join(_flat(cell).replace("\t", " ") for cell in cells) + "\n"
        if self.fmt == "markdown":
            return self._markdown(cells)
        out = io.StringIO()
        if any("\r" in cell for cell in cells):  # the csv module quotes a CR only when it ends lines itself
            csv.writer(out, lineterminator="\r\n").writerow(cells)
            return out.getvalue()[:-2] + "\n"
        csv.writer(out, lineterminator="\n").writerow(cells)
        return out.getvalue()

    def _markdown(self, cells: Sequence[str]) -> str:
        if self.width is None:
            self.width = max(len(cells), 1)
        padded = list(cells) + [""] * (self.width - len(cells))
        text = "| " + " | ".join(_flat(cell).replace("|", "\\|") for cell in padded) + " |\n"
        if self._rows == 1:
            text += "|" + "---|" * len(padded) + "\n"
        return text


def _flat(cell: str) -> str:
    """A cell on one line: newlines inside a cell would break tsv and markdown rows."""
    if "\n" in cell or "\r" in cell:
        return cell.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")
    return cell
