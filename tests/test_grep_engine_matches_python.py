"""`--grep` by ripgrep (formats/text/rgengine.py) gives what the Python byte scan gives, bound for bound.

Random files (CRLF, lone CR, no final newline, invalid UTF-8, the letters -i folds) and the patterns of the scan's
own differential test, with random context, max matches and max chars, in UTF-8 and single-byte code pages: the
text, line numbers, summary, warnings and `next` must be the same both ways. Then the cases where rg must step
aside (a lone CR, a pattern it cannot take, no rg at all) and the translation's superset promise, checked by rg
itself over many lines at once.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from boundread.contract.model import Request
from boundread.core import engine
from boundread.formats._rg import pattern as rgpattern
from boundread.formats.text import lonecr, rgengine
from boundread.limits import Limits
from tests.helpers import needs_rg
from tests.test_textscan import PATTERNS, PIECES, _forced, files


@pytest.fixture(autouse=True)
def _needs_rg() -> None:
    needs_rg()


SETTINGS = settings(derandomize=True, max_examples=250, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
BIG = 1 << 20


@contextlib.contextmanager
def _engine(name: str) -> Iterator[list[bool]]:
    """Run with rg allowed (``auto``) or not (``python``); yields the answers rgengine.scan gave."""
    answers: list[bool] = []
    real = rgengine.scan

    def spy(*args: Any) -> bool:
        answers.append(real(*args))
        return answers[-1]

    with mock.patch.dict(os.environ, {rgengine.ENGINE_ENV: name}), mock.patch.object(rgengine, "scan", spy):
        yield answers


def _extract(path: Path, encoding: str, req: Request, filters: engine.Filters, name: str) -> tuple[dict[str, Any],
                                                                                                   list[bool]]:
    with _engine(name) as answers, _forced(path, encoding, fast=True, block=BIG, max_line=BIG, rg=True):
        result = engine.extract(path, req, filters, to_stdout=True)
    keys = ("text", "chars", "lines", "truncated_reasons", "done", "warnings", "next")
    return {key: getattr(result, key) for key in keys}, answers


@SETTINGS
@given(data=files(), pattern=st.sampled_from(PATTERNS), context=st.integers(0, 3), matches=st.integers(1, 6),
       chars=st.sampled_from([1, 7, 40, 200, 100_000]), ignore_case=st.booleans(),
       encoding=st.sampled_from(["utf-8", "utf-8", "latin-1", "cp1252", "cp1251", "ascii", "utf-8-sig"]),
       step=st.sampled_from([0, lonecr.STEP]), counted=st.booleans())
def test_rg_gives_what_the_python_scan_gives(tmp_path: Path, data: bytes, pattern: str, context: int,
                                            matches: int, chars: int, ignore_case: bool, encoding: str,
                                            step: int, counted: bool) -> None:
    """``step`` 0: every lone-CR question waits for the checking rg; else the bytes before a record are read.
    Not ``counted``: a big file on two cores (rgengine.count_beside), whose lines are not counted and whose
    unanchored search does not wait for the check at its end - the same text, read to the end."""
    if encoding == "utf-8-sig":
        data = b"\xef\xbb\xbf" + data
    path = tmp_path / "t.txt"
    path.write_bytes(data)
    filters = engine.Filters(grep=pattern, ignore_case=ignore_case, context=context)
    req = Request(limits=Limits(max_chars=chars, max_matches=matches, timeout=None))
    with mock.patch.object(lonecr, "STEP", step), mock.patch.object(rgengine, "count_beside", lambda _size: counted):
        by_rg, answers = _extract(path, encoding, req, filters, "auto")
    by_python, _ = _extract(path, encoding, req, filters, "python")
    if by_rg["done"].endswith(", read to the end"):
        event("read to the end, not counted")
        assert not counted
        assert re.fullmatch(re.escape(by_rg["done"].removesuffix(", read to the end")) + r" of [\d,]+ read",
                            by_python["done"])
        by_rg["done"] = by_python["done"]
    assert by_rg == by_python
    flags = re.IGNORECASE if ignore_case else 0
    dec = "utf-8" if encoding.startswith("utf-8") else encoding
    if rgpattern.translate(re.compile(pattern, flags), dec) is not None:
        assert answers == [True]  # rg searched it: the comparison above compared rg, not the Python path twice


@pytest.mark.parametrize("cap", [3, 1 << 20])
@pytest.mark.parametrize("step", [0, lonecr.STEP])
def test_a_lone_cr_ends_a_line_as_universal_newlines_do(tmp_path: Path, cap: int, step: int) -> None:
    """From the first lone CR on the Python path reads the file (rg's numbers hold before it): the context
    before it is read back, the lines after it numbered as universal newlines number them."""
    path = tmp_path / "cr.txt"
    path.write_bytes(b"zero ERROR\r\nctx\none\rtwo ERROR\nthree ERROR\r\nx\r\r\nfour\n\r\n" + b"A" * 300
                     + b"\rE1\rx\rE2\r\nlast ERROR\r")
    req = Request(limits=Limits(timeout=None))
    filters = engine.Filters(grep=r"ERROR$|^E\d", context=1)
    with _engine("auto") as answers, _forced(path, "utf-8", fast=True, block=BIG, max_line=cap, rg=True), \
            mock.patch.object(lonecr, "STEP", step):
        by_rg = engine.extract(path, req, filters, to_stdout=True)
    with _engine("python"), _forced(path, "utf-8", fast=True, block=BIG, max_line=cap, rg=True):
        by_python = engine.extract(path, req, filters, to_stdout=True)
    assert answers == [True]
    assert by_rg.text == by_python.text
    assert by_rg.done == by_python.done == f"{6 if cap > 100 else 2} matching lines of 14 read"


@pytest.mark.parametrize("pattern", [r"(a)\1", r"(?i:a)b", "(?:(?:a{1000}){1000}){10}"])
def test_a_pattern_rg_cannot_take_is_searched_by_python(tmp_path: Path, pattern: str) -> None:
    path = tmp_path / "t.txt"
    path.write_bytes(b"aa ab\nAb\n")
    req = Request(limits=Limits(timeout=None))
    by_rg, answers = _extract(path, "utf-8", req, engine.Filters(grep=pattern), "auto")
    by_python, _ = _extract(path, "utf-8", req, engine.Filters(grep=pattern), "python")
    assert answers == [False]
    assert by_rg == by_python


def test_without_rg_the_python_path_answers(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_bytes(b"a\nERROR here\n")
    req = Request(limits=Limits(timeout=None))
    with mock.patch.object(rgengine, "binary", lambda: None):
        result, answers = _extract(path, "utf-8", req, engine.Filters(grep="ERROR"), "auto")
    assert answers == [False]
    assert result["text"] == "2:ERROR here\n"
    assert result["done"] == "1 matching line of 2 read"


ONE_LINE = [piece for piece in PIECES if b"\r" not in piece]  # a lone CR sends the file to the Python path
LINES = [b"".join(combo) for combo in zip(ONE_LINE, ONE_LINE[3:] + ONE_LINE[:3], ONE_LINE[7:] + ONE_LINE[:7],
                                          strict=True)]


@pytest.mark.parametrize("dec", ["utf-8", "cp1251", "latin-1"])
@pytest.mark.parametrize("ignore_case", [False, True])
def test_the_translation_flags_every_line_python_matches(tmp_path: Path, dec: str, ignore_case: bool) -> None:
    """Superset, checked by rg itself: every line whose decoded text the Python pattern matches is one rg reports
    for the translated regex (pieces of invalid UTF-8, U+FFFD, the letters -i folds, spaces)."""
    rg = rgengine.binary()
    assert rg is not None
    lines = sorted({a + b for a in LINES for b in [*ONE_LINE, b""]})
    path = tmp_path / "lines.txt"
    path.write_bytes(b"\n".join(lines) + b"\n")
    checked = 0
    for pattern in PATTERNS:
        compiled = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
        regex = rgpattern.translate(compiled, dec)
        if regex is None:
            continue
        found = subprocess.run([rg, "--no-config", "-a", "-E", "none", "-n", "-e", regex, "--", str(path)],
                               capture_output=True, check=False)
        assert found.returncode in (0, 1), (pattern, regex, found.stderr)
        reported = {int(line.split(b":", 1)[0]) for line in found.stdout.split(b"\n") if line}
        wanted = {n for n, line in enumerate(lines, 1) if compiled.search(line.decode(dec, "replace"))}
        assert wanted <= reported, (pattern, regex, sorted(wanted - reported)[:5])
        checked += 1
    assert checked > len(PATTERNS) // 2
