"""A file grepped again skips the two whole-file passes beside the search (formats/_rg/counts.py): its line count
and first lone CR are remembered by the file's identity, and the answer is the one a first grep gives. A change to
the file, a file changed just now, a damaged or unwritable cache: the passes run again, never a wrong count.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boundread.bytelevel.sniff import Sniffed
from boundread.contract.model import Source
from boundread.contract.sink import Sink
from boundread.formats._rg import counts
from boundread.formats.text import rgengine, scan
from boundread.limits import Limits
from tests.helpers import needs_rg
from tests.test_textscan import PATTERNS, files


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    needs_rg()
    monkeypatch.setenv(counts.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(counts, "RACY", -1.0)  # the files here were written just now
    monkeypatch.setattr(counts, "MIN_SIZE", 0)  # and are small


def _grep(path: Path, pattern: str, context: int = 0) -> tuple[tuple[object, ...], int]:
    """What a grep by rg gives (text, matches, lines read, reasons), and how many rg it started."""
    started: list[Any] = []
    real = rgengine.spawn

    def spy(argv: list[str], **kw: Any) -> Any:
        started.append(argv)
        return real(argv, **kw)

    sink = Sink(Limits(timeout=None), grep=re.compile(pattern), context=context)
    src = Source(name=str(path), sniffed=Sniffed("text", "text/plain", encoding="utf-8"), size=path.stat().st_size,
                 path=path)
    with mock.patch.object(rgengine, "spawn", spy):
        scan.scan(src, sink, "utf-8")
    sink.close()
    return (sink.text(), sink.matches, sink.line_no, sink.reasons), len(started)


def test_the_second_grep_runs_the_search_alone_and_says_the_same(tmp_path: Path) -> None:
    path = tmp_path / "app.log"
    path.write_bytes(b"".join(b"%d %s\n" % (n, b"ERROR" if n % 7 == 0 else b"INFO") for n in range(1, 500)))
    first, spawned = _grep(path, "ERROR", context=1)
    assert spawned == 3  # the search, the line count, the lone-CR check
    again, spawned = _grep(path, "ERROR", context=1)
    assert spawned == 1
    assert again == first
    assert first[2] == 499


def test_a_remembered_lone_cr_still_hands_its_lines_to_the_python_path(tmp_path: Path) -> None:
    path = tmp_path / "cr.log"
    path.write_bytes(b"a ERROR\r\nb\rc ERROR\nd\n" * 3 + b"e ERROR")
    first, _ = _grep(path, "ERROR")
    again, spawned = _grep(path, "ERROR")
    assert spawned == 1
    assert again == first
    assert first[2] == 13 and first[1] == 7  # universal newlines: the lone CR ends a line


def test_a_changed_file_is_counted_again(tmp_path: Path) -> None:
    path = tmp_path / "app.log"
    path.write_bytes(b"x ERROR\n" * 10)
    assert _grep(path, "ERROR")[0][2] == 10
    with path.open("ab") as fh:
        fh.write(b"y\n" * 5)
    answer, spawned = _grep(path, "ERROR")
    assert spawned == 3
    assert answer[2] == 15


@pytest.mark.parametrize(("racy", "min_size"), [(3600.0, 0), (-1.0, 1000)], ids=["changed just now", "small"])
def test_a_file_changed_just_now_or_small_is_not_remembered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           racy: float, min_size: int) -> None:
    monkeypatch.setattr(counts, "RACY", racy)
    monkeypatch.setattr(counts, "MIN_SIZE", min_size)
    path = tmp_path / "app.log"
    path.write_bytes(b"x ERROR\n" * 10)
    _grep(path, "ERROR")
    assert _grep(path, "ERROR")[1] == 3
    assert counts.key(str(path)) is None
    assert not (tmp_path / "cache").exists()


@pytest.mark.parametrize("damage", ["not a cache", "a\tb", "k\t12", "\t1\tclear", "1:2\t\u00b2\t\u00b9,\u00b2",
                                    "x" * 300 + "\t1\tclear", "1\t2\tclear\n" * 50_000])
def test_a_damaged_cache_is_no_cache(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "app.log"
    path.write_bytes(b"x ERROR\n" * 10)
    store = tmp_path / "cache" / "grep-counts.tsv"
    store.parent.mkdir()
    store.write_text(damage)
    assert _grep(path, "ERROR") == (("1:x ERROR\n" + "".join(f"{n}:x ERROR\n" for n in range(2, 11)), 10, 10, []),
                                    3)
    assert _grep(path, "ERROR")[1] == 1  # and the next grep has it again


def test_a_cache_folder_that_cannot_be_written_is_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setenv(counts.CACHE_ENV, str(blocker / "cache"))  # under a file: mkdir fails
    path = tmp_path / "app.log"
    path.write_bytes(b"x ERROR\n" * 10)
    assert _grep(path, "ERROR")[0][2] == 10
    assert _grep(path, "ERROR") == (_grep(path, "ERROR")[0], 3)


def test_the_cache_keeps_at_most_keep_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counts, "KEEP", 3)
    paths = []
    for n in range(5):
        paths.append(tmp_path / f"f{n}.log")
        paths[-1].write_bytes(b"x\n" * (n + 1))
        counts.remember(counts.key(str(paths[-1])), counts.Counts(n + 1, counts.CLEAR))
    assert counts.recall(counts.key(str(paths[0]))) == counts.Counts()
    assert counts.recall(counts.key(str(paths[4]))) == counts.Counts(5, counts.CLEAR)
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["grep-counts.tsv"]  # no temporary file left behind


def test_a_file_that_changes_during_the_grep_is_not_remembered(tmp_path: Path) -> None:
    path = tmp_path / "live.log"
    path.write_bytes(b"x ERROR\n" * 10)
    keys = iter([counts.key(str(path)), "another identity"])  # the file's key before the grep, and after

    with mock.patch.object(counts, "key", lambda _path: next(keys)), mock.patch.object(counts, "remember") as spy:
        _grep(path, "ERROR")
    assert not spy.called


NAMES = itertools.count()


@settings(derandomize=True, max_examples=120, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=files(), pattern=st.sampled_from(PATTERNS), context=st.integers(0, 2))
def test_what_was_remembered_gives_the_first_grep_s_answer(tmp_path: Path, data: bytes, pattern: str,
                                                           context: int) -> None:
    """Random files (CRLF, lone CR, no final newline): the grep that finds the counts remembered says what the
    grep that counted said, and the cache has the file after the first."""
    path = tmp_path / f"f{next(NAMES)}.log"  # a new file each time: a rewrite within one clock tick keeps its key
    path.write_bytes(data)
    first, _ = _grep(path, pattern, context)
    again, spawned = _grep(path, pattern, context)
    assert again == first
    assert spawned <= 1


def test_the_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(counts.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert counts.folder() == str(tmp_path / "xdg" / "boundread")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert counts.folder() == str(tmp_path / "home" / ".cache" / "boundread")
    monkeypatch.delenv("HOME")  # no home: no cache, never one in the working folder
    monkeypatch.setattr("pwd.getpwuid", mock.Mock(side_effect=KeyError("no such user")))
    assert counts.folder() is None
    counts.remember("1:2:3:4:5", counts.Counts(7, counts.CLEAR))
    assert counts.recall("1:2:3:4:5") == counts.Counts()


@pytest.mark.parametrize(("figures", "known"), [
    ("10", counts.Counts()), ("10\tclear\tmore", counts.Counts()), ("1\u00b2\tclear", counts.Counts(None, "clear")),
    ("10\t3,", counts.Counts(10, None)), ("10\t,4", counts.Counts(10, None)), ("-\t2,7", counts.Counts(None, (2, 7))),
])
def test_a_damaged_entry_for_the_file_itself_keeps_only_what_it_says_whole(tmp_path: Path, figures: str,
                                                                           known: counts.Counts) -> None:
    """A line under the file's own key whose figures are cut or not ASCII digits: those figures are not known, and
    the pass that finds them runs again."""
    path = tmp_path / "app.log"
    path.write_bytes(b"x ERROR\n" * 10)
    store = tmp_path / "cache" / "grep-counts.tsv"
    store.parent.mkdir()
    store.write_text(f"{counts.key(str(path))}\t{figures}\n", encoding="utf-8")
    assert counts.recall(counts.key(str(path))) == known
