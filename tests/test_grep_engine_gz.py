"""`extract LOG.gz --grep P` is searched by rg through a pipe (formats/_rg/stream.py, wired in archives/single.py)
and says what the Python loop says, byte for byte: the text, line numbers, the "of N read" count (rg's, from the
sentinel line the stream closes with), the bounds, `next`, the decompression cap and a damaged stream's warning.
"""

from __future__ import annotations

import bz2
import gzip
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from boundread.formats._rg import proc, stream
from tests.helpers import needs_rg, run

CASES = {
    "lf": b"".join(b"%d %s x\n" % (n, b"ERROR" if n % 9 == 0 else b"INFO") for n in range(1, 400)),
    "crlf, no final newline": b"a ERROR\r\nb\r\nc ERROR\r\nd",
    "lone cr": b"a ERROR\rb\rc\r\nd ERROR\n\re ERROR\r",
    "bom": b"\xef\xbb\xbfERROR first\nsecond\nERROR third\n",
    "latin-1": "caf\u00e9 ERROR\nna\u00efve\n".encode("latin-1") * 50,
    "a line that says the sentinel": b"x ERROR\n" + stream.SENTINEL + b"\ny ERROR\n" + stream.SENTINEL,
    "empty": b"",
}
ARGS = [["--grep", "ERROR"], ["--grep", "error", "-i", "--context", "2", "--max-matches", "3"],
        ["--grep", r"^\w+ ERROR$"], ["--grep", "ERROR", "--max-chars", "40"]]


@pytest.fixture(autouse=True)
def _rg() -> None:
    needs_rg()


def _both(path: Path, args: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any, int]:
    started: list[list[str]] = []
    real = proc.spawn

    def spy(argv: list[str], **kw: Any) -> Any:
        started.append(argv)
        return real(argv, **kw)

    with mock.patch.object(proc, "spawn", spy):
        by_rg = run("extract", str(path), *args, "--stdout")
    monkeypatch.setenv(proc.ENGINE_ENV, "python")
    by_python = run("extract", str(path), *args, "--stdout")
    monkeypatch.delenv(proc.ENGINE_ENV)
    return by_rg, by_python, len(started)


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("args", ARGS, ids=lambda a: " ".join(a))
def test_a_gz_grep_by_rg_says_what_the_python_loop_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      case: str, args: list[str]) -> None:
    path = tmp_path / "app.log.gz"
    path.write_bytes(gzip.compress(CASES[case]))
    by_rg, by_python, spawned = _both(path, args, monkeypatch)
    assert spawned == 1
    assert (by_rg.exit_code, by_rg.stdout, by_rg.stderr) == (by_python.exit_code, by_python.stdout,
                                                             by_python.stderr)


@pytest.mark.parametrize(("pattern", "cut"), [("0000 ERROR", "decompression cap 1.0 MB"), ("ERROR", "max_chars")])
def test_the_cap_or_a_full_sink_first_in_a_bz2_stream(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pattern: str,
                                                      cut: str) -> None:
    path = tmp_path / "big.log.bz2"
    path.write_bytes(bz2.compress(b"".join(b"line %07d ERROR\n" % n for n in range(120_000))))  # 2.1 MB
    by_rg, by_python, spawned = _both(path, ["--grep", pattern, "--max-member-mb", "1", "--max-matches", "99999999"],
                                      monkeypatch)
    assert spawned == 1
    assert f"truncated: {cut}" in by_rg.stderr
    assert (by_rg.exit_code, by_rg.stdout, by_rg.stderr) == (by_python.exit_code, by_python.stdout,
                                                             by_python.stderr)


def test_a_damaged_stream_warns_as_the_loop_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    packed = gzip.compress(b"".join(b"line %07d ERROR %d\n" % (n, n * 7919 % 1000) for n in range(200_000)))
    path = tmp_path / "cut.log.gz"
    path.write_bytes(packed[: len(packed) // 2])
    by_rg, by_python, spawned = _both(path, ["--grep", "ERROR 99", "--max-matches", "99999999"], monkeypatch)
    assert spawned == 1
    assert "is damaged after" in by_rg.stderr
    assert (by_rg.exit_code, by_rg.stdout, by_rg.stderr) == (by_python.exit_code, by_python.stdout,
                                                             by_python.stderr)


def test_a_pattern_rg_refuses_once_the_stream_is_read_is_read_again_by_the_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "app.log.gz"
    path.write_bytes(gzip.compress(CASES["lf"] * 200))  # more than one read of the pump: it has read on
    real = proc.base_argv
    with mock.patch.object(proc, "base_argv", lambda rg: [*real(rg), "--regex-size-limit", "1"]):
        by_rg, by_python, spawned = _both(path, ["--grep", r"\w+ ERROR", "--max-matches", "5000"], monkeypatch)
    assert spawned == 1
    assert by_rg.stdout.count("ERROR") == 5000  # 45,000 lines: well past the pump's first reads
    assert (by_rg.exit_code, by_rg.stdout, by_rg.stderr) == (by_python.exit_code, by_python.stdout,
                                                             by_python.stderr)
