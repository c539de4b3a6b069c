"""The fast text paths (formats/text: scan, needles, tail) against the generic one (TextIOWrapper into the Sink).

A differential property test: random files (random line lengths, CRLF, lone CR, no final newline, invalid
UTF-8, over-long lines) and random patterns and bounds, with the block size and MAX_LINE forced small so every
edge is hit, must give the same text, line numbers, summary and `next` both ways. Then --tail against the last
lines of the generic full text, and the `next` of a window the timeout stopped before it began.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from boundread.bytelevel import charset
from boundread.bytelevel.sniff import Sniffed
from boundread.contract import sink as sinkmod
from boundread.contract.model import Request, Source, Span
from boundread.core import engine
from boundread.errors import UsageError
from boundread.formats.text import needles, scan, tail
from boundread.limits import Limits
from boundread.ranges import OPEN_END
from tests.helpers import run, run_json

SETTINGS = settings(derandomize=True, max_examples=400, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

PIECES = [b"a", b"b", b"ab", b"A", b"ERROR", b"error ", b"line 7 ", b"k", b"\xe2\x84\xaa",  # Kelvin sign: -i k
          b"\xc3\xa9", b"\xff", b"\xe2\x82", b"\xef\xbf\xbd", b" ", b"\t", b"1", b"\x1c", b"\r", b"\xc4\xb0",
          b"\xc4\xb1", b"\xc5\xbf", b"s", b"i"]  # İ ı ſ: -i i and s
BREAKS = [b"\n", b"\n", b"\n", b"\r\n", b"\r"]
PATTERNS = ["a", "ab", "b", "ERROR", "error", "b+a", "a|ERROR", "k", "K", "é", "line 7", "^a", "a$", r"\d",
            "x", "", "error|b", "a.b", r"\ba\b", "\ufffd", r"\s", "A", "(?i)err", "ä", r"(ab)+", "a\nb", r"\x1c",
            "(?:ERROR|line) ", "a{2}", "[ab]b", "İ", "ı", "é|a",
            "s", "i", "ki|s", "(?i)is",
            # no literal every match holds: the pattern runs over stretches of lines (needles._regex)
            r"[ab]$", r"^\s", r"\s\S", r"[^a]", r"\W+", r"(?s).b", r"^$", r"\s$", r"(?m)^\S", r"\b\w{2}\b",
            r"[Kk]", r"[\u212a]", r"\d|[ab]", r"(a|\s)+$", r"\S*", r"[é\ufffd]", r"(?=a)\w", r"\A\w",
            r"(?-m:^a)", r"(?-m:a$)", r"\s+\d", r"[^\n]+b", r".\d", r"[\x00-\x7f]", r"(?s)(?-s:.)\d"]


@st.composite
def files(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(st.lists(st.sampled_from(PIECES), max_size=12), max_size=40))
    out = b""
    for line in lines:
        out += b"".join(line) + draw(st.sampled_from(BREAKS))
    if draw(st.booleans()):  # no final newline
        out += b"".join(draw(st.lists(st.sampled_from(PIECES), max_size=5)))
    return out


def _source(path: Path, encoding: str) -> Source:
    return Source(name=str(path), sniffed=Sniffed("text", "text/plain", encoding=encoding), size=path.stat().st_size,
                  path=path)


@contextlib.contextmanager
def _forced(path: Path, encoding: str, *, fast: bool, block: int, max_line: int,
            stretch: int | None = None, rg: bool = False) -> Iterator[None]:
    """Read ``path`` as text in ``encoding`` (whatever its bytes look like), by the fast or the generic path;
    ``rg``: leave the choice of rg to the caller (tests/test_grep_engine_matches_python.py)."""
    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch.object(engine, "open_source", lambda _: _source(path, encoding)))
        # forced as a user's --encoding forces it: the handler's own choice (bytelevel/charset) is not asked
        forced = charset.Choice(encoding, "--encoding")
        stack.enter_context(mock.patch.object(charset, "decide", lambda *_args, **_kw: forced))
        stack.enter_context(mock.patch.object(scan, "BLOCK", block))
        stack.enter_context(mock.patch.object(needles, "STRETCH", stretch or max(1, block // 2)))
        stack.enter_context(mock.patch.object(sinkmod, "MAX_LINE", max_line))
        # the Python byte scan itself: rg (formats/text/rgengine.py) answers a file on disk first, and is held to
        # this path by tests/test_grep_engine_*.py
        if not rg:
            stack.enter_context(mock.patch.dict(os.environ, {"BOUNDREAD_GREP_ENGINE": "python"}))
        if not fast:
            stack.enter_context(mock.patch.object(scan, "codec", lambda _: None))
        yield


def _extract(path: Path, encoding: str, req: Request, filters: engine.Filters, *, fast: bool, block: int,
             max_line: int, stretch: int | None = None) -> dict[str, Any]:
    with _forced(path, encoding, fast=fast, block=block, max_line=max_line, stretch=stretch):
        result = engine.extract(path, req, filters, to_stdout=True)
    return {key: getattr(result, key) for key in ("text", "chars", "lines", "truncated_reasons", "done",
                                                  "warnings", "next")}


@SETTINGS
@example(data=b"ab\r\nERROR\rb\n\xff\xe2\x82 a\nlast", pattern="a", window=None, context=1, matches=2,
         chars=10_000, ignore_case=False, block=3, max_line=4, encoding="utf-8", grep=True, stretch=None)
@example(data=b"a\n" * 30, pattern="a", window=(5, 9), context=2, matches=100, chars=17,
         ignore_case=False, block=5, max_line=100, encoding="utf-8", grep=False, stretch=None)
@example(data=b"xx\xe2\x84\xaayy\n", pattern="k", window=None, context=0, matches=6, chars=100_000,
         ignore_case=True, block=64, max_line=1 << 20, encoding="utf-8", grep=True, stretch=3)
@given(data=files(), pattern=st.sampled_from(PATTERNS),
       window=st.none() | st.tuples(st.integers(1, 30), st.integers(0, 30) | st.just(OPEN_END)),
       context=st.integers(0, 3), matches=st.integers(1, 6), chars=st.sampled_from([1, 7, 40, 200, 100_000]),
       ignore_case=st.booleans(), block=st.sampled_from([1, 2, 3, 7, 64, 1 << 20]),
       max_line=st.sampled_from([3, 8, 1 << 20]),
       encoding=st.sampled_from(["utf-8", "utf-8", "latin-1", "cp1252", "ascii", "utf-8-sig"]),
       grep=st.booleans(), stretch=st.none() | st.sampled_from([1, 2, 3, 5]))
def test_the_fast_path_gives_what_the_generic_one_gives(
    tmp_path: Path, data: bytes, pattern: str, window: tuple[int, int] | None, context: int, matches: int,
    chars: int, ignore_case: bool, block: int, max_line: int, encoding: str, grep: bool, stretch: int | None,
) -> None:
    if encoding == "utf-8-sig":
        data = b"\xef\xbb\xbf" + data
    path = tmp_path / "t.txt"
    path.write_bytes(data)
    lines = None if window is None else Span(window[0], max(window))
    if lines is None and not grep:
        grep = True  # one filter at least: unfiltered text does not take the fast path
    filters = engine.Filters(lines=lines, grep=pattern if grep else None, ignore_case=ignore_case, context=context)
    req = Request(limits=Limits(max_chars=chars, max_matches=matches, timeout=None))
    fast = _extract(path, encoding, req, filters, fast=True, block=block, max_line=max_line, stretch=stretch)
    slow = _extract(path, encoding, req, filters, fast=False, block=block, max_line=max_line, stretch=stretch)
    assert fast == slow


def test_the_search_narrows_by_literals_or_by_the_pattern_and_gives_up_where_lines_would_differ() -> None:
    assert needles.finder(re.compile("NOSUCHTHING"), "utf-8") is not None
    assert needles.finder(re.compile(r"ERROR|FATAL"), "utf-8") is not None
    assert needles.finder(re.compile(r"took \d+ ms"), "utf-8") is not None
    digits = needles.finder(re.compile(r"\d{7}"), "utf-8")  # no literal: the pattern itself, over stretches
    assert digits is not None
    text = b"a 123\nb 12345678 c\nd\n"
    assert digits(text, 0, len(text)) == 6  # the start of the line that matches
    assert digits(text, 15, len(text)) == -1
    assert needles.finder(re.compile("a|\\d"), "utf-8") is not None  # one alternative has no literal
    assert needles.finder(re.compile(r"(?=x)\d"), "utf-8") is None  # a lookahead would see the next line
    assert needles.finder(re.compile(r"\A\d"), "utf-8") is None  # \A is the line's start, not the stretch's
    # A node that can match a newline would let a match (or a backtrack) run on into the next lines: \s+\d over
    # lines of blanks backtracked over the whole stretch at every start
    for across in (r"\s+\d", r"[^x]", r"\W", r"\D", r"[\x00-\x7f]", r"(?s:.)|\d"):
        assert needles.finder(re.compile(across), "utf-8") is None, across
    assert needles.finder(re.compile(r"(?-m:^\d)"), "utf-8") is None  # MULTILINE turned off: ^ is the stretch's
    assert needles.finder(re.compile(r"[^\n]+\d"), "utf-8") is not None
    find = needles.finder(re.compile("k", re.IGNORECASE), "utf-8")
    assert find is not None
    kelvin = "x\u212a".encode()
    assert find(kelvin, 0, len(kelvin)) == 1  # re.IGNORECASE matches K (U+212A) for k: so must the bytes


FOLDED = [b"k", b"K", b"i", b"I", b"s", b"S", b"o", b"x", b"\xe2\x84\xaa", b"\xc4\xb0", b"\xc4\xb1", b"\xc5\xbf",
          b"\xe2\x84", b"\xc3\xa9", b"\n", b"\r\n"]


@SETTINGS
@given(data=st.lists(st.sampled_from(FOLDED), max_size=60).map(b"".join),
       pattern=st.sampled_from(["k", "i", "s", "ok", "is", "k|s", "oi|ks", "(?:x|s)k", "kis+"]),
       stretch=st.sampled_from([1, 2, 3, 4, 5, 8]), block=st.sampled_from([3, 7, 64, 1 << 20]),
       encoding=st.sampled_from(["utf-8", "utf-8", "latin-1"]), context=st.integers(0, 1))
def test_grep_i_finds_the_non_ascii_letters_it_folds_across_every_stretch_edge(
    tmp_path: Path, data: bytes, pattern: str, stretch: int, block: int, encoding: str, context: int,
) -> None:
    path = tmp_path / "t.txt"
    path.write_bytes(data)
    filters = engine.Filters(grep=pattern, ignore_case=True, context=context)
    req = Request(limits=Limits(max_chars=100_000, max_matches=1000, timeout=None))
    fast = _extract(path, encoding, req, filters, fast=True, block=block, max_line=1 << 20, stretch=stretch)
    slow = _extract(path, encoding, req, filters, fast=False, block=block, max_line=1 << 20, stretch=stretch)
    assert fast == slow


RARE = [("k", "\u212a"), ("i", "\u0130"), ("i", "\u0131"), ("s", "\u017f")]  # what re.IGNORECASE adds


@pytest.mark.parametrize(("needle", "letter"), RARE)
@pytest.mark.parametrize("stretch", [8, 1 << 18])
@pytest.mark.parametrize("back", [1, 2])
def test_a_case_folded_match_across_two_stretches_is_found(needle: str, letter: str, stretch: int,
                                                             back: int) -> None:
    # The letter begins ``back`` bytes before a stretch ends, so its 2 or 3 bytes run into the next one.
    for pattern, before in ((needle, ""), ("o" + needle, "o")):
        match = (before + letter).encode()
        text = b"x" * (stretch - back - len(before)) + match + b"yy\n"
        with mock.patch.object(needles, "STRETCH", stretch):
            find = needles.finder(re.compile(pattern, re.IGNORECASE), "utf-8")
            assert find is not None
            assert find(text, 0, len(text)) == text.find(match)
            assert re.search(pattern, text.decode(), re.IGNORECASE)


def test_grep_i_finds_a_kelvin_sign_where_two_stretches_meet(tmp_path: Path) -> None:
    # The reviewer's file: K (U+212A) at byte 262,143, the last of the first 256 kB stretch.
    path = tmp_path / "kel.txt"
    body = b"x" * 99 + b"\n"
    head = body * 2621
    path.write_bytes(head + b"y" * (needles.STRETCH - 1 - len(head)) + "\u212a".encode() + b"y\n" + body * 9)
    result = run("extract", str(path), "--grep", "k", "-i", "--stdout")
    assert result.exit_code == 0
    assert [line.split(":", 1)[0] for line in result.stdout.splitlines()] == ["2622"]


def test_the_rare_byte_search_finds_what_find_finds() -> None:
    text = (b"INFO worker request served\n" * 5000) + b"a NOSUCHTHING here\n" + b"INFO more\n" * 10
    find = needles.finder(re.compile("NOSUCHTHING"), "utf-8")
    assert find is not None
    assert find(text, 0, len(text)) == text.find(b"NOSUCHTHING")
    assert find(text, text.find(b"NOSUCHTHING") + 1, len(text)) == -1
    common = needles.finder(re.compile("INFO more"), "utf-8")
    assert common is not None and common(text, 0, len(text)) == text.find(b"INFO more")


def _tail_reference(path: Path, encoding: str, n: int) -> str:
    """The last ``n`` lines of the generic full text (universal newlines, replacement characters)."""
    text = path.read_bytes().decode(encoding if encoding != "utf-8-sig" else "utf-8-sig", errors="replace")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    keep = lines[-n:] if n < len(lines) else lines
    return "\n".join(keep) + ("\n" if text.endswith("\n") and keep else "")


@SETTINGS
@given(data=files(), n=st.integers(1, 45), block=st.sampled_from([1, 2, 5, 64, 1 << 20]),
       encoding=st.sampled_from(["utf-8", "latin-1", "utf-16", "utf-8-sig"]), chars=st.sampled_from([5, 100_000]))
def test_tail_gives_the_last_lines(tmp_path: Path, data: bytes, n: int, block: int, encoding: str,
                                   chars: int) -> None:
    if encoding == "utf-16":
        data = data.decode("utf-8", errors="replace").encode("utf-16")
    if encoding == "utf-8-sig":
        data = b"\xef\xbb\xbf" + data
    path = tmp_path / "t.txt"
    path.write_bytes(data)
    req = Request(limits=Limits(max_chars=chars, timeout=None), tail=n)
    with _forced(path, encoding, fast=True, block=block, max_line=1 << 20):
        result = engine.extract(path, req, to_stdout=True)
    want = _tail_reference(path, encoding, n)
    assert result.text == want[:chars]
    total = len(want.split("\n")) - (1 if want.endswith("\n") else 0) if want else 0
    if len(want) > chars:  # cut: next asks for the lines not yet shown, and shows them
        written = result.text.count("\n") if result.text else 0
        if written:
            assert result.next and result.next[0].endswith(f"--tail {total - written}")
    else:
        assert not result.next and not result.truncated


def test_tail_of_a_big_file_reads_only_its_end(tmp_path: Path) -> None:
    path = tmp_path / "big.log"
    path.write_bytes(b"".join(b"line %07d\n" % n for n in range(1, 200_001)))
    reads: list[int] = []
    real = tail._tail_start

    def counted(raw: Any, size: int, wanted: int) -> tuple[int, int | None]:
        start, total = real(raw, size, wanted)
        reads.append(size - start)
        return start, total

    with mock.patch.object(tail, "_tail_start", counted):
        result = engine.extract(path, Request(tail=3), to_stdout=True)
    assert result.text == "line 0199998\nline 0199999\nline 0200000\n"
    assert result.done == f"the last 3 lines (from byte {path.stat().st_size - 39:,} of {path.stat().st_size:,})"
    assert reads == [39]


def test_tail_with_lines_or_grep_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "a.log"
    path.write_text("one\ntwo\n", encoding="utf-8")
    for filters in (engine.Filters(lines=Span(1, 2)), engine.Filters(grep="one")):
        with pytest.raises(UsageError, match="--tail does not combine with"):
            engine.extract(path, Request(tail=5), filters, to_stdout=True)
    with pytest.raises(UsageError, match="--tail 0"):
        engine.extract(path, Request(tail=0), to_stdout=True)


def test_a_window_the_timeout_stops_before_it_begins_suggests_more_time_not_a_step_back(tmp_path: Path) -> None:
    path = tmp_path / "big.log"
    path.write_bytes(b"".join(b"line %d\n" % n for n in range(1, 50_001)))
    window = Span(40_000, 40_010)
    for filters in (engine.Filters(lines=window), engine.Filters(lines=window, grep="line")):
        result = engine.extract(path, Request(limits=Limits(timeout=0.0)), filters, to_stdout=True)
        assert result.timed_out and result.text == ""  # expired before the first block
        (step,) = result.next
        assert "--lines 40000-40010" in step and step.endswith("--timeout 1")  # the same range, more time
        after = run(*shlex.split(step)[1:], "--stdout")
        assert after.exit_code == 0
        numbers = [line.rsplit(" ", 1)[-1] for line in after.stdout.splitlines()]
        assert numbers == [str(n) for n in range(40_000, 40_011)]


def test_a_window_ctrl_c_stopped_before_it_began_suggests_the_same_window(tmp_path: Path) -> None:
    path = tmp_path / "big.log"
    path.write_bytes(b"".join(b"line %d\n" % n for n in range(1, 50_001)))
    window = Span(40_000, 40_500)

    def pressed(*_: object) -> None:
        raise KeyboardInterrupt  # Ctrl-C while the first block is being counted

    for filters in (engine.Filters(lines=window), engine.Filters(lines=window, grep="line")):
        with mock.patch.object(scan, "_block", pressed):
            result = engine.extract(path, Request(limits=Limits(timeout=60)), filters, to_stdout=True)
        assert result.truncated_reasons == ("interrupted",) and result.text == ""
        (step,) = result.next
        assert "--lines 40000-40500" in step and "--timeout" not in step  # the same command again


def test_the_cli_takes_tail_and_says_what_does_not_combine(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    log.write_text("".join(f"request {n} served\n" for n in range(1, 5001)), encoding="utf-8")
    result = run("extract", str(log), "--tail", "2", "--stdout")
    assert result.exit_code == 0 and result.stdout == "request 4999 served\nrequest 5000 served\n"
    assert "the last 2 lines" in result.stderr
    code, data = run_json("extract", str(log), "--tail", "3", "--max-chars", "30")
    assert code == 0 and data["truncated"] and data["next"][-1].endswith("--tail 2")  # the 2 lines not shown yet
    for clash in (("--grep", "x"), ("--lines", "1-5")):
        result = run("extract", str(log), "--tail", "5", *clash)
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.startswith("boundread: error: --tail does not combine with") and "Traceback" not in \
            result.stderr
    pdf = tmp_path / "r.pdf"
    pdf.write_bytes((Path(__file__).resolve().parents[1] / "src/boundread/data/sample-report.pdf").read_bytes())
    code, data = run_json("extract", str(pdf), "--tail", "5")
    assert code == 2 and "--tail does not apply" in data["error"]["message"]
    assert any("--tail" in step for step in run_json("info", str(log))[1]["next"])  # 5,000 lines: more than a window
