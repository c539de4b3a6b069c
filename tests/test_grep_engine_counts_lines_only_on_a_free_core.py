"""A grep by rg counts the file's lines beside its search only where that costs no wait (rgengine.count_beside):
a file of up to COUNT_ALWAYS bytes, or a machine with a third core. On two cores the search and the lone-CR check
take both, and a big file's summary says its lines were read to the end instead of how many - never a number that
is not the count (the line of the last match, say)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from boundread import api
from boundread.bytelevel.sniff import Sniffed
from boundread.contract.model import Source
from boundread.contract.sink import Sink
from boundread.formats._rg import counts
from boundread.formats.text import rgengine
from boundread.limits import Limits
from tests.helpers import needs_rg

LOG = b"".join(b"%d %s\n" % (n, b"ERROR" if n == 40 else b"INFO") for n in range(1, 1001))


@pytest.fixture(autouse=True)
def _engine(monkeypatch: pytest.MonkeyPatch) -> None:
    needs_rg()
    monkeypatch.setattr(rgengine, "COUNT_ALWAYS", 0)  # every file is "big"
    monkeypatch.setattr(counts, "MIN_SIZE", 1 << 40)  # nothing remembered: each grep is a first


def _cores(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    monkeypatch.setattr(rgengine.os, "sched_getaffinity", lambda _pid: set(range(n)), raising=False)


def _grep(path: Path, pattern: str) -> tuple[Sink, list[list[str]]]:
    started: list[list[str]] = []
    real = rgengine.spawn

    def spy(argv: list[str], **kw: Any) -> Any:
        started.append(argv)
        return real(argv, **kw)

    sink = Sink(Limits(timeout=None), grep=re.compile(pattern))
    src = Source(name=str(path), sniffed=Sniffed("text", "text/plain", encoding="utf-8"), size=path.stat().st_size,
                 path=path)
    with mock.patch.object(rgengine, "spawn", spy):
        assert rgengine.scan(src, sink, "utf-8", "utf-8")
    return sink, started


def test_on_two_cores_a_big_file_is_searched_but_not_counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _cores(monkeypatch, 2)
    path = tmp_path / "app.log"
    path.write_bytes(LOG)
    sink, started = _grep(path, "ERROR")
    assert len(started) == 1  # the search; its record's line was checked here (lonecr.STEP), no count
    assert (sink.matches, sink.line_no, sink.lines_counted, sink.warnings) == (1, 40, False, [])


def test_with_a_third_core_the_count_runs_beside_the_search(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _cores(monkeypatch, 3)
    path = tmp_path / "app.log"
    path.write_bytes(LOG)
    sink, started = _grep(path, "ERROR")
    assert len(started) == 3
    assert (sink.matches, sink.line_no, sink.lines_counted) == (1, 1000, True)


def test_the_summary_says_read_to_the_end_not_a_wrong_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _cores(monkeypatch, 2)
    path = tmp_path / "app.log"
    path.write_bytes(LOG)
    result = api.extract(path, grep="ERROR", output=tmp_path / "out.txt")
    assert result.done == "1 matching line, read to the end"
    assert result.output is not None and Path(result.output).read_text(encoding="utf-8") == "40:40 ERROR\n"
    _cores(monkeypatch, 3)
    assert api.extract(path, grep="ERROR", output=tmp_path / "again.txt").done == "1 matching line of 1,000 read"


def test_a_small_file_is_counted_on_any_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _cores(monkeypatch, 1)
    monkeypatch.setattr(rgengine, "COUNT_ALWAYS", len(LOG))
    path = tmp_path / "app.log"
    path.write_bytes(LOG)
    assert _grep(path, "NOSUCH")[0].line_no == 1000


CR_LOG = b"".join(b"%d INFO\n" % n for n in range(1, 200)) + b"old mac\rbeta ERROR\r" + \
    b"".join(b"%d INFO\n" % n for n in range(201, 400))


@pytest.mark.parametrize(("pattern", "text"), [
    ("NOSUCH", ""),  # unanchored, no record: no wait for the lone-CR check
    ("ERROR", "201:beta ERROR\n"),  # a record after the lone CR: its line numbered as universal newlines do
    ("^beta", "201:beta ERROR\n"),  # anchored: a lone CR starts a line for Python, not for rg - the check decides
    ("mac$", "200:old mac\n"),
])
def test_not_counting_keeps_every_match_and_line_number_past_a_lone_cr(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch,
                                                                        pattern: str, text: str) -> None:
    _cores(monkeypatch, 2)
    path = tmp_path / "mixed.log"
    path.write_bytes(CR_LOG)
    result = api.extract(path, grep=pattern, output=tmp_path / "out.txt")
    assert result.done.startswith(f"{text.count(chr(10))} matching line")
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == text
    monkeypatch.setenv("BOUNDREAD_GREP_ENGINE", "python")
    api.extract(path, grep=pattern, output=tmp_path / "python.txt")
    assert (tmp_path / "python.txt").read_text(encoding="utf-8") == text


def test_an_unanchored_search_without_records_does_not_wait_for_the_check(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    _cores(monkeypatch, 2)
    monkeypatch.setattr(rgengine, "HELPERS_AFTER", 30.0)  # the timer never starts the check here
    path = tmp_path / "app.log"
    path.write_bytes(LOG)
    assert len(_grep(path, "NOSUCH")[1]) == 1  # the search alone
    assert len(_grep(path, "^NOSUCH")[1]) == 2  # anchored: the check runs at the end
