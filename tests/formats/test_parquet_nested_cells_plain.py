"""A struct, list or map cell of a Parquet or Arrow file shows what it holds plainly: dates and times in
ISO 8601, bytes by their size, decimals as numbers - not Python's reprs (``datetime.datetime(1970, 1, 1, 0, 0,
tzinfo=zoneinfo.ZoneInfo(key='UTC'))``, ``Decimal('1.50')``, ``b'\\x00...'``), which cost tokens and say nothing
more (tests/realfiles/parquet-nested_structs.rust.parquet printed them)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pyarrow as pa

from boundread.formats.columnar import cells


def test_a_struct_of_times_decimals_and_bytes_reads_plainly() -> None:
    stamp = dt.datetime(2024, 5, 6, 7, 8, 9, tzinfo=dt.timezone.utc)
    struct = pa.array([{"when": stamp, "day": dt.date(2024, 5, 6), "price": Decimal("1.50"), "raw": b"\x00" * 40,
                        "name": "it's"}],
                      type=pa.struct([("when", pa.timestamp("us", tz="UTC")), ("day", pa.date32()),
                                      ("price", pa.decimal128(5, 2)), ("raw", pa.binary()), ("name", pa.string())]))
    listed = pa.array([[dt.date(2024, 1, 2), None]], type=pa.list_(pa.date32()))
    mapped = pa.array([[("k", dt.time(1, 2, 3))]], type=pa.map_(pa.string(), pa.time64("us")))
    found = cells.texts(pa.RecordBatch.from_arrays([struct, listed, mapped], names=["s", "l", "m"]))
    row = found.rows[0]
    assert row[0] == ("{'when': '2024-05-06T07:08:09+00:00', 'day': '2024-05-06', 'price': '1.50', "
                      "'raw': '[binary 40 bytes]', 'name': \"it's\"}")
    assert row[1] == "['2024-01-02', None]"
    assert row[2] == "[['k', '01:02:03']]"
    assert not any(word in "".join(row) for word in ("datetime.", "Decimal(", "b'\\x00"))


def test_plain_scalars_are_printed_as_before() -> None:
    batch = pa.RecordBatch.from_arrays([pa.array([dt.datetime(2024, 5, 6, 7, 8)]), pa.array([1.5])], names=["t", "f"])
    assert cells.texts(batch).rows == [["2024-05-06 07:08:00", "1.5"]]
