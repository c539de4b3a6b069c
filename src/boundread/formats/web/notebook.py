"""Jupyter notebooks (``ipynb``): cells in order, like slides, outputs as text or a one-line summary.

``pages nb.ipynb 3-5`` reads cells 3-5 (numbered from 1 in file order, markdown and code alike), each behind
a ``--- cell N / TOTAL: code [5] ---`` marker; ``extract`` reads them all, bounded by --max-chars. Several
ranges are written in file order. See :mod:`cells` for what a cell's text is. nbformat 2 and 3 notebooks keep
their cells in worksheets, in an older shape: they are numbered across the worksheets and read as nbformat 4
(:mod:`nbv3`).

The notebook is never loaded whole: ``formats/_jsonscan`` streams it, the cells not asked for are stepped
over by its C regular expressions, and a cell asked for keeps at most ``BUDGET`` bytes (strings cut at
``CAP``): a 200 MB output costs a line saying how big it is. Two passes: one counts the cells (for the
markers' totals), one reads those asked for and stops after the last.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from typing import IO

from boundread.contract.model import FILE, Details, Outcome, Request, Source
from boundread.contract.sink import Sink
from boundread.errors import Unsupported
from boundread.formats._jsonscan import OutOfTime, Scanner, Str
from boundread.formats._lines import lines_on
from boundread.formats.web import parts
from boundread.formats.web.cells import MAX_OUTPUT, Cell, Tally
from boundread.formats.web.nbload import Loader, corrupt
from boundread.formats.web.nbv3 import as_v4
from boundread.limits import Deadline

KINDS: tuple[str, ...] = ("ipynb",)
CAP = 64 * 1024  # bytes of one string of a cell kept
BUDGET = 1 << 20  # bytes of one cell kept
_HEAD_BUDGET = 64 * 1024  # bytes of the notebook's metadata kept


class Notebook:
    """The top level of a notebook, read by a scanner: the metadata around the cells, and the cells."""

    def __init__(self, fh: IO[bytes], deadline: Deadline | None, name: str) -> None:
        self.sc = Scanner(fh, deadline)
        self.name = name
        self.meta: dict[str, object] = {}
        self.legacy = False  # nbformat 2 or 3: the cells are in worksheets, in the old shape (see nbv3)
        self.depth = 2  # the brackets open around a cell: the top level's and its list's (4 inside worksheets)
        self.ended = False  # the cells are all read (or there were none)

    def to_cells(self) -> None:
        """Step to the first cell (past the ``[`` of ``"cells"``), keeping the metadata met on the way."""
        sc = self.sc
        if sc.peek() != 0x7B:
            raise corrupt(sc, "it is not a JSON object")
        sc.expect(b"{")
        stopped = self._keys(stop=("cells", "worksheets"), keep=True)
        if stopped == "cells":
            return
        if stopped == "worksheets":
            self.ended = not self._worksheet(first=True)  # no worksheet with cells: an empty notebook
            return
        version = self.meta.get("nbformat", "?")
        # the fix names no --lines read: a notebook's --lines are its cells' text, which there is none of here
        raise Unsupported(f"{self.name} has no list of cells (nbformat {version})",
                          f"{'an older' if version in (1, 2, 3) else 'not an nbformat 4'} notebook: "
                          f"`jupyter nbconvert --to notebook --output new.ipynb {shlex.quote(self.name)}` writes it "
                          "as nbformat 4, "
                          "which boundread reads cell by cell")

    def _keys(self, stop: tuple[str, ...] = (), keep: bool = False) -> str | None:
        """Read an object's keys to its ``}`` (consumed); a key of ``stop`` whose value is a list stops there,
        past the ``[``, and is returned. ``keep``: the top level, whose ``metadata`` and ``nbformat`` are kept."""
        sc = self.sc
        while sc.peek() != 0x7D:
            if sc.peek() == 0x2C:
                sc.expect(b",")
            key = sc.token()
            if not isinstance(key, Str):
                raise corrupt(sc, "an object key that is not a string")
            sc.expect(b":")
            if key.text in stop and sc.peek() == 0x5B:
                sc.expect(b"[")
                return key.text
            if keep and key.text in ("metadata", "nbformat"):
                self.meta[key.text] = Loader(sc, 256, _HEAD_BUDGET).value(1)
            else:
                sc.skip_value(1)
        sc.expect(b"}")
        return None

    def _worksheet(self, first: bool) -> bool:
        """Into the next worksheet's list of cells (after a ``[`` or the ``,`` between worksheets); False when
        the list of worksheets ended (its ``]`` consumed). A worksheet without cells is stepped over."""
        sc = self.sc
        self.legacy, self.depth = True, 4
        while True:
            tok = sc.token()
            if tok == "]" and first:
                return False
            if tok == "," and not first:
                tok = sc.token()
            if tok != "{":
                raise corrupt(sc, "expected a worksheet")
            first = False
            if self._keys(stop=("cells",)) == "cells":
                return True
            if sc.peek() == 0x5D:
                sc.expect(b"]")
                return False

    def _cells_ended(self) -> bool:
        """At a worksheet's ``]`` (consumed): True when another worksheet's cells follow."""
        if not self.legacy:
            return False
        self._keys()  # the rest of this worksheet, to its }
        if self.sc.peek() == 0x5D:
            self.sc.expect(b"]")
            return False
        return self._worksheet(first=False)

    def after_cells(self) -> None:
        """The keys after the cells (Jupyter writes ``metadata`` there), once ``each`` has run to the end."""
        self._keys(keep=True)

    def each(self) -> Iterator[int]:
        """Cell numbers from 1; at each the caller reads or skips one value (the cell)."""
        sc = self.sc
        number = 0
        while not self.ended:
            if sc.peek() == 0x5D:
                sc.expect(b"]")
                self.ended = not self._cells_ended()
                continue
            while True:
                number += 1
                yield number
                tok = sc.token()
                if tok == "]":
                    break
                if tok != ",":
                    raise corrupt(sc, "expected ',' or ']' after a cell")
            self.ended = not self._cells_ended()

    def cell(self, loader: Loader) -> dict[str, object]:
        """The cell at the scanner, loaded within the loader's bounds, in nbformat 4's shape."""
        data = loader.value(self.depth)
        if not isinstance(data, dict):
            return {}
        return as_v4(data) if self.legacy else data

    def count(self) -> int:
        self.to_cells()
        total = 0
        while not self.ended:
            if self.sc.peek() == 0x5D:
                self.sc.expect(b"]")
            else:
                total += self.sc.skip_elements(None, self.depth)[0]
            self.ended = not self._cells_ended()
        return total


def _language(meta: dict[str, object]) -> str | None:
    inner = meta.get("metadata")
    if not isinstance(inner, dict):
        return None
    for key, field in (("language_info", "name"), ("kernelspec", "language")):
        part = inner.get(key)
        if isinstance(part, dict) and isinstance(part.get(field), str):
            return str(part[field])
    return None


def info(src: Source, req: Request) -> Details:
    seconds = req.limits.timeout
    deadline = Deadline(None if seconds is None else seconds * 0.9)  # ours first: partial figures, not an error
    kinds: dict[str, int] = {}
    outputs = chars = 0
    tally = Tally()
    partial = False
    with src.open() as fh:
        nb = Notebook(fh, deadline, src.name)
        try:
            nb.to_cells()
            for number in nb.each():
                data = nb.cell(Loader(nb.sc, 64, 64 * 1024))
                cell = Cell(number, 0, data, tally)
                kinds[cell.kind] = kinds.get(cell.kind, 0) + 1
                got = data.get("outputs")
                outputs += len(got) if isinstance(got, list) else 0
                chars += sum(len(chunk) for chunk in cell.chunks())  # a cut source or output: its shown part
            nb.after_cells()
        except OutOfTime:
            partial = True
    total = sum(kinds.values())
    fields: dict[str, object] = {"cells": total, **{f"{k}_cells": n for k, n in sorted(kinds.items())},
                                 "outputs": outputs, "outputs_summarised": tally.summarised,
                                 "language": _language(nb.meta), "nbformat": nb.meta.get("nbformat")}
    details = Details(fields=fields, est_chars=chars, estimated=True)
    if partial:
        details.warnings.append(f"counted the first {total:,} cells only: the time limit came first "
                                "(raise --timeout for the whole count)")
    if total:
        details.next = [("pages", FILE, f"1-{min(10, total)}"), ("extract", FILE)]
    return details


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    outcome = Outcome(unit="cells")
    try:
        with src.open() as fh:
            total = Notebook(fh, sink.deadline, src.name).count()
    except OutOfTime:
        sink.expire()
        outcome.done = "no cells: the time limit came while counting them"
        return outcome
    chosen, outcome.warnings = parts.select(req, total, src.name, "cell", "notebook")
    wanted, last = set(chosen), (chosen[-1] if chosen else 0)
    tally = Tally()
    written: list[int] = []
    cut: int | None = None
    with src.open() as fh:
        nb = Notebook(fh, sink.deadline, src.name)
        try:
            nb.to_cells()
            for number in nb.each():
                if number > last:
                    break
                if number not in wanted:
                    nb.sc.skip_value(nb.depth)
                    continue
                cell = Cell(number, total, nb.cell(Loader(nb.sc, CAP, BUDGET)), tally)
                if not all(sink.write(chunk) for chunk in cell.chunks()):
                    cut = number
                    break
                written.append(number)
                if sink.full:
                    break
        except OutOfTime:
            sink.expire()
    return _finish(outcome, req, sink, total, chosen, written, cut, tally)


def _finish(outcome: Outcome, req: Request, sink: Sink, total: int, chosen: list[int], written: list[int],
            cut: int | None, tally: Tally) -> Outcome:
    outcome.totals = {"cells": total}
    outcome.done = (f"cells {written[0]}-{written[-1]} of {total}" if written and written[-1] - written[0] + 1 ==
                    len(written) else f"{len(written)} cells of {total}" if written else f"no cells of {total}")
    rest = [n for n in chosen if n > (written[-1] if written else 0)]
    if cut is not None:
        outcome.done += f" (cell {cut} cut)"
    if sink.filtering:
        outcome.resume = lines_on(req, sink)  # at the next line of these cells (None: the engine's own)
    elif rest and (cut is not None or len(written) < len(chosen)):
        window = max(len(written), 1) if req.pages else 10
        outcome.resume = ("pages", FILE, f"{rest[0]}-{min(total, rest[0] + window - 1)}")
    elif req.pages and written and written[-1] < total:
        start = written[-1] + 1
        outcome.resume = ("pages", FILE, f"{start}-{min(total, start + len(written) - 1)}")
    if tally.summarised:
        outcome.warnings.append(f"{_n(tally.summarised, 'non-text output')} summarised as [type size], not shown "
                                "(images, HTML beside its plain text...)")
    if tally.cut_outputs:
        outcome.warnings.append(f"{_n(tally.cut_outputs, 'output')} longer than {MAX_OUTPUT:,} characters cut: "
                                "each says its full size")
    if tally.unread:
        words = _n(tally.unread, "source or output", "sources or outputs")
        outcome.warnings.append(f"{words} longer than is kept of one cell ({CAP >> 10} KiB a string, "
                                f"{BUDGET >> 20} MiB a cell) cut: each says its size")
    return outcome



def _n(count: int, one: str, many: str | None = None) -> str:
    return f"{count:,} {one if count == 1 else many or one + 's'}"
