"""The rich views: tables and panels for info, sheets and archive listings, and the progress line.

Imported only by the commands that draw them, so `extract --json` and `pages` never pay for rich.
"""

from __future__ import annotations

import contextlib
import re
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from rich import box
from rich.console import Console
from rich.progress import ProgressColumn, Task
from rich.table import Table
from rich.text import Text

from boundread.contract.model import InfoResult, Listing, Source
from boundread.contract.sink import Sink
from boundread.render.listing import listing_next, listing_words
from boundread.render.plain import entry_cells, info_rows, listing_summary, plural, sheet_cells
from boundread.units import human_bytes


def console(stderr: bool = False) -> Console:
    """A console that never cuts a path or a member name: piped output (agents) gets a wide page and whole
    lines; a terminal wraps long lines at its width between words."""
    stream = sys.stderr if stderr else sys.stdout
    tty = stream.isatty()
    return Console(stderr=stderr, highlight=False, soft_wrap=not tty, emoji=False, width=None if tty else 240)


NARROW = 70  # columns below which the progress line drops its rate and finds rather than wrap


@contextlib.contextmanager
def progress(sink: Sink, delay: float = 0.5, out: Console | None = None) -> Iterator[None]:
    """A transient progress bar on stderr while a long extraction runs, shown after ``delay``: percent of the
    file's bytes (text) or of the pages asked (PDF), the rate, the time left, and what was found so far."""
    stop = threading.Event()

    def show() -> None:
        if stop.wait(delay):
            return
        from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn

        screen = out or console(stderr=True)
        narrow = screen.width < NARROW  # the bar, percent and time left fit 40 columns; the rate and finds do not
        columns = [TextColumn("{task.description}"), BarColumn(bar_width=max(5, min(40, screen.width - 62))),
                   TaskProgressColumn(), RateColumn(), TimeRemainingColumn(), TextColumn("{task.fields[found]}")]
        if narrow:
            columns = [columns[0], BarColumn(bar_width=max(5, screen.width - 30)), columns[2], columns[4]]
        bar = Progress(*columns, console=screen, transient=True, refresh_per_second=8)
        with bar:
            task = bar.add_task("reading", total=None, found="", unit="bytes")
            while True:
                counter = sink.progress
                bar.update(task, total=counter.total, completed=counter.done, unit=counter.unit, found=_found(sink))
                if stop.wait(0.1):
                    break

    worker = threading.Thread(target=show, daemon=True)
    worker.start()
    try:
        yield
    finally:
        stop.set()
        worker.join(timeout=1)


class RateColumn(ProgressColumn):
    """``12.3 MB/s`` for bytes, ``4.5 pages/s`` for pages (decimal units, as everywhere)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if speed is None:
            return Text("")
        if task.fields.get("unit") == "bytes":
            return Text(f"{human_bytes(int(speed))}/s")
        return Text(f"{speed:.1f} {task.fields.get('unit', 'pages')}/s")


def _found(sink: Sink) -> str:
    if sink.grep is not None:
        return plural(sink.matches, "match", "matches")
    return f"{sink.chars:,} chars"


def print_info(result: InfoResult) -> None:
    out = console()
    out.print(Text(f"{result.path}", style="bold"))
    rows = info_rows(result)
    table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2, 0, 2))
    table.add_column(style="cyan", no_wrap=True)
    table.add_column(overflow="fold")
    for key, value in rows:
        table.add_row(key, Text(value))
    _table(out, table)
    if result.fields.get("sheets"):
        print_sheets(result.fields["sheets"], out)
    told = result.problem["message"] if result.problem else None
    _warnings(out, [warning for warning in result.warnings if warning != told])
    _next(out, result.next)


def print_sheets(sheets: Sequence[dict[str, Any]], out: Console | None = None) -> None:
    out = out or console()
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for name in ("#", "sheet", "rows", "cols", "state"):
        table.add_column(name, justify="right" if name in ("#", "rows", "cols") else "left")
    for index, name, rows, cols, state in map(sheet_cells, sheets):
        table.add_row(index, Text(name), rows, cols, state)
    _table(out, table)


def print_listing(src: Source, listing: Listing) -> None:
    out = console()
    columns = (("size", "right"), ("packed", "right"), ("ratio", "right"), ("modified", "left"), ("flags", "left"))
    rows = [entry_cells(entry) for entry in listing.entries]
    # the small columns never wrap; on a narrow terminal the time, then the packed size (then the time and the
    # ratio altogether) make room for the names, and a name longer than the room left breaks after a '/', '-'
    # or '_', not mid-word
    keep = list(range(len(columns)))
    room = _room(out.width, columns, rows, keep)
    if room < 30:
        rows = [(*row[:3], row[3][:10], *row[4:]) for row in rows]
        room = _room(out.width, columns, rows, keep)
    if room < 24:
        keep.remove(1)
        room = _room(out.width, columns, rows, keep)
    for column in (3, 2):  # a 40-column terminal: the time, then the ratio, before names cut to a few letters
        if room < 20:
            keep.remove(column)
            room = _room(out.width, columns, rows, keep)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for i in keep:
        table.add_column(columns[i][0], justify=columns[i][1], no_wrap=True)  # type: ignore[arg-type]
    table.add_column("name", overflow="fold")
    for row in rows:
        table.add_row(*(row[i] for i in keep), Text(fit_name(row[-1], max(room, 12))))
    out.print(Text(listing_summary(src, listing)))
    words = listing_words(listing)
    if rows or words is None:
        _table(out, table)
    if words is not None:
        out.print(Text(words, style="yellow" if listing.resume else ""))
    _warnings(out, listing.warnings)
    _next(out, listing_next(src, listing))


def _room(width: int, columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[str]], keep: Sequence[int]) -> int:
    """The width left for the name column once the kept columns (and 3 spaces between columns) are drawn."""
    used = sum(max([len(columns[i][0]), *(len(row[i]) for row in rows)]) + 3 for i in keep)
    return width - used


def fit_name(name: str, width: int) -> str:
    """A member name in lines of at most ``width``, broken after a ``/`` (else a space, ``-`` or ``_``); a part
    longer than the width alone is cut where it must be."""
    if len(name) <= width:
        return name
    lines, line = [], ""
    for part in re.split(r"(?<=[/ _-])", name):
        while len(part) > width:  # one segment wider than the column: no better place to break it
            room = width - len(line)
            lines.append(line + part[:room])
            line, part = "", part[room:]
        if len(line) + len(part) > width:
            lines.append(line)
            line = ""
        line += part
    return "\n".join([*lines, line] if line else lines)


def _table(out: Console, table: Table) -> None:
    """Print a table without the padding rich adds at the end of each line (agents read this)."""
    with out.capture() as captured:
        out.print(table)
    lines = [line.rstrip() for line in captured.get().splitlines()]
    out.file.write("\n".join(line for line in lines if line) + "\n")


def _warnings(out: Console, warnings: Sequence[str]) -> None:
    for warning in warnings:
        out.print(Text(f"  warning: {warning}", style="yellow"))


def _next(out: Console, commands: Sequence[str]) -> None:
    if commands:
        out.print(Text("next:", style="bold"))
        for command in commands:  # a command stays on one line, to copy
            out.print(Text(f"  {command}"), soft_wrap=True)


