"""Redirect mode on a file read by its structure (hook/shapes.py): a whole Read of a big JSON file, JSON Lines, a
SQLite database or a Parquet file gets its shape as ``info`` prints it and its first part (the biggest array's
elements, the first records, the first table's rows), with the command that goes on - not its first lines, which
a one-line JSON does not have and a database's bytes are not."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from boundread.hook import slices
from tests.hook.test_redirect import claude_read
from tests.hook.test_redirect_parts import RULE, ran, redirected


@pytest.fixture(autouse=True)
def _out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("BOUNDREAD_GUARD_MODE", "BOUNDREAD_OUT_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    out = tmp_path / "out"
    monkeypatch.setenv("BOUNDREAD_OUT_DIR", str(out))
    return out


def sliced(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """(the slice's header, its body) for a whole Read of ``path`` in redirect mode."""
    body = redirected(claude_read(path, path.parent), capsys)
    slice_file = Path(body["updatedInput"]["file_path"])
    assert slice_file != path and set(body["updatedInput"]) == {"file_path"}  # no range: the slice is the file
    text = slice_file.read_text(encoding="utf-8")
    assert len(text) <= slices.SLICE_CHARS
    head, _, rest = text.partition(RULE + "\n")
    return head, rest


def next_part(head: str) -> str:
    found = re.search(r"^Next part: (.*)$", head, re.M)
    assert found is not None, head
    return found.group(1)


def test_a_one_line_json_gets_its_shape_and_first_elements(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    items = [{"id": i, "name": f"item {i}", "tags": ["a", "b"]} for i in range(20_000)]
    path = tmp_path / "dump.json"
    path.write_text(json.dumps({"meta": {"version": 7}, "items": items}), encoding="utf-8")  # one line, 1 MB
    head, body = sliced(path, capsys)
    assert "its shape (what `boundread info` prints) and its first part" in head
    assert "type              object" in body and "items (array of 20,000)" in body and ".meta.version = 7" in body
    assert "--- its first part: " in body and "--path '.items[0:]'" in body
    shown = [int(n) for n in re.findall(r'"id": (\d+)', body)]
    assert shown == list(range(len(shown))) and len(shown) > 10
    command = next_part(head)
    assert f"--path '.items[{len(shown)}:]' --max-chars 19000 --stdout" in command
    more = ran(command, tmp_path)  # the agent's next call goes on where the slice stopped
    assert f'"id": {len(shown)},' in more and '"id": 0,' not in more
    assert re.search(r"^Other parts: .* --path \.meta ", head, re.M)


def test_json_lines_get_their_count_keys_and_first_records(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "events.jsonl"
    path.write_text("".join(json.dumps({"n": i, "msg": "m" * 40}) + "\n" for i in range(9000)), encoding="utf-8")
    head, body = sliced(path, capsys)
    assert "records              9,000" in body and "--rows 1-" in body
    records = [json.loads(line) for line in body.split(" ---\n", 1)[1].splitlines()]
    assert [r["n"] for r in records] == list(range(len(records)))
    assert f"--rows {len(records) + 1}-" in next_part(head)


def test_a_database_gets_its_tables_and_first_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "app.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, payload TEXT)")
        rows = ((n + 1, f"payload {n} " + "x" * 120) for n in range(5000))
        db.executemany("INSERT INTO events VALUES (?, ?)", rows)
    db.close()
    head, body = sliced(path, capsys)
    assert "SQLite database" in head and "events(id INTEGER PK, payload TEXT)" in body and "5,000" in body
    assert "sheets app.db events --rows 1- " in body and "1,payload 0 " in body
    command = next_part(head)
    assert re.search(r"sheets app\.db events --rows \d+-", command)
    first = int(re.search(r"--rows (\d+)-", command).group(1))  # type: ignore[union-attr]
    assert f"\n{first - 1},payload {first - 2} " in body and f"\n{first + 1},payload" not in body  # first: cut
    assert "--sql 'SELECT * FROM \"events\" LIMIT 20'" in head


def test_a_parquet_file_gets_its_schema_and_first_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pa = pytest.importorskip("pyarrow", reason="the parquet extra (pyarrow) reads Parquet")
    import pyarrow.parquet as pq

    path = tmp_path / "t.parquet"
    table = pa.table({"id": list(range(4000)), "text": [f"row {n} " + "t" * 80 for n in range(4000)]})
    pq.write_table(table, path, row_group_size=1000)
    head, body = sliced(path, capsys)
    assert "schema            id int64, text string" in body and "row groups        4" in body
    assert "\n0,row 0 " in body and re.search(r"sheets t\.parquet t --rows \d+-", next_part(head))


def test_damaged_json_keeps_the_first_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No shape to give: the Read gets the file's first lines, as any big text."""
    path = tmp_path / "broken.json"
    path.write_text("{\n" + "".join(f'  "k{i}": [1, 2,\n' for i in range(30_000)), encoding="utf-8")
    body = redirected(claude_read(path, tmp_path), capsys)
    assert body["updatedInput"]["file_path"] == str(path) and body["updatedInput"]["offset"] == 1
