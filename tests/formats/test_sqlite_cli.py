"""SQLite from the command line: detected by its header whatever its name, listed by info and sheets, its rows
read by ``sheets F TABLE --rows A-B``, ``extract --sql``; bad input is one line and a distinct exit code."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from tests.formats.sqlite_fixtures import SENTINEL, listing, make_app
from tests.helpers import run, run_json

from boundread import api
from boundread.errors import ExitCode


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return make_app(tmp_path / "app.db")


def test_info_names_the_kind_and_lists_tables(app: Path) -> None:
    code, out = run_json("info", str(app))
    assert code == 0 and out["kind"] == "sqlite"
    assert [s["name"] for s in out["fields"]["sheets"]] == ["users", "kv", "names"]
    assert any("sheets" in step and "users --rows 1-50" in step for step in out["next"])


def test_detected_by_its_header_whatever_its_name(app: Path) -> None:
    renamed = app.with_name("blob.bin")
    shutil.copy(app, renamed)
    assert api.info(renamed).kind == "sqlite"


def test_sheets_reads_a_table_window(app: Path) -> None:
    result = run("sheets", "app.db", "users", "--rows", "1-2", "--stdout")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:4] == ["--- sheet 'users' (rows 1-2 of 500, rowid order) ---",
                                              "id,name,bio,pic", f"1,user1 {SENTINEL},bbbbb,[blob 1 B]",
                                              "2,user2,bbbbb,[blob 50.0 kB]"]
    assert "boundread sheets app.db users --rows 3-4" in result.stderr


def test_rows_without_a_table_names_them(app: Path) -> None:
    result = run("sheets", str(app), "--rows", "1-5")
    assert result.exit_code == ExitCode.USAGE and "'users', 'kv'" in result.stderr


def test_extract_sql_and_its_json(app: Path) -> None:
    result = run("extract", str(app), "--sql", "SELECT k, v FROM kv ORDER BY v DESC", "--stdout")
    assert result.exit_code == 0 and result.stdout.splitlines() == ["k,v", "c,3", "b,2", "a,1"]
    code, out = run_json("extract", str(app), "--sql", "SELECT id FROM users", "--max-rows", "2", "--stdout")
    assert code == 0 and out["truncated"] and any("--rows 3-4" in step for step in out["next"])


def test_a_write_is_one_line_exit_2_and_the_file_unchanged(app: Path) -> None:
    before = listing(app.parent)
    result = run("extract", str(app), "--sql", "DELETE FROM users", "--stdout")
    assert result.exit_code == ExitCode.USAGE
    assert result.stderr.startswith("boundread: error: --sql may only read: delete users is not allowed - ")
    assert result.stderr.count("\n") == 1
    assert listing(app.parent) == before


def test_sql_on_another_kind_is_a_usage_error(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    result = run("extract", str(text), "--sql", "SELECT 1")
    assert result.exit_code == ExitCode.USAGE and "--sql does not apply" in result.stderr


def test_only_the_header_is_corrupt_exit_6(tmp_path: Path) -> None:
    fake = tmp_path / "fake.sqlite"
    fake.write_bytes(b"SQLite format 3\x00" + b"\x00" * 84)
    result = run("extract", str(fake), "--stdout")
    assert result.exit_code == ExitCode.CORRUPT
    assert result.stderr.startswith("boundread: error: ") and result.stderr.count("\n") == 1
    code, out = run_json("info", str(fake))  # info describes it, and says what extract will meet
    assert code == 0 and out["kind"] == "sqlite" and out["problem"]["exit_code"] == ExitCode.CORRUPT


def test_json_mode_errors_are_json(app: Path) -> None:
    result = run("extract", str(app), "--sql", "PRAGMA journal_mode=WAL", "--json")
    assert result.exit_code == ExitCode.USAGE
    assert json.loads(result.stdout)["error"]["code"] == "usage"


def test_chunks_cut_a_big_table_between_rows_with_its_marker_and_header(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    monkeypatch.chdir(tmp_path)
    conn = sqlite3.connect(tmp_path / "big.db")
    conn.execute("CREATE TABLE ev(id INTEGER PRIMARY KEY, kind TEXT)")
    conn.executemany("INSERT INTO ev VALUES (?, ?)", ((n, "click " * 8) for n in range(1, 5001)))
    conn.commit()
    conn.close()
    result = run("chunks", "big.db", "--tokens", "2000", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    second = (tmp_path / "out" / "chunk-00002.txt").read_text().splitlines()
    assert second[0].startswith("--- sheet 'ev' (rows 1-5000 of 5,000") and second[1] == "id,kind"
    chunks = json.loads((tmp_path / "out" / "manifest.json").read_text())["chunks"]
    for chunk in chunks:  # a span's rows are the ids the chunk holds: the column names line is no row
        ids = [int(line.split(",")[0]) for line in (tmp_path / "out" / chunk["file"]).read_text().splitlines()[2:]]
        assert chunk["span"] == f"sheet 'ev' rows {ids[0]}-{ids[-1]}", (chunk["span"], ids[:3])


def test_each_query_has_its_own_output_file(app: Path) -> None:
    first = run_json("extract", "app.db", "--sql", "SELECT k FROM kv")[1]["output"]
    second = run_json("extract", "app.db", "--sql", "SELECT v FROM kv", "--rows", "1-2")[1]["output"]
    assert Path(first).name == "app.db.sql-SELECT_k_FROM_kv.txt"
    assert Path(second).name == "app.db.sql-SELECT_v_FROM_kv.rows-1-2.txt"
    assert Path(first).read_text().splitlines() == ["k", "a", "b", "c"]


def test_sql_with_a_sheet_is_a_usage_error(app: Path) -> None:
    result = run("extract", "app.db", "--sql", "SELECT 1", "--sheet", "kv")
    assert result.exit_code == ExitCode.USAGE and "--sheet does not apply with it" in result.stderr
