"""Hostile JSON and JSONL give one line and a distinct exit code, or a bounded answer: a million ``[``, a string
that never closes, a string of 20 MB, invalid UTF-8 in a string, a JSONL line of 8 MB, trailing garbage, a
number of 10,000 digits. Generated here; the 200 MB and 500 MB versions are measured in bench/json_bench.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.helpers import run, run_json

from boundread.errors import ExitCode


def _file(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(("name", "data", "why"), [
    ("deep.json", b"[" * 1_000_000, "ends inside 1,000,000 open brackets"),
    ("open.json", b'{"a": "' + b"x" * 3_000_000, "a string that never closes"),
    ("digits.json", b'{"a": ' + b"1" * 10_000 + b"}", "a number longer than"),
    ("garbage.json", b'{"a": @}', "unexpected b'@'"),
])
def test_broken_json_is_one_line_and_exit_6(tmp_path: Path, name: str, data: bytes, why: str) -> None:
    path = _file(tmp_path, name, data)
    result = run("extract", str(path), "--path", ".a")
    assert result.exit_code == ExitCode.CORRUPT and result.stdout == ""
    assert result.stderr.count("\n") == 1 and why in result.stderr and "Traceback" not in result.stderr
    code, data_ = run_json("info", str(path))  # info describes the problem instead of failing
    assert code == 0 and data_["problem"]["exit_code"] == ExitCode.CORRUPT and why in data_["problem"]["message"]


def test_a_million_nested_arrays_that_close_are_counted_not_recursed(tmp_path: Path) -> None:
    path = _file(tmp_path, "nest.json", b"[" * 1_000_000 + b"]" * 1_000_000)
    code, data = run_json("info", str(path))
    assert code == 0 and data["fields"]["depth"] == 1_000_000
    code, data = run_json("extract", str(path), "--max-chars", "500", "--stdout")
    assert code == 0 and data["chars"] <= 500 and data["truncated"]


def test_a_huge_string_is_cut_not_held(tmp_path: Path) -> None:
    path = _file(tmp_path, "big.json", b'{"s": "' + b"y" * 20_000_000 + b'", "after": 1}')
    code, data = run_json("info", str(path))
    assert code == 0 and any("(20,000,000 bytes)" in s for s in data["fields"]["samples"])
    assert '.after = 1' in data["fields"]["samples"]
    code, data = run_json("extract", str(path), "--path", ".s", "--max-chars", "1000", "--stdout")
    assert code == 0 and data["chars"] == 1000 and data["truncated"]
    assert any("alone is longer than --max-chars" in w for w in data["warnings"])
    code, data = run_json("extract", str(path), "--path", ".after", "--stdout")
    assert data["text"] == "1\n"


def test_invalid_utf8_in_a_string_is_replaced_and_said(tmp_path: Path) -> None:
    head = b'{"pad": "' + b"a" * 70_000 + b'", '  # past the encoding sniff's sample: the file is still UTF-8
    path = _file(tmp_path, "bad.json", head + b'"s": "ok \xff\xfe bad"}')
    code, data = run_json("extract", str(path), "--path", ".s", "--stdout")
    assert code == 0 and data["text"] == '"ok \ufffd\ufffd bad"\n'
    assert any("invalid UTF-8" in w for w in data["warnings"])


def test_a_jsonl_line_of_8_mb_is_cut_and_the_next_records_read(tmp_path: Path) -> None:
    path = _file(tmp_path, "long.jsonl", b'{"a": 1}\n{"s": "' + b"z" * 8_000_000 + b'"}\n{"b": 2}\n')
    code, data = run_json("info", str(path))
    assert code == 0 and data["fields"]["records"] == 3 and data["fields"]["longest_record"] > 8_000_000
    code, data = run_json("extract", str(path), "--rows", "3-3", "--stdout")
    assert data["text"] == '{"b": 2}\n'
    code, data = run_json("extract", str(path), "--rows", "2-2", "--stdout", "--max-chars", "2000000")
    assert code == 0 and 1_000_000 <= data["chars"] <= 1_100_000
    assert any("longer than 1,048,576 bytes: cut there" in w for w in data["warnings"])
    assert "1 record cut at 1,048,576 bytes" in data["truncated_reasons"]
    code, data = run_json("chunks", str(path), "-o", str(tmp_path / "c"))
    assert code == 0 and data["complete"] is False  # the record's rest is in no chunk


def test_more_after_the_top_value_is_said(tmp_path: Path) -> None:
    path = _file(tmp_path, "two.json", b'{"a": 1}\n{"a": 2}\n')
    code, data = run_json("info", str(path))
    assert code == 0 and any("JSON Lines?" in w for w in data["warnings"])
