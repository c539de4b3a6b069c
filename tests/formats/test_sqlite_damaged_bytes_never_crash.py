"""Bytes damaged anywhere in a database never raise anything but boundread's own errors, and what is written stays
within the bounds (hypothesis: a small generated database with runs of its bytes overwritten)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.formats.sqlite_fixtures import source

from boundread.contract.model import Request
from boundread.contract.sink import Sink
from boundread.errors import BoundreadError
from boundread.formats.database import handler
from boundread.limits import Limits


def _pristine(folder: Path) -> bytes:
    db = folder / "seed.db"
    if not db.exists():
        conn = sqlite3.connect(db)
        conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT, b BLOB)")
        conn.executemany("INSERT INTO t VALUES (?, ?, ?)", ((n, "w" * (n % 300), b"\1" * (n % 5000))
                                                            for n in range(400)))
        conn.execute("CREATE INDEX ts ON t(s)")
        conn.execute("CREATE VIEW v AS SELECT s FROM t")
        conn.commit()
        conn.close()
    return db.read_bytes()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(at=st.integers(min_value=16, max_value=200_000), run=st.integers(min_value=1, max_value=6000),
       fill=st.binary(min_size=1, max_size=4))
def test_damage_anywhere_is_an_error_or_a_bounded_read(tmp_path: Path, at: int, run: int, fill: bytes) -> None:
    data = bytearray(_pristine(tmp_path))
    at %= len(data)
    data[at:at + run] = (fill * run)[:len(data[at:at + run])]
    db = tmp_path / "hurt.db"
    db.write_bytes(bytes(data))
    limits = Limits(max_rows=50, max_chars=5000, timeout=5)
    for req in (Request(limits=limits), Request(limits=limits, sql="SELECT s, b FROM t WHERE id > 10")):
        sink = Sink(limits)
        try:
            handler.info(source(db), req)
            handler.extract(source(db), req, sink)
        except BoundreadError as exc:
            assert "\n" not in exc.what
        assert sink.chars <= limits.max_chars
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hurt.db", "seed.db"]
