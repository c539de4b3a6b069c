"""A row of cell texts as a csv, tsv or markdown line, as the sheets family writes a workbook's rows.

The families do not import each other (tests/formats/test_families.py): this is the database family's own copy
of the three line shapes; the lead may move one copy to a neutral ``formats/_tabular.py``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence


class Lines:
    """Rows of cell texts to lines; markdown gets its header rule after the first row."""

    def __init__(self, fmt: str, width: int) -> None:
        self.fmt = fmt if fmt in ("csv", "tsv", "markdown") else "csv"
        self.width = max(width, 1)
        self._rows = 0

    def line(self, cells: Sequence[str]) -> str:
        self._rows += 1
        if self.fmt == "tsv":
            return "\t".join(_flat(cell).replace("\t", " ") for cell in cells) + "\n"
        if self.fmt == "markdown":
            padded = list(cells) + [""] * (self.width - len(cells))
            text = "| " + " | ".join(_flat(cell).replace("|", "\\|") for cell in padded) + " |\n"
            return text + ("|" + "---|" * len(padded) + "\n" if self._rows == 1 else "")
        out = io.StringIO()
        if any("\r" in cell for cell in cells):  # the csv module quotes a CR only when it ends lines itself
            csv.writer(out, lineterminator="\r\n").writerow(cells)
            return out.getvalue()[:-2] + "\n"
        csv.writer(out, lineterminator="\n").writerow(cells)
        return out.getvalue()


def _flat(cell: str) -> str:
    """A cell on one line: a line break inside would break a tsv or markdown row."""
    if "\n" in cell or "\r" in cell:
        return cell.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")
    return cell
