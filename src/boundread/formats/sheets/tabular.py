"""Spreadsheet rows as text: one cell value to a string, one row to a csv / tsv / markdown line.

Standard library only. Cached values are shown as a reader would see them: dates in ISO form,
whole floats as ints ("3", not "3.0"), at most 15 significant digits (Excel's precision), empty
cells as nothing.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Sequence
from typing import Any

FORMATS = ("csv", "tsv", "markdown")


def cell_text(value: Any) -> str:
    """One cell's cached value as text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return str(value)
        if value.is_integer() and abs(value) < 1e16:
            return str(int(value))
        return f"{value:.15g}"
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0):
            return value.date().isoformat()
        return value.isoformat(timespec="seconds" if not value.microsecond else "milliseconds")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):  # calamine's reading of an elapsed-time format: shown as [h]:mm:ss
        return _elapsed(value)
    return str(value)


def _elapsed(value: dt.timedelta) -> str:
    """255:10:10, not "10 days, 15:10:10": elapsed time in hours, as Excel's ``[h]:mm:ss`` shows it."""
    micros = abs(value) // dt.timedelta(microseconds=1)
    seconds, micro = divmod(micros, 1_000_000)
    text = f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    if micro:
        text += f".{micro:06d}".rstrip("0")
    return ("-" if value < dt.timedelta(0) else "") + text


def trim(cells: Sequence[str]) -> list[str]:
    """The row without its trailing empty cells."""
    end = len(cells)
    while end and not cells[end - 1]:
        end -= 1
    return list(cells[:end])


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
