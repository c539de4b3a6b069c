"""Spreadsheet rows as text: one cell value to a string, one row to a csv / tsv / markdown line.

Standard library only. Cached values are shown as a reader would see them: dates in ISO form,
whole floats as ints ("3", not "3.0"), at most 15 significant digits (Excel's precision), empty
cells as nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from boundread.formats._rows import FORMATS as FORMATS
from boundread.formats._rows import RowFormatter as RowFormatter

TYPE_CHECKING = False  # typing for mypy only: it costs a read's start-up
if TYPE_CHECKING:
    from typing import Any


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
