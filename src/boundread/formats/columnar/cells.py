"""A Parquet or Arrow batch's cells as bounded text, cut in Arrow before Python sees them.

A string's size comes from the array's offsets (``binary_length``: no string is read) and only its first
CELL_CHARS characters are copied out (``utf8_slice_codeunits`` walks no further): a 50 MB string in a
memory-mapped Arrow file costs its first few kB, not 50 MB of pages (``utf8_length`` walked them all). A list
keeps its first CELL_ITEMS items before Python builds them. Parquet cannot do as well: a value is stored whole
in one page, which is decompressed and decoded whole, so a read of the row that holds a 50 MB string takes about
two to three times that, however little of it is shown; a read that cut a string over DECODED bytes says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CELL_CHARS = 2_000  # a string cell's characters shown
CELL_ITEMS = 100  # a list cell's items shown
DECODED = 1 << 24  # bytes of a cut string or binary past which a Parquet read says what it decoded (16 MB)


@dataclass
class Texts:
    rows: list[list[str]] = field(default_factory=list)
    cut: int = 0  # cells cut
    biggest: int = 0  # bytes of the largest string or binary cell


def texts(batch: Any) -> Texts:
    """The batch's rows as cell texts; strings cut to CELL_CHARS, binaries shown as their size, lists to their
    first CELL_ITEMS items."""
    import pyarrow as pa
    import pyarrow.compute as pc

    out = Texts()
    columns: list[list[str]] = []
    for column in batch.columns:
        kind = column.type
        if pa.types.is_string(kind) or pa.types.is_large_string(kind):
            columns.append(_strings(pc.binary_length(column).to_pylist(),
                                    pc.utf8_slice_codeunits(column, 0, CELL_CHARS).to_pylist(), out))
        elif pa.types.is_binary(kind) or pa.types.is_large_binary(kind) or pa.types.is_fixed_size_binary(kind):
            sizes = pc.binary_length(column).to_pylist()
            out.biggest = max([out.biggest, *(n for n in sizes if n is not None)])
            columns.append(["" if n is None else f"[binary {n:,} bytes]" for n in sizes])
        elif pa.types.is_list(kind) or pa.types.is_large_list(kind):
            counts = pc.list_value_length(column).to_pylist()
            values = pc.list_slice(column, 0, CELL_ITEMS).to_pylist()
            columns.append([_shown(value, out, None if n is None or n <= CELL_ITEMS else n)
                            for value, n in zip(values, counts, strict=True)])
        else:
            columns.append([_shown(value, out) for value in _values(column)])
    out.rows = [list(row) for row in zip(*columns, strict=True)]
    return out


def _values(column: Any) -> list[object]:
    """The column's values as Python builds them; a value Python cannot hold (a timestamp past year 9999, in a
    struct or not) is shown as its raw number, value by value, instead of failing the read."""
    import pyarrow as pa

    try:
        values: list[object] = column.to_pylist()
    except (OverflowError, ValueError, pa.ArrowException):
        return [_scalar(column[i]) for i in range(len(column))]
    return values


def _scalar(value: Any) -> object:
    import pyarrow as pa

    try:
        return value.as_py()
    except (OverflowError, ValueError, pa.ArrowException):
        pass
    kind = value.type
    if pa.types.is_struct(kind):
        return {field.name: _scalar(value[field.name]) for field in kind}
    if pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_fixed_size_list(kind):
        return [_scalar(item) for item in value.values] if value.values is not None else None
    return f"<{kind} out of range: {getattr(value, 'value', '?')}>"


def _strings(sizes: list[int | None], values: list[str | None], out: Texts) -> list[str]:
    shown = []
    for value, size in zip(values, sizes, strict=True):
        if value is None or size is None:
            shown.append("")
        elif size > CELL_CHARS and len(value.encode("utf-8")) < size:  # bytes beyond the characters kept
            out.cut += 1
            out.biggest = max(out.biggest, size)
            shown.append(f"{value}... [{size:,} bytes]")
        else:
            shown.append(value)
    return shown


def _shown(value: object, out: Texts, items: int | None = None) -> str:
    """Any other value as text, cut to CELL_CHARS; ``items``: a list's whole length when it was sliced. What a
    struct, list or map holds is shown plainly (``{'min': '1970-01-01T00:00:00+00:00'}``), not as Python's repr
    of a datetime, Decimal or bytes; single quotes, as JSON's double ones would all be doubled in a CSV cell."""
    text = "" if value is None else str(_plain(value)) if isinstance(value, (dict, list, tuple)) else str(value)
    if items is not None or len(text) > CELL_CHARS:
        out.cut += 1
        whole = f"{items:,} items" if items is not None else f"{len(text):,} characters"
        text = f"{text[:CELL_CHARS]}... [{whole}]"
    return text


def _plain(value: object) -> object:
    """``value`` with what it holds made plain: a date or time in ISO 8601, bytes by their size, a Decimal or a
    duration as Python prints it; str, numbers, bools and None as they are."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if value is None or isinstance(value, (str, int, float)):
        return value
    if isinstance(value, (bytes, bytearray)):
        return f"[binary {len(value):,} bytes]"
    iso = getattr(value, "isoformat", None)
    return iso() if callable(iso) else str(value)


def warnings(found: Texts, parquet: bool) -> list[str]:
    said = [f"{found.cut:,} cells cut at {CELL_CHARS:,} characters"] if found.cut else []
    if parquet and found.biggest > DECODED:
        from boundread.units import human_bytes

        said.append(f"a cell of {human_bytes(found.biggest)} was decoded whole to show its start (Parquet keeps a "
                    "value whole in one page): reading its rows takes about that much memory, twice or more")
    return said
