"""Arrow IPC files (Feather v2): ``ARROW1`` at both ends. ``info`` gives the schema, the record batches and the
rows (each batch's row count read from its message; a memory-mapped batch is not copied, a compressed one is
decompressed); ``extract``/``sheets`` read it as one sheet named after the file, ``--rows A-B`` converting only
the batches that hold those rows. pyarrow is the ``boundread[parquet]`` extra, as for Parquet.
"""

from __future__ import annotations

from typing import Any

from boundread.contract.model import Details, Outcome, Request, Source
from boundread.contract.sink import Sink
from boundread.errors import Corrupt, Unsupported
from boundread.formats.columnar import cells, footer
from boundread.formats.columnar.handler import LISTED_COLUMNS, _check_sheet, _step, head, sheet_name

KINDS: tuple[str, ...] = ("arrow",)
MAGIC = b"ARROW1"


def _frame(src: Source) -> None:
    size = src.size
    with src.open() as stream:
        head = stream.read(8)
        stream.seek(max(size - 10, 0))
        tail = stream.read(10)
    if size < 18 or head[:6] != MAGIC or tail[4:] != MAGIC:
        raise Corrupt(f"{src.name}: no ARROW1 at both ends (truncated, or an Arrow stream, not a file)",
                      "copy the file again, or write it with pyarrow.feather.write_feather")
    length = int.from_bytes(tail[:4], "little", signed=True)
    if length <= 0 or length + 18 > size:
        raise Corrupt(f"{src.name}: the footer claims {length:,} bytes but the file holds {size:,}",
                      "the file is truncated or damaged: copy it again")


def _open(src: Source) -> Any:
    _frame(src)
    try:
        import pyarrow as pa
        import pyarrow.ipc as ipc
    except ImportError:
        raise Unsupported(f"{src.name}: reading Arrow needs pyarrow, which is not installed", footer.EXTRA) from None
    try:
        source: Any = pa.memory_map(str(src.path)) if src.path is not None else pa.BufferReader(src.data or b"")
        return ipc.open_file(source)
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise _damaged(src, exc) from None


def _damaged(src: Source, exc: BaseException) -> Corrupt:
    words = " ".join(str(exc).split())[:200]
    return Corrupt(f"{src.name}: damaged Arrow file ({words})", "copy the file again, or re-export it")


def _counts(src: Source, reader: Any) -> list[int]:
    try:
        return [reader.get_batch(i).num_rows for i in range(reader.num_record_batches)]
    except (ValueError, OSError, RuntimeError) as exc:
        raise _damaged(src, exc) from None


def info(src: Source, req: Request) -> Details:
    try:
        reader = _open(src)
    except Unsupported as exc:
        details = Details(fields={"magic": "ARROW1 at both ends"})
        details.warnings.append(f"schema and rows not read: pyarrow is not installed ({exc.fix})")
        return details
    counts = _counts(src, reader)
    names = list(reader.schema.names)
    rows = sum(counts)
    details = Details(fields={"magic": "ARROW1 at both ends", "rows": rows, "record_batches": len(counts),
                              "columns": len(names),
                              "schema": ", ".join(f"{f.name} {f.type}" for f in list(reader.schema)[:LISTED_COLUMNS]),
                              "sheets": [{"index": 1, "name": sheet_name(src), "rows": rows, "cols": len(names),
                                          "hidden": False, "state": "visible", "type": None,
                                          "columns": names[:LISTED_COLUMNS]}]})
    details.next.append(_step(sheet_name(src), 1, 50))
    return details


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    reader = _open(src)
    _check_sheet(src, req)
    counts = _counts(src, reader)
    total = sum(counts)
    outcome = Outcome(unit="rows", totals={"rows": total, "record_batches": len(counts)})
    shown, fmt, first, last, width = head(src, req, list(reader.schema.names), total, outcome, sink)
    name = sheet_name(src)
    written, start, found = 0, 1, cells.Texts()
    for i, count in enumerate(counts):
        end = start + count - 1
        if count and end >= first + written and start <= last:
            try:
                batch = reader.get_batch(i).select(shown)
            except (ValueError, OSError, RuntimeError) as exc:
                raise _damaged(src, exc) from None
            at = first + written - start
            got = cells.texts(batch.slice(at, min(count - at, last - first + 1 - written)))
            found.cut += got.cut
            for row in got.rows:
                if not sink.write(fmt.line(row)):
                    break
                written += 1
        start = end + 1
        if sink.full or start > last:
            break
    outcome.warnings.extend(cells.warnings(found, parquet=False))  # mapped: a string's pages past its start unread
    done_to = first + written - 1
    outcome.done = f"rows {first:,}-{done_to:,} of {total:,}" if written else f"no rows from {first:,}"
    if done_to < total and last >= first:
        if (req.rows is None or req.rows.last - first + 1 > width) and written == width:
            outcome.truncated.append(f"max_rows {req.limits.max_rows} reached")
        outcome.resume = _step(name, done_to + 1, done_to + width)
    return outcome
