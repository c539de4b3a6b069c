"""Parquet: ``info`` gives the schema, the row groups and the row count from the footer, reading no data;
``extract``/``sheets`` read the file as a workbook of one sheet named after the file, rows in file order, and
``--rows A-B`` decodes only the row groups that hold those rows, a batch at a time.

pyarrow is the optional extra ``boundread[parquet]``: without it ``info`` still names the file from its frame
(``footer``) and ``extract`` exits 4 naming the install.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import TYPE_CHECKING, Any, NamedTuple

from boundread.contract.model import FILE, Details, Outcome, Request, Source, Suggestion
from boundread.contract.sink import Sink
from boundread.errors import Corrupt, Unsupported, UsageError
from boundread.formats._rows import RowFormatter
from boundread.formats.columnar import cells, footer

if TYPE_CHECKING:
    import pyarrow.parquet as pq

KINDS: tuple[str, ...] = ("parquet",)
BATCH = 1_024  # rows decoded at once at most
BATCH_BYTES = 1 << 24  # ... and about this many bytes of them, by the row groups' uncompressed size
LISTED_GROUPS = 20
LISTED_COLUMNS = 50


def sheet_name(src: Source) -> str:
    return PurePath(src.name).stem or "parquet"


def _open(src: Source, frame: footer.Frame) -> pq.ParquetFile:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise Unsupported(f"{src.name}: reading Parquet needs pyarrow, which is not installed",
                          footer.EXTRA) from None
    try:
        source: Any = str(src.path) if src.path is not None else pa.BufferReader(src.data or b"")
        return pq.ParquetFile(source, memory_map=src.path is not None)
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise _damaged(src, exc) from None


def _damaged(src: Source, exc: BaseException) -> Corrupt:
    words = " ".join(str(exc).split())[:200]
    return Corrupt(f"{src.name}: damaged Parquet footer or data ({words})", "copy the file again, or re-export it")


def _groups(src: Source, pf: pq.ParquetFile, frame: footer.Frame) -> list[int]:
    """Rows of each row group, checked: a footer whose counts or offsets lie is Corrupt, not a wrong answer."""
    meta = pf.metadata
    data_end = frame.size - frame.footer - 8
    rows: list[int] = []
    for i in range(meta.num_row_groups):
        group = meta.row_group(i)
        if group.num_rows < 0:
            raise Corrupt(f"{src.name}: row group {i + 1} claims {group.num_rows} rows", "re-export the file")
        for j in range(group.num_columns):
            chunk = group.column(j)
            start = chunk.dictionary_page_offset or chunk.data_page_offset
            if start < 4 or start + chunk.total_compressed_size > data_end:
                raise Corrupt(f"{src.name}: row group {i + 1} column {j + 1} lies past the data "
                              f"(bytes {start:,}+{chunk.total_compressed_size:,} of {data_end:,})",
                              "the footer is damaged: re-export the file")
        rows.append(group.num_rows)
    if sum(rows) != meta.num_rows:
        raise Corrupt(f"{src.name}: the footer says {meta.num_rows:,} rows, its row groups {sum(rows):,}",
                      "the footer is damaged: re-export the file")
    return rows


def info(src: Source, req: Request) -> Details:
    frame = footer.frame(src)
    fields: dict[str, Any] = {"magic": "PAR1 at both ends", "footer_bytes": frame.footer}
    try:
        pf = _open(src, frame)
    except Unsupported as exc:
        details = Details(fields=fields, est_chars=None)
        details.warnings.append(f"schema and rows not read: pyarrow is not installed ({exc.fix})")
        return details
    try:
        rows = _groups(src, pf, frame)
        meta = pf.metadata
        schema = pf.schema_arrow
    except (ValueError, OSError, RuntimeError) as exc:
        raise _damaged(src, exc) from None
    names = list(schema.names)
    fields.update({"rows": meta.num_rows, "row_groups": len(rows), "columns": len(names),
                   "created_by": meta.created_by,
                   "schema": ", ".join(f"{f.name} {f.type}" for f in list(schema)[:LISTED_COLUMNS]),
                   "row_group_rows": rows[:LISTED_GROUPS],
                   "sheets": [{"index": 1, "name": sheet_name(src), "rows": meta.num_rows, "cols": len(names),
                               "hidden": False, "state": "visible", "type": None,
                               "columns": names[:LISTED_COLUMNS]}]})
    details = Details(fields=fields, est_chars=_est_chars(meta), estimated=True)
    if len(names) > LISTED_COLUMNS:
        details.warnings.append(f"{len(names):,} columns: the first {LISTED_COLUMNS} listed in the schema")
    if len(rows) > LISTED_GROUPS:
        details.warnings.append(f"{len(rows):,} row groups: the rows of the first {LISTED_GROUPS} listed")
    details.next.append(_step(sheet_name(src), 1, 50))
    return details


def _est_chars(meta: Any) -> int:
    """Characters of the rows as CSV, guessed from the uncompressed size (about one character a byte)."""
    return int(sum(meta.row_group(i).total_byte_size for i in range(min(meta.num_row_groups, 100_000))))


def _window(req: Request) -> tuple[int, int]:
    first = max(req.rows.first, 1) if req.rows else 1
    width = min(req.rows.last - first + 1, req.limits.max_rows) if req.rows else req.limits.max_rows
    return first, max(width, 1)


def _check_sheet(src: Source, req: Request) -> None:
    name = sheet_name(src)
    for want in req.sheets:
        if want not in (name, "1") and want.lower() != name.lower():
            raise UsageError(f"no sheet named {want!r}: a Parquet file is one sheet, {name!r}",
                             f"`boundread sheets FILE {name} --rows A-B`")


class Head(NamedTuple):
    shown: list[str]  # the columns --max-cols shows
    fmt: RowFormatter
    first: int  # the first row asked for
    last: int  # the last row asked for that the file has
    width: int  # rows a read takes at most


def head(src: Source, req: Request, names: list[str], total: int, outcome: Outcome, sink: Sink) -> Head:
    """The sheet marker and the column names (those --max-cols shows, a warning for the rest) of a read of
    rows, and what the read needs."""
    shown = names[:max(req.limits.max_cols, 1)]
    if len(names) > len(shown):
        outcome.warnings.append(f"columns after {len(shown)} not shown (raise --max-cols)")
    first, width = _window(req)
    last = min(first + width - 1, total)
    fmt = RowFormatter(req.fmt, len(shown))
    span = f"rows {first}-{last} of {total}" if last >= first else f"no rows from {first:,} of {total:,}"
    sink.write(f"--- sheet '{sheet_name(src)}' ({span}, file order) ---\n")
    sink.write(fmt.line(shown))
    return Head(shown, fmt, first, last, width)


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    frame = footer.frame(src)
    pf = _open(src, frame)
    _check_sheet(src, req)
    outcome = Outcome(unit="rows")
    rows = _groups(src, pf, frame)
    total = sum(rows)
    outcome.totals["rows"] = total
    outcome.totals["row_groups"] = len(rows)
    shown, fmt, first, last, width = head(src, req, list(pf.schema_arrow.names), total, outcome, sink)
    name = sheet_name(src)
    if last < first:
        outcome.done = f"no rows from {first:,} ({total:,} rows)"
        return outcome
    wanted, skip = _needed(rows, first, last)
    written, found = 0, cells.Texts()
    try:
        batches = pf.iter_batches(batch_size=_batch_rows(pf, wanted), row_groups=wanted, columns=shown,
                                  use_threads=False)
        for batch in batches:
            if skip >= batch.num_rows:
                skip -= batch.num_rows
                continue
            batch = batch.slice(skip, min(batch.num_rows - skip, last - first + 1 - written))
            skip = 0
            got = cells.texts(batch)
            found.cut += got.cut
            found.biggest = max(found.biggest, got.biggest)
            for row in got.rows:
                if not sink.write(fmt.line(row)):
                    break
                written += 1
            if sink.full or written >= last - first + 1:
                break
    except (ValueError, OSError, RuntimeError) as exc:
        raise _damaged(src, exc) from None
    outcome.warnings.extend(cells.warnings(found, parquet=True))
    end = first + written - 1
    outcome.done = f"rows {first:,}-{end:,} of {total:,} (row groups {wanted[0] + 1}-{wanted[-1] + 1} read)" \
        if written else f"no rows from {first:,}"
    if end < total:
        if (req.rows is None or req.rows.last - first + 1 > width) and written == width:
            outcome.truncated.append(f"max_rows {req.limits.max_rows} reached")  # the bound ended it, not the range
        outcome.resume = _step(name, end + 1, end + width)
    return outcome


def _batch_rows(pf: pq.ParquetFile, groups: list[int]) -> int:
    """Rows a batch decodes: BATCH, fewer where the row groups read are wide (about BATCH_BYTES uncompressed)."""
    meta = pf.metadata
    size = int(sum(meta.row_group(i).total_byte_size for i in groups))
    count = int(sum(meta.row_group(i).num_rows for i in groups))
    per_row = max(size // max(count, 1), 1)
    return max(1, min(BATCH, BATCH_BYTES // per_row))


def _step(name: str, first: int, last: int) -> Suggestion:
    return ("sheets", FILE, name, "--rows", f"{first}-{last}")


def _needed(rows: list[int], first: int, last: int) -> tuple[list[int], int]:
    """The row groups holding rows first..last (1-based) and the rows to skip in the first of them."""
    wanted: list[int] = []
    skip = 0
    start = 1
    for i, count in enumerate(rows):
        end = start + count - 1
        if count and end >= first and start <= last:
            if not wanted:
                skip = first - start
            wanted.append(i)
        start = end + 1
        if start > last:
            break
    return wanted, skip
