"""A Parquet file is routed as its own kind whatever its name: info, sheets --rows, chunks, and the guard denies a
whole Read naming the bounded commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tests.formats.parquet_fixtures import make_events

from boundread.bytelevel.sniff import sniff_bytes

pytest.importorskip("pyarrow")
BIN = [sys.executable, "-m", "boundread"]


def _run(cwd: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*BIN, *args], cwd=cwd, capture_output=True, text=True, input=stdin, check=False)


def test_the_magic_names_it_and_text_starting_par1_stays_text() -> None:
    assert sniff_bytes(b"PAR1\x15\x04\x15\x00\x00", name="data.bin").kind == "parquet"
    assert sniff_bytes(b"PAR1 of the plan: ship it\n", name="notes.txt").kind == "text"


def test_info_and_rows_through_the_cli(tmp_path: Path) -> None:
    make_events(tmp_path / "ev.data")  # no .parquet name: the magic decides
    info = _run(tmp_path, "info", "ev.data", "--json")
    assert info.returncode == 0, info.stderr
    assert '"rows": 1000' in info.stdout and '"kind": "parquet"' in info.stdout
    rows = _run(tmp_path, "sheets", "ev.data", "--rows", "455-456", "--stdout")
    assert rows.returncode == 0, rows.stderr
    assert rows.stdout.splitlines()[2:] == ["455,row455,[binary 3 bytes]", "456,row456,[binary 3 bytes]"]


def test_a_damaged_file_is_one_line_and_exit_6(tmp_path: Path) -> None:
    path = make_events(tmp_path / "ev.parquet")
    path.write_bytes(path.read_bytes()[:-50])
    done = _run(tmp_path, "extract", "ev.parquet", "--stdout")
    assert done.returncode == 6
    assert done.stderr.startswith("boundread: error: ") and done.stderr.count("\n") == 1


def test_the_guard_denies_a_whole_read_naming_sheets_rows(tmp_path: Path) -> None:
    path = make_events(tmp_path / "ev.parquet")
    event = {"tool_name": "Read", "tool_input": {"file_path": str(path)}}
    done = _run(tmp_path, "guard-check", "--agent", "claude", stdin=json.dumps(event))
    decision = json.loads(done.stdout)["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny"
    assert f"boundread sheets {path} --rows 1-50" in decision["permissionDecisionReason"]


@pytest.mark.parametrize(("code", "denied"), [
    ("import pandas as pd; print(pd.read_parquet('ev.parquet').to_string())", True),
    ("import pyarrow.parquet as pq; print(pq.read_table('ev.parquet').to_pandas().to_csv())", True),
    ("import pandas as pd; print(pd.read_parquet('ev.parquet'))", False),  # pandas prints 10 rows and 10
])
def test_the_guard_sizes_python_dumps_of_a_parquet_file(tmp_path: Path, code: str, denied: bool) -> None:
    make_events(tmp_path / "ev.parquet")
    event = {"tool_name": "Bash", "tool_input": {"command": f'python3 -c "{code}"'}, "cwd": str(tmp_path)}
    done = _run(tmp_path, "guard-check", "--agent", "claude", stdin=json.dumps(event))
    assert ('"permissionDecision": "deny"' in done.stdout) is denied, done.stdout
    if denied:
        assert "boundread sheets ev.parquet --rows 1-50" in done.stdout


def test_chunks_name_the_rows_they_hold(tmp_path: Path) -> None:
    """The column-names line under a sheet marker is no row: 1,000 rows are rows 1-1000, not 1-1001."""
    from tests.helpers import run_json

    path = make_events(tmp_path / "events.parquet")
    code, data = run_json("chunks", str(path), "-o", str(tmp_path / "c"))
    assert code == 0 and data["complete"] is True
    assert [chunk["span"] for chunk in data["chunks"]] == ["sheet 'events' rows 1-1000"]
