"""A TEXT cell of a rowid table is read by its start (incremental BLOB I/O), not loaded whole by SQLite to be cut:
a 50 MB cell costs the process next to nothing; ``--sql``, a view and a WITHOUT ROWID table still cut in SQL,
which loads the cell, and a read that did so for a big cell says it. Cells are the same text either way."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from tests.formats.sqlite_fixtures import source

from boundread.contract.model import Request
from boundread.contract.sink import Sink
from boundread.formats.database import handler, longtext
from boundread.limits import Limits

pytestmark = pytest.mark.skipif(not hasattr(sqlite3.Connection, "blobopen"),
                                reason="incremental BLOB I/O (Connection.blobopen) is Python 3.11+")


def _db(path: Path, rows: list[tuple[object, ...]], *, encoding: str = "UTF-8", extra: str = "") -> Path:
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA encoding = '{encoding}'")
    conn.execute("CREATE TABLE docs(id INTEGER PRIMARY KEY, title TEXT, body TEXT, data BLOB)")
    conn.executemany("INSERT INTO docs VALUES (?, ?, ?, ?)", rows)
    if extra:
        conn.executescript(extra)
    conn.commit()
    conn.close()
    return path


def _read(path: Path, **request: object) -> tuple[str, list[str]]:
    sink = Sink(Limits())
    outcome = handler.extract(source(path), Request(**request), sink)  # type: ignore[arg-type]
    return sink.text(), outcome.warnings


_PEAK = """
import json, resource, sys
from boundread import api
api.sheets(sys.argv[1], "docs", rows="2-2", stdout=True)  # the modules loaded, a small row read
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
result = api.sheets(sys.argv[1], "docs", rows="1-1", stdout=True)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"grown_kb": after - before, "text": result.text}))
"""


def test_a_50_mb_text_cell_costs_next_to_nothing(tmp_path: Path) -> None:
    path = _db(tmp_path / "big.db", [(1, "t1", "B" * 50_000_000, b"x"), (2, "t2", "short", b"y")])
    done = subprocess.run([sys.executable, "-c", _PEAK, str(path)], capture_output=True, text=True, check=True,
                          timeout=300)
    got = json.loads(done.stdout)
    assert got["grown_kb"] < 10_000, got["grown_kb"]  # substr() in SQL: ~50,000 kB more
    assert "B" * 2000 + "... [50,000,000 bytes, cut]" in got["text"]


@pytest.mark.parametrize("encoding", ["UTF-8", "UTF-16le", "UTF-16be"])
def test_cells_are_the_text_the_sql_cut_gives(tmp_path: Path, encoding: str) -> None:
    rows = [(1, "é" * 1999 + "€", "ü" * 100_000, b"\0" * 10), (2, "short", "x" * 3000, None),
            (3, None, "日本" * 50_000, b""), (4, "", "a" * (longtext.WHOLE + 10), b"z")]
    path = _db(tmp_path / "cells.db", rows, encoding=encoding)
    text, warnings = _read(path)
    got = list(csv.reader(io.StringIO(text.split("\n", 2)[2])))
    # ü is 2 bytes in UTF-8 and in UTF-16 alike: the size of a cell read by its start is its bytes
    assert got[0] == ["1", "é" * 1999 + "€", "ü" * 2000 + "... [200,000 bytes, cut]", "[blob 10 B]"]
    assert got[1] == ["2", "short", "x" * 2000 + "... [3,000 chars, cut]", ""]  # short enough to read whole: counted
    assert got[2][:2] == ["3", ""] and got[2][2].startswith("日本" * 1000 + "... [") and got[2][3] == "[blob 0 B]"
    assert got[3][2].startswith("a" * 2000 + "... [") and got[3][2].endswith(" bytes, cut]")
    assert any("4 TEXT cells longer than 2,000 chars" in w for w in warnings), warnings
    sql, _ = _read(path, sql="SELECT * FROM docs")
    cut = [[cell.split("... [")[0] for cell in row] for row in csv.reader(io.StringIO(sql.split("\n", 1)[1]))]
    assert cut == [[cell.split("... [")[0] for cell in row] for row in got]  # the same text, whatever the reader


def test_bad_utf8_in_a_long_cell_is_shown_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "bad.db"
    _db(path, [(1, "t", "x", None)])
    conn = sqlite3.connect(path)
    conn.execute("UPDATE docs SET body = CAST(? AS TEXT) WHERE id = 1", (b"ok \xff" + b"y" * 100_000,))
    conn.commit()
    conn.close()
    text, warnings = _read(path)
    assert "ok \ufffdyyy" in text and any("not UTF-8" in w for w in warnings)


def test_a_view_and_sql_say_what_their_cut_cost(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boundread.formats.database import cells

    monkeypatch.setattr(cells, "LOADED", 100_000)
    path = _db(tmp_path / "v.db", [(1, "t", "q" * 200_000, None)], extra="CREATE VIEW v AS SELECT body FROM docs;")
    for request in ({"sheets": ("v",)}, {"sql": "SELECT body FROM docs"}):
        text, warnings = _read(path, **request)
        assert "... [200,000 chars, cut]" in text
        assert any("SQLite read a TEXT cell of 200,000 chars whole" in w for w in warnings), warnings
    _, table = _read(path, sheets=("docs",))
    assert not any("whole to cut it" in w for w in table)  # read by its start
